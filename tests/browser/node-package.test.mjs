// The package in Node 20, imported by its name: a consumer project whose
// node_modules/docrag links to pkg/ (what `npm install ../pkg` makes), a child `node`
// that resolves 'docrag' through exports (the "node" condition) and converts the
// same corpus file the browser tests convert, then adds it to an in-memory Collection
// and asks the browser tests' question.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { assertCollectionReport, assertSameConversion, FILE, QUESTION } from './expected.mjs';
import { corpusDir, pkgDir } from './harness.mjs';

const work = mkdtempSync(join(tmpdir(), 'docrag-node-consumer-'));
after(() => rmSync(work, { recursive: true, force: true }));

test("Node 20: import 'docrag' by name resolves node.js through exports and converts like the browsers", async () => {
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(pkgDir, join(work, 'node_modules', 'docrag'), 'dir');
  writeFileSync(
    join(work, 'use.mjs'),
    `import { readFileSync } from 'node:fs';
     import * as docrag from 'docrag';
     await docrag.init(); // a no-op in Node, kept so browser code runs unchanged
     const bytes = readFileSync(${JSON.stringify(join(corpusDir, FILE))});
     const conversion = docrag.convert(bytes);
     // The same collection steps as fixtures/scenario.js, in memory (Node has no IndexedDB).
     const c = await docrag.Collection.open('node');
     const progress = [];
     const added = await c.addFile(new Uint8Array(bytes), { fileName: ${JSON.stringify(FILE)}, onProgress: (p) => progress.push(p.stage) });
     const documents = c.documents();
     const collection = {
       storage: c.storage, added, progress, documents,
       chunks: documents.map((d) => c.chunks(d.docId)),
       stats: c.stats(),
       answer: await c.ask(${JSON.stringify(QUESTION)}),
     };
     console.log(JSON.stringify({
       collection,
       node: process.versions.node,
       resolved: import.meta.resolve('docrag'),
       hasIndexedDB: typeof indexedDB !== 'undefined',
       conversion,
     }));`,
  );
  const out = JSON.parse(
    execFileSync(process.execPath, ['use.mjs'], { cwd: work, encoding: 'utf8', maxBuffer: 1 << 26 }),
  );
  assert.ok(Number(out.node.split('.')[0]) >= 20, `Node ${out.node}`);
  assert.match(out.resolved, /\/node\.js$/, `the "node" condition wins: ${out.resolved}`);
  assert.equal(out.hasIndexedDB, false, 'Node has no IndexedDB (the package documents an in-memory store there)');
  await assertSameConversion(out.conversion, {}, 'Node by package name');
  await assertCollectionReport(out.collection, { storage: 'memory', reopened: false, where: 'Node Collection' });
});
