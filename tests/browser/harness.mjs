// The browser test harness: Debian's Chromium driven by playwright-core, a static
// server on 127.0.0.1, page error collection and screenshots. Every browser test file
// imports this module; see tests/browser/README.md.
//
//   const browser = await launch();            // fresh profile per call
//   const server = await serve({ '/pkg/': pkgDir, '/': fixturesDir });
//   const page = await browser.context.newPage();
//   const errors = watchErrors(page);
//   await page.goto(`${server.url}/plain.html`);
//   const result = await pageResult(page);     // what the page put in window.__result
//   errors.assertNone();
//   await screenshot(page, 'plain-page');
//   await browser.close(); await server.close();
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { chromium } from 'playwright-core';

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built npm package (`node scripts/build-pkg.mjs`); `DOCRAG_PKG` names another build. */
export const pkgDir = process.env.DOCRAG_PKG ?? join(root, 'pkg');
/** The shared corpus of real documents, read-only. */
export const corpusDir = join(root, '..', 'shared', 'corpus');
/** Test pages served at `/` by the browser tests. */
export const fixturesDir = join(root, 'tests', 'browser', 'fixtures');
/** Where `screenshot` writes (git-ignored). */
export const screenshotDir = join(root, 'tests', 'artifacts', 'screenshots');
/** The Chromium that `launch` drives: Debian's package (`make chromium` installs it). */
export const chromiumPath = process.env.DOCRAG_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Chromium's command-line flags. The network ones keep Chromium from calling home,
 * which this machine's closed network refuses (and which would slow every start).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!existsSync(join(pkgDir, 'package.json'))) {
  throw new Error('pkg/ is not built: run `node scripts/build-pkg.mjs` (or `make pkg`) first');
}

/**
 * Starts headless Chromium with a persistent profile, so IndexedDB survives
 * `page.reload()` and new pages of the same context (two tabs share storage).
 *
 * `options.userDataDir`: reuse a profile (e.g. the one of a closed browser, to test a
 * restart); default a fresh empty folder under the temp dir, deleted by `close()`.
 * `options.timeout`: default Playwright timeout for actions and waits, in
 * milliseconds (default 60000: wasm compiles slowly on a loaded 2-core machine).
 *
 * Returns `{ context, userDataDir, newPage(), close() }`: `context` is the Playwright
 * BrowserContext; `newPage()` opens a tab; `close()` ends Chromium (idempotent).
 */
