// The same file and options give the same chunks and metadata natively (the CLI's
// JSONL) and through wasm under Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { cliConvert, contentId, corpus, docrag, goodDocxFiles, thrown } from './helpers.mjs';

/** CLI flags and the same options as a JS bag. */
const OPTION_SETS = [
  { args: ['--max-tokens', '512'], js: { maxTokens: 512 } },
  { args: ['--max-tokens', '128', '--first-page', '2', '--last-page', '3'], js: { maxTokens: 128, firstPage: 2, lastPage: 3 } },
  { args: ['--max-tokens', '1024', '--doc-id', 'doc-7', '--title', 'A Title'], js: { maxTokens: 1024, docId: 'doc-7', title: 'A Title' } },
  { args: ['--page-mode', 'estimate'], js: { pages: 'estimate' } },
  { args: ['--page-mode', 'saved'], js: { pages: 'saved' } },
];

const MUST_CONVERT = [
  'pandoc__MANUAL.txt',
  'pandoc__comments.docx',
  'poi__bug57031.docx',
  'docx4j__Docx4j_GettingStarted.docx',
  'openxmlsdk__Strict01.docx',
  'pandoc__track_changes_move.docx',
  'pandoc__html-reader.html',
  'readability__wikipedia.html',
  'tika__testHTML_charset_utf16le.html',
  'tika__testRTFVarious.rtf',
  'tika__testRTFJapanese.rtf',
  'es6tutorial__proxy.md',
  'tika__russian.cp866.txt',
];

