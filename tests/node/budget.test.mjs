// The CLI and Collection.ask use the same defaults (token budget 4,000) and choose the
// same excerpts for the same collection and question: byte-identical payloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cliPath, corpus, docrag } from './helpers.mjs';

const { Collection } = docrag;
const FILES = ['poi__bug57031.docx', 'pandoc__comments.docx', 'pandoc__notes.docx', 'pandoc__MANUAL.txt', 'es6tutorial__proxy.md'];
const QUESTIONS = [
  'What time and treatment are recorded for observation 45 in the bladder data?',
  'Which comment spans two paragraphs, and who wrote it?',
  'List every nonzero exit code of pandoc with its error name.',
];

function cliAsk(question, extra = []) {
  const p = spawnSync(cliPath, ['ask', ...FILES.map(corpus), '--max-tokens', '1024', '--question', question, ...extra], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(p.status, 0, p.stderr);
  return JSON.parse(p.stdout);
}

test('CLI and Collection.ask send the same payload under the default budget', async () => {
  const c = await Collection.open('budget-parity', { storage: 'memory' });
  for (const f of FILES) await c.addFile(new Uint8Array(readFileSync(corpus(f))), { fileName: corpus(f), convert: { maxTokens: 1024 } });
  for (const q of QUESTIONS) {
    const native = cliAsk(q);
    const r = await c.ask(q);
    assert.equal(r.accounting.path, native.accounting.path, q);
    assert.deepEqual(r.payload.messages.map((m) => m.content), native.payload.messages.map((m) => m.content), q);
    assert.deepEqual(r.sources.map((s) => [s.docId, s.seq]), native.vectorChunks.map((s) => [s.docId, s.seq]), q);
    assert.equal(r.accounting.totalTokens, native.accounting.totalTokens);
    assert.ok(r.accounting.retrievalTokens + r.accounting.enrichmentTokens <= 4000, q);
    assert.match(r.accounting.reason, /4000-token budget/);
  }
  // A budget of its own, the same on both sides.
  const q = QUESTIONS[0];
  const native = cliAsk(q, ['--budget', '700']);
  const r = await c.ask(q, { tokenBudget: 700 });
  assert.deepEqual(r.payload.messages.map((m) => m.content), native.payload.messages.map((m) => m.content));
  assert.ok(r.accounting.retrievalTokens + r.accounting.enrichmentTokens <= 700);
  // The percentage controls replace the budget, and not both at once.
  const seed = await c.ask(q, { retrievalPercent: 15, smallCollectionTokens: 0 });
  assert.ok(seed.accounting.retrievalTokens > r.accounting.retrievalTokens);
  assert.doesNotMatch(seed.accounting.reason, /budget/);
  await assert.rejects(c.ask(q, { tokenBudget: 700, retrievalPercent: 15 }), (e) => e.code === 'invalid-option' && e.option === 'tokenBudget');
  await assert.rejects(c.ask(q, { tokenBudget: 0 }), (e) => e.code === 'invalid-option');
});
