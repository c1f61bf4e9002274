// Regression tests of two wasm faults (fixed in bd5c199):
//   1. a routing or classification reply with a multi-byte character where the parser
//      checked for a label (`NONE — ...`, `BROAD…`, CJK) sliced a &str inside that
//      character: `RuntimeError: unreachable`, and every later call into the same
//      instance failed too;
//   2. `addFile(.., { replace: true })` whose new version could not be indexed wrote
//      the new version, failed, then deleted it: neither version was left.
// The Chromium versions (IndexedDB, a browser restart) are tests/browser/robustness.test.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { contentId, corpus, docrag } from './helpers.mjs';
import { startStub } from './stub-server.mjs';

const { Collection, convert } = docrag;
const tableDoc = readFileSync(corpus('poi__bug57031.docx'));
const picsDoc = readFileSync(corpus('tika__testWORD_embedded_pics.docx'));
const tableId = contentId(tableDoc);
const picsId = contentId(picsDoc);
const QUESTION = 'What is the Chi-Square value of the Wilcoxon test?';
// Before the fix a trap inside ask() could leave it pending: fail instead of hanging.
const LIMIT = { timeout: 30_000 };

const stubs = [];
after(() => Promise.all(stubs.map((s) => s.close())));

/** A stub whose chat model answers every call (routing, classification) with `reply`. */
async function replying(reply) {
  const stub = await startStub({ dim: 16, reply, pieces: 3 });
  stubs.push(stub);
  return stub;
}

const provider = (stub) => ({
  kind: 'openai',
  baseUrl: stub.url,
  embeddingModel: 'emb',
  chatModel: 'big',
  batchSize: 16,
  maxRetries: 0,
});

/** A memory collection with both corpus DOCX, its provider's chat model saying `reply`. */
async function collectionReplying(name, reply) {
  const stub = await replying(reply);
  const c = await Collection.open(name, { storage: 'memory', provider: provider(stub) });
  const table = await c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 } });
  const pics = await c.addFile(new Uint8Array(picsDoc), { convert: { maxTokens: 80 } });
  assert.deepEqual([table.docId, pics.docId], [tableId, picsId]);
  return { c, stub, table, pics };
}

const chatBodies = (stub) => stub.requests.filter((r) => r.path === '/v1/chat/completions');
const docsOf = (r) => [...new Set(r.sources.map((s) => s.docId))].sort();

// Each reply puts a multi-byte character across byte 6, 7, 8 or 10, where the old
// parser compared `reply:`, `answer:`, `routing:` or `documents:`; the same reply
// answers the routing call and the classification call.
const CASES = [
  { reply: 'NONE — nothing matches', routing: { kind: 'whole', reason: 'the routing model found no related document' }, broad: true },
  { reply: 'ALL — every document', routing: { kind: 'whole', reason: 'the routing model said every document is needed' }, broad: true },
  { reply: 'BROAD…', routing: { kind: 'whole', reason: 'the routing reply could not be read' }, broad: true, classified: 'broad' },
  { reply: '没有相关文档', routing: { kind: 'whole', reason: 'the routing reply could not be read' }, broad: true },
  { reply: 'POINTED — one fact', routing: { kind: 'whole', reason: 'the routing reply could not be read' }, broad: false, classified: 'pointed' },
];

for (const { reply, routing, broad, classified } of CASES) {
  test(`routing and classification replies ${JSON.stringify(reply)} parse; the instance keeps working`, LIMIT, async () => {
    const { c, stub, table, pics } = await collectionReplying(`mb-${reply}`, reply);
    const r = await c.ask(QUESTION, { smallCollectionTokens: 0, generate: false });
    assert.deepEqual(r.modelCalls.map((m) => m.purpose), ['embedding', 'routing', 'classification']);
    assert.equal(chatBodies(stub).length, 2);
    // NONE, ALL and an unreadable reply all mean the whole collection.
    assert.deepEqual(r.routing, routing);
    assert.equal(r.accounting.broad, broad);
    assert.equal(r.accounting.path, broad ? 'broad' : 'pointed');
    assert.ok(r.accounting.reason.startsWith(routing.reason), r.accounting.reason);
    if (classified) assert.match(r.accounting.reason, new RegExp(`the classification model called the question ${classified}`));
    // The whole collection is in scope; a broad question reads both documents, a
    // pointed one the document its evidence is in.
    assert.match(r.accounting.reason, /over 2 document\(s\)/);
    if (broad) assert.deepEqual(docsOf(r), [tableId, picsId].sort(), 'both documents are read');
    else assert.ok(docsOf(r).includes(tableId), 'the table document is read');
    assert.equal(r.answer.by, 'extractive');
    assert.match(r.answer.text, /0\.7660/);

    // The same Collection and the same wasm instance still work.
    const again = await c.ask(QUESTION, { smallCollectionTokens: 0 });
    assert.equal(again.answer.by, 'model');
    assert.equal(again.answer.text, reply, 'the streamed multi-byte answer arrives whole');
    assert.deepEqual(c.documents().map((d) => [d.docId, d.chunkCount]), [[tableId, table.chunkCount], [picsId, pics.chunkCount]]);
    assert.equal(c.chunks(tableId).length, table.chunkCount);
    const out = convert(new Uint8Array(picsDoc), { maxTokens: 80 });
    assert.equal(out.docId, picsId);
    assert.deepEqual(out.chunks, c.chunks(picsId).map((ch) => ch.text));
  });
}

