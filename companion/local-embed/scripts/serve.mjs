// The companion's model as an OpenAI-compatible embeddings endpoint on 127.0.0.1, for
// measuring it where only an HTTP provider fits (`docrag ask --embed-url`, the eval):
// the same WebAssembly and model folder a page loads, run in Node. Each text's vector
// is remembered, so an eval run embeds every chunk once.
//
//   node companion/local-embed/scripts/serve.mjs PORT [DIST]   (DIST: target/local-embed/dist/real)
//   python3 ../shared/eval/run.py -- --embed-url http://127.0.0.1:PORT/v1 --embed-model local
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: serve.mjs PORT [DIST]');
  process.exit(2);
}
const dist = resolve(process.argv[3] ?? join(fileURLToPath(import.meta.url), '../../../../target/local-embed/dist/real'));
const { initSync, LocalModel } = await import(join(dist, 'wasm/docrag_local_embed.js'));
initSync({ module: readFileSync(join(dist, 'wasm/docrag_local_embed_bg.wasm')) });
const dir = join(dist, 'model');
const manifest = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
const model = new LocalModel(readFileSync(join(dir, manifest.weights)), readFileSync(join(dir, manifest.tokenizer)), readFileSync(join(dir, manifest.config)), manifest.maxTokens);
const memo = new Map();

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      if (req.method !== 'POST' || !req.url.endsWith('/embeddings')) throw Object.assign(new Error(`no route ${req.method} ${req.url}`), { status: 404 });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const input = Array.isArray(body.input) ? body.input : [body.input];
      const data = input.map((text, index) => {
        if (!memo.has(text)) memo.set(text, Array.from(model.embed(String(text))));
        return { object: 'embedding', index, embedding: memo.get(text) };
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: manifest.name, data }));
    } catch (e) {
      res.writeHead(e.status ?? 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: e.message } }));
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`${manifest.name} on http://127.0.0.1:${port}/v1`));
