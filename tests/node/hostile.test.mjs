// Bad and hostile input found by a newcomer's trial: each is a DocragError with a
// meaningful code, never a trap, a TypeError, an uncaught exception or a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { docrag } from './helpers.mjs';

const { Collection, VectorIndex, convert } = docrag;
const code = (c, option) => (e) => {
  if (c === 'aborted') {
    assert.equal(e.name, 'AbortError', e.message);
    assert.equal(e.cause.code, 'aborted');
    return true;
  }
  assert.ok(e instanceof docrag.DocragError, `${e.name}: ${e.message}`);
  assert.equal(e.name, 'DocragError', `${e.name}: ${e.message}`);
  assert.equal(e.code, c, e.message);
  if (option !== undefined) assert.equal(e.option, option);
  assert.doesNotMatch(e.message, /JsValue\(/);
  return true;
};
const md = '# Notes\n\nThe budget is 12 euros.';

test('non-string names, ids and keys are invalid-input, not a wasm trap', async () => {
  await assert.rejects(Collection.open(123), code('invalid-input'));
  await assert.rejects(Collection.open(undefined), code('invalid-input'));
  const c = await Collection.open('h1', { storage: 'memory' });
  assert.throws(() => c.chunks(123), code('invalid-input'));
  assert.throws(() => c.chunks({ length: 1e9 }), code('invalid-input'));
  await assert.rejects(c.remove(undefined), code('invalid-input'));
  assert.throws(() => c.getSetting({}), code('invalid-input'));
  await assert.rejects(c.setSetting(5, 1), code('invalid-input'));
  // The instance still works.
  const info = await c.addFile(md, { fileName: 'n.md' });
  assert.equal(c.chunks(info.docId).length, 1);
});

test('a setting with no JSON form is refused, the promise settles', async () => {
  const c = await Collection.open('h2', { storage: 'memory' });
  await assert.rejects(c.setSetting('k', () => 1), code('invalid-option', 'value'));
  await assert.rejects(c.setSetting('k', Symbol('s')), code('invalid-option', 'value'));
  await assert.rejects(c.setSetting('k', { toJSON: () => undefined }), code('invalid-option', 'value'));
  assert.equal(c.getSetting('k'), undefined);
});

test('a function provider cannot be remembered', async () => {
  const c = await Collection.open('h3', { storage: 'memory' });
  const p = { embed: async (t) => t.map(() => new Float32Array([1, 2])), embeddingModel: 'm' };
  await assert.rejects(c.setProvider(p, { remember: true }), code('invalid-option', 'remember'));
  await c.setProvider(p);
  assert.equal(c.provider.embeddingModelId, 'function:m');
});

test('an abort ends a provider function that never settles', async () => {
  const c = await Collection.open('h4', { storage: 'memory', provider: { chat: () => new Promise(() => {}), embed: () => new Promise(() => {}), embeddingModel: 'm' } });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(c.addFile(md, { fileName: 'n.md', signal: ac.signal }), code('aborted'));
  assert.deepEqual(c.documents(), []);
  await c.setProvider({ chat: () => new Promise(() => {}) });
  await c.addFile(md, { fileName: 'n.md' });
  const ac2 = new AbortController();
  setTimeout(() => ac2.abort(), 50);
  await assert.rejects(c.ask('budget?', { signal: ac2.signal }), code('aborted'));
});

test('a zero vector from the provider is the provider\'s error, and nothing is stored', async () => {
  const c = await Collection.open('h5', { storage: 'memory', provider: { embed: async (t) => t.map(() => [0, 0]), embeddingModel: 'z' } });
  await assert.rejects(c.addFile(md, { fileName: 'n.md' }), code('zero-vector'));
  assert.deepEqual(c.documents(), []);
});

test('a document with no text is refused with empty-document', async () => {
  const c = await Collection.open('h6', { storage: 'memory' });
  await assert.rejects(c.addFile(new Uint8Array([0xef, 0xbb, 0xbf]), { fileName: 'bom.txt' }), (e) => {
    code('empty-document')(e);
    assert.match(e.message, /bom\.txt has no text/);
    return true;
  });
  assert.deepEqual(c.documents(), []);
});

test('an options object that throws when read is invalid-option, not an uncaught exception', async () => {
  const trap = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
  await assert.rejects(Collection.open('h7', trap), (e) => code('invalid-option')(e) && /trap/.test(e.message));
  const c = await Collection.open('h7', { storage: 'memory' });
  await assert.rejects(c.ask('q', trap), code('invalid-option'));
  assert.throws(() => convert('x', trap), code('invalid-option'));
});

test('option errors name the option once', async () => {
  const c = await Collection.open('h8', { storage: 'memory' });
  await assert.rejects(c.ask('q', { mode: 'magic' }), (e) => {
    code('invalid-option', 'mode')(e);
    assert.equal(e.message.match(/invalid option/g).length, 1, e.message);
    return true;
  });
  await assert.rejects(c.summarize(null), code('invalid-option', 'docIds'));
  await c.addFile(md, { fileName: 'n.md' });
  await assert.rejects(c.summarize(null, { contextWindow: 1 }), code('invalid-option', 'contextWindow'));
});

test('__proto__ is never a metadata field; a VectorIndex dimension must be sane', () => {
  assert.throws(() => convert(md, { fileName: 'n.md', labels: { docTitle: '__proto__' } }), code('invalid-option', 'labels.docTitle'));
  // A computed key makes an own `__proto__` field (a literal one would set the prototype).
  assert.throws(() => convert(md, { fileName: 'n.md', fields: { ['__proto__']: 'x' } }), code('invalid-option', 'fields.__proto__'));
  assert.throws(() => new VectorIndex(-1), code('invalid-dimension'));
  assert.throws(() => new VectorIndex(1e10), code('invalid-dimension'));
  assert.equal(new VectorIndex(8).dim, 8);
});
