// The demo page (www/, issue 7) in headless Chromium, served the way `make demo`
// assembles it (www/ + pkg/ + the vendored marked and DOMPurify builds): real corpus
// files through the file input, a table-cell question answered with a citation that
// opens the complete table, persistence across a reload, a local OpenAI-compatible
// stub as provider (same cached prefix for two questions), a hostile document
// that runs nothing; a dead embedding server (the provider set, embedding failed,
// a retry), bounded numeric settings, a 100,000-character question collapsed, a
// 390 px viewport without horizontal overflow, a 5 MB file converted in the worker
// while the page keeps drawing, and the page-thread fallback (?thread=page).
// Screenshots go to tests/artifacts/screenshots/demo-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, serve, demoMounts, CSP_HANDLER, watchErrors, screenshot, startStub, root, pkgDir, corpusDir, fixturesDir, screenshotDir } from './harness.mjs';
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
const cspReports = [];

/** Every CSP report came from DOMPurify's inert parse. */
function assertCspReportsInert() {
  const elsewhere = cspReports.filter((url) => !url.endsWith('/vendor/dompurify/purify.es.mjs'));
  assert.deepEqual(elsewhere, [], 'inline handlers reached a live document');
}

before(async () => {
  server = await serve(demoMounts());
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
  assert.match(table, /<td><strong>Wilcoxon<\/strong><\/td><td>0\.7660<\/td><td>1<\/td><td>0\.3815<\/td>/);
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
  try {
    // A budget the three files fit in: everything is sent, so both questions share
    // the context.
    await setNumber('#send-all-below', 20000);
    await setNumber('#token-budget', 200000);
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
    // Back to no provider and the default budget for the next test.
    await openSettings();
    await setNumber('#token-budget', 4000);
    await page.selectOption('#provider-kind', 'none');
    await page.click('#provider-apply');
    await page.waitForFunction(() => /No provider/.test(document.querySelector('.provider-status')?.textContent ?? ''));
  } finally {
    await stub.close();
  }
  errors.assertNone();
  assertCspReportsInert();
});

test('with routing on, the page shows the routing decision and its confidences', async () => {
  const stub = await startStub({ reply: `${tableDocId}:90` });
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
  assert.match(await row.$eval('.error', (e) => e.textContent), /^malformed-pdf /);
  assert.equal(await page.$$eval('.doc', (rows) => rows.length), before);
  errors.assertNone();
});

test('a PDF dropped on the page (pdf.js in the worker): a table-cell question answered with its page cited', async () => {
  const file = join(root, 'tests', 'fixtures', 'pdf', 'powertools__HC029-Table-Merged-Cells.pdf');
  await page.setInputFiles('#files', file);
  const row = await page.waitForSelector('.upload:has-text("HC029")[data-state=done], .upload:has-text("HC029")[data-state=failed]');
  assert.equal(await row.getAttribute('data-state'), 'done', await row.textContent());
  const turn = await ask('What is in the Maecenas porttitor congue massa column of the second table?');
  assert.match(await turn.$eval('.answer', (a) => a.textContent), /300/);
  const sources = await turn.$$eval('.sources li', (items) => items.map((li) => li.textContent));
  assert.ok(sources.some((s) => /HC029.*p\. 1/.test(s)), sources.join('\n'));
  await screenshot(page, 'demo-pdf');
  errors.assertNone();
});

/** The provider form filled and applied; resolves once the status no longer says "Applying…". */
async function applyProvider({ kind = 'openai', url = '', embedding = '', chat = '' }) {
  await openSettings();
  await page.selectOption('#provider-kind', kind);
  if (kind === 'openai' || kind === 'ollama') {
    await page.fill('#provider-url', url);
    await page.fill('#provider-key', '');
    await page.fill('#provider-embedding', embedding);
    await page.fill('#provider-chat', chat);
    await page.fill('#provider-small', '');
  }
  await page.click('#provider-apply');
  await page.waitForFunction(() => !document.querySelector('#provider-apply').disabled);
  return page.textContent('.provider-status');
}

