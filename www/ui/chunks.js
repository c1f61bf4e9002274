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
  const facts = [`#${m.ssSeq}`, pages(m.firstPage, m.lastPage, m.pageSource), `${fmt(m.tokenCount)} tokens`, m.chunkKind !== 'body' ? m.chunkKind : ''].filter(Boolean);
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

/** Chunk cards drawn at once; more on request, so a 2,000-chunk document draws quickly. */
const PAGE = 100;

/**
 * The chunk browser in `container`. `store` is the open collection (ui/store.js):
 * its `documents` snapshot and `api.chunks(docId)`.
 * Returns `{ show(docId, seq?), refresh(), current() }`; `show` resolves once drawn.
 */
export function setupChunkBrowser(container, store) {
  let docId = null;
  /** The document whose cards are drawn (docId is the one asked for). */
  let shown = null;
  let chunks = [];
  let drawn = 0;
  let turn = 0;
  const picker = el('select', { ariaLabel: 'Document to browse' });
  const summary = el('p', { className: 'summary' });
  const list = el('div', { className: 'chunks' });
  const more = el('button', { type: 'button', className: 'more-chunks', hidden: true });
  more.addEventListener('click', () => drawTo(drawn + PAGE));
  picker.addEventListener('change', () => show(picker.value || null));
  replace(container, el('div', { className: 'browser-head' }, el('label', {}, 'Document ', picker), summary), list, more);

  function fillPicker(docs) {
    picker.replaceChildren(el('option', { value: '', textContent: docs.length ? 'Choose a document…' : 'No documents' }), ...docs.map((d) => el('option', { value: d.docId, textContent: d.title || d.fileName, selected: d.docId === docId })));
  }

  /** Draws the cards up to (not including) index `end`. */
  function drawTo(end) {
    const next = Math.min(chunks.length, end);
    if (next > drawn) list.append(...chunks.slice(drawn, next).map(chunkCard));
    drawn = next;
    more.hidden = drawn >= chunks.length;
    more.textContent = `Show ${count(Math.min(PAGE, chunks.length - drawn), 'more chunk')} (${fmt(chunks.length - drawn)} not shown)`;
  }

  async function show(id, seq) {
    const mine = ++turn;
    const docs = store.documents;
    if (id && !docs.some((d) => d.docId === id)) id = null;
    const changed = id !== shown;
    docId = id;
    fillPicker(docs);
    if (!id) {
      shown = null;
      chunks = [];
      drawn = 0;
      more.hidden = true;
      replace(summary, docs.length ? 'Pick a document, or follow a citation [n] in an answer.' : '');
      replace(list, el('p', { className: 'empty', textContent: 'Nothing to show yet.' }));
      return;
    }
    if (changed) {
      const doc = docs.find((d) => d.docId === id);
      let read;
      try {
        read = await store.api.chunks(id);
      } catch (err) {
        if (mine === turn) replace(list, errorView(err, 'Could not read the chunks'));
        return;
      }
      // A later show() won: its document is the one to draw.
      if (mine !== turn) return;
      shown = id;
      chunks = read;
      drawn = 0;
      replace(summary, el('strong', { textContent: doc.title }), ` · ${count(chunks.length, 'chunk')} · ${count(doc.tokenCount, 'token')} · ${doc.docId}`);
      list.replaceChildren();
      drawTo(PAGE);
    }
    for (const c of list.querySelectorAll('.chunk.cited')) c.classList.remove('cited');
    if (seq !== undefined) {
      const at = chunks.findIndex((c) => c.metadata.ssSeq === Number(seq));
      if (at >= drawn) drawTo(at + 1);
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
