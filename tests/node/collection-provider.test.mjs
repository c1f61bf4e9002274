// The Collection with a model provider (the local OpenAI-compatible stub):
// embeddings stored per model, the content-hash cache, a provider failure mid-add
// leaving the collection as it was, model answers with citations, routing calls.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpus, docrag } from './helpers.mjs';
import { startStub, REPLY } from './stub-server.mjs';

const { Collection } = docrag;
const tableDoc = readFileSync(corpus('poi__bug57031.docx'));
const picsDoc = readFileSync(corpus('tika__testWORD_embedded_pics.docx'));
const stub = await startStub({ dim: 16, pieces: 4 });
after(() => stub.close());

const provider = (extra = {}) => ({
  kind: 'openai',
  baseUrl: stub.url,
  embeddingModel: 'emb',
  chatModel: 'big',
  batchSize: 8,
  maxRetries: 1,
  retryBaseDelayMs: 1,
  ...extra,
});
const embedCalls = () => stub.requests.filter((r) => r.path === '/v1/embeddings');
const chatCalls = () => stub.requests.filter((r) => r.path === '/v1/chat/completions');

test('chunks are embedded once: a re-add with replace sends nothing to the provider', async () => {
  stub.reset();
  const c = await Collection.open('p-cache', { storage: 'memory', provider: provider() });
  assert.deepEqual(c.provider, { embeddingModelId: 'openai:emb', chat: true, smallChat: false });
  const stages = [];
  const info = await c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 }, onProgress: (p) => stages.push(`${p.stage}:${p.done}/${p.total}`) });
  const sent = embedCalls().flatMap((r) => r.body.input);
  assert.equal(sent.length, info.chunkCount);
  assert.equal(embedCalls().length, Math.ceil(info.chunkCount / 8));
  assert.deepEqual(sent, c.chunks(info.docId).map((ch) => ch.text));
  assert.deepEqual(info.embeddingModels, ['openai:emb']);
  assert.deepEqual(c.stats().embeddingModels, ['openai:emb']);
  assert.ok(stages.includes(`embed:${info.chunkCount}/${info.chunkCount}`), stages.join(' '));
  const before = embedCalls().length;
  await c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 }, replace: true });
  assert.equal(embedCalls().length, before, 'unchanged chunks are never re-embedded');
  // Another chunking of the same file shares only some texts: only the new ones go out.
  await c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 300 }, replace: true });
  const fresh = embedCalls().slice(before).flatMap((r) => r.body.input);
  const now = c.chunks(info.docId).map((ch) => ch.text);
  assert.ok(fresh.length > 0 && fresh.length <= now.length);
  for (const t of fresh) assert.ok(now.includes(t));
});

test('a provider that dies mid-batch leaves the collection as it was', async () => {
  stub.reset();
  const c = await Collection.open('p-fail', { storage: 'memory', provider: provider() });
  const first = await c.addFile(new Uint8Array(picsDoc), { convert: { maxTokens: 80 } });
  const before = c.documents();
  const requestsBefore = embedCalls().length;
  // The first batch of the next file succeeds, the second gets a 400 (not retried).
  stub.script([{ route: '/v1/embeddings', dim: 16 }, { route: '/v1/embeddings', status: 400 }]);
  await assert.rejects(c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 } }), (e) => {
    assert.equal(e.name, 'DocragError');
    assert.equal(e.code, 'http-status');
    return true;
  });
  assert.equal(embedCalls().length, requestsBefore + 2);
  assert.deepEqual(c.documents(), before);
  assert.equal(c.chunks(first.docId).length, first.chunkCount);
  assert.throws(() => c.chunks('sha256-' + '0'.repeat(16)), (e) => e.code === 'unknown-document');
});

test('a wrong dimension from the same model is refused before anything is stored', async () => {
  stub.reset();
  const c = await Collection.open('p-dim', { storage: 'memory', provider: provider() });
  await c.addFile(new Uint8Array(picsDoc), { convert: { maxTokens: 80 } });
  stub.script([{ route: '/v1/embeddings', dim: 12 }]);
  await assert.rejects(c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 } }), (e) => e.code === 'embedding-dimension');
  assert.equal(c.documents().length, 1);
});

test('with a chat model the answer is the model\'s, streamed, with citations read from it', async () => {
  stub.reset();
  const c = await Collection.open('p-ask', { storage: 'memory', provider: provider() });
  await c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 } });
  await c.addFile(new Uint8Array(picsDoc), { convert: { maxTokens: 80 } });
  const tokens = [];
  const r = await c.ask('What is the Chi-Square value of the Wilcoxon test?', { onToken: (t) => tokens.push(t), smallCollectionTokens: 0, chunks: 2 });
  assert.equal(r.answer.by, 'model');
  assert.equal(r.answer.text, REPLY);
  assert.equal(tokens.join(''), REPLY);
  assert.ok(tokens.length > 1);
  // REPLY cites [1]: the first numbered source.
  assert.equal(r.citations.citations[0].number, 1);
  assert.equal(r.citations.citations[0].docId, r.sources[0].docId);
  assert.deepEqual(r.modelCalls.map((m) => m.purpose), ['embedding', 'routing', 'classification', 'answer']);
  assert.equal(r.accounting.retrieval, 'hybrid');
  const chats = chatCalls();
  assert.equal(chats.length, 3);
  assert.equal(chats[0].body.model, 'big');
  assert.equal(chats[2].body.stream, true);
  assert.deepEqual(chats[2].body.messages.map((m) => m.content), r.payload.messages.map((m) => m.content));
  assert.equal(chats[2].body.messages[0].content, r.cachedPrefix);
});

test('routing and classification go to the small model when one is set; generate:false skips the answer call', async () => {
  stub.reset();
  const c = await Collection.open('p-small', { storage: 'memory', provider: provider({ smallModel: 'tiny' }) });
  await c.addFile(new Uint8Array(tableDoc), { convert: { maxTokens: 120 } });
  await c.addFile(new Uint8Array(picsDoc), { convert: { maxTokens: 80 } });
  const r = await c.ask('Wilcoxon', { smallCollectionTokens: 0, generate: false });
  assert.equal(r.answer.by, 'extractive');
  assert.deepEqual(chatCalls().map((x) => x.body.model), ['tiny', 'tiny']);
  assert.deepEqual(r.modelCalls.filter((m) => m.purpose !== 'embedding').map((m) => m.model), ['small', 'small']);
});

test('a provider set later embeds what is missing; removing the provider falls back to BM25', async () => {
  stub.reset();
  const c = await Collection.open('p-later', { storage: 'memory' });
  const info = await c.addFile(new Uint8Array(picsDoc), { convert: { maxTokens: 80 } });
  assert.equal(embedCalls().length, 0);
  await c.setProvider(provider());
  assert.equal(await c.embedMissing(), 1);
  assert.equal(embedCalls().flatMap((r) => r.body.input).length, info.chunkCount);
  assert.deepEqual(c.documents()[0].embeddingModels, ['openai:emb']);
  assert.equal(await c.embedMissing(), 0);
  await c.setProvider(null);
  assert.equal(c.provider, null);
  const r = await c.ask('pictures');
  assert.equal(r.answer.by, 'extractive');
  assert.equal(r.accounting.retrieval, undefined);
});