test('a dead embedding server: the provider is set, embedding the stored documents fails once with its code and can be retried; questions say why they were not embedded', async () => {
  const docs = await page.$$eval('.doc', (rows) => rows.length);
  // The newcomer's case: nothing listens on port 1.
  const status = await applyProvider({ url: 'http://127.0.0.1:1', embedding: 'dead-embed' });
  assert.match(status, /^Provider in use: embeddings openai:dead-embed, no chat\./);
  assert.match(status, /Embedding the stored documents failed: network Failed to fetch/);
  assert.doesNotMatch(status, /not applied|network network/);
  assert.equal(await page.$eval('.provider-status .error code', (c) => c.textContent), 'network');
  assert.equal(await page.textContent('#provider-embed'), 'Retry embedding');
  assert.match(status, new RegExp(`questions use BM25 retrieval only for ${docs} of ${docs} documents`));
  await page.locator('#settings').screenshot({ path: join(screenshotDir, 'demo-embed-failed.png') });

  // A question meanwhile: no model call, and the turn says why the question was not embedded.
  await setNumber('#send-all-below', 0);
  const turn = await ask(QUESTION);
  assert.match(await turn.$eval('.calls', (p) => p.textContent), /^Model calls: none/);
  assert.equal(
    await turn.$eval('.notice', (p) => p.textContent),
    `The question was not embedded: ${docs} of ${docs} documents have no vectors of openai:dead-embed (embedding them failed or has not run; see Settings), so retrieval used BM25 only.`,
  );
  assert.match(await turn.$eval('.answer', (a) => a.textContent), /0\.7660/, 'BM25 still answers');

  // A server that refuses the first embeddings request (400 is not retried): the
  // first run fails, "Retry embedding" embeds every document.
  const stub = await startStub({ dim: 8 });
  try {
    stub.script([{ route: '/v1/embeddings', status: 400 }]);
    const failed = await applyProvider({ url: stub.url, embedding: 'retry-embed' });
    assert.match(failed, /Embedding the stored documents failed: http-status the provider replied with HTTP 400/);
    assert.equal(await page.$$eval('.doc .badge.vectors[title*="openai:retry-embed"]', (b) => b.length), 0);
    await page.click('#provider-embed');
    await page.waitForFunction(() => !document.querySelector('.provider-status .error') && /Provider in use/.test(document.querySelector('.provider-status').textContent));
    assert.equal(await page.textContent('.provider-status'), 'Provider in use: embeddings openai:retry-embed, no chat.');
    assert.equal(await page.$$eval('.doc .badge.vectors[title*="openai:retry-embed"]', (b) => b.length), docs);
    const embedded = await ask(QUESTION);
    assert.match(await embedded.$eval('.calls', (p) => p.textContent), /^Model calls: embedding \(embedding\)/);
    assert.equal(await embedded.$$eval('.notice', (n) => n.length), 0);
  } finally {
    await applyProvider({ kind: 'none' });
    await stub.close();
  }
  assert.match(await page.textContent('.provider-status'), /^No provider/);
  errors.assertNone();
});

