// Collection.search() (issue 18): the top-k chunks of a question without an answer.
// 'cosine' is checked against a brute-force cosine over the stub provider's
// deterministic vectors (each chunk's text, as addFile embeds it, against the
// question's), 'bm25' against the chunks that hold the query word, 'hybrid' against
// the BM25-anchored score fusion of the two full lists (as ask() fuses them); then
// the errors. (The same order from
// PostgreSQL: tests/browser/pgvector.test.mjs.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpus, docrag } from './helpers.mjs';
import { startStub, stubVector } from './stub-server.mjs';

const { Collection } = docrag;
const DIM = 32;
const files = [
  'pandoc__comments.docx',
  'pandoc__html-reader.html',
  'pandoc__tables.docx',
  'pandoc__footnote.rtf',
  'es6tutorial__proxy.md',
  'poi__bug57031.docx',
];
const stub = await startStub({ dim: DIM });
after(() => stub.close());

const provider = () => ({ kind: 'openai', baseUrl: stub.url, embeddingModel: 'emb', batchSize: 16, maxRetries: 0 });

async function filled(name, options = {}) {
  const c = await Collection.open(name, { storage: 'memory', ...options });
  for (const f of files) await c.addFile(new Uint8Array(readFileSync(corpus(f))), { fileName: f, convert: { maxTokens: 200 } });
  return c;
}

/** Every chunk of `c`: {chunkId, docId, seq, text}. */
function allChunks(c) {
  return c.documents().flatMap((d) => c.chunks(d.docId).map((ch, seq) => ({ chunkId: `${d.docId}:${seq}`, docId: d.docId, seq, text: ch.text })));
}

function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** Best first; ties by docId, then seq, ascending (the documented order). */
const byScore = (x, y) => y.score - x.score || (x.docId < y.docId ? -1 : x.docId > y.docId ? 1 : x.seq - y.seq);

const QUESTIONS = ['How are comments shown?', 'table with several columns', 'What does a Proxy intercept?', 'footnote text', 'Wilcoxon test value', 'release'];

const c = await filled('search', { provider: provider() });
const chunks = allChunks(c);

test('the collection is several formats with many chunks, all embedded', () => {
  assert.deepEqual(c.documents().map((d) => d.format).sort(), ['docx', 'docx', 'docx', 'html', 'markdown', 'rtf']);
  assert.ok(chunks.length >= 20, `${chunks.length} chunks`);
  assert.deepEqual(c.stats().embeddingModels, ['openai:emb']);
});

test("'cosine' (the default) is the brute-force cosine over the stub vectors of each chunk's text", async () => {
  const vectors = chunks.map((ch) => stubVector(ch.text, DIM));
  for (const q of QUESTIONS) {
    const qv = stubVector(q, DIM);
    const expected = chunks.map((ch, i) => ({ ...ch, score: cosine(qv, vectors[i]) })).sort(byScore);
    for (const k of [1, 10, chunks.length + 5]) {
      stub.reset();
      const got = await c.search(q, { k, method: 'cosine' });
      // One embeddings request: the question alone, as ask() sends it.
      const sent = stub.requests.filter((r) => r.path === '/v1/embeddings');
      assert.equal(sent.length, 1);
      assert.deepEqual(sent[0].body.input, [q]);
      const want = expected.slice(0, k);
      assert.deepEqual(got.map((h) => h.chunkId), want.map((h) => h.chunkId), `${q} k=${k}`);
      for (let i = 0; i < got.length; i++) {
        assert.deepEqual(Object.keys(got[i]).sort(), ['chunkId', 'docId', 'score', 'seq']);
        assert.equal(got[i].chunkId, `${got[i].docId}:${got[i].seq}`);
        assert.ok(Math.abs(got[i].score - want[i].score) < 1e-5, `${got[i].score} vs ${want[i].score}`);
      }
    }
  }
  // k defaults to 10, method to 'cosine'.
  const q = QUESTIONS[0];
  assert.deepEqual(await c.search(q), await c.search(q, { k: 10, method: 'cosine' }));
});

