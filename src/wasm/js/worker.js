// The Web Worker side of `WorkerCollection` (web.js): one Collection per worker,
// driven by messages, so parsing, chunking, token counting and indexing never run
// on the page's thread. IndexedDB and fetch work the same inside a worker.
//
// Messages in:  {type: 'call', call, method, args}   {type: 'abort', call}
// Messages out: {type: 'result', call, value}   {type: 'error', call, error}
//               (export's value is the Blob itself: structured clone passes it by reference)
//               {type: 'callback', call, name, args}   {type: 'change', change}
// Callback options cross as the marker CALLBACK and are called back by name;
// an AbortSignal crosses as SIGNAL and is aborted by an 'abort' message.
import { init, Collection } from './web.js';
import { prepareTokenizer } from './docrag.js';

const CALLBACK = '__docrag_callback__';
const SIGNAL = '__docrag_signal__';

let collection = null;
const controllers = new Map();

const PROVIDER_FN = '__docrag_provider_fn__';
let nextFn = 1;
/** Provider function calls waiting for the page: id -> {resolve, reject, push?}. */
const fnCalls = new Map();

/**
 * The page's embed/chat function as a function here: each call is sent to the page
 * (`fn-call`), its abort too (`fn-abort`); a chat reply streams back in pieces.
 */
function pageFunction(name) {
  return (arg, options = {}) => {
    const id = nextFn++;
    const signal = options.signal;
    const onAbort = () => self.postMessage({ type: 'fn-abort', id });
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    if (name === 'embed') {
      return new Promise((resolve, reject) => {
        fnCalls.set(id, { resolve: (v) => (done(), resolve(v)), reject: (e) => (done(), reject(e)) });
        self.postMessage({ type: 'fn-call', id, name, arg });
      });
    }
    // chat: pieces as they arrive, then the end (or an error).
    const queue = [];
    let wake = null;
    let finished = false;
    let failure = null;
    fnCalls.set(id, {
      push: (piece) => {
        queue.push(piece);
        wake?.();
      },
      resolve: (value) => {
        if (typeof value === 'string') queue.push(value);
        finished = true;
        done();
        wake?.();
      },
      reject: (e) => {
        failure = e;
        done();
        wake?.();
      },
    });
    self.postMessage({ type: 'fn-call', id, name, arg, model: options.model });
    return (async function* () {
      for (;;) {
        if (queue.length) yield queue.shift();
        else if (failure) throw failure;
        else if (finished) return;
        else await new Promise((r) => (wake = r));
      }
    })();
  };
}

/** A provider bag from the page with its function markers made live. */
function liveProvider(provider) {
  if (!provider || typeof provider !== 'object') return provider;
  const out = { ...provider };
  for (const name of ['embed', 'chat']) if (out[name] === PROVIDER_FN) out[name] = pageFunction(name);
  return out;
}

function fnMessage(msg) {
  const call = fnCalls.get(msg.id);
  if (!call) return;
  if (msg.type === 'fn-chunk') {
    call.push?.(msg.chunk);
    return;
  }
  fnCalls.delete(msg.id);
  if (msg.type === 'fn-result') call.resolve(msg.value);
  else {
    const { name, message, code } = msg.error ?? {};
    call.reject(Object.assign(new Error(message), name === 'AbortError' ? { name } : {}, code ? { code } : {}));
  }
}

/** Replaces the markers in an options bag with live callbacks and a signal. */
function hydrate(call, options) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return options;
  const out = { ...options };
  for (const [key, value] of Object.entries(options)) {
    if (value === CALLBACK) out[key] = (...args) => self.postMessage({ type: 'callback', call, name: key, args });
    if (value === SIGNAL) {
      const controller = new AbortController();
      controllers.set(call, controller);
      out.signal = controller.signal;
    }
  }
  return out;
}

/** An error as a plain object (custom properties such as `code` do not survive cloning). */
function plainError(e) {
  const out = { name: e?.name ?? 'Error', message: String(e?.message ?? e) };
  if (e && typeof e === 'object') {
    for (const [k, v] of Object.entries(e)) if (['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  }
  return out;
}

const SYNC = new Set(['documents', 'chunks', 'stats', 'damaged', 'getSetting']);
const ASYNC = new Set(['addFile', 'remove', 'ask', 'search', 'summarize', 'setProvider', 'embedMissing', 'export', 'setSetting', 'refresh']);

async function dispatch(call, method, args) {
  if (method === 'open') {
    const [name, options, wasmUrl, pdfjs] = args;
    const live = hydrate(call, options) ?? {};
    if (live.provider !== undefined) live.provider = liveProvider(live.provider);
    const loading = live.onProgress ? (p) => p.stage !== 'done' && live.onProgress(p) : undefined;
    await init(wasmUrl ?? undefined, { onProgress: loading, signal: live.signal, ...(pdfjs ? { pdfjs } : {}) });
    const opened = await Collection.open(name, { ...live, onChange: (change) => self.postMessage({ type: 'change', change }) });
    collection?.close();
    collection = opened;
    // The o200k tables take a few milliseconds to build on first use: build them now,
    // while the page has no file for this worker yet.
    setTimeout(() => {
      try {
        prepareTokenizer();
      } catch {}
    }, 0);
    return { name: opened.name, storage: opened.storage, provider: opened.provider };
  }
  if (!collection) throw Object.assign(new Error('the collection is not open'), { name: 'DocragError', code: 'storage-closed' });
  if (method === 'provider') return collection.provider;
  if (method === 'close') {
    collection.close();
    collection = null;
    return undefined;
  }
  if (SYNC.has(method)) return collection[method](...args);
  if (method === 'setProvider') return collection.setProvider(liveProvider(args[0]), args[1]);
  if (ASYNC.has(method)) {
    // Only these methods' options bags carry callback and signal markers.
    const at = { addFile: 1, ask: 1, search: 1, summarize: 1, embedMissing: 0, export: 0 }[method] ?? -1;
    const hydrated = args.map((a, i) => (i === at ? hydrate(call, a) : a));
    return collection[method](...hydrated);
  }
  throw Object.assign(new Error(`unknown method ${method}`), { name: 'DocragError', code: 'invalid-input' });
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg?.type === 'abort') {
    controllers.get(msg.call)?.abort();
    return;
  }
  if (msg?.type === 'fn-result' || msg?.type === 'fn-error' || msg?.type === 'fn-chunk') {
    fnMessage(msg);
    return;
  }
  if (msg?.type !== 'call') return;
  try {
    const value = await dispatch(msg.call, msg.method, msg.args ?? []);
    self.postMessage({ type: 'result', call: msg.call, value });
  } catch (e) {
    self.postMessage({ type: 'error', call: msg.call, error: plainError(e) });
  } finally {
    controllers.delete(msg.call);
  }
};
