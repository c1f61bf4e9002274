// Settings: the model provider (none / local model / OpenAI-compatible / Ollama), the processing
// options of questions and the chunk size of new files. Non-secret values persist
// in the collection's settings; the API key stays in memory unless "remember" is
// ticked, which hands it to setProvider(p, { remember: true }) (stored in IndexedDB).
// Setting a provider and embedding the stored documents with it are two steps: the
// second can fail (a dead server) while the first stands, and the status says so.
import { el, errorView, fmt, replace } from './dom.js';
import { unembedded } from './store.js';

export const DEFAULTS = {
  mode: 'rag',
  maxTokens: 512,
  routing: true,
  confidenceThreshold: 70,
  smallCollectionTokens: 20000,
  tokenBudget: 4000,
  topK: '',
};

const PROVIDER_DEFAULTS = { kind: 'none', baseUrl: '', embeddingModel: '', chatModel: '', smallModel: '', remembered: false };
const BASE_URL_HINT = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' };

/**
 * The numeric settings and their bounds (whole numbers). `topK` may be empty (auto).
 * The upper bounds keep values the ask options would refuse (`invalid-option`) or
 * that make no sense in a browser tab out of the form.
 */
export const NUMBERS = {
  maxTokens: { id: 'max-tokens', label: 'Max chunk tokens', min: 64, max: 16384, step: 64 },
  confidenceThreshold: { id: 'threshold', label: 'Routing confidence threshold', min: 0, max: 100, step: 1 },
  tokenBudget: { id: 'token-budget', label: 'Token budget', min: 100, max: 200000, step: 100 },
  smallCollectionTokens: { id: 'send-all-below', label: 'Send everything below', min: 0, max: 1000000, step: 1000 },
  topK: { id: 'top-k', label: 'Chunks to retrieve', min: 1, max: 500, step: 1, optional: true },
};

/** What is wrong with a numeric input's value under `spec`, or '' when it is valid. */
export function numberProblem(input, spec) {
  const range = `a whole number from ${fmt(spec.min)} to ${fmt(spec.max)}`;
  if (input.value.trim() === '') return input.validity?.badInput ? `${spec.label} must be ${range}.` : spec.optional ? '' : `${spec.label} is required: ${range}.`;
  const n = Number(input.value);
  if (!Number.isInteger(n) || n < spec.min || n > spec.max) return `${spec.label} must be ${range}${Number.isFinite(n) ? `, not ${fmt(n)}` : ''}.`;
  return '';
}

/**
 * The local embedding model (docrag-local-embed, served beside the demo at
 * /local-embed/ by `make demo`), loaded once per page; `show(text)` gets the load's
 * progress. Everything it fetches comes from this page's origin.
 */
let local = null;
async function localModel(show) {
  if (local) return local;
  const { loadLocalModel } = await import(new URL('../local-embed/index.js', import.meta.url).href);
  const pending = loadLocalModel({
    onProgress: (p) => {
      if (p.stage === 'download') show(`Local model: downloading ${p.file}, ${fmt(Math.round(p.loaded / 1e6))} of ${fmt(Math.round(p.total / 1e6))} MB…`);
      else if (p.stage !== 'ready') show(`Local model: ${p.stage}…`);
    },
  });
  local = await pending;
  return local;
}

function field(label, input, hint, error) {
  return el('label', { className: 'field' }, el('span', { textContent: label }), input, hint ? el('small', { textContent: hint }) : null, error ?? null);
}

/**
 * Builds the settings form in `container`. `store` is the open collection
 * (ui/store.js); `initial` holds the stored `settings` and `provider` values;
 * `onChanged()` runs after the provider or the stored vectors changed (it resyncs
 * the store and redraws).
 * Returns `{ values(), problems(), reveal(problem), restoreProvider(), refreshStatus() }`:
 * the processing settings in force, what is wrong with the numeric ones
 * (`[{ id, message }]`), showing one of those to the user, applying again a local
 * model chosen before the page loaded, and a redraw of the provider status.
 */
