// Browser (and default) entry: the wasm module loads asynchronously from
// `new URL('docrag_bg.wasm', import.meta.url)`, which bundlers (Vite, esbuild,
// webpack) see statically. Call `await init()` once before `convert`.
import initWasm, {
  convert as wasmConvert,
  convertAsync as wasmConvertAsync,
  countTokens as wasmCountTokens,
  prepareTokenizer,
  VectorIndex as WasmVectorIndex,
  Bm25Index as WasmBm25Index,
  Enricher as WasmEnricher,
  Collection as WasmCollection,
  Provider as WasmProvider,
  __setErrorClass,
  __setPdfSource,
} from './docrag.js';
import { readPdf, setPdfjsBase, pdfjsBase } from './pdf.js';
import { SYSTEM_MESSAGE, VERSION } from './constants.js';
import { DocragError, abortError, docragError, describeSource, isAbortSignal, isInitOptions } from './shared.js';

export { SYSTEM_MESSAGE, ROUTING_PROMPT, INDEX_ANSWER_PROMPT } from './constants.js';
export { Expansion } from './docrag.js';
export { DocragError, isDocragError, isAbortError } from './shared.js';

let ready = false;
let pending = null;

/** Rejects when `signal` aborts, with the platform's AbortError. */
function whenAborted(signal) {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(abortError());
    else signal.addEventListener('abort', () => reject(abortError()), { once: true });
  });
}

/**
 * `source` as a Response whose body reports its bytes to `onProgress` as they arrive
 * (`download` stage), so the module still compiles while it streams in.
 */
async function fetchWithProgress(source, onProgress, signal) {
  const response = await fetch(source, { signal });
  if (!response.ok || !response.body) return response;
  const total = Number(response.headers.get('Content-Length')) || 0;
  let done = 0;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { value, done: end } = await reader.read();
      if (end) {
        controller.close();
        return;
      }
      done += value.byteLength;
      try {
        onProgress({ stage: 'download', done, total });
      } catch {}
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const type = response.headers.get('Content-Type') ?? 'application/wasm';
  return new Response(body, { status: response.status, headers: { 'Content-Type': type } });
}

function report(onProgress, stage, done, total) {
  try {
    onProgress?.({ stage, done, total });
  } catch {}
}

/**
 * Loads the wasm module once. `input` (URL, string URL, Response, bytes or a
 * WebAssembly.Module) overrides the default location; `options.onProgress` receives
 * `{stage: 'download' | 'compile' | 'done', done, total}` (download in bytes, total 0
 * when the server sends no length) and `options.signal` rejects the call with an
 * `AbortError` (and stops the download when this call started it). Also
 * `init({onProgress, signal})`. Idempotent: later calls share the load; after a
 * failure the next call tries again.
 */
export function init(input, options) {
  if (isInitOptions(input) && options === undefined) {
    options = input;
    input = undefined;
  }
  const { onProgress, signal, pdfjs } = options ?? {};
  if (pdfjs !== undefined) {
    try {
      setPdfjsBase(pdfjs);
    } catch {
      return Promise.reject(new DocragError('invalid-option', 'invalid option pdfjs: expected a URL', { option: 'pdfjs' }));
    }
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    return Promise.reject(new DocragError('invalid-option', 'invalid option onProgress: expected a function', { option: 'onProgress' }));
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    return Promise.reject(new DocragError('invalid-option', 'invalid option signal: expected an AbortSignal', { option: 'signal' }));
  }
  if (signal?.aborted) return Promise.reject(abortError());
  const withSignal = (p) => (signal ? Promise.race([p, whenAborted(signal)]) : p);
  if (ready) {
    report(onProgress, 'done', 1, 1);
    return Promise.resolve();
  }
  if (pending) return withSignal(pending.then(() => report(onProgress, 'done', 1, 1)));
  const source = input ?? new URL('docrag_bg.wasm', import.meta.url);
  const streamed = onProgress && (typeof source === 'string' || source instanceof URL);
  const module = streamed ? fetchWithProgress(source, onProgress, signal) : Promise.resolve(source);
  pending = module
    .then((m) => {
      report(onProgress, 'compile', 0, 1);
      return initWasm({ module_or_path: m });
    })
    .then(
    () => {
      __setErrorClass(DocragError);
      __setPdfSource(readPdf);
      ready = true;
      report(onProgress, 'compile', 1, 1);
      report(onProgress, 'done', 1, 1);
      // The tokenizer's tables (tens of milliseconds) are built while the page is
      // idle, so a file dropped later does not wait for them.
      const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 0));
      idle(() => {
        try {
          prepareTokenizer();
        } catch {}
      });
    },
    (e) => {
      pending = null;
      if (e?.name === 'AbortError') throw abortError();
      throw docragError(
        'init-failed',
        `could not load the docrag wasm module from ${describeSource(source)}: ${e?.message ?? e}`,
        e,
      );
    },
  );
  return withSignal(pending);
}

