// PDFs through the package: pdf.js as the glyph source, docrag's layout in wasm.
// The two glyph sources (pdf.js here, the CLI's own interpreter) are held to the same
// text on every dev PDF of tests/fixtures/pdf/; a table-cell question over a PDF in
// a Collection is answered with the page it is on; bad PDFs fail with their codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliConvert, docrag, root } from './helpers.mjs';

const fixtures = join(root, 'tests', 'fixtures', 'pdf');
const PDFS = readdirSync(fixtures).filter((f) => f.endsWith('.pdf')).sort();

/** Lower-case words with counts; chunk-information lines and HTML tags left out. */
function words(texts) {
  const counts = new Map();
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (line.startsWith('[Document:')) continue;
      for (const w of line.replace(/<[^>]*>/g, ' ').toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
        if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
      }
    }
  }
  return counts;
}

function recall(want, got) {
  let total = 0;
  let found = 0;
  for (const [w, n] of want) {
    total += n;
    found += Math.min(n, got.get(w) ?? 0);
  }
  return total ? found / total : 1;
}

// Chunks of 8,192 tokens: a table that continues into another chunk repeats its
// header rows there, so where the two sources cut differently the words would differ
// for a reason that is not the text.
test('pdf.js and the CLI agree on the words of every dev PDF (recall >= 0.98 both ways)', async () => {
  assert.ok(PDFS.length >= 8, `${PDFS.length} dev PDFs`);
  for (const name of PDFS) {
    const bytes = new Uint8Array(readFileSync(join(fixtures, name)));
    const js = await docrag.convertAsync(bytes, { fileName: name, maxTokens: 8192 });
    const cli = cliConvert(join(fixtures, name), ['--max-tokens', '8192']);
    assert.equal(cli.status, 0, `${name}: ${cli.stderr}`);
    const a = words(js.chunks);
    const b = words(cli.records.map((r) => r.text));
    const ab = recall(b, a);
    const ba = recall(a, b);
    assert.ok(ab >= 0.98 && ba >= 0.98, `${name}: pdf.js has ${ab.toFixed(3)} of the CLI's words, the CLI ${ba.toFixed(3)} of pdf.js's`);
    assert.equal(js.docId, cli.records[0].metadata.ssDocId, name);
    const pages = Math.max(...cli.records.map((r) => r.metadata.lastPage));
    for (const m of js.metadata) {
      assert.equal(m.pageSource, 'pdf', name);
      assert.ok(m.firstPage >= 1 && m.lastPage <= pages, `${name}: pages ${m.firstPage}-${m.lastPage} of ${pages}`);
    }
  }
});

test('convertAsync reports each page and stops at an aborted signal; convert says to use it', async () => {
  const bytes = new Uint8Array(readFileSync(join(fixtures, 'docx4j__tables.pdf')));
  const seen = [];
  const r = await docrag.convertAsync(bytes, { onProgress: (p) => seen.push(p) });
  const parse = seen.filter((p) => p.stage === 'parse');
  assert.ok(parse.length >= 3, `${parse.length} parse reports`);
  assert.equal(parse.at(-1).done, bytes.length);
  assert.ok(r.chunks.length > 0);

  const controller = new AbortController();
  const stopped = docrag.convertAsync(bytes, {
    signal: controller.signal,
    onProgress: (p) => p.stage === 'parse' && p.done > 0 && controller.abort(),
  });
  await assert.rejects(stopped, (e) => e.name === 'AbortError');

  assert.throws(() => docrag.convert(bytes), (e) => e.code === 'unsupported-format' && /convertAsync/.test(e.message));
});

