// LOCAL EMBED section of `make bench` (issue 20): the companion package
// docrag-local-embed (target/local-embed/dist/real, `make local-embed`) in headless
// Chromium. Prints its size (gzip -9 of what a page downloads: WebAssembly, JS, model
// files), the time from navigation to the first embedding (median of 3 fresh
// profiles), and chunks per second embedded in its Web Worker (docrag's own chunks of
// corpus documents, each cut by the model at 256 WordPiece tokens).
//
//   node scripts/bench-local-embed.mjs [--chunks N]
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { launch, serve, root, corpusDir, fixturesDir } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const chunkCount = Number(args[args.indexOf('--chunks') + 1]) || 60;
const dist = join(root, 'target/local-embed/dist/real');

function files(dir, prefix = '') {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, `${prefix}${f}/`) : [[`${prefix}${f}`, p]];
  });
}
const shipped = files(dist).filter(([f]) => !/README|package\.json|\.d\.ts$/.test(f));
let raw = 0;
let gz = 0;
const parts = {};
for (const [f, p] of shipped) {
  const bytes = readFileSync(p);
  const g = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += g;
  const part = f.startsWith('model/') ? 'model' : f.endsWith('.wasm') ? 'wasm' : 'js';
  parts[part] = (parts[part] ?? 0) + g;
}
console.log(`size: ${(gz / 1e6).toFixed(2)} MB gzip (${(raw / 1e6).toFixed(2)} MB raw): wasm ${(parts.wasm / 1e6).toFixed(2)} MB, js ${(parts.js / 1e3).toFixed(1)} KB, model ${(parts.model / 1e6).toFixed(2)} MB`);

// docrag's chunks of a few corpus documents, as the page would embed them.
const texts = [];
for (const f of ['readability__ietf-1.html', 'es6tutorial__proxy.md', 'openxmlsdk__complex2010.docx', 'poi__bug65649.docx']) {
  const out = execFileSync(join(root, 'target/release/docrag'), ['convert', join(corpusDir, f), '--format', 'jsonl'], { maxBuffer: 1 << 28 });
  for (const line of out.toString().split('\n').filter(Boolean)) texts.push(JSON.parse(line).text);
}
const batch = texts.slice(0, chunkCount);

const server = await serve({ '/local-embed/': dist, '/': fixturesDir });
const firsts = [];
let rate = null;
try {
  for (let run = 0; run < 3; run++) {
    const browser = await launch({ timeout: 600_000 });
    try {
      const page = await browser.newPage();
      const t0 = Date.now();
      await page.goto(`${server.url}/blank.html`);
      const r = await page.evaluate(async ({ batch, measureRate }) => {
        const start = performance.now();
        const { loadLocalModel } = await import('/local-embed/index.js');
        const local = await loadLocalModel();
        const loaded = performance.now();
        await local.embed(['This is an example sentence']);
        const first = performance.now();
        let seconds = null;
        if (measureRate) {
          const t = performance.now();
          await local.embed(batch);
          seconds = (performance.now() - t) / 1000;
        }
        local.close();
        return { sinceScript: first - start, load: loaded - start, firstText: first - loaded, navToScript: start, seconds };
      }, { batch, measureRate: run === 0 });
      firsts.push(r.navToScript + r.sinceScript);
      if (r.seconds) rate = batch.length / r.seconds;
      console.log(`run ${run + 1}: navigation -> first embedding ${(r.navToScript + r.sinceScript).toFixed(0)} ms (load ${r.load.toFixed(0)} ms, first text ${r.firstText.toFixed(0)} ms)${r.seconds ? `; ${batch.length} chunks in ${r.seconds.toFixed(1)} s` : ''} [wall ${Date.now() - t0} ms]`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
firsts.sort((a, b) => a - b);
console.log(`first embedding: ${firsts[1].toFixed(0)} ms median of 3 fresh profiles; ${rate.toFixed(2)} chunks/s in the worker (${batch.length} docrag chunks)`);
