// What every way of loading the package must produce for the same corpus document:
// the Node package's own result, a docId computed independently, a known sentence.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { corpusDir, pkgDir, root } from './harness.mjs';

/** The corpus DOCX all three ways convert (444,786 bytes, 36 chunks at the defaults). */
export const FILE = 'docx4j__Docx4j_GettingStarted.docx';
/** Words of that document (page 1), in the Markdown chunks as Word has them. */
export const KNOWN_TEXT = 'uses Jakarta XML Binding API 3.0';
/** Its title (the document's core properties). */
export const KNOWN_TITLE = 'Docx4j - Getting Started';

/** The file's bytes. */
export const fileBytes = () => readFileSync(join(corpusDir, FILE));

/** `sha256-` + the first 16 hex digits of the file's SHA-256, computed without docrag. */
export const expectedDocId = () => 'sha256-' + createHash('sha256').update(fileBytes()).digest('hex').slice(0, 16);

/** The reference: pkg/node.js's `convert` on the same bytes, JSON round-tripped like page results. */
export async function reference(options = {}) {
  const docrag = await import(pathToFileURL(join(pkgDir, 'node.js')).href);
  return JSON.parse(JSON.stringify(docrag.convert(fileBytes(), options)));
}

/** Asserts `conversion` (a ConversionResult from somewhere else) is the reference's. */
export async function assertSameConversion(conversion, options = {}, where = 'this way') {
  const ref = await reference(options);
  assert.equal(conversion.docId, expectedDocId(), `${where}: docId is the content hash`);
  assert.equal(conversion.title, KNOWN_TITLE, `${where}: title`);
  assert.ok(conversion.chunks.length >= 10, `${where}: ${conversion.chunks.length} chunks`);
  assert.equal(conversion.chunks.length, ref.chunks.length, `${where}: chunk count equals Node's`);
  assert.ok(
    conversion.chunks.some((c) => c.includes(KNOWN_TEXT)),
    `${where}: a chunk contains "${KNOWN_TEXT}"`,
  );
  assert.deepEqual(conversion.chunks, ref.chunks, `${where}: chunks equal Node's`);
  assert.deepEqual(conversion.metadata, ref.metadata, `${where}: metadata equal Node's`);
  assert.deepEqual(conversion, ref, `${where}: the whole result equals Node's`);
}

/** A question whose answer is in one chunk of FILE (the one holding KNOWN_TEXT). */
export const QUESTION = 'Which version of the Jakarta XML Binding API does the 11.4 series use?';

/**
 * Asserts what fixtures/scenario.js reports of a collection holding FILE alone, asked
 * QUESTION with no provider: the stored document and chunks are the reference's, the
 * extractive answer cites the chunk with KNOWN_TEXT. `storage`: "indexeddb" or "memory".
 * `reopened`: the page only reopened the collection (no addFile).
 */
export async function assertCollectionReport(c, { storage, reopened, where }) {
  const ref = await reference();
  const docId = expectedDocId();
  assert.equal(c.storage, storage, `${where}: storage`);
  if (reopened) {
    assert.equal(c.added, null, `${where}: nothing added on reopen`);
  } else {
    assert.equal(c.added.docId, docId, `${where}: addFile resolves to the document`);
    const stages = c.progress.filter((s, i) => s !== c.progress[i - 1]);
    assert.deepEqual(stages, ['read', 'parse', 'chunk', 'store', 'done'], `${where}: progress stages ${c.progress} (no provider: no embed)`);
  }
  assert.equal(c.documents.length, 1, `${where}: one document`);
  const [doc] = c.documents;
  assert.equal(doc.docId, docId);
  assert.equal(doc.title, KNOWN_TITLE);
  assert.equal(doc.fileName, FILE);
  assert.equal(doc.format, 'docx');
  assert.equal(doc.sizeBytes, fileBytes().length);
  assert.equal(doc.chunkCount, ref.chunks.length, `${where}: chunkCount`);
  assert.equal(doc.tokenCount, ref.metadata.reduce((s, m) => s + m.tokenCount, 0), `${where}: tokenCount`);
  assert.deepEqual(doc.embeddingModels, [], `${where}: no provider, no vectors`);
  assert.deepEqual(c.chunks[0].map((k) => k.text), ref.chunks, `${where}: stored chunks are convert()'s`);
  assert.deepEqual(c.stats, { documents: 1, chunks: ref.chunks.length, tokens: doc.tokenCount, embeddingModels: [] });

  const a = c.answer;
  assert.equal(a.answer.by, 'extractive', `${where}: no chat model, the extractive answer`);
  assert.deepEqual(a.modelCalls, [], `${where}: no model calls`);
  assert.ok(a.sources.length > 0, `${where}: sources`);
  assert.ok(a.citations.grounded, `${where}: the answer cites a source: ${a.answer.text}`);
  const cited = a.citations.citations.map((k) => {
    assert.equal(k.docId, docId);
    return c.chunks[0][k.seq].text;
  });
  assert.ok(
    cited.some((text) => text.includes(KNOWN_TEXT)),
    `${where}: a cited chunk holds "${KNOWN_TEXT}"; answer: ${a.answer.text}`,
  );
  assert.ok(a.cachedPrefix.includes(KNOWN_TEXT), `${where}: the context holds the answer`);
}

/**
 * `value` with every non-integer number rounded to 12 significant digits: a reopened
 * collection's extractive sentence scores can differ from the fresh one's in the last
 * bit (summation order), which is not a different answer.
 */
export function roundScores(value) {
  return JSON.parse(JSON.stringify(value), (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v));
}

/** The dev PDF every way of loading the package reads with pdf.js (tests/fixtures/pdf/). */
export const PDF = 'pandoc__tables.pdf';
export const pdfDir = join(root, 'tests', 'fixtures', 'pdf');

/** Asserts a page's `convertAsync` of PDF equals pkg/node.js's (pdf.js in Node). */
export async function assertSamePdf(conversion, where) {
  const docrag = await import(pathToFileURL(join(pkgDir, 'node.js')).href);
  const bytes = new Uint8Array(readFileSync(join(pdfDir, PDF)));
  const ref = JSON.parse(JSON.stringify(await docrag.convertAsync(bytes, { fileName: PDF })));
  assert.ok(ref.chunks.some((c) => c.includes('<table>') || c.includes('| --- |')), 'the PDF has a table');
  assert.equal(ref.metadata[0].pageSource, 'pdf');
  assert.deepEqual(conversion, ref, `${where}: the PDF's conversion equals Node's`);
}