export function setupSettings(container, { store, initial, onChanged }) {
  const stored = { ...DEFAULTS, ...(initial.settings ?? {}) };
  const prov = { ...PROVIDER_DEFAULTS, ...(initial.provider ?? {}) };

  const kind = el('select', { id: 'provider-kind' }, el('option', { value: 'none', textContent: 'None (BM25 + extractive answers)' }), el('option', { value: 'local', textContent: 'Local model (no network)' }), el('option', { value: 'openai', textContent: 'OpenAI-compatible' }), el('option', { value: 'ollama', textContent: 'Ollama' }));
  kind.value = prov.kind;
  const baseUrl = el('input', { id: 'provider-url', type: 'url', value: prov.baseUrl, spellcheck: false });
  const apiKey = el('input', { id: 'provider-key', type: 'password', autocomplete: 'off', placeholder: prov.remembered ? 'remembered in this browser' : '' });
  const embeddingModel = el('input', { id: 'provider-embedding', value: prov.embeddingModel, placeholder: 'e.g. text-embedding-3-small', spellcheck: false });
  const chatModel = el('input', { id: 'provider-chat', value: prov.chatModel, placeholder: 'e.g. gpt-4o-mini', spellcheck: false });
  const smallModel = el('input', { id: 'provider-small', value: prov.smallModel, placeholder: 'default: the chat model', spellcheck: false });
  const remember = el('input', { id: 'provider-remember', type: 'checkbox', checked: prov.remembered });
  const apply = el('button', { id: 'provider-apply', type: 'submit', textContent: 'Use this provider' });
  const status = el('div', { className: 'provider-status', role: 'status' });

  const keyField = field('API key', apiKey, 'Kept in memory only, unless "remember" is ticked.');
  const providerFields = el(
    'div',
    { className: 'provider-fields' },
    field('Base URL', baseUrl),
    keyField,
    field('Embedding model', embeddingModel),
    field('Chat model', chatModel),
    field('Small model (routing)', smallModel),
  );
  const rememberRow = el('label', { className: 'check' }, remember, ' Remember the provider and key in this browser');

  function syncKind() {
    const k = kind.value;
    providerFields.hidden = k === 'none' || k === 'local';
    rememberRow.hidden = k === 'none' || k === 'local';
    keyField.hidden = k !== 'openai';
    baseUrl.placeholder = BASE_URL_HINT[k] ?? '';
    embeddingModel.placeholder = k === 'ollama' ? 'e.g. nomic-embed-text' : 'e.g. text-embedding-3-small';
    chatModel.placeholder = k === 'ollama' ? 'e.g. llama3.2' : 'e.g. gpt-4o-mini';
  }
  kind.addEventListener('change', syncKind);
  syncKind();

  // Embedding the stored documents: idle, running (a progress text) or failed (the error).
  let embedding = { state: 'idle' };

  function providerLine() {
    const p = store.provider;
    if (!p) return 'No provider: questions use BM25 retrieval and the extractive answerer.';
    const parts = [p.embeddingModelId ? `embeddings ${p.embeddingModelId}` : 'no embeddings', p.chat ? 'chat' : 'no chat', p.smallChat ? 'small chat model' : ''];
    return `Provider in use: ${parts.filter(Boolean).join(', ')}.`;
  }

  function embedButton(text) {
    const b = el('button', { id: 'provider-embed', type: 'button', textContent: text, disabled: embedding.state === 'running' || apply.disabled });
    b.addEventListener('click', () => embedStored());
    return b;
  }

  function renderStatus() {
    if (embedding.state === 'running') {
      replace(status, el('p', { className: 'embed-state', textContent: embedding.progress }));
      return;
    }
    const missing = unembedded(store);
    if (!missing.length) embedding = { state: 'idle' };
    const line = el('p', { textContent: providerLine() });
    if (embedding.state === 'failed') {
      replace(status, line, errorView(embedding.error, 'Embedding the stored documents failed'), el('p', { className: 'row' }, embedButton('Retry embedding'), el('small', { textContent: `Until then, questions use BM25 retrieval only for ${missing.length} of ${store.documents.length} documents.` })));
    } else if (missing.length) {
      const text = `${missing.length} of ${store.documents.length} documents have no vectors of ${store.provider.embeddingModelId}; questions use BM25 retrieval only for them.`;
      replace(status, line, el('p', { className: 'warn embed-state', textContent: text }), el('p', { className: 'row' }, embedButton('Embed them now')));
    } else {
      replace(status, line);
    }
  }

  /** Embeds the stored documents that lack vectors of the provider's model. */
  async function embedStored() {
    if (embedding.state === 'running') return;
    embedding = { state: 'running', progress: 'Provider set; embedding the stored documents…' };
    renderStatus();
    try {
      await store.api.embedMissing({
        onProgress: (p) => {
          embedding.progress = `Provider set; embedding the stored documents: ${p.stage} ${p.done}/${p.total}`;
          renderStatus();
        },
      });
      embedding = { state: 'idle' };
    } catch (err) {
      embedding = { state: 'failed', error: err };
    }
    await onChanged();
    renderStatus();
  }

  const providerForm = el('form', { className: 'provider', ariaLabel: 'Model provider' }, field('Provider', kind), providerFields, rememberRow, el('div', { className: 'row' }, apply), status);
  providerForm.addEventListener('submit', (e) => {
    e.preventDefault();
    applyProvider();
  });

  /** Applies the provider the form shows: loads the local model first for "local". */
  async function applyProvider() {
    const k = kind.value;
    let options = k === 'none' ? null : { kind: k };
    if (k === 'local') {
      apply.disabled = true;
      try {
        options = (await localModel((text) => replace(status, text))).providerOptions();
      } catch (err) {
        apply.disabled = false;
        replace(status, errorView(err, 'The local model could not be loaded'));
        return;
      }
    } else if (options) {
      const put = (key, input) => input.value.trim() && (options[key] = input.value.trim());
      put('baseUrl', baseUrl);
      if (k === 'openai') put('apiKey', apiKey);
      put('embeddingModel', embeddingModel);
      put('chatModel', chatModel);
      put('smallModel', smallModel);
    }
    apply.disabled = true;
    replace(status, 'Applying…');
    try {
      await store.api.setProvider(options, { remember: remember.checked && options !== null && k !== 'local' });
    } catch (err) {
      apply.disabled = false;
      replace(status, errorView(err, 'The provider was not applied'));
      return;
    }
    embedding = { state: 'idle' };
    try {
      const saved = { kind: k, baseUrl: baseUrl.value.trim(), embeddingModel: embeddingModel.value.trim(), chatModel: chatModel.value.trim(), smallModel: smallModel.value.trim(), remembered: remember.checked && k !== 'none' && k !== 'local' };
      await store.api.setSetting('demo.provider', saved);
    } catch (err) {
      status.append(errorView(err, 'The provider is in use, but its settings could not be saved'));
    }
    await onChanged();
    if (unembedded(store).length) await embedStored();
    apply.disabled = false;
    renderStatus();
  }

  // Processing options, saved on every change while every number is valid.
  const mode = el('select', { id: 'mode' }, ...[
    ['rag', 'RAG: retrieve + enrich'],
    ['adaptive-rag', 'Adaptive RAG: grow to the context window'],
    ['adaptive', 'Adaptive: whole documents when they fit'],
    ['entire', 'Entire documents'],
  ].map(([value, text]) => el('option', { value, textContent: text })));
  mode.value = stored.mode;
  const routing = el('input', { id: 'routing', type: 'checkbox', checked: stored.routing });
  const inputs = {};
  const errors = {};
  for (const [key, spec] of Object.entries(NUMBERS)) {
    errors[key] = el('small', { id: `${spec.id}-error`, className: 'error invalid', hidden: true });
    inputs[key] = el('input', { id: spec.id, type: 'number', inputMode: 'numeric', min: spec.min, max: spec.max, step: spec.step, value: stored[key], ariaDescribedby: `${spec.id}-error` });
  }
  inputs.topK.placeholder = 'auto (15% of chunks)';

  /** Marks each numeric input valid or not; returns the problems, in form order. */
  function problems() {
    const out = [];
    for (const [key, spec] of Object.entries(NUMBERS)) {
      const message = numberProblem(inputs[key], spec);
      inputs[key].setAttribute('aria-invalid', String(Boolean(message)));
      errors[key].textContent = message;
      errors[key].hidden = !message;
      if (message) out.push({ id: spec.id, message });
    }
    return out;
  }

  /** Opens the settings and puts the focus on the input of `problem`. */
  function reveal(problem) {
    const details = container.closest('details');
    if (details) details.open = true;
    const input = container.querySelector(`#${problem.id}`);
    input?.scrollIntoView({ block: 'center' });
    input?.focus();
  }

  /** The processing settings; a numeric one that is not valid reads as its default. */
  function values() {
    const num = (key) => (numberProblem(inputs[key], NUMBERS[key]) || inputs[key].value.trim() === '' ? DEFAULTS[key] : Number(inputs[key].value));
    return {
      mode: mode.value,
      maxTokens: num('maxTokens'),
      routing: routing.checked,
      confidenceThreshold: num('confidenceThreshold'),
      smallCollectionTokens: num('smallCollectionTokens'),
      tokenBudget: num('tokenBudget'),
      topK: num('topK'),
    };
  }
  const processing = el(
    'form',
    { className: 'processing', ariaLabel: 'Processing options', noValidate: true },
    field('Processing mode', mode),
    field('Max chunk tokens (new files)', inputs.maxTokens, 'o200k_base tokens, 64 to 16,384.', errors.maxTokens),
    el('label', { className: 'check' }, routing, ' Route questions to documents with the chat model'),
    field('Routing confidence threshold (0–100)', inputs.confidenceThreshold, null, errors.confidenceThreshold),
    field('Token budget (context)', inputs.tokenBudget, 'o200k tokens of excerpts per question, 100 to 200,000. A collection that fits is sent whole.', errors.tokenBudget),
    field('Send everything below (tokens)', inputs.smallCollectionTokens, '0 always retrieves. Otherwise, under the token budget a collection that fits the budget is sent whole. At most 1,000,000.', errors.smallCollectionTokens),
    field('Chunks to retrieve', inputs.topK, 'Empty: the token budget decides. 1 to 500: a fixed top-k instead.', errors.topK),
  );
  processing.addEventListener('submit', (e) => e.preventDefault());
  processing.addEventListener('input', () => problems());
  processing.addEventListener('change', () => {
    if (!problems().length) store.api.setSetting('demo.settings', values()).catch(() => {});
  });
  problems();

  replace(container, el('h3', { textContent: 'Model provider' }), providerForm, el('h3', { textContent: 'Processing' }), processing);
  renderStatus();
  /**
   * The local model was the provider last time: it is loaded and applied again (from
   * this page's origin). A remote provider the user asked to remember comes back with
   * the collection; a function provider cannot be stored.
   */
  function restoreProvider() {
    if (prov.kind === 'local' && !store.provider) return applyProvider();
  }
  return { values, problems, reveal, restoreProvider, refreshStatus: () => !apply.disabled && embedding.state !== 'running' && renderStatus() };
}
