// The package in a Vite app: `import * as docrag from 'docrag'` resolved through the
// package's exports ("browser" condition), `vite build`, the build output served and
// loaded in Chromium.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { build } from 'vite';

import { assertCollectionReport, assertSameConversion, FILE, QUESTION, roundScores, assertSamePdf, PDF, pdfDir } from './expected.mjs';
import { corpusDir, launch, pageResult, pkgDir, root, screenshot, serve, watchErrors } from './harness.mjs';

const here = join(root, 'tests', 'browser');
// The app and the scenario it imports keep their relative layout in the temp copy.
const work = mkdtempSync(join(tmpdir(), 'docrag-vite-'));
const appDir = join(work, 'vite-app');
const outDir = join(work, 'dist');

let browser;
let server;
let assets;
before(async () => {
  cpSync(join(here, 'vite-app'), appDir, { recursive: true });
  mkdirSync(join(work, 'fixtures'));
  cpSync(join(here, 'fixtures', 'scenario.js'), join(work, 'fixtures', 'scenario.js'));
  // The package as users get it: packed, and the tarball installed into the app.
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work, pkgDir], { encoding: 'utf8' }).trim().split('\n').pop();
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'docrag-vite-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)], { cwd: appDir, stdio: 'pipe' });
  await build({
    root: appDir,
    configFile: false,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  assets = readdirSync(join(outDir, 'assets'));
  server = await serve({ '/corpus/': corpusDir, '/pdf/': pdfDir, '/': outDir });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

test('vite build emits the wasm module as an asset and bundles the browser entry', () => {
  const wasm = assets.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `one .wasm asset in ${assets.join(', ')}`);
  assert.deepEqual(
    readFileSync(join(outDir, 'assets', wasm[0])),
    readFileSync(join(pkgDir, 'docrag_bg.wasm')),
    'the emitted asset is the package module, byte for byte',
  );
  const js = assets.filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(outDir, 'assets', f), 'utf8')).join('\n');
  assert.ok(js.includes(wasm[0]), 'the bundle refers to the emitted wasm by its hashed name');
  assert.ok(!/node:fs|readFileSync/.test(js), 'the Node entry (node:fs) is not in the browser bundle');
  assert.ok(js.includes('not-initialized'), "web.js (the browser entry's init guard) is in the bundle");
});

test('the built Vite app loads the wasm asset in Chromium and convert() equals Node', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));
  await page.goto(`${server.url}/?file=${encodeURIComponent(FILE)}`);
  const result = await pageResult(page);
  const wasmResponse = await wasm;
  assert.match(wasmResponse.url(), /\/assets\/docrag_bg-[\w-]+\.wasm$/);
  assert.equal(wasmResponse.status(), 200);
  assert.equal(wasmResponse.headers()['content-type'], 'application/wasm');
  assert.equal(result.bytes, 444786);
  await assertSameConversion(result.conversion, {}, 'Vite app');
  await screenshot(page, 'vite-app');
  errors.assertNone('Vite app');
  await page.close();
});

test('the built Vite app: a Collection in IndexedDB: add, ask with no provider, reload, reopened unchanged', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  const url = `${server.url}/?file=${encodeURIComponent(FILE)}&collection=vite&question=${encodeURIComponent(QUESTION)}`;
  await page.goto(url);
  const first = (await pageResult(page)).collection;
  await assertCollectionReport(first, { storage: 'indexeddb', reopened: false, where: 'Vite app, added' });
  await screenshot(page, 'vite-app-collection');

  await page.goto(`${url}&reopen=1`);
  const again = (await pageResult(page)).collection;
  await assertCollectionReport(again, { storage: 'indexeddb', reopened: true, where: 'Vite app, reopened' });
  assert.deepEqual(again.documents, first.documents, 'the stored record, addedAt included');
  assert.deepEqual(roundScores(again.answer), roundScores(first.answer), 'the same answer from the reopened collection');
  errors.assertNone('Vite app');
  await page.close();
});

test('the built Vite app runs a WorkerCollection from the worker chunk Vite emitted', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/?file=${encodeURIComponent(FILE)}&worker=vite-worker&pdf=${encodeURIComponent(PDF)}`);
  const { worker, conversion, pdf } = await pageResult(page);
  // pdf.js from Vite's own chunk of pdfjs-dist: on the page and in the worker.
  await assertSamePdf(pdf, 'Vite app');
  assert.equal(worker.pdfAdded.docId, pdf.docId);
  assert.equal(worker.added.docId, conversion.docId);
  assert.equal(worker.added.chunkCount, conversion.chunks.length);
  assert.deepEqual(worker.documents.map((d) => d.docId).sort(), [worker.added.docId, pdf.docId].sort());
  assert.deepEqual([...new Set(worker.progress)], ['read', 'parse', 'chunk', 'store', 'done']);
  assert.ok(assets.some((f) => /^worker-[\w-]+\.js$/.test(f)), `a worker chunk in ${assets.join(', ')}`);
  errors.assertNone('Vite app worker');
  await page.close();
});
