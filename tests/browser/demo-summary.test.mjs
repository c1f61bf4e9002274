// The demo page's summaries (issue 8) in headless Chromium: an extractive summary of a
// corpus document whose every [chunk-N] opens chunk N in the chunk browser, kept
// across a reload; map-reduce against the local stub (progress label, map calls with
// the untrusted-content block, a verified reply, then one citing an unknown chunk and
// the warning listing it, then Stop); a collection summary whose [docId:N] links open
// the right document. Screenshots: tests/artifacts/screenshots/demo-summary-*.png
// (the page, and the summary panel alone: *-panel.png).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, serve, demoMounts, CSP_HANDLER, watchErrors, screenshot, startStub, root, pkgDir, corpusDir, screenshotDir } from './harness.mjs';
import * as docrag from '../../pkg/node.js';

const LONG = 'docx4j__Docx4j_GettingStarted.docx';
/** One chunk at the page's default 512 tokens: a reply citing [chunk-0] is valid for every call. */
const SMALL = 'pandoc__tables.docx';
/** The page's default chunk size for new files (www/ui/settings.js). */
const MAX_TOKENS = 512;

const bytes = (name) => new Uint8Array(readFileSync(join(corpusDir, name)));
const longId = docrag.convert(bytes(LONG), { maxTokens: MAX_TOKENS, fileName: LONG }).docId;
const smallId = docrag.convert(bytes(SMALL), { maxTokens: MAX_TOKENS, fileName: SMALL }).docId;

/** The same summaries computed by the Node package, to compare the page's links against. */
const reference = await docrag.Collection.open('demo-summary-ref', { storage: 'memory' });
await reference.addFile(bytes(LONG), { convert: { maxTokens: MAX_TOKENS } });
const longSummary = await reference.summarize(longId, { mode: 'extractive' });
await reference.addFile(bytes(SMALL), { convert: { maxTokens: MAX_TOKENS } });
const collectionSummary = await reference.summarize(null, { mode: 'extractive' });
const markersOf = (text) => [...text.matchAll(/\[(chunk-\d+|sha256-[0-9a-f]+:\d+)\]/g)].map((m) => m[1]);

let browser;
let server;
let page;
let errors;

before(async () => {
  server = await serve(demoMounts());
  browser = await launch();
  page = await browser.newPage();
  errors = watchErrors(page, { ignore: [CSP_HANDLER] });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function ready() {
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true', await page.textContent('#status'));
}

async function upload(name) {
  await page.setInputFiles('#files', join(corpusDir, name));
  const row = await page.waitForSelector(`.upload:has-text("${name}")[data-state=done], .upload:has-text("${name}")[data-state=failed]`);
  assert.equal(await row.getAttribute('data-state'), 'done', await row.textContent());
}

async function useProvider(stub) {
  if (!(await page.$eval('#settings', (d) => d.open))) await page.click('#settings > summary');
  await page.selectOption('#provider-kind', stub ? 'openai' : 'none');
  if (stub) {
    await page.fill('#provider-url', stub.url);
    await page.fill('#provider-embedding', '');
    await page.fill('#provider-chat', 'stub-chat');
    await page.fill('#provider-small', '');
  }
  await page.click('#provider-apply');
  const want = stub ? /Provider in use: no embeddings, chat/ : /No provider/;
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.provider-status')?.textContent ?? ''), want.source);
}

/** Records every text the progress line shows (labels pass faster than a poll). */
async function recordProgress() {
  await page.evaluate(() => {
    const line = document.querySelector('#summary-progress');
    window.__labels = [line.textContent];
    window.__labelObserver?.disconnect();
    // Callbacks are batched: read each added node, not the line's final text.
    window.__labelObserver = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) window.__labels.push(n.textContent);
    });
    window.__labelObserver.observe(line, { childList: true, characterData: true, subtree: true });
  });
}

/** Clicks a Summarize button and waits for a new result (or a failure on the progress line). */
async function summarize(selector) {
  await page.evaluate(() => {
    const r = document.querySelector('#summary-output .summary-result');
    if (r) r.dataset.old = 'true';
  });
  await page.click(selector);
  await page.waitForFunction(() => document.querySelector('#summary-output .summary-result:not([data-old])') || document.querySelector('#summary-progress[data-state=failed]'));
  assert.notEqual(await page.getAttribute('#summary-progress', 'data-state'), 'failed', await page.textContent('#summary-progress'));
}

/** The page's citation links in the shown summary, in text order. */
const links = () => page.$$eval('#summary-output .summary-text a.cite', (as) => as.map((a) => ({ cite: a.dataset.cite, docId: a.dataset.docId, seq: Number(a.dataset.seq), text: a.textContent })));

