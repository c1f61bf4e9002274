// countTokens through the package: the count every chunk's tokenCount carries, on
// real corpus files of several scripts, and typed errors for what is not a string.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { corpus, docrag, thrown } from './helpers.mjs';

test('countTokens equals the tokenCount of every chunk of corpus files', () => {
  let chunks = 0;
  for (const file of ['pandoc__MANUAL.txt', 'docx4j__Docx4j_GettingStarted_Hindi.html', 'es6tutorial__proxy.md', 'pandoc__comments.docx']) {
    const out = docrag.convert(readFileSync(corpus(file)), { fileName: file, maxTokens: 300 });
    out.chunks.forEach((text, i) => assert.equal(docrag.countTokens(text), out.metadata[i].tokenCount, `${file} chunk ${i}`));
    chunks += out.chunks.length;
  }
  assert.ok(chunks > 100, `${chunks} chunks`);
});

test('countTokens counts o200k_base tokens, special-token text as ordinary text', () => {
  assert.equal(docrag.countTokens(''), 0);
  assert.equal(docrag.countTokens('hello world'), 2);
  assert.equal(docrag.countTokens('<|endoftext|>'), 7);
  // A lone surrogate is read as U+FFFD, never a crash.
  assert.equal(docrag.countTokens('a\uD800b'), docrag.countTokens('a\uFFFDb'));
});

test('countTokens throws invalid-input for what is not a string', () => {
  for (const bad of [undefined, null, 42, ['a'], { text: 'a' }, new Uint8Array([65])]) {
    const err = thrown(() => docrag.countTokens(bad));
    assert.equal(err.name, 'DocragError', String(bad));
    assert.equal(err.code, 'invalid-input');
  }
});