test("'bm25' returns the chunks holding the query word first, needing no provider", async () => {
  const plain = await filled('search-bm25');
  assert.equal(plain.provider, null);
  for (const word of ['table', 'comment', 'proxy', 'footnote']) {
    const re = new RegExp(`\\b${word}\\b`, 'i');
    const holding = allChunks(plain).filter((ch) => re.test(ch.text));
    assert.ok(holding.length > 0, word);
    // A word no chunk has beside it changes nothing: only chunks with the word score.
    const got = await plain.search(`${word} qqxyzzyq`, { k: 50, method: 'bm25' });
    assert.equal(got.length, Math.min(50, holding.length), word);
    for (const h of got) {
      assert.ok(h.score > 0);
      assert.match(allChunks(plain).find((ch) => ch.chunkId === h.chunkId).text, re, h.chunkId);
    }
    for (let i = 1; i < got.length; i++) assert.ok(byScore(got[i - 1], got[i]) < 0, 'best first, ties by (docId, seq)');
    // The same ids as the collection with a provider.
    assert.deepEqual((await c.search(word, { k: 5, method: 'bm25' })).map((h) => h.chunkId), (await plain.search(word, { k: 5, method: 'bm25' })).map((h) => h.chunkId));
  }
  assert.deepEqual(await plain.search('qqxyzzyq', { method: 'bm25' }), []);
  // Without a provider, cosine and hybrid are a typed error, never a silent BM25.
  await assert.rejects(plain.search('table'), (e) => e.name === 'DocragError' && e.code === 'no-embedding-model');
  await assert.rejects(plain.search('table', { method: 'hybrid' }), (e) => e.code === 'no-embedding-model');
  // Documents added before the provider have no vectors of its model until embedMissing().
  await plain.setProvider(provider());
  await assert.rejects(plain.search('table'), (e) => e.code === 'no-embedding-model' && /embedMissing/.test(e.message));
  assert.equal(await plain.embedMissing(), files.length);
  assert.deepEqual(await plain.search('table'), await c.search('table'));
});

test("'hybrid' is ask()'s fusion: 0.7 x BM25 / best BM25 + 0.3 x cosine above 0.7 of the best cosine", async () => {
  const paths = { alone: 0, fused: 0 };
  for (const q of QUESTIONS) {
    const k = 8;
    // Every chunk's scores (k larger than the collection).
    const vec = await c.search(q, { k: 10_000, method: 'cosine' });
    const lex = await c.search(q, { k: 10_000, method: 'bm25' });
    assert.ok(vec.length >= lex.length, `${q}: ${lex.length} BM25, ${vec.length} cosine`);
    if (lex.length === 0) {
      // No chunk shares a word with the question: the cosine top-k alone.
      assert.deepEqual(await c.search(q, { k, method: 'hybrid' }), vec.slice(0, k), q);
      paths.alone++;
      continue;
    }
    paths.fused++;
    const bestLex = lex[0].score;
    const bestCos = vec[0].score;
    const floor = 0.7 * bestCos;
    const fused = new Map();
    for (const h of lex) fused.set(h.chunkId, { ...h, score: (0.7 * h.score) / bestLex });
    for (const h of vec) {
      const c01 = Math.min(1, Math.max(0, (h.score - floor) / (bestCos - floor)));
      if (c01 <= 0) continue;
      const prev = fused.get(h.chunkId) ?? { ...h, score: 0 };
      fused.set(h.chunkId, { ...prev, score: prev.score + 0.3 * c01 });
    }
    const want = [...fused.values()].sort(byScore).slice(0, k);
    const got = await c.search(q, { k, method: 'hybrid' });
    assert.deepEqual(got.map((h) => h.chunkId), want.map((h) => h.chunkId), q);
    for (let i = 0; i < got.length; i++) assert.ok(Math.abs(got[i].score - want[i].score) < 1e-5, `${q}: ${got[i].score} vs ${want[i].score}`);
    // BM25's best chunk alone scores 0.7: the first hit scores at least that.
    assert.ok(got[0].score >= 0.7 - 1e-6, q);
  }
  // Both paths ran: questions with and without a shared word (stop words are left
  // out of the BM25 query, so they share nothing).
  assert.ok(paths.alone >= 1 && paths.fused >= 1, JSON.stringify(paths));
  assert.equal(paths.alone + paths.fused, QUESTIONS.length);
});

test('errors: options, the question, an abort; an empty collection gives []', async () => {
  await assert.rejects(c.search('q', { method: 'vector' }), (e) => e.code === 'invalid-option' && e.option === 'method');
  await assert.rejects(c.search('q', { k: 0 }), (e) => e.code === 'invalid-option' && e.option === 'k');
  await assert.rejects(c.search('q', { k: 2.5 }), (e) => e.code === 'invalid-option' && e.option === 'k');
  await assert.rejects(c.search('q', { limit: 3 }), (e) => e.code === 'invalid-option' && e.option === 'limit');
  await assert.rejects(c.search('   '), (e) => e.code === 'empty-question');
  await assert.rejects(c.search(42), (e) => e.code === 'invalid-input');
  await assert.rejects(c.search('q', { signal: AbortSignal.abort() }), (e) => e.name === 'AbortError' && e.cause?.code === 'aborted');
  const empty = await Collection.open('search-empty', { storage: 'memory', provider: provider() });
  assert.deepEqual(await empty.search('anything'), []);
  assert.deepEqual(await empty.search('anything', { method: 'bm25' }), []);
});