test('"Local model (no network)": the companion loads in its worker, embeds the stored documents, and questions are embedded by it', async () => {
  const docs = await page.$$eval('.doc', (rows) => rows.length);
  await openSettings();
  await page.selectOption('#provider-kind', 'local');
  // No URL, key or model fields for the local model.
  assert.equal(await page.isVisible('#provider-url'), false);
  assert.equal(await page.isVisible('#provider-remember'), false);
  const status = await applyProvider({ kind: 'local' });
  assert.equal(status, 'Provider in use: embeddings function:local-docrag-tiny-test, no chat.');
  assert.equal(await page.$$eval('.doc .badge.vectors[title*="function:local-docrag-tiny-test"]', (b) => b.length), docs);
  await setNumber('#send-all-below', 0);
  const turn = await ask(QUESTION);
  assert.match(await turn.$eval('.calls', (p) => p.textContent), /^Model calls: embedding \(embedding\)/);
  assert.match(await turn.$eval('.answer', (a) => a.textContent), /0\.7660/);
  // Chosen last time, the local model is loaded again after a reload.
  await page.reload();
  await ready();
  await page.waitForFunction(() => /Provider in use/.test(document.querySelector('.provider-status')?.textContent ?? ''));
  assert.equal(await page.textContent('.provider-status'), 'Provider in use: embeddings function:local-docrag-tiny-test, no chat.');
  assert.equal(await page.$eval('#provider-kind', (s) => s.value), 'local');
  await applyProvider({ kind: 'none' });
  assert.match(await page.textContent('.provider-status'), /^No provider/);
  errors.assertNone();
});

test('numeric settings are bounded: min and max on every input, a message before asking, nothing asked or saved while one is wrong', async () => {
  await openSettings();
  const bounds = await page.$$eval('.processing input[type=number]', (inputs) => inputs.map((i) => [i.id, i.min, i.max]));
  assert.deepEqual(bounds, [
    ['max-tokens', '64', '16384'],
    ['threshold', '0', '100'],
    ['token-budget', '100', '200000'],
    ['send-all-below', '0', '1000000'],
    ['top-k', '1', '500'],
  ]);
  const turns = await page.$$eval('.turn', (t) => t.length);
  await setNumber('#top-k', 999999999);
  assert.equal(await page.getAttribute('#top-k', 'aria-invalid'), 'true');
  assert.equal(await page.textContent('#top-k-error'), 'Chunks to retrieve must be a whole number from 1 to 500, not 999,999,999.');
  await setNumber('#threshold', 101);
  assert.equal(await page.textContent('#threshold-error'), 'Routing confidence threshold must be a whole number from 0 to 100, not 101.');
  await setNumber('#max-tokens', 12.5);
  assert.equal(await page.textContent('#max-tokens-error'), 'Max chunk tokens must be a whole number from 64 to 16,384, not 12.5.');
  await setNumber('#send-all-below', '');
  assert.equal(await page.textContent('#send-all-below-error'), 'Send everything below is required: a whole number from 0 to 1,000,000.');

  await page.fill('#question', QUESTION);
  await page.click('#ask');
  const problem = await page.waitForSelector('#ask-problem:not([hidden])');
  assert.match(await problem.textContent(), /^Not asked: fix the settings first\. Max chunk tokens must be a whole number from 64 to 16,384, not 12\.5\. Routing confidence/);
  assert.equal(await page.$$eval('.turn', (t) => t.length), turns, 'no question was asked');
  assert.equal(await page.$eval('#question', (q) => q.value), QUESTION, 'the question stays in the box');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'max-tokens', 'the first wrong setting has the focus');
  // A file is not converted with a wrong chunk size either.
  await page.setInputFiles('#files', { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('A short note.') });
  const row = await page.waitForSelector('.upload:has-text("note.txt")[data-state=failed]');
  assert.match(await row.textContent(), /invalid-setting Max chunk tokens must be/);
  await screenshot(page, 'demo-invalid-settings');

  // Wrong values were not saved: a reload shows the last valid ones.
  await page.reload();
  await ready();
  await openSettings();
  assert.deepEqual(await page.$$eval('.processing input[type=number]', (inputs) => inputs.map((i) => [i.id, i.value, i.getAttribute('aria-invalid')])), [
    ['max-tokens', '512', 'false'],
    ['threshold', '70', 'false'],
    ['token-budget', '4000', 'false'],
    ['send-all-below', '0', 'false'],
    ['top-k', '', 'false'],
  ]);
  await setNumber('#top-k', 3);
  const turn = await ask(QUESTION);
  assert.equal(await page.$eval('#ask-problem', (p) => p.hidden), true);
  assert.equal(await turn.$$eval('.error', (e) => e.length), 0, await turn.textContent());
  assert.match(await turn.$eval('.answer', (a) => a.textContent), /0\.7660/);
  await setNumber('#top-k', '');
  errors.assertNone();
});