/** Clicks the i-th citation link; returns the chunk browser's document and highlighted chunk. */
async function follow(i) {
  const link = page.locator('#summary-output .summary-text a.cite').nth(i);
  const want = { docId: await link.getAttribute('data-doc-id'), seq: await link.getAttribute('data-seq') };
  await link.click();
  // The chunk browser redraws when the link opens another document: wait until it
  // shows the cited chunk (a stale one of the previous document may be there first).
  await page
    .waitForFunction(
      (w) => document.querySelector('#chunk-browser select')?.value === w.docId && document.querySelector('.chunk.cited')?.dataset.seq === w.seq,
      want,
      { timeout: 10_000 },
    )
    .catch(() => {});
  return page.evaluate(() => ({ docId: document.querySelector('#chunk-browser select').value, seq: Number(document.querySelector('.chunk.cited').dataset.seq), focused: document.activeElement?.classList.contains('cited') ?? false }));
}

/** The trace table as { row: value }. */
async function trace() {
  await page.$eval('#summary-output details.trace', (d) => (d.open = true));
  return page.$$eval('#summary-output .trace-table tr', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.key, r.querySelector('td').textContent])));
}

test('no provider: an extractive summary of a document, every [chunk-N] opens chunk N, the trace, kept across a reload', async () => {
  await page.goto(`${server.url}/`);
  await ready();
  assert.match(await page.textContent('#summary-output'), /No summary yet/);
  // Model modes are shown but disabled, and the hint says why.
  const modes = await page.$$eval('#summary-mode option', (os) => os.map((o) => [o.value, o.disabled]));
  assert.deepEqual(modes, [['extractive', false], ['map-reduce', true], ['hierarchical', true], ['topics', true], ['iterative', true]]);
  assert.match(await page.textContent('#summary'), /No chat model/);

  await upload(LONG);
  await summarize(`.doc[data-doc-id="${longId}"] button.summarize`);
  const result = await page.$('#summary-output .summary-result');
  assert.equal(await result.getAttribute('data-scope'), longId);
  assert.equal(await result.getAttribute('data-verified'), 'true');
  assert.match(await result.$eval('h3', (h) => h.textContent), /Summary of Docx4j - Getting Started/);
  assert.match(await result.$eval('.by', (b) => b.textContent), /^Extractive summary/);
  assert.equal(await page.$$eval('.summary-warning', (w) => w.length), 0);

  // Every marker of the summary is a link, in order, to the chunk it names.
  const found = await links();
  const expected = markersOf(longSummary.text);
  assert.ok(expected.length >= 20, `the reference summary cites: ${expected.length}`);
  assert.deepEqual(found.map((l) => l.cite), expected);
  for (const l of found) {
    assert.equal(l.docId, longId);
    assert.equal(l.text, `[${l.cite}]`);
    assert.equal(l.cite, `chunk-${l.seq}`);
  }
  assert.equal(await page.$$eval('#summary-output .cite-invalid', (x) => x.length), 0);
  // Follow each distinct chunk once (the first link naming it).
  const firstOf = new Map();
  found.forEach((l, i) => firstOf.has(l.seq) || firstOf.set(l.seq, i));
  for (const [seq, i] of firstOf) {
    assert.deepEqual(await follow(i), { docId: longId, seq, focused: true }, `link ${i} [chunk-${seq}]`);
  }
  // Keyboard: a link takes the focus and Enter opens its chunk.
  const [seq0, index0] = [...firstOf][0];
  await page.locator('#summary-output .summary-text a.cite').nth(index0).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((seq) => document.querySelector('.chunk.cited')?.dataset.seq === String(seq), seq0);

  const t = await trace();
  assert.equal(t['Model calls'], '0');
  assert.equal(t['Tokens sent'], '0');
  // Every top-level heading covered, as the same summary in Node counts them.
  const { headingsCovered, headingsTotal } = longSummary.trace;
  assert.equal(headingsCovered, headingsTotal);
  assert.ok(headingsTotal >= 30, `${headingsTotal} top-level headings`);
  assert.equal(t.Coverage, `100% (${headingsCovered} of ${headingsTotal} top-level headings)`);
  assert.match(t['Citation rate'], /^100% \(/);
  assert.equal(t['Chunks processed'], `${longSummary.trace.chunksProcessed} of ${longSummary.trace.chunksTotal}`);
  assert.match(t['Wall time'], /^\d[\d,]* ms$/);
  assert.equal(t.Documents, `Docx4j - Getting Started (${longId})`);
  await screenshot(page, 'demo-summary-extractive');
  await page.locator('#summary').screenshot({ path: join(screenshotDir, 'demo-summary-extractive-panel.png') });

  await page.reload();
  await ready();
  assert.equal(await page.getAttribute('#summary-output .summary-result', 'data-scope'), longId, 'the last summary is shown again');
  assert.deepEqual((await links()).map((l) => l.cite), expected);
  assert.deepEqual(await follow(0), { docId: longId, seq: found[0].seq, focused: true });
  errors.assertNone();
});

test('with the stub as chat model: map-reduce shows its progress, sends the chunks as untrusted data, flags unknown citations, stops', async () => {
  // Model output is hostile too: the markup must arrive inert.
  const good = await startStub({ reply: `- The tables document has three tables. [chunk-0] <img src=x onerror="window.__xss='summary'">` });
  const bad = await startStub({ reply: '- The tables document has three tables. [chunk-999]' });
  try {
    await upload(SMALL);
    await useProvider(good);
    // With a chat model the model modes are enabled, and map-reduce is the default.
    assert.deepEqual(await page.$$eval('#summary-mode option:disabled', (os) => os.length), 0);
    assert.equal(await page.$eval('#summary-mode', (s) => s.value), 'map-reduce');
    assert.match(await page.textContent('#summary'), /Model modes send the chunks to the chat model/);

    good.reset();
    await recordProgress();
    await summarize(`.doc[data-doc-id="${smallId}"] button.summarize`);
    const labels = await page.evaluate(() => window.__labels);
    assert.ok(labels.some((l) => /: map 1\/1$/.test(l)), labels.join(' | '));
    assert.ok(labels.some((l) => /: reduce 1\/1 \(level 1\)$/.test(l)), labels.join(' | '));
    const chats = good.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.equal(chats.length, 2, 'one map call (one chunk) and one reduce call');
    for (const r of chats) {
      assert.equal(r.body.model, 'stub-chat');
      const all = r.body.messages.map((m) => m.content).join('\n');
      assert.ok(all.includes('<<<BEGIN DOCUMENT DATA>>>') && all.includes('<<<END DOCUMENT DATA>>>'), all.slice(0, 300));
    }
    const mapped = chats[0].body.messages.map((m) => m.content).join('\n');
    assert.ok(mapped.includes('Table'), 'the map call carries the chunk text');
    let result = await page.$('#summary-output .summary-result');
    assert.equal(await result.getAttribute('data-verified'), 'true');
    assert.equal(await result.getAttribute('data-mode'), 'map-reduce');
    assert.match(await result.$eval('.by', (b) => b.textContent), /Map-reduce summary by the chat model · 1 chunk cited/);
    assert.deepEqual(await links(), [{ cite: 'chunk-0', docId: smallId, seq: 0, text: '[chunk-0]' }]);
    assert.deepEqual(await follow(0), { docId: smallId, seq: 0, focused: true });
    let t = await trace();
    assert.equal(t['Model calls'], '2');
    assert.equal(t.Retries, '0');
    assert.equal(t['Reduce levels'], '1');
    assert.match(t['Tokens sent'], /^[1-9][\d,]*$/);
    assert.match(t['Citation rate'], /^100% /);
    assert.equal(await page.$$eval('#summary img, #summary script', (x) => x.length), 0);
    assert.equal(await page.evaluate(() => window.__xss), undefined);

    // Topics: the focus field appears with the mode; the phrase reaches every call.
    assert.equal(await page.$eval('#summary-focus', (i) => i.closest('label').hidden), true);
    await page.selectOption('#summary-mode', 'topics');
    assert.equal(await page.$eval('#summary-focus', (i) => i.closest('label').hidden), false);
    await page.fill('#summary-focus', 'sports players');
    good.reset();
    await recordProgress();
    await summarize(`.doc[data-doc-id="${smallId}"] button.summarize`);
    assert.equal(await page.getAttribute('#summary-output .summary-result', 'data-mode'), 'topics');
    const topicLabels = await page.evaluate(() => window.__labels);
    assert.ok(topicLabels.some((l) => /: topics 1\/1$/.test(l)) && topicLabels.some((l) => /: synthesize 1\/1$/.test(l)), topicLabels.join(' | '));
    const topicCalls = good.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.equal(topicCalls.length, 2, 'one topic call, one synthesis call');
    for (const r of topicCalls) assert.ok(r.body.messages.some((m) => m.content.includes('sports players')));
    t = await trace();
    assert.ok(t.Topics, 'the trace lists the topics');
    assert.equal(await page.$$eval('#summary img', (x) => x.length), 0);
    await page.selectOption('#summary-mode', 'map-reduce');

    // A model that cites a chunk that is not in its input: one retry per call, then the warning.
    await useProvider(bad);
    await summarize(`.doc[data-doc-id="${smallId}"] button.summarize`);
    result = await page.$('#summary-output .summary-result');
    assert.equal(await result.getAttribute('data-verified'), 'false');
    const warning = await result.$eval('.summary-warning', (w) => w.textContent);
    assert.match(warning, /citations could not be verified/);
    assert.match(warning, /Not chunks of the input: \[chunk-999\]\./);
    assert.deepEqual(await result.$$eval('.summary-text .cite-invalid', (x) => x.map((s) => s.textContent)), ['[chunk-999]']);
    assert.deepEqual(await links(), []);
    t = await trace();
    assert.equal(Number(t['Model calls']), 2 * Number(t.Retries), 'every call retried exactly once');
    assert.equal(Number(t['Model calls']), bad.requests.filter((r) => r.path === '/v1/chat/completions').length);
    await screenshot(page, 'demo-summary-unverified');
    await page.locator('#summary').screenshot({ path: join(screenshotDir, 'demo-summary-unverified-panel.png') });

    // Stop: a slow provider, the Stop button, the run ends as aborted; the summary shown stays.
    bad.script([{ delayMs: 20_000 }]);
    await page.click(`.doc[data-doc-id="${smallId}"] button.summarize`);
    await page.waitForSelector('#summary-stop:not([hidden])');
    assert.equal(await page.$eval(`.doc[data-doc-id="${smallId}"] button.summarize`, (b) => b.disabled), true, 'Summarize is disabled while a summary runs');
    assert.equal(await page.$eval('#summarize-collection', (b) => b.disabled), true);
    await page.click('#summary-stop');
    await page.waitForSelector('#summary-progress[data-state=stopped]');
    assert.match(await page.textContent('#summary-progress'), /^Stopped summarizing .+: aborted /);
    assert.equal(await page.$eval('#summary-stop', (b) => b.hidden), true);
    assert.equal(await page.$eval(`.doc[data-doc-id="${smallId}"] button.summarize`, (b) => b.disabled), false);
    assert.equal(await page.getAttribute('#summary-output .summary-result', 'data-verified'), 'false');
  } finally {
    await useProvider(null);
    await good.close();
    await bad.close();
  }
  // Back to no provider: model modes disabled again, extractive selected.
  assert.equal(await page.$eval('#summary-mode', (s) => s.value), 'extractive');
  errors.assertNone();
});

test('the collection summary of two documents links [docId:N] to the right document', async () => {
  await summarize('#summarize-collection');
  const result = await page.$('#summary-output .summary-result');
  assert.equal(await result.getAttribute('data-scope'), '*');
  assert.match(await result.$eval('h3', (h) => h.textContent), /Summary of the collection \(2 documents\)/);
  const found = await links();
  assert.deepEqual(found.map((l) => l.cite), markersOf(collectionSummary.text));
  for (const l of found) assert.equal(l.cite, `${l.docId}:${l.seq}`);
  assert.deepEqual([...new Set(found.map((l) => l.docId))].sort(), [longId, smallId].sort());
  // Alternate between the documents: each link selects its document and its chunk.
  const firstSmall = found.findIndex((l) => l.docId === smallId);
  const firstLong = found.findIndex((l) => l.docId === longId);
  const lastLong = found.findLastIndex((l) => l.docId === longId);
  for (const i of [firstSmall, firstLong, firstSmall, lastLong]) {
    assert.deepEqual(await follow(i), { docId: found[i].docId, seq: found[i].seq, focused: true }, `link ${found[i].cite}`);
  }
  const t = await trace();
  const titles = Object.fromEntries(await page.$$eval('.doc', (rows) => rows.map((r) => [r.dataset.docId, r.querySelector('.title').textContent])));
  assert.equal(t.Documents, collectionSummary.trace.docIds.map((id) => `${titles[id]} (${id})`).join('; '));
  assert.equal(collectionSummary.trace.docIds.length, 2);
  assert.equal(t['Model calls'], '0');
  assert.equal(t.Coverage, `${Number((collectionSummary.trace.coverage * 100).toFixed(1))}% (${collectionSummary.trace.headingsCovered} of ${collectionSummary.trace.headingsTotal} top-level headings)`);
  await screenshot(page, 'demo-summary-collection');
  await page.locator('#summary').screenshot({ path: join(screenshotDir, 'demo-summary-collection-panel.png') });

  // Removing a document drops its stored summary; the collection summary's links to it become text.
  await page.click(`.doc[data-doc-id="${smallId}"] button.remove`);
  await page.waitForFunction((id) => !document.querySelector(`.doc[data-doc-id="${id}"]`), smallId);
  assert.equal(await page.$$eval(`#summary-output a.cite[data-doc-id="${smallId}"]`, (x) => x.length), 0);
  assert.ok((await page.$$eval('#summary-output .cite-gone', (x) => x.length)) > 0);
  const stored = await page.evaluate(async () => {
    const { Collection } = await import('./pkg/web.js');
    const c = await Collection.open('demo');
    const s = c.getSetting('demo.summaries');
    c.close();
    return Object.keys(s.byScope).sort();
  });
  assert.deepEqual(stored, ['*', longId].sort());
  errors.assertNone();
});
