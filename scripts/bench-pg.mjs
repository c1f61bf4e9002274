// The POSTGRES section of `make bench` (issue 18): `docrag load` throughput and SQL
// top-10 latency at 100,000 chunks on a real PostgreSQL + pgvector
// (scripts/pg-server.mjs, fsync off). The chunks are the corpus's own chunk texts
// repeated under 1,000 synthetic documents of 100 chunks, with 384-dimension vectors
// from a fixed xorshift sequence (the size of the common small local models), so
// every run loads the same bytes. Prints; never fails on a number.
import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const N = 100_000;
const PER_DOC = 100;
const DIM = 384;
const QUERIES = 20;

const run = (cmd, args) =>
  new Promise((resolve) =>
    execFile(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 }, (err, stdout, stderr) =>
      resolve({ status: err ? (err.code ?? 1) : 0, stdout, stderr })),
  );

function xorshift(seed) {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296 - 0.5;
  };
}

const vector = (next) => Array.from({ length: DIM }, () => Math.round(next() * 1e4) / 1e4);

/** Writes the synthetic export; returns its size in bytes. */
async function writeExport(file, texts) {
  const out = createWriteStream(file);
  const next = xorshift(0x9e3779b9);
  const write = (s) => (out.write(s) ? null : new Promise((r) => out.once('drain', r)));
  for (let i = 0; i < N; i++) {
    const doc = `sha256-bench${String(Math.floor(i / PER_DOC)).padStart(8, '0')}`;
    const seq = i % PER_DOC;
    const text = texts[i % texts.length];
    const line = JSON.stringify({
      format: 'docrag.chunk.v1',
      chunkId: `${doc}:${seq}`,
      documentId: doc,
      seq,
      fileName: 'bench.docx',
      text,
      tokenCount: Math.ceil(text.length / 4),
      metadata: { ssDocId: doc, ssSeq: seq, docTitle: 'bench' },
      embedding: vector(next),
      embeddingModel: 'bench:random',
    });
    await write(line + '\n');
  }
  await new Promise((r) => out.end(r));
  return statSync(file).size;
}

export async function benchPostgres(root, corpusDir) {
  console.log(`\nPOSTGRES: docrag load and SQL top-10 at ${N.toLocaleString('en')} chunks x ${DIM} dimensions (PostgreSQL + pgvector, scripts/pg-server.mjs)`);
  let pg;
  let startPostgres;
  try {
    pg = (await import('pg')).default;
    ({ startPostgres } = await import('./pg-server.mjs'));
  } catch (e) {
    console.log(`postgres: skipped: ${e.message} (npm ci)`);
    return;
  }
  const cli = join(root, 'target', 'release', 'docrag');
  const dir = mkdtempSync(join(tmpdir(), 'docrag-benchpg-'));
  let server;
  let client;
  try {
    // Chunk texts of a few corpus documents (their lengths are real chunk lengths).
    const sample = join(dir, 'sample.jsonl');
    const files = ['docx4j__Docx4j_GettingStarted.docx', 'poi__bug65649.docx', 'pandoc__html-reader.html'].map((f) => join(corpusDir, f));
    const conv = await run(cli, ['export', ...files, '--jsonl', sample]);
    if (conv.status !== 0) throw new Error(conv.stderr.trim());
    const texts = readFileSync(sample, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).text);
    const file = join(dir, 'bench.jsonl');
    const bytes = await writeExport(file, texts);
    server = await startPostgres({ root });
    const t0 = performance.now();
    const load = await run(cli, ['load', server.url, file, '--create', '--table', 'bench']);
    const seconds = (performance.now() - t0) / 1000;
    if (load.status !== 0) throw new Error(load.stderr.trim());
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    // The load includes the HNSW build; time the build alone on a copy of the index.
    const t1 = performance.now();
    await client.query(`SET maintenance_work_mem = '1GB'`);
    await client.query('CREATE INDEX bench_hnsw_again ON bench USING hnsw (embedding vector_cosine_ops)');
    const indexSeconds = (performance.now() - t1) / 1000;
    await client.query('DROP INDEX bench_hnsw_again');
    console.log(`load: ${(bytes / 1e6).toFixed(0)} MB of JSONL, ${(seconds).toFixed(1)} s with indexes = ${Math.round(N / seconds).toLocaleString('en')} chunks/s (HNSW build alone ${indexSeconds.toFixed(1)} s; rows alone ~${Math.round(N / Math.max(0.1, seconds - indexSeconds)).toLocaleString('en')} chunks/s)`);
    const next = xorshift(12345);
    const queries = Array.from({ length: QUERIES }, () => `[${vector(next).join(',')}]`);
    const sql = 'SELECT chunk_id FROM bench ORDER BY embedding <=> $1 LIMIT 10';
    for (const [name, setting] of [['HNSW (ef_search 40)', 'SET hnsw.ef_search = 40'], ['exact scan', 'SET enable_indexscan = off']]) {
      await client.query('RESET ALL');
      await client.query(setting);
      await client.query(sql, [queries[0]]); // warm the cache
      const times = [];
      for (const q of queries) {
        const t = performance.now();
        await client.query(sql, [q]);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      console.log(`top-10 ${name.padEnd(20)} median ${times[QUERIES >> 1].toFixed(2)} ms, worst ${times[QUERIES - 1].toFixed(2)} ms (${QUERIES} queries)`);
    }
  } catch (e) {
    console.log(`postgres: failed: ${e.message}`);
  } finally {
    await client?.end();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
