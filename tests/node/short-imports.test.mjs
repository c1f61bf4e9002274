// scripts/short-imports.mjs: the built package's imports carry short names in the wasm
// and in its glue, and the renaming refuses a glue it cannot rename exactly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { shortenImports } from '../../scripts/short-imports.mjs';
import { pkgDir, root } from './helpers.mjs';

/** A module importing `fields` (functions of type () -> ()) from module `m`, by hand. */
function moduleImporting(fields) {
  const str = (s) => [s.length, ...Buffer.from(s)];
  const imports = [fields.length, ...fields.flatMap((f) => [...str('m'), ...str(f), 0x00, 0x00])];
  return Buffer.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...[0x01, 0x04, 0x01, 0x60, 0x00, 0x00], // type section: one () -> ()
    ...[0x02, imports.length, ...imports],
    ...[0x00, 0x03, ...str('hi')], // a custom section, kept as it was
  ]);
}

test('the built package imports from its glue by short names only', () => {
  const module = new WebAssembly.Module(readFileSync(join(pkgDir, 'docrag_bg.wasm')));
  const imports = WebAssembly.Module.imports(module).filter((i) => i.module === './docrag_bg.js');
  assert.ok(imports.length > 100, `${imports.length} imports`);
  assert.deepEqual(imports.filter((i) => i.name.length > 2), []);
  const glue = readFileSync(join(pkgDir, 'docrag.js'), 'utf8');
  assert.deepEqual(glue.match(/__wbg_\w+_[0-9a-f]{16}\b/g) ?? [], []);
  // The build script runs the renaming on every build.
  assert.match(readFileSync(join(root, 'scripts', 'build-pkg.mjs'), 'utf8'), /shortenImports\(/);
});

test('imports are renamed in the module and the glue, every other byte kept', () => {
  const fields = ['__wbg_alpha_0123456789abcdef', '__wbg_beta_fedcba9876543210'];
  const wasm = moduleImporting(fields);
  const glue = `const i={__wbg_alpha_0123456789abcdef:()=>1,__wbg_beta_fedcba9876543210(){}};x.__wbg_alpha_0123456789abcdefg=2;`;
  const out = shortenImports(wasm, glue, 'm');
  assert.equal(out.renamed, 2);
  assert.deepEqual(
    WebAssembly.Module.imports(new WebAssembly.Module(out.wasm)).map((i) => `${i.module}.${i.name}`),
    ['m.a', 'm.b'],
  );
  assert.equal(out.glue, 'const i={a:()=>1,b(){}};x.__wbg_alpha_0123456789abcdefg=2;');
  assert.deepEqual(out.wasm.subarray(-5), wasm.subarray(-5));
  // Imports of another module keep their names.
  assert.equal(shortenImports(wasm, glue, 'other').renamed, 0);
});

test('a glue that names an import twice or never is refused, not half renamed', () => {
  const wasm = moduleImporting(['__wbg_alpha_0123456789abcdef']);
  assert.throws(() => shortenImports(wasm, '__wbg_alpha_0123456789abcdef;__wbg_alpha_0123456789abcdef', 'm'), /2 times, expected once/);
  assert.throws(() => shortenImports(wasm, 'nothing here', 'm'), /0 times, expected once/);
  assert.throws(() => shortenImports(wasm.subarray(0, 8), '', 'm'), /no import section/);
});