function assertReady(what) {
  if (!ready) {
    throw docragError(
      'not-initialized',
      `docrag is not initialized: call \`await init()\` once before ${what} (in the browser the wasm module loads asynchronously)`,
    );
  }
}

/** Converts a document into chunks; see index.d.ts. */
export function convert(input, options) {
  assertReady('convert()');
  return wasmConvert(input, options);
}

/** Converts a document, PDFs too, into chunks; see index.d.ts. */
export async function convertAsync(input, options) {
  assertReady('convertAsync()');
  return wasmConvertAsync(input, options);
}

/** Exact o200k_base token count of `text`; see index.d.ts. Needs `await init()` first. */
export function countTokens(text) {
  assertReady('countTokens()');
  return wasmCountTokens(text);
}

/** Cosine search over embeddings; see index.d.ts. Needs `await init()` first. */
export class VectorIndex extends WasmVectorIndex {
  constructor(dim) {
    assertReady('new VectorIndex()');
    super(dim);
  }

  static fromBytes(bytes) {
    assertReady('VectorIndex.fromBytes()');
    return WasmVectorIndex.fromBytes(bytes);
  }

  static simd() {
    assertReady('VectorIndex.simd()');
    return WasmVectorIndex.simd();
  }
}

/** The built-in BM25 lexical index; see index.d.ts. Needs `await init()` first. */
export class Bm25Index extends WasmBm25Index {
  constructor() {
    assertReady('new Bm25Index()');
    super();
  }

  static fromBytes(bytes) {
    assertReady('Bm25Index.fromBytes()');
    return WasmBm25Index.fromBytes(bytes);
  }
}

/** One document's enrichment engine; see index.d.ts. Needs `await init()` first. */
export class Enricher extends WasmEnricher {
  constructor(records, labels) {
    assertReady('new Enricher()');
    super(records, labels);
  }
}

/** The package version. */
export function version() {
  return VERSION;
}

/** The system message that tells a language model how to read docrag's Markdown. */
export function systemMessage() {
  return SYSTEM_MESSAGE;
}

/**
 * A named, persistent document collection (IndexedDB); see index.d.ts. Its async
 * entry points load the wasm module on first use (`init()` with the default URL), so
 * `await Collection.open(name)` works without an explicit `init()`.
 */
export class Collection extends WasmCollection {
  static async open(name, options) {
    // The first open on a page loads the module: its download and compile are part
    // of the open's progress, and its signal stops them.
    const onProgress = options?.onProgress;
    const loading = typeof onProgress === 'function' ? (p) => p.stage !== 'done' && onProgress(p) : undefined;
    await init(undefined, { onProgress: loading, signal: options?.signal });
    return WasmCollection.open(name, options);
  }

  static async deleteStored(name) {
    await init();
    return WasmCollection.deleteStored(name);
  }
}

/** An embedding and chat client; see index.d.ts. Needs `await init()` first. */
export class Provider extends WasmProvider {
  constructor(options) {
    assertReady('new Provider()');
    super(options);
  }
}

const CALLBACK = '__docrag_callback__';
const SIGNAL = '__docrag_signal__';

/** An options bag made cloneable: functions become markers, the signal a marker. */
function dehydrate(options) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return { bag: options, callbacks: {}, signal: undefined };
  const bag = {};
  const callbacks = {};
  let signal;
  for (const [key, value] of Object.entries(options)) {
    if (key === 'signal' && value !== undefined) {
      signal = value;
      bag.signal = SIGNAL;
    } else if (typeof value === 'function') {
      callbacks[key] = value;
      bag[key] = CALLBACK;
    } else {
      bag[key] = value;
    }
  }
  return { bag, callbacks, signal };
}

/** The marker an embed/chat function of a provider crosses to the worker as. */
const PROVIDER_FN = '__docrag_provider_fn__';

