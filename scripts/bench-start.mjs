// The start-up and footprint sections of `make bench` (issue 15), each figure beside
// its budget or its peer measured in the same run. Prints; never fails on a number.
//
//   PACKAGE  gzip -9 size of every file of pkg/ (what `npm install` puts on disk)
//            against the 2.0 MB budget, each part of it (vocabulary, split DFA, wasm
//            code, other wasm data, JS) against its own budget, and the biggest items
//            (twiggy, when installed).
//   TOKENS   o200k counting in wasm under Node: the first countTokens after init (a
//            fresh process each time, median of 5) and MB/s over the corpus chunk
//            texts, beside the `tiktoken` npm package (tiktoken's Rust core built to
//            wasm, the same algorithm as tiktoken-rs) on the same texts; token totals
//            must agree.
//   START    Chromium, a fresh profile per run (median of 5): navigation start to the
//            first convert() result on a small DOCX, and init() to the first
//            countTokens; the page is served by this script on 127.0.0.1 with
//            Content-Type application/wasm so compileStreaming applies. Beside it the
//            floors no code of ours changes: an empty page, and compiling the module.
//   MEMORY   wasm linear memory added by VectorIndex.add of n vectors and by
//            VectorIndex.fromBytes of their saved form (fresh processes), as a multiple
//            of the vector bytes (n x dim x 4).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { KREUZBERG, KREUZBERG_VERSION, installKreuzberg } from './bench-peer.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n) => `${(n / 1e6).toFixed(3)} MB`;

/** The newest file `name` under the wasm build's OUT_DIRs (older builds leave theirs). */
function buildOutput(root, name) {
  const cmd = `ls -t ${join(root, 'target', 'wasm32-unknown-unknown', 'wasm', 'build')}/docrag-*/out/${name} 2>/dev/null | head -1`;
  return spawnSync('bash', ['-c', cmd], { encoding: 'utf8' }).stdout.trim() || null;
}

/** Section id -> bytes of a wasm module (the section bodies, without headers). */
function wasmSections(bytes) {
  const out = new Map();
  let i = 8;
  const leb = () => {
    let r = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[i++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return r;
    }
  };
  while (i < bytes.length) {
    const id = bytes[i++];
    const size = leb();
    out.set(id, Buffer.concat([out.get(id) ?? Buffer.alloc(0), bytes.subarray(i, i + size)]));
    i += size;
  }
  return out;
}

/**
 * Budget per part of the package, gzip -9 MB: the parts sum to within the 2.0 MB
 * budget.
 * Measured parts and the biggest items (twiggy, when installed) show where a change
 * spent its bytes. Issue 16 moved 0.04 MB from the vocabulary's and the DFA's unused
 * room to code and data (chardetng, the symbol-font and EBCDIC tables); issue 17's
 * adapters, error class and progress plumbing left the total at 1.993 MB. Issue 15's
 * deflated DFA freed 4 KB; issue 18's export and search (code and types) took it and
 * 3 KB more, won back by size-optimised html5ever, whatlang, chardetng and JS glue.
 * Issue 19's page estimate (about 13 KB of code) was paid by minifying the shipped
 * JavaScript (esbuild) and pointing the package README to the retrieval design notes:
 * 0.013 MB moved from JS to code. The zopfli-deflated DFA freed 3 KB; the RTF page
 * estimate with its table rows (3.4 KB of code) took it and 3 KB of the vocabulary's
 * unused room (code 0.781, vocabulary 0.722).
 * A zopfli-deflated vocabulary would free 20 KB more but costs the first count 6-13 ms
 * at every page load (see build.rs). opt-level 2 with the inliner held to what costs
 * no size (scripts/build-pkg.mjs: DOCX 1.84x -> 2.16x @kreuzberg/wasm) took 5.7 KB;
 * short import names in the wasm and its glue (scripts/short-imports.mjs) paid for it:
 * 0.004 MB moved from JS to code.
 */
const PART_BUDGETS = [
  ['o200k vocabulary', 0.722],
  ['o200k split DFA', 0.025],
  ['wasm code', 0.786],
  ['other wasm data', 0.42],
  ['JS, types, README', 0.046],
];

