// Converter fidelity (issue 16) through the wasm package: the fixtures of
// tests/data/fidelity/ against the same expectations tests/fidelity.rs asserts
// natively (tests/data/fidelity/expected.json). Also checks that the generated lookup
// tables in the crate (symbol fonts, EBCDIC) are what their generators write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docrag, root } from './helpers.mjs';

const dir = join(root, 'tests', 'data', 'fidelity');
const { fixtures } = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));

for (const [name, want] of Object.entries(fixtures)) {
  test(`fidelity: ${name}`, () => {
    const r = docrag.convert(new Uint8Array(readFileSync(join(dir, name))), { fileName: name });
    const text = r.chunks.join('\n\n');
    for (const s of want.contains ?? []) assert.ok(text.includes(s), `missing ${JSON.stringify(s)} in\n${text}`);
    for (const s of want.lacks ?? []) assert.ok(!text.includes(s), `has ${JSON.stringify(s)} in\n${text}`);
    for (const s of want.once ?? []) assert.equal(text.split(s).length - 1, 1, `${JSON.stringify(s)} in\n${text}`);
    for (const [kind, strings] of Object.entries(want.chunks ?? {})) {
      const ofKind = r.chunks.filter((_, i) => r.metadata[i].chunkKind === kind);
      for (const s of strings) assert.ok(ofKind.some((t) => t.includes(s)), `no ${kind} chunk holds ${JSON.stringify(s)}`);
    }
    for (const [field, value] of Object.entries(want.metadata ?? {})) {
      assert.ok(r.metadata.some((m) => m[field] === value), `no chunk has ${field} = ${JSON.stringify(value)}`);
    }
    if (want.warning) {
      assert.ok(
        r.warnings.some((w) => w.code === want.warning.code && w.message.includes(want.warning.text)),
        JSON.stringify(r.warnings),
      );
    }
    if (want.noWarnings) assert.deepEqual(r.warnings, []);
    if (want.maxTokens) {
      const total = r.metadata.reduce((s, m) => s + m.tokenCount, 0);
      assert.ok(total <= want.maxTokens, `${total} tokens > ${want.maxTokens}`);
    }
  });
}

test('the generated tables are what their generators write', () => {
  const symbols = spawnSync(process.execPath, [join(root, 'scripts', 'gen-symbol-fonts.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(symbols.status, 0, symbols.stderr);
  const ebcdic = spawnSync('python3', [join(root, 'scripts', 'gen-ebcdic.py'), '--check'], { encoding: 'utf8' });
  assert.equal(ebcdic.status, 0, ebcdic.stderr || ebcdic.error?.message);
});
