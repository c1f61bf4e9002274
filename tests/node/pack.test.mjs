// The package as users get it: npm pack, install the tarball into a throwaway
// project, import 'docrag' there.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { corpus, docrag, manifest, pkgDir } from './helpers.mjs';

const work = mkdtempSync(join(tmpdir(), 'docrag-pack-'));
after(() => rmSync(work, { recursive: true, force: true }));
const sh = (cmd, args) => execFileSync(cmd, args, { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack ships exactly the files whitelist, with no install scripts', () => {
  const [info] = JSON.parse(sh('npm', ['pack', '--json', '--pack-destination', work, pkgDir]));
  const shipped = info.files.map((f) => f.path).sort();
  assert.deepEqual(shipped, [...manifest.files, 'package.json'].sort());
  const scripts = manifest.scripts ?? {};
  for (const hook of ['preinstall', 'install', 'postinstall']) assert.equal(scripts[hook], undefined);
  writeFileSync(join(work, 'tarball.txt'), info.filename);
});

test("an installed tarball: import { convert } from 'docrag' works at once in Node", () => {
  const tarball = readFileSync(join(work, 'tarball.txt'), 'utf8');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --prefer-offline, not --offline: the tarball depends on pdfjs-dist, whose registry
  // metadata `npm ci` (which reads the lockfile) never puts in the cache.
  sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball)]);
  const file = corpus('pandoc__comments.docx');
  writeFileSync(
    join(work, 'use.mjs'),
    `import { convert, SYSTEM_MESSAGE } from 'docrag';
     import { readFileSync } from 'node:fs';
     const r = convert(readFileSync(${JSON.stringify(file)}), { maxTokens: 256 });
     console.log(JSON.stringify({ r, resolved: import.meta.resolve('docrag'), sm: SYSTEM_MESSAGE.length }));`,
  );
  const out = JSON.parse(sh(process.execPath, ['use.mjs']));
  assert.match(out.resolved, /node_modules\/docrag\/node\.js$/, 'the "node" condition wins');
  assert.deepEqual(out.r, docrag.convert(readFileSync(file), { maxTokens: 256 }));
  assert.ok(out.r.chunks.length > 0);
  assert.equal(out.sm, docrag.SYSTEM_MESSAGE.length);
});

test("CommonJS: require('docrag') works where engines says (Node >= 20.19 loads ES modules from require)", () => {
  assert.equal(manifest.engines.node, '>=20.19');
  const [major, minor] = process.versions.node.split('.').map(Number);
  assert.ok(major > 20 || (major === 20 && minor >= 19), `this Node (${process.versions.node}) is older than engines allows`);
  writeFileSync(
    join(work, 'use.cjs'),
    `const { convert, DocragError } = require('docrag');
     const r = convert('# Title\\n\\nSome text.', { fileName: 'a.md' });
     let err;
     try { convert('   '); } catch (e) { err = e; }
     console.log(JSON.stringify({ chunks: r.chunks.length, title: r.title, typed: err instanceof DocragError, code: err.code }));`,
  );
  const out = JSON.parse(sh(process.execPath, ['use.cjs']));
  assert.deepEqual(out, { chunks: 1, title: 'Title', typed: true, code: 'empty-document' });
});

test("the worker script and the .wasm are exported for bundlers and self-hosting: import.meta.resolve finds them", () => {
  writeFileSync(
    join(work, 'resolve.mjs'),
    `console.log(JSON.stringify(['docrag/worker.js', 'docrag/docrag_bg.wasm', 'docrag/adapters'].map((s) => import.meta.resolve(s))));`,
  );
  const [worker, wasm, adapters] = JSON.parse(sh(process.execPath, ['resolve.mjs']));
  assert.match(worker, /node_modules\/docrag\/worker\.js$/);
  assert.match(wasm, /node_modules\/docrag\/docrag_bg\.wasm$/);
  assert.match(adapters, /node_modules\/docrag\/adapters\.js$/);
});
