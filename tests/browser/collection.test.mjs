// Issue 6 acceptance in headless Chromium: the IndexedDB collection survives a
// reload with the same chunks and embeddings and no provider call; removal leaves
// nothing; a failed add (provider dies mid-batch, quota) leaves the store as it
// was (quota errors are mapped from QuotaExceededError but not simulated: Chromium's
// CDP quota override did not limit IndexedDB writes here); two tabs do not corrupt each other; no IndexedDB is a typed error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, watchErrors, startStub, pkgDir, corpusDir, fixturesDir, screenshot } from './harness.mjs';
import { stubVector } from '../node/stub-server.mjs';

let browser;
let server;
let stub;
before(async () => {
  browser = await launch();
  server = await serve({ '/pkg/': pkgDir, '/corpus/': corpusDir, '/': fixturesDir });
  stub = await startStub({ dim: 16 });
});
after(async () => {
  await browser?.close();
  await server?.close();
  await stub?.close();
});

const provider = () => ({ kind: 'openai', baseUrl: stub.url, embeddingModel: 'emb', batchSize: 8, maxRetries: 0 });

async function openPage(query = '') {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/runtime.html${query}`);
  await page.waitForFunction(() => window.__ready === true);
  return { page, errors };
}

const embedRequests = () => stub.requests.filter((r) => r.path === '/v1/embeddings').length;

test('reload restores documents, chunks and embeddings with no provider call; remove leaves nothing', async () => {
  const { page, errors } = await openPage();
  const added = await page.evaluate(async (p) => {
    const c = await docrag.Collection.open('reload', { provider: p });
    const info = await c.addFile(await corpusFile('poi__bug57031.docx'), { convert: { maxTokens: 120 } });
    return { info, chunks: c.chunks(info.docId), storage: c.storage };
  }, provider());
  assert.equal(added.storage, 'indexeddb');
  assert.equal(added.info.fileName, 'poi__bug57031.docx');
  assert.ok(added.info.chunkCount >= 10);
  const calls = embedRequests();
  assert.equal(calls, Math.ceil(added.info.chunkCount / 8));

  await page.reload();
  await page.waitForFunction(() => window.__ready === true);
  const back = await page.evaluate(async (p) => {
    const c = await docrag.Collection.open('reload', { provider: p });
    const docs = c.documents();
    const r = await c.ask('What is the Chi-Square value of the Wilcoxon test?', { chunks: 2, smallCollectionTokens: 0 });
    return { docs, chunks: c.chunks(docs[0].docId), stats: c.stats(), retrieval: r.accounting.retrieval, answer: r.answer.text, vectors: await storedVectors('reload') };
  }, provider());
  assert.deepEqual(back.docs, [added.info]);
  assert.deepEqual(back.chunks, added.chunks);
  assert.deepEqual(back.stats.embeddingModels, ['openai:emb']);
  // The question was embedded (one request); the document was not re-embedded.
  assert.equal(embedRequests(), calls + 1);
  assert.equal(back.retrieval, 'hybrid');
  assert.match(back.answer, /0\.7660/);
  // Stored as binary Float32Array, one stub vector per chunk, in order.
  assert.equal(back.vectors.length, 1);
  const v = back.vectors[0];
  assert.equal(v.isFloat32, true);
  assert.equal(v.dim, 16);
  const expected = added.chunks.flatMap((ch) => [...stubVector(ch.text, 16)]);
  assert.deepEqual(v.vectors, expected);
  await screenshot(page, 'runtime-reloaded');

  const counts = await page.evaluate(async (docId) => {
    const c = await docrag.Collection.open('reload');
    const removed = await c.remove(docId);
    c.close();
    return { removed, after: await countRecords('reload', docId) };
  }, added.info.docId);
  assert.equal(counts.removed, true);
  assert.deepEqual(counts.after, { chunks: 0, documents: 0, embeddings: 0, metadata: 0, settings: 0 });
  await page.reload();
  await page.waitForFunction(() => window.__ready === true);
  assert.deepEqual(await page.evaluate(async () => (await docrag.Collection.open('reload')).documents()), []);
  errors.assertNone();
  await page.close();
});

test('an add that fails half way (provider dies mid-batch) leaves the store as it was', async () => {
  const page = await browser.newPage();
  // Chromium logs the scripted 503 itself; any other error still fails the test.
  const errors = watchErrors(page, { ignore: [/status of 503/] });
  await page.goto(`${server.url}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
  const first = await page.evaluate(async (p) => {
    const c = await docrag.Collection.open('halfway', { provider: p });
    const info = await c.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'), { convert: { maxTokens: 80 } });
    return { info, counts: await countRecords('halfway') };
  }, provider());
  // (A dropped socket is not used here: Chromium silently resends a request whose
  // reused keep-alive connection closes, so the provider would not see it fail.)
  stub.reset();
  stub.script([{ route: '/v1/embeddings', dim: 16 }, { route: '/v1/embeddings', status: 503 }]);
  const failed = await page.evaluate(async (p) => {
    const c = await docrag.Collection.open('halfway', { provider: p });
    const file = await corpusFile('poi__bug57031.docx');
    const r = await attempt(() => c.addFile(file, { convert: { maxTokens: 120 } }));
    return { r, docs: c.documents(), counts: await countRecords('halfway') };
  }, provider());
  const sent = stub.requests.filter((r) => r.path === '/v1/embeddings').length;
  stub.reset();
  assert.equal(failed.r.ok, false);
  assert.equal(sent, 2, 'one good batch, then the failing one (maxRetries 0)');
  assert.equal(failed.r.name, 'DocragError');
  assert.equal(failed.r.code, 'http-status');
  assert.deepEqual(failed.docs, [first.info]);
  assert.deepEqual(failed.counts, first.counts);
  errors.assertNone();
  await page.close();
});

