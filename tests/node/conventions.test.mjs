// The conventions a JS developer expects (issue 17): errors are instances of the
// exported DocragError class; every long call rejects with the platform's AbortError
// (its cause the DocragError 'aborted') when its signal fires, before or during the
// work; long calls report progress; an input without text is refused alike by
// convert and addFile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { corpus, docrag, root } from './helpers.mjs';
import { startStub } from './stub-server.mjs';

const { Collection, DocragError, WorkerCollection, convert, init, isAbortError, isDocragError } = docrag;

let stub;
before(async () => {
  stub = await startStub({ dim: 8 });
});
after(() => stub.close());

const provider = () => ({ kind: 'openai', baseUrl: `${stub.url}/v1`, embeddingModel: 'text-embedding-3-small', chatModel: 'gpt-4o-mini', retryBaseDelayMs: 1 });

/** An assertion callback: `err` is the AbortError of an aborted docrag call. */
const aborted = (err) => {
  assert.ok(err instanceof DOMException, `${err?.name}: ${err?.message}`);
  assert.equal(err.name, 'AbortError');
  assert.ok(err.cause instanceof DocragError);
  assert.equal(err.cause.code, 'aborted');
  assert.ok(isAbortError(err));
  assert.ok(!isDocragError(err));
  return true;
};

test('errors made in wasm and in JS are DocragError instances with code, cause and location', async () => {
  let wasmErr;
  try {
    convert(new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 0, 0]));
  } catch (e) {
    wasmErr = e;
  }
  assert.ok(wasmErr instanceof DocragError);
  assert.equal(Object.getPrototypeOf(wasmErr), DocragError.prototype, 'a real instance, not only by shape');
  assert.equal(wasmErr.name, 'DocragError');
  assert.equal(typeof wasmErr.code, 'string');
  // A malformed main part names where: the part and the byte offset.
  const broken = readFileSync(corpus('pandoc__comments.docx'));
  let optionErr;
  try {
    convert(broken, { maxTokens: 'many' });
  } catch (e) {
    optionErr = e;
  }
  assert.ok(optionErr instanceof DocragError);
  assert.equal(optionErr.code, 'invalid-option');
  assert.equal(optionErr.option, 'maxTokens');
  const jsErr = await WorkerCollection.open('w').catch((e) => e);
  assert.ok(jsErr instanceof DocragError);
  assert.equal(jsErr.code, 'storage-unavailable');
  // Constructed by a caller (e.g. a provider function) it carries cause and location.
  const own = new DocragError('invalid-input', 'bad', { cause: jsErr, part: 'word/document.xml', position: 7 });
  assert.equal(own.cause, jsErr);
  assert.deepEqual([own.part, own.position], ['word/document.xml', 7]);
  // A DocragError of another copy of the package is recognised by its shape.
  assert.ok(Object.assign(new Error('x'), { name: 'DocragError', code: 'internal' }) instanceof DocragError);
  assert.ok(!(new Error('x') instanceof DocragError));
});

test('malformed XML says which part and where', () => {
  // tests/data/fidelity/malformed-main-part.docx (scripts/gen-fidelity-fixtures.py): a
  // w:p left open at the end of w:body.
  const bytes = readFileSync(join(root, 'tests', 'data', 'fidelity', 'malformed-main-part.docx'));
  let err;
  try {
    convert(bytes, { fileName: 'broken.docx' });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof DocragError, String(err));
  assert.equal(err.code, 'malformed-xml');
  assert.equal(err.part, 'word/document.xml');
  assert.ok(Number.isInteger(err.position) && err.position > 0, `position ${err.position}`);
  assert.match(err.message, new RegExp(`at byte ${err.position}:`));
});

test('no text: convert and addFile refuse it alike', async () => {
  const c = await Collection.open('empty-alike', { storage: 'memory' });
  for (const input of ['   \n\t ', '# \n\n']) {
    let fromConvert;
    try {
      convert(input, { fileName: 'blank.md' });
    } catch (e) {
      fromConvert = e;
    }
    const fromAdd = await c.addFile(input, { fileName: 'blank.md' }).catch((e) => e);
    assert.ok(fromConvert instanceof DocragError);
    assert.equal(fromConvert.code, 'empty-document');
    assert.equal(fromAdd.code, 'empty-document');
    assert.equal(fromAdd.message, fromConvert.message);
    assert.equal(fromConvert.message, 'blank.md has no text to index (0 chunks)');
  }
  assert.deepEqual(c.documents(), []);
  // Zero bytes are empty input, in both.
  assert.throws(() => convert(''), (e) => e.code === 'empty-input');
  await assert.rejects(c.addFile(new Uint8Array()), (e) => e.code === 'empty-input');
});

