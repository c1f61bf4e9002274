// Settings: the model provider (none / OpenAI-compatible / Ollama), the processing
// options of questions and the chunk size of new files. Non-secret values persist
// in the collection's settings; the API key stays in memory unless "remember" is
// ticked, which hands it to setProvider(p, { remember: true }) (stored in IndexedDB).
import { el, errorView, replace } from './dom.js';

export const DEFAULTS = {
  mode: 'rag',
  maxTokens: 512,
  routing: true,
  confidenceThreshold: 70,
  smallCollectionTokens: 20000,
  topK: '',
};

const PROVIDER_DEFAULTS = { kind: 'none', baseUrl: '', embeddingModel: '', chatModel: '', smallModel: '', remembered: false };
const BASE_URL_HINT = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' };

function field(label, input, hint) {
  return el('label', { className: 'field' }, el('span', { textContent: label }), input, hint ? el('small', { textContent: hint }) : null);
}

/**
 * Builds the settings form in `container`. `collection()` returns the open
 * Collection; `onProvider(options|null, remember)` applies a provider (and may
 * throw a DocragError, shown under the form).
 * Returns `{ values() }`: the processing settings in force.
 */
export function setupSettings(container, { collection, onProvider }) {
  const stored = { ...DEFAULTS, ...(collection().getSetting('demo.settings') ?? {}) };
  const prov = { ...PROVIDER_DEFAULTS, ...(collection().getSetting('demo.provider') ?? {}) };

  const kind = el('select', { id: 'provider-kind' }, el('option', { value: 'none', textContent: 'None (BM25 + extractive answers)' }), el('option', { value: 'openai', textContent: 'OpenAI-compatible' }), el('option', { value: 'ollama', textContent: 'Ollama' }));
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
    providerFields.hidden = k === 'none';
    rememberRow.hidden = k === 'none';
    keyField.hidden = k !== 'openai';
    baseUrl.placeholder = BASE_URL_HINT[k] ?? '';
    embeddingModel.placeholder = k === 'ollama' ? 'e.g. nomic-embed-text' : 'e.g. text-embedding-3-small';
    chatModel.placeholder = k === 'ollama' ? 'e.g. llama3.2' : 'e.g. gpt-4o-mini';
  }
  kind.addEventListener('change', syncKind);
  syncKind();

  function providerStatus() {
    const p = collection().provider;
    if (!p) return 'No provider: questions use BM25 retrieval and the extractive answerer.';
    const parts = [p.embeddingModelId ? `embeddings ${p.embeddingModelId}` : 'no embeddings', p.chat ? 'chat' : 'no chat', p.smallChat ? 'small chat model' : ''];
    return `Provider in use: ${parts.filter(Boolean).join(', ')}.`;
  }
  replace(status, providerStatus());

  const providerForm = el('form', { className: 'provider', ariaLabel: 'Model provider' }, field('Provider', kind), providerFields, rememberRow, el('div', { className: 'row' }, apply), status);
  providerForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const k = kind.value;
    const options = k === 'none' ? null : { kind: k };
    if (options) {
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
      await onProvider(options, remember.checked && options !== null, (text) => replace(status, text));
      const saved = { kind: k, baseUrl: baseUrl.value.trim(), embeddingModel: embeddingModel.value.trim(), chatModel: chatModel.value.trim(), smallModel: smallModel.value.trim(), remembered: remember.checked && k !== 'none' };
      await collection().setSetting('demo.provider', saved);
      replace(status, providerStatus());
    } catch (err) {
      replace(status, errorView(err, 'The provider was not applied'));
    } finally {
      apply.disabled = false;
    }
  });

  // Processing options, saved on every change.
  const mode = el('select', { id: 'mode' }, ...[
    ['rag', 'RAG: retrieve + enrich'],
    ['adaptive-rag', 'Adaptive RAG: grow to the context window'],
    ['adaptive', 'Adaptive: whole documents when they fit'],
    ['entire', 'Entire documents'],
  ].map(([value, text]) => el('option', { value, textContent: text })));
  mode.value = stored.mode;
  const maxTokens = el('input', { id: 'max-tokens', type: 'number', min: 64, step: 64, value: stored.maxTokens });
  const routing = el('input', { id: 'routing', type: 'checkbox', checked: stored.routing });
  const threshold = el('input', { id: 'threshold', type: 'number', min: 0, max: 100, value: stored.confidenceThreshold });
  const small = el('input', { id: 'send-all-below', type: 'number', min: 0, step: 1000, value: stored.smallCollectionTokens });
  const topK = el('input', { id: 'top-k', type: 'number', min: 1, value: stored.topK, placeholder: 'auto (15% of chunks)' });

  function values() {
    const num = (input, fallback) => (input.value === '' || !Number.isFinite(Number(input.value)) ? fallback : Math.round(Number(input.value)));
    return {
      mode: mode.value,
      maxTokens: Math.max(64, num(maxTokens, DEFAULTS.maxTokens)),
      routing: routing.checked,
      confidenceThreshold: Math.min(100, Math.max(0, num(threshold, DEFAULTS.confidenceThreshold))),
      smallCollectionTokens: Math.max(0, num(small, DEFAULTS.smallCollectionTokens)),
      topK: topK.value === '' ? '' : Math.max(1, num(topK, 1)),
    };
  }
  const processing = el(
    'form',
    { className: 'processing', ariaLabel: 'Processing options' },
    field('Processing mode', mode),
    field('Max chunk tokens (new files)', maxTokens, 'o200k_base tokens, at least 64.'),
    el('label', { className: 'check' }, routing, ' Route questions to documents with the chat model'),
    field('Routing confidence threshold (0–100)', threshold),
    field('Send everything below (tokens)', small, 'Smaller collections skip retrieval; 0 always retrieves.'),
    field('Chunks to retrieve', topK),
  );
  processing.addEventListener('submit', (e) => e.preventDefault());
  processing.addEventListener('change', () => collection().setSetting('demo.settings', values()));

  replace(container, el('h3', { textContent: 'Model provider' }), providerForm, el('h3', { textContent: 'Processing' }), processing);
  return { values, refreshStatus: () => replace(status, providerStatus()) };
}
