// The demo page (www/, issue 7) in headless Chromium, served the way `make demo`
// assembles it (www/ + pkg/ + the vendored marked and DOMPurify builds): real corpus
// files through the file input, a table-cell question answered with a citation that
// opens the complete table, persistence across a reload, a local OpenAI-compatible
// stub as provider (same cached prefix for two questions), and a hostile document
// that runs nothing. Screenshots go to tests/artifacts/screenshots/demo-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, serve, watchErrors, screenshot, startStub, root, pkgDir, corpusDir, fixturesDir, screenshotDir } from './harness.mjs';
import * as docrag from '../../pkg/node.js';

const TABLE_DOC = 'poi__bug57031.docx';
const FILES = [join(corpusDir, TABLE_DOC), join(corpusDir, 'tika__testWORD_embedded_pics.docx'), join(corpusDir, 'pandoc__html-reader.html')];
const XSS_FILE = join(fixturesDir, 'demo', 'xss.html');
const QUESTION = 'What is the Chi-Square value of the Wilcoxon test?';
/** The page's default chunk size for new files (www/ui/settings.js). */
const MAX_TOKENS = 512;

const tableDocId = docrag.convert(new Uint8Array(readFileSync(FILES[0])), { maxTokens: MAX_TOKENS, fileName: TABLE_DOC }).docId;

let browser;
let server;
let page;
let errors;
const dialogs = [];
const CSP_HANDLER = /^Executing inline event handler violates the following Content Security Policy/;
const cspReports = [];

/** Every CSP report came from DOMPurify's inert parse. */
function assertCspReportsInert() {
  const elsewhere = cspReports.filter((url) => !url.endsWith('/vendor/dompurify/purify.es.mjs'));
  assert.deepEqual(elsewhere, [], 'inline handlers reached a live document');
}

before(async () => {
  server = await serve({
    '/pkg/': pkgDir,
    '/vendor/marked/': join(root, 'node_modules', 'marked', 'lib'),
    '/vendor/dompurify/': join(root, 'node_modules', 'dompurify', 'dist'),
    '/': join(root, 'www'),
  });
  browser = await launch();
  page = await browser.newPage();
  // The page's Content-Security-Policy blocks inline handlers; Chromium logs a
  // violation even while DOMPurify parses hostile markup in its inert DOMParser
  // document (nothing runs there). Those are expected; one from anywhere else is not.
  errors = watchErrors(page, { ignore: [CSP_HANDLER] });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && CSP_HANDLER.test(msg.text())) cspReports.push(msg.location()?.url ?? '');
  });
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function ready() {
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
}

async function openSettings() {
  if (!(await page.$eval('#settings', (d) => d.open))) await page.click('#settings > summary');
}

async function setNumber(selector, value) {
  await openSettings();
  await page.fill(selector, String(value));
  await page.dispatchEvent(selector, 'change');
}

/** Asks `question` and waits for its answer; returns the new turn's element handle. */
async function ask(question) {
  const before = await page.$$eval('.turn:not(.pending)', (t) => t.length);
  await page.fill('#question', question);
  await page.click('#ask');
  await page.waitForFunction((n) => document.querySelectorAll('.turn:not(.pending)').length === n + 1, before);
  return (await page.$$('.turn:not(.pending)')).at(-1);
}

const flag = () => page.evaluate(() => window.__xss);

test('empty page: empty states, no errors', async () => {
  await page.goto(`${server.url}/`);
  await ready();
  assert.match(await page.textContent('#documents'), /No documents yet/);
  assert.match(await page.textContent('#chat'), /No questions yet/);
  assert.match(await page.textContent('#status'), /IndexedDB/);
  await screenshot(page, 'demo-empty');
  errors.assertNone();
  assertCspReportsInert();
});

