// WorkerCollection: the collection in a module Web Worker, with progress callbacks,
// abort, errors with codes, and the same IndexedDB as a Collection on the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, watchErrors, pkgDir, corpusDir, fixturesDir } from './harness.mjs';

let browser;
let server;
before(async () => {
  browser = await launch();
  server = await serve({ '/pkg/': pkgDir, '/corpus/': corpusDir, '/': fixturesDir });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('a worker collection adds, asks and aborts off the page thread; the page sees the same store', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
  const r = await page.evaluate(async () => {
    const wc = await docrag.WorkerCollection.open('in-worker');
    const stages = [];
    // The page's thread keeps running while the worker converts: count its ticks.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const info = await wc.addFile(await corpusFile('poi__bug65649.docx'), { onProgress: (p) => stages.push(p.stage) });
    clearInterval(timer);
    const docs = await wc.documents();
    const chunks = await wc.chunks(info.docId);
    const answer = await wc.ask('What is the Chi-Square value of the Wilcoxon test?');
    const notAFile = await attempt(() => wc.addFile(corpusFile('poi__bug57031.docx'), {}));
    const ac2 = new AbortController();
    const cancelled = await attempt(async () => {
      const file = await corpusFile('poi__bug57031.docx');
      return wc.addFile(file, { signal: ac2.signal, onProgress: (p) => p.stage === 'read' && ac2.abort() });
    });
    const bad = await attempt(() => wc.ask('   '));
    const fnProvider = await attempt(() => wc.setProvider({ embed: async () => [] }));
    await wc.close();
    const onPage = await docrag.Collection.open('in-worker');
    return {
      info, stages, ticks, docs, chunkCount: chunks.length, answerBy: answer.answer.by,
      invalidInput: notAFile, cancelled, bad, fnProvider,
      pageDocs: onPage.documents().map((d) => d.docId),
    };
  });
  assert.ok(r.info.chunkCount > 100, `${r.info.chunkCount} chunks`);
  assert.deepEqual([...new Set(r.stages)], ['read', 'parse', 'chunk', 'store', 'done']);
  assert.ok(r.ticks > 0, 'the page thread ran while the worker converted');
  assert.deepEqual(r.docs, [r.info]);
  assert.equal(r.chunkCount, r.info.chunkCount);
  assert.equal(r.answerBy, 'extractive');
  // A Promise is not a file: the worker's typed error comes back with its code.
  assert.equal(r.invalidInput.ok, false);
  assert.equal(r.invalidInput.code, 'invalid-input', r.invalidInput.message);
  assert.equal(r.cancelled.ok, false);
  assert.equal(r.cancelled.code, 'AbortError/aborted');
  assert.equal(r.bad.code, 'empty-question');
  assert.equal(r.fnProvider.code, 'invalid-option');
  assert.deepEqual(r.pageDocs, [r.info.docId]);
  errors.assertNone();
  await page.close();
});

test('worker collection: bad options and use after close are typed errors, never a hang', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
  const r = await page.evaluate(async () => {
    const badChange = await attempt(() => docrag.WorkerCollection.open('w2', { onChange: 5 }));
    const wc = await docrag.WorkerCollection.open('w2');
    const badSignal = await attempt(() => wc.addFile('# x\n\ny', { fileName: 'x.md', signal: 'x' }));
    // A setting value is data: a `signal` key in it is not an AbortSignal.
    await wc.setSetting('k', { signal: 'x', n: 1 });
    const setting = await wc.getSetting('k');
    await wc.close();
    const after = await attempt(() => wc.stats());
    const twice = await attempt(() => wc.close());
    return { badChange, badSignal, setting, after, twice };
  });
  assert.equal(r.badChange.code, 'invalid-option');
  assert.equal(r.badSignal.code, 'invalid-option');
  assert.deepEqual(r.setting, { signal: 'x', n: 1 });
  assert.equal(r.after.code, 'storage-closed');
  assert.equal(r.twice.ok, true);
  errors.assertNone();
  await page.close();
});