export async function launch(options = {}) {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} is missing: run \`make chromium\` (apt-get install -y chromium) first`);
  }
  const own = options.userDataDir === undefined;
  const userDataDir = own ? mkdtempSync(join(tmpdir(), 'docrag-chromium-')) : options.userDataDir;
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  context.setDefaultTimeout(options.timeout ?? 60_000);
  let closed = false;
  return {
    context,
    userDataDir,
    newPage: () => context.newPage(),
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      if (own) rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Content types by extension; `.wasm` must be application/wasm for streaming compilation. */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.rtf': 'application/rtf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * A read-only static HTTP server on 127.0.0.1 (port chosen by the system).
 *
 * `mounts` maps a URL prefix ending in "/" to a folder, e.g.
 * `{ '/pkg/': pkgDir, '/corpus/': corpusDir, '/': fixturesDir }`; the longest prefix
 * wins, `/` and `.../` serve `index.html`. Only GET and HEAD; paths that leave their
 * folder (`..`, symlinks out) get 404; a missing
 * /favicon.ico gets 204. Responses are `no-store`, so a reload always
 * fetches afresh.
 *
 * Returns `{ url, requests, close() }`: `url` is `http://127.0.0.1:PORT` (no trailing
 * slash); `requests` lists every request path served, in order.
 */
export async function serve(mounts) {
  const table = Object.entries(mounts)
    .map(([prefix, dir]) => {
      if (!prefix.startsWith('/') || !prefix.endsWith('/')) throw new Error(`mount prefix ${prefix} must start and end with /`);
      return [prefix, resolve(dir)];
    })
    .sort((a, b) => b[0].length - a[0].length);
  const requests = [];

  async function locate(pathname) {
    const hit = table.find(([prefix]) => pathname.startsWith(prefix));
    if (!hit) return null;
    const [prefix, dir] = hit;
    let rel = pathname.slice(prefix.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = resolve(dir, rel);
    if (file !== dir && !file.startsWith(dir + sep)) return null;
    try {
      // The mount itself may be a symlink; a symlink inside it may not lead out.
      const [real, realDir] = await Promise.all([realpath(file), realpath(dir)]);
      if (!real.startsWith(realDir + sep)) return null;
      return (await stat(real)).isFile() ? real : null;
    } catch {
      return null;
    }
  }

  const server = createServer(async (req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    requests.push(pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await locate(pathname);
    if (!file && pathname === '/favicon.ico') {
      // Chromium asks for one on every page; a 404 would be a console error.
      res.writeHead(204).end();
      return;
    }
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${pathname}`);
      return;
    }
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * Collects what went wrong in a page: console errors, uncaught exceptions and
 * unhandled rejections (`pageerror`), and crashes. Attach right after creating the page.
 *
 * Returns `{ errors, assertNone(context?) }`: `errors` is a list of strings;
 * `assertNone` throws one Error listing them all when there are any.
 * `options.ignore`: regexps for console messages a test expects (e.g. a 404 it provokes).
 */
export function watchErrors(page, options = {}) {
  const ignore = options.ignore ?? [];
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (ignore.some((re) => re.test(text))) return;
    const loc = msg.location();
    errors.push(`console.error: ${text}${loc?.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.stack || err.message || err}`));
  page.on('crash', () => errors.push('the page crashed'));
  return {
    errors,
    assertNone(what = 'the page') {
      if (errors.length) throw new Error(`${what} reported ${errors.length} error(s):\n  ${errors.join('\n  ')}`);
    },
  };
}

/**
 * A new tab of `browser` on fixtures/runtime.html at `serverUrl`, once the page has
 * loaded docrag (`window.__ready`), with its errors watched from the start.
 * `watch`: `watchErrors`'s options. Returns `{ page, errors }`.
 */
export async function openRuntime(browser, serverUrl, watch = {}) {
  const page = await browser.newPage();
  const errors = watchErrors(page, watch);
  await page.goto(`${serverUrl}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
  return { page, errors };
}

/**
 * Waits until the page sets `window.__result` (resolves with it) or `window.__error`
 * (rejects with its message, code and stack). Fixture pages report that way, so a
 * failing page fails the test with the page's own error instead of a bare time-out.
 * `timeout` in milliseconds (default: the context's default).
 */
export async function pageResult(page, timeout) {
  const handle = await page.waitForFunction(
    () => window.__error !== undefined || window.__result !== undefined,
    undefined,
    timeout === undefined ? {} : { timeout },
  );
  await handle.dispose();
  const { result, error } = await page.evaluate(() => ({ result: window.__result, error: window.__error }));
  if (error !== undefined) {
    const e = new Error(`the page failed: ${error.code ? `[${error.code}] ` : ''}${error.message}\n${error.stack ?? ''}`);
    e.code = error.code;
    throw e;
  }
  return result;
}

/**
 * Saves a full-page PNG to tests/artifacts/screenshots/NAME.png (for a person to look
 * at; git-ignored) and returns its path. NAME: letters, digits, '-', '_' and '.'.
 */
export async function screenshot(page, name) {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name ${name} must be [A-Za-z0-9_.-]+`);
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * The local OpenAI-compatible stub provider of tests/node/stub-server.mjs (one stub for
 * all tests: never write a second one). Same arguments and result as its `startStub`.
 * Point a page at `stub.url`; the page's origin differs, so the stub must send CORS
 * headers.
 */
export async function startStub(options) {
  const file = join(root, 'tests', 'node', 'stub-server.mjs');
  if (!existsSync(file)) throw new Error(`${file} does not exist yet: the stub provider lives there`);
  const mod = await import(pathToFileURL(file).href);
  return mod.startStub(options);
}

/**
 * The demo as `make demo` assembles it, as `serve()` mounts: www/ at /, the package
 * at /pkg/, and the vendored marked and DOMPurify builds at /vendor/.
 */
export function demoMounts() {
  return {
    '/pkg/': pkgDir,
    '/vendor/marked/': join(root, 'node_modules', 'marked', 'lib'),
    '/vendor/dompurify/': join(root, 'node_modules', 'dompurify', 'dist'),
    '/vendor/pdfjs/': join(root, 'node_modules', 'pdfjs-dist', 'legacy', 'build'),
    // The demo's "Local model (no network)": the companion with its tiny test model
    // (`make local-embed`; `make demo` serves the real one here).
    '/local-embed/': join(root, 'target', 'local-embed', 'dist', 'tiny'),
    '/': join(root, 'www'),
  };
}

/**
 * The console error Chromium logs when the demo's Content-Security-Policy blocks an
 * inline handler, which it does even while DOMPurify parses hostile markup in an
 * inert document (nothing runs there).
 */
export const CSP_HANDLER = /^Executing inline event handler violates the following Content Security Policy/;