test('a 100,000-character question shows collapsed in the chat, with "Show all"', async () => {
  const sentence = 'What is the Chi-Square value of the Wilcoxon test in the table? ';
  const question = sentence.repeat(Math.ceil(100_000 / sentence.length)).slice(0, 100_000).trim();
  const heightBefore = await page.evaluate(() => document.documentElement.scrollHeight);
  const turn = await ask(question);
  const shown = await turn.$eval('.question', (q) => ({ length: q.textContent.length, height: q.getBoundingClientRect().height }));
  assert.ok(shown.length <= 401, `collapsed to ${shown.length} characters`);
  assert.ok(shown.height < 200, `the collapsed question is ${shown.height}px high`);
  const toggle = await turn.$('button.show-all');
  assert.equal(await toggle.textContent(), `Show all (${question.length.toLocaleString('en-US')} characters)`);
  const grown = (await page.evaluate(() => document.documentElement.scrollHeight)) - heightBefore;
  assert.ok(grown < 2000, `the page grew by ${grown}px`);

  await toggle.click();
  const open = await turn.$eval('.question', (q) => ({ text: q.textContent, height: q.clientHeight, scroll: q.scrollHeight }));
  assert.equal(open.text, question);
  assert.ok(open.height <= 330 && open.scroll > open.height, `expanded, it scrolls inside ${open.height}px`);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await toggle.click();
  assert.ok((await turn.$eval('.question', (q) => q.textContent.length)) <= 401);
  await turn.screenshot({ path: join(screenshotDir, 'demo-long-question.png') });
  errors.assertNone();
});

/** Page-relative boxes of the elements matching each selector (first match). */
async function boxes(...selectors) {
  return Promise.all(
    selectors.map((s) => page.$eval(s, (e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right };
    })),
  );
}

test('at 390x800 (a phone) the page is one column, the question box is on the first screen above the collection, nothing overflows', async () => {
  await page.setViewportSize({ width: 390, height: 800 });
  try {
    await openSettings();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 391).slice(0, 8).map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, wide.join('\n'));
    const [drop, question, docs, settings] = await boxes('#drop', '#question', '#documents', '#settings');
    assert.ok(question.bottom <= 800, `the question box ends at ${question.bottom} px, past the first screen`);
    assert.ok(question.top > drop.bottom, 'adding files comes first');
    assert.ok(docs.top > question.bottom && settings.top > question.bottom, 'the collection and the settings come after the question box');
    assert.ok((await page.$$('.doc')).length >= 3, 'with documents in the collection');
    // Every control's right edge is inside the viewport.
    const outside = await page.$$eval('button, select, input, textarea', (els) =>
      els.filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > 390).map((e) => `${e.tagName} ${e.id || e.className || e.textContent}`),
    );
    assert.deepEqual(outside, []);
    assert.ok((await page.$$('.doc button.remove')).length > 0);
    await screenshot(page, 'demo-mobile');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screenshotDir, 'demo-mobile-view.png') });
    // Titles break between words: no document title line ends inside a word.
    const broken = await page.$$eval('.doc .title', (els) => els.filter((e) => {
      const range = document.createRange();
      const text = e.firstChild;
      if (!text || text.nodeType !== 3) return false;
      const rects = [];
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (rects.length && r.top > rects.at(-1).top + 2 && /\w/.test(text.data[i - 1]) && /\w/.test(text.data[i])) {
          // A word wider than the line must break somewhere; any other must not.
          let a = i;
          let z = i;
          while (a > 0 && /\w/.test(text.data[a - 1])) a--;
          while (z < text.length && /\w/.test(text.data[z])) z++;
          const probe = document.createElement('span');
          probe.style.cssText = 'position:absolute;white-space:nowrap;visibility:hidden';
          probe.textContent = text.data.slice(a, z);
          e.append(probe);
          const wordWidth = probe.getBoundingClientRect().width;
          probe.remove();
          if (wordWidth <= e.clientWidth) return true;
        }
        rects.push(r);
      }
      return false;
    }).map((e) => e.textContent));
    assert.deepEqual(broken, [], 'titles broken mid-word');
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  errors.assertNone();
});