test('a PDF in a Collection: a table-cell question is answered from the PDF, citing its page', async () => {
  const c = await docrag.Collection.open('node-pdf', { storage: 'memory' });
  const info = await c.addFile(new Uint8Array(readFileSync(join(fixtures, 'powertools__HC029-Table-Merged-Cells.pdf'))), {
    fileName: 'merged-cells.pdf',
  });
  assert.equal(info.format, 'pdf');
  const r = await c.ask('What is in the Maecenas porttitor congue massa column of the second table?');
  assert.match(r.answer.text, /300/);
  const cited = r.sources.filter((s) => s.docId === info.docId);
  assert.ok(cited.length > 0);
  for (const s of cited) {
    assert.equal(s.pageSource, 'pdf');
    assert.equal(s.firstPage, 1);
  }
  c.close();
});

/** A PDF 1.4 file of `objects` (numbered from 1) with a cross-reference table. */
function pdfOf(objects, trailer) {
  let out = '%PDF-1.4\n';
  const offsets = objects.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** A one-page PDF whose standard security handler no empty password opens. */
function passwordPdf() {
  const id = '<00112233445566778899AABBCCDDEEFF>';
  return pdfOf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${'4A'.repeat(32)}> /U <${'4A'.repeat(32)}> /P -4 >>`,
    ],
    `/Root 1 0 R /Encrypt 4 0 R /ID [${id} ${id}]`,
  );
}

/**
 * A one-page Helvetica PDF: `lines` upright mid-page, 14 units apart, and `label`
 * reading upward along the left margin from the level of the second line (text
 * matrix turned a quarter), as archives stamp a preprint.
 */
function labelledPdf(lines, label) {
  let content = lines.map((l, i) => `BT /F1 11 Tf 72 ${400 - 14 * i} Td (${l}) Tj ET`).join('\n');
  content += `\nBT /F1 14 Tf 0 1 -1 0 40 386 Tm (${label}) Tj ET\n`;
  return pdfOf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    ],
    '/Root 1 0 R',
  );
}

test('text turned up the margin is read after the body in pdf.js too, as the CLI reads it', async () => {
  const lines = ['The body opens the argument and', 'carries it down the page in lines', 'of ordinary prose to its end.'];
  const label = 'arXiv:2101.00001v1 [cs.CL] 1 Jan 2021';
  const r = await docrag.convertAsync(labelledPdf(lines, label), { fileName: 'labelled.pdf' });
  const text = r.chunks.join('\n');
  const body = text.indexOf(lines.join(' '));
  assert.ok(body >= 0, text);
  assert.ok(text.indexOf(label) > body, text);
});

test('a PDF that needs a password and one that is not a PDF fail with their codes', async () => {
  await assert.rejects(docrag.convertAsync(passwordPdf()), (e) => e.code === 'pdf-encrypted');
  const junk = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
  await assert.rejects(docrag.convertAsync(junk), (e) => e.code === 'malformed-pdf' || e.code === 'empty-document');
  const c = await docrag.Collection.open('node-pdf-bad', { storage: 'memory' });
  await assert.rejects(c.addFile(passwordPdf(), { fileName: 'locked.pdf' }), (e) => e.code === 'pdf-encrypted');
  assert.equal(c.documents().length, 0);
  c.close();
});

/**
 * A one-page PDF of Hebrew lines in Helvetica whose ToUnicode map reads A-Z as
 * U+05D0-U+05E9: `seen` drawn as one string in visual order, and `read` drawn letter
 * by letter from the right, in reading order, 9 units apart.
 */
function hebrewPdf(seen, read) {
  const codes = (t) => [...t].map((c) => (c >= '\u05D0' && c <= '\u05E9' ? String.fromCharCode(c.charCodeAt(0) - 0x05d0 + 0x41) : c)).join('');
  let content = `BT /F1 12 Tf 72 662 Td (${codes(seen)}) Tj ET\n`;
  let x = 400;
  for (const c of read) {
    x -= 9;
    if (c !== ' ') content += `BT /F1 12 Tf ${x} 602 Td (${codes(c)}) Tj ET\n`;
  }
  const cmap =
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Hebrew-UCS def /CMapType 2 def\n' +
    '1 begincodespacerange <00> <FF> endcodespacerange\n' +
    '4 beginbfrange <20> <20> <0020> <30> <39> <0030> <41> <5A> <05D0> <61> <7A> <0061> endbfrange\n' +
    'endcmap CMapName currentdict /CMap defineresource pop end end\n';
  return pdfOf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}endstream`,
      `<< /Length ${cmap.length} >>\nstream\n${cmap}endstream`,
    ],
    '/Root 1 0 R',
  );
}

