// Errors cross into JS as real Error objects with name "DocragError" and a stable code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { corpus, docrag, thrown } from './helpers.mjs';

const { convert, isDocragError } = docrag;

function assertDocragError(err, code) {
  assert.ok(err instanceof Error, `an Error, not ${typeof err}: ${err}`);
  assert.equal(err.name, 'DocragError');
  assert.equal(err.code, code, err.message);
  assert.ok(isDocragError(err));
  assert.ok(err.message.length > 10);
}

test('a legacy .doc is an Error with code legacy-doc', () => {
  const err = thrown(() => convert(readFileSync(corpus('poi__simple-table.doc'))));
  assertDocragError(err, 'legacy-doc');
  assert.match(err.message, /Word 97-2003 \.doc/);
  assert.ok(String(err.stack).includes('DocragError'));
});

test('empty input and too-large input have their codes', () => {
  assertDocragError(thrown(() => convert(new Uint8Array(0))), 'empty-input');
  assertDocragError(thrown(() => convert('')), 'empty-input');
  const manual = readFileSync(corpus('pandoc__MANUAL.txt'));
  const err = thrown(() => convert(manual, { limits: { maxInputBytes: 1000 } }));
  assertDocragError(err, 'too-large');
  assert.match(err.message, new RegExp(`${manual.length} bytes, over the limit of 1000`));
});

test('bad options throw invalid-option naming the option', () => {
  const cases = [
    [{ maxToken: 512 }, 'maxToken', /unknown option; known options are maxTokens,/],
    [{ maxTokens: 10 }, 'maxTokens', /below the minimum of 64/],
    [{ maxTokens: 512.5 }, 'maxTokens', /whole number/],
    [{ maxTokens: '512' }, 'maxTokens', /expected a number, got string/],
    [{ maxTokens: null }, 'maxTokens', /got null/],
    [{ firstPage: 5, lastPage: 2 }, 'firstPage', /after last page/],
    [{ firstPage: 0 }, 'firstPage', /page number/],
    [{ docId: '  ' }, 'docId', /empty/],
    [{ title: 7 }, 'title', /expected a string/],
    [{ fields: { ssSeq: 1 } }, 'fields.ssSeq', /ssDocId or ssSeq/],
    [{ fields: { tokenCount: 'x' } }, 'fields.tokenCount', /tokenCount/],
    [{ fields: { team: { a: 1 } } }, 'fields.team', /string or a whole number/],
    [{ fields: [] }, 'fields', /expected an object, got an array/],
    [{ places: ['Paris', 3] }, 'places[1]', /expected a string/],
    [{ terms: 'wasm' }, 'terms', /array of strings/],
    [{ names: 'finder' }, 'names', /expected a function/],
    [{ limits: { maxDepth: 0 } }, 'limits.maxDepth', /outside/],
    [{ limits: { maxDepht: 9 } }, 'limits.maxDepht', /unknown limit/],
    [{ labels: { noSuchLabel: 'x' } }, 'labels.noSuchLabel', /not a label/],
    [{ format: 'odt' }, 'format', /unknown format "odt"; expected docx, html, rtf, markdown, text or pdf/],
    [{ format: 1 }, 'format', /expected a string/],
    [5, 'options', /expected an object, got number/],
  ];
  for (const [options, option, message] of cases) {
    const err = thrown(() => convert('Some text.', options));
    assertDocragError(err, 'invalid-option');
    assert.equal(err.option, option, JSON.stringify(options));
    assert.match(err.message, message, JSON.stringify(options));
  }
});

test('undefined option values are defaults; null and undefined options too', () => {
  const base = convert('Some text for a chunk.');
  assert.deepEqual(convert('Some text for a chunk.', { maxTokens: undefined, title: undefined }), base);
  assert.deepEqual(convert('Some text for a chunk.', null), base);
  assert.deepEqual(convert('Some text for a chunk.', undefined), base);
});

test('inputs other than bytes or text throw invalid-input', () => {
  for (const input of [42, null, undefined, {}, [1, 2], new Uint16Array(4)]) {
    const err = thrown(() => convert(input));
    assertDocragError(err, 'invalid-input');
    assert.match(err.message, /Uint8Array, an ArrayBuffer or a string/);
  }
});

test('the instance keeps working after errors', () => {
  for (let i = 0; i < 3; i++) {
    thrown(() => convert(readFileSync(corpus('poi__simple-table.doc'))));
    thrown(() => convert('x', { maxTokens: 1 }));
  }
  const ok = convert('Still here after the errors.');
  assert.equal(ok.chunks.length, 1);
  assert.ok(ok.chunks[0].includes('Still here after the errors.'));
});
