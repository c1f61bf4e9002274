// The Web Worker of docrag-local-embed: loads the model once (fetching every byte from
// the URLs it is given, which default to the package's own folder), then embeds texts
// one at a time, yielding between texts so a cancel message is seen.
//
// Messages in:  {type: 'load', id, modelUrl, wasmUrl}   {type: 'embed', id, texts}
//               {type: 'cancel', id}
// Messages out: {type: 'progress', id, progress}   {type: 'result', id, value}
//               {type: 'error', id, error: {name, code, message}}
import init, { LocalModel } from './wasm/docrag_local_embed.js';

let model = null;
const cancelled = new Set();
const running = new Set();
// Set when the WebAssembly trapped (a Rust panic or running out of memory aborts as
// `unreachable`): the instance's stack and heap are then in an unknown state, so the
// model is never called again; the page terminates this worker (code `worker-failed`).
let crashed = null;

class LocalEmbedError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LocalEmbedError';
    this.code = code;
  }
}

/** The response for `url`; `fetch-failed` naming `what`, the URL and the status when there is none. */
async function fetchOk(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LocalEmbedError('fetch-failed', `${what}: ${url} could not be fetched (${e.message})`);
  }
  if (!response.ok) {
    throw new LocalEmbedError('fetch-failed', `${what}: ${url} answered HTTP ${response.status}`);
  }
  return response;
}

/** The body of `url` as bytes, reporting `{loaded, total}` as it arrives. */
async function download(url, what, expected, report) {
  const response = await fetchOk(url, what);
  const total = Number(response.headers.get('content-length')) || expected || 0;
  const reader = response.body.getReader();
  const parts = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    report({ stage: 'download', file: what, loaded, total: Math.max(total, loaded) });
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

async function load(message, report) {
  const base = new URL(message.modelUrl);
  report({ stage: 'manifest' });
  const manifestBytes = await download(new URL('model.json', base), 'model.json', 0, () => {});
  let manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(manifestBytes));
  } catch (e) {
    throw new LocalEmbedError('bad-model', `model.json: not JSON (${e.message})`);
  }
  // Types too, not just presence: `null` would throw a TypeError here, a string
  // dimension "384" would fail the dimension check below with "says 384, has 384",
  // and the wasm constructor would wrap a maxTokens of -1 to 4294967295.
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new LocalEmbedError('bad-model', 'model.json: not a JSON object');
  }
  for (const key of ['name', 'dimension', 'maxTokens', 'weights', 'tokenizer', 'config']) {
    if (manifest[key] === undefined) throw new LocalEmbedError('bad-model', `model.json: no "${key}"`);
  }
  for (const key of ['name', 'weights', 'tokenizer', 'config']) {
    if (typeof manifest[key] !== 'string' || manifest[key] === '') {
      throw new LocalEmbedError('bad-model', `model.json: "${key}" is not a non-empty string`);
    }
  }
  for (const key of ['dimension', 'maxTokens']) {
    if (!Number.isInteger(manifest[key]) || manifest[key] < 1 || manifest[key] > 2 ** 31) {
      throw new LocalEmbedError('bad-model', `model.json: "${key}" is not a positive integer (${JSON.stringify(manifest[key])})`);
    }
  }
  report({ stage: 'compile' });
  // Fetched here rather than by the wasm-bindgen glue, so a missing file is
  // `fetch-failed` with its URL and status, and bytes that are not WebAssembly are
  // `worker-failed` (both were code `internal` before).
  const wasmUrl = String(message.wasmUrl ?? new URL('./wasm/docrag_local_embed_bg.wasm', import.meta.url));
  const wasmResponse = await fetchOk(wasmUrl, 'WebAssembly');
  try {
    await init({ module_or_path: wasmResponse });
  } catch (e) {
    throw new LocalEmbedError('worker-failed', `WebAssembly: ${wasmUrl} could not be started (${e.message})`);
  }
  const [weights, tokenizer, config] = await Promise.all([
    download(new URL(manifest.weights, base), manifest.weights, manifest.weightsBytes, report),
    download(new URL(manifest.tokenizer, base), manifest.tokenizer, 0, () => {}),
    download(new URL(manifest.config, base), manifest.config, 0, () => {}),
  ]);
  report({ stage: 'load' });
  try {
    model = new LocalModel(weights, tokenizer, config, manifest.maxTokens);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw crash(`loading the model: ${e.message}`);
    throw new LocalEmbedError('bad-model', e.message);
  }
  if (model.dimension !== manifest.dimension) {
    throw new LocalEmbedError('bad-model', `model.json says ${manifest.dimension} dimensions, the model has ${model.dimension}`);
  }
  report({ stage: 'ready' });
  return { name: manifest.name, dimension: manifest.dimension, maxTokens: manifest.maxTokens, source: manifest.source ?? null };
}

/** The worker-failed error of a trap; the model is not used again. */
function crash(what) {
  model = null;
  crashed = `the WebAssembly stopped while ${what} (a panic, or out of memory); this worker cannot be used any more: load the model again`;
  return new LocalEmbedError('worker-failed', crashed);
}

// Yields to the event loop so a cancel message is seen between texts. A message to
// ourselves, not setTimeout(0): nested timers are clamped to 4 ms, which made a batch
// of 500 texts on the tiny model take 2.4 s instead of 0.2 s.
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
const nextTask = () =>
  new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

async function embed(message, report) {
  if (crashed) throw new LocalEmbedError('worker-failed', crashed);
  if (!model) throw new LocalEmbedError('not-loaded', 'the model is not loaded');
  const vectors = [];
  for (let i = 0; i < message.texts.length; i++) {
    await nextTask();
    if (cancelled.has(message.id)) throw new DOMException('embedding cancelled', 'AbortError');
    const text = message.texts[i];
    if (typeof text !== 'string') throw new LocalEmbedError('invalid-input', `texts[${i}] is not a string`);
    if (crashed) throw new LocalEmbedError('worker-failed', crashed);
    try {
      vectors.push(new Float32Array(model.embed(text)));
    } catch (e) {
      // A Rust error is a plain Error: the model is fine, only this text failed.
      if (e instanceof WebAssembly.RuntimeError) throw crash(`embedding texts[${i}] (${text.length} characters): ${e.message}`);
      throw new LocalEmbedError('inference-failed', `texts[${i}]: ${e.message}`);
    }
    report({ stage: 'embed', done: i + 1, total: message.texts.length });
  }
  return vectors;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === 'cancel') {
    // Only calls still running: a cancel that crossed the result would stay in the set.
    if (running.has(message.id)) cancelled.add(message.id);
    return;
  }
  const report = (progress) => self.postMessage({ type: 'progress', id: message.id, progress });
  running.add(message.id);
  try {
    const value = message.type === 'load' ? await load(message, report) : await embed(message, report);
    const transfer = Array.isArray(value) ? value.map((v) => v.buffer) : [];
    self.postMessage({ type: 'result', id: message.id, value }, transfer);
  } catch (e) {
    self.postMessage({ type: 'error', id: message.id, error: { name: e.name ?? 'Error', code: e.code ?? 'internal', message: e.message ?? String(e) } });
  } finally {
    running.delete(message.id);
    cancelled.delete(message.id);
  }
};