export function benchPackage(root) {
  const dir = join(root, 'pkg');
  console.log('\nPACKAGE: gzip -9 of every file in pkg/ (budget 2.000 MB)');
  let total = 0;
  let wasmGz = 0;
  for (const f of readdirSync(dir).sort()) {
    const raw = readFileSync(join(dir, f));
    const gz = gzipSync(raw, { level: 9 }).length;
    total += gz;
    if (f.endsWith('.wasm')) wasmGz += gz;
    console.log(`${f.padEnd(18)} ${mb(raw.length).padStart(12)} raw ${mb(gz).padStart(12)} gzip`);
  }
  console.log(`${'total'.padEnd(18)} ${''.padStart(16)} ${mb(total).padStart(12)} gzip (${total <= 2e6 ? 'within' : 'OVER'} the 2.0 MB budget)`);
  const vocabFile = buildOutput(root, 'o200k_vocab.bin');
  const dfaFile = buildOutput(root, 'o200k_split.dfa.deflate');
  if (!vocabFile || !dfaFile) return;
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  const sections = wasmSections(readFileSync(join(dir, 'docrag_bg.wasm')));
  const vocab = gz(readFileSync(vocabFile));
  const dfa = gz(readFileSync(dfaFile));
  const code = gz(sections.get(10) ?? Buffer.alloc(0));
  const parts = {
    'o200k vocabulary': vocab,
    'o200k split DFA': dfa,
    'wasm code': code,
    // The data section less the two tables (gzip sizes add up to within a few KB).
    'other wasm data': gz(sections.get(11) ?? Buffer.alloc(0)) - vocab - dfa,
    'JS, types, README': total - wasmGz,
  };
  console.log('parts (gzip):');
  for (const [name, budget] of PART_BUDGETS) {
    const size = parts[name];
    console.log(`  ${name.padEnd(20)} ${mb(size).padStart(10)}  budget ${budget.toFixed(3)} MB ${size <= budget * 1e6 ? 'within' : 'OVER'}`);
  }
  const twiggy = spawnSync('twiggy', ['top', '-n', '12', join(root, 'target', 'wasm32-unknown-unknown', 'wasm', 'docrag.wasm')], { encoding: 'utf8' });
  if (twiggy.status === 0) {
    console.log('biggest items of the wasm before wasm-bindgen (twiggy top, raw bytes):');
    console.log(twiggy.stdout.trimEnd().split('\n').map((l) => `  ${l}`).join('\n'));
  } else {
    console.log('biggest items: install twiggy (cargo install twiggy) for the list');
  }
}

/** Runs `code` (an ES module body) in a fresh Node process; returns its last stdout line as JSON. */
function fresh(root, code) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr.trim().split('\n').slice(-3).join(' | '));
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

export async function benchTokens(root, corpusDir, manifest) {
  console.log('\nTOKENS: o200k_base counting in wasm under Node');
  const pkg = join(root, 'pkg', 'node.js');
  const firsts = [];
  for (let i = 0; i < 5; i++) {
    firsts.push(
      fresh(root, `
        const t0 = performance.now();
        const d = await import(${JSON.stringify(pkg)});
        const t1 = performance.now();
        d.countTokens('The first count builds the tables.');
        console.log(JSON.stringify({ init: t1 - t0, first: performance.now() - t1 }));`),
    );
  }
  console.log(`docrag: import+init ${median(firsts.map((f) => f.init)).toFixed(1)} ms, first countTokens ${median(firsts.map((f) => f.first)).toFixed(1)} ms (median of 5 fresh processes; budget 30 ms)`);
  let peer = null;
  try {
    peer = fresh(root, `
      import { createRequire } from 'node:module';
      const require = createRequire(${JSON.stringify(join(root, 'package.json'))});
      const t0 = performance.now();
      const { get_encoding } = require('tiktoken');
      const enc = get_encoding('o200k_base');
      const t1 = performance.now();
      enc.encode_ordinary('The first count builds the tables.');
      console.log(JSON.stringify({ init: t1 - t0, first: performance.now() - t1 }));`);
    console.log(`tiktoken npm: load+get_encoding ${peer.init.toFixed(1)} ms, first encode ${peer.first.toFixed(1)} ms`);
  } catch (e) {
    console.log(`tiktoken npm: not available (${e.message}); npm ci installs it`);
  }

  const { convert, countTokens } = await import(pkg);
  const texts = [];
  for (const r of manifest.filter((r) => !r.features.split(',').includes('broken'))) {
    try {
      texts.push(...convert(readFileSync(join(corpusDir, r.file)), { fileName: r.file }).chunks);
    } catch {}
  }
  const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
  const rate = (count) => {
    count(texts[0]);
    let tokens = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 3; i++) for (const t of texts) tokens += count(t);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    return { mbs: (3 * bytes) / 1e6 / s, tokens: tokens / 3 };
  };
  const ours = rate(countTokens);
  console.log(`docrag countTokens  ${ours.mbs.toFixed(2).padStart(7)} MB/s over ${texts.length} corpus chunks (${mb(bytes)}, ${ours.tokens} tokens)`);
  try {
    const { createRequire } = await import('node:module');
    const require = createRequire(join(root, 'package.json'));
    const enc = require('tiktoken').get_encoding('o200k_base');
    const theirs = rate((t) => enc.encode_ordinary(t).length);
    console.log(`tiktoken npm encode ${theirs.mbs.toFixed(2).padStart(7)} MB/s (${theirs.tokens} tokens${theirs.tokens === ours.tokens ? ', same total' : ', TOTALS DIFFER'}); docrag is ${(ours.mbs / theirs.mbs).toFixed(2)}x (target 1.5x)`);
    enc.free();
  } catch (e) {
    console.log(`tiktoken npm: not available (${e.message})`);
  }
}

