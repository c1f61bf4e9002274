// docrag demo: convert dropped files in the browser and list the chunks.
// Document content is only ever written with textContent, never as HTML.
import { init, convert, version } from './pkg/web.js';

const $ = (id) => document.getElementById(id);
const results = $('results');
const status = $('status');

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

function metadataTable(record) {
  const table = el('table', { className: 'meta' });
  for (const [key, value] of Object.entries(record)) {
    table.append(el('tr', {}, el('td', { textContent: key }), el('td', { textContent: String(value) })));
  }
  return table;
}

function chunkView(text, record) {
  const pages = record.firstPage === record.lastPage ? `p. ${record.firstPage}` : `pp. ${record.firstPage}–${record.lastPage}`;
  const parts = [`#${record.ssSeq}`, `${record.tokenCount} tokens`, pages, record.chunkKind, record.headingPath]
    .filter((p) => p !== undefined && p !== '' && p !== 'p. undefined');
  const details = el('details', {}, el('summary', { textContent: parts.join(' · ') }));
  details.append(el('pre', { textContent: text }), metadataTable(record));
  return details;
}

async function showFile(file, maxTokens) {
  const section = el('section', { className: 'file' }, el('h2', { textContent: file.name }));
  results.append(section);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const started = performance.now();
  try {
    const { docId, title, chunks, metadata, warnings } = convert(bytes, { maxTokens, fileName: file.name });
    const ms = performance.now() - started;
    const tokens = metadata.reduce((sum, m) => sum + (Number(m.tokenCount) || 0), 0);
    section.append(
      el('p', {
        className: 'summary',
        textContent: `“${title}” · ${docId} · ${chunks.length} chunk${chunks.length === 1 ? '' : 's'} · ${tokens} tokens · ${(bytes.length / 1024).toFixed(1)} KiB in ${ms.toFixed(0)} ms`,
      }),
    );
    if (warnings.length) {
      const list = el('ul', { className: 'warnings' });
      for (const w of warnings) list.append(el('li', {}, el('code', { className: 'code', textContent: w.code }), ` ${w.message}`));
      section.append(el('p', { textContent: `${warnings.length} warning(s):` }), list);
    }
    chunks.forEach((text, i) => section.append(chunkView(text, metadata[i])));
  } catch (err) {
    const code = err && typeof err.code === 'string' ? err.code : 'unexpected';
    section.append(
      el('p', { className: 'error' }, 'Error ', el('code', { className: 'code', textContent: code }), `: ${err?.message ?? String(err)}`),
    );
  }
}

async function handle(files) {
  const maxTokens = Number($('max-tokens').value) || 512;
  for (const file of files) {
    status.textContent = `Converting ${file.name}…`;
    // Let the status paint before the (synchronous) conversion runs.
    await new Promise((r) => setTimeout(r, 0));
    await showFile(file, maxTokens);
  }
  status.textContent = `docrag ${version()} ready`;
}

$('files').addEventListener('change', (e) => handle([...e.target.files]));
const drop = $('drop');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  handle([...e.dataTransfer.files]);
});

try {
  await init();
  status.textContent = `docrag ${version()} ready`;
} catch (err) {
  status.textContent = '';
  status.append(el('span', { className: 'error', textContent: `Could not load docrag (${err.code}): ${err.message}` }));
}
