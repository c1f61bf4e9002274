// Collection.export(): the collection as docrag.chunk.v1 JSONL in a Blob (issue 18),
// checked line by line against chunks(), countTokens() and the stub provider's
// deterministic vectors. (WorkerCollection.export() is browsers-only:
// tests/browser/collection.test.mjs.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpus, docrag } from './helpers.mjs';
import { startStub, stubVector } from './stub-server.mjs';

const { Collection, countTokens } = docrag;
const DIM = 16;
const files = ['pandoc__comments.docx', 'pandoc__html-reader.html'];
const stub = await startStub({ dim: DIM });
after(() => stub.close());

const provider = () => ({ kind: 'openai', baseUrl: stub.url, embeddingModel: 'emb', batchSize: 8, maxRetries: 0 });

/** A memory collection with both corpus files added (small chunks: several per file). */
async function filled(name, options = {}) {
  const c = await Collection.open(name, { storage: 'memory', ...options });
  for (const f of files) await c.addFile(new Uint8Array(readFileSync(corpus(f))), { fileName: f, convert: { maxTokens: 120 } });
  return c;
}

/** The Blob's lines, each parsed. */
async function lines(blob) {
  const text = await blob.text();
  assert.ok(text === '' || text.endsWith('\n'), 'every line ends with a newline');
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** What every line must hold whatever the provider: ids, order, text, tokens, metadata. */
function assertLines(c, rows) {
  const docs = c.documents();
  assert.equal(docs.length, files.length);
  assert.equal(rows.length, docs.reduce((n, d) => n + d.chunkCount, 0));
  let at = 0;
  for (const d of docs) {
    const chunks = c.chunks(d.docId);
    assert.equal(chunks.length, d.chunkCount);
    for (let seq = 0; seq < chunks.length; seq++) {
      const row = rows[at++];
      assert.equal(row.format, 'docrag.chunk.v1');
      assert.equal(row.documentId, d.docId, 'documents in documents() order, consecutive');
      assert.equal(row.seq, seq, 'chunks in ssSeq order');
      assert.equal(row.chunkId, `${row.documentId}:${row.seq}`);
      assert.equal(row.fileName, d.fileName);
      assert.equal(row.text, chunks[seq].text);
      assert.equal(row.tokenCount, countTokens(row.text));
      assert.deepEqual(row.metadata, chunks[seq].metadata);
      assert.equal(row.metadata.ssDocId, d.docId);
      assert.equal(row.metadata.ssSeq, seq);
    }
  }
  // The two files really are a DOCX and an HTML page, with more than one chunk between them.
  assert.deepEqual(docs.map((d) => [d.fileName, d.format]), [['pandoc__comments.docx', 'docx'], ['pandoc__html-reader.html', 'html']]);
  assert.ok(rows.length > files.length, `${rows.length} chunks`);
}

test('without a provider: one line per chunk, no embedding fields', async () => {
  const c = await filled('export-plain');
  const progress = [];
  const blob = await c.export({ onProgress: (p) => progress.push(p) });
  assert.ok(blob instanceof Blob);
  assert.equal(blob.type, 'application/x-ndjson');
  const rows = await lines(blob);
  assertLines(c, rows);
  for (const row of rows) {
    assert.equal('embedding' in row, false);
    assert.equal('embeddingModel' in row, false);
  }
  // Progress in chunks: from 0 to the total, never backwards.
  const total = c.stats().chunks;
  assert.deepEqual(progress[0], { stage: 'export', done: 0, total });
  assert.deepEqual(progress.at(-1), { stage: 'export', done: total, total });
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i].done >= progress[i - 1].done);
});

test('with the stub provider: each line has the stub vector of its text and the model id', async () => {
  stub.reset();
  const c = await filled('export-vectors', { provider: provider() });
  const model = c.provider.embeddingModelId;
  assert.equal(model, 'openai:emb');
  assert.deepEqual(c.stats().embeddingModels, [model]);
  const rows = await lines(await c.export());
  assertLines(c, rows);
  for (const row of rows) {
    assert.equal(row.embeddingModel, model);
    assert.equal(row.embedding.length, DIM);
    const expected = stubVector(row.text, DIM);
    // Written as the shortest decimal that reads back as the same float32.
    assert.deepEqual(row.embedding.map(Math.fround), [...expected], `vector of ${row.chunkId}`);
  }

  // Stored vectors of a model that is not the current provider's are not exported:
  // with no provider, no line has a vector; with the provider back, they all do.
  await c.setProvider(null);
  const bare = await lines(await c.export());
  assert.equal(bare.length, rows.length);
  assert.ok(bare.every((r) => !('embedding' in r) && !('embeddingModel' in r)));
  assert.deepEqual(bare, rows.map(({ embedding, embeddingModel, ...rest }) => rest));
  await c.setProvider(provider());
  assert.deepEqual(await lines(await c.export()), rows);
});

test('an empty collection exports an empty Blob; options are checked; an abort rejects', async () => {
  const empty = await Collection.open('export-empty', { storage: 'memory' });
  const blob = await empty.export();
  assert.equal(blob.size, 0);
  assert.equal(blob.type, 'application/x-ndjson');

  const c = await filled('export-options');
  await assert.rejects(c.export({ format: 'csv' }), (e) => e.code === 'invalid-option' && e.option === 'format');
  await assert.rejects(c.export({ onProgress: 3 }), (e) => e.code === 'invalid-option' && e.option === 'onProgress');
  await assert.rejects(c.export({ signal: AbortSignal.abort() }), (e) => e.name === 'AbortError' && e.cause?.code === 'aborted');
  // Aborted from its own progress report, after the first document.
  const ac = new AbortController();
  await assert.rejects(
    c.export({ signal: ac.signal, onProgress: (p) => p.done > 0 && ac.abort() }),
    (e) => e.name === 'AbortError',
  );
});
