// The chat: questions with their answers, kept in the collection's settings so a
// reload brings them back. Each answer shows the path the question took, the tokens
// sent by purpose, the payload (its cached prefix marked) and the answer with its
// [n] markers linked to the cited chunks. A long question shows collapsed.
import { el, fmt, pages, errorView, replace } from './dom.js';
import { unembedded } from './store.js';
import { renderMarkdown, wrapStrayRows, linkMarkers } from './markdown.js';

export const HISTORY_KEY = 'demo.chat';
const MAX_ENTRIES = 40;
/** A question longer than this (characters or lines) shows collapsed, with "Show all". */
const CLAMP_CHARS = 400;
const CLAMP_LINES = 6;

const PATHS = {
  everything: 'Sent everything',
  'routed-whole': 'Routed to whole documents',
  index: 'Answered from the index document',
  pointed: 'Retrieval + enrichment (pointed question)',
  broad: 'Retrieval + enrichment (broad question)',
  entire: 'Entire documents',
  'adaptive-rag': 'Adaptive RAG',
};

/** What is kept of an AskResult: enough to redraw it, the cached prefix once. */
function toEntry(question, r, notice) {
  const prefixIndex = r.payload.messages.findIndex((m) => m.content === r.cachedPrefix);
  return {
    question,
    notice,
    at: Date.now(),
    answer: r.answer,
    accounting: r.accounting,
    routing: r.routing ?? null,
    modelCalls: r.modelCalls,
    sources: r.sources.map(({ number, docId, title, section, firstPage, lastPage, pageSource, seq }) => ({ number, docId, title, section, firstPage, lastPage, pageSource, seq })),
    cited: r.citations.citations.map((c) => c.number),
    grounded: r.citations.grounded,
    unknown: r.citations.unknown,
    cachedPrefix: r.cachedPrefix,
    payload: r.payload.messages.map((m, i) => (i === prefixIndex ? { role: m.role, prefix: true } : m)),
  };
}

/** The question; collapsed to its first lines when long, a button shows it all. */
function questionView(text) {
  const lines = text.split('\n');
  if (text.length <= CLAMP_CHARS && lines.length <= CLAMP_LINES) return el('p', { className: 'question', textContent: text });
  const short = `${lines.slice(0, CLAMP_LINES).join('\n').slice(0, CLAMP_CHARS).trimEnd()}…`;
  const body = el('p', { className: 'question clamped', textContent: short });
  const more = `Show all (${fmt(text.length)} characters)`;
  const toggle = el('button', { type: 'button', className: 'link show-all', textContent: more, ariaExpanded: 'false' });
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    body.textContent = open ? text : short;
    body.classList.toggle('clamped', !open);
    body.classList.toggle('expanded', open);
    toggle.textContent = open ? 'Show less' : more;
    toggle.setAttribute('aria-expanded', String(open));
  });
  return el('div', { className: 'question-long' }, body, toggle);
}

/**
 * Why a question was not embedded although the provider has an embedding model, or
 * null: the stored documents have no vectors of that model (embedding them failed).
 */
function embeddingNotice(store, r) {
  const model = store.provider?.embeddingModelId;
  if (!model || r.modelCalls.some((c) => c.purpose === 'embedding')) return null;
  const missing = unembedded(store).length;
  return `The question was not embedded: ${missing} of ${store.documents.length} documents have no vectors of ${model} (embedding them failed or has not run; see Settings), so retrieval used BM25 only.`;
}

function sourceLabel(s) {
  return [s.title, s.section, pages(s.firstPage, s.lastPage, s.pageSource)].filter(Boolean).join(' · ');
}

function tokensView(a) {
  const cells = [
    ['routing', a.routingTokens],
    ['retrieval', a.retrievalTokens],
    ['enrichment', a.enrichmentTokens],
    ['history', a.historyTokens],
    ['question', a.questionTokens],
  ];
  const total = a.totalTokens || 1;
  const bar = el('div', { className: 'token-bar', ariaHidden: 'true' });
  for (const [name, n] of cells) if (n > 0) bar.append(el('span', { className: `t-${name}`, style: `flex-grow:${n / total}` }));
  return el(
    'div',
    { className: 'tokens' },
    el('span', { className: 'label', textContent: `Tokens sent: ${fmt(a.totalTokens)}` }),
    bar,
    el('ul', { className: 'token-legend' }, ...cells.map(([name, n]) => el('li', { className: `t-${name}` }, el('i'), `${name} ${fmt(n)}`))),
  );
}

