// The persistent Collection under Node: in-memory storage, real corpus files,
// the same chunks as convert(), questions answered extractively with citations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpus, docrag } from './helpers.mjs';

const { Collection, convert } = docrag;
const tableDoc = readFileSync(corpus('poi__bug57031.docx'));
const picsDoc = readFileSync(corpus('tika__testWORD_embedded_pics.docx'));

test('Node has no IndexedDB: auto storage is memory, indexeddb is a typed error', async () => {
  const c = await Collection.open('node-auto');
  assert.equal(c.storage, 'memory');
  assert.equal(c.name, 'node-auto');
  assert.deepEqual(c.documents(), []);
  await assert.rejects(Collection.open('x', { storage: 'indexeddb' }), (e) => {
    assert.equal(e.name, 'DocragError');
    assert.equal(e.code, 'storage-unavailable');
    assert.match(e.message, /storage: 'memory'/);
    return true;
  });
  await assert.rejects(Collection.open('x', { storge: 'memory' }), (e) => e.code === 'invalid-option' && e.option === 'storge');
  await assert.rejects(Collection.open(''), (e) => e.code === 'invalid-option' && e.option === 'name');
});

test('addFile stores exactly what convert() produces, and reports progress', async () => {
  const c = await Collection.open('node-add', { storage: 'memory' });
  const stages = [];
  const info = await c.addFile(new Uint8Array(tableDoc), {
    fileName: 'poi__bug57031.docx',
    convert: { maxTokens: 120 },
    onProgress: (p) => stages.push(p.stage),
  });
  const direct = convert(new Uint8Array(tableDoc), { maxTokens: 120, fileName: 'poi__bug57031.docx' });
  assert.equal(info.docId, direct.docId);
  assert.equal(info.title, direct.title);
  assert.equal(info.format, 'docx');
  assert.equal(info.fileName, 'poi__bug57031.docx');
  assert.equal(info.sizeBytes, tableDoc.length);
  assert.equal(info.chunkCount, direct.chunks.length);
  assert.equal(info.tokenCount, direct.metadata.reduce((s, m) => s + m.tokenCount, 0));
  assert.equal(info.hasTables, true);
  assert.deepEqual(info.embeddingModels, []);
  assert.deepEqual([...new Set(stages)], ['read', 'parse', 'chunk', 'store', 'done']);
  const chunks = c.chunks(info.docId);
  assert.deepEqual(chunks.map((ch) => ch.text), direct.chunks);
  assert.deepEqual(chunks.map((ch) => ch.metadata), direct.metadata);
  assert.deepEqual(c.documents(), [info]);
  // The same file again: the stored document, no second copy.
  const again = await c.addFile(new Uint8Array(tableDoc), { fileName: 'poi__bug57031.docx' });
  assert.equal(again.docId, info.docId);
  assert.equal(c.documents().length, 1);
  assert.throws(() => c.chunks('nope'), (e) => e.code === 'unknown-document');
});

test('a table-cell question is answered extractively, citing the table chunk; remove forgets everything', async () => {
  const c = await Collection.open('node-ask', { storage: 'memory' });
  const table = await c.addFile(new Uint8Array(tableDoc), { fileName: 'a.docx', convert: { maxTokens: 120 } });
  const pics = await c.addFile(new Blob([picsDoc]), { fileName: 'b.docx', convert: { maxTokens: 80 } });
  assert.deepEqual(c.documents().map((d) => d.docId), [table.docId, pics.docId]);
  const r = await c.ask('What is the Chi-Square value of the Wilcoxon test?', { chunks: 2, smallCollectionTokens: 0 });
  assert.equal(r.answer.by, 'extractive');
  assert.match(r.answer.text, /^Test: Wilcoxon; Chi-Square: 0\.7660; Pr > Chi-Square: 0\.3815 \(Test of Equality over Strata\) \[[\d, ]+\]$/);
  // The Markdown form escapes what Markdown would read ('>') and cites the same source.
  assert.match(r.answer.markdown, /Pr \\> Chi-Square: 0\.3815/);
  assert.equal(r.extractive.kind, 'table-cell');
  assert.equal(r.extractive.declined, false);
  assert.deepEqual(r.markdownCitations.citations.map((x) => x.number), r.citations.citations.map((x) => x.number));
  assert.equal(r.accounting.path, 'pointed');
  assert.ok(r.accounting.enrichmentTokens > 0);
  assert.ok(r.citations.grounded);
  const cell = c.chunks(table.docId).find((ch) => ch.text.includes('<td><strong>Wilcoxon</strong></td>'));
  assert.ok(r.citations.citations.some((x) => x.docId === table.docId && x.seq === cell.metadata.ssSeq));
  // The whole table is in the context.
  const tableId = cell.metadata.tableIds;
  const parts = c.chunks(table.docId).filter((ch) => String(ch.metadata.tableIds ?? '').split('; ').includes(tableId));
  // Split across chunks (two at 120 tokens since header cells carry no <strong>).
  assert.ok(parts.length >= 2);
  for (const p of parts) assert.ok(r.cachedPrefix.includes(p.text));
  assert.equal(r.payload.messages.at(-1).content, 'What is the Chi-Square value of the Wilcoxon test?');
  assert.deepEqual(r.modelCalls, []);

  assert.equal(await c.remove(table.docId), true);
  assert.equal(await c.remove(table.docId), false);
  assert.deepEqual(c.documents().map((d) => d.docId), [pics.docId]);
  const after = await c.ask('What is the Chi-Square value of the Wilcoxon test?', { chunks: 2, smallCollectionTokens: 0 });
  assert.ok(after.sources.every((s) => s.docId === pics.docId));
  assert.doesNotMatch(after.cachedPrefix, /Wilcoxon/);
});

test('bad input is a typed error and changes nothing', async () => {
  const c = await Collection.open('node-bad', { storage: 'memory' });
  await c.addFile(new Uint8Array(picsDoc), { fileName: 'b.docx' });
  const before = c.documents();
  await assert.rejects(c.addFile(new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]), { fileName: 'x.docx' }), (e) => e.name === 'DocragError' && typeof e.code === 'string');
  await assert.rejects(c.addFile(42), (e) => e.code === 'invalid-input');
  await assert.rejects(c.addFile('x', { replce: true }), (e) => e.code === 'invalid-option' && e.option === 'replce');
  await assert.rejects(c.ask('   '), (e) => e.code === 'empty-question');
  await assert.rejects(c.ask('q', { mode: 'fast' }), (e) => e.code === 'invalid-option');
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(c.addFile(new Uint8Array(tableDoc), { signal: ac.signal }), (e) => e.name === 'AbortError' && e.cause.code === 'aborted');
  assert.deepEqual(c.documents(), before);
});

test('settings round-trip as JSON values', async () => {
  const c = await Collection.open('node-settings', { storage: 'memory' });
  assert.equal(c.getSetting('chat'), undefined);
  await c.setSetting('chat', [{ role: 'user', content: 'hi' }]);
  assert.deepEqual(c.getSetting('chat'), [{ role: 'user', content: 'hi' }]);
  await c.setSetting('chat', undefined);
  assert.equal(c.getSetting('chat'), undefined);
});
