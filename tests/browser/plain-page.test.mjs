// The package in a plain <script type="module"> page, no bundler: /pkg/web.js, init(),
// convert a corpus DOCX fetched from the server.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { assertCollectionReport, assertSameConversion, assertSamePdf, FILE, PDF, pdfDir, QUESTION, roundScores } from './expected.mjs';
import { corpusDir, fixturesDir, launch, pageResult, pkgDir, screenshot, serve, watchErrors } from './harness.mjs';

let browser;
let server;
// The package as users get it: packed, the tarball installed, its folder served as /pkg/.
const work = mkdtempSync(join(tmpdir(), 'docrag-plain-'));
before(async () => {
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work, pkgDir], { encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'docrag-plain-page', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], { cwd: work, stdio: 'pipe' });
  // pdf.js as the installed dependency, served for init({ pdfjs }).
  server = await serve({
    '/pkg/': join(work, 'node_modules', 'docrag'),
    '/pdfjs/': join(work, 'node_modules', 'pdfjs-dist', 'legacy', 'build'),
    '/pdf/': pdfDir,
    '/corpus/': corpusDir,
    '/': fixturesDir,
  });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

test('plain module page: init() loads the wasm as application/wasm and convert() equals Node', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const wasm = page.waitForResponse((r) => r.url().endsWith('/pkg/docrag_bg.wasm'));
  await page.goto(`${server.url}/plain.html?file=${encodeURIComponent(FILE)}`);
  const result = await pageResult(page);
  const wasmResponse = await wasm;
  assert.equal(wasmResponse.status(), 200);
  assert.equal(wasmResponse.headers()['content-type'], 'application/wasm');
  assert.match(result.version, /^\d+\.\d+\.\d+/);
  assert.equal(result.bytes, 444786);
  await assertSameConversion(result.conversion, {}, 'plain page');
  await screenshot(page, 'plain-page');
  errors.assertNone('plain page');
  await page.close();
});

test('plain module page: init({ pdfjs }) says where pdf.js is served, and convertAsync reads a PDF as Node does', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/plain.html?file=${encodeURIComponent(FILE)}&pdf=${encodeURIComponent(PDF)}&pdfjs=/pdfjs/`);
  const result = await pageResult(page);
  await assertSamePdf(result.pdf, 'plain page');
  errors.assertNone('plain page');
  await page.close();
});

test('plain module page: options reach the wasm (maxTokens 256 gives more, smaller chunks)', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/plain.html?file=${encodeURIComponent(FILE)}&maxTokens=256`);
  const result = await pageResult(page);
  await assertSameConversion(result.conversion, { maxTokens: 256 }, 'plain page, maxTokens 256');
  for (const m of result.conversion.metadata) assert.ok(m.tokenCount <= 256, `chunk of ${m.tokenCount} tokens`);
  errors.assertNone('plain page');
  await page.close();
});

test('plain module page: a missing file surfaces as the page error, not a time-out', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page, { ignore: [/404/] });
  await page.goto(`${server.url}/plain.html?file=no-such-file.docx`);
  await assert.rejects(pageResult(page), /GET \/corpus\/no-such-file\.docx: HTTP 404/);
  errors.assertNone('plain page');
  await page.close();
});

test('plain module page: a Collection in IndexedDB: add, ask with no provider, reload, reopened unchanged', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const url = `${server.url}/plain.html?file=${encodeURIComponent(FILE)}&collection=plain&question=${encodeURIComponent(QUESTION)}`;
  await page.goto(url);
  const first = (await pageResult(page)).collection;
  await assertCollectionReport(first, { storage: 'indexeddb', reopened: false, where: 'plain page, added' });
  await screenshot(page, 'plain-page-collection');

  await page.goto(`${url}&reopen=1`);
  const again = (await pageResult(page)).collection;
  await assertCollectionReport(again, { storage: 'indexeddb', reopened: true, where: 'plain page, reopened' });
  assert.deepEqual(again.documents, first.documents, 'the stored record, addedAt included');
  assert.deepEqual(again.chunks, first.chunks, 'chunks and metadata as stored');
  assert.deepEqual(roundScores(again.answer), roundScores(first.answer), 'the same answer from the reopened collection');
  errors.assertNone('plain page');
  await page.close();
});

test("a user's own module worker imports the browser entry by path, inits and converts", async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/plain.html?file=${encodeURIComponent(FILE)}`);
  const expected = (await pageResult(page)).conversion;
  const r = await page.evaluate(
    (file) =>
      new Promise((resolve) => {
        const w = new Worker('/user-worker.js', { type: 'module' });
        w.onmessage = (e) => resolve(e.data);
        w.onerror = (e) => resolve({ ok: false, message: e.message || 'the worker failed to load' });
        w.postMessage({ url: `/corpus/${file}`, name: file });
      }),
    FILE,
  );
  assert.equal(r.ok, true, r.message);
  assert.equal(r.chunks, expected.chunks.length);
  assert.equal(r.docId, expected.docId);
  assert.equal(r.tokens, expected.metadata[0].tokenCount);
  errors.assertNone('user worker');
  await page.close();
});

test('init reports the download of the module as it streams in, then compile and done; an aborted signal rejects', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/blank.html`);
  const r = await page.evaluate(async () => {
    const docrag = await import('/pkg/web.js');
    const seen = [];
    const aborted = await docrag.init({ signal: AbortSignal.abort() }).then(() => null, (e) => ({ name: e.name, code: e.cause?.code }));
    await docrag.init({ onProgress: (p) => seen.push(p) });
    const size = (await (await fetch('/pkg/docrag_bg.wasm')).arrayBuffer()).byteLength;
    return { seen, size, aborted, tokens: docrag.countTokens('hello world') };
  });
  const downloads = r.seen.filter((p) => p.stage === 'download');
  // One report per piece the network hands over (a local server may send it in one).
  assert.ok(downloads.length >= 1, `${downloads.length} download reports`);
  assert.ok(downloads.every((p, i) => i === 0 || p.done > downloads[i - 1].done), 'bytes only grow');
  assert.equal(downloads.at(-1).done, r.size);
  assert.equal(downloads.at(-1).total, r.size);
  // Streaming compilation starts while the rest downloads: compile 0/1 may come before
  // the last download report, compile 1/1 and done after all of them.
  assert.deepEqual(r.seen.filter((p) => p.stage !== 'download').map((p) => `${p.stage} ${p.done}/${p.total}`), ['compile 0/1', 'compile 1/1', 'done 1/1']);
  assert.ok(r.seen.findLastIndex((p) => p.stage === 'download') < r.seen.findIndex((p) => p.stage === 'compile' && p.done === 1));
  assert.deepEqual(r.aborted, { name: 'AbortError', code: 'aborted' });
  assert.equal(r.tokens, 2);
  errors.assertNone('init progress');
  await page.close();
});
