// Issue 18's load acceptance against a real PostgreSQL with pgvector
// (scripts/pg-server.mjs) and the stub embedding provider: the whole shared corpus is
// exported with embeddings, loaded in each layout, reloaded (no row changes), loaded
// again with one document changed (only its rows change), and a load is cut off in
// the middle of a document, by SIGKILL of the CLI and by the server ending its
// connection (that document stays as it was; nothing is half-loaded).
//
// Row versions are compared through `xmin`: PostgreSQL gives every row written by a
// transaction that transaction's id, so an untouched row keeps its xmin.
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';

import { hnswUnsupported, startPostgres } from '../../scripts/pg-server.mjs';
import { cliPath, corpus, manifestRows, root } from './helpers.mjs';
import { startStub } from './stub-server.mjs';

const DIM = 16;

/** Runs the CLI without blocking the event loop (the stub answers in this process). */
function docrag(args) {
  return new Promise((resolve) => {
    execFile(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 28 }, (err, stdout, stderr) =>
      resolve({ status: err ? (err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Per layout: the chunks table and SQL giving (document id, chunk id, xmin) per row. */
const LAYOUTS = {
  docrag: { table: 'kb', rows: `SELECT document_id AS doc, chunk_id AS id, xmin::text AS xmin FROM "kb"` },
  langchain: {
    table: 'kb',
    rows: `SELECT e.cmetadata->>'ssDocId' AS doc, e.id, e.xmin::text AS xmin FROM langchain_pg_embedding e
           JOIN langchain_pg_collection c ON c.uuid = e.collection_id WHERE c.name = 'kb'`,
  },
  llamaindex: { table: 'kb', rows: `SELECT metadata_->>'ref_doc_id' AS doc, node_id AS id, xmin::text AS xmin FROM "data_kb"` },
};

// The load builds an HNSW index: where the pinned pgvector cannot (its CPU build), say so.
const unsupported = await hnswUnsupported({ root });

describe('docrag load into PostgreSQL + pgvector', { skip: unsupported ?? false }, () => {
  let server;
  let stub;
  let client;
  let dir;
  let exportFile;
  /** documentId -> its export lines, in file order. */
  const docLines = new Map();

  before(async () => {
    server = await startPostgres({ root });
    stub = await startStub({ dim: DIM });
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    dir = mkdtempSync(join(tmpdir(), 'docrag-pgload-'));
    exportFile = join(dir, 'corpus.jsonl');
    const files = manifestRows().map((r) => corpus(r.file));
    const r = await docrag(['export', ...files, '--jsonl', exportFile, '--embed-url', stub.url, '--embed-model', 'stub']);
    assert.equal(r.status, 0, r.stderr);
    for (const line of readFileSync(exportFile, 'utf8').split('\n').filter(Boolean)) {
      const id = JSON.parse(line).documentId;
      if (!docLines.has(id)) docLines.set(id, []);
      docLines.get(id).push(line);
    }
  });

  after(async () => {
    await client?.end();
    await stub?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Rows of `layout` as Map(chunk id -> {doc, xmin}). */
  async function rows(layout) {
    const res = await client.query(LAYOUTS[layout].rows);
    return new Map(res.rows.map((r) => [r.id, { doc: r.doc, xmin: r.xmin }]));
  }

  /** Chunk counts per document in the table. */
  function perDoc(map) {
    const n = new Map();
    for (const { doc } of map.values()) n.set(doc, (n.get(doc) ?? 0) + 1);
    return n;
  }

  test('the corpus export has every document of the manifest that converts, with vectors', () => {
    assert.ok(docLines.size >= 60, `${docLines.size} documents`);
    const first = JSON.parse(docLines.values().next().value[0]);
    assert.equal(first.embedding.length, DIM);
    assert.equal(first.embeddingModel, 'openai:stub');
  });

  test('a second export sends no chunk to the provider again', async () => {
    stub.reset();
    const again = join(dir, 'again.jsonl');
    writeFileSync(again, readFileSync(exportFile));
    const files = manifestRows().map((r) => corpus(r.file));
    const r = await docrag(['export', ...files, '--jsonl', again, '--embed-url', stub.url, '--embed-model', 'stub']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(stub.requests.length, 0);
    assert.match(r.stderr, /\(0 embedded with openai:stub, \d+ from the earlier export\)/);
    assert.equal(readFileSync(again, 'utf8'), readFileSync(exportFile, 'utf8'));
    // A chunk whose text the earlier export does not have is the only one sent.
    const [firstLine, ...rest] = readFileSync(exportFile, 'utf8').split('\n');
    writeFileSync(again, [firstLine.replace('"text":"', '"text":"(old) '), ...rest].join('\n'));
    const more = await docrag(['export', ...files, '--jsonl', again, '--embed-url', stub.url, '--embed-model', 'stub']);
    assert.equal(more.status, 0, more.stderr);
    const sent = stub.requests.flatMap((q) => q.body.input);
    assert.deepEqual(sent, [JSON.parse(firstLine).text]);
    assert.equal(readFileSync(again, 'utf8'), readFileSync(exportFile, 'utf8'));
  });

  for (const layout of Object.keys(LAYOUTS)) {
    test(`${layout}: load, reload unchanged, change one document`, async () => {
      const load = (file, extra = []) =>
        docrag(['load', server.url, file, '--table', 'kb', '--layout', layout, ...extra]);
      let r = await load(exportFile, ['--create']);
      assert.equal(r.status, 0, r.stderr);
      const first = await rows(layout);
      const total = [...docLines.values()].reduce((a, l) => a + l.length, 0);
      assert.equal(first.size, total);
      assert.deepEqual(
        [...perDoc(first)].sort(),
        [...docLines].map(([d, l]) => [d, l.length]).sort(),
      );
      // The indexes a reload deletes by and a search orders by exist.
      const idx = await client.query(`SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%hnsw%vector_cosine_ops%'`);
      assert.ok(idx.rows.length >= 1, 'an HNSW cosine index');

      r = await load(exportFile);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`loaded 0 documents \\(0 chunks\\).*; ${docLines.size} unchanged`));
      assert.deepEqual(await rows(layout), first, 'a reload of the same export rewrites no row');

      // One document changes (its first chunk's text): only its rows are rewritten.
      if (layout === 'langchain') {
        // A second collection of the same chunks beside the first.
        r = await docrag(['load', server.url, exportFile, '--table', 'kb2', '--layout', layout]);
        assert.equal(r.status, 0, r.stderr);
        const n = await client.query(`SELECT c.name, count(*)::int AS n FROM langchain_pg_embedding e JOIN langchain_pg_collection c ON c.uuid = e.collection_id GROUP BY c.name ORDER BY c.name`);
        assert.deepEqual(n.rows, [{ name: 'kb', n: total }, { name: 'kb2', n: total }]);
      }
      if (layout === 'llamaindex') {
        // The node PGVectorStore rebuilds: chunk id, document as SOURCE relationship.
        const m = (await client.query(`SELECT node_id, metadata_ FROM "data_kb" LIMIT 1`)).rows[0];
        const node = JSON.parse(m.metadata_._node_content);
        assert.equal(m.metadata_._node_type, 'TextNode');
        assert.equal(node.id_, m.node_id);
        assert.equal(node.relationships['1'].node_id, m.metadata_.ref_doc_id);
        assert.ok(node.excluded_llm_metadata_keys.includes('ssSeq'));
      }
      const [changed, lines] = [...docLines][5];
      const edited = [...docLines.values()].flatMap((l) =>
        l === lines ? l.map((x, i) => (i === 0 ? x.replace('"text":"', '"text":"(revised) ') : x)) : l,
      );
      const editedFile = join(dir, `edited-${layout}.jsonl`);
      writeFileSync(editedFile, edited.join('\n') + '\n');
      r = await load(editedFile);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`loaded 1 documents \\(${lines.length} chunks\\)`));
      const second = await rows(layout);
      assert.equal(second.size, first.size);
      for (const [id, row] of second) {
        if (row.doc === changed) assert.notEqual(row.xmin, first.get(id).xmin, `${id} rewritten`);
        else assert.equal(row.xmin, first.get(id).xmin, `${id} untouched`);
      }
    });
  }

  /**
   * Holds a row lock on `doc`'s rows in the docrag layout so that a load that must
   * replace it blocks inside that document's transaction; returns the locking client.
   */
  async function lockDocument(doc) {
    const locker = new pg.Client({ connectionString: server.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "kb_documents" WHERE document_id = $1 FOR UPDATE`, [doc]);
    return locker;
  }

  /** Waits until a backend other than ours waits on a lock; returns its pid. */
  async function blockedLoader() {
    for (let i = 0; i < 500; i++) {
      const res = await client.query(
        `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (res.rows.length) return res.rows[0].pid;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the load never blocked on the locked document');
  }

  /** A version of the export where every document has changed. */
  function allChanged(tag) {
    const file = join(dir, `changed-${tag}.jsonl`);
    const out = [...docLines.values()].flatMap((l) => l.map((x) => x.replace('"text":"', `"text":"(${tag}) `)));
    writeFileSync(file, out.join('\n') + '\n');
    return file;
  }

  /** Every document of the table is whole: as many rows as its export lines. */
  async function assertWhole() {
    const counts = perDoc(await rows('docrag'));
    for (const [doc, n] of counts) assert.equal(n, docLines.get(doc).length, `${doc} is whole`);
    const docs = await client.query(`SELECT document_id, chunk_count FROM "kb_documents"`);
    for (const d of docs.rows) assert.equal(counts.get(d.document_id), d.chunk_count, `${d.document_id} row count`);
  }

  test('a load killed inside a document leaves it as it was (SIGKILL of the CLI)', async () => {
    const before = await rows('docrag');
    const [victim] = [...docLines][20];
    const locker = await lockDocument(victim);
    const child = spawn(cliPath, ['load', server.url, allChanged('killed'), '--table', 'kb'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    try {
      await blockedLoader();
      child.kill('SIGKILL');
      await exited;
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    // The server notices the dropped connection and rolls its transaction back.
    await new Promise((r) => setTimeout(r, 200));
    const after = await rows('docrag');
    await assertWhole();
    const victimRows = [...after].filter(([, r]) => r.doc === victim);
    assert.equal(victimRows.length, docLines.get(victim).length);
    for (const [id, r] of victimRows) assert.equal(r.xmin, before.get(id).xmin, `${id} kept its old version`);
    // Documents before it in the file were committed: some rows changed.
    assert.ok([...after].some(([id, r]) => r.xmin !== before.get(id)?.xmin), 'earlier documents were loaded');
    const text = await client.query(`SELECT count(*)::int AS n FROM "kb" WHERE text LIKE '(killed)%'`);
    assert.ok(text.rows[0].n > 0 && text.rows[0].n < after.size);

    // Running the same load again finishes it.
    const r = await docrag(['load', server.url, join(dir, 'changed-killed.jsonl'), '--table', 'kb']);
    assert.equal(r.status, 0, r.stderr);
    const done = await client.query(`SELECT count(*)::int AS n FROM "kb" WHERE text LIKE '(killed)%'`);
    assert.equal(done.rows[0].n, after.size);
  });

  test('a connection the server ends mid-document: a clear error, nothing half-loaded', async () => {
    const [victim] = [...docLines][30];
    const locker = await lockDocument(victim);
    const run = docrag(['load', server.url, allChanged('terminated'), '--table', 'kb']);
    try {
      const pid = await blockedLoader();
      await client.query('SELECT pg_terminate_backend($1)', [pid]);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const r = await run;
    assert.equal(r.status, 69, r.stderr);
    assert.match(r.stderr, new RegExp(`docrag: error \\[database\\]: document ${victim}: .*run the load again`));
    await assertWhole();
    const victimText = await client.query(`SELECT count(*)::int AS n FROM "kb" WHERE document_id = $1 AND text LIKE '(terminated)%'`, [victim]);
    assert.equal(victimText.rows[0].n, 0, 'the cut document kept its earlier rows');
  });

  test('clear errors: a dimension mismatch, a missing table, a bad export', async () => {
    const other = join(dir, 'dim8.jsonl');
    const r0 = await docrag(['export', corpus('pandoc__comments.docx'), '--jsonl', other, '--embed-url', stub.url, '--embed-model', 'stub', '--dimensions', '8']);
    assert.equal(r0.status, 0, r0.stderr);
    let r = await docrag(['load', server.url, other, '--table', 'kb']);
    assert.equal(r.status, 69);
    assert.match(r.stderr, /dimension mismatch: kb\.embedding is vector\(16\) and the export's vectors have 8 dimensions/);
    r = await docrag(['load', server.url, other, '--table', 'absent']);
    assert.equal(r.status, 69);
    assert.match(r.stderr, /table absent does not exist: add --create/);
    const bare = join(dir, 'bare.jsonl');
    assert.equal((await docrag(['export', corpus('pandoc__comments.docx'), '--jsonl', bare])).status, 0);
    r = await docrag(['load', server.url, bare, '--table', 'kb']);
    assert.equal(r.status, 66);
    assert.match(r.stderr, /has no embedding; export with --embed-url and --embed-model/);
    r = await docrag(['load', server.url, bare, '--table', 'kb;drop']);
    assert.equal(r.status, 64);
  });

  test('a database without pgvector: load says how to enable it', async () => {
    await client.query('CREATE DATABASE plain');
    const url = server.url.replace(/\/postgres$/, '/plain');
    const r = await docrag(['load', url, exportFile, '--table', 'kb']);
    assert.equal(r.status, 69, r.stderr);
    assert.match(r.stderr, /pgvector is not enabled in this database: run CREATE EXTENSION vector \(or load with --create\)/);
  });

  test('hostile input: folder loops, nothing to export, unstorable lines, foreign rows', async () => {
    // A folder that links to itself is walked once.
    const loop = join(dir, 'loop');
    mkdirSync(loop);
    copyFileSync(corpus('pandoc__comments.docx'), join(loop, 'a.docx'));
    symlinkSync('.', join(loop, 's1'));
    symlinkSync('.', join(loop, 's2'));
    const out = join(dir, 'loop.jsonl');
    let r = await docrag(['export', loop, '--jsonl', out]);
    assert.equal(r.status, 0, r.stderr);
    const loopLines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(loopLines.length, docLines.get(loopLines[0].documentId).length, 'one copy of the file');
    assert.match(r.stderr, /exported \d+ chunks of 1 documents/);
    // Nothing converted: an error, and the earlier file stays.
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    r = await docrag(['export', empty, '--jsonl', out]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no document could be exported .* was left as it was/);
    assert.ok(readFileSync(out, 'utf8').length > 0);
    // A line PostgreSQL cannot store is refused before anything is written.
    const [first] = docLines.values();
    const nul = join(dir, 'nul.jsonl');
    writeFileSync(nul, first.map((l, i) => (i === 0 ? l.replace('"text":"', '"text":"\\u0000') : l)).join('\n') + '\n');
    r = await docrag(['load', server.url, nul, '--table', 'fresh', '--create']);
    assert.equal(r.status, 66, r.stderr);
    assert.match(r.stderr, /line 1: chunk .*: a NUL character \(U\+0000\)/);
    assert.equal((await client.query(`SELECT to_regclass('fresh') AS t`)).rows[0].t, null);
    // A row LangChain wrote itself (no docrag keys, no vector) does not break search.
    await client.query(`INSERT INTO langchain_pg_embedding (id, collection_id, embedding, document, cmetadata)
      SELECT 'foreign', uuid, NULL, 'written by LangChain', '{}'::jsonb FROM langchain_pg_collection WHERE name = 'kb'`);
    r = await docrag(['search', server.url, '--table', 'kb', '--layout', 'langchain', '--question', 'tables', '--k', '5', '--json', '--embed-url', stub.url, '--embed-model', 'stub']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 5);
    await client.query(`DELETE FROM langchain_pg_embedding WHERE id = 'foreign'`);
    // Search with another model than the table's is refused before any embedding.
    stub.reset();
    r = await docrag(['search', server.url, '--table', 'kb', '--question', 'tables', '--embed-url', stub.url, '--embed-model', 'other']);
    assert.equal(r.status, 64);
    assert.match(r.stderr, /holds vectors of openai:stub, not openai:other/);
    assert.equal(stub.requests.length, 0);
  });

  test('a role without privileges is told what it lacks', async () => {
    await client.query(`CREATE ROLE reader LOGIN`);
    const url = server.url.replace('postgres@', 'reader@');
    const r = await docrag(['load', url, exportFile, '--table', 'kb']);
    assert.equal(r.status, 69, r.stderr);
    assert.match(r.stderr, /permission denied.*\[42501\] \(missing privileges/);
  });
});