test('Hebrew through pdf.js reads right to left, drawn as seen or letter by letter in reading order', async () => {
  const bytes = hebrewPdf('םלוע 2024 םולש', 'שלום עולם');
  const r = await docrag.convertAsync(bytes, { fileName: 'hebrew.pdf' });
  const text = r.chunks.join('\n');
  assert.ok(text.includes('שלום 2024 עולם'), text);
  assert.ok(text.includes('שלום עולם'), text);
  assert.ok(!text.includes('םולש'), text);
});

/**
 * A one-page tagged PDF: five lines at even spacing in marked content that the
 * structure tree claims (a role-mapped heading, a paragraph of two lines, one with a
 * Span, a one-line paragraph, a large-type pull quote mapped to P); `tagged` false
 * leaves the tree out.
 */
function taggedPdf(tagged) {
  const lines = [
    ['P', 0, 10, 692, 'Scope of the service'],
    ['P', 1, 10, 680, 'The contractor cleans the hall'],
    ['Span', 2, 10, 668, 'and the yard every morning.'],
    ['P', 3, 10, 656, 'Payment follows each month'],
    ['P', 4, 20, 624, 'A large pull quote.'],
  ];
  const content = lines.map(([tag, mcid, size, y, text]) => `/${tag} <</MCID ${mcid}>> BDC BT /F1 ${size} Tf 72 ${y} Td (${text}) Tj ET EMC\n`).join('');
  const tree = tagged ? '/StructTreeRoot 6 0 R /MarkInfo << /Marked true >>' : '';
  return pdfOf(
    [
      `<< /Type /Catalog /Pages 2 0 R ${tree} >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /StructParents 0 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      `<< /Length ${content.length} >>\nstream\n${content}endstream`,
      '<< /Type /StructTreeRoot /K 7 0 R /RoleMap << /Heading2 /H2 /PullQuote /P >> /ParentTree 14 0 R >>',
      '<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R] >>',
      '<< /S /Sect /P 7 0 R /K [9 0 R 10 0 R 12 0 R 13 0 R] >>',
      '<< /S /Heading2 /P 8 0 R /Pg 3 0 R /K 0 >>',
      '<< /S /P /P 8 0 R /Pg 3 0 R /K [1 11 0 R] >>',
      '<< /S /Span /P 10 0 R /Pg 3 0 R /K 2 >>',
      '<< /S /P /P 8 0 R /K << /Type /MCR /Pg 3 0 R /MCID 3 >> >>',
      '<< /S /PullQuote /P 8 0 R /Pg 3 0 R /K 4 >>',
      '<< /Nums [0 [9 0 R 10 0 R 11 0 R 12 0 R 13 0 R]] >>',
    ],
    '/Root 1 0 R',
  );
}

test('a tagged PDF is read from its structure tree through pdf.js, as the CLI reads it', async () => {
  const r = await docrag.convertAsync(taggedPdf(true), { fileName: 'tagged.pdf' });
  const text = r.chunks.join('\n');
  assert.ok(
    text.includes('## Scope of the service\n\nThe contractor cleans the hall and the yard every morning.\n\nPayment follows each month\n\nA large pull quote.'),
    text,
  );
  // Untagged, geometry joins the lines and takes the large line for a heading.
  const u = (await docrag.convertAsync(taggedPdf(false), { fileName: 'tagged.pdf' })).chunks.join('\n');
  assert.ok(!u.includes('\n\nPayment follows each month\n\n'), u);
});
