// The docrag demo: a persistent collection in IndexedDB, documents added in the
// browser, questions answered with or without a model provider. Each part of the
// page is one module under ui/; this file opens the collection and wires them.
// The collection runs in a Web Worker (ui/store.js), so converting a large file
// leaves the page responsive; `?thread=page` runs it on the page's thread instead.
import { version } from './pkg/web.js';
import { el, errorView, count, replace } from './ui/dom.js';
import { openStore } from './ui/store.js';
import { setupUpload } from './ui/upload.js';
import { renderDocuments } from './ui/documents.js';
import { setupChunkBrowser } from './ui/chunks.js';
import { setupSettings } from './ui/settings.js';
import { setupChat, HISTORY_KEY } from './ui/chat.js';
import { setupSummary, STORE_KEY as SUMMARIES_KEY } from './ui/summary.js';
import { setupExport } from './ui/export.js';

const COLLECTION = 'demo';
const $ = (id) => document.getElementById(id);
const status = $('status');

/** The status line while docrag loads: the module's download as a bar, then the steps. */
function showLoading(p) {
  const mb = (n) => (n / 1e6).toFixed(1);
  const bar = $('load-progress') ?? el('progress', { id: 'load-progress', max: 1, value: 0, ariaLabel: 'Loading docrag' });
  let text = 'Loading docrag…';
  if (p.stage === 'download') {
    bar.value = p.total ? p.done / p.total : 0;
    if (!p.total) bar.removeAttribute('value');
    text = p.total ? `Downloading docrag: ${mb(p.done)} of ${mb(p.total)} MB` : `Downloading docrag: ${mb(p.done)} MB`;
  } else {
    bar.value = 1;
    text = { compile: 'Starting docrag…', open: 'Opening the collection…', load: 'Reading the collection…', index: 'Indexing the collection…' }[p.stage] ?? text;
  }
  replace(status, text, bar);
}

async function main() {
  let ready = false;
  const store = await openStore(COLLECTION, {
    onProgress: showLoading,
    thread: new URLSearchParams(location.search).get('thread') === 'page' ? 'page' : 'worker',
    // Another tab (or the worker) changed the collection.
    onChange: () => ready && changed(),
  });
  const [settingsValue, providerValue, chatValue, summariesValue] = await Promise.all(
    ['demo.settings', 'demo.provider', HISTORY_KEY, SUMMARIES_KEY].map((key) => store.api.getSetting(key)),
  );

  /** Rereads the collection, then redraws what depends on it. */
  async function changed() {
    await store.sync();
    renderList();
    settings.refreshStatus();
    summary.refresh();
    await browser.refresh();
  }

  const settings = setupSettings($('settings-body'), {
    store,
    initial: { settings: settingsValue, provider: providerValue },
    onChanged: changed,
  });

  const browser = setupChunkBrowser($('chunk-browser'), store);
  const openChunk = (docId, seq) => {
    const drawn = browser.show(docId, seq);
    renderList();
    return drawn;
  };

  const summary = setupSummary($('summary'), { store, stored: summariesValue, openChunk, onBusy: () => renderList() });
  const exporter = setupExport($('collection-actions'), { store });

  /** Draws the document list from the last sync. */
  function renderList() {
    const s = store.stats;
    replace($('collection-stats'), s.documents ? `${count(s.documents, 'document')} · ${count(s.chunks, 'chunk')} · ${count(s.tokens, 'token')}` : '');
    exporter.refresh();
    renderDocuments($('documents'), store.documents, {
      selected: browser.current(),
      busy: summary.running(),
      onOpen: (docId) => openChunk(docId),
      onSummarize: (docId) => summary.summarize(docId),
      async onRemove(docId) {
        const doc = store.documents.find((d) => d.docId === docId);
        try {
          await store.api.remove(docId);
        } catch (err) {
          $('documents').prepend(errorView(err, `Could not remove ${doc?.title ?? docId}`));
          return;
        }
        await summary.forget(docId);
        await changed();
      },
    });
  }

  setupUpload({
    dropZone: $('drop'),
    input: $('files'),
    list: $('uploads'),
    add: async (file, onProgress) => {
      const wrong = settings.problems().find((p) => p.id === 'max-tokens');
      if (wrong) throw Object.assign(new Error(wrong.message), { code: 'invalid-setting' });
      const info = await store.api.addFile(file, { convert: { maxTokens: settings.values().maxTokens }, onProgress });
      await store.sync();
      settings.refreshStatus();
      summary.refresh();
      if (!browser.current()) await browser.show(info.docId);
      else await browser.refresh();
      renderList();
      return info;
    },
  });

  setupChat($('chat'), {
    store,
    history: chatValue,
    openChunk,
    askOptions() {
      const v = settings.values();
      const options = { mode: v.mode, routing: v.routing, confidenceThreshold: v.confidenceThreshold, smallCollectionTokens: v.smallCollectionTokens, tokenBudget: v.tokenBudget };
      if (v.topK !== '') options.chunks = v.topK;
      return options;
    },
    checkSettings() {
      const problems = settings.problems();
      if (problems.length) settings.reveal(problems[0]);
      return problems.map((p) => p.message).join(' ');
    },
  });

  await browser.show(store.documents[0]?.docId ?? null);
  renderList();
  ready = true;
  const where = store.api.storage === 'indexeddb' ? 'IndexedDB (kept across reloads)' : 'memory';
  const thread = store.thread === 'worker' ? 'documents convert in a Web Worker' : 'documents convert on the page';
  replace(status, `docrag ${version()} · collection “${store.api.name}” in ${where} · ${thread}`);
  document.body.dataset.thread = store.thread;
  document.body.dataset.ready = 'true';
  // Shows its progress and any error in the provider status.
  settings.restoreProvider();
}

main().catch((err) => {
  replace(status, errorView(err, 'The demo could not start'));
  document.body.dataset.ready = 'failed';
});
