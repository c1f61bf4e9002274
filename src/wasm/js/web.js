// Browser (and default) entry: the wasm module loads asynchronously from
// `new URL('docrag_bg.wasm', import.meta.url)`, which bundlers (Vite, esbuild,
// webpack) see statically. Call `await init()` once before `convert`.
import initWasm, { convert as wasmConvert } from './docrag.js';
import { SYSTEM_MESSAGE, VERSION } from './constants.js';
import { docragError, describeSource } from './shared.js';

export { SYSTEM_MESSAGE } from './constants.js';
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

/** Converts a document into chunks; see index.d.ts. */
export function convert(input, options) {
  if (!ready) {
    throw docragError(
      'not-initialized',
      'docrag is not initialized: call `await init()` once before convert() (in the browser the wasm module loads asynchronously)',
    );
  }
  return wasmConvert(input, options);
}

/** The package version. */
export function version() {
  return VERSION;
}

/** The system message that tells a language model how to read docrag's Markdown. */
export function systemMessage() {
  return SYSTEM_MESSAGE;
}
