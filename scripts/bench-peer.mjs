// The conversion peer of `make bench` (issue 15: docrag's wasm against @kreuzberg/wasm
// in the same run). The peer is installed on first use into target/peers/ at a pinned
// version, never into the project's own dependencies: it is 24 MB of wasm that only the
// benchmark reads.
//
// @kreuzberg/wasm 4.5.2 loads its module with `fetch(new URL(..., import.meta.url))`,
// which Node's fetch refuses for file: URLs; `loadKreuzberg` answers those fetches from
// the disk for the duration of its initialisation.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const KREUZBERG = '@kreuzberg/wasm';
export const KREUZBERG_VERSION = '4.5.2';

const MIME = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  rtf: 'application/rtf',
  md: 'text/markdown',
  txt: 'text/plain',
};

/**
 * Installs `name`@`version` (once) into target/peers/ and returns `{ dir }` (the
 * package's folder), or `{ error }` when it cannot be installed (no network, registry
 * down). `entry`: a file of the package that proves it installed.
 */
export function installPeer(root, name, version, entry) {
  const peers = join(root, 'target', 'peers');
  const dir = join(peers, 'node_modules', ...name.split('/'));
  if (!existsSync(join(dir, entry))) {
    mkdirSync(peers, { recursive: true });
    const manifest = join(peers, 'package.json');
    const deps = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {}) : {};
    deps[name] = version;
    writeFileSync(manifest, JSON.stringify({ private: true, dependencies: deps }, null, 2));
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', peers], { encoding: 'utf8' });
    if (r.status !== 0 || !existsSync(join(dir, entry))) {
      return { error: `npm install ${name}@${version} failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}` };
    }
  }
  return { dir };
}

/** Installs @kreuzberg/wasm (once) into target/peers/ (see `installPeer`). */
export function installKreuzberg(root) {
  return installPeer(root, KREUZBERG, KREUZBERG_VERSION, join('dist', 'index.js'));
}

/**
 * Installs (once) and initialises @kreuzberg/wasm. Returns
 * `{ version, extract(bytes, format) -> Promise<text> }`, or `{ error }` when it cannot
 * be installed or loaded (no network, registry down): the caller prints the reason.
 */
export async function loadKreuzberg(root) {
  const installed = installKreuzberg(root);
  if (installed.error) return installed;
  const entry = join(installed.dir, 'dist', 'index.js');
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    const s = String(url);
    if (!s.startsWith('file:')) return realFetch(url, init);
    return new Response(readFileSync(fileURLToPath(s)), { headers: { 'Content-Type': 'application/wasm' } });
  };
  try {
    const k = await import(pathToFileURL(entry).href);
    await k.initWasm();
    return {
      version: KREUZBERG_VERSION,
      extract: async (bytes, format) => (await k.extractBytes(bytes, MIME[format])).content,
    };
  } catch (e) {
    return { error: `${KREUZBERG} did not load: ${e.message}` };
  } finally {
    globalThis.fetch = realFetch;
  }
}
