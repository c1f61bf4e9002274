// The PDF section of `make bench` (issue 36): the dev PDFs of tests/fixtures/pdf/
// through the package (pdf.js as the glyph source, docrag's layout and chunking in
// wasm: `convertAsync`) beside pdf.js's own `getTextContent` over the same pages (the
// floor any pdf.js-based reader pays), @firecrawl/pdf-inspector-wasm's `processPdf`
// (a Rust PDF-to-Markdown reader in wasm; installed into target/peers/ on first use,
// never a project dependency) and the native CLI (`docrag bench`, hayro as the glyph
// source). Best of `iterations` runs per file, in milliseconds, one process.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { installPeer } from './bench-peer.mjs';

const FIRECRAWL = '@firecrawl/pdf-inspector-wasm';
const FIRECRAWL_VERSION = '0.1.3';

async function loadFirecrawl(root) {
  const installed = installPeer(root, FIRECRAWL, FIRECRAWL_VERSION, 'pdf_inspector_wasm.js');
  if (installed.error) return installed;
  try {
    const m = await import(pathToFileURL(join(installed.dir, 'pdf_inspector_wasm.js')).href);
    m.initSync({ module: readFileSync(join(installed.dir, 'pdf_inspector_wasm_bg.wasm')) });
    return { process: (bytes) => m.processPdf(bytes) };
  } catch (e) {
    return { error: `${FIRECRAWL} did not load: ${e.message}` };
  }
}

async function best(iterations, run) {
  let ms = Infinity;
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await run();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

export async function benchPdf(root, iterations = 3) {
  const dir = join(root, 'tests', 'fixtures', 'pdf');
  const files = readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort();
  const docrag = await import(pathToFileURL(join(root, 'pkg', 'node.js')).href);
  // pdf.js exactly as the package loads it (the legacy build, parser on this thread).
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.min.mjs');
  await import('pdfjs-dist/legacy/build/pdf.worker.min.mjs');
  const textContent = async (bytes) => {
    const doc = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      await page.getTextContent();
      page.cleanup();
    }
    await doc.destroy();
  };
  const firecrawl = await loadFirecrawl(root);
  console.log(`\nPDF: ${files.length} dev PDFs (tests/fixtures/pdf), best of ${iterations}, milliseconds`);
  console.log(`${'file'.padEnd(40)} ${'pdf.js text'.padStart(11)} ${'docrag wasm'.padStart(11)} ${'ratio'.padStart(6)} ${'firecrawl'.padStart(10)}`);
  const totals = { text: 0, ours: 0, theirs: 0, both: 0 };
  for (const f of files) {
    const bytes = new Uint8Array(readFileSync(join(dir, f)));
    await textContent(bytes);
    await docrag.convertAsync(bytes);
    const text = await best(iterations, () => textContent(bytes));
    const ours = await best(iterations, () => docrag.convertAsync(bytes));
    let theirs = null;
    if (!firecrawl.error) {
      try {
        firecrawl.process(bytes);
        theirs = await best(iterations, () => firecrawl.process(bytes));
        totals.theirs += theirs;
        totals.both += ours;
      } catch {}
    }
    totals.text += text;
    totals.ours += ours;
    console.log(`${f.slice(0, 40).padEnd(40)} ${text.toFixed(1).padStart(11)} ${ours.toFixed(1).padStart(11)} ${(ours / text).toFixed(2).padStart(6)} ${(theirs === null ? '-' : theirs.toFixed(1)).padStart(10)}`);
  }
  console.log(`${'total'.padEnd(40)} ${totals.text.toFixed(1).padStart(11)} ${totals.ours.toFixed(1).padStart(11)} ${(totals.ours / totals.text).toFixed(2).padStart(6)} ${(firecrawl.error ? '-' : totals.theirs.toFixed(1)).padStart(10)}`);
  console.log(`ratio docrag wasm / pdf.js getTextContent: ${(totals.ours / totals.text).toFixed(2)}x (target at most 1.3x)`);
  if (firecrawl.error) console.log(`firecrawl: not measured (${firecrawl.error})`);
  else console.log(`ratio ${FIRECRAWL} ${FIRECRAWL_VERSION} / docrag wasm: ${(totals.theirs / totals.both).toFixed(2)}x (above 1: docrag is faster)`);
  const cli = spawnSync(join(root, 'target', 'release', 'docrag'), ['bench', '--json', '--iterations', String(iterations), ...files.map((f) => join(dir, f))], { encoding: 'utf8' });
  if (cli.status === 0) {
    const r = JSON.parse(cli.stdout.trim().split('\n').pop());
    console.log(`docrag native (hayro): ${(r.seconds * 1000 / iterations).toFixed(1)} ms per pass over the ${r.files} files (${(r.bytes / 1e6 / r.seconds).toFixed(2)} MB/s)`);
  } else {
    console.log(`docrag native: failed to run (${(cli.stderr ?? '').trim()})`);
  }
}
