// Browser (and default) entry: the wasm module loads asynchronously from
// `new URL('docrag_bg.wasm', import.meta.url)`, which bundlers (Vite, esbuild,
// webpack) see statically. Call `await init()` once before `convert`.
import initWasm, {
  convert as wasmConvert,
  VectorIndex as WasmVectorIndex,
  Bm25Index as WasmBm25Index,
  Enricher as WasmEnricher,
  Collection as WasmCollection,
  Provider as WasmProvider,
} from './docrag.js';
import { SYSTEM_MESSAGE, VERSION } from './constants.js';
import { docragError, describeSource } from './shared.js';

export { SYSTEM_MESSAGE, ROUTING_PROMPT, INDEX_ANSWER_PROMPT } from './constants.js';
export { Expansion } from './docrag.js';
export { isDocragError } from './shared.js';

let ready = false;
let pending = null;

/**
 * Loads the wasm module once. `input` (URL, string URL, Response, bytes or a
 * WebAssembly.Module) overrides the default location. Idempotent: later calls return
 * the same promise; after a failure the next call tries again.
 */
export function init(input) {
  if (ready) return Promise.resolve();
  if (pending) return pending;
  const source = input ?? new URL('docrag_bg.wasm', import.meta.url);
  pending = initWasm({ module_or_path: source }).then(
    () => {
      ready = true;
    },
    (e) => {
      pending = null;
      throw docragError(
        'init-failed',
        `could not load the docrag wasm module from ${describeSource(source)}: ${e?.message ?? e}`,
        e,
      );
    },
  );
  return pending;
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
    await init();
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