test('a routing reply naming a document after a CJK label restricts to that document', LIMIT, async () => {
  // `文档：` is 9 bytes: the old parser cut it at byte 7 (`answer:`).
  const reply = `文档：\n${picsId}: 85`;
  const { c } = await collectionReplying('mb-restrict', reply);
  const r = await c.ask('Who deleted the picture?', { smallCollectionTokens: 0, generate: false });
  assert.deepEqual(r.routing, { kind: 'restrict', choices: [{ docId: picsId, confidence: 85 }] });
  assert.equal(r.accounting.path, 'routed-whole');
  assert.deepEqual(docsOf(r), [picsId]);
  assert.equal(c.documents().length, 2);
});

// ---- 2. a failed replace keeps the stored version ------------------------------

/** What `promise` rejects with (fails the test when it resolves). */
async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected a rejection');
}

/** What a replace that cannot be indexed must reject with. */
const indexingError = (docId) => (e) => {
  assert.equal(e.name, 'DocragError');
  assert.equal(e.code, 'indexing');
  assert.match(e.message, new RegExp(`document ${docId} could not be indexed`));
  return true;
};

test('a replace whose new version cannot be indexed keeps the old version (memory storage)', LIMIT, async () => {
  const c = await Collection.open('replace-fails', { storage: 'memory' });
  const original = await c.addFile(new Uint8Array(tableDoc), { convert: { docId: 'report', maxTokens: 120 }, fileName: 'poi__bug57031.docx' });
  const docs = c.documents();
  const chunks = c.chunks('report');
  assert.equal(chunks.length, original.chunkCount);
  assert.ok(chunks.length >= 10);

  // (1) Renamed labels: the collection's enricher looks for `firstPage` and finds `page`.
  let e = await rejection(c.addFile(new Uint8Array(picsDoc), { convert: { docId: 'report', labels: { firstPage: 'page' } }, replace: true }));
  // What is kept first (before the fix: nothing), then how the failure was reported.
  assert.deepEqual(c.documents(), docs);
  assert.deepEqual(c.chunks('report'), chunks);
  indexingError('report')(e);
  assert.match(e.message, /\[missing-field\].*no field "firstPage"/);

  // (2) A plain text whose only content is on page 1,000,002: over the enricher's page
  // limit. The converter's own budgets stop it first unless the page limit is raised
  // and the input is large enough for its element budget (scaled by size: 8 MB of
  // spaces), so the conversion succeeds and indexing is what fails.
  const pages = '\f'.repeat(1_000_001) + ' '.repeat(8_000_000) + 'The last page.';
  e = await rejection(c.addFile(pages, { convert: { docId: 'report', limits: { maxPages: 2_000_000 } }, fileName: 'pages.txt', replace: true }));
  assert.deepEqual(c.documents(), docs);
  assert.deepEqual(c.chunks('report'), chunks);
  indexingError('report')(e);
  assert.match(e.message, /"firstPage" = "1000002"/);

  // The old version is searchable as before (its BM25 postings came back).
  const r = await c.ask(QUESTION);
  assert.deepEqual(docsOf(r), ['report']);
  assert.match(r.answer.text, /0\.7660/);

  // And a replace that can be indexed still replaces it.
  const next = await c.addFile(new Uint8Array(picsDoc), { convert: { docId: 'report', maxTokens: 80 }, replace: true });
  assert.deepEqual(c.documents().map((d) => d.docId), ['report']);
  assert.equal(c.chunks('report').length, next.chunkCount);
  assert.deepEqual(c.chunks('report').map((ch) => ch.text), convert(new Uint8Array(picsDoc), { docId: 'report', maxTokens: 80 }).chunks);
  assert.doesNotMatch((await c.ask(QUESTION)).answer.text, /0\.7660/);
});

test('a failed replace keeps the old version\'s vectors: hybrid retrieval, nothing re-embedded', LIMIT, async () => {
  const stub = await replying('unused');
  const c = await Collection.open('replace-vectors', { storage: 'memory', provider: provider(stub) });
  const original = await c.addFile(new Uint8Array(tableDoc), { convert: { docId: 'report', maxTokens: 120 } });
  const docs = c.documents();
  const chunks = c.chunks('report');
  const e = await rejection(c.addFile(new Uint8Array(picsDoc), { convert: { docId: 'report', labels: { firstPage: 'page' } }, replace: true }));
  assert.deepEqual(c.documents(), docs);
  assert.deepEqual(c.documents()[0].embeddingModels, ['openai:emb']);
  assert.deepEqual(c.chunks('report'), chunks);
  indexingError('report')(e);
  assert.equal(await c.embedMissing(), 0, 'the restored version still has its vectors');
  stub.reset();
  const r = await c.ask(QUESTION, { generate: false, smallCollectionTokens: 0, chunks: 4 });
  assert.equal(r.accounting.retrieval, 'hybrid');
  // Only the question went to the embedding model.
  assert.deepEqual(stub.requests.filter((q) => q.path === '/v1/embeddings').map((q) => q.body.input), [[QUESTION]]);
  assert.deepEqual(docsOf(r), ['report']);
  assert.equal(original.chunkCount, chunks.length);
});
