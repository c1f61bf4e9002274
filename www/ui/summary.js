// Summaries: one document's or the whole collection's, through collection.summarize().
// The panel holds the mode (model modes need a chat model), the focus phrase of the
// topic mode, the progress label ("map 12/40") with a Stop button, and the last
// summary: Markdown whose [chunk-N] / [docId:N] markers open the cited chunk, a
// warning when its citations could not be verified, and its trace on demand. The last
// summary of each document (and of the collection) is kept in the collection's
// settings, so a reload shows it again.
import { el, fmt, count, errorView, replace } from './dom.js';
import { renderMarkdown } from './markdown.js';

export const STORE_KEY = 'demo.summaries';
/** Stored summaries beyond this many (oldest first) are dropped. */
const MAX_STORED = 20;
/** The key of the collection-wide summary in the store (document ids are `sha256-…`). */
const COLLECTION_SCOPE = '*';

const MODES = [
  ['extractive', 'Extractive (central sentences, no model)', false],
  ['map-reduce', 'Map-reduce', true],
  ['hierarchical', 'Hierarchical reduce (long documents)', true],
  ['topics', 'Topics', true],
  ['iterative', 'Iterative (short documents)', true],
];
const MODE_NAME = { extractive: 'Extractive', 'map-reduce': 'Map-reduce', hierarchical: 'Hierarchical', topics: 'Topic', iterative: 'Iterative' };

/** `[chunk-3]` (one document) or `[sha256-…:3]` (several): the marker without brackets. */
const MARKER = /\[(chunk-\d+|[A-Za-z0-9][\w.-]*:\d+)\]/;
const MARKERS = new RegExp(MARKER.source, 'g');

/** A 0–1 share as a percentage, one decimal when not whole; null -> n/a. */
function pct(share) {
  if (typeof share !== 'number') return 'n/a';
  return `${Number((share * 100).toFixed(1))}%`;
}

/** The fields of a Summary worth keeping (it is JSON already; this drops nothing but unknowns). */
function toStored(scope, summary) {
  const { mode, requestedMode, fallback, text, citations, verified, warning, invalidCitations, notices, trace } = summary;
  return { scope, at: Date.now(), summary: { mode, requestedMode, fallback, text, citations, verified, warning, invalidCitations, notices, trace } };
}

/**
 * The summary panel in `container`. `store` is the open collection (ui/store.js),
 * `stored` the summaries kept in its settings (or undefined), `openChunk(docId, seq)` shows a chunk in the chunk browser, `onBusy(running)` is
 * told when a run starts and ends (the document list disables its buttons).
 * Returns `{ summarize(docId|null), refresh(), forget(docId), running() }`.
 */
