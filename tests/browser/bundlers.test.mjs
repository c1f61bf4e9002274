// The package as an app installs it (npm pack, then npm install of the tarball into a
// fresh app) and bundles it with esbuild and with webpack 5; each build is served and
// run in Chromium through the shared scenario: convert() equals Node, a Collection in
// IndexedDB, a WorkerCollection from the worker the bundler emitted, a PDF read by
// pdf.js (which each bundler resolves from the installed pdfjs-dist dependency) on the
// page and in the worker. esbuild does not
// follow `new URL(..., import.meta.url)`: the README's recipe (docrag/worker.js as a
// second entry point, docrag_bg.wasm copied beside the bundle) is what the test does.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';
import webpack from 'webpack';

import { assertCollectionReport, assertSameConversion, assertSamePdf, FILE, PDF, pdfDir, QUESTION } from './expected.mjs';
import { corpusDir, launch, pageResult, pkgDir, root, serve, watchErrors } from './harness.mjs';

const work = mkdtempSync(join(tmpdir(), 'docrag-bundlers-'));
let browser;
let tarball;

/** A fresh app with the packed package installed and the Vite app's sources copied. */
function app(name) {
  const dir = join(work, name, 'app');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `docrag-${name}-app`, private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: dir, stdio: 'pipe' });
  cpSync(join(root, 'tests', 'browser', 'vite-app', 'main.js'), join(dir, 'main.js'));
  // main.js imports ../fixtures/scenario.js.
  mkdirSync(join(work, name, 'fixtures'), { recursive: true });
  copyFileSync(join(root, 'tests', 'browser', 'fixtures', 'scenario.js'), join(work, name, 'fixtures', 'scenario.js'));
  return dir;
}

function page(out, script) {
  writeFileSync(join(out, 'index.html'), `<!doctype html><meta charset="utf-8"><title>docrag bundled</title><script type="module" src="./${script}"></script>`);
}

async function esbuildApp() {
  const dir = app('esbuild');
  const out = join(work, 'esbuild', 'dist');
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: { main: 'main.js', worker: 'docrag/worker.js' },
    bundle: true,
    format: 'esm',
    outdir: out,
    logLevel: 'warning',
  });
  copyFileSync(join(dir, 'node_modules', 'docrag', 'docrag_bg.wasm'), join(out, 'docrag_bg.wasm'));
  page(out, 'main.js');
  return out;
}

async function webpackApp() {
  const dir = app('webpack');
  const out = join(work, 'webpack', 'dist');
  const stats = await new Promise((resolve, reject) =>
    webpack(
      { mode: 'production', context: dir, entry: './main.js', output: { path: out, filename: 'main.js', publicPath: 'auto' }, performance: { hints: false } },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  page(out, 'main.js');
  return out;
}

const builds = {};
before(async () => {
  tarball = join(work, execFileSync('npm', ['pack', '--silent', '--pack-destination', work, pkgDir], { encoding: 'utf8' }).trim().split('\n').pop());
  builds.esbuild = await esbuildApp();
  builds.webpack = await webpackApp();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

for (const name of ['esbuild', 'webpack']) {
  test(`${name}: the bundled app converts, keeps a Collection in IndexedDB and runs a WorkerCollection`, async () => {
    const out = builds[name];
    const files = readdirSync(out);
    assert.ok(files.some((f) => f.endsWith('.wasm')), `a .wasm in the ${name} output: ${files.join(', ')}`);
    const server = await serve({ '/corpus/': corpusDir, '/pdf/': pdfDir, '/': out });
    try {
      const p = await browser.newPage();
      const errors = watchErrors(p);
      const wasm = p.waitForResponse((r) => r.url().endsWith('.wasm'));
      await p.goto(`${server.url}/?file=${encodeURIComponent(FILE)}&collection=${name}&question=${encodeURIComponent(QUESTION)}&worker=${name}-worker&pdf=${encodeURIComponent(PDF)}`);
      const result = await pageResult(p);
      const response = await wasm;
      assert.equal(response.status(), 200, response.url());
      assert.equal(response.headers()['content-type'], 'application/wasm');
      await assertSameConversion(result.conversion, {}, `${name} app`);
      await assertCollectionReport(result.collection, { storage: 'indexeddb', reopened: false, where: `${name} app` });
      assert.equal(result.worker.added.docId, result.conversion.docId);
      assert.deepEqual([...new Set(result.worker.progress)], ['read', 'parse', 'chunk', 'store', 'done']);
      // pdf.js from the bundle: on the page (convertAsync) and in the worker (addFile).
      await assertSamePdf(result.pdf, `${name} app`);
      assert.equal(result.worker.pdfAdded.docId, result.pdf.docId);
      assert.equal(result.worker.pdfAdded.format, 'pdf');
      errors.assertNone(`${name} app`);
      await p.close();
    } finally {
      await server.close();
    }
  });
}
