// The package surface: exports, constants, caller fields, warnings, the browser entry.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cliPath, corpus, docrag, manifest, pkgDir, root, thrown } from './helpers.mjs';

test('SYSTEM_MESSAGE is the native constant', () => {
  const native = spawnSync(cliPath, ['system-message'], { encoding: 'utf8' });
  assert.equal(native.status, 0);
  assert.equal(docrag.SYSTEM_MESSAGE, native.stdout.replace(/\n$/, ''));
  assert.equal(docrag.systemMessage(), docrag.SYSTEM_MESSAGE);
  assert.ok(docrag.SYSTEM_MESSAGE.length > 200, 'a real message, not a placeholder');
});

test('version() is the Cargo.toml version and the package version', () => {
  const cargo = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, 'Cargo.toml'), 'utf8'))[1];
  assert.equal(docrag.version(), cargo);
  assert.equal(manifest.version, cargo);
});

test('caller fields are copied into every record as strings and numbers', () => {
  const r = docrag.convert(readFileSync(corpus('pandoc__MANUAL.txt')), {
    maxTokens: 400,
    fields: { project: 'apollo', year: 2024, negative: -3 },
  });
  assert.ok(r.metadata.length > 10);
  for (const m of r.metadata) {
    assert.equal(m.project, 'apollo');
    assert.equal(m.year, 2024);
    assert.equal(m.negative, -3);
  }
});

test('metadata records are plain objects and the result is plain data', () => {
  const r = docrag.convert('One paragraph.\n\nAnother paragraph.', { fileName: 'notes.txt' });
  assert.equal(Object.getPrototypeOf(r.metadata[0]), Object.prototype);
  assert.deepEqual(Object.keys(r).sort(), ['chunks', 'docId', 'metadata', 'title', 'warnings']);
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  assert.equal(r.title, 'notes');
});

test('warnings come back as {code, message}', () => {
  // Files the native CLI warns about (checked there too: warnings go to its stderr).
  for (const f of ['poi__ExternalEntityInText.docx', 'powertools__RP035-Inserted-Cells.docx']) {
    const { warnings } = docrag.convert(readFileSync(corpus(f)));
    assert.ok(warnings.length > 0, `${f} warns`);
    const native = spawnSync(cliPath, ['convert', corpus(f)], { encoding: 'utf8' });
    const nativeWarnings = native.stderr.split('\n').filter((l) => l.startsWith('docrag: warning ['));
    assert.deepEqual(nativeWarnings, warnings.map((w) => `docrag: warning [${w.code}]: ${w.message}`));
    for (const w of warnings) {
      assert.deepEqual(Object.keys(w).sort(), ['code', 'message']);
      assert.match(w.code, /^[a-z][a-z-]*$/);
      assert.ok(w.message.length > 0);
    }
  }
});

test('the browser entry: not-initialized, init errors name the URL, init is idempotent', async () => {
  // A private copy of the package: the glue module keeps one instance per module URL,
  // and the node entry has already initialized the shared one.
  const copy = mkdtempSync(join(tmpdir(), 'docrag-web-'));
  after(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(pkgDir, copy, { recursive: true });
  const web = await import(pathToFileURL(join(copy, manifest.exports['.'].browser)).href);
  const err = thrown(() => web.convert('text'));
  assert.equal(err.code, 'not-initialized');
  assert.equal(err.name, 'DocragError');
  // Node's fetch cannot read file: URLs, so the default location fails here, and the
  // error says where it looked.
  const failed = await web.init().then(() => null, (e) => e);
  assert.equal(failed?.code, 'init-failed');
  assert.match(failed.message, /file:\/\/.*docrag_bg\.wasm/);
  const bytes = readFileSync(join(pkgDir, 'docrag_bg.wasm'));
  await web.init(bytes);
  await web.init(new Uint8Array([0, 1, 2])); // already initialized: ignored
  const text = readFileSync(corpus('pandoc__MANUAL.txt'));
  assert.deepEqual(web.convert(text, { maxTokens: 512 }), docrag.convert(text, { maxTokens: 512 }));
  assert.equal(web.SYSTEM_MESSAGE, docrag.SYSTEM_MESSAGE);
  assert.equal(web.version(), docrag.version());
});
