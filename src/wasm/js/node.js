// Node entry: loads docrag_bg.wasm from disk synchronously at import, so
// `import { convert } from 'docrag'` is usable at once.
import { readFileSync } from 'node:fs';
import { initSync, convert as wasmConvert, convertAsync as wasmConvertAsync, version, systemMessage, __setErrorClass, __setPdfSource } from './docrag.js';
import { fileURLToPath } from 'node:url';
import { readPdf, setPdfCMaps } from './pdf.js';
import { DocragError, abortError, docragError, isInitOptions } from './shared.js';

export { SYSTEM_MESSAGE, ROUTING_PROMPT, INDEX_ANSWER_PROMPT } from './constants.js';
export { DocragError, isDocragError, isAbortError } from './shared.js';
export { version, systemMessage };
export { countTokens } from './docrag.js';
export { VectorIndex, Bm25Index } from './docrag.js';
export { Enricher, Expansion } from './docrag.js';
// No IndexedDB in Node: `Collection.open` keeps the collection in memory
// (storage "auto" or "memory"); nothing persists after the process exits.
export { Collection } from './docrag.js';
export { Provider } from './docrag.js';

const wasmUrl = new URL('./docrag_bg.wasm', import.meta.url);
try {
  initSync({ module: readFileSync(wasmUrl) });
  __setErrorClass(DocragError);
  __setPdfSource(readPdf);
} catch (e) {
  throw docragError('init-failed', `could not load the docrag wasm module from ${wasmUrl.href}: ${e?.message ?? e}`, e);
}

// pdf.js's CMaps for CJK fonts that are not embedded, read from the installed
// pdfjs-dist (a path: pdf.js reads them with fs in Node).
try {
  setPdfCMaps(fileURLToPath(new URL('../../cmaps/', import.meta.resolve('pdfjs-dist/legacy/build/pdf.min.mjs'))));
} catch {}

/**
 * Already initialized in Node; kept so code written for browsers runs unchanged
 * (`onProgress` hears `done`, an aborted `signal` rejects with an AbortError).
 */
export function init(input, options) {
  const bag = options ?? (isInitOptions(input) ? input : {});
  if (bag.signal?.aborted) return Promise.reject(abortError());
  try {
    bag.onProgress?.({ stage: 'done', done: 1, total: 1 });
  } catch {}
  return Promise.resolve();
}

/** Converts a document into chunks; see index.d.ts. */
export function convert(input, options) {
  return wasmConvert(input, options);
}

/** Converts a document, PDFs too, into chunks; see index.d.ts. */
export function convertAsync(input, options) {
  return wasmConvertAsync(input, options);
}

/** Browsers only: Node has no module Web Workers or IndexedDB; use `Collection`. */
export class WorkerCollection {
  static open() {
    return Promise.reject(
      docragError('storage-unavailable', 'WorkerCollection runs in browsers only; in Node use Collection (in memory)'),
    );
  }
}