export function setupSummary(container, { store: collection, stored, openChunk, onBusy }) {
  const mode = el('select', { id: 'summary-mode', ariaLabel: 'Summary mode' }, ...MODES.map(([value, text]) => el('option', { value, textContent: text, dataset: { model: String(needsModel(value)) } })));
  const focus = el('input', { id: 'summary-focus', type: 'text', placeholder: 'optional, e.g. licensing', spellcheck: false });
  const focusField = el('label', { className: 'field inline' }, el('span', { textContent: 'Focus' }), focus);
  const whole = el('button', { id: 'summarize-collection', type: 'button', textContent: 'Summarize collection' });
  const stop = el('button', { id: 'summary-stop', type: 'button', textContent: 'Stop', hidden: true });
  const hint = el('p', { className: 'summary hint' });
  const progress = el('p', { id: 'summary-progress', className: 'summary-progress', role: 'status' });
  const output = el('div', { id: 'summary-output' });
  const controls = el('div', { className: 'summary-controls' }, el('label', { className: 'field inline' }, el('span', { textContent: 'Mode' }), mode), focusField, whole, stop);
  replace(container, controls, hint, progress, output);

  let controller = null;
  let shown = null;
  let store = stored ?? { last: null, byScope: {} };

  function needsModel(value) {
    return MODES.find(([v]) => v === value)?.[2] ?? false;
  }
  const hasChat = () => Boolean(collection.provider?.chat);
  const docs = () => collection.documents;
  const titleOf = (docId) => {
    const d = docs().find((x) => x.docId === docId);
    return d ? d.title || d.fileName || docId : docId;
  };

  /** Model modes are selectable only with a chat model; the hint says why. */
  function syncModes() {
    const chat = hasChat();
    for (const option of mode.options) {
      const model = option.dataset.model === 'true';
      option.disabled = model && !chat;
      option.textContent = MODES.find(([v]) => v === option.value)[1] + (model && !chat ? ' — needs a chat model' : '');
    }
    if (mode.selectedOptions[0]?.disabled) mode.value = 'extractive';
    if (!mode.dataset.touched) mode.value = chat ? 'map-reduce' : 'extractive';
    focusField.hidden = mode.value !== 'topics';
    replace(hint, chat ? 'Model modes send the chunks to the chat model, a few calls at a time.' : 'No chat model: summaries quote the most central sentences of each section. Set a provider with a chat model in Settings for the model modes.');
    whole.disabled = Boolean(controller);
  }
  mode.addEventListener('change', () => {
    mode.dataset.touched = 'true';
    syncModes();
  });

  function citeLink(c) {
    const alive = docs().some((d) => d.docId === c.docId);
    if (!alive) return el('span', { className: 'cite-gone', textContent: `[${c.id}]`, title: 'This document was removed' });
    const label = [titleOf(c.docId), c.section, `chunk ${c.seq}`].filter(Boolean).join(' · ');
    const a = el('a', { href: `#chunk-${c.seq}`, className: 'cite', textContent: `[${c.id}]`, title: label, dataset: { docId: c.docId, seq: String(c.seq), cite: c.id } });
    a.addEventListener('click', (e) => {
      e.preventDefault();
      openChunk(c.docId, c.seq);
    });
    return a;
  }

  /** Every marker in the text nodes under `root`: a link when valid, flagged when not. */
  function linkCitations(root, summary) {
    const valid = new Map(summary.citations.map((c) => [c.id, c]));
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (MARKER.test(n.nodeValue)) nodes.push(n);
    for (const node of nodes) {
      const out = node.nodeValue.split(MARKERS).map((part, i) => {
        // split() with one group: odd indexes are the captured marker ids.
        if (i % 2 === 0) return document.createTextNode(part);
        const c = valid.get(part);
        return c ? citeLink(c) : el('span', { className: 'cite-invalid', textContent: `[${part}]`, title: 'Not a chunk of the summarized input' });
      });
      node.replaceWith(...out);
    }
  }

  function traceView(summary) {
    const t = summary.trace;
    const rows = [
      ['Documents', t.docIds.map((id) => `${titleOf(id)} (${id})`).join('; ')],
      ['Mode', summary.fallback || summary.mode !== summary.requestedMode ? `${summary.requestedMode} → ${summary.mode}` : summary.mode],
      ['Chunks processed', `${fmt(t.chunksProcessed)} of ${fmt(t.chunksTotal)}`],
      t.topics.length ? ['Topics', t.topics.join('; ')] : null,
      ['Model calls', fmt(t.modelCalls)],
      ['Retries', fmt(t.retries)],
      ['Tokens sent', fmt(t.tokensSent)],
      ['Tokens received', fmt(t.tokensReceived)],
      ['Wall time', t.wallMs === null ? 'n/a' : `${fmt(t.wallMs)} ms`],
      ['Reduce levels', fmt(t.reduceLevels)],
      ['Largest request', `${fmt(t.maxRequestTokens)} tokens (budget ${fmt(t.requestBudgetTokens)})`],
      t.truncatedInputs ? ['Truncated inputs', fmt(t.truncatedInputs)] : null,
      ['Coverage', `${pct(t.coverage)} (${fmt(t.headingsCovered)} of ${count(t.headingsTotal, 'top-level heading')})`],
      ['Citation rate', `${pct(t.citationRate)} (${fmt(t.bulletsCited)} of ${count(t.bullets, 'bullet')})`],
    ].filter(Boolean);
    const table = el('table', { className: 'meta trace-table' }, el('tbody', {}, ...rows.map(([k, v]) => el('tr', { dataset: { key: k } }, el('th', { scope: 'row', textContent: k }), el('td', { textContent: v })))));
    return el('details', { className: 'meta trace' }, el('summary', { textContent: 'Trace' }), table);
  }

  function entryView(entry) {
    const s = entry.summary;
    const scope = entry.scope === COLLECTION_SCOPE ? `the collection (${count(s.trace.docIds.length, 'document')})` : titleOf(entry.scope);
    const by = s.mode === 'extractive' ? 'Extractive summary (central sentences, no model)' : `${MODE_NAME[s.mode] ?? s.mode} summary by the chat model`;
    const text = el('div', { className: 'summary-text md' });
    text.append(renderMarkdown(s.text));
    linkCitations(text, s);
    const notices = [...(s.fallback ? [s.fallback] : []), ...s.notices];
    return el(
      'article',
      { className: 'summary-result', dataset: { scope: entry.scope, mode: s.mode, verified: String(s.verified) } },
      el('h3', { textContent: `Summary of ${scope}` }),
      el('div', { className: 'by', textContent: `${by} · ${count(s.citations.length, 'chunk')} cited` }),
      s.verified
        ? null
        : el(
            'p',
            { className: 'warn summary-warning', role: 'alert' },
            el('strong', { textContent: `Warning: ${s.warning || 'citations could not be verified'}.` }),
            s.invalidCitations.length ? ` Not chunks of the input: ${s.invalidCitations.map((id) => `[${id}]`).join(', ')}.` : ' The model cited no chunk.',
          ),
      notices.length ? el('ul', { className: 'notices' }, ...notices.map((n) => el('li', { textContent: n }))) : null,
      text,
      traceView(s),
    );
  }

  function show(entry) {
    shown = entry;
    replace(output, entry ? entryView(entry) : el('p', { className: 'empty', textContent: 'No summary yet. Press Summarize on a document, or Summarize collection.' }));
  }

  async function save(entry) {
    const byScope = { ...store.byScope, [entry.scope]: entry };
    const keep = Object.values(byScope)
      .sort((a, b) => b.at - a.at)
      .slice(0, MAX_STORED);
    store = { last: entry.scope, byScope: Object.fromEntries(keep.map((e) => [e.scope, e])) };
    await collection.api.setSetting(STORE_KEY, store);
  }

  /** Summarizes one document (its id) or the whole collection (null). */
  async function summarize(docId) {
    if (controller) return;
    if (!docs().length) {
      replace(progress, 'Add documents first.');
      return;
    }
    const scope = docId ?? COLLECTION_SCOPE;
    const options = { mode: mode.value };
    if (mode.value === 'topics' && focus.value.trim()) options.focus = focus.value.trim();
    controller = new AbortController();
    options.signal = controller.signal;
    const what = docId ? titleOf(docId) : 'the collection';
    replace(progress, `Summarizing ${what}: starting…`);
    progress.dataset.state = 'running';
    stop.hidden = false;
    whole.disabled = true;
    onBusy?.(true);
    container.scrollIntoView({ block: 'nearest' });
    options.onProgress = (p) => replace(progress, `Summarizing ${what}: ${p.label}`);
    let entry = null;
    try {
      entry = toStored(scope, await collection.api.summarize(docId ?? null, options));
      replace(progress, `Done: ${what} in ${entry.summary.trace.wallMs === null ? '?' : fmt(entry.summary.trace.wallMs)} ms.`);
      progress.dataset.state = 'done';
    } catch (err) {
      const stopped = err?.name === 'AbortError';
      replace(progress, errorView(err, stopped ? `Stopped summarizing ${what}` : `Could not summarize ${what}`));
      progress.dataset.state = stopped ? 'stopped' : 'failed';
    } finally {
      controller = null;
      stop.hidden = true;
      onBusy?.(false);
      syncModes();
    }
    if (!entry) return;
    show(entry);
    try {
      await save(entry);
    } catch (err) {
      output.append(errorView(err, 'The summary could not be saved'));
    }
  }

  /** Drops a removed document's stored summary (and hides it if shown). */
  async function forget(docId) {
    if (!store.byScope[docId]) return refresh();
    const { [docId]: _gone, ...rest } = store.byScope;
    store = { last: store.last === docId ? null : store.last, byScope: rest };
    if (shown?.scope === docId) shown = null;
    refresh();
    await collection.api.setSetting(STORE_KEY, store);
  }

  /** Redraws after a provider or collection change (citations of removed documents unlink). */
  function refresh() {
    syncModes();
    show(shown);
  }

  whole.addEventListener('click', () => summarize(null));
  stop.addEventListener('click', () => controller?.abort());
  shown = store.last ? store.byScope[store.last] ?? null : null;
  refresh();
  return { summarize, refresh, forget, running: () => controller !== null };
}