test('three files through the file input, a table-cell question, a citation that opens the whole table', async () => {
  await page.setInputFiles('#files', FILES);
  await page.waitForFunction(() => document.querySelectorAll('.upload[data-state=done]').length === 3 || document.querySelector('.upload[data-state=failed]'));
  assert.equal(await page.$$eval('.upload[data-state=failed]', (x) => x.length), 0, await page.textContent('#uploads'));
  assert.deepEqual(await page.$$eval('.upload progress', (bars) => bars.map((b) => b.value)), [1, 1, 1]);

  const docs = await page.$$eval('.doc', (rows) => rows.map((r) => ({ id: r.dataset.docId, text: r.textContent })));
  assert.equal(docs.length, 3);
  const tableRow = docs.find((d) => d.id === tableDocId);
  assert.ok(tableRow, `the table document ${tableDocId} is listed`);
  assert.match(tableRow.text, /poi__bug57031\.docx/);
  assert.match(tableRow.text, /12 pages/);
  assert.match(tableRow.text, /tables/);
  const pics = docs.find((d) => /testWORD_embedded_pics/.test(d.text));
  assert.match(pics.text, /tracked changes/);
  assert.match(pics.text, /comments/);
  await screenshot(page, 'demo-uploaded');

  // The collection is below the send-everything threshold (20,000 tokens): make
  // retrieval run.
  await setNumber('#send-all-below', 0);
  const turn = await ask(QUESTION);
  const answer = await turn.$eval('.answer', (a) => a.textContent);
  assert.match(answer, /0\.7660/);
  const path = await turn.$eval('.path', (p) => p.textContent);
  assert.match(path, /Retrieval \+ enrichment \(pointed question\)/);
  assert.match(path, /Model calls: none/);
  assert.match(path, /retrieval \d[\d,]*/);
  assert.match(path, /enrichment [1-9][\d,]*/);
  assert.match(await turn.$eval('.by', (b) => b.textContent), /Extractive/);

  // The marker right after the Wilcoxon row cites the table document.
  const cite = await turn.evaluateHandle((t) => {
    const answerEl = t.querySelector('.answer');
    const walker = document.createTreeWalker(answerEl, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let seen = false;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!seen && n.nodeType === Node.TEXT_NODE && n.nodeValue.includes('0.7660')) seen = true;
      else if (seen && n.nodeType === Node.ELEMENT_NODE && n.matches('a.cite')) return n;
    }
    return null;
  });
  const citeEl = cite.asElement();
  assert.ok(citeEl, 'a citation link follows 0.7660');
  assert.equal(await citeEl.getAttribute('data-doc-id'), tableDocId);
  const seq = Number(await citeEl.getAttribute('data-seq'));
  await screenshot(page, 'demo-answer');

  await citeEl.click();
  await page.waitForSelector('.chunk.cited');
  assert.equal(await page.$eval('#chunk-browser select', (s) => s.value), tableDocId);
  const card = await page.$('.chunk.cited');
  assert.equal(Number(await card.getAttribute('data-seq')), seq);
  assert.ok(await card.isVisible());
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('cited')), true, 'the cited chunk has the focus');

  // The stored chunk holds the whole table: its header, both rows, its end.
  const stored = docrag.convert(new Uint8Array(readFileSync(FILES[0])), { maxTokens: MAX_TOKENS, fileName: TABLE_DOC });
  const text = stored.chunks[seq];
  const table = /<table>(?:(?!<table>)[\s\S])*?Test of Equality over Strata[\s\S]*?<\/table>/.exec(text)?.[0];
  assert.ok(table, `chunk ${seq} holds the Test of Equality table whole:\n${text}`);
  assert.match(table, /<td>Log-Rank<\/td><td>1\.5209<\/td>/);
  assert.match(table, /<td>\*\*Wilcoxon\*\*<\/td><td>0\.7660<\/td><td>1<\/td><td>0\.3815<\/td>/);
  // ... and the page renders that table: every row, cell by cell.
  const rows = await card.$$eval('.md table', (tables) => {
    const t = tables.find((x) => x.textContent.includes('Test of Equality over Strata'));
    return t ? [...t.rows].map((r) => [...r.cells].map((c) => c.textContent.trim())) : null;
  });
  assert.deepEqual(rows, [
    ['Test of Equality over Strata'],
    ['Test', 'Chi-Square', 'DF', 'Pr >Chi-Square'],
    ['Log-Rank', '1.5209', '1', '0.2175'],
    ['Wilcoxon', '0.7660', '1', '0.3815'],
    ['-2Log(LR)', '3.2114', '1', '0.0731'],
  ]);
  // Bold inside the table's HTML is rendered, not shown as asterisks.
  assert.ok((await card.$$eval('.md td strong', (s) => s.map((x) => x.textContent))).includes('Wilcoxon'));
  await screenshot(page, 'demo-cited-chunk');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshotDir, 'demo-readme-cited.png') });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(screenshotDir, 'demo-readme.png') });
  errors.assertNone();
  assertCspReportsInert();
});

test('a reload brings back the collection, the chat and the settings', async () => {
  const before = await page.$$eval('.doc', (rows) => rows.map((r) => r.textContent));
  await page.reload();
  await ready();
  assert.deepEqual(await page.$$eval('.doc', (rows) => rows.map((r) => r.textContent)), before);
  const turns = await page.$$eval('.turn', (t) => t.map((x) => x.textContent));
  assert.equal(turns.length, 1);
  assert.match(turns[0], /Chi-Square value of the Wilcoxon/);
  assert.match(turns[0], /0\.7660/);
  assert.equal(await page.$eval('#send-all-below', (i) => i.value), '0');
  // The restored answer's citations still open chunks.
  await page.click('.turn .sources a.cite');
  await page.waitForSelector('.chunk.cited');
  await screenshot(page, 'demo-reloaded');
  errors.assertNone();
  assertCspReportsInert();
});

