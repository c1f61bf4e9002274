#!/usr/bin/env node
// Builds the npm package into pkg/:
//   1. cargo build --profile wasm --target wasm32-unknown-unknown --lib (Cargo.toml's
//      [profile.wasm]: fat LTO, one codegen unit, opt-level 2) with LLVM's inliner
//      limited to what costs no size (WASM_LLVM_ARGS below)
//   2. wasm-bindgen --target web --remove-name-section (the CLI at the exact version
//      Cargo.lock pins; installed with cargo install when the one on PATH differs).
//      No wasm-opt pass: binaryen 132's -Os/-Oz shrink the raw module but not its gzip
//      size (measured: +3% gzip with -Oz), and the gzip size is what users download.
//   3. the generated glue (docrag.js) minified with esbuild, and the module's imports
//      renamed short in both (scripts/short-imports.mjs)
//   4. the hand-written entries from src/wasm/js/ (comments and layout minified away), constants.js (system message and
//      version, read from the freshly built module), README.md
//   5. pkg/package.json = pkg.json + the version from Cargo.toml, then a manifest lint
//      (every exported and listed file exists, types first, no install scripts).
// Usage: node scripts/build-pkg.mjs [--skip-cargo]
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

import { shortenImports } from './short-imports.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'pkg');
const jsDir = join(root, 'src', 'wasm', 'js');
const skipCargo = process.argv.includes('--skip-cargo');

function run(cmd, args, opts = {}) {
  console.error(`+ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
}

function tryOutput(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** The version of `name` that Cargo.lock pins. */
export function lockedVersion(name) {
  const lock = readFileSync(join(root, 'Cargo.lock'), 'utf8');
  const m = lock.match(new RegExp(`\\[\\[package\\]\\]\\nname = "${name}"\\nversion = "([^"]+)"`));
  if (!m) throw new Error(`Cargo.lock has no package ${name}`);
  return m[1];
}

function cargoVersion() {
  const toml = readFileSync(join(root, 'Cargo.toml'), 'utf8');
  const pkg = toml.split(/^\[/m).find((s) => s.startsWith('package]'));
  const m = pkg && pkg.match(/^version\s*=\s*"([^"]+)"/m);
  if (!m) throw new Error('Cargo.toml [package] has no version');
  return m[1];
}

/** Makes sure `wasm-bindgen --version` equals the Cargo.lock version. */
export function ensureWasmBindgen() {
  const want = lockedVersion('wasm-bindgen');
  const have = tryOutput('wasm-bindgen', ['--version']);
  if (have === `wasm-bindgen ${want}`) return;
  console.error(`wasm-bindgen CLI is ${have ?? 'missing'}; installing ${want} (the version in Cargo.lock)`);
  try {
    run('cargo', ['install', 'wasm-bindgen-cli', '--version', want, '--locked']);
  } catch {
    // The CLI's published lockfile can pin a dependency version the registry no
    // longer serves; resolving afresh still builds the same CLI version.
    console.error('cargo install --locked failed; retrying without --locked');
    run('cargo', ['install', 'wasm-bindgen-cli', '--version', want]);
  }
  const now = tryOutput('wasm-bindgen', ['--version']);
  if (now !== `wasm-bindgen ${want}`) {
    throw new Error(`wasm-bindgen on PATH is ${now}, expected ${want}: put ~/.cargo/bin first on PATH`);
  }
}

/**
 * LLVM options of the wasm build, added to .cargo/config.toml's flags for this build
 * only (the companion in companion/ keeps its own). opt-level 2 with the inliner at
 * threshold 0 (only what inlining makes no larger) and no loop unrolling or loop
 * vectorisation: DOCX conversion in wasm 11.7 -> 13.6 MB/s over the corpus for 5.7 KB
 * more gzip than opt-level "s" (the former build). Measured beside it, interleaved under
 * Node on scripts/bench.mjs's DOCX files: opt-level 2 or 3 with LLVM's default inlining
 * 15.6-16.3 MB/s for 114-165 KB more; opt-level 2 with the inliner at 25 or 75, 14.1-15.0
 * MB/s for 22-54 KB more; the same without the unrolling and vectorisation options 21 KB
 * more; "s" with the inliner at 0, 13 KB less and slower than "s".
 */
