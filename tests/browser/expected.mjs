// What every way of loading the package must produce for the same corpus document:
// the Node package's own result, a docId computed independently, a known sentence.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { corpusDir, pkgDir } from './harness.mjs';

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
