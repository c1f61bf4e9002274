// Provider client (pkg/, Node 20 fetch) against the local stub server.
// Run: node scripts/build-pkg.mjs && node --test tests/node/provider.test.mjs
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startStub, stubVector, REPLY } from './stub-server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = join(root, 'pkg');
if (!existsSync(join(pkgDir, 'package.json'))) throw new Error('pkg/ is not built: run `node scripts/build-pkg.mjs`');
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const docrag = await import(pathToFileURL(join(pkgDir, manifest.exports['.'].node)).href);
const { Provider } = docrag;

let stub;
before(async () => {
  stub = await startStub({ dim: 8 });
});
after(() => stub.close());
beforeEach(() => stub.reset());

const openai = (extra = {}) =>
  new Provider({ kind: 'openai', baseUrl: `${stub.url}/v1`, embeddingModel: 'text-embedding-3-small', chatModel: 'gpt-4o-mini', retryBaseDelayMs: 1, ...extra });
const ollama = (extra = {}) =>
  new Provider({ kind: 'ollama', baseUrl: stub.url, embeddingModel: 'nomic-embed-text', chatModel: 'llama3.2', retryBaseDelayMs: 1, ...extra });

async function rejects(promise, code) {
  try {
    await promise;
  } catch (e) {
    if (code === 'aborted') {
      // Aborts follow the platform: an AbortError whose cause carries docrag's code.
      assert.ok(e instanceof DOMException, `${e.name}: ${e.message}`);
      assert.equal(e.name, 'AbortError', e.message);
      assert.ok(e.cause instanceof docrag.DocragError);
      assert.equal(e.cause.code, 'aborted');
      return e;
    }
    assert.ok(e instanceof docrag.DocragError, `${e.name}: ${e.message}`);
    assert.equal(e.name, 'DocragError', e.message);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected a ${code} error`);
}

const texts = (n) => Array.from({ length: n }, (_, i) => `chunk number ${i}: revenue grew in region ${i}.`);

test('embeddings: batches by count, ordered by index, deterministic vectors, progress', async () => {
  const progress = [];
  const p = openai({ batchSize: 4 });
  assert.equal(p.embeddingModelId, 'openai:text-embedding-3-small');
  const input = texts(10);
  const out = await p.embed(input, { onProgress: (done, total) => progress.push([done, total]) });
  assert.equal(out.length, 10);
  out.forEach((v, i) => {
    assert.ok(v instanceof Float32Array);
    assert.deepEqual([...v], [...stubVector(input[i], 8)]);
  });
  assert.deepEqual(stub.requests.map((r) => r.body.input.length), [4, 4, 2]);
  assert.deepEqual(stub.requests.map((r) => r.path), ['/v1/embeddings', '/v1/embeddings', '/v1/embeddings']);
  assert.deepEqual(stub.requests[0].body, { model: 'text-embedding-3-small', input: input.slice(0, 4), encoding_format: 'float' });
  assert.deepEqual(progress, [[4, 10], [8, 10], [10, 10]]);
});

test('embeddings: batches by tokens; an oversized text goes alone', async () => {
  const long = 'word '.repeat(120); // ~120 tokens
  const input = ['a b c', 'd e f', long, 'g h i'];
  await openai({ maxBatchTokens: 50 }).embed(input);
  assert.deepEqual(stub.requests.map((r) => r.body.input), [['a b c', 'd e f'], [long], ['g h i']]);
});

test('ollama: /api/embed and model id with dimensions', async () => {
  const p = ollama({ dimensions: 8 });
  assert.equal(p.embeddingModelId, 'ollama:nomic-embed-text:d8');
  const out = await p.embed(['x', 'y']);
  assert.deepEqual([...out[1]], [...stubVector('y', 8)]);
  assert.equal(stub.requests[0].path, '/api/embed');
  assert.deepEqual(stub.requests[0].body, { model: 'nomic-embed-text', input: ['x', 'y'] });
});

test('429 with Retry-After is retried after the asked delay', async () => {
  stub.script([{ status: 429, headers: { 'retry-after': '1' } }]);
  const t0 = Date.now();
  const out = await openai().embed(['hello']);
  const waited = stub.requests[1].at - stub.requests[0].at;
  assert.equal(stub.requests.length, 2);
  assert.ok(waited >= 900, `waited ${waited} ms, Retry-After asked 1000`);
  if (process.env.DOCRAG_VERBOSE) console.log(`429 -> retry after ${waited} ms (Retry-After: 1)`);
  assert.ok(Date.now() - t0 < 5000);
  assert.deepEqual([...out[0]], [...stubVector('hello', 8)]);
});

test('500 is retried, then succeeds', async () => {
  stub.script([{ status: 500 }, { status: 502 }]);
  const out = await openai().embed(['a']);
  assert.equal(out.length, 1);
  assert.equal(stub.requests.length, 3);
});

test('retries exhausted: rate-limited after 429s, http-status after 503s', async () => {
  stub.script([{ status: 429, headers: { 'retry-after': '0' } }, { status: 429 }, { status: 429, headers: { 'retry-after': '0' } }]);
  const e = await rejects(openai({ maxRetries: 2 }).embed(['a']), 'rate-limited');
  assert.equal(e.attempts, 3);
  assert.equal(e.status, 429);
  assert.equal(e.retryAfterMs, 0);
  assert.match(e.message, /stub fault 429/);
  assert.equal(stub.requests.length, 3);
  stub.reset();
  stub.script([{ status: 503 }, { status: 503 }]);
  const e2 = await rejects(openai({ maxRetries: 1 }).embed(['a']), 'http-status');
  assert.equal(e2.status, 503);
  assert.equal(stub.requests.length, 2);
});

test('400 is not retried and carries the provider message', async () => {
  stub.script([{ status: 400, body: { error: { message: "'input' is too long" } } }]);
  const e = await rejects(openai().embed(['a']), 'http-status');
  assert.equal(e.status, 400);
  assert.match(e.message, /'input' is too long/);
  assert.equal(stub.requests.length, 1);
});

test('a slow reply times out', async () => {
  stub.script([{ delayMs: 1500 }]);
  const t0 = Date.now();
  const e = await rejects(openai({ timeoutMs: 200, maxRetries: 0 }).embed(['a']), 'timeout');
  assert.equal(e.timeoutMs, 200);
  assert.ok(Date.now() - t0 < 1200, `took ${Date.now() - t0} ms`);
  assert.equal(stub.requests.length, 1);
});

test('a timeout is retried like a network error', async () => {
  stub.script([{ delayMs: 1000 }]);
  const out = await openai({ timeoutMs: 300, maxRetries: 1 }).embed(['a']);
  assert.equal(out.length, 1);
  assert.equal(stub.requests.length, 2);
});

test('AbortSignal: in flight, during a retry wait, and already aborted', async () => {
  stub.script([{ delayMs: 1500 }]);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  const t0 = Date.now();
  await rejects(openai().embed(texts(6), { signal: ac.signal }), 'aborted');
  assert.ok(Date.now() - t0 < 1000);

  stub.reset();
  stub.script([{ status: 429, headers: { 'retry-after': '5' } }]);
  const ac2 = new AbortController();
  setTimeout(() => ac2.abort(), 150);
  const t1 = Date.now();
  await rejects(openai().embed(['a'], { signal: ac2.signal }), 'aborted');
  assert.ok(Date.now() - t1 < 2000);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(stub.requests.length, 1, 'no request after the abort');

  stub.reset();
  await rejects(openai().embed(['a'], { signal: AbortSignal.abort() }), 'aborted');
  await rejects(openai().chat([{ role: 'user', content: 'q' }], { signal: AbortSignal.abort() }), 'aborted');
  assert.equal(stub.requests.length, 0);
});

test('malformed JSON is malformed-reply, not retried', async () => {
  stub.script([{ malformed: true }]);
  await rejects(openai().embed(['a']), 'malformed-reply');
  assert.equal(stub.requests.length, 1);
});

test('wrong dimension is embedding-dimension', async () => {
  stub.script([{ dim: 4 }]);
  const e = await rejects(openai({ dimensions: 8 }).embed(['a', 'b']), 'embedding-dimension');
  assert.equal(stub.requests[0].body.dimensions, 8);
  assert.deepEqual([e.expected, e.got, e.index], [8, 4, 0]);
  // Without `dimensions`, the first batch sets the expectation for the rest.
  stub.reset();
  stub.script([{ dim: 8 }, { dim: 5 }]);
  const e2 = await rejects(openai({ batchSize: 2 }).embed(texts(4)), 'embedding-dimension');
  assert.deepEqual([e2.expected, e2.got, e2.index], [8, 5, 2]);
});

test('a dropped connection is a network error after retries', async () => {
  stub.script([{ drop: true }, { drop: true }]);
  await rejects(openai({ maxRetries: 1 }).embed(['a']), 'network');
  assert.equal(stub.requests.length, 2);
  stub.reset();
  stub.script([{ drop: true }]);
  assert.equal((await openai({ maxRetries: 1 }).embed(['a'])).length, 1);
});

test('OpenAI SSE chat is reassembled exactly, pieces streamed in order', async () => {
  const pieces = [];
  const p = openai({ smallModel: 'gpt-4.1-nano' });
  const text = await p.chat([{ role: 'system', content: 'ctx' }, { role: 'user', content: 'q?' }], { onToken: (t) => pieces.push(t) });
  assert.equal(text, REPLY);
  assert.equal(pieces.join(''), REPLY);
  assert.ok(pieces.length >= 3, `${pieces.length} pieces`);
  const r = stub.requests[0];
  assert.equal(r.path, '/v1/chat/completions');
  assert.deepEqual(r.body, { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'ctx' }, { role: 'user', content: 'q?' }], stream: true });
  await p.chat([{ role: 'user', content: 'route' }], { model: 'small' });
  assert.equal(stub.requests[1].body.model, 'gpt-4.1-nano');
});

test('Ollama NDJSON chat is reassembled exactly', async () => {
  const pieces = [];
  const text = await ollama().chat([{ role: 'user', content: 'q' }], { onToken: (t) => pieces.push(t) });
  assert.equal(text, REPLY);
  assert.equal(pieces.join(''), REPLY);
  assert.equal(stub.requests[0].path, '/api/chat');
  assert.equal(stub.requests[0].body.stream, true);
});

test('chat: 500 before the stream is retried; a stream cut midway is not', async () => {
  stub.script([{ route: '/v1/chat/completions', status: 500 }]);
  assert.equal(await openai().chat([{ role: 'user', content: 'q' }]), REPLY);
  assert.equal(stub.requests.length, 2);
  stub.reset();
  stub.script([{ dropAfterPieces: 3 }]);
  const pieces = [];
  await rejects(openai().chat([{ role: 'user', content: 'q' }], { onToken: (t) => pieces.push(t) }), 'network');
  assert.ok(pieces.length > 0);
  assert.equal(stub.requests.length, 1);
});

test('Authorization is sent only with a key', async () => {
  await openai({ apiKey: 'sk-test-123' }).embed(['a']);
  await openai().embed(['a']);
  await ollama({ apiKey: 'ol-key' }).chat([{ role: 'user', content: 'q' }]);
  assert.equal(stub.requests[0].headers.authorization, 'Bearer sk-test-123');
  assert.equal(stub.requests[1].headers.authorization, undefined);
  assert.equal(stub.requests[2].headers.authorization, 'Bearer ol-key');
  assert.equal(stub.requests[0].headers['content-type'], 'application/json');
});

test('function providers: results validated, streams and promises accepted', async () => {
  const seen = [];
  const p = new Provider({
    kind: 'function',
    embeddingModel: 'minilm',
    batchSize: 2,
    embed: async (t, { signal }) => {
      seen.push([t.length, signal instanceof AbortSignal]);
      return t.map((x) => [x.length, 1, 2]);
    },
    chat: async function* (messages, { model }) {
      yield `[${model}] `;
      yield messages.at(-1).content;
    },
  });
  assert.equal(p.embeddingModelId, 'function:minilm');
  const ac = new AbortController();
  const out = await p.embed(['ab', 'cde', 'f'], { signal: ac.signal });
  assert.deepEqual(out.map((v) => [...v]), [[2, 1, 2], [3, 1, 2], [1, 1, 2]]);
  assert.deepEqual(seen, [[2, true], [1, true]]);
  const pieces = [];
  assert.equal(await p.chat([{ role: 'user', content: 'héllo' }], { model: 'small', onToken: (t) => pieces.push(t) }), '[small] héllo');
  assert.deepEqual(pieces, ['[small] ', 'héllo']);

  const bad = (embed) => new Provider({ embed });
  await rejects(bad(async (t) => t.slice(1).map(() => new Float32Array(3))).embed(['a', 'b']), 'embedding-count');
  let e = await rejects(bad(async (t) => t.map((_, i) => new Float32Array(i + 2))).embed(['a', 'b']), 'embedding-dimension');
  assert.deepEqual([e.expected, e.got, e.index], [2, 3, 1]);
  e = await rejects(bad(async (t) => t.map(() => [1, NaN])).embed(['a']), 'embedding-non-finite');
  assert.equal(e.position, 1);
  await rejects(bad(async (t) => t.map(() => [])).embed(['a']), 'embedding-empty');
  await rejects(bad(async () => 'nope').embed(['a']), 'malformed-reply');
  await rejects(bad(async () => { throw new Error('model not loaded'); }).embed(['a']), 'provider-function');
  const promiseChat = new Provider({ chat: (m) => Promise.resolve(`echo ${m.length}`) });
  assert.equal(promiseChat.embeddingModelId, undefined);
  assert.equal(await promiseChat.chat([{ role: 'user', content: 'x' }]), 'echo 1');
  await rejects(promiseChat.embed(['a']), 'no-embedding-model');
  await rejects(new Provider({ chat: () => 42 }).chat([{ role: 'user', content: 'x' }]), 'malformed-reply');
});

test('options are strict; bad base URLs and missing models are typed errors', async () => {
  const thrown = (fn) => {
    try {
      fn();
    } catch (e) {
      return e;
    }
    assert.fail('expected a throw');
  };
  let e = thrown(() => new Provider({ kind: 'openai', bogus: 1 }));
  assert.equal(e.code, 'invalid-option');
  assert.equal(e.option, 'provider.bogus');
  e = thrown(() => new Provider({ kind: 'openai', baseUrl: 'ftp://example.com' }));
  assert.equal(e.code, 'invalid-provider-config');
  assert.equal(e.option, 'provider.baseUrl');
  assert.equal(thrown(() => new Provider({ kind: 'claude' })).option, 'provider.kind');
  assert.equal(thrown(() => new Provider({ kind: 'openai', batchSize: 1.5 })).option, 'provider.batchSize');
  assert.equal(thrown(() => new Provider({ kind: 'function' })).code, 'invalid-option');
  assert.equal(thrown(() => new Provider()).code, 'invalid-option');
  const chatOnly = new Provider({ kind: 'openai', baseUrl: stub.url, chatModel: 'm' });
  assert.equal(chatOnly.embeddingModelId, undefined);
  assert.equal(chatOnly.hasChat, true);
  await rejects(chatOnly.embed(['a']), 'no-embedding-model');
  await rejects(new Provider({ kind: 'ollama', embeddingModel: 'e' }).chat([{ role: 'user', content: 'q' }]), 'no-chat-model');
  await rejects(chatOnly.chat([{ role: 'robot', content: 'q' }]), 'invalid-input');
  await rejects(chatOnly.embed(['a'], { signal: 'x' }), 'invalid-option');
  assert.equal(stub.requests.length, 0);
});
