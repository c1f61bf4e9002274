// The Enricher and Expansion classes: the same expansions and index entries as the
// native engine (through the CLI's `expand` and `index`) on corpus files, plain
// arrays out, DocragErrors with stable codes, label renames.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { cliPath, corpus, docrag, thrown } from './helpers.mjs';

const { Enricher, Expansion, ROUTING_PROMPT, INDEX_ANSWER_PROMPT } = docrag;

function metadata(file, maxTokens = 128, extra = {}) {
  return docrag.convert(readFileSync(corpus(file)), { maxTokens, fileName: file, ...extra }).metadata;
}

function cli(args) {
  const p = spawnSync(cliPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(p.status, 0, p.stderr);
  return p.stdout;
}

/** What `docrag expand` does, through the wasm classes. */
function expandLikeCli(enricher, seqs, { budget, allTables = false, pages = 0, author } = {}) {
  const b = budget ?? Math.floor(enricher.tokenCount() / 10);
  const x = enricher.expand(seqs);
  x.addRelatedChunks({ budget: b, allTables });
  if (pages > 0) x.addPageChunks(true, pages, b);
  if (author !== undefined) {
    x.addRevisionChunks(b, author);
    x.addCommentChunks(b, author);
  }
  const out = { expanded: x.expanded(), enrichmentTokens: x.enrichmentTokens(), tokenCount: x.tokenCount() };
  x.free();
  return out;
}

const cases = [
  ['poi__bug57031.docx', [20], ['--budget', '0'], { budget: 0 }],
  ['poi__bug57031.docx', [3, 60], ['--budget', '2000', '--all-tables', '--pages', '1'], { budget: 2000, allTables: true, pages: 1 }],
  ['poi__delins.docx', [5], [], {}],
  ['openxmlsdk__Comment028.docx', [0, 9], ['--author', 'Arman', '--budget', '5000'], { author: 'Arman', budget: 5000 }],
  ['docx4j__Docx4j_GettingStarted.docx', [10, 150, 290], ['--pages', '2'], { pages: 2 }],
];

test('wasm expansions equal the native engine on corpus files', () => {
  for (const [file, seqs, flags, opts] of cases) {
    const native = JSON.parse(cli(['expand', corpus(file), '--max-tokens', '128', '--seq', seqs.join(','), ...flags]));
    const e = new Enricher(metadata(file));
    assert.equal(e.chunkCount, native.chunks);
    assert.equal(e.tokenCount(), native.documentTokens);
    const wasm = expandLikeCli(e, seqs, opts);
    assert.deepEqual(wasm.expanded, native.expanded, `${file} ${flags.join(' ')}`);
    assert.equal(wasm.enrichmentTokens, native.enrichmentTokens);
    assert.equal(wasm.tokenCount, native.tokenCount);
    assert.ok(Array.isArray(wasm.expanded), 'a plain array');
    e.free();
  }
});

test('a chunk inside a long table brings exactly that table', () => {
  const m = metadata('poi__bug57031.docx');
  const e = new Enricher(m);
  const x = e.expand([20]);
  const added = x.completeTables();
  const id = m[20].tableIds;
  const table = m.filter((r) => r.tableIds.split('; ').includes(id)).map((r) => r.ssSeq);
  assert.deepEqual(x.expanded(), table);
  const tokens = (seqs) => seqs.reduce((s, q) => s + m[q].tokenCount, 0);
  assert.equal(added, tokens(table) - m[20].tokenCount);
  assert.equal(x.retrievedTokens(), m[20].tokenCount);
  assert.deepEqual(x.anchors(), [20]);
  x.anchorExpanded();
  assert.deepEqual(x.anchors(), table);
  assert.ok(x instanceof Expansion);
});

test('document information and the index entry match the CLI', () => {
  const file = 'openxmlsdk__Comment028.docx';
  const e = new Enricher(metadata(file, 1024));
  assert.equal(e.hasComments(), true);
  assert.equal(e.hasRevisions(), false);
  const authors = e.commentAuthors();
  assert.equal(new Set(authors).size, authors.length);
  assert.ok(authors.includes('Arman'));
  assert.equal(e.sectionPages().length, e.sectionIndexes().length);
  const entry = e.indexDocument(10);
  assert.deepEqual(Object.keys(entry).sort(), ['parts', 'text', 'tokens']);
  assert.equal(entry.text, cli(['index', corpus(file), '--percent', '10']).replace(/\n$/, ''));
  assert.match(entry.parts[0], /^## .* \(id: sha256-[0-9a-f]{16}\)\n/);
  assert.equal(e.indexDocument().text, cli(['index', corpus(file)]).replace(/\n$/, ''));
  assert.equal(ROUTING_PROMPT, Enricher.routingPrompt());
  assert.equal(INDEX_ANSWER_PROMPT, Enricher.indexAnswerPrompt());
  for (const form of ['NONE', 'ALL', 'INDEX', 'id:confidence']) assert.ok(ROUTING_PROMPT.includes(form));
});

test('records survive a JSON round trip and renamed labels are read through the map', () => {
  const m = metadata('poi__delins.docx');
  const stored = JSON.parse(JSON.stringify(m)).map((r) => ({ ...r, tokenCount: String(r.tokenCount) }));
  const a = new Enricher(stored.reverse());
  const b = new Enricher(m);
  assert.equal(a.tokenCount(), b.tokenCount());
  const renamed = metadata('poi__delins.docx', 128, { labels: { tokenCount: 'tokens', hasRevisions: 'redlined' } });
  assert.equal(thrown(() => new Enricher(renamed)).code, 'missing-field');
  const c = new Enricher(renamed, { tokenCount: 'tokens', hasRevisions: 'redlined' });
  assert.deepEqual(c.revisionAuthors(), ['pavel']);
  assert.equal(thrown(() => new Enricher(renamed, { nope: 'x' })).code, 'invalid-option');
});

test('bad input throws DocragErrors with stable codes', () => {
  const m = metadata('poi__delins.docx');
  const code = (fn) => {
    const err = thrown(fn);
    assert.ok(docrag.isDocragError(err), String(err));
    return err.code;
  };
  assert.equal(code(() => new Enricher([])), 'empty-record-set');
  assert.equal(code(() => new Enricher('records')), 'invalid-input');
  assert.equal(code(() => new Enricher([1, 2])), 'invalid-input');
  assert.equal(code(() => new Enricher(m.slice(1))), 'seq-out-of-range');
  assert.equal(code(() => new Enricher([m[0], { ...m[1], ssSeq: 0 }, ...m.slice(2)])), 'duplicate-seq');
  assert.equal(code(() => new Enricher([m[0], { ...m[1], ssDocId: 'other' }, ...m.slice(2)])), 'mixed-documents');
  assert.equal(code(() => new Enricher([m[0], { ...m[1], firstPage: 'one' }, ...m.slice(2)])), 'not-a-number');
  assert.equal(code(() => new Enricher([m[0], { ...m[1], firstPage: 1.5 }, ...m.slice(2)])), 'not-a-number');
  assert.equal(code(() => new Enricher([m[0], { ...m[1], chunkKind: 'aside' }, ...m.slice(2)])), 'bad-field-value');
  const noTokens = { ...m[1] };
  delete noTokens.tokenCount;
  const err = thrown(() => new Enricher([m[0], noTokens, ...m.slice(2)]));
  assert.equal(err.code, 'missing-field');
  assert.match(err.message, /ssSeq 1.*tokenCount/);
  const e = new Enricher(m);
  assert.equal(code(() => e.expand([-1])), 'anchor-out-of-range');
  assert.equal(code(() => e.expand([m.length])), 'anchor-out-of-range');
  assert.equal(code(() => e.expand([1.5])), 'invalid-input');
  assert.equal(code(() => e.indexDocument(0)), 'invalid-percent');
  const x = e.expand([1]);
  assert.equal(code(() => x.addPageChunks(true, 1, -5)), 'invalid-input');
  assert.equal(code(() => x.addRelatedChunks({ allTables: 'yes' })), 'invalid-input');
  assert.equal(e.chunkTokenCount(-1), 0);
});
