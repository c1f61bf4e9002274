// docrag-local-embed: a sentence-embedding model that runs in a Web Worker of the
// page, for docrag's hybrid retrieval with nothing sent over the network. See
// README.md; types in index.d.ts.

/** The error of a failed load or embedding: `code` names what went wrong. */
export class LocalEmbedError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'LocalEmbedError';
    this.code = code;
  }
}

function abortError(signal) {
  return signal?.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');
}

/** A loaded model in its worker. Create one with `loadLocalModel`. */
export class LocalEmbedder {
  #worker;
  #pending = new Map();
  #next = 1;
  #closed = false;
  /** The `worker-failed` error once the worker has crashed: every later call rejects with it. */
  #broken = null;

  /** @internal */
  constructor(worker, workerUrl) {
    this.#worker = worker;
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      // Also after a successful load: without this a crashed worker left the embedder
      // open, and every later call waited forever for an answer.
      this.#crash(new LocalEmbedError('worker-failed', `the worker ${workerUrl} failed: ${event.message ?? 'could not start (a missing or non-JavaScript worker.js, or one of its imports)'}`));
    };
    /** Embeds `texts` in order; a docrag `EmbedFunction` (bound, so it can be passed alone). */
    this.embed = this.embed.bind(this);
  }

  #receive(message) {
    const call = this.#pending.get(message.id);
    if (!call) return;
    if (message.type === 'progress') {
      // The caller's callback: what it throws is its own, never the embedder's
      // message handler's (an uncaught error there was reported as the page's).
      try {
        call.onProgress?.(message.progress);
      } catch {}
      return;
    }
    this.#pending.delete(message.id);
    call.cleanup();
    if (message.type === 'result') call.resolve(message.value);
    else if (message.error.name === 'AbortError') call.reject(new DOMException(message.error.message, 'AbortError'));
    else if (message.error.code === 'worker-failed') {
      // The WebAssembly trapped: the worker says it is unusable. Stop it (a trap from
      // running out of memory leaves gigabytes allocated) and fail every other call.
      const error = new LocalEmbedError('worker-failed', message.error.message);
      call.reject(error);
      this.#crash(error);
    } else call.reject(new LocalEmbedError(message.error.code, message.error.message));
  }

  #crash(error) {
    this.#broken ??= error;
    this.#worker.terminate();
    this.#fail(error);
  }

  #fail(error) {
    for (const call of this.#pending.values()) {
      call.cleanup();
      call.reject(error);
    }
    this.#pending.clear();
  }

  /** @internal */
  call(message, { signal, onProgress, onAbort } = {}) {
    if (this.#closed) return Promise.reject(new LocalEmbedError('closed', 'the local model was closed'));
    if (this.#broken) return Promise.reject(this.#broken);
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const abort = () => {
        this.#pending.delete(id);
        onAbort?.();
        this.#worker.postMessage({ type: 'cancel', id });
        reject(abortError(signal));
      };
      signal?.addEventListener('abort', abort, { once: true });
      const cleanup = () => signal?.removeEventListener('abort', abort);
      this.#pending.set(id, { resolve, reject, onProgress, cleanup });
      this.#worker.postMessage({ ...message, id });
    });
  }

  /**
   * Unit-length vectors of `texts`, one per text in order (`dimension` components
   * each; a text longer than `maxTokens` WordPiece tokens is embedded from its start).
   * `signal` cancels between texts (rejects with the signal's reason, an `AbortError`
   * unless it was given another); `onProgress(done, total)` after each text.
   */
  async embed(texts, options = {}) {
    if (!Array.isArray(texts)) throw new LocalEmbedError('invalid-input', 'texts must be an array of strings');
    // Checked here too, not only in the worker: a symbol or a function cannot be
    // posted (postMessage threw a DataCloneError and left the call pending), and a
    // bad item at the end would otherwise be found after embedding all before it.
    const bad = texts.findIndex((t) => typeof t !== 'string');
    if (bad >= 0) throw new LocalEmbedError('invalid-input', `texts[${bad}] is not a string`);
    if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
      throw new LocalEmbedError('invalid-option', 'options.onProgress must be a function');
    }
    const onProgress = options.onProgress && ((p) => options.onProgress(p.done, p.total));
    return this.call({ type: 'embed', texts }, { signal: options.signal, onProgress });
  }

  /**
   * docrag provider options for this model: `new Provider(local.providerOptions())`
   * or `collection.setProvider(local.providerOptions())`; chunk vectors are stored under
   * the model id `function:local-<name>`.
   */
  providerOptions() {
    return { kind: 'function', embeddingModel: `local-${this.name}`, embed: this.embed, batchSize: 8 };
  }

  /** Stops the worker; calls in progress reject with code `closed`. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.terminate();
    this.#fail(new LocalEmbedError('closed', 'the local model was closed'));
  }
}

/** `value` resolved against the page's address; `invalid-option` when it is not a URL. */
function url(name, value) {
  try {
    return new URL(value, globalThis.location?.href);
  } catch {
    throw new LocalEmbedError('invalid-option', `options.${name} is not a URL: ${String(value)}`);
  }
}

/**
 * Starts the worker and loads the model: `model.json`, the weights, `tokenizer.json`
 * and `config.json` from `modelUrl` (default: the `model/` folder beside this file),
 * the WebAssembly from `wasmUrl` (default: beside the worker). Nothing else is fetched.
 *
 * `onProgress` receives `{stage: 'manifest' | 'compile' | 'download' | 'load' |
 * 'ready'}`, with `{file, loaded, total}` (bytes) for downloads. `signal` cancels
 * the load and stops the worker (rejects with an `AbortError`).
 *
 * @throws {LocalEmbedError} `invalid-option` (`modelUrl` or `wasmUrl` not a URL,
 * `onProgress` not a function), `fetch-failed` (a file missing or the server down),
 * `bad-model` (files that are not a model this package runs), `worker-failed` (the
 * worker or its WebAssembly could not start).
 */
export async function loadLocalModel(options = {}) {
  const { signal, onProgress } = options;
  if (signal?.aborted) throw abortError(signal);
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new LocalEmbedError('invalid-option', 'options.onProgress must be a function');
  }
  const workerUrl = options.workerUrl ?? new URL('./worker.js', import.meta.url);
  const modelUrl = url('modelUrl', options.modelUrl ?? new URL('./model/', import.meta.url));
  const wasmUrl = options.wasmUrl === undefined ? undefined : String(url('wasmUrl', options.wasmUrl));
  let worker;
  try {
    worker = new Worker(workerUrl, { type: 'module', name: 'docrag-local-embed' });
  } catch (e) {
    // A worker URL of another origin throws a SecurityError right away.
    throw new LocalEmbedError('worker-failed', `the worker could not be created from ${workerUrl} (${e.message})`);
  }
  const embedder = new LocalEmbedder(worker, String(workerUrl));
  try {
    const info = await embedder.call(
      { type: 'load', modelUrl: String(modelUrl), wasmUrl },
      { signal, onProgress, onAbort: () => embedder.close() },
    );
    Object.assign(embedder, info);
    return embedder;
  } catch (e) {
    embedder.close();
    throw e;
  }
}
