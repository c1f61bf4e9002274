// The chat: questions with their answers, kept in the collection's settings so a
// reload brings them back. Each answer shows the path the question took, the tokens
// sent by purpose, the payload (its cached prefix marked) and the answer with its
// [n] markers linked to the cited chunks.
import { el, fmt, pages, errorView, replace } from './dom.js';
import { renderMarkdown, wrapStrayRows, linkMarkers } from './markdown.js';

const HISTORY_KEY = 'demo.chat';
const MAX_ENTRIES = 40;

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
function toEntry(question, r) {
  const prefixIndex = r.payload.messages.findIndex((m) => m.content === r.cachedPrefix);
  return {
    question,
    at: Date.now(),
    answer: r.answer,
    accounting: r.accounting,
    routing: r.routing ?? null,
    modelCalls: r.modelCalls,
    sources: r.sources.map(({ number, docId, title, section, firstPage, lastPage, seq }) => ({ number, docId, title, section, firstPage, lastPage, seq })),
    cited: r.citations.citations.map((c) => c.number),
    grounded: r.citations.grounded,
    unknown: r.citations.unknown,
    cachedPrefix: r.cachedPrefix,
    payload: r.payload.messages.map((m, i) => (i === prefixIndex ? { role: m.role, prefix: true } : m)),
  };
}

function sourceLabel(s) {
  return [s.title, s.section, pages(s.firstPage, s.lastPage)].filter(Boolean).join(' · ');
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
 * The chat in `container`. `collection()` is the open Collection, `askOptions()` the
 * ask options from the settings, `openChunk(docId, seq)` shows a chunk.
 * Returns `{ redraw() }`.
 */
export function setupChat(container, { collection, askOptions, openChunk }) {
  let entries = collection().getSetting(HISTORY_KEY) ?? [];
  const log = el('ol', { className: 'chat-log', ariaLive: 'polite' });
  const input = el('textarea', { id: 'question', rows: 2, placeholder: 'Ask about your documents… (Enter sends, Shift+Enter for a new line)', ariaLabel: 'Question' });
  const send = el('button', { id: 'ask', type: 'submit', textContent: 'Ask' });
  const stop = el('button', { type: 'button', textContent: 'Stop', hidden: true });
  const clear = el('button', { type: 'button', className: 'quiet', textContent: 'Clear chat' });
  const form = el('form', { className: 'ask' }, input, el('div', { className: 'row' }, send, stop, clear));
  replace(container, log, form);
  let controller = null;

  const titleOf = (docId) => collection().documents().find((d) => d.docId === docId)?.title ?? docId;

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
    const item = el('li', { className: 'turn' }, el('p', { className: 'question', textContent: entry.question }));
    if (entry.error) {
      item.append(errorView(entry.error, 'No answer'));
      return item;
    }
    const answer = el('div', { className: 'answer md' });
    answer.append(renderMarkdown(wrapStrayRows(entry.answer.text)));
    linkMarkers(answer, (n) => citeLink(entry, n));
    const a = entry.accounting;
    const calls = entry.modelCalls.length ? entry.modelCalls.map((c) => `${c.purpose} (${c.model})`).join(', ') : 'none';
    const cited = entry.sources.filter((s) => entry.cited.includes(s.number));
    const parts = [
      el('div', { className: 'by', textContent: entry.answer.by === 'model' ? 'Answer by the chat model' : 'Extractive answer (sentences from the context, no model)' }),
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
        tokensView(a),
      ),
      payloadView(entry),
    ];
    item.append(...parts.filter(Boolean));
    return item;
  }

  function redraw() {
    if (!entries.length) {
      replace(log, el('li', { className: 'empty', textContent: 'No questions yet. Without a provider, answers are sentences quoted from your documents, with citations.' }));
      return;
    }
    replace(log, ...entries.map(entryView));
  }

  async function save() {
    entries = entries.slice(-MAX_ENTRIES);
    await collection().setSetting(HISTORY_KEY, entries);
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
    const pending = el('li', { className: 'turn pending' }, el('p', { className: 'question', textContent: question }), el('p', { className: 'by' }, 'Working: ', stage), stream);
    log.append(pending);
    pending.scrollIntoView({ block: 'nearest' });
    controller = new AbortController();
    send.disabled = true;
    stop.hidden = false;
    let entry;
    try {
      const r = await collection().ask(question, {
        ...askOptions(),
        history: history(),
        signal: controller.signal,
        onProgress: (p) => (stage.textContent = `${p.stage}${p.total > 1 ? ` ${p.done}/${p.total}` : ''}`),
        onToken: (piece) => stream.append(piece),
      });
      entry = toEntry(question, r);
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
    await collection().setSetting(HISTORY_KEY, undefined);
  });
  redraw();
  return { redraw };
}