test('with the local OpenAI-compatible stub, two questions over the same context send the same cached prefix', async () => {
  const hostile = `The Wilcoxon Chi-Square is **0.7660** [1]. <img src=x onerror="window.__xss='model'"><script>window.__xss='model-script'</script> [link](javascript:window.__xss='model-link')`;
  const stub = await startStub({ dim: 8, reply: hostile, pieces: 4 });
  // The stub sends no CORS headers; the page's origin differs, so add them here.
  await page.route(`${stub.url}/**`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  try {
    await setNumber('#send-all-below', 20000);
    await page.selectOption('#provider-kind', 'openai');
    await page.fill('#provider-url', stub.url);
    await page.fill('#provider-key', 'sk-test-in-memory');
    await page.fill('#provider-embedding', 'stub-embed');
    await page.fill('#provider-chat', 'stub-chat');
    await page.click('#provider-apply');
    await page.waitForFunction(() => /Provider in use/.test(document.querySelector('.provider-status')?.textContent ?? '') || document.querySelector('.provider-status .error'));
    assert.match(await page.textContent('.provider-status'), /embeddings openai:stub-embed, chat/);
    // The stored documents were embedded with the new model.
    assert.equal(await page.$$eval('.doc .badge.vectors', (b) => b.length), 3);

    stub.reset();
    const first = await ask(QUESTION);
    const second = await ask('And the Log-Rank test?');
    const chats = stub.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body));
    assert.equal(chats.length, 2, 'one answer call per question (everything is sent: no routing call)');
    assert.equal(chats[0].model, 'stub-chat');
    const [a, b] = chats.map((c) => c.messages);
    assert.deepEqual(b[0], a[0], 'the first message (the cached prefix) is byte-identical');
    assert.ok(a[0].content.includes('0.7660'), 'the context holds the table');
    assert.ok(b.length > a.length, 'the second request carries the first exchange as history');
    assert.equal(a.at(-1).content, QUESTION);
    const headers = stub.requests.find((r) => r.path === '/v1/chat/completions').headers;
    assert.equal(headers.authorization, 'Bearer sk-test-in-memory');

    for (const turn of [first, second]) {
      assert.match(await turn.$eval('.by', (x) => x.textContent), /chat model/);
      assert.match(await turn.$eval('.path', (x) => x.textContent), /Sent everything[\s\S]*Model calls: embedding \(embedding\), answer \(main\)/);
      // Model output is rendered through the sanitizer: bold kept, nothing that runs.
      assert.equal(await turn.$eval('.answer strong', (x) => x.textContent), '0.7660');
      assert.equal(await turn.$$eval('.answer img, .answer script, .answer a[href^="javascript" i]', (x) => x.length), 0);
      assert.equal(await turn.$eval('.answer a.cite', (x) => x.textContent), '[1]');
    }
    // The payload on demand, with the cached prefix marked, equal to what was sent.
    await second.$eval('details.payload', (d) => (d.open = true));
    const prefix = await second.$eval('.message.cached-prefix pre', (p) => p.textContent);
    assert.equal(prefix, a[0].content);
    assert.match(await second.$eval('.message.cached-prefix header', (h) => h.textContent), /cached prefix/);
    await screenshot(page, 'demo-stub-answer');
    await second.screenshot({ path: join(screenshotDir, 'demo-stub-turn.png') });
    assert.equal(await flag(), undefined);

    // The key was not remembered: after a reload there is no provider.
    await page.reload();
    await ready();
    assert.match(await page.textContent('.provider-status'), /No provider/);
    assert.equal(await page.$eval('#provider-key', (i) => i.value), '');
    assert.equal(await page.$eval('#provider-url', (i) => i.value), stub.url, 'non-secret provider fields are restored');
    assert.equal(await page.$$eval('.turn', (t) => t.length), 3);

    // Ticked, the provider (key included) is remembered across a reload.
    await openSettings();
    await page.fill('#provider-key', 'sk-remembered');
    await page.check('#provider-remember');
    await page.click('#provider-apply');
    await page.waitForFunction(() => /Provider in use/.test(document.querySelector('.provider-status')?.textContent ?? ''));
    await page.reload();
    await ready();
    assert.match(await page.textContent('.provider-status'), /Provider in use: embeddings openai:stub-embed, chat/);
    assert.equal(await page.getAttribute('#provider-key', 'placeholder'), 'remembered in this browser');
    stub.reset();
    await ask('Which test has the highest Chi-Square?');
    const sent = stub.requests.find((r) => r.path === '/v1/chat/completions');
    assert.equal(sent?.headers.authorization, 'Bearer sk-remembered');
    // Back to no provider for the next test.
    await openSettings();
    await page.selectOption('#provider-kind', 'none');
    await page.click('#provider-apply');
    await page.waitForFunction(() => /No provider/.test(document.querySelector('.provider-status')?.textContent ?? ''));
  } finally {
    await page.unroute(`${stub.url}/**`);
    await stub.close();
  }
  errors.assertNone();
  assertCspReportsInert();
});

