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

class LocalEmbedError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LocalEmbedError';
    this.code = code;
  }
}

/** The body of `url` as bytes, reporting `{loaded, total}` as it arrives. */
async function download(url, what, expected, report) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new LocalEmbedError('fetch-failed', `${what}: ${url} could not be fetched (${e.message})`);
  }
  if (!response.ok) {
    throw new LocalEmbedError('fetch-failed', `${what}: ${url} answered HTTP ${response.status}`);
  }
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
  for (const key of ['name', 'dimension', 'maxTokens', 'weights', 'tokenizer', 'config']) {
    if (manifest[key] === undefined) throw new LocalEmbedError('bad-model', `model.json: no "${key}"`);
  }
  report({ stage: 'compile' });
  await init({ module_or_path: message.wasmUrl ?? new URL('./wasm/docrag_local_embed_bg.wasm', import.meta.url) });
  const [weights, tokenizer, config] = await Promise.all([
    download(new URL(manifest.weights, base), manifest.weights, manifest.weightsBytes, report),
    download(new URL(manifest.tokenizer, base), manifest.tokenizer, 0, () => {}),
    download(new URL(manifest.config, base), manifest.config, 0, () => {}),
  ]);
  report({ stage: 'load' });
  try {
    model = new LocalModel(weights, tokenizer, config, manifest.maxTokens);
  } catch (e) {
    throw new LocalEmbedError('bad-model', e.message);
  }
  if (model.dimension !== manifest.dimension) {
    throw new LocalEmbedError('bad-model', `model.json says ${manifest.dimension} dimensions, the model has ${model.dimension}`);
  }
  report({ stage: 'ready' });
  return { name: manifest.name, dimension: manifest.dimension, maxTokens: manifest.maxTokens, source: manifest.source ?? null };
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

async function embed(message, report) {
  if (!model) throw new LocalEmbedError('not-loaded', 'the model is not loaded');
  const vectors = [];
  for (let i = 0; i < message.texts.length; i++) {
    await nextTask();
    if (cancelled.has(message.id)) throw new DOMException('embedding cancelled', 'AbortError');
    const text = message.texts[i];
    if (typeof text !== 'string') throw new LocalEmbedError('invalid-input', `texts[${i}] is not a string`);
    try {
      vectors.push(new Float32Array(model.embed(text)));
    } catch (e) {
      throw new LocalEmbedError('inference-failed', `texts[${i}]: ${e.message}`);
    }
    report({ stage: 'embed', done: i + 1, total: message.texts.length });
  }
  return vectors;
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message.type === 'cancel') {
    cancelled.add(message.id);
    return;
  }
  const report = (progress) => self.postMessage({ type: 'progress', id: message.id, progress });
  try {
    const value = message.type === 'load' ? await load(message, report) : await embed(message, report);
    const transfer = Array.isArray(value) ? value.map((v) => v.buffer) : [];
    self.postMessage({ type: 'result', id: message.id, value }, transfer);
  } catch (e) {
    self.postMessage({ type: 'error', id: message.id, error: { name: e.name ?? 'Error', code: e.code ?? 'internal', message: e.message ?? String(e) } });
  } finally {
    cancelled.delete(message.id);
  }
};
