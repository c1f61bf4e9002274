// The open collection behind one asynchronous API, and the last state read from it.
// A WorkerCollection (the collection in a Web Worker, so converting a large file never
// freezes the page) when the browser has Worker; Collection on the page's thread as
// the fallback, wrapped so that every method returns a Promise as well. The page's
// modules draw from the snapshot (`documents`, `stats`, `provider`), which `sync()`
// rereads after every change.
import { Collection, WorkerCollection, init } from '../pkg/web.js';

/**
 * pdf.js's legacy build, served beside the page (`make demo` copies it from
 * node_modules/pdfjs-dist): a page without a bundler tells docrag where it is.
 */
const PDFJS = new URL('../vendor/pdfjs/', import.meta.url);

/** The page-thread Collection with WorkerCollection's shape (every method async). */
function onPage(c) {
  return {
    name: c.name,
    storage: c.storage,
    documents: async () => c.documents(),
    chunks: async (docId) => c.chunks(docId),
    stats: async () => c.stats(),
    provider: async () => c.provider,
    getSetting: async (key) => c.getSetting(key),
    setSetting: (key, value) => c.setSetting(key, value),
    addFile: (file, options) => c.addFile(file, options),
    remove: (docId) => c.remove(docId),
    ask: (question, options) => c.ask(question, options),
    summarize: (docIds, options) => c.summarize(docIds, options),
    setProvider: (provider, options) => c.setProvider(provider, options),
    embedMissing: (options) => c.embedMissing(options),
    export: (options) => c.export(options),
    refresh: () => c.refresh(),
    close: async () => c.close(),
  };
}

/**
 * Opens collection `name`. `thread`: 'worker' (default when `Worker` exists) or
 * 'page'. A worker that cannot start (a browser without module workers: code
 * `internal`) falls back to the page's thread; any other error is thrown.
 *
 * Returns `{ api, thread, documents, stats, provider, sync() }`: `api` has
 * WorkerCollection's methods, `thread` says where conversion runs, the other fields
 * are what the last `sync()` read.
 */
export async function openStore(name, { onChange, onProgress, thread } = {}) {
  let api = null;
  let where = 'page';
  if ((thread ?? 'worker') === 'worker' && typeof Worker === 'function') {
    try {
      api = await WorkerCollection.open(name, { onChange, onProgress }, { pdfjsUrl: PDFJS });
      where = 'worker';
    } catch (err) {
      if (err?.code !== 'init-failed') throw err;
    }
  }
  if (!api) {
    await init({ pdfjs: PDFJS });
    api = onPage(await Collection.open(name, { onChange, onProgress }));
  }

  const store = {
    api,
    thread: where,
    documents: [],
    stats: { documents: 0, chunks: 0, tokens: 0, embeddingModels: [] },
    provider: null,
    sync,
  };
  // Overlapping calls share one read; a call made while one runs reads again after it.
  let running = null;
  let again = false;
  async function read() {
    const [documents, stats, provider] = await Promise.all([api.documents(), api.stats(), api.provider()]);
    Object.assign(store, { documents, stats, provider });
  }
  async function sync() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await read();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }
  await sync();
  return store;
}

/** The documents of `store` without vectors of the provider's embedding model (none without one). */
export function unembedded(store) {
  const model = store.provider?.embeddingModelId;
  if (!model) return [];
  return store.documents.filter((d) => !d.embeddingModels.includes(model));
}
