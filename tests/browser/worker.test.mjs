// WorkerCollection: the collection in a module Web Worker, with progress callbacks,
// abort, errors with codes, and the same IndexedDB as a Collection on the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, serve, watchErrors, pkgDir, corpusDir, fixturesDir, openRuntime } from './harness.mjs';

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
  const { page, errors } = await openRuntime(browser, server.url);
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
    await wc.close();
    const onPage = await docrag.Collection.open('in-worker');
    return {
      info, stages, ticks, docs, chunkCount: chunks.length, answerBy: answer.answer.by,
      invalidInput: notAFile, cancelled, bad,
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
  assert.deepEqual(r.pageDocs, [r.info.docId]);
  errors.assertNone();
  await page.close();
});

test('a worker collection calls embed/chat functions that stay on the page: vectors, a streamed reply, an abort that reaches the function', async () => {
  const { page, errors } = await openRuntime(browser, server.url);
  const r = await page.evaluate(async () => {
    const calls = { embedded: 0, chats: 0, aborted: 0, models: [] };
    // Deterministic 8-dimensional vectors from the characters (a stand-in for an
    // in-browser model, which is why the functions must stay on the page).
    const embed = async (texts) => {
      calls.embedded += texts.length;
      return texts.map((t) => {
        const v = new Float32Array(8);
        for (let i = 0; i < t.length; i++) v[i % 8] += (t.charCodeAt(i) % 13) + 1;
        return v;
      });
    };
    async function* chat(messages, { model }) {
      calls.chats += 1;
      calls.models.push(model);
      yield 'The Wilcoxon Chi-Square ';
      yield 'is 0.7660 [1].';
    }
    const provider = { embed, chat, embeddingModel: 'page-model', chatModel: 'page-chat' };
    const wc = await docrag.WorkerCollection.open('fn-worker', { provider });
    const info = await wc.addFile(await corpusFile('poi__bug57031.docx'), { convert: { maxTokens: 512 } });
    const tokens = [];
    const answer = await wc.ask('What is the Chi-Square value of the Wilcoxon test?', { routing: false, onToken: (t) => tokens.push(t) });
    // A chat that waits until its signal fires: the page's abort crosses to the worker
    // and back to the function.
    const slow = (messages, { signal }) =>
      new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          calls.aborted += 1;
          reject(new DOMException('stopped', 'AbortError'));
        }),
      );
    await wc.setProvider({ embed, chat: slow, embeddingModel: 'page-model', chatModel: 'page-chat' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const cancelled = await attempt(() => wc.ask('What is the Chi-Square value of the Wilcoxon test?', { routing: false, signal: ac.signal }));
    const docs = await wc.documents();
    await wc.close();
    return { calls, chunkCount: info.chunkCount, models: docs[0].embeddingModels, by: answer.answer.by, text: answer.answer.text, tokens, cancelled };
  });
  assert.ok(r.calls.embedded >= r.chunkCount, `${r.calls.embedded} texts embedded for ${r.chunkCount} chunks`);
  assert.deepEqual(r.models.length, 1);
  assert.match(r.models[0], /page-model/);
  assert.equal(r.by, 'model');
  assert.match(r.text, /^The Wilcoxon Chi-Square is 0\.7660/);
  assert.equal(r.tokens.join(''), 'The Wilcoxon Chi-Square is 0.7660 [1].');
  assert.equal(r.calls.chats, 1);
  assert.equal(r.calls.aborted, 1, 'the abort reached the page function');
  assert.equal(r.cancelled.ok, false);
  assert.equal(r.cancelled.code, 'AbortError/aborted');
  errors.assertNone();
  await page.close();
});

test('worker collection: bad options, a missing worker script and use after close are typed errors, never a hang', async () => {
  const page = await browser.newPage();
  // The missing worker script's 404 is the point of one check.
  const errors = watchErrors(page, { ignore: [/404|no-such-worker/] });
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
    // A worker script that is not there (what a bundler that skipped it leaves).
    const missing = await attempt(() => docrag.WorkerCollection.open('w3', {}, { workerUrl: '/no-such-worker.js' }));
    return { badChange, badSignal, setting, after, twice, missing };
  });
  assert.equal(r.badChange.code, 'invalid-option');
  assert.equal(r.badSignal.code, 'invalid-option');
  assert.deepEqual(r.setting, { signal: 'x', n: 1 });
  assert.equal(r.after.code, 'storage-closed');
  assert.equal(r.twice.ok, true);
  assert.equal(r.missing.code, 'init-failed');
  assert.match(r.missing.message, /worker script \/no-such-worker\.js could not be loaded.*docrag\/worker\.js as an entry point/);
  errors.assertNone();
  await page.close();
});
