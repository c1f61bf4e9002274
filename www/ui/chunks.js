// The chunk browser: one document's chunks in order, each with its metadata line,
// its Markdown rendered (tables, revisions and comments with their authors) and the
// full metadata record on demand. A citation link opens a chunk here.
import { el, fmt, count, pages, replace, errorView } from './dom.js';
import { renderMarkdown } from './markdown.js';

/** The chunk-information line docrag puts first; shown as the card's heading instead. */
const INFO_LINE = /^\[[^\n]*\]\n+/;

function metadataTable(record) {
  const rows = Object.entries(record).map(([k, v]) => el('tr', {}, el('th', { scope: 'row', textContent: k }), el('td', { textContent: String(v) })));
  return el('table', { className: 'meta' }, el('tbody', {}, ...rows));
}

function chunkCard(chunk) {
  const m = chunk.metadata;
  const facts = [`#${m.ssSeq}`, pages(m.firstPage, m.lastPage), `${fmt(m.tokenCount)} tokens`, m.chunkKind !== 'body' ? m.chunkKind : ''].filter(Boolean);
  const tags = el('span', { className: 'badges' });
  if (m.tableIds) tags.append(el('span', { className: 'badge tables', textContent: [`table ${m.tableIds}`, m.startsInTable === 'yes' ? 'from the previous chunk' : '', m.endsInTable === 'yes' ? 'continues in the next' : ''].filter(Boolean).join(' · ') }));
  if (m.hasRevisions === 'yes') tags.append(el('span', { className: 'badge revisions', textContent: `changes: ${m.revisionAuthors || 'unknown'}` }));
  if (m.hasComments === 'yes') tags.append(el('span', { className: 'badge comments', textContent: `comments: ${m.commentAuthors || 'unknown'}` }));
  if (m.oversize === 'yes') tags.append(el('span', { className: 'badge warn', textContent: 'oversize' }));
  const body = el('div', { className: 'md' });
  body.append(renderMarkdown(chunk.text.replace(INFO_LINE, '')));
  return el(
    'article',
    { className: 'chunk', id: `chunk-${m.ssSeq}`, tabIndex: -1, dataset: { seq: String(m.ssSeq) } },
    el('header', {}, el('span', { className: 'facts', textContent: facts.join(' · ') }), el('span', { className: 'section', textContent: m.headingPath || '' }), tags),
    body,
    el('details', { className: 'meta' }, el('summary', { textContent: 'Metadata' }), metadataTable(m)),
  );
}

/**
 * The chunk browser in `container`. `collection()` returns the open Collection.
 * Returns `{ show(docId, seq?), refresh(), current() }`.
 */
export function setupChunkBrowser(container, collection) {
  let docId = null;
  const picker = el('select', { ariaLabel: 'Document to browse' });
  const summary = el('p', { className: 'summary' });
  const list = el('div', { className: 'chunks' });
  picker.addEventListener('change', () => show(picker.value || null));
  replace(container, el('div', { className: 'browser-head' }, el('label', {}, 'Document ', picker), summary), list);

  function fillPicker(docs) {
    picker.replaceChildren(el('option', { value: '', textContent: docs.length ? 'Choose a document…' : 'No documents' }), ...docs.map((d) => el('option', { value: d.docId, textContent: d.title || d.fileName, selected: d.docId === docId })));
  }

  function show(id, seq) {
    const docs = collection().documents();
    if (id && !docs.some((d) => d.docId === id)) id = null;
    const changed = id !== docId || list.childElementCount === 0;
    docId = id;
    fillPicker(docs);
    if (!id) {
      replace(summary, docs.length ? 'Pick a document, or follow a citation [n] in an answer.' : '');
      replace(list, el('p', { className: 'empty', textContent: 'Nothing to show yet.' }));
      return;
    }
    if (changed) {
      const doc = docs.find((d) => d.docId === id);
      let chunks;
      try {
        chunks = collection().chunks(id);
      } catch (err) {
        replace(list, errorView(err, 'Could not read the chunks'));
        return;
      }
      replace(summary, el('strong', { textContent: doc.title }), ` · ${count(chunks.length, 'chunk')} · ${count(doc.tokenCount, 'token')} · ${doc.docId}`);
      replace(list, ...chunks.map(chunkCard));
    }
    for (const c of list.querySelectorAll('.chunk.cited')) c.classList.remove('cited');
    if (seq !== undefined) {
      const card = list.querySelector(`#chunk-${Number(seq)}`);
      if (card) {
        card.classList.add('cited');
        card.scrollIntoView({ block: 'start' });
        card.focus({ preventScroll: true });
      }
    }
  }

  return { show, refresh: () => show(docId), current: () => docId };
}
