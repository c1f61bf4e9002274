// Issue 18 acceptance, the round trip: a collection built in headless Chromium from
// real corpus files (DOCX, DOCM, HTML, Markdown, RTF, plain text) with the stub
// embedding provider (64 dimensions) is exported as docrag.chunk.v1 JSONL, loaded into
// a real PostgreSQL + pgvector (scripts/pg-server.mjs) by `docrag load --create`, and
// searched there by `docrag search`: for 20 questions, the browser's
// `collection.search(q, {k: 10, method: 'cosine'})` and the CLI's `--exact` top 10
// are the same chunk ids in the same order. Without `--exact` (the HNSW index) the
// overlap is reported and must average at least 9 of 10.
//
// The CLI runs through execFile with a callback (never spawnSync): the stub provider
// that embeds its question answers from this process.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serve, watchErrors, startStub, pkgDir, corpusDir, fixturesDir, root } from './harness.mjs';
import { hnswUnsupported, startPostgres } from '../../scripts/pg-server.mjs';

const DIM = 64;
const K = 10;
const TABLE = 'browser_kb';
const cliPath = join(root, 'target', 'release', 'docrag');
if (!existsSync(cliPath)) {
  throw new Error('target/release/docrag is missing: run `make cli` (cargo build --release --bin docrag) first');
}

/** Nine files, every format the converter reads (pandoc's manual is detected as Markdown). */
const FILES = [
  ['pandoc__tables.docx', 'docx'],
  ['poi__bug57031.docx', 'docx'],
  ['tika__testWORD_macros.docm', 'docx'],
  ['readability__wikipedia.html', 'html'],
  ['pandoc__html-reader.html', 'html'],
  ['es6tutorial__proxy.md', 'markdown'],
  ['tika__testRTFVarious.rtf', 'rtf'],
  ['pandoc__MANUAL.txt', 'markdown'],
  ['poi__Bug47742-text.txt', 'text'],
];

/** Generic phrasings built from words of those documents, not tied to any answer. */
const QUESTIONS = [
  'What is in the table?',
  'proxy handler traps',
  'command line options',
  'footnotes and endnotes',
  'history of the article',
  'reading HTML input',
  'Wilcoxon test results',
  'macros in a Word document',
  'How do I convert Markdown?',
  'bold and italic text',
  'template variables',
  'list of references',
  'Which revisions were made?',
  'citation styles',
  'page numbers',
  'images and figures',
  'headers and footers',
  'Unicode characters',
  'What is the default value?',
  'error handling',
];

let browser;
let server;
let stub;
let pg;
let dir;
let page;
let errors;

