// The package's PDF glyph source: pdf.js (the pdfjs-dist package) reports each page's
// text items and path operators; this module turns them into the positioned runs and
// ruling lines the wasm core's layout analysis reads (docrag::read::pdf::PageRuns).
// pdf.js is imported on the first PDF only, so DOCX, HTML and the rest never load it.
//
// pdf.js's parser runs on the calling thread ("fake worker": its worker module is
// imported here, which registers globalThis.pdfjsWorker), so no worker URL has to be
// configured in any bundler; run large PDFs in docrag's WorkerCollection to keep a
// page responsive.
import { docragError, abortError } from './shared.js';

let loading = null;
let base = null;

/**
 * Where pdf.js's legacy build is served (the directory of `pdf.min.mjs` and
 * `pdf.worker.min.mjs`), for pages without a bundler, where the bare specifier
 * `pdfjs-dist/...` does not resolve (`init({ pdfjs })`). Null: the bare import.
 */
export function setPdfjsBase(url) {
  const href = new URL(String(url), globalThis.location?.href).href;
  const dir = href.endsWith('/') ? href : `${href}/`;
  if (dir !== base) {
    base = dir;
    loading = null;
  }
}

let cMapUrl = null;

/**
 * Where pdf.js's predefined CMaps are (`pdfjs-dist/cmaps/`, with a trailing slash):
 * text in CJK fonts that are not embedded is mapped to Unicode through them. The
 * Node entry sets it; bundled and plain pages have none, and such text is lost.
 */
export function setPdfCMaps(url) {
  cMapUrl = url ? String(url) : null;
}

/** The configured base, for a WorkerCollection's worker. */
export function pdfjsBase() {
  return base;
}

/** pdf.js, imported once. The legacy build runs on Node 20 and older browsers. */
function pdfjs() {
  loading ??= (async () => {
    const lib = base
      ? await import(/* webpackIgnore: true */ /* @vite-ignore */ `${base}pdf.min.mjs`)
      : await import('pdfjs-dist/legacy/build/pdf.min.mjs');
    if (!globalThis.pdfjsWorker?.WorkerMessageHandler) {
      if (base) await import(/* webpackIgnore: true */ /* @vite-ignore */ `${base}pdf.worker.min.mjs`);
      else await import('pdfjs-dist/legacy/build/pdf.worker.min.mjs');
    }
    return lib;
  })().catch((e) => {
    loading = null;
    throw docragError(
      'unsupported-format',
      `PDF needs pdf.js (the pdfjs-dist package), which could not be loaded (${e?.message ?? e}); without a bundler, serve pdfjs-dist/legacy/build/ and pass its URL as init({ pdfjs })`,
      e,
    );
  });
  return loading;
}

// pdf.js operator codes (OPS) and path-drawing codes (DrawOPS) used below.
const SAVE = 10;
const RESTORE = 11;
const TRANSFORM = 12;
const FORM_BEGIN = 74;
const FORM_END = 75;
const CONSTRUCT_PATH = 91;
const STROKES = new Set([20, 21, 24, 25, 26, 27]);
const FILLS = new Set([22, 23]);
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUAD_TO = 3;
const CLOSE = 4;

/** The product of two affine matrices [a, b, c, d, e, f]: first `m`, then `n`. */
function multiply(n, m) {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

const apply = (m, x, y) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

/**
 * Ruling lines of a page's operator list, in viewport coordinates (top-left origin,
 * y down): every horizontal or vertical segment of a stroked path, and every thin
 * filled rectangle (at most 3 units thick, at least three times as long), which is
 * how many producers draw table rules. Curved paths are drawings, not rules.
 */
function rules(ops, viewport) {
  const out = [];
  let ctm = viewport.transform;
  const stack = [];
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i];
    if (fn === SAVE) stack.push(ctm);
    else if (fn === RESTORE) ctm = stack.pop() ?? viewport.transform;
    else if (fn === TRANSFORM) ctm = multiply(ctm, args);
    else if (fn === FORM_BEGIN) {
      stack.push(ctm);
      if (Array.isArray(args?.[0]) || ArrayBuffer.isView(args?.[0])) ctm = multiply(ctm, Array.from(args[0]));
    } else if (fn === FORM_END) ctm = stack.pop() ?? viewport.transform;
    else if (fn === CONSTRUCT_PATH) {
      const [op, [data]] = args;
      const stroked = STROKES.has(op);
      if ((stroked || FILLS.has(op)) && data) pathRules(data, ctm, stroked, out);
    }
  }
  return out;
}

