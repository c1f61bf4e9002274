// Vector agreement of two OpenAI-compatible embedding endpoints on 100 docrag chunks
// of the corpus (every 5th chunk of the corpus files in name order, until 100): the
// companion (`serve.mjs`) against the numpy reference (`scripts/embed-reference.py
// serve`). Prints the minimum and mean cosine.
//
//   node companion/local-embed/scripts/agreement.mjs http://127.0.0.1:A/v1 http://127.0.0.1:B/v1
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: agreement.mjs URL_A URL_B');
  process.exit(2);
}
const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const corpus = join(root, '../shared/corpus');
const texts = [];
let n = 0;
for (const f of readdirSync(corpus).filter((f) => /\.(docx|html|md|rtf|txt)$/.test(f)).sort()) {
  let out;
  try {
    out = execFileSync(join(root, 'target/release/docrag'), ['convert', join(corpus, f), '--format', 'jsonl'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    continue;
  }
  for (const line of out.toString().split('\n').filter(Boolean)) {
    if (n++ % 5 === 0 && texts.length < 100) texts.push(JSON.parse(line).text);
  }
  if (texts.length >= 100) break;
}
async function embed(url) {
  const vectors = [];
  for (let i = 0; i < texts.length; i += 10) {
    const r = await fetch(`${url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'x', input: texts.slice(i, i + 10) }) });
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    vectors.push(...(await r.json()).data.map((d) => d.embedding));
  }
  return vectors;
}
const [va, vb] = [await embed(a), await embed(b)];
const cos = va.map((x, i) => {
  const y = vb[i];
  let d = 0, nx = 0, ny = 0;
  for (let j = 0; j < x.length; j++) { d += x[j] * y[j]; nx += x[j] * x[j]; ny += y[j] * y[j]; }
  return d / Math.sqrt(nx * ny);
});
console.log(`${texts.length} chunks: cosine min ${Math.min(...cos).toFixed(6)}, mean ${(cos.reduce((s, c) => s + c, 0) / cos.length).toFixed(6)}`);
