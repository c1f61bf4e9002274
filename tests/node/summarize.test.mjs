// collection.summarize in the wasm package: extractive without a model
// (deterministic, cited, covering the headings), model modes against the stub with
// citation validation, progress labels, and typed errors.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpus, docrag } from './helpers.mjs';
import { startStub } from './stub-server.mjs';

const { Collection } = docrag;
const gettingStarted = readFileSync(corpus('docx4j__Docx4j_GettingStarted.docx'));
const pics = readFileSync(corpus('tika__testWORD_embedded_pics.docx'));
const stub = await startStub({ reply: '- The guide explains docx4j. [chunk-999]' });
after(() => stub.close());

test('extractive summary: real chunks only, every cited chunk exists, deterministic', async () => {
  const c = await Collection.open('sum-x', { storage: 'memory' });
  const info = await c.addFile(new Uint8Array(gettingStarted));
  const a = await c.summarize(info.docId);
  const b = await c.summarize([info.docId], { mode: 'extractive' });
  assert.equal(a.mode, 'extractive');
  assert.equal(a.verified, true);
  assert.equal(a.text, b.text);
  assert.ok(a.citations.length >= 3, a.text);
  const chunks = c.chunks(info.docId);
  for (const cited of a.citations) {
    assert.equal(cited.docId, info.docId);
    assert.ok(cited.seq < chunks.length);
    assert.match(a.text, new RegExp(`\\[${cited.id}\\]`));
  }
  assert.equal(a.trace.modelCalls, 0);
  assert.equal(a.trace.coverage, 1);
  assert.ok(a.trace.wallMs >= 0);
});

test('a model whose replies cite unknown chunks: one retry per call, then the summary is flagged', async () => {
  stub.reset();
  const c = await Collection.open('sum-m', { storage: 'memory', provider: { kind: 'openai', baseUrl: stub.url, chatModel: 'm', maxRetries: 0 } });
  const info = await c.addFile(new Uint8Array(pics), { convert: { maxTokens: 2000 } });
  const labels = [];
  const s = await c.summarize(info.docId, { mode: 'map-reduce', onProgress: (p) => labels.push(p.label) });
  assert.equal(s.mode, 'map-reduce');
  assert.equal(s.verified, false);
  assert.equal(s.warning, 'citations could not be verified');
  assert.deepEqual(s.invalidCitations, ['chunk-999']);
  const chats = stub.requests.filter((r) => r.path === '/v1/chat/completions');
  assert.equal(s.trace.modelCalls, chats.length);
  assert.equal(s.trace.retries * 2, chats.length, 'every call retried exactly once');
  assert.ok(labels.some((l) => /^map \d+\/\d+$/.test(l)), labels.join(' | '));
  assert.equal(labels.at(-1), 'done');
  // Every prompt carries the document text inside the untrusted-content block.
  for (const r of chats) {
    const all = r.body.messages.map((m) => m.content).join('\n');
    assert.ok(all.includes('<<<BEGIN DOCUMENT DATA>>>') && all.includes('<<<END DOCUMENT DATA>>>'), all.slice(0, 300));
  }
});

test('typed errors: a model mode without a chat model, unknown ids, bad options', async () => {
  const c = await Collection.open('sum-e', { storage: 'memory' });
  const info = await c.addFile(new Uint8Array(pics));
  await assert.rejects(c.summarize(info.docId, { mode: 'map-reduce' }), (e) => e.code === 'no-chat-model');
  await assert.rejects(c.summarize('nope'), (e) => e.code === 'unknown-document');
  await assert.rejects(c.summarize(null, { mode: 'fast' }), (e) => e.code === 'invalid-option' && e.option === 'mode');
  await assert.rejects(c.summarize(null, { concurency: 2 }), (e) => e.code === 'invalid-option' && e.option === 'concurency');
  const whole = await c.summarize(null);
  assert.deepEqual(whole.trace.docIds, [info.docId]);
});
