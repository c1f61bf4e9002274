// The docrag demo: a persistent collection in IndexedDB, documents added in the
// browser, questions answered with or without a model provider. Each part of the
// page is one module under ui/; this file opens the collection and wires them.
import { init, version, Collection } from './pkg/web.js';
import { errorView, count, replace } from './ui/dom.js';
import { setupUpload } from './ui/upload.js';
import { renderDocuments } from './ui/documents.js';
import { setupChunkBrowser } from './ui/chunks.js';
import { setupSettings } from './ui/settings.js';
import { setupChat } from './ui/chat.js';
import { setupSummary } from './ui/summary.js';

const COLLECTION = 'demo';
const $ = (id) => document.getElementById(id);
const status = $('status');

let collection = null;
const current = () => collection;

async function main() {
  await init();
  collection = await Collection.open(COLLECTION, {
    onChange: () => {
      renderList();
      browser.refresh();
    },
  });

  const settings = setupSettings($('settings-body'), {
    collection: current,
    async onProvider(options, remember, progress) {
      await collection.setProvider(options, { remember });
      summary.refresh();
      if (collection.provider?.embeddingModelId && collection.documents().length) {
        const n = await collection.embedMissing({ onProgress: (p) => progress(`Embedding stored documents: ${p.stage} ${p.done}/${p.total}`) });
        if (n) renderList();
      }
    },
  });

  const browser = setupChunkBrowser($('chunk-browser'), current);
  const openChunk = (docId, seq) => {
    browser.show(docId, seq);
    renderList();
  };

  const summary = setupSummary($('summary'), { collection: current, openChunk, onBusy: () => renderList() });

  function renderList() {
    const s = collection.stats();
    replace($('collection-stats'), s.documents ? `${count(s.documents, 'document')} · ${count(s.chunks, 'chunk')} · ${count(s.tokens, 'token')}` : '');
    renderDocuments($('documents'), collection.documents(), {
      selected: browser.current(),
      busy: summary.running(),
      onOpen: (docId) => openChunk(docId),
      onSummarize: (docId) => summary.summarize(docId),
      async onRemove(docId) {
        const doc = collection.documents().find((d) => d.docId === docId);
        try {
          await collection.remove(docId);
        } catch (err) {
          $('documents').prepend(errorView(err, `Could not remove ${doc?.title ?? docId}`));
          return;
        }
        if (browser.current() === docId) browser.show(null);
        else browser.refresh();
        renderList();
        await summary.forget(docId);
      },
    });
  }

  setupUpload({
    dropZone: $('drop'),
    input: $('files'),
    list: $('uploads'),
    add: async (file, onProgress) => {
      const info = await collection.addFile(file, { convert: { maxTokens: settings.values().maxTokens }, onProgress });
      renderList();
      if (!browser.current()) browser.show(info.docId);
      else browser.refresh();
      return info;
    },
  });

  setupChat($('chat'), {
    collection: current,
    openChunk,
    askOptions() {
      const v = settings.values();
      const options = { mode: v.mode, routing: v.routing, confidenceThreshold: v.confidenceThreshold, smallCollectionTokens: v.smallCollectionTokens };
      if (v.topK !== '') options.chunks = v.topK;
      return options;
    },
  });

  const first = collection.documents()[0];
  browser.show(first?.docId ?? null);
  renderList();
  replace(status, `docrag ${version()} · collection “${collection.name}” in ${collection.storage === 'indexeddb' ? 'IndexedDB (kept across reloads)' : 'memory'}`);
  document.body.dataset.ready = 'true';
}

main().catch((err) => {
  replace(status, errorView(err, 'The demo could not start'));
  document.body.dataset.ready = 'failed';
});
