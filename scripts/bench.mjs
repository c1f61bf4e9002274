#!/usr/bin/env node
// Conversion throughput per input format (the non-broken DOCX, HTML and RTF files of
// MANIFEST.tsv): docrag native (the CLI's in-process `bench`), docrag wasm under Node
// (in-process, this script), and pandoc -t gfm --track-changes=all (one process per
// file), all in the same run. MB = 10^6 bytes of input. Prints; never fails on speed.
// Usage: node scripts/bench.mjs [--corpus DIR] [--iterations N]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const corpusDir = arg('--corpus', join(root, '..', 'shared', 'corpus'));
const iterations = Number(arg('--iterations', '3'));

const [head, ...rows] = readFileSync(join(corpusDir, 'MANIFEST.tsv'), 'utf8').split('\n').filter(Boolean);
const cols = head.split('\t');
const manifest = rows.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i], v])));
const { convert } = await import(pathToFileURL(join(root, 'pkg', 'node.js')).href);
const pandocVersion = spawnSync('pandoc', ['--version'], { encoding: 'utf8' });
if (pandocVersion.status !== 0) console.log('pandoc: not installed (make bench installs it with apt-get as root)');

const line = (name, mb, s, extra = '') =>
  console.log(`${name.padEnd(14)} ${mb.toFixed(3).padStart(8)} MB ${s.toFixed(3).padStart(8)} s ${(mb / s).toFixed(2).padStart(8)} MB/s ${extra}`);

for (const format of ['docx', 'html', 'rtf']) {
  const files = manifest
    .filter((r) => r.format === format && !r.features.split(',').includes('broken'))
    .map((r) => join(corpusDir, r.file));
  const inputs = files.map((f) => ({ path: f, bytes: readFileSync(f) }));
  const totalBytes = inputs.reduce((s, i) => s + i.bytes.length, 0);
  console.log(`\n${format.toUpperCase()}: ${inputs.length} files, ${(totalBytes / 1e6).toFixed(3)} MB; docrag runs ${iterations} iterations, pandoc one`);

  // Native: the CLI's in-process loop.
  const cli = spawnSync(join(root, 'target', 'release', 'docrag'), ['bench', '--json', '--iterations', String(iterations), ...files], { encoding: 'utf8' });
  let native = null;
  if (cli.status === 0) {
    const r = JSON.parse(cli.stdout.trim().split('\n').pop());
    native = r.bytes / 1e6 / r.seconds;
    line('docrag native', r.bytes / 1e6, r.seconds, `(${r.files} files, ${r.failed} failed)`);
  } else {
    console.log(`docrag native: failed to run (${cli.status}): ${cli.stderr.trim()}`);
  }

  // Wasm under Node: the package's node entry, in this process.
  const ok = inputs.filter((i) => {
    try {
      convert(i.bytes, { fileName: i.path }); // warm-up: tokenizer table, JIT
      return true;
    } catch {
      return false;
    }
  });
  let wasmBytes = 0;
  const t0 = process.hrtime.bigint();
  for (let n = 0; n < iterations; n++) {
    for (const i of ok) {
      convert(i.bytes, { fileName: i.path });
      wasmBytes += i.bytes.length;
    }
  }
  const wasmSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const wasm = wasmBytes / 1e6 / wasmSeconds;
  line('docrag wasm', wasmBytes / 1e6, wasmSeconds, `(${ok.length} files, ${inputs.length - ok.length} failed)`);

  // pandoc: one process per file, wall time, as a user would run it.
  if (pandocVersion.status !== 0) continue;
  let failed = 0;
  const p0 = process.hrtime.bigint();
  for (const i of inputs) {
    const r = spawnSync('pandoc', ['-f', format, '-t', 'gfm', '--track-changes=all', i.path, '-o', '/dev/null'], { encoding: 'utf8' });
    if (r.status !== 0) failed += 1;
  }
  const seconds = Number(process.hrtime.bigint() - p0) / 1e9;
  const pandoc = totalBytes / 1e6 / seconds;
  line('pandoc', totalBytes / 1e6, seconds, `(${pandocVersion.stdout.split('\n')[0]}; ${failed} of ${inputs.length} files failed)`);
  if (native) console.log(`ratio docrag native / pandoc: ${(native / pandoc).toFixed(1)}x`);
  console.log(`ratio docrag wasm / pandoc:   ${(wasm / pandoc).toFixed(1)}x`);
}
