// Regression tests of the issue-12 conversion faults in wasm (Node): output that grew
// far beyond the input (a wrapper repeated on one-character pieces), element bombs that
// exhausted memory (a trap poisons the instance), and document text that spelled live
// Markdown links. The native versions are tests/robustness.rs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { docrag } from './helpers.mjs';

const { convert } = docrag;

/** Bytes of the chunk texts plus their JSON metadata records. */
const outputBytes = (r) => r.chunks.reduce((n, c, i) => n + c.length + JSON.stringify(r.metadata[i]).length, 0);

test('an 8 kB link target or a 10 kB revision attribute does not multiply the output', () => {
  const inputs = [
    ['link.md', `[${'word '.repeat(1500)}](http://example.com/${'a'.repeat(8000)})\n`],
    ['ins.html', `<p><ins data-author="${'x'.repeat(7000)}" datetime="${'2'.repeat(3000)}">${'word '.repeat(1400)}</ins></p>`],
    ['quote.md', `${'>'.repeat(250)} ${'a  \n'.repeat(3000)}`],
  ];
  for (const [fileName, text] of inputs) {
    const r = convert(text, { fileName });
    const bytes = Buffer.byteLength(text);
    assert.ok(outputBytes(r) <= 4 * bytes + 16384, `${fileName}: ${bytes} bytes in, ${outputBytes(r)} out, ${r.chunks.length} chunks`);
  }
  const r = convert(inputs[1][1], { fileName: 'ins.html', maxTokens: 64 });
  assert.ok(r.chunks.length <= 120, `${r.chunks.length} chunks at 64 tokens`);
  assert.ok(r.chunks.every((c) => c.includes('word')), 'every piece keeps text');
  assert.ok(r.chunks[0].includes(`author="${'x'.repeat(80)}…"`));
});

test('element bombs are a typed too-large error and the instance keeps working', () => {
  const row = `|${Array(10).fill('1').join('|')}|\n`;
  const table = `|${Array(10).fill('a').join('|')}|\n|${Array(10).fill('-').join('|')}|\n` + row.repeat(Math.floor(4e6 / row.length));
  for (const [fileName, text, what] of [
    ['table.md', table, /elements/],
    ['pages.txt', '\f'.repeat(1 << 20), /elements|pages/],
  ]) {
    assert.throws(() => convert(text, { fileName }), (e) => e.code === 'too-large' && what.test(e.message), fileName);
  }
  assert.throws(() => convert('page\f'.repeat(50), { fileName: 'p.txt', limits: { maxPages: 10 } }), (e) => e.code === 'too-large' && /pages/.test(e.message));
  const ok = convert('Still working.', { fileName: 'a.txt' });
  assert.equal(ok.chunks.length, 1);
  assert.ok(ok.chunks[0].includes('Still working.'));
});

test('document text that spells a Markdown link or image stays text', () => {
  const html = '<p>Click [here](javascript:alert(1)) or ![i](http://evil.example/x.png)</p><p><a href="http://real.example/">a real link</a></p>';
  const [text] = convert(html, { fileName: 'x.html' }).chunks;
  assert.ok(text.includes('[here]\\(javascript:'), text);
  assert.ok(text.includes('!\\[i]\\(http://evil.example'), text);
  assert.ok(text.includes('[a real link](http://real.example/)'), text);
});
