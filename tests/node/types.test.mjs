// The hand-written index.d.ts against what the code really does, so the types cannot
// drift: option keys, error codes, metadata fields and their value types.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { corpus, docrag, pkgDir, root, thrown } from './helpers.mjs';

const dts = readFileSync(join(pkgDir, 'index.d.ts'), 'utf8');

/** `name?: type;` members of an interface in the d.ts. */
function members(name) {
  const body = new RegExp(`export interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`).exec(dts)[1];
  return Object.fromEntries([...body.matchAll(/^\s+(\w+)\??: ([^;]+);/gm)].map((m) => [m[1], m[2]]));
}

test('ConvertOptions in the d.ts lists exactly the keys convert accepts', () => {
  const err = thrown(() => docrag.convert('x', { notAnOption: 1 }));
  const known = /known options are (.*)$/.exec(err.message)[1].split(', ');
  assert.deepEqual(Object.keys(members('ConvertOptions')).sort(), known.sort());
});

test('Limits in the d.ts lists exactly the limits convert accepts', () => {
  const err = thrown(() => docrag.convert('x', { limits: { nope: 1 } }));
  const known = /known limits are (.*)$/.exec(err.message)[1].split(', ');
  assert.deepEqual(Object.keys(members('Limits')).sort(), known.sort());
});

test('DocragErrorCode is every core error code (convert, retrieve, enrich, query, provider, storage) plus the binding codes', () => {
  const union = /export type DocragErrorCode =([^;]+);/.exec(dts)[1];
  const typed = [...union.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]).sort();
  const sources = [
    'error.rs',
    join('retrieve', 'error.rs'),
    join('enrich', 'error.rs'),
    join('query', 'error.rs'),
    join('provider', 'error.rs'),
  ];
  // The storage codes: StoreError's arms only (store.rs also names the storage kinds).
  const storage = readFileSync(join(root, 'src', 'wasm', 'runtime', 'store.rs'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('StoreError::'))
    .join('\n');
  const rust = sources.map((f) => readFileSync(join(root, 'src', f), 'utf8')).join('\n') + storage;
  const core = [...rust.matchAll(/=> "([a-z-]+)",/g)].map((m) => m[1]);
  assert.ok(core.length >= 50, `${core.length} core codes`);
  const binding = ['invalid-input', 'internal', 'not-initialized', 'init-failed', 'aborted', 'empty-document'];
  assert.deepEqual(typed, [...new Set([...core, ...binding])].sort());
});

test('ChunkMetadata documents every default metadata field of the chunker', () => {
  const labels = readFileSync(join(root, 'src', 'chunk', 'labels.rs'), 'utf8');
  const fields = [...labels.matchAll(/\(\s*"(\w+)",\s*"field: /g)].map((m) => m[1]);
  assert.ok(fields.length >= 25, `${fields.length} fields in labels.rs`);
  const typed = Object.keys(members('ChunkMetadata')).filter((k) => !k.startsWith('ss'));
  assert.deepEqual(typed.sort(), fields.sort());
});

test('real metadata values have the types the d.ts gives them', () => {
  const typed = members('ChunkMetadata');
  const check = (m, where) => {
    for (const [k, v] of Object.entries(m)) {
      const t = typed[k];
      if (!t) continue;
      if (t === 'number') assert.ok(Number.isSafeInteger(v), `${where} ${k}=${v} should be a number`);
      else if (t === 'Flag') assert.ok(v === 'yes' || v === 'no', `${where} ${k}=${v} should be yes/no`);
      else assert.equal(typeof v, 'string', `${where} ${k}=${v} should be a string`);
    }
  };
  for (const f of ['pandoc__comments.docx', 'poi__bug57031.docx', 'pandoc__MANUAL.txt']) {
    const r = docrag.convert(readFileSync(corpus(f)), { maxTokens: 256 });
    r.metadata.forEach((m, i) => check(m, `${f}#${i}`));
    assert.ok(r.metadata.every((m) => 'tokenCount' in m && 'docTitle' in m));
  }
});
