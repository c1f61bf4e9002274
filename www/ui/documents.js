// The collection list: one row per stored document with its counts, badges, a
// Summarize and a Remove button. Titles and file names are document text: shown
// with textContent.
import { el, count, size, replace } from './dom.js';

/**
 * Renders `docs` (DocumentInfo[]) into `container`; `onOpen(docId)`, `onRemove(docId)`,
 * `onSummarize(docId)`; `busy`: a summary is running (Summarize is disabled).
 */
export function renderDocuments(container, docs, { onOpen, onRemove, onSummarize, selected, busy }) {
  if (!docs.length) {
    replace(container, el('p', { className: 'empty', textContent: 'No documents yet. Drop DOCX, PDF, HTML, RTF, Markdown or text files above; they stay in this browser.' }));
    return;
  }
  const list = el('ul', { className: 'docs' });
  for (const d of docs) {
    const badges = el('span', { className: 'badges' });
    if (d.hasTables) badges.append(el('span', { className: 'badge tables', textContent: 'tables' }));
    if (d.hasRevisions) badges.append(el('span', { className: 'badge revisions', textContent: 'tracked changes' }));
    if (d.hasComments) badges.append(el('span', { className: 'badge comments', textContent: 'comments' }));
    if (d.embeddingModels.length) badges.append(el('span', { className: 'badge vectors', textContent: 'vectors', title: d.embeddingModels.join(', ') }));
    if (d.warnings.length) badges.append(el('span', { className: 'badge warn', textContent: `${d.warnings.length} warning${d.warnings.length > 1 ? 's' : ''}`, title: d.warnings.join('\n') }));
    const open = el('button', { type: 'button', className: 'link title', textContent: d.title || d.fileName || d.docId, title: `Browse the chunks of ${d.fileName || d.title}` });
    open.addEventListener('click', () => onOpen(d.docId));
    const remove = el('button', { type: 'button', className: 'remove', textContent: 'Remove', ariaLabel: `Remove ${d.title || d.fileName}` });
    remove.addEventListener('click', () => onRemove(d.docId));
    const summarize = el('button', { type: 'button', className: 'summarize', textContent: 'Summarize', disabled: Boolean(busy), ariaLabel: `Summarize ${d.title || d.fileName}` });
    summarize.addEventListener('click', () => onSummarize(d.docId));
    const facts = `${d.format.toUpperCase()} · ${size(d.sizeBytes)} · ${count(d.pages, 'page')} · ${count(d.chunkCount, 'chunk')} · ${count(d.tokenCount, 'token')}`;
    list.append(
      el(
        'li',
        { className: d.docId === selected ? 'doc selected' : 'doc', dataset: { docId: d.docId } },
        el('div', { className: 'doc-head' }, open, el('span', { className: 'doc-actions' }, summarize, remove)),
        el('div', { className: 'facts' }, el('span', { textContent: d.fileName, className: 'file' }), el('span', { textContent: facts })),
        badges,
      ),
    );
  }
  replace(container, list);
}