test('at 1400x900 the page is two columns, the Ask section on the first screen', async () => {
  await page.setViewportSize({ width: 1400, height: 900 });
  try {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 1400);
    const [side, main, ask] = await boxes('.side', '.main', '#ask-h');
    assert.ok(main.left >= side.right, 'the main column is right of the side column');
    assert.ok(ask.bottom <= 900, `the Ask heading ends at ${ask.bottom} px`);
    await page.screenshot({ path: join(screenshotDir, 'demo-desktop-view.png') });
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  errors.assertNone();
});

/** About `bytes` of plain text: numbered paragraphs of words, the same for the same `seed`. */
function bigText(bytes, seed = 7) {
  const words = ['alpha', 'river', 'stone', 'report', 'growth', 'table', 'north', 'value', 'market', 'signal', 'policy', 'cloud', 'garden', 'engine', 'matter'];
  const out = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    let p = `Paragraph ${i}.`;
    for (let w = 0; w < 80; w++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      p += ` ${words[seed % words.length]}${w % 12 === 11 ? '.' : ''}`;
    }
    out.push(p);
    size += p.length + 2;
  }
  return Buffer.from(out.join('\n\n'));
}

/**
 * Uploads `buffer` as `name` while counting animation frames. Returns, from the
 * upload row's first stage to "done", the frames drawn (`frames`), the longest gap
 * between two frames (`longestGap`, ms) and the time (`ms`); and the frames drawn
 * from the row's first "parsing" to its last "chunking" (`parseFrames`, over `parseMs`; the row
 * shows that stage only when the page's thread is free to draw it).
 */
async function uploadCountingFrames(name, buffer) {
  await page.evaluate(() => {
    const m = (window.__frames = { count: 0, last: performance.now(), gaps: [], stages: [] });
    const tick = (t) => {
      m.count++;
      m.gaps.push([t, t - m.last]);
      m.last = t;
      m.raf = requestAnimationFrame(tick);
    };
    m.raf = requestAnimationFrame(tick);
    m.observer = new MutationObserver(() => {
      for (const s of document.querySelectorAll('.upload .stage')) m.stages.push([performance.now(), m.count, s.closest('.upload').querySelector('.name').textContent, s.textContent]);
    });
    m.observer.observe(document.querySelector('#uploads'), { subtree: true, childList: true, characterData: true });
  });
  await page.setInputFiles('#files', { name, mimeType: 'text/plain', buffer });
  const row = await page.waitForSelector(`.upload:has-text("${name}")[data-state=done], .upload:has-text("${name}")[data-state=failed]`, { timeout: 180_000 });
  assert.equal(await row.getAttribute('data-state'), 'done', await row.textContent());
  return page.evaluate((file) => {
    const m = window.__frames;
    cancelAnimationFrame(m.raf);
    m.observer.disconnect();
    const mine = m.stages.filter((s) => s[2] === file);
    const first = mine[0];
    const done = mine.find((s) => s[3].startsWith('done'));
    const parse = mine.find((s) => s[3].startsWith('parsing'));
    // Conversion: from the row's first "parsing" to its last "chunking" (on the page's
    // thread the row is redrawn only before and after the synchronous conversion).
    const after = mine.findLast((s) => s[3].startsWith('chunking'));
    // Gaps that began after the row appeared (setInputFiles itself holds up a frame).
    const gaps = m.gaps.filter(([t, g]) => t - g >= first[0] && t <= done[0]).map(([, g]) => g);
    return {
      frames: done[1] - first[1],
      longestGap: Math.round(Math.max(0, ...gaps)),
      ms: Math.round(done[0] - first[0]),
      parseFrames: after[1] - parse[1],
      parseMs: Math.round(after[0] - parse[0]),
    };
  }, name);
}

