// `docrag ask --embed-url URL --embed-model NAME`: every chunk and the question are
// embedded by the provider (the stub, on 127.0.0.1) and retrieval is hybrid (cosine
// and BM25, BM25-anchored score fusion); without the flags it stays lexical.
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { cliConvert, cliPath, corpus } from './helpers.mjs';
import { startStub } from './stub-server.mjs';

/** Runs the CLI without blocking the event loop (the stub answers in this process). */
function docrag(args) {
  return new Promise((resolve) => {
    execFile(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
      resolve({ status: err ? (err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const FILES = ['pandoc__comments.docx', 'tika__testRTFVarious.rtf', 'es6tutorial__proxy.md'].map(corpus);
const QUESTION = 'Who left a comment on the text?';

test('ask with an embedding provider embeds each chunk and the question and fuses cosine with BM25', async () => {
  const stub = await startStub({ dim: 16 });
  try {
    const r = await docrag(['ask', ...FILES, '--question', QUESTION, '--embed-url', stub.url, '--embed-model', 'stub']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.accounting.retrieval, 'hybrid');
    assert.match(out.reason, /retrieval: hybrid/);
    const sent = stub.requests.filter((q) => q.path.endsWith('/embeddings')).flatMap((q) => q.body.input);
    const chunks = FILES.flatMap((f) => cliConvert(f).records.map((c) => c.text));
    assert.ok(chunks.length > 10, `${chunks.length} chunks`);
    // Each chunk once (the vectors are cached by content within the run), then the question.
    assert.deepEqual(sent.slice(0, -1).sort(), [...new Set(chunks)].sort());
    assert.equal(sent.at(-1), QUESTION);
    assert.ok(out.citations.length > 0);
  } finally {
    await stub.close();
  }
  const plain = await docrag(['ask', ...FILES, '--question', QUESTION]);
  assert.equal(plain.status, 0, plain.stderr);
  const lexical = JSON.parse(plain.stdout);
  assert.notEqual(lexical.accounting.retrieval, 'hybrid');
  assert.doesNotMatch(lexical.reason, /hybrid/);
});

test('ask with a model but no URL is a usage error, and an unreachable provider exits 69', async () => {
  const r = await docrag(['ask', FILES[0], '--question', QUESTION, '--embed-model', 'stub']);
  assert.equal(r.status, 64);
  assert.match(r.stderr, /--embed-url/);
  // A port nothing listens on (the stub's, after it closed).
  const stub = await startStub();
  const url = stub.url;
  await stub.close();
  const down = await docrag(['ask', FILES[0], '--question', QUESTION, '--embed-url', url, '--embed-model', 'stub']);
  assert.equal(down.status, 69, down.stderr);
  assert.match(down.stderr, /embedding with openai:stub failed/);
});