const WASM_LLVM_ARGS = ['-inline-threshold=0', '-unroll-threshold=0', '-vectorize-loops=false'];

function build() {
  ensureWasmBindgen();
  if (!skipCargo) {
    const flags = WASM_LLVM_ARGS.flatMap((a) => ['-C', `llvm-args=${a}`]);
    const config = `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(flags)}`;
    run('cargo', ['build', '--profile', 'wasm', '--target', 'wasm32-unknown-unknown', '--lib', '--config', config]);
  }
  const wasm = join(root, 'target', 'wasm32-unknown-unknown', 'wasm', 'docrag.wasm');
  rmSync(pkgDir, { recursive: true, force: true });
  mkdirSync(pkgDir);
  run('wasm-bindgen', [wasm, '--target', 'web', '--no-typescript', '--remove-name-section', '--out-dir', pkgDir, '--out-name', 'docrag']);

  const bg = join(pkgDir, 'docrag_bg.wasm');
  minifyGlue();
  shortNames(bg);

  for (const f of readdirSync(jsDir)) copyFileSync(join(jsDir, f), join(pkgDir, f));
  minifyEntries();
  writeFileSync(join(pkgDir, 'README.md'), packageReadme(readFileSync(join(root, 'README.md'), 'utf8')));
  return bg;
}

/**
 * Minifies the glue wasm-bindgen generated (esbuild, a devDependency; exports keep
 * their names): its JSDoc repeats index.d.ts and its layout is machine-made, so
 * nobody reads it, while 2 MB gzip is the whole package's budget (13.4 -> 8.0 KB gzip).
 */
function minifyGlue() {
  minify('docrag.js', { minify: true });
}

/**
 * The hand-written entries without comments and layout (esbuild's whitespace and
 * syntax minification; every identifier keeps its name, so stack traces still read):
 * their documentation is index.d.ts (11.7 -> 8.0 KB gzip for the five files).
 */
function minifyEntries() {
  for (const f of readdirSync(jsDir)) {
    if (f.endsWith('.js')) minify(f, { minifyWhitespace: true, minifySyntax: true });
  }
}

/** The imports of the module renamed short in it and in its glue (scripts/short-imports.mjs). */
function shortNames(bg) {
  const glueFile = join(pkgDir, 'docrag.js');
  const { wasm, glue, renamed } = shortenImports(readFileSync(bg), readFileSync(glueFile, 'utf8'), './docrag_bg.js');
  if (renamed === 0) throw new Error('short-imports: no import of the glue was found');
  writeFileSync(bg, wasm);
  writeFileSync(glueFile, glue);
}

function minify(name, how) {
  const file = join(pkgDir, name);
  const out = transformSync(readFileSync(file, 'utf8'), { ...how, format: 'esm', target: 'es2022', legalComments: 'none' });
  writeFileSync(file, out.code);
}

/**
 * The repository README without the sections about the Rust crate, the CLI (and its
 * PostgreSQL commands), the benchmark and development, and with the retrieval design
 * notes replaced by a pointer: what a user of the npm package reads (and 2 MB gzip is
 * the whole package's budget).
 */
