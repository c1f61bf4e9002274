// The harness itself: what the server serves and refuses, and that page errors and
// IndexedDB persistence behave as the other browser tests rely on.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { launch, pageResult, pkgDir, serve, watchErrors } from './harness.mjs';

const work = mkdtempSync(join(tmpdir(), 'docrag-harness-'));
let server;
let browser;
before(async () => {
  mkdirSync(join(work, 'site'));
  writeFileSync(join(work, 'site', 'index.html'), '<!doctype html><title>t</title><p>home</p>');
  writeFileSync(join(work, 'secret.txt'), 'outside the mount');
  symlinkSync(join(work, 'secret.txt'), join(work, 'site', 'link.txt'));
  server = await serve({ '/pkg/': pkgDir, '/': join(work, 'site') });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** A raw GET (no URL normalization, unlike fetch), so `..` reaches the server as sent. */
function rawGet(path, method = 'GET') {
  const { port, hostname } = new URL(server.url);
  return new Promise((ok, fail) => {
    const req = request({ host: hostname, port, path, method }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => ok({ status: res.statusCode, type: res.headers['content-type'], body: Buffer.concat(parts) }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('serve: 127.0.0.1 only, index.html, wasm as application/wasm, longest prefix wins', async () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const home = await rawGet('/');
  assert.equal(home.status, 200);
  assert.match(home.body.toString(), /home/);
  const wasm = await rawGet('/pkg/docrag_bg.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.type, 'application/wasm');
  assert.deepEqual([...wasm.body.subarray(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'the wasm magic number');
  assert.equal((await rawGet('/pkg/web.js')).type, 'text/javascript; charset=utf-8');
});

test('serve: nothing outside the mounted folders, read-only', async () => {
  assert.equal((await rawGet('/../secret.txt')).status, 404);
  assert.equal((await rawGet('/%2e%2e/secret.txt')).status, 404);
  assert.equal((await rawGet('/link.txt')).status, 404, 'a symlink leading out of the mount');
  assert.equal((await rawGet('/missing.html')).status, 404);
  assert.equal((await rawGet('/', 'POST')).status, 405);
  assert.equal((await rawGet('/favicon.ico')).status, 204);
});

test('watchErrors: catches console.error, uncaught exceptions and rejections', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/`);
  await page.evaluate(() => {
    console.error('boom in console');
    setTimeout(() => {
      throw new Error('boom uncaught');
    });
    Promise.reject(new Error('boom rejected'));
  });
  await page.waitForTimeout(200);
  assert.equal(errors.errors.length, 3, errors.errors.join('\n'));
  assert.throws(() => errors.assertNone('probe'), /probe reported 3 error\(s\)[\s\S]*boom in console[\s\S]*boom uncaught[\s\S]*boom rejected/);
  await page.close();
});

test('pageResult: returns window.__result, rethrows window.__error with its code', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  await page.evaluate(() => setTimeout(() => (window.__result = { n: 42 }), 50));
  assert.deepEqual(await pageResult(page), { n: 42 });
  await page.reload();
  await page.evaluate(() => (window.__error = { message: 'nope', code: 'empty-input' }));
  await assert.rejects(pageResult(page), (e) => e.code === 'empty-input' && /\[empty-input\] nope/.test(e.message));
  await page.close();
});

test('launch: IndexedDB survives a reload and is shared by two tabs of the profile', async () => {
  const page = await browser.newPage();
  await page.goto(`${server.url}/`);
  const put = await page.evaluate(
    () =>
      new Promise((ok, fail) => {
        const open = indexedDB.open('harness-probe', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('kv');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('kv', 'readwrite');
          tx.objectStore('kv').put(new Float32Array([1.5, 2.5]), 'v');
          tx.oncomplete = () => {
            open.result.close();
            ok(true);
          };
          tx.onerror = () => fail(tx.error);
        };
      }),
  );
  assert.equal(put, true);
  const read = () =>
    new Promise((ok, fail) => {
      const open = indexedDB.open('harness-probe', 1);
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const get = open.result.transaction('kv').objectStore('kv').get('v');
        get.onsuccess = () => {
          open.result.close();
          ok(Array.from(get.result ?? []));
        };
        get.onerror = () => fail(get.error);
      };
    });
  await page.reload();
  assert.deepEqual(await page.evaluate(read), [1.5, 2.5]);
  const tab = await browser.newPage();
  await tab.goto(`${server.url}/`);
  assert.deepEqual(await tab.evaluate(read), [1.5, 2.5]);
  await tab.close();
  await page.close();
});

test('launch: each launch starts with an empty profile', async () => {
  const other = await launch();
  try {
    assert.notEqual(other.userDataDir, browser.userDataDir);
    const page = await other.newPage();
    await page.goto(`${server.url}/`);
    const names = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
    assert.deepEqual(names, []);
  } finally {
    await other.close();
  }
});
