// Shared by the node tests: paths, the built package, and the native CLI.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const corpusDir = join(root, '..', 'shared', 'corpus');
// DOCRAG_PKG: another build of the package (e.g. one of an older commit, to show a
// regression test failing there); default pkg/.
export const pkgDir = process.env.DOCRAG_PKG ?? join(root, 'pkg');
export const cliPath = join(root, 'target', 'release', 'docrag');

export const corpus = (name) => join(corpusDir, name);

if (!existsSync(join(pkgDir, 'package.json'))) {
  throw new Error('pkg/ is not built: run `node scripts/build-pkg.mjs` (or `make pkg`) first');
}
if (!existsSync(cliPath)) {
  throw new Error('target/release/docrag is missing: run `cargo build --release` first');
}

/** The package's own manifest. */
export const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

/** The package as Node resolves it: the "node" condition of exports["."]. */
export const docrag = await import(pathToFileURL(join(pkgDir, manifest.exports['.'].node)).href);

/** `sha256-` + 16 hex digits of the SHA-256 of `bytes`, computed independently. */
export function contentId(bytes) {
  return 'sha256-' + createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/**
 * Runs `docrag convert FILE --format jsonl` with extra args. Returns
 * `{ status, records, code, stderr }`: records parsed from stdout on success, the
 * error code from `docrag: error [<code>]` on failure.
 */
export function cliConvert(file, args = []) {
  const p = spawnSync(cliPath, ['convert', file, '--format', 'jsonl', ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const records = p.status === 0 ? p.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const m = /^docrag: error \[([a-z-]+)\]: /m.exec(p.stderr);
  return { status: p.status, records, code: m ? m[1] : null, stderr: p.stderr };
}

/** Rows of the corpus MANIFEST.tsv as objects. */
export function manifestRows() {
  const [head, ...lines] = readFileSync(corpus('MANIFEST.tsv'), 'utf8').split('\n').filter(Boolean);
  const cols = head.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i], v])));
}

/** Every DOCX in the corpus that the manifest does not mark broken. */
export function goodDocxFiles() {
  return manifestRows()
    .filter((r) => r.format === 'docx' && !r.features.split(',').includes('broken'))
    .map((r) => r.file);
}

/** Calls `fn` and returns what it threw (fails when it does not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an exception');
}