/**
 * Median-of-5 cold starts of `page` (HTML) in fresh Chromium profiles; `files` maps a
 * URL path prefix to a folder served under it. The page sets `window.result`.
 */
async function coldStarts(launch, page, files) {
  const types = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    let body = url === '/' ? page : null;
    const [prefix, dir] = Object.entries(files).find(([p]) => url.startsWith(p)) ?? [];
    if (prefix) {
      try {
        body = readFileSync(join(dir, url.slice(prefix.length)));
      } catch {}
    }
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[extname(url)] ?? 'text/html' }).end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const runs = [];
  try {
    for (let i = 0; i < 5; i++) {
      // A fresh profile each time (launch's default): no code cache, no HTTP cache.
      const browser = await launch();
      try {
        const tab = await browser.newPage();
        await tab.goto(`http://127.0.0.1:${server.address().port}/`);
        await tab.waitForFunction(() => window.result, null, { timeout: 60000 });
        const result = await tab.evaluate(() => window.result);
        if (result.error) throw new Error(result.error);
        runs.push(result);
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.close();
  }
  return runs;
}

export async function benchStart(root, corpusDir) {
  console.log('\nSTART: Chromium, fresh profile per run, median of 5 (budget: first convert() <= 100 ms after navigation start; first countTokens <= 30 ms after init)');
  let launch;
  try {
    ({ launch } = await import(join(root, 'tests', 'browser', 'harness.mjs')));
  } catch (e) {
    console.log(`start: skipped: the browser harness did not load (${e.message}; npm ci)`);
    return;
  }
  const docx = readFileSync(join(corpusDir, 'pandoc__comments.docx'));
  // A dropped file is already in memory: the document is in the page, not fetched.
  const inPage = `Uint8Array.from(atob('${docx.toString('base64')}'), (c) => c.charCodeAt(0))`;
  // The page a person who cares about start-up writes (README, "Start-up"): preload
  // hints request the module graph and the wasm at once, so the wasm's download
  // overlaps the JS modules instead of waiting for them.
  const hints = (modules, wasm) =>
    modules.map((f) => `<link rel="modulepreload" href="${f}">`).join('') +
    `<link rel="preload" href="${wasm}" as="fetch" type="application/wasm" crossorigin>`;
  const page = `<!doctype html><meta charset="utf-8">${hints(['web.js', 'docrag.js', 'constants.js', 'shared.js'].map((f) => `./pkg/${f}`), './pkg/docrag_bg.wasm')}<script type="module">
    import { init, convert, countTokens } from './pkg/web.js';
    const t0 = performance.now();
    await init();
    const tInit = performance.now();
    const n = countTokens('The first count builds the tables.');
    const tCount = performance.now();
    const out = convert(${inPage}, { fileName: 'doc.docx' });
    const tConvert = performance.now();
    window.result = { moduleStart: t0, init: tInit - t0, firstCount: tCount - tInit, convertAt: tConvert, chunks: out.chunks.length, n };
  </script>`;
  const m = (runs, k) => median(runs.map((r) => r[k])).toFixed(1);
  try {
    const runs = await coldStarts(launch, page, { '/pkg/': join(root, 'pkg') });
    console.log(`docrag: navigation start -> first convert() result: ${m(runs, 'convertAt')} ms (each: ${runs.map((r) => r.convertAt.toFixed(0)).join(', ')})`);
    console.log(`  of which: module graph ${m(runs, 'moduleStart')} ms, init() ${m(runs, 'init')} ms, first countTokens ${m(runs, 'firstCount')} ms`);
  } catch (e) {
    console.log(`start: failed: ${e.message}`);
  }
  // What the browser costs before any of docrag's work, in the same fresh profiles: an
  // empty page's first script, and a page that only compiles the module (the same
  // preload hint, compileStreaming, no instantiation, no JS glue).
  const floors = [
    ['an empty page: navigation start -> its first script', '<!doctype html><meta charset="utf-8"><script>window.result = { at: performance.now() };</script>'],
    [
      'the module alone: navigation start -> WebAssembly.compileStreaming done',
      `<!doctype html><meta charset="utf-8">${hints([], './pkg/docrag_bg.wasm')}<script type="module">
        await WebAssembly.compileStreaming(fetch('./pkg/docrag_bg.wasm'));
        window.result = { at: performance.now() };
      </script>`,
    ],
  ];
  for (const [what, floorPage] of floors) {
    try {
      const runs = await coldStarts(launch, floorPage, { '/pkg/': join(root, 'pkg') });
      console.log(`floor: ${what}: ${m(runs, 'at')} ms (each: ${runs.map((r) => r.at.toFixed(0)).join(', ')})`);
    } catch (e) {
      console.log(`floor: ${what}: failed: ${e.message}`);
    }
  }
  // The peer: @kreuzberg/wasm's own web glue instantiates its module on import (top-level
  // await), the same hints, the same document.
  const peer = installKreuzberg(root);
  if (peer.error) {
    console.log(`${KREUZBERG}: skipped: ${peer.error}`);
    return;
  }
  const peerPage = `<!doctype html><meta charset="utf-8">${hints(['./peer/kreuzberg_wasm.js'], './peer/kreuzberg_wasm_bg.wasm')}<script type="module">
    import { extractBytes } from './peer/kreuzberg_wasm.js';
    try {
      const out = await extractBytes(${inPage}, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', null);
      window.result = { convertAt: performance.now(), chars: out.content.length };
    } catch (e) {
      window.result = { error: String(e) };
    }
  </script>`;
  try {
    const runs = await coldStarts(launch, peerPage, { '/peer/': join(peer.dir, 'dist', 'pkg') });
    console.log(`${KREUZBERG} ${KREUZBERG_VERSION}: navigation start -> first extractBytes() result: ${m(runs, 'convertAt')} ms (each: ${runs.map((r) => r.convertAt.toFixed(0)).join(', ')})`);
  } catch (e) {
    console.log(`${KREUZBERG}: failed: ${e.message}`);
  }
}

export function benchMemory(root) {
  console.log('\nMEMORY: wasm memory added by VectorIndex (fresh processes; budget 1.2x the vector bytes)');
  const glue = join(root, 'pkg', 'docrag.js');
  const wasm = join(root, 'pkg', 'docrag_bg.wasm');
  const dir = mkdtempSync(join(tmpdir(), 'docrag-mem-'));
  const prelude = `
    import { readFileSync, writeFileSync } from 'node:fs';
    const g = await import(${JSON.stringify(glue)});
    const w = g.initSync({ module: readFileSync(${JSON.stringify(wasm)}) });
    const mem = () => w.memory.buffer.byteLength;
    let x = 0x9e3779b9 | 0;
    const next = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 2147483648 - 1; };`;
  try {
    for (const [n, dim] of [[100000, 384], [50000, 1536]]) {
      const file = join(dir, `${n}x${dim}.drvx`);
      const add = fresh(root, `${prelude}
        const v = new Float32Array(${dim});
        const index = new g.VectorIndex(${dim});
        const before = mem();
        for (let i = 0; i < ${n}; i++) { for (let j = 0; j < ${dim}; j++) v[j] = next(); index.add('d' + (i >> 7), i & 127, v); }
        const added = mem() - before;
        writeFileSync(${JSON.stringify(file)}, index.toBytes());
        console.log(JSON.stringify({ added }));`);
      const load = fresh(root, `${prelude}
        const bytes = new Uint8Array(readFileSync(${JSON.stringify(file)}));
        const before = mem();
        const index = g.VectorIndex.fromBytes(bytes);
        console.log(JSON.stringify({ added: mem() - before, size: index.size }));`);
      const vectors = n * dim * 4;
      console.log(`${n} x ${dim} (${mb(vectors)} of vectors): add ${(add.added / vectors).toFixed(2)}x, load ${(load.added / vectors).toFixed(2)}x`);
    }
  } catch (e) {
    console.log(`memory: failed: ${e.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