function routingView(routing, titles) {
  if (!routing) return null;
  let text;
  if (routing.kind === 'restrict') {
    const choices = (routing.choices ?? []).map((c) => `${titles(c.docId)} (${c.confidence}%)`);
    text = `Routed to ${choices.length} document${choices.length === 1 ? '' : 's'}: ${choices.join(', ')}`;
  } else if (routing.kind === 'index') text = 'Routing: the index document answers';
  else if (routing.kind === 'whole') text = `Routing: the whole collection — ${routing.reason ?? ''}`;
  else text = `Routing: ${JSON.stringify(routing)}`;
  return el('p', { className: 'routing', textContent: text });
}

function payloadView(entry) {
  const details = el('details', { className: 'payload' }, el('summary', { textContent: `Payload (${entry.payload.length} messages; the cached prefix is marked)` }));
  // Built when opened: a send-everything context can be large.
  details.addEventListener('toggle', () => {
    if (!details.open || details.childElementCount > 1) return;
    for (const m of entry.payload) {
      const content = m.prefix ? entry.cachedPrefix : m.content;
      details.append(
        el(
          'section',
          { className: m.prefix ? 'message cached-prefix' : 'message' },
          el('header', { textContent: `${m.role}${m.prefix ? ' · cached prefix (byte-identical while the same chunks are selected)' : ''} · ${fmt(content.length)} characters` }),
          el('pre', { textContent: content }),
        ),
      );
    }
  });
  return details;
}

/**
 * The chat in `container`. `store` is the open collection (ui/store.js), `history`
 * the stored chat (or undefined), `askOptions()` the ask options from the settings,
 * `checkSettings()` a message when they are not valid ('' when they are),
 * `openChunk(docId, seq)` shows a chunk.
 * Returns `{ redraw() }`.
 */