function pathRules(data, ctm, stroked, out) {
  const subpaths = [];
  let points = [];
  for (let j = 0; j < data.length; ) {
    const code = data[j];
    if (code === MOVE_TO) {
      if (points.length > 1) subpaths.push({ points, closed: false });
      points = [apply(ctm, data[j + 1], data[j + 2])];
      j += 3;
    } else if (code === LINE_TO) {
      points.push(apply(ctm, data[j + 1], data[j + 2]));
      j += 3;
    } else if (code === CLOSE) {
      if (points.length > 1) subpaths.push({ points, closed: true });
      points = points.length ? [points[0]] : [];
      j += 1;
    } else if (code === CURVE_TO || code === QUAD_TO) {
      return;
    } else {
      return;
    }
  }
  if (points.length > 1) subpaths.push({ points, closed: false });
  for (const { points: p, closed } of subpaths) {
    if (stroked) {
      const segs = p.slice(1).map((b, k) => [p[k], b]);
      if (closed) segs.push([p[p.length - 1], p[0]]);
      for (const [a, b] of segs) {
        const straight = Math.abs(a[1] - b[1]) < 0.5 || Math.abs(a[0] - b[0]) < 0.5;
        if (straight && Math.hypot(a[0] - b[0], a[1] - b[1]) > 1) {
          out.push({ x0: Math.min(a[0], b[0]), y0: Math.min(a[1], b[1]), x1: Math.max(a[0], b[0]), y1: Math.max(a[1], b[1]) });
        }
      }
      continue;
    }
    let corners = p;
    if (p.length === 5 && Math.hypot(p[0][0] - p[4][0], p[0][1] - p[4][1]) < 0.01) corners = p.slice(0, 4);
    if (corners.length !== 4) continue;
    const xs = corners.map((q) => q[0]);
    const ys = corners.map((q) => q[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const onBox = corners.every(
      ([x, y]) => (Math.abs(x - x0) < 0.01 || Math.abs(x - x1) < 0.01) && (Math.abs(y - y0) < 0.01 || Math.abs(y - y1) < 0.01),
    );
    if (!onBox) continue;
    const [w, h] = [x1 - x0, y1 - y0];
    if (h <= 3 && w > 3 * Math.max(h, 0.5)) out.push({ x0, y0: (y0 + y1) / 2, x1, y1: (y0 + y1) / 2 });
    else if (w <= 3 && h > 3 * Math.max(w, 0.5)) out.push({ x0: (x0 + x1) / 2, y0, x1: (x0 + x1) / 2, y1 });
  }
}

/** Name and style of the font pdf.js loaded as `id` (after the page's operator list). */
function fontOf(page, id, cache) {
  let f = cache.get(id);
  if (f) return f;
  let obj = null;
  try {
    obj = page.commonObjs.has(id) ? page.commonObjs.get(id) : null;
  } catch {}
  const raw = typeof obj?.name === 'string' ? obj.name : '';
  const name = /^[A-Z]{6}\+/.test(raw) ? raw.slice(7) : raw;
  const lower = name.toLowerCase();
  f = {
    font: name,
    bold: Boolean(obj?.bold || obj?.black) || /bold|black|heavy|semibold|demi/.test(lower),
    italic: Boolean(obj?.italic) || /italic|oblique/.test(lower),
  };
  cache.set(id, f);
  return f;
}

/**
 * Text runs of a page's text content in viewport coordinates: x of the run's start,
 * y of its baseline from the top, its advance width along its baseline, its font
 * size in units and its baseline's direction.
 */
function runs(page, content, viewport, fonts, ids) {
  const out = [];
  const scale = Math.hypot(viewport.transform[0], viewport.transform[1]) || 1;
  // Marked-content sequences open around the item; the innermost with an id that
  // the structure tree claims tags it.
  // Past 1,024 open sequences the deeper ones are only counted, so each end still
  // closes its own.
  const marked = [];
  let past = 0;
  for (const item of content.items) {
    if (item.type === 'beginMarkedContentProps' || item.type === 'beginMarkedContent') {
      if (marked.length < 1024) marked.push(item.id ?? null);
      else past++;
      continue;
    }
    if (item.type === 'endMarkedContent') {
      if (past > 0) past--;
      else marked.pop();
      continue;
    }
    if (typeof item.str !== 'string' || !item.str.trim()) continue;
    let element = null;
    for (let i = marked.length - 1; i >= 0; i--) {
      if (marked[i] != null && ids.has(marked[i])) {
        element = ids.get(marked[i]);
        break;
      }
    }
    const t = multiply(viewport.transform, item.transform);
    const size = Math.hypot(t[2], t[3]);
    out.push({
      text: item.str,
      x: t[4],
      y: t[5],
      width: (item.width ?? 0) * scale,
      height: size,
      // The baseline's direction (text turned on the page reads along it).
      dir: [t[0], t[1]],
      element,
      ...fontOf(page, item.fontName, fonts),
    });
  }
  return out;
}

/**
 * The page's part of a tagged PDF's structure tree (`page.getStructTree()`, roles
 * after the role map) as `{elements: [{role, parent}], ids}`: `ids` maps each
 * marked-content id to the index of the element claiming it. Untagged: empty.
 */
async function structure(page) {
  const elements = [];
  const ids = new Map();
  let tree = null;
  try {
    tree = await page.getStructTree();
  } catch {}
  const stack = [];
  for (const kid of tree?.children ?? []) stack.push([kid, null, 0]);
  stack.reverse();
  while (stack.length && elements.length < 500_000) {
    const [node, parent, depth] = stack.pop();
    if (node?.type === 'content' && typeof node.id === 'string') {
      if (parent != null && !ids.has(node.id)) ids.set(node.id, parent);
      continue;
    }
    if (typeof node?.role !== 'string' || depth > 128) continue;
    const index = elements.length;
    elements.push({ role: node.role, parent });
    const kids = Array.isArray(node.children) ? node.children : [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], index, depth + 1]);
  }
  return { elements, ids };
}

