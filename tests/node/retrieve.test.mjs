// VectorIndex and Bm25Index through the package: wasm results equal a plain JS
// reference on the same deterministic random vectors, the SIMD128 kernel is the one in
// the shipped .wasm, errors are DocragErrors, and the bytes round-trip.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { corpus, docrag, manifest, pkgDir, thrown } from './helpers.mjs';

const { VectorIndex, Bm25Index } = docrag;

/** xorshift32 mapped to [-1, 1): the stream the Rust tests and the bench use. */
function rng(seed) {
  let x = seed | 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2147483648 - 1;
  };
}

/** Brute-force cosine in f64, best first, ties by (docId, seq). */
function reference(rows, q, k, docIds) {
  const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  const qn = norm(q);
  return rows
    .filter((r) => !docIds || docIds.includes(r.docId))
    .map((r) => ({ docId: r.docId, seq: r.seq, score: r.v.reduce((s, x, i) => s + x * q[i], 0) / norm(r.v) / qn }))
    .sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : a.docId > b.docId ? 1 : a.seq - b.seq))
    .slice(0, k);
}

function assertSame(got, want) {
  assert.equal(got.length, want.length);
  got.forEach((g, i) => {
    assert.ok(Math.abs(g.score - want[i].score) < 1e-5, `rank ${i}: ${g.score} vs ${want[i].score}`);
    const nearTie = want.some((o) => (o.docId !== want[i].docId || o.seq !== want[i].seq) && Math.abs(o.score - want[i].score) < 1e-5);
    if (!nearTie) assert.deepEqual([g.docId, g.seq], [want[i].docId, want[i].seq], `rank ${i}`);
  });
}

test('cosine top-k equals a JS reference on the same random vectors', () => {
  for (const [n, dim] of [[2000, 384], [500, 37]]) {
    const next = rng(0x2545f491 ^ dim);
    const rows = Array.from({ length: n }, (_, i) => ({ docId: `doc-${(i * 7) % 13}`, seq: i, v: Float32Array.from({ length: dim }, next) }));
    const index = new VectorIndex(dim);
    for (const r of rows) index.add(r.docId, r.seq, r.v);
    assert.equal(index.size, n);
    assert.equal(index.dim, dim);
    for (const k of [1, 10, 64]) {
      const q = Float32Array.from({ length: dim }, next);
      const hits = index.search(q, k);
      assert.deepEqual(Object.keys(hits[0]).sort(), ['docId', 'score', 'seq']);
      assertSame(hits, reference(rows, q, k));
      const only = ['doc-2', 'doc-9'];
      assertSame(index.search(q, k, only), reference(rows, q, k, only));
    }
    index.free();
  }
});

test('the shipped wasm scores with SIMD128', () => {
  assert.equal(VectorIndex.simd(), true);
  // f32x4.mul is 0xfd 0xe6 0x01 (prefix, LEB128 opcode 230); f32x4.add is 0xfd 0xe4 0x01.
  const wasm = readFileSync(join(pkgDir, 'docrag_bg.wasm'));
  const count = (a, b, c) => {
    let n = 0;
    for (let i = 0; i + 2 < wasm.length; i++) if (wasm[i] === a && wasm[i + 1] === b && wasm[i + 2] === c) n++;
    return n;
  };
  assert.ok(count(0xfd, 0xe6, 0x01) >= 4, 'f32x4.mul in the module');
  assert.ok(count(0xfd, 0xe4, 0x01) >= 4, 'f32x4.add in the module');
});