test('a 5 MB text file converts in the worker: the page keeps drawing frames meanwhile', async (t) => {
  assert.equal(await page.getAttribute('body', 'data-thread'), 'worker');
  assert.match(await page.textContent('#status'), /documents convert in a Web Worker/);
  const buffer = bigText(5_000_000);
  const m = await uploadCountingFrames('big-5mb.txt', buffer);
  t.diagnostic(`worker: upload ${m.ms} ms, ${m.frames} frames, longest gap ${m.longestGap} ms; parsing ${m.parseMs} ms, ${m.parseFrames} frames`);
  assert.ok(m.parseMs > 100, `parsing took ${m.parseMs} ms: too short to tell`);
  assert.ok(m.parseFrames >= 5, `only ${m.parseFrames} frames in ${m.parseMs} ms of parsing`);
  assert.ok(m.longestGap < 500, `a frame took ${m.longestGap} ms`);
  const row = await page.waitForSelector('.doc:has-text("big-5mb.txt")');
  assert.match(await row.textContent(), /5\.0 MB/);
  // The chunk browser draws the first 100 of its chunks, the rest on request.
  await row.$eval('.title', (b) => b.click());
  await page.waitForFunction(() => /big-5mb/.test(document.querySelector('#chunk-browser .summary')?.textContent ?? ''));
  const chunks = Number((await page.textContent('#chunk-browser .summary')).match(/([\d,]+) chunks/)[1].replace(/,/g, ''));
  assert.ok(chunks > 1000, `${chunks} chunks`);
  assert.equal(await page.$$eval('#chunk-browser .chunk', (c) => c.length), 100);
  assert.equal(await page.textContent('.more-chunks'), `Show 100 more chunks (${(chunks - 100).toLocaleString('en-US')} not shown)`);
  await page.click('.more-chunks');
  assert.equal(await page.$$eval('#chunk-browser .chunk', (c) => c.length), 200);
  await page.click(`.doc:has-text("big-5mb.txt") button.remove`);
  await page.waitForFunction(() => !/big-5mb/.test(document.querySelector('#documents').textContent));
  errors.assertNone();
});

test('without the worker (?thread=page) the page runs Collection on its thread: same collection, same answers, and conversion blocks frames', async (t) => {
  const docs = await page.$$eval('.doc', (rows) => rows.map((r) => r.textContent));
  await page.goto(`${server.url}/?thread=page`);
  await ready();
  assert.equal(await page.getAttribute('body', 'data-thread'), 'page');
  assert.match(await page.textContent('#status'), /documents convert on the page/);
  assert.deepEqual(await page.$$eval('.doc', (rows) => rows.map((r) => r.textContent)), docs);
  const turn = await ask(QUESTION);
  assert.match(await turn.$eval('.answer', (a) => a.textContent), /0\.7660/);
  // What the worker avoids: on the page's thread, parsing holds up the frames.
  const m = await uploadCountingFrames('big-page.txt', bigText(5_000_000, 11));
  t.diagnostic(`page thread: upload ${m.ms} ms, ${m.frames} frames, longest gap ${m.longestGap} ms; parsing ${m.parseMs} ms, ${m.parseFrames} frames`);
  // Blocking, whatever the machine's speed: no frame is drawn while the file parses,
  // and one gap spans nearly all of it (the worker run above draws frames throughout).
  assert.ok(m.parseFrames <= 1, `${m.parseFrames} frames were drawn during parsing`);
  assert.ok(m.longestGap >= 0.8 * m.parseMs, `the longest frame gap was ${m.longestGap} ms of ${m.parseMs} ms parsing`);
  await page.click(`.doc:has-text("big-page.txt") button.remove`);
  await page.waitForFunction(() => !/big-page/.test(document.querySelector('#documents').textContent));
  errors.assertNone();
});