/** Outline entries with the 1-based page each points to (unresolved ones dropped). */
async function outline(doc) {
  const out = [];
  let items = [];
  try {
    items = (await doc.getOutline()) ?? [];
  } catch {
    return out;
  }
  const walk = async (list, level) => {
    for (const item of list) {
      if (out.length >= 50_000) return;
      try {
        let dest = item.dest;
        if (typeof dest === 'string') dest = await doc.getDestination(dest);
        const ref = Array.isArray(dest) ? dest[0] : null;
        const index = ref && typeof ref === 'object' ? await doc.getPageIndex(ref) : Number.isInteger(ref) ? ref : -1;
        if (index >= 0) out.push({ title: String(item.title ?? ''), level: Math.min(level, 255), page: index + 1 });
      } catch {}
      if (level < 32 && Array.isArray(item.items)) await walk(item.items, level + 1);
    }
  };
  await walk(items, 1);
  return out;
}

/** A pdf.js failure as a DocragError. */
function failure(e) {
  if (e?.code && e.name === 'DocragError') return e;
  if (e?.name === 'PasswordException') {
    return docragError('pdf-encrypted', 'the PDF is password-protected (it needs a password to open); remove the password and try again', e);
  }
  return docragError('malformed-pdf', `not a readable PDF: ${e?.message ?? e}`, e);
}

/**
 * Reads `bytes` (a Uint8Array of a PDF) into `{pages, outline, info}` for the wasm
 * core. Pages outside `firstPage..lastPage` are reported empty (their numbers kept);
 * `onPage(done, total)` is called after each page; `signal` aborts between pages.
 */
export async function readPdf(bytes, { firstPage, lastPage, maxPages, signal, onPage } = {}) {
  const lib = await pdfjs();
  if (signal?.aborted) throw abortError();
  // pdf.js transfers (detaches) the buffer it is given: hand it a copy.
  const task = lib.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    ...(cMapUrl ? { cMapUrl, cMapPacked: true } : {}),
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy().catch(() => {});
    throw failure(e);
  }
  try {
    const count = doc.numPages;
    if (count > (maxPages ?? Infinity)) {
      throw docragError('too-large', `the document has more pages than the limit of ${maxPages} (raise the limit in the options if the file is trusted)`);
    }
    const first = firstPage ?? 1;
    const last = lastPage ?? count;
    const pages = [];
    for (let n = 1; n <= count; n++) {
      if (signal?.aborted) throw abortError();
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const entry = { number: n, width: viewport.width, height: viewport.height, runs: [], rules: [] };
      if (n >= first && n <= last) {
        try {
          const ops = await page.getOperatorList();
          const content = await page.getTextContent({ includeMarkedContent: true });
          const tags = await structure(page);
          entry.runs = runs(page, content, viewport, new Map(), tags.ids);
          entry.rules = rules(ops, viewport);
          entry.elements = tags.elements;
        } catch (e) {
          if (e?.name === 'AbortException') throw abortError();
        }
      }
      page.cleanup();
      pages.push(entry);
      try {
        onPage?.(n, count);
      } catch {}
    }
    let info = {};
    try {
      const meta = await doc.getMetadata();
      const i = meta?.info ?? {};
      info = { title: i.Title, author: i.Author, subject: i.Subject, keywords: i.Keywords };
      for (const k of Object.keys(info)) if (typeof info[k] !== 'string') delete info[k];
    } catch {}
    return { pages, outline: await outline(doc), info };
  } catch (e) {
    throw e?.name === 'AbortError' || e?.name === 'DocragError' ? e : failure(e);
  } finally {
    await doc.destroy().catch(() => {});
  }
}