/** Asserts wasm == CLI for one file and option set; returns the wasm result. */
function assertSame(name, set) {
  const path = corpus(name);
  const bytes = readFileSync(path);
  const native = cliConvert(path, set.args);
  // The CLI passes the path as the file name; so does this side.
  const options = { ...set.js, fileName: path };
  if (native.status !== 0) {
    assert.equal(native.status, 2, `${name}: ${native.stderr}`);
    const err = thrown(() => docrag.convert(bytes, options));
    assert.ok(native.code, `${name}: the CLI names a code: ${native.stderr}`);
    assert.equal(err.code, native.code, `${name}: wasm and CLI fail alike`);
    return null;
  }
  if (native.records.length === 0) {
    // No text (or none on the pages asked for): the CLI warns and writes nothing, the
    // JS API refuses it with the code and words of the CLI's warning.
    const err = thrown(() => docrag.convert(bytes, options));
    assert.equal(err.code, 'empty-document', `${name} ${set.args}: ${err.message}`);
    assert.match(native.stderr, new RegExp(`warning \\[empty-document\\]: ${err.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    return null;
  }
  const result = docrag.convert(bytes, options);
  assert.equal(result.chunks.length, native.records.length, `${name} ${set.args}: chunk count`);
  for (let i = 0; i < result.chunks.length; i++) {
    assert.equal(result.chunks[i], native.records[i].text, `${name}: chunk ${i} text`);
    assert.deepEqual(result.metadata[i], native.records[i].metadata, `${name}: chunk ${i} metadata`);
  }
  assert.equal(result.docId, set.js.docId ?? contentId(bytes));
  return result;
}

for (const name of MUST_CONVERT) {
  test(`wasm equals native: ${name}`, () => {
    const full = assertSame(name, OPTION_SETS[0]);
    assert.ok(full, `${name} converts`);
    assert.ok(full.chunks.length > 0 && full.chunks.every((c) => c.length > 0));
    full.metadata.forEach((m, i) => {
      assert.equal(m.ssSeq, i);
      assert.equal(m.ssDocId, full.docId);
      for (const [k, v] of Object.entries(m)) {
        assert.ok(typeof v === 'string' || Number.isSafeInteger(v), `${k} is flat: ${v}`);
      }
    });
    for (const set of OPTION_SETS.slice(1)) assertSame(name, set);
  });
}

test('wasm and native agree on every good corpus DOCX (default options)', () => {
  const files = goodDocxFiles();
  assert.ok(files.length >= 30, `manifest lists ${files.length} good DOCX files`);
  for (const name of files) assertSame(name, { args: [], js: {} });
});

test('wasm and native fail alike on broken corpus files', () => {
  for (const [name, code] of [
    ['poi__simple-table.doc', 'legacy-doc'],
    ['poi__bug53475-password-is-pass.docx', 'encrypted'],
    ['poi__truncated62886.docx', 'not-zip'],
  ]) {
    const native = cliConvert(corpus(name));
    assert.equal(native.code, code, `${name}: ${native.stderr}`);
    assertSame(name, { args: [], js: {} });
  }
});

test('a string input is the UTF-8 text of the document', () => {
  const path = corpus('pandoc__MANUAL.txt');
  const fromBytes = docrag.convert(readFileSync(path), { maxTokens: 300, fileName: 'MANUAL.txt' });
  const fromString = docrag.convert(readFileSync(path, 'utf8'), { maxTokens: 300, fileName: 'MANUAL.txt' });
  const fromBuffer = docrag.convert(readFileSync(path).buffer.slice(0), { maxTokens: 300, fileName: 'MANUAL.txt' });
  assert.deepEqual(fromString, fromBytes);
  assert.equal(fromBuffer.chunks.length, fromBytes.chunks.length);
  assert.ok(fromBytes.chunks.some((c) => c.includes("Pandoc User's Guide")));
});

test('chunk token counts respect maxTokens unless marked oversize', () => {
  const path = corpus('docx4j__Docx4j_GettingStarted.docx');
  const { metadata } = docrag.convert(readFileSync(path), { maxTokens: 256 });
  assert.ok(metadata.length > 10, `${metadata.length} chunks`);
  for (const m of metadata) {
    assert.ok(m.tokenCount <= 256 || m.oversize === 'yes', `chunk ${m.ssSeq}: ${m.tokenCount} tokens, oversize=${m.oversize}`);
  }
});

test('DOCX content survives: comment author, tracked move, table text', () => {
  const text = (name) => docrag.convert(readFileSync(corpus(name)), { maxTokens: 512 });
  const comments = text('pandoc__comments.docx');
  assert.ok(comments.chunks.join('\n').includes('Jesse Rosenthal'), 'comment author in text');
  assert.ok(comments.metadata.some((m) => m.hasComments === 'yes' && String(m.commentAuthors).includes('Jesse Rosenthal')));
  const move = text('pandoc__track_changes_move.docx');
  assert.ok(move.metadata.some((m) => m.hasRevisions === 'yes' && String(m.revisionAuthors).includes('Jesse Rosenthal')));
  const tables = text('poi__bug57031.docx');
  assert.ok(tables.metadata.some((m) => typeof m.tableIds === 'string' && m.tableIds.length > 0));
});

test('format skips detection: a Markdown .txt read as Markdown or as text', () => {
  const bytes = readFileSync(corpus('pandoc__MANUAL.txt'));
  const md = docrag.convert(bytes, { maxTokens: 512, fileName: 'MANUAL.txt' });
  const txt = docrag.convert(bytes, { maxTokens: 512, fileName: 'MANUAL.txt', format: 'text' });
  // Detected as Markdown: the front matter is the title and headings open sections.
  assert.equal(md.title, "Pandoc User's Guide");
  assert.ok(md.metadata.some((m) => m.headingPath.startsWith('Description > ')));
  // Read as text: no sections, the front matter is text.
  assert.ok(txt.metadata.every((m) => m.headingPath === ''));
  assert.ok(txt.chunks[0].includes('title: Pandoc User'));
});

test('pages: estimated pages are marked ~ and say so; "saved" turns the estimate off; a bad value names the option', () => {
  const bytes = readFileSync(corpus('docx4j__Docx4j_GettingStarted.docx'));
  const est = docrag.convert(bytes, { fileName: 'guide.docx' });
  const body = est.metadata.map((m, i) => [m, est.chunks[i]]).filter(([m]) => m.chunkKind === 'body');
  const [last, text] = body[body.length - 1];
  assert.equal(last.pageSource, 'estimated');
  assert.match(text.split('\n')[0], /\| Pages?: ~\d/);
  assert.ok(last.lastPage >= 42 && last.lastPage <= 50, `${last.lastPage} pages, Word 46`);
  const saved = docrag.convert(bytes, { fileName: 'guide.docx', pages: 'saved' });
  assert.ok(saved.metadata.every((m) => m.pageSource === 'explicit'));
  assert.equal(Math.max(...saved.metadata.map((m) => m.lastPage)), 3);
  const e = thrown(() => docrag.convert(bytes, { pages: 'word' }));
  assert.equal(e.code, 'invalid-option');
  assert.equal(e.option, 'pages');
});
