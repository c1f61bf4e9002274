#!/usr/bin/env node
// Type-checks the shipped .d.ts the way consumers see it: packs pkg/ with npm pack,
// installs the tarball into a throwaway project under tests/artifacts/, and runs the
// repo's tsc (strict, skipLibCheck false) on tests/node/types/usage.ts under
// moduleResolution bundler (browser libs, no Node types) and node16 (Node types).
// Usage: node scripts/check-types.mjs   (after scripts/build-pkg.mjs)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(join(root, 'pkg', 'package.json'))) throw new Error('pkg/ is not built: run node scripts/build-pkg.mjs');
if (!existsSync(tsc)) throw new Error('typescript is not installed: run npm ci');

const work = join(root, 'tests', 'artifacts', 'types-consumer');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const sh = (cmd, args, cwd = work) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

const tarball = sh('npm', ['pack', '--silent', '--pack-destination', work, join(root, 'pkg')]).trim().split('\n').pop();
writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'types-consumer', private: true, type: 'module' }, null, 2));
sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-save', join(work, tarball)]);
copyFileSync(join(root, 'tests', 'node', 'types', 'usage.ts'), join(work, 'usage.ts'));

const common = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', noUnusedLocals: true };
const configs = {
  bundler: { ...common, module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: [] },
  node16: { ...common, module: 'node16', moduleResolution: 'node16', lib: ['es2022'], types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] },
};
let failed = 0;
for (const [name, compilerOptions] of Object.entries(configs)) {
  const file = join(work, `tsconfig.${name}.json`);
  writeFileSync(file, JSON.stringify({ compilerOptions, files: ['usage.ts'] }, null, 2));
  try {
    execFileSync(process.execPath, [tsc, '-p', file], { cwd: work, stdio: 'inherit' });
    console.log(`types ok: moduleResolution ${name}`);
  } catch {
    console.error(`types FAILED: moduleResolution ${name}`);
    failed += 1;
  }
}
process.exit(failed ? 1 : 0);
