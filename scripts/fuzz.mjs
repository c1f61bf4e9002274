#!/usr/bin/env node
// Runs the cargo-fuzz targets of fuzz/ one after another (one libFuzzer process at a
// time, single-threaded), each for a bounded time, and prints a table of executions
// and executions per second (libFuzzer's -print_final_stats=1). Exits 1 when a target
// crashed, timed out, ran out of memory or could not be built; 2 when cargo-fuzz is
// missing (`make fuzz` installs it, and nightly where it can be had). Without a nightly
// toolchain it builds with the default (stable) one and RUSTC_BOOTSTRAP=1, which
// accepts the -Z flags cargo-fuzz passes (checked with -s none).
//
// Usage: node scripts/fuzz.mjs [--seconds N] [--only a,b] [--root DIR] [--summary FILE]
//                              [--record] [--check]
//   --seconds   per target (default $FUZZ_SECONDS, else 60)
//   --only      comma-separated targets (default $FUZZ_TARGETS, else all)
//   --root      the docrag checkout whose fuzz/ runs (default: this one); the crate
//               under test is DIR itself (fuzz/Cargo.toml depends on "..")
//   --summary   Markdown table written here (default fuzz/target/fuzz-summary.md)
//   --json      print one JSON line of the results at the end
//   --record    add the run to fuzz/results.json and regenerate fuzz/RESULTS.md (of
//               this checkout, whatever --root is)
//   --check     only report whether nightly and cargo-fuzz are present (exit 0 when
//               cargo-fuzz is, else 2)
//   --sanitizer none|address (default $FUZZ_SANITIZER, else none): docrag's native code
//               is safe Rust (its one `unsafe` is wasm SIMD), so AddressSanitizer finds
//               nothing more here and costs about 4x in executions; each sanitizer
//               builds into its own fuzz/target/build-<sanitizer>
//
// The working corpus of each target is fuzz/target/corpus/<target> (new inputs go
// there); the committed seeds in fuzz/corpus/<target> are read, never written.
// Crash, timeout and out-of-memory inputs go to fuzz/artifacts/<target>/; each run's
// full output to fuzz/target/logs/<target>.log.
import { spawnSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const flag = (name) => process.argv.includes(name);

// Per target: the longest input (-max_len) and the dictionary (fuzz/dict/). The text
// readers run at roughly 100-1,000 exec/s, inversely to input size, so their limits
// are kept small; zip inputs need more room.
export const TARGETS = {
  docx: { maxLen: 65536, dict: 'xml.dict' },
  docx_xml: { maxLen: 65536, dict: 'xml.dict' },
  html: { maxLen: 16384, dict: 'html.dict' },
  rtf: { maxLen: 16384, dict: 'rtf.dict' },
  markdown: { maxLen: 8192, dict: 'markdown.dict' },
  text: { maxLen: 8192 },
  sniff: { maxLen: 16384 },
  enrich: { maxLen: 4096, dict: 'markdown.dict' },
  query_route: { maxLen: 4096 },
  query_untrusted: { maxLen: 4096 },
  provider_parse: { maxLen: 8192 },
  provider_stream: { maxLen: 8192 },
  // The readers alone (no chunking, no token counting), seeded like their `convert`
  // counterparts and built without compare tracing (`compares: false`, cargo fuzz
  // --no-trace-compares, which took over half of each execution): with the
  // dictionaries and seeds standing in for it, these reach millions of executions an
  // hour. Shorter inputs than the convert targets, for the same reason.
  read_docx: { maxLen: 65536, dict: 'xml.dict', seeds: 'docx', compares: false },
  read_docx_xml: { maxLen: 16384, dict: 'xml.dict', seeds: 'docx_xml', compares: false },
  read_html: { maxLen: 2048, dict: 'html.dict', seeds: 'html', compares: false },
  read_rtf: { maxLen: 2048, dict: 'rtf.dict', seeds: 'rtf', compares: false },
  read_markdown: { maxLen: 2048, dict: 'markdown.dict', seeds: 'markdown', compares: false },
  read_text: { maxLen: 2048, seeds: 'text', compares: false },
  // The native PDF reader (hayro behind catch_unwind, then the layout), and the
  // layout alone on the JSON of runs the JS layer would pass.
  read_pdf: { maxLen: 32768, compares: false },
  pdf_layout: { maxLen: 8192 },
};

/** The targets that exercise each reader (the per-reader totals of RESULTS.md). */
export const READERS = {
  DOCX: ['docx', 'docx_xml', 'read_docx', 'read_docx_xml'],
  HTML: ['html', 'read_html'],
  RTF: ['rtf', 'read_rtf'],
  Markdown: ['markdown', 'read_markdown'],
  text: ['text', 'read_text'],
  PDF: ['read_pdf', 'pdf_layout'],
};

/** Whether `cargo +nightly` and `cargo fuzz` run here. */
export function toolsPresent() {
  const ok = (args) => spawnSync('cargo', args, { encoding: 'utf8' }).status === 0;
  return { nightly: ok(['+nightly', '--version']), cargoFuzz: ok(['fuzz', '--version']) };
}

/** Reads libFuzzer's output: final stats, and what went wrong if anything did. */
export function parseLog(text) {
  const stat = (name) => {
    const m = text.match(new RegExp(`stat::${name}:\\s+(\\d+)`));
    return m ? Number(m[1]) : null;
  };
  let execs = stat('number_of_executed_units');
  if (execs === null) {
    // No final stats (a build failure, a kill): the last status line's count.
    const lines = [...text.matchAll(/^#(\d+)\s/gm)];
    execs = lines.length ? Number(lines[lines.length - 1][1]) : 0;
  }
  let kind = null;
  if (/ERROR: libFuzzer: timeout|ALARM: working on the last Unit/.test(text)) kind = 'timeout';
  else if (/ERROR: libFuzzer: out-of-memory|malloc\(\d+\) exceeds/.test(text)) kind = 'oom';
  else if (/ERROR: libFuzzer: deadly signal|panicked at|ERROR: AddressSanitizer/.test(text)) kind = 'crash';
  else if (/ERROR: libFuzzer: fuzz target exited/.test(text)) kind = 'exit';
  const artifact = text.match(/Test unit written to (\S+)/)?.[1] ?? null;
  const panic = text.match(/panicked at ([^\n]+)\n([^\n]*)/);
  return {
    execs,
    execPerSec: stat('average_exec_per_sec'),
    newUnits: stat('new_units_added'),
    peakRssMb: stat('peak_rss_mb'),
    kind,
    artifact,
    panic: panic ? `${panic[2].trim()} (at ${panic[1].replace(/:$/, '')})` : null,
  };
}

const sanitizer = arg('--sanitizer', process.env.FUZZ_SANITIZER || 'none');
// FUZZ_NO_NIGHTLY=1 takes the stable path even where nightly is installed.
const nightly = !process.env.FUZZ_NO_NIGHTLY && spawnSync('cargo', ['+nightly', '--version'], { encoding: 'utf8' }).status === 0;
// Targets built without compare tracing get their own build directory, so the two
// kinds of build never overwrite each other.
const cargoFuzz = (verb, compares = true) => [
  ...(nightly ? ['+nightly'] : []),
  'fuzz', verb, '-O', '-s', sanitizer, ...(compares ? [] : ['--no-trace-compares']),
  '--target-dir', `target/build-${sanitizer}${compares ? '' : '-nocmp'}${nightly ? '' : '-stable'}`,
];
const tracesCompares = (target) => TARGETS[target].compares !== false;
// Stable rustc takes -Z flags only with RUSTC_BOOTSTRAP=1.
const cargoEnv = nightly ? process.env : { ...process.env, RUSTC_BOOTSTRAP: '1' };

function runOne(root, target, seconds, logPath) {
  const fuzzDir = join(root, 'fuzz');
  const work = join(fuzzDir, 'target', 'corpus', target);
  const { maxLen, dict, seeds: seedsOf = target } = TARGETS[target];
  const compares = tracesCompares(target);
  const seeds = join(fuzzDir, 'corpus', seedsOf);
  mkdirSync(work, { recursive: true });
  const libfuzzer = [
    `-max_total_time=${seconds}`,
    `-max_len=${maxLen}`,
    '-rss_limit_mb=2048',
    '-timeout=10',
    '-print_final_stats=1',
    ...(dict ? [`-dict=${join(fuzzDir, 'dict', dict)}`] : []),
  ];
  // One process, one thread: no -jobs/-workers/-fork (libFuzzer's default is exactly
  // one job in this process), so a second engineer's build keeps the other core.
  const args = [...cargoFuzz('run', compares), target, work, ...(existsSync(seeds) ? [seeds] : []), '--', ...libfuzzer];
  return new Promise((done) => {
    const log = createWriteStream(logPath);
    const child = spawn('cargo', args, { cwd: fuzzDir, env: cargoEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const take = (b) => {
      log.write(b);
      text += b.toString();
      if (text.length > 4e6) text = text.slice(-2e6); // keep the tail, where the stats are
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      log.end();
      const r = parseLog(text);
      if (code !== 0 && r.kind === null) r.kind = /error(\[E\d+\])?: /.test(text) && r.execs === 0 ? 'build' : 'exit';
      done({ target, seconds, code, ...r });
    });
  });
}

const fmt = (n) => (n === null || n === undefined ? '-' : Number(n).toLocaleString('en-US'));

export function table(results) {
  const rows = ['| target | seconds | executions | exec/s | new units | peak RSS MB | result |', '|---|---:|---:|---:|---:|---:|---|'];
  for (const r of results) {
    const result = r.kind ? `**${r.kind}**${r.artifact ? ` ${r.artifact}` : ''}${r.panic ? `: ${r.panic}` : ''}` : 'ok';
    rows.push(`| ${r.target} | ${r.seconds} | ${fmt(r.execs)} | ${fmt(r.execPerSec)} | ${fmt(r.newUnits)} | ${fmt(r.peakRssMb)} | ${result} |`);
  }
  return rows.join('\n');
}

/** Adds `results` to fuzz/results.json and rewrites fuzz/RESULTS.md from it. */
function record(results) {
  const ledgerPath = join(here, 'fuzz', 'results.json');
  const ledger = existsSync(ledgerPath) ? JSON.parse(readFileSync(ledgerPath, 'utf8')) : { targets: {}, findings: [] };
  for (const r of results) {
    // A target that did not build did not fuzz: nothing to record.
    if (r.kind === 'build') continue;
    const t = (ledger.targets[r.target] ??= { runs: 0, seconds: 0, executions: 0, crashes: 0 });
    t.runs += 1;
    t.seconds += r.seconds;
    t.executions += r.execs ?? 0;
    if (r.kind) {
      t.crashes += 1;
      ledger.findings.push({ target: r.target, kind: r.kind, artifact: r.artifact, panic: r.panic, date: new Date().toISOString().slice(0, 10) });
    }
  }
  writeFileSync(ledgerPath, `${JSON.stringify(ledger, null, 2)}\n`);
  const lines = [
    '# Fuzzing results',
    '',
    'Written by `node scripts/fuzz.mjs --record` from `fuzz/results.json` (do not edit by hand;',
    'notes go in fuzz/README.md). Totals over every recorded run; exec/s is executions over',
    'seconds fuzzed, one single-threaded libFuzzer process on a 2-core machine shared with',
    'other work, release build without a sanitizer (`cargo fuzz run -O -s none`).',
    '',
    '| target | runs | seconds | total executions | exec/s | crashes/timeouts/OOM |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const name of Object.keys(TARGETS)) {
    const t = ledger.targets[name];
    if (!t) continue;
    lines.push(`| ${name} | ${t.runs} | ${fmt(t.seconds)} | ${fmt(t.executions)} | ${fmt(Math.round(t.executions / Math.max(1, t.seconds)))} | ${t.crashes} |`);
  }
  // Every target that runs a reader's code counts for that reader: its `convert`
  // target (reader + chunker), its `read_` target (reader alone) and, for DOCX, the
  // targets that pack fuzzed XML into a zip.
  lines.push('', '## Per reader', '', '| reader | targets | total executions | crashes/timeouts/OOM |', '|---|---|---:|---:|');
  for (const [reader, names] of Object.entries(READERS)) {
    const ts = names.filter((n) => ledger.targets[n]);
    const execs = ts.reduce((a, n) => a + ledger.targets[n].executions, 0);
    const crashes = ts.reduce((a, n) => a + ledger.targets[n].crashes, 0);
    lines.push(`| ${reader} | ${ts.join(', ')} | ${fmt(execs)} | ${crashes} |`);
  }
  lines.push('', '## Findings', '');
  if (ledger.findings.length === 0) lines.push('None.');
  for (const f of ledger.findings) {
    const artifact = f.artifact ? ` (${f.artifact.startsWith('/') ? `artifact ${f.artifact.replace(/^.*\/fuzz\//, 'fuzz/')}` : f.artifact})` : '';
    lines.push(`- ${f.date} ${f.target}: ${f.kind}${f.panic ? `: ${f.panic}` : ''}${artifact}${f.note ? `. ${f.note}` : ''}`);
  }
  if (ledger.notes?.length) lines.push('', '## Notes', '', ...ledger.notes.map((n) => `- ${n}`));
  writeFileSync(join(here, 'fuzz', 'RESULTS.md'), `${lines.join('\n')}\n`);
}

async function main() {
  const tools = toolsPresent();
  if (flag('--check')) {
    console.log(`nightly: ${tools.nightly ? 'present' : 'missing'}; cargo-fuzz: ${tools.cargoFuzz ? 'present' : 'missing'}`);
    process.exit(tools.cargoFuzz ? 0 : 2);
  }
  if (!tools.cargoFuzz) {
    console.error('fuzz: needs cargo-fuzz (`make fuzz-tools` installs it)');
    process.exit(2);
  }
  if (!tools.nightly) console.log('fuzz: no nightly toolchain; building with the default one and RUSTC_BOOTSTRAP=1');
  const root = resolve(arg('--root', here));
  const seconds = Number(arg('--seconds', process.env.FUZZ_SECONDS || '60'));
  const only = arg('--only', process.env.FUZZ_TARGETS || '');
  const targets = only ? only.split(',').map((s) => s.trim()).filter(Boolean) : Object.keys(TARGETS);
  for (const t of targets) {
    if (!TARGETS[t]) {
      console.error(`fuzz: unknown target ${t} (targets: ${Object.keys(TARGETS).join(', ')})`);
      process.exit(64);
    }
  }
  const logs = join(root, 'fuzz', 'target', 'logs');
  mkdirSync(logs, { recursive: true });
  // One build per kind of build first (every target of it, or the one target), so
  // each timed run fuzzes for its whole time.
  for (const compares of [true, false]) {
    const group = targets.filter((t) => tracesCompares(t) === compares);
    if (group.length === 0) continue;
    const args = [...cargoFuzz('build', compares), ...(group.length === 1 ? [group[0]] : [])];
    console.log(`fuzz: building ${group.length === 1 ? group[0] : `${group.length} targets`} (cargo ${args.join(' ')}) in ${join(root, 'fuzz')}`);
    const build = spawnSync('cargo', args, { cwd: join(root, 'fuzz'), env: cargoEnv, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('fuzz: the build failed');
      process.exit(1);
    }
  }
  const results = [];
  for (const t of targets) {
    process.stdout.write(`fuzz: ${t} for ${seconds} s ... `);
    const r = await runOne(root, t, seconds, join(logs, `${t}.log`));
    console.log(`${fmt(r.execs)} executions, ${fmt(r.execPerSec)}/s${r.kind ? `, ${r.kind.toUpperCase()}${r.artifact ? ` ${r.artifact}` : ''}` : ''}`);
    results.push(r);
  }
  const md = table(results);
  const summary = resolve(arg('--summary', join(root, 'fuzz', 'target', 'fuzz-summary.md')));
  mkdirSync(dirname(summary), { recursive: true });
  writeFileSync(summary, `${md}\n`);
  console.log(`\n${md}\n\nfuzz: summary in ${summary}; logs in ${logs}`);
  if (flag('--record')) record(results);
  if (flag('--json')) console.log(JSON.stringify(results));
  const bad = results.filter((r) => r.kind);
  if (bad.length) {
    console.error(`fuzz: ${bad.length} target(s) failed: ${bad.map((r) => `${r.target} (${r.kind})`).join(', ')}; reproduce with cargo ${cargoFuzz('run').join(' ')} <target> <artifact> (in fuzz/)`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}` || fileURLToPath(import.meta.url) === resolve(process.argv[1] ?? '')) {
  await main();
}