before(async () => {
  stub = await startStub({ dim: DIM });
  browser = await launch();
  server = await serve({ '/pkg/': pkgDir, '/corpus/': corpusDir, '/': fixturesDir });
  pg = await startPostgres({ root });
  dir = mkdtempSync(join(tmpdir(), 'docrag-pgvector-'));
  page = await browser.newPage();
  errors = watchErrors(page);
  await page.goto(`${server.url}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
});

after(async () => {
  await page?.close();
  await browser?.close();
  await server?.close();
  await pg?.stop();
  await stub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI without blocking the event loop; resolves { status, stdout, stderr }. */
function docrag(args) {
  return new Promise((resolve) => {
    execFile(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** `docrag search` of `question`: its JSON lines, parsed. */
async function sqlSearch(question, exact) {
  const args = ['search', pg.url, '--table', TABLE, '--question', question, '--k', String(K), '--json', '--embed-url', stub.url, '--embed-model', 'emb'];
  if (exact) args.push('--exact');
  const r = await docrag(args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// The round trip searches an HNSW index: where the pinned pgvector cannot build one
// (its CPU build), say so.
const unsupported = await hnswUnsupported({ root });

test('a collection built in Chromium, exported, loaded into pgvector: the same top 10 in SQL', { skip: unsupported ?? false }, async (t) => {
  // 1. The collection in the browser (IndexedDB), embedded by the stub, and its export.
  const built = await page.evaluate(
    async ({ files, provider }) => {
      const c = await docrag.Collection.open('pgvector', { provider });
      for (const name of files) await c.addFile(await corpusFile(name), { convert: { maxTokens: 256 } });
      window.col = c;
      const blob = await c.export();
      return { docs: c.documents(), stats: c.stats(), type: blob.type, text: await blob.text() };
    },
    { files: FILES.map(([f]) => f), provider: { kind: 'openai', baseUrl: stub.url, embeddingModel: 'emb', batchSize: 64, maxRetries: 0 } },
  );
  assert.deepEqual(built.docs.map((d) => [d.fileName, d.format]), FILES);
  assert.deepEqual(built.stats.embeddingModels, ['openai:emb']);
  assert.equal(built.type, 'application/x-ndjson');
  const lines = built.text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.equal(lines.length, built.stats.chunks);
  assert.ok(lines.length >= 200, `${lines.length} chunks`);
  for (const l of lines) {
    assert.equal(l.embeddingModel, 'openai:emb');
    assert.equal(l.embedding.length, DIM);
  }
  const file = join(dir, 'collection.jsonl');
  writeFileSync(file, built.text);

  // 2. Into PostgreSQL, docrag layout.
  const load = await docrag(['load', pg.url, file, '--create', '--table', TABLE]);
  assert.equal(load.status, 0, load.stderr);

  // 3. The same 20 questions in the browser and in SQL.
  const browserHits = await page.evaluate(
    async ({ questions, k }) => {
      const out = [];
      for (const q of questions) out.push(await window.col.search(q, { k, method: 'cosine' }));
      return out;
    },
    { questions: QUESTIONS, k: K },
  );
  // A WorkerCollection of the same store answers the same (its worker embeds the question).
  const fromWorker = await page.evaluate(
    async ({ questions, k, provider }) => {
      const wc = await docrag.WorkerCollection.open('pgvector', { provider });
      const out = [];
      for (const q of questions) out.push(await wc.search(q, { k }));
      await wc.close();
      return out;
    },
    { questions: QUESTIONS.slice(0, 3), k: K, provider: { kind: 'openai', baseUrl: stub.url, embeddingModel: 'emb', maxRetries: 0 } },
  );
  assert.deepEqual(fromWorker, browserHits.slice(0, 3));
  let overlapSum = 0;
  let hnswEqual = 0;
  for (let i = 0; i < QUESTIONS.length; i++) {
    const q = QUESTIONS[i];
    const mine = browserHits[i];
    assert.equal(mine.length, K, q);
    const exact = await sqlSearch(q, true);
    assert.deepEqual(exact.map((r) => r.chunkId), mine.map((h) => h.chunkId), `--exact top ${K} of ${JSON.stringify(q)}`);
    for (let j = 0; j < K; j++) {
      assert.equal(exact[j].documentId, mine[j].docId);
      assert.equal(exact[j].seq, mine[j].seq);
      assert.ok(Math.abs(exact[j].score - mine[j].score) < 1e-5, `${q} #${j}: SQL ${exact[j].score}, browser ${mine[j].score}`);
    }
    const hnsw = (await sqlSearch(q, false)).map((r) => r.chunkId);
    const ids = new Set(mine.map((h) => h.chunkId));
    overlapSum += hnsw.filter((id) => ids.has(id)).length;
    if (hnsw.join() === mine.map((h) => h.chunkId).join()) hnswEqual++;
  }
  const average = overlapSum / QUESTIONS.length;
  t.diagnostic(`pgvector round trip: ${lines.length} chunks; --exact equal for ${QUESTIONS.length}/${QUESTIONS.length} questions; HNSW overlap ${average.toFixed(2)}/${K} on average, ${hnswEqual}/${QUESTIONS.length} identical lists`);
  assert.ok(average >= 9, `HNSW overlap ${average} of ${K} on average`);
  errors.assertNone();
});