/**
 * A provider's embed/chat functions stay on the page: the provider crosses with
 * markers, and the worker calls them back by message (`fn-call`), with aborts
 * (`fn-abort`) and streamed chat replies (`fn-chunk`) crossing too. Returns the
 * cloneable provider and the functions.
 */
function splitProvider(provider) {
  if (!provider || typeof provider !== 'object') return { sent: provider, fns: null };
  const fns = {};
  const sent = { ...provider };
  for (const name of ['embed', 'chat']) {
    if (typeof provider[name] === 'function') {
      fns[name] = provider[name];
      sent[name] = PROVIDER_FN;
    }
  }
  return { sent, fns: Object.keys(fns).length ? fns : null };
}

/**
 * The same collection as `Collection`, run in a Web Worker so parsing, chunking and
 * indexing never block the page; see index.d.ts. Every method returns a Promise.
 */
export class WorkerCollection {
  #worker;
  #next = 1;
  #pending = new Map();
  #onChange;
  #closed = false;
  /** The provider's embed/chat functions, called on the worker's behalf. */
  #fns = null;
  /** Function calls from the worker in flight: id -> AbortController. */
  #fnCalls = new Map();

  constructor(worker, onChange, where) {
    this.#worker = worker;
    this.#onChange = onChange;
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      // A script that never loaded (a bundler that did not emit docrag/worker.js, a
      // wrong workerUrl) is a setup problem, not a bug: init-failed, with what to do.
      const why = event.message || `the worker script ${where} could not be loaded or failed to start (a bundler that does not follow new URL('./worker.js', import.meta.url) needs docrag/worker.js as an entry point of its own, or pass { workerUrl })`;
      const err = docragError('init-failed', `the docrag worker failed: ${why}`);
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
  }

  /**
   * Starts a worker and opens collection `name` in it. `workerUrl` overrides where
   * the worker script is (default: worker.js beside this file); `wasmUrl` where the
   * worker loads the .wasm from; `pdfjsUrl` where it imports pdf.js from (default:
   * `init({ pdfjs })`'s, else the bare `pdfjs-dist` import).
   */
  static async open(name, options = {}, { workerUrl, wasmUrl, pdfjsUrl } = {}) {
    if (typeof name !== 'string') throw docragError('invalid-input', `the collection name must be a string, got ${typeof name}`);
    const { onChange, ...rest } = options ?? {};
    const { sent, fns } = splitProvider(rest.provider);
    if (rest.provider !== undefined) rest.provider = sent;
    if (onChange !== undefined && typeof onChange !== 'function') {
      throw Object.assign(docragError('invalid-option', 'invalid option onChange: expected a function'), { option: 'onChange' });
    }
    const worker = workerUrl
      ? new Worker(workerUrl, { type: 'module' })
      : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const wc = new WorkerCollection(worker, onChange, String(workerUrl ?? 'worker.js'));
    wc.#fns = fns;
    try {
      // Index 1, the options bag: its onProgress and signal cross like addFile's.
      const info = await wc.#call('open', [name, rest, wasmUrl === undefined ? undefined : String(wasmUrl), pdfjsUrl === undefined ? (pdfjsBase() ?? undefined) : new URL(String(pdfjsUrl), globalThis.location?.href).href], 1);
      wc.name = info.name;
      wc.storage = info.storage;
    } catch (e) {
      worker.terminate();
      throw e;
    }
    return wc;
  }