test('two tabs add at once without corrupting each other; the other tab hears of it', async () => {
  const a = await openPage();
  const b = await openPage();
  await a.page.evaluate(async () => {
    window.col = await docrag.Collection.open('tabs', { onChange: (ch) => window.__changes.push(ch) });
  });
  await b.page.evaluate(async () => {
    window.col = await docrag.Collection.open('tabs', { onChange: (ch) => window.__changes.push(ch) });
  });
  const [ia, ib] = await Promise.all([
    a.page.evaluate(async () => col.addFile(await corpusFile('poi__bug57031.docx'))),
    b.page.evaluate(async () => col.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'))),
  ]);
  await a.page.waitForFunction((id) => window.__changes.some((c) => c.docId === id), ib.docId);
  await b.page.waitForFunction((id) => window.__changes.some((c) => c.docId === id), ia.docId);
  const seenA = await a.page.evaluate(() => col.documents().map((d) => d.docId).sort());
  const seenB = await b.page.evaluate(() => col.documents().map((d) => d.docId).sort());
  const both = [ia.docId, ib.docId].sort();
  assert.deepEqual(seenA, both);
  assert.deepEqual(seenB, both);
  const fresh = await openPage();
  const stored = await fresh.page.evaluate(async () => {
    const c = await docrag.Collection.open('tabs');
    return { docs: c.documents(), counts: await countRecords('tabs') };
  });
  assert.deepEqual(stored.docs.map((d) => d.docId).sort(), both);
  assert.equal(stored.counts.chunks, ia.chunkCount + ib.chunkCount);
  assert.equal(stored.counts.metadata, ia.chunkCount + ib.chunkCount);
  for (const p of [a, b, fresh]) {
    p.errors.assertNone();
    await p.page.close();
  }
});

test('no IndexedDB (a private window) is a typed error; memory storage still works', async () => {
  const { page, errors } = await openPage('?noidb');
  const r = await page.evaluate(async () => {
    const auto = await attempt(() => docrag.Collection.open('private'));
    const mem = await docrag.Collection.open('private', { storage: 'memory' });
    const info = await mem.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'));
    return { auto, storage: mem.storage, chunks: info.chunkCount };
  });
  assert.equal(r.auto.ok, false);
  assert.equal(r.auto.code, 'storage-unavailable');
  assert.match(r.auto.message, /storage: 'memory'/);
  assert.equal(r.storage, 'memory');
  assert.ok(r.chunks > 0);
  errors.assertNone();
  await page.close();
});

test('deleting a collection another connection keeps open is reported as blocked', async () => {
  const { page, errors } = await openPage();
  const r = await page.evaluate(async () => {
    const c = await docrag.Collection.open('held');
    c.close();
    // A connection that ignores versionchange (another app's code in another tab).
    const held = await new Promise((res) => {
      const o = indexedDB.open('docrag:held');
      o.onsuccess = () => res(o.result);
    });
    const blocked = await attempt(() => docrag.Collection.deleteStored('held'));
    held.close();
    return blocked;
  });
  assert.equal(r.ok, false);
  assert.equal(r.code, 'upgrade-blocked');
  errors.assertNone();
  await page.close();
});

test('a database from a newer docrag is a typed error; a damaged record quarantines its document only', async () => {
  const { page, errors } = await openPage();
  const r = await page.evaluate(async () => {
    // A newer schema (version 2) written by a later docrag.
    await new Promise((res) => {
      const o = indexedDB.open('docrag:newer', 2);
      o.onupgradeneeded = () => o.result.createObjectStore('future');
      o.onsuccess = () => {
        o.result.close();
        res();
      };
    });
    const newer = await attempt(() => docrag.Collection.open('newer'));
    const stillThere = await new Promise((res) => {
      const o = indexedDB.open('docrag:newer');
      o.onsuccess = () => {
        const names = [...o.result.objectStoreNames];
        o.result.close();
        res(names);
      };
    });
    // A chunk record damaged behind docrag's back.
    const c = await docrag.Collection.open('damaged');
    const info = await c.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'));
    c.close();
    await new Promise((res) => {
      const o = indexedDB.open('docrag:damaged');
      o.onsuccess = () => {
        const tx = o.result.transaction('chunks', 'readwrite');
        tx.objectStore('chunks').put({ docId: info.docId, seq: 0, text: 42 });
        tx.oncomplete = () => {
          o.result.close();
          res();
        };
      };
    });
    const reopened = await docrag.Collection.open('damaged');
    const seen = { docs: reopened.documents(), damaged: reopened.damaged(), counts: await countRecords('damaged', info.docId) };
    const removed = await reopened.remove(info.docId);
    return { newer, stillThere, seen, removed, after: await countRecords('damaged', info.docId), chunkCount: info.chunkCount, docId: info.docId };
  });
  assert.equal(r.newer.ok, false);
  assert.equal(r.newer.code, 'schema-too-new');
  assert.deepEqual(r.stillThere, ['future']);
  // The damaged document is quarantined, not fatal: the collection opens without
  // it, says why, keeps its records until it is removed.
  assert.deepEqual(r.seen.docs, []);
  assert.equal(r.seen.damaged.length, 1);
  assert.equal(r.seen.damaged[0].docId, r.docId);
  assert.match(r.seen.damaged[0].reason, /chunks record .*`text` is not a string/);
  assert.equal(r.seen.counts.chunks, r.chunkCount);
  assert.equal(r.removed, true);
  assert.deepEqual(r.after, { chunks: 0, documents: 0, embeddings: 0, metadata: 0, settings: 0 });
  errors.assertNone();
  await page.close();
});

test('Collection.open loads the wasm module itself when init() was not called', async () => {
  const { page, errors } = await openPage('?lazy');
  const r = await page.evaluate(async () => {
    const before = await attempt(async () => docrag.convert('x'));
    const c = await docrag.Collection.open('lazy');
    const info = await c.addFile('# Lazy\n\nLoaded on first use.', { fileName: 'lazy.md' });
    return { before, title: info.title, after: docrag.convert('# T\n\nx', { fileName: 't.md' }).title };
  });
  assert.equal(r.before.code, 'not-initialized');
  assert.equal(r.title, 'Lazy');
  assert.equal(r.after, 'T');
  errors.assertNone();
  await page.close();
});

test('an abort when the add reaches the store stage stores nothing', async () => {
  const { page, errors } = await openPage();
  const r = await page.evaluate(async () => {
    const c = await docrag.Collection.open('late-abort');
    const ac = new AbortController();
    const file = await corpusFile('tika__testWORD_embedded_pics.docx');
    const res = await attempt(() => c.addFile(file, { signal: ac.signal, onProgress: (p) => p.stage === 'store' && ac.abort() }));
    return { res, docs: c.documents(), counts: await countRecords('late-abort') };
  });
  assert.equal(r.res.code, 'AbortError/aborted');
  assert.deepEqual(r.docs, []);
  assert.deepEqual(r.counts, { chunks: 0, documents: 0, embeddings: 0, metadata: 0, settings: 0 });
  errors.assertNone();
  await page.close();
});

test('a transaction aborted for quota is quota-exceeded and leaves what was stored', async () => {
  // Chromium's CDP quota override did not limit IndexedDB writes here, so the browser's
  // own failure is reproduced: on the 20th put the transaction aborts with a
  // QuotaExceededError as its error, the way a full disk or quota ends a transaction.
  const { page, errors } = await openPage();
  const r = await page.evaluate(async () => {
    const c = await docrag.Collection.open('quota');
    const first = await c.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'));
    const before = await countRecords('quota');
    const put = IDBObjectStore.prototype.put;
    let n = 0;
    IDBObjectStore.prototype.put = function (...args) {
      const req = put.apply(this, args);
      if (++n === 20) {
        const tx = this.transaction;
        Object.defineProperty(tx, 'error', { value: new DOMException('The quota has been exceeded.', 'QuotaExceededError') });
        tx.abort();
      }
      return req;
    };
    const big = await attempt(async () => c.addFile(await corpusFile('poi__bug57031.docx')));
    IDBObjectStore.prototype.put = put;
    const reopened = await docrag.Collection.open('quota');
    return { first, before, big, docs: c.documents(), after: await countRecords('quota'), reopened: reopened.documents() };
  });
  assert.equal(r.big.ok, false);
  assert.equal(r.big.code, 'quota-exceeded', r.big.message);
  assert.match(r.big.message, /intact/);
  assert.deepEqual(r.docs, [r.first]);
  assert.deepEqual(r.after, r.before);
  assert.deepEqual(r.reopened, [r.first]);
  errors.assertNone();
  await page.close();
});

test('export(): a WorkerCollection posts the JSONL Blob; the page Collection of the same store exports the same bytes', async () => {
  const { page, errors } = await openPage();
  const r = await page.evaluate(async (p) => {
    const wc = await docrag.WorkerCollection.open('export', { provider: p });
    const info = await wc.addFile(await corpusFile('poi__bug57031.docx'), { convert: { maxTokens: 120 } });
    const stages = [];
    const blob = await wc.export({ onProgress: (x) => stages.push(`${x.stage}:${x.done}/${x.total}`) });
    const fromWorker = await blob.text();
    const chunks = await wc.chunks(info.docId);
    const aborted = await attempt(() => wc.export({ signal: AbortSignal.abort() }));
    await wc.close();
    const c = await docrag.Collection.open('export', { provider: p });
    const onPage = await (await c.export()).text();
    return { info, isBlob: blob instanceof Blob, type: blob.type, fromWorker, onPage, texts: chunks.map((ch) => ch.text), stages, aborted };
  }, provider());
  assert.equal(r.isBlob, true);
  assert.equal(r.type, 'application/x-ndjson');
  const rows = r.fromWorker.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, r.info.chunkCount);
  rows.forEach((row, seq) => {
    assert.equal(row.format, 'docrag.chunk.v1');
    assert.equal(row.chunkId, `${r.info.docId}:${seq}`);
    assert.equal(row.text, r.texts[seq]);
    assert.equal(row.embeddingModel, 'openai:emb');
    assert.deepEqual(row.embedding.map(Math.fround), [...stubVector(row.text, 16)]);
  });
  assert.equal(r.onPage, r.fromWorker);
  assert.equal(r.stages.at(-1), `export:${r.info.chunkCount}/${r.info.chunkCount}`);
  assert.equal(r.aborted.code, 'AbortError/aborted');
  errors.assertNone();
  await page.close();
});
