// Markdown -> HTML -> DOMPurify -> DOM. The only way document text or model output
// becomes markup on this page. docrag's chunk Markdown carries its own inline HTML
// (tables with spans, <ins>/<del> with author and date, <mark comment="n"> with
// <comment id author date reply-to>); those tags and attributes are allowed, anything
// that could run code or fetch something (scripts, handlers, javascript: URLs,
// images, frames, forms, SVG, styles) is not.
import { marked } from '../vendor/marked/marked.esm.js';
import DOMPurify from '../vendor/dompurify/purify.es.mjs';

const PURIFY = {
  ADD_TAGS: ['ins', 'del', 'mark', 'comment'],
  ADD_ATTR: ['author', 'date', 'id', 'reply-to', 'type', 'comment', 'colspan', 'rowspan'],
  FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'svg', 'math', 'video', 'audio', 'picture', 'source', 'iframe', 'object', 'embed', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style', 'class', 'srcset', 'src'],
  // Element ids from documents would clobber ours; keep them as data instead.
  SANITIZE_NAMED_PROPS: true,
  RETURN_DOM_FRAGMENT: true,
};

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  // Show who made a revision or comment on hover, too.
  if (['INS', 'DEL', 'COMMENT'].includes(node.tagName)) {
    const who = node.getAttribute('author');
    const when = node.getAttribute('date');
    if (who || when) node.setAttribute('title', [who, when].filter(Boolean).join(', '));
  }
});

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const escapeHtml = (text) => text.replace(/[&<>]/g, (c) => ESCAPES[c]);

/**
 * Markdown inside an HTML block (docrag's `<table>` cells) is not parsed by
 * CommonMark; render the emphasis, code and links of each cell's text nodes. The
 * text is escaped first, so markup it spells out stays text.
 */
function renderCellInlines(fragment) {
  for (const cell of fragment.querySelectorAll('td, th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (/[*_`[]/.test(n.nodeValue)) nodes.push(n);
    for (const node of nodes) {
      const html = marked.parseInline(escapeHtml(node.nodeValue), { async: false, gfm: true });
      node.replaceWith(DOMPurify.sanitize(html, PURIFY));
    }
  }
  return fragment;
}

/** Renders Markdown (with docrag's inline HTML) into a sanitized DocumentFragment. */
export function renderMarkdown(markdown) {
  const html = marked.parse(String(markdown ?? ''), { async: false, gfm: true });
  return renderCellInlines(DOMPurify.sanitize(html, PURIFY));
}

/**
 * Answers quote table rows out of their table (`<tr>...</tr>` inline); wrap each run
 * of rows in a table so the HTML parser keeps the cells instead of dropping the tags.
 */
export function wrapStrayRows(text) {
  return String(text ?? '').replace(/(?:<tr>[\s\S]*?<\/tr>\s*)+/g, (rows) => `<table data-quoted="">${rows.trim()}</table>`);
}

/**
 * Turns every `[n]` in the text nodes under `root` into a link made by `link(n)`
 * (which returns an element, or null to leave the marker as text).
 */
export function linkMarkers(root, link) {
  // `[3]` and lists such as `[2, 5]` or `[1; 4]`: each number becomes its own link.
  const marker = /(\[\d+(?:\s*[,;]\s*\d+)*\])/;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (marker.test(n.nodeValue)) nodes.push(n);
  for (const node of nodes) {
    const parts = node.nodeValue.split(marker);
    const out = parts.flatMap((part) => {
      if (!/^\[[\d,;\s]+\]$/.test(part)) return [document.createTextNode(part)];
      const numbers = part.slice(1, -1).split(/\s*[,;]\s*/).map(Number);
      const links = numbers.map((n) => link(n));
      if (links.some((l) => !l)) return [document.createTextNode(part)];
      const nodesOut = [document.createTextNode('[')];
      links.forEach((l, i) => {
        if (i > 0) nodesOut.push(document.createTextNode(', '));
        nodesOut.push(l);
      });
      nodesOut.push(document.createTextNode(']'));
      return nodesOut;
    });
    node.replaceWith(...out);
  }
}