export function setupChat(container, { store, history: stored, askOptions, checkSettings, openChunk }) {
  let entries = stored ?? [];
  const log = el('ol', { className: 'chat-log', ariaLive: 'polite' });
  const input = el('textarea', { id: 'question', rows: 2, placeholder: 'Ask about your documents… (Enter sends, Shift+Enter for a new line)', ariaLabel: 'Question' });
  const send = el('button', { id: 'ask', type: 'submit', textContent: 'Ask' });
  const stop = el('button', { type: 'button', textContent: 'Stop', hidden: true });
  const clear = el('button', { type: 'button', className: 'quiet', textContent: 'Clear chat' });
  const problem = el('p', { id: 'ask-problem', className: 'error', role: 'alert', hidden: true });
  const form = el('form', { className: 'ask' }, input, problem, el('div', { className: 'row' }, send, stop, clear));
  replace(container, log, form);
  let controller = null;

  const titleOf = (docId) => store.documents.find((d) => d.docId === docId)?.title ?? docId;

  function citeLink(entry, n) {
    const s = entry.sources.find((x) => x.number === n);
    if (!s) return null;
    const a = el('a', { href: `#chunk-${s.seq}`, className: 'cite', textContent: `[${n}]`, title: sourceLabel(s), dataset: { docId: s.docId, seq: String(s.seq), number: String(n) } });
    a.addEventListener('click', (e) => {
      e.preventDefault();
      openChunk(s.docId, s.seq);
    });
    return a;
  }

  function entryView(entry) {
    const item = el('li', { className: 'turn' }, questionView(entry.question));
    if (entry.error) {
      item.append(errorView(entry.error, 'No answer'));
      return item;
    }
    const answer = el('div', { className: 'answer md' });
    answer.append(renderMarkdown(entry.answer.markdown ?? wrapStrayRows(entry.answer.text)));
    linkMarkers(answer, (n) => citeLink(entry, n));
    const a = entry.accounting;
    const calls = entry.modelCalls.length ? entry.modelCalls.map((c) => `${c.purpose} (${c.model})`).join(', ') : 'none';
    const cited = entry.sources.filter((s) => entry.cited.includes(s.number));
    const parts = [
      el('div', { className: 'by', textContent: entry.answer.by === 'model' ? 'Answer by the chat model' : 'Extractive answer (read from the context, no model)' }),
      answer,
      !entry.grounded ? el('p', { className: 'warn', textContent: 'The answer cites no known source.' }) : null,
      cited.length
        ? el('ul', { className: 'sources' }, ...cited.map((s) => el('li', {}, citeLink(entry, s.number), ' ', el('span', { textContent: sourceLabel(s) }))))
        : null,
      el(
        'div',
        { className: 'path' },
        el('p', {}, el('strong', { textContent: PATHS[a.path] ?? a.path }), el('span', { textContent: ` — ${a.reason}` })),
        routingView(entry.routing, titleOf),
        el('p', { className: 'calls', textContent: `Model calls: ${calls}${a.retrieval ? ` · retrieval: ${a.retrieval}` : ''}${a.broad === true ? ' · broad' : a.broad === false ? ' · pointed' : ''}${a.truncated ? ' · truncated' : ''}` }),
        entry.notice ? el('p', { className: 'warn notice', role: 'note', textContent: entry.notice }) : null,
        tokensView(a),
      ),
      payloadView(entry),
    ];
    item.append(...parts.filter(Boolean));
    return item;
  }

  function redraw() {
    if (!entries.length) {
      replace(log, el('li', { className: 'empty', textContent: 'No questions yet. Without a provider, answers are read from your documents (table cells, changes, comments, notes, sentences), with citations.' }));
      return;
    }
    replace(log, ...entries.map(entryView));
  }

  async function save() {
    entries = entries.slice(-MAX_ENTRIES);
    await store.api.setSetting(HISTORY_KEY, entries);
  }

  function history() {
    return entries.filter((e) => !e.error).flatMap((e) => [
      { role: 'user', content: e.question },
      { role: 'assistant', content: e.answer.text },
    ]);
  }

  async function ask(question) {
    if (log.querySelector('.empty')) log.replaceChildren();
    const stage = el('span', { className: 'stage', textContent: 'starting…' });
    const stream = el('pre', { className: 'stream' });
    const pending = el('li', { className: 'turn pending' }, questionView(question), el('p', { className: 'by' }, 'Working: ', stage), stream);
    log.append(pending);
    pending.scrollIntoView({ block: 'nearest' });
    controller = new AbortController();
    send.disabled = true;
    stop.hidden = false;
    let entry;
    try {
      const r = await store.api.ask(question, {
        ...askOptions(),
        history: history(),
        signal: controller.signal,
        onProgress: (p) => (stage.textContent = `${p.stage}${p.total > 1 ? ` ${p.done}/${p.total}` : ''}`),
        onToken: (piece) => stream.append(piece),
      });
      entry = toEntry(question, r, embeddingNotice(store, r));
    } catch (err) {
      entry = { question, at: Date.now(), error: { code: err?.code ?? err?.name ?? 'error', message: err?.message ?? String(err) } };
    } finally {
      controller = null;
      send.disabled = false;
      stop.hidden = true;
    }
    entries.push(entry);
    pending.replaceWith(entryView(entry));
    try {
      await save();
    } catch (err) {
      log.append(el('li', {}, errorView(err, 'The chat could not be saved')));
    }
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = input.value.trim();
    if (!q || controller) return;
    const wrong = checkSettings();
    problem.hidden = !wrong;
    problem.textContent = wrong ? `Not asked: fix the settings first. ${wrong}` : '';
    if (wrong) return;
    input.value = '';
    ask(q);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  stop.addEventListener('click', () => controller?.abort());
  clear.addEventListener('click', async () => {
    entries = [];
    redraw();
    await store.api.setSetting(HISTORY_KEY, undefined);
  });
  redraw();
  return { redraw };
}