test('with routing on, the page shows the routing decision and its confidences', async () => {
  const stub = await startStub({ reply: `${tableDocId}:90` });
  await page.route(`${stub.url}/**`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  try {
    await setNumber('#send-all-below', 0);
    await page.selectOption('#provider-kind', 'openai');
    await page.fill('#provider-url', stub.url);
    await page.fill('#provider-embedding', '');
    await page.fill('#provider-chat', 'stub-chat');
    await page.fill('#provider-small', 'stub-small');
    await page.click('#provider-apply');
    await page.waitForFunction(() => /Provider in use/.test(document.querySelector('.provider-status')?.textContent ?? ''));
    stub.reset();
    const turn = await ask(QUESTION);
    const path = await turn.$eval('.path', (p) => p.textContent);
    assert.match(path, /Routed to 1 document: poi__bug57031 \(90%\)/);
    assert.match(path, /Model calls: routing \(small\), [^·]*answer \(main\)/);
    assert.match(path, /routing [1-9][\d,]*/, 'routing tokens are counted');
    const models = stub.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body).model);
    assert.equal(models[0], 'stub-small');
    assert.equal(models.at(-1), 'stub-chat');
    await screenshot(page, 'demo-routed');
    await turn.screenshot({ path: join(screenshotDir, 'demo-routed-turn.png') });
  } finally {
    await page.selectOption('#provider-kind', 'none');
    await page.click('#provider-apply');
    await page.waitForFunction(() => /No provider/.test(document.querySelector('.provider-status')?.textContent ?? ''));
    await page.unroute(`${stub.url}/**`);
    await stub.close();
  }
  errors.assertNone();
  assertCspReportsInert();
});

test('a hostile document runs nothing and shows its text inert', async () => {
  await page.setInputFiles('#files', XSS_FILE);
  const upload = await page.waitForSelector('.upload:has-text("xss.html")[data-state=done], .upload:has-text("xss.html")[data-state=failed]');
  assert.equal(await upload.getAttribute('data-state'), 'done', await upload.textContent());
  const row = await page.waitForSelector('.doc:has-text("Hostile")');
  const title = await row.$eval('.title', (b) => b.textContent);
  assert.equal(title, `Hostile <img src=x onerror="window.__xss='title'"> page`);
  await row.$eval('.title', (b) => b.click());
  await page.waitForFunction(() => document.querySelector('#chunk-browser')?.textContent.includes('zanzibar-canary'));
  const browserEl = await page.$('#chunk-browser');
  const text = await browserEl.textContent();
  assert.ok(text.includes(`<img src=x onerror="window.__xss='text-img'">`), 'escaped markup shows as text');
  assert.ok(text.includes(`<script>window.__xss='text-script'</script>`));
  const found = await browserEl.evaluate((root) => ({
    active: root.querySelectorAll('script, img, iframe, svg, object, embed, style').length,
    handlers: [...root.querySelectorAll('*')].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
    badLinks: [...root.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')).filter((h) => !/^(https?:|#)/i.test(h)),
  }));
  assert.deepEqual(found, { active: 0, handlers: [], badLinks: [] });
  // Hover and click what was a link or a handler: still nothing runs.
  for (const a of await page.$$('#chunk-browser .md a')) await a.click({ force: true });
  await page.hover('#chunk-browser .md h1');
  await page.waitForTimeout(300);
  assert.equal(await flag(), undefined);
  assert.deepEqual(dialogs, []);
  await screenshot(page, 'demo-xss');
  await page.screenshot({ path: join(screenshotDir, 'demo-xss-view.png') });
  errors.assertNone();
  assertCspReportsInert();
});

test('a file docrag cannot read fails with its error code; the collection is unchanged', async () => {
  const before = await page.$$eval('.doc', (rows) => rows.length);
  await page.setInputFiles('#files', { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n') });
  const row = await page.waitForSelector('.upload:has-text("scan.pdf")[data-state=failed]');
  assert.match(await row.$eval('.error', (e) => e.textContent), /^unsupported-format .*PDF/i);
  assert.equal(await page.$$eval('.doc', (rows) => rows.length), before);
  errors.assertNone();
});
