// The names callback: called once per chunk with its plain text; its names land in
// the metadata; its exceptions come back unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { corpus, docrag, thrown } from './helpers.mjs';

const { convert } = docrag;
const manual = () => readFileSync(corpus('pandoc__MANUAL.txt'));

test("a names callback's results show up in every record", () => {
  const seen = [];
  const result = convert(manual(), {
    maxTokens: 512,
    names: (text) => {
      assert.equal(typeof text, 'string');
      seen.push(text);
      return {
        persons: ['Ada Lovelace', `Person ${seen.length}`],
        organizations: ['Acme Corp'],
        places: ['Paris'],
        terms: ['wasm'],
      };
    },
  });
  assert.equal(seen.length, result.chunks.length, 'called once per chunk');
  assert.ok(result.chunks.length > 10);
  assert.ok(seen.some((t) => t.includes('John MacFarlane')), 'the callback sees chunk text');
  result.metadata.forEach((m, i) => {
    assert.match(String(m.persons), /Ada Lovelace/);
    assert.match(String(m.persons), new RegExp(`Person ${i + 1}\\b`));
    assert.match(String(m.organizations), /Acme Corp/);
    assert.match(String(m.places), /Paris/);
    assert.match(String(m.terms), /wasm/);
  });
});

test('a callback returning undefined or partial names is fine', () => {
  const none = convert('Plain words here.', { names: () => undefined });
  assert.equal(none.chunks.length, 1);
  const some = convert('Plain words here.', { names: () => ({ terms: ['words'] }) });
  assert.match(String(some.metadata[0].terms), /words/);
});

test("a throwing callback's exception propagates unchanged, and it is not called again", () => {
  const boom = new TypeError('names service unavailable');
  let calls = 0;
  const err = thrown(() =>
    convert(manual(), {
      maxTokens: 256,
      names: () => {
        calls += 1;
        throw boom;
      },
    }),
  );
  assert.equal(err, boom, 'the very same object');
  assert.equal(calls, 1);
  assert.ok(!docrag.isDocragError(err));
  // Non-Error throws come back unchanged too.
  assert.equal(thrown(() => convert('Some text.', { names: () => { throw 'plain string'; } })), 'plain string');
});

test('a callback returning the wrong shape is an invalid-option error', () => {
  for (const [ret, message] of [
    [42, /returned something else/],
    [{ people: ['x'] }, /unknown key 'people'/],
    [{ persons: 'Ada' }, /'persons' is not an array/],
    [{ terms: [1] }, /'terms' holds a non-string/],
    [Promise.resolve({}), /must be synchronous/],
  ]) {
    const err = thrown(() => convert('Some text.', { names: () => ret }));
    assert.equal(err.code, 'invalid-option');
    assert.equal(err.option, 'names');
    assert.match(err.message, message);
  }
});

test('without a callback the built-in finder uses places and terms', () => {
  const r = convert('We met in Lisbon to discuss tokenizers at length.', { places: ['Lisbon'], terms: ['tokenizers'] });
  assert.match(String(r.metadata[0].places), /Lisbon/);
  assert.match(String(r.metadata[0].terms), /tokenizers/);
});
