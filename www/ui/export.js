// "Export JSONL": every chunk of the collection as docrag.chunk.v1 lines
// (`collection.export()`), offered as the download docrag-<collection name>.jsonl for a
// server-side vector database (`docrag load postgres://... FILE.jsonl`). The file is
// made in this browser and handed over as an object URL; nothing is uploaded.
import { el, errorView, count, fmt, replace, size } from './dom.js';

/** The download's file name: `docrag-<name>.jsonl`, with characters files dislike as `-`. */
export function exportFileName(name) {
  return `docrag-${String(name).replace(/[^\p{L}\p{N}._-]+/gu, '-')}.jsonl`;
}

/**
 * Draws the button and its status line into `container`; returns `{ refresh }`, which
 * redraws them from `store` (hidden while the collection is empty).
 */
export function setupExport(container, { store }) {
  const button = el('button', {
    type: 'button',
    className: 'export',
    textContent: 'Export JSONL',
    title: 'Download every chunk (text, metadata and vectors of the current embedding model) as docrag.chunk.v1 JSON lines',
  });
  const note = el('p', { className: 'summary export-status', role: 'status' });
  let running = false;

  /** What the file holds about vectors: the provider's model when documents have its vectors. */
  function vectorsNote() {
    const model = store.provider?.embeddingModelId;
    const embedded = model ? store.documents.filter((d) => d.embeddingModels.includes(model)).length : 0;
    if (!embedded) return 'no vectors';
    return embedded === store.documents.length ? `vectors of ${model}` : `vectors of ${model} for ${count(embedded, 'document')}`;
  }

  button.addEventListener('click', async () => {
    running = true;
    refresh();
    replace(note, 'Exporting…');
    let written = 0;
    try {
      const blob = await store.api.export({
        onProgress: (p) => {
          written = p.done;
          replace(note, `Exporting: ${fmt(p.done)} of ${count(p.total, 'chunk')}…`);
        },
      });
      const url = URL.createObjectURL(blob);
      const link = el('a', { href: url, download: exportFileName(store.api.name), hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its own reference by now; the URL is let go a little later.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      replace(note, `Exported ${count(written, 'chunk')} (${size(blob.size)}, ${vectorsNote()}) as ${exportFileName(store.api.name)}.`);
    } catch (err) {
      replace(note, errorView(err, 'Export failed'));
    } finally {
      running = false;
      refresh();
    }
  });

  function refresh() {
    container.hidden = !store.stats.documents;
    button.disabled = running;
  }

  replace(container, button, note);
  refresh();
  return { refresh };
}
