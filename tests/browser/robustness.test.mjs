// The Chromium side of tests/node/robustness.test.mjs (faults fixed in bd5c199):
// a routing/classification reply with a multi-byte character used to trap the wasm
// instance, which in Chromium left ask() pending forever; a replace whose new
// version could not be indexed deleted the stored version from IndexedDB. Here the
// reply parses and the page keeps working, and a failed replace leaves the old
// version readable after the browser is closed and started again on the same profile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serve, startStub, pkgDir, corpusDir, fixturesDir, openRuntime } from './harness.mjs';

const QUESTION = 'What is the Chi-Square value of the Wilcoxon test?';
let server;
let stub;
before(async () => {
  server = await serve({ '/pkg/': pkgDir, '/corpus/': corpusDir, '/': fixturesDir });
  // Every chat call (routing, classification, answer) gets this reply.
  stub = await startStub({ dim: 16, reply: 'NONE — nothing matches', pieces: 3 });
});
after(async () => {
  await server?.close();
  await stub?.close();
});

async function openPage(browser) {
  const { page, errors } = await openRuntime(browser, server.url);
  return { page, errors };
}

test('a routing reply "NONE — ..." settles ask() in Chromium; the page\'s instance keeps working', async () => {
  const browser = await launch();
  try {
    const { page, errors } = await openPage(browser);
    const provider = { kind: 'openai', baseUrl: stub.url, embeddingModel: 'emb', chatModel: 'big', batchSize: 16, maxRetries: 0 };
    const r = await page.evaluate(async ({ p, question }) => {
      const c = await docrag.Collection.open('multibyte', { provider: p });
      const table = await c.addFile(await corpusFile('poi__bug57031.docx'), { convert: { maxTokens: 120 } });
      const pics = await c.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'), { convert: { maxTokens: 80 } });
      // Before the fix this promise never settled: give up after 30 s with a code.
      const within = (promise) =>
        Promise.race([promise, new Promise((_, no) => setTimeout(() => no(Object.assign(new Error('ask() did not settle in 30 s'), { code: 'never-settled' })), 30_000))]);
      const first = await attempt(() => within(c.ask(question, { smallCollectionTokens: 0, generate: false })));
      const second = await attempt(() => within(c.ask(question, { smallCollectionTokens: 0 })));
      const pick = (x) => x.ok
        ? { ok: true, routing: x.value.routing, path: x.value.accounting.path, purposes: x.value.modelCalls.map((m) => m.purpose),
            docs: [...new Set(x.value.sources.map((s) => s.docId))].sort(), answer: x.value.answer }
        : x;
      const converted = await attempt(async () => docrag.convert('# After\n\nStill converting.', { fileName: 'after.md' }).title);
      return { first: pick(first), second: pick(second), table, pics, docs: c.documents().map((d) => d.docId), tableChunks: c.chunks(table.docId).length, converted };
    }, { p: provider, question: QUESTION });
    assert.equal(r.first.ok, true, `${r.first.code}: ${r.first.message}`);
    assert.deepEqual(r.first.routing, { kind: 'whole', reason: 'the routing model found no related document' });
    assert.equal(r.first.path, 'broad');
    assert.deepEqual(r.first.purposes, ['embedding', 'routing', 'classification']);
    assert.deepEqual(r.first.docs, [r.table.docId, r.pics.docId].sort());
    assert.match(r.first.answer.text, /0\.7660/);
    // The same collection asks again, and the streamed model answer arrives whole.
    assert.equal(r.second.ok, true, `${r.second.code}: ${r.second.message}`);
    assert.deepEqual(r.second.answer, { text: 'NONE — nothing matches', markdown: 'NONE — nothing matches', by: 'model' });
    assert.deepEqual(r.docs, [r.table.docId, r.pics.docId]);
    assert.equal(r.tableChunks, r.table.chunkCount);
    assert.deepEqual(r.converted, { ok: true, value: 'After' });
    errors.assertNone();
  } finally {
    await browser.close();
  }
});

test('a failed replace leaves the old version readable after a browser restart (IndexedDB)', async () => {
  // Our own profile folder: launch() keeps a folder it is given, so the second
  // Chromium opens the same IndexedDB.
  const userDataDir = mkdtempSync(join(tmpdir(), 'docrag-chromium-restart-'));
  try {
    const first = await launch({ userDataDir });
    let before;
    try {
      const { page, errors } = await openPage(first);
      before = await page.evaluate(async (question) => {
        const c = await docrag.Collection.open('replace-restart');
        const info = await c.addFile(await corpusFile('poi__bug57031.docx'), { convert: { docId: 'report', maxTokens: 120 } });
        const docs = c.documents();
        const chunks = c.chunks('report');
        const counts = await countRecords('replace-restart');
        // The new version's records carry `page` where the enricher reads `firstPage`.
        const failed = await attempt(async () =>
          c.addFile(await corpusFile('tika__testWORD_embedded_pics.docx'), { convert: { docId: 'report', labels: { firstPage: 'page' } }, replace: true }));
        const answer = (await c.ask(question)).answer.text;
        return { info, docs, chunks, counts, failed, docsAfter: c.documents(), chunksAfter: await attempt(async () => c.chunks('report')), countsAfter: await countRecords('replace-restart'), answer, storage: c.storage };
      }, QUESTION);
      errors.assertNone();
    } finally {
      await first.close();
    }
    assert.equal(before.storage, 'indexeddb');
    assert.ok(before.info.chunkCount >= 10);
    assert.equal(before.chunks.length, before.info.chunkCount);
    assert.equal(before.failed.ok, false);
    // What is kept first (before the fix: nothing), then how the failure was reported.
    assert.deepEqual(before.docsAfter, before.docs);
    assert.deepEqual(before.chunksAfter, { ok: true, value: before.chunks });
    assert.deepEqual(before.countsAfter, before.counts);
    assert.equal(before.failed.name, 'DocragError');
    assert.equal(before.failed.code, 'indexing', before.failed.message);
    assert.match(before.failed.message, /document report could not be indexed: \[missing-field\]/);
    assert.equal(before.countsAfter.chunks, before.info.chunkCount);
    assert.match(before.answer, /0\.7660/);

    // A new Chromium on the same profile: the old version is what IndexedDB holds.
    const second = await launch({ userDataDir });
    try {
      const { page, errors } = await openPage(second);
      const back = await page.evaluate(async (question) => {
        const c = await docrag.Collection.open('replace-restart');
        const r = await c.ask(question);
        return { docs: c.documents(), damaged: c.damaged(), chunks: await attempt(async () => c.chunks('report')), counts: await countRecords('replace-restart'), answer: r.answer.text, sourceDocs: [...new Set(r.sources.map((s) => s.docId))] };
      }, QUESTION);
      assert.deepEqual(back.docs, before.docs);
      assert.deepEqual(back.damaged, []);
      assert.deepEqual(back.chunks, { ok: true, value: before.chunks });
      assert.deepEqual(back.counts, before.counts);
      assert.deepEqual(back.sourceDocs, ['report']);
      assert.match(back.answer, /0\.7660/);
      errors.assertNone();
    } finally {
      await second.close();
    }
  } finally {
    rmSync(userDataDir, { recursive: true, force: true });
  }
});