function packageReadme(text) {
  const drop = new Set(['Rust', 'Command line', 'When the browser is not enough', 'Benchmark', 'Development']);
  // Sections kept as a pointer: the design notes of retrieval and answering are the
  // repository's (README.md), not the package's.
  const pointer = new Map([
    [
      'Enrichment, retrieval and questions',
      'Token budget, enrichment, routing and answers without a model: see this section of the repository README.md.\n',
    ],
  ]);
  const [intro, ...sections] = text.split(/\n(?=## )/);
  const title = (s) => s.slice(3, s.indexOf('\n')).trim();
  const kept = sections
    .filter((s) => !drop.has(title(s)))
    .map((s) => (pointer.has(title(s)) ? `## ${title(s)}\n\n${pointer.get(title(s))}` : s));
  const dropped = sections.length - kept.length;
  if (dropped !== drop.size) throw new Error(`README: expected to drop ${drop.size} sections, found ${dropped}`);
  const pointed = sections.filter((s) => pointer.has(title(s))).length;
  if (pointed !== pointer.size) throw new Error(`README: expected ${pointer.size} sections to point to, found ${pointed}`);
  return [intro, ...kept].join('\n');
}

/** constants.js: values read from the built module, so they cannot drift from Rust. */
async function writeConstants(bg) {
  const glue = await import(pathToFileURL(join(pkgDir, 'docrag.js')).href);
  glue.initSync({ module: readFileSync(bg) });
  const text =
    '// Generated by scripts/build-pkg.mjs from the wasm module; do not edit.\n' +
    `/** The system message that tells a language model how to read docrag's Markdown and cite it. */\n` +
    `export const SYSTEM_MESSAGE = ${JSON.stringify(glue.systemMessage())};\n` +
    `/** The package version. */\n` +
    `export const VERSION = ${JSON.stringify(glue.version())};\n` +
    `/** The system prompt of the routing call (index document + question -> NONE, ALL, INDEX or id:confidence list). */\n` +
    `export const ROUTING_PROMPT = ${JSON.stringify(glue.Enricher.routingPrompt())};\n` +
    `/** The system prompt for answering from the index document alone. */\n` +
    `export const INDEX_ANSWER_PROMPT = ${JSON.stringify(glue.Enricher.indexAnswerPrompt())};\n`;
  writeFileSync(join(pkgDir, 'constants.js'), text);
}

function writeManifest() {
  const manifest = JSON.parse(readFileSync(join(root, 'pkg.json'), 'utf8'));
  manifest.version = cargoVersion();
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  lintManifest(manifest);
}

/** A small publint: fails the build on a manifest that would break consumers. */
function lintManifest(m) {
  const problems = [];
  const exists = (p) => existsSync(join(pkgDir, p));
  if (m.type !== 'module') problems.push('type must be "module"');
  if (m.sideEffects !== false) problems.push('sideEffects must be false');
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) {
    if (m.scripts && m.scripts[hook]) problems.push(`install script "${hook}" is not allowed`);
  }
  const files = new Set(m.files || []);
  for (const f of files) if (!exists(f)) problems.push(`files lists missing ${f}`);
  for (const f of readdirSync(pkgDir)) {
    if (f !== 'package.json' && !files.has(f)) problems.push(`pkg/${f} is built but not in files`);
  }
  for (const [sub, target] of Object.entries(m.exports)) {
    const conditions = typeof target === 'string' ? { default: target } : target;
    const keys = Object.keys(conditions);
    if (typeof target !== 'string' && sub === '.' && keys[0] !== 'types') problems.push('exports["."]: "types" must come first');
    if (keys.includes('default') && keys[keys.length - 1] !== 'default') problems.push(`exports["${sub}"]: "default" must come last`);
    for (const p of Object.values(conditions)) {
      if (!p.startsWith('./')) problems.push(`exports["${sub}"] target ${p} must start with ./`);
      else if (!exists(p)) problems.push(`exports["${sub}"] points at missing ${p}`);
      else if (!files.has(p.slice(2)) && p !== './package.json') problems.push(`exports["${sub}"] target ${p} is not in files`);
    }
  }
  for (const f of ['web.js', 'worker.js', 'shared.js', 'docrag.js', 'constants.js']) {
    if (/from ['"]node:|require\(/.test(readFileSync(join(pkgDir, f), 'utf8'))) problems.push(`${f} (browser graph) uses a Node built-in`);
  }
  if (problems.length) {
    throw new Error('pkg/package.json lint failed:\n  ' + problems.join('\n  '));
  }
}

const bg = build();
await writeConstants(bg);
writeManifest();
console.error(`pkg/ ready: docrag_bg.wasm is ${(statSync(bg).size / 1e6).toFixed(2)} MB`);