test('convert reports parse and chunk progress by part, and stops mid-parse on abort', () => {
  const bytes = readFileSync(corpus('poi__bug65649.docx'));
  const seen = [];
  const r = convert(bytes, { fileName: 'bug65649.docx', onProgress: (p) => seen.push(p) });
  const parts = new Set(seen.filter((p) => p.stage === 'parse').map((p) => p.part));
  assert.ok(parts.has('word/document.xml') && parts.has('word/styles.xml'), [...parts].join(', '));
  const body = seen.filter((p) => p.part === 'word/document.xml');
  assert.ok(body.length >= 3, `${body.length} reports while reading the body`);
  assert.ok(body.every((p, i) => i === 0 || p.done >= body[i - 1].done), 'done only grows');
  const chunking = seen.filter((p) => p.stage === 'chunk');
  assert.ok(chunking.length >= 3);
  assert.deepEqual([chunking.at(-1).done, chunking.at(-1).total], [chunking.at(-1).total, chunking.at(-1).total]);
  assert.ok(seen.findIndex((p) => p.stage === 'chunk') > seen.findLastIndex((p) => p.stage === 'parse'), 'parse, then chunk');
  assert.ok(r.chunks.length > 100);
  // An abort from the progress callback stops the reading of the body half-way.
  const ac = new AbortController();
  let after = 0;
  assert.throws(
    () =>
      convert(bytes, {
        signal: ac.signal,
        onProgress: (p) => {
          if (ac.signal.aborted) after += 1;
          if (p.part === 'word/document.xml' && p.done > p.total / 2) ac.abort();
        },
      }),
    aborted,
  );
  assert.equal(after, 0, 'no report after the abort');
  assert.throws(() => convert(bytes, { signal: AbortSignal.abort() }), aborted);
  assert.throws(() => convert(bytes, { signal: 'now' }), (e) => e.code === 'invalid-option' && e.option === 'signal');
});

test('every long call rejects with an AbortError: init, open, addFile (mid-parse), ask, summarize, embedMissing', async () => {
  await assert.rejects(init({ signal: AbortSignal.abort() }), aborted);
  const phases = [];
  await init({ onProgress: (p) => phases.push(p.stage) });
  assert.deepEqual(phases, ['done']);
  await assert.rejects(Collection.open('abort-open', { storage: 'memory', signal: AbortSignal.abort() }), aborted);
  // Mid-open: aborted from its own progress, after the records are loaded.
  const ac = new AbortController();
  await assert.rejects(
    Collection.open('abort-open', { storage: 'memory', signal: ac.signal, onProgress: (p) => p.stage === 'load' && p.done === 1 && ac.abort() }),
    aborted,
  );
  const opened = [];
  const c = await Collection.open('abort-calls', { storage: 'memory', provider: provider(), onProgress: (p) => opened.push(`${p.stage} ${p.done}/${p.total}`) });
  assert.deepEqual(opened, ['open 0/1', 'open 1/1', 'load 0/1', 'load 1/1', 'index 0/1', 'index 1/1', 'done 1/1']);
  const bytes = readFileSync(corpus('poi__bug65649.docx'));
  const mid = new AbortController();
  const stages = [];
  await assert.rejects(
    c.addFile(bytes, {
      fileName: 'bug65649.docx',
      signal: mid.signal,
      onProgress: (p) => {
        stages.push(p.stage);
        if (p.stage === 'parse' && p.part === 'word/document.xml') mid.abort();
      },
    }),
    aborted,
  );
  assert.deepEqual([...new Set(stages)], ['read', 'parse'], 'stopped while parsing');
  assert.deepEqual(c.documents(), [], 'nothing stored');
  await c.addFile(readFileSync(corpus('pandoc__comments.docx')), { fileName: 'comments.docx' });
  await assert.rejects(c.ask('Who commented?', { signal: AbortSignal.abort() }), aborted);
  await assert.rejects(c.summarize(null, { signal: AbortSignal.abort() }), aborted);
  await assert.rejects(c.embedMissing({ signal: AbortSignal.abort() }), aborted);
  c.close();
});
