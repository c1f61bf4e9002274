// Small DOM helpers. Every string passed here lands in the page as text (textContent
// or an attribute value), never as HTML: document text and model output are hostile.

/** Creates an element: `el('p', { className: 'x', textContent: t }, child, 'text')`. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('aria') || key === 'role' || key === 'for') node.setAttribute(key.replace(/^aria([A-Z])/, (_, c) => `aria-${c.toLowerCase()}`), value);
    else node[key] = value;
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** `1234567` -> `1,234,567`. */
export const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : String(n ?? ''));

/** `3` -> `p. 3`; `2, 4` -> `pp. 2–4`; an estimated page (`source` "estimated") -> `p. ~3`; 0 or missing -> ''. */
export function pages(first, last, source) {
  if (!first) return '';
  const about = source === 'estimated' ? '~' : '';
  return !last || first === last ? `p. ${about}${first}` : `pp. ${about}${first}–${last}`;
}

/** `1, 'chunk'` -> `1 chunk`; `2, 'chunk'` -> `2 chunks`. */
export const count = (n, word) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;

/** Bytes as KB/MB (10^3 units). */
export function size(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * An error's message without a leading restatement of its code: `network` with
 * "network error: Failed to fetch" -> "Failed to fetch", so the code shows once.
 */
export function messageOf(code, message) {
  const words = code.replace(/-/g, ' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const rest = message.replace(new RegExp(`^${words}( error)?: `, 'i'), '');
  return rest || message;
}

/** An error as a paragraph: the DocragError code (or the error's name) and its message. */
export function errorView(err, what) {
  // An abort is a DOMException named AbortError; docrag's code is its cause's.
  const code = err?.name === 'AbortError'
    ? err.cause?.code ?? 'aborted'
    : typeof err?.code === 'string' ? err.code : err?.name ?? 'error';
  return el(
    'p',
    { className: 'error', role: 'alert', dataset: { code } },
    what ? `${what}: ` : '',
    el('code', { textContent: code }),
    ` ${messageOf(code, String(err?.message ?? err))}`,
    err?.option ? ` (option ${err.option})` : '',
  );
}

/** Replaces a container's content. */
export function replace(container, ...children) {
  container.replaceChildren(...children.filter((c) => c !== null && c !== undefined && c !== false));
}