  /** Runs a provider function the worker asked for and posts its result back. */
  async #runFn(msg) {
    const controller = new AbortController();
    this.#fnCalls.set(msg.id, controller);
    const post = (m) => this.#worker.postMessage({ ...m, id: msg.id });
    try {
      const fn = this.#fns?.[msg.name];
      if (!fn) throw docragError('provider-function', `the provider has no ${msg.name} function on the page`);
      const options = { signal: controller.signal };
      if (msg.model !== undefined) options.model = msg.model;
      const value = await fn(msg.arg, options);
      if (msg.name === 'chat' && value && typeof value !== 'string' && typeof value[Symbol.asyncIterator] === 'function') {
        for await (const piece of value) post({ type: 'fn-chunk', chunk: String(piece) });
        post({ type: 'fn-result', value: undefined });
      } else {
        post({ type: 'fn-result', value });
      }
    } catch (e) {
      post({ type: 'fn-error', error: { name: e?.name ?? 'Error', message: String(e?.message ?? e), code: e?.code } });
    } finally {
      this.#fnCalls.delete(msg.id);
    }
  }

  #receive(msg) {
    if (msg?.type === 'fn-call') {
      this.#runFn(msg);
      return;
    }
    if (msg?.type === 'fn-abort') {
      this.#fnCalls.get(msg.id)?.abort();
      return;
    }
    if (msg?.type === 'change') {
      try {
        this.#onChange?.(msg.change);
      } catch {}
      return;
    }
    const p = this.#pending.get(msg?.call);
    if (!p) return;
    if (msg.type === 'callback') {
      try {
        p.callbacks[msg.name]?.(...msg.args);
      } catch {}
      return;
    }
    this.#pending.delete(msg.call);
    p.signal?.removeEventListener('abort', p.onAbort);
    if (msg.type === 'result') p.resolve(msg.value);
    else {
      const { name, message, code, ...rest } = msg.error ?? {};
      let err;
      if (name === 'AbortError') err = abortError(message);
      else if (name === 'DocragError') err = Object.assign(docragError(code ?? 'internal', message), rest);
      else err = Object.assign(new Error(message), rest);
      p.reject(err);
    }
  }

  /** Sends `method(...args)`; `args[optionsAt]` (if any) is the options bag whose callbacks and signal cross. */
  #call(method, args, optionsAt = -1) {
    if (this.#closed) return Promise.reject(docragError('storage-closed', 'this WorkerCollection was closed; open the collection again'));
    const call = this.#next++;
    const { bag, callbacks, signal } = optionsAt >= 0 ? dehydrate(args[optionsAt]) : { bag: undefined, callbacks: {} };
    if (signal !== undefined && !isAbortSignal(signal)) {
      return Promise.reject(Object.assign(docragError('invalid-option', 'invalid option signal: expected an AbortSignal'), { option: 'signal' }));
    }
    const sent = optionsAt >= 0 ? args.map((a, i) => (i === optionsAt ? bag : a)) : args;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const onAbort = () => this.#worker.postMessage({ type: 'abort', call });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(call, { resolve, reject, callbacks, signal, onAbort });
      try {
        this.#worker.postMessage({ type: 'call', call, method, args: sent });
      } catch (e) {
        // DataCloneError: a Promise, a function inside a nested option, a DOM node...
        this.#pending.delete(call);
        signal?.removeEventListener('abort', onAbort);
        reject(docragError('invalid-input', `${method}(): an argument cannot be sent to the worker (${e?.message ?? e}); pass a File, Blob, Uint8Array, ArrayBuffer or string and plain options`, e));
      }
    });
  }

  documents() { return this.#call('documents', []); }
  chunks(docId) { return this.#call('chunks', [docId]); }
  stats() { return this.#call('stats', []); }
  damaged() { return this.#call('damaged', []); }
  provider() { return this.#call('provider', []); }
  getSetting(key) { return this.#call('getSetting', [key]); }
  addFile(file, options) { return this.#call('addFile', [file, options ?? {}], 1); }
  remove(docId) { return this.#call('remove', [docId]); }
  ask(question, options) { return this.#call('ask', [question, options ?? {}], 1); }
  search(question, options) { return this.#call('search', [question, options ?? {}], 1); }
  summarize(docIds, options) { return this.#call('summarize', [docIds ?? null, options ?? {}], 1); }
  setProvider(provider, options) {
    const { sent, fns } = splitProvider(provider);
    return this.#call('setProvider', [sent, options ?? {}]).then((value) => {
      this.#fns = fns;
      return value;
    });
  }
  embedMissing(options) { return this.#call('embedMissing', [options ?? {}], 0); }
  /** The collection as `docrag.chunk.v1` JSONL: the worker writes the Blob and posts it (Blobs cross threads without a copy of their bytes). */
  export(options) { return this.#call('export', [options ?? {}], 0); }
  setSetting(key, value) { return this.#call('setSetting', [key, value]); }
  refresh() { return this.#call('refresh', []); }

  /** Closes the collection and ends the worker. */
  async close() {
    if (this.#closed) return;
    try {
      await this.#call('close', []);
    } finally {
      this.#closed = true;
      this.#worker.terminate();
      for (const p of this.#pending.values()) p.reject(docragError('storage-closed', 'the worker collection was closed'));
      this.#pending.clear();
    }
  }
}