test('ties, errors and persistence', () => {
  const index = new VectorIndex(2);
  for (const [d, s] of [['b', 2], ['a', 9], ['b', 1], ['a', 3]]) index.add(d, s, [3, 4]);
  assert.deepEqual(index.search([1, 1], 3).map((h) => [h.docId, h.seq]), [['a', 3], ['a', 9], ['b', 1]]);
  for (const [fn, code] of [
    [() => new VectorIndex(0), 'invalid-dimension'],
    [() => index.add('c', 0, [1, 2, 3]), 'dimension-mismatch'],
    [() => index.add('c', 0, [0, 0]), 'zero-vector'],
    [() => index.add('c', 0, [NaN, 1]), 'non-finite-vector'],
    [() => index.add('a', 3, [1, 0]), 'duplicate-chunk'],
    [() => index.search([1, 0], 3, 'a'), 'invalid-input'],
    [() => VectorIndex.fromBytes(new Uint8Array([1, 2, 3])), 'not-an-index'],
  ]) {
    const err = thrown(fn);
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'DocragError');
    assert.equal(err.code, code);
  }
  const bytes = index.toBytes();
  assert.ok(bytes instanceof Uint8Array);
  assert.deepEqual(VectorIndex.fromBytes(bytes).search([1, 0], 4), index.search([1, 0], 4));
  // An ArrayBuffer is read the same way; anything else is invalid input.
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  assert.deepEqual(VectorIndex.fromBytes(buffer).search([1, 0], 4), index.search([1, 0], 4));
  assert.equal(thrown(() => VectorIndex.fromBytes([1, 2, 3])).code, 'invalid-input');
  assert.equal(thrown(() => VectorIndex.fromBytes('DRVX')).code, 'invalid-input');
  // A detached buffer and a view that lies about its length are typed errors, and the
  // instance keeps working after them.
  const detached = bytes.slice().buffer;
  structuredClone(detached, { transfer: [detached] });
  assert.equal(thrown(() => VectorIndex.fromBytes(detached)).code, 'not-an-index');
  class Liar extends Uint8Array {
    get length() {
      return 1e6;
    }
  }
  assert.equal(thrown(() => VectorIndex.fromBytes(new Liar(bytes))).code, 'invalid-input');
  assert.deepEqual(VectorIndex.fromBytes(bytes).search([1, 0], 4), index.search([1, 0], 4));
  assert.equal(thrown(() => VectorIndex.fromBytes(bytes.subarray(0, bytes.length - 1))).code, 'corrupt-index');
  const v2 = Uint8Array.from(bytes);
  v2[4] = 2;
  assert.equal(thrown(() => VectorIndex.fromBytes(v2)).code, 'unsupported-index-version');
  assert.equal(index.removeDocument('a'), 2);
  assert.equal(index.size, 2);
});

test('Bm25Index over converted chunks finds a Japanese phrase by bigrams', () => {
  const index = new Bm25Index();
  const docs = {};
  for (const f of ['tika__testRTFJapanese.rtf', 'es6tutorial__proxy.md', 'pandoc__MANUAL.txt']) {
    const { chunks } = docrag.convert(readFileSync(corpus(f)), { fileName: f, maxTokens: 256 });
    chunks.forEach((text, i) => index.add(f, i, text));
    docs[f] = chunks;
  }
  const [top] = index.search('市谷刑務所の処刑記録', 5);
  assert.equal(top.docId, 'tika__testRTFJapanese.rtf');
  assert.ok(docs[top.docId][top.seq].includes('市谷刑務所'));
  const proxy = index.search('Proxy 拦截', 5, ['es6tutorial__proxy.md']);
  assert.ok(proxy.length > 0 && proxy.every((h) => h.docId === 'es6tutorial__proxy.md'));
  const copy = Bm25Index.fromBytes(index.toBytes());
  assert.deepEqual(copy.search('pandoc tables', 10), index.search('pandoc tables', 10));
  assert.equal(thrown(() => index.add('pandoc__MANUAL.txt', 0, 'again')).code, 'duplicate-chunk');
});

test('the browser entry: the classes need init() and then work', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'docrag-web-retrieve-'));
  after(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(pkgDir, copy, { recursive: true });
  const web = await import(pathToFileURL(join(copy, manifest.exports['.'].browser)).href);
  assert.equal(thrown(() => new web.VectorIndex(3)).code, 'not-initialized');
  assert.equal(thrown(() => new web.Bm25Index()).code, 'not-initialized');
  await web.init(readFileSync(join(pkgDir, 'docrag_bg.wasm')));
  const index = new web.VectorIndex(2);
  index.add('d', 0, [1, 0]);
  assert.ok(index instanceof web.VectorIndex);
  assert.deepEqual(web.VectorIndex.fromBytes(index.toBytes()).search([1, 0], 1), [{ docId: 'd', seq: 0, score: 1 }]);
  const lexical = new web.Bm25Index();
  lexical.add('d', 0, 'hello world');
  assert.equal(lexical.search('WORLD', 1)[0].docId, 'd');
});
