// docrag/adapters (issue 17): chunks as LangChain.js documents and LlamaIndex.TS text
// nodes, accepted by the real classes (devDependencies: @langchain/core,
// @llamaindex/core), from a conversion result and from a collection's chunks alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Document } from '@langchain/core/documents';
import { MetadataMode, NodeRelationship, TextNode } from '@llamaindex/core/schema';

import { corpus, docrag, manifest, pkgDir } from './helpers.mjs';

const adapters = await import(pathToFileURL(join(pkgDir, manifest.exports['./adapters'].default)).href);
const bytes = readFileSync(corpus('pandoc__comments.docx'));
const result = docrag.convert(bytes, { fileName: 'comments.docx', maxTokens: 128 });

test('LangChain: one Document per chunk, text and flat metadata as docrag made them', () => {
  const docs = adapters.toLangChainDocuments(result).map((d) => new Document(d));
  assert.equal(docs.length, result.chunks.length);
  assert.ok(docs.length >= 2);
  docs.forEach((d, i) => {
    assert.ok(d instanceof Document);
    assert.equal(d.pageContent, result.chunks[i]);
    assert.deepEqual(d.metadata, result.metadata[i]);
    assert.equal(d.id, `${result.docId}:${i}`);
  });
  assert.match(docs[0].pageContent, /^\[Document: /);
});

test('LlamaIndex: TextNodes linked to their document and neighbours, metadata kept out of the text', () => {
  const nodes = adapters.toLlamaIndexNodes(result).map((f) => new TextNode(f));
  assert.equal(nodes.length, result.chunks.length);
  const [first, second] = nodes;
  assert.equal(first.id_, `${result.docId}:0`);
  assert.equal(first.getContent(MetadataMode.LLM), result.chunks[0]);
  assert.equal(first.getContent(MetadataMode.EMBED), result.chunks[0]);
  assert.equal(first.metadata.ssDocId, result.docId);
  assert.equal(first.sourceNode.nodeId, result.docId);
  assert.equal(first.prevNode, undefined);
  assert.equal(first.nextNode.nodeId, second.id_);
  assert.equal(second.prevNode.nodeId, first.id_);
  assert.equal(first.relationships[NodeRelationship.SOURCE].nodeId, result.docId);
  assert.equal(nodes.at(-1).nextNode, undefined);
});

test('the adapters read a collection\'s stored chunks the same way, and refuse anything else', async () => {
  const c = await docrag.Collection.open('adapters', { storage: 'memory' });
  const info = await c.addFile(bytes, { fileName: 'comments.docx', convert: { maxTokens: 128 } });
  const stored = c.chunks(info.docId);
  assert.deepEqual(adapters.toLangChainDocuments(stored), adapters.toLangChainDocuments(result));
  assert.deepEqual(adapters.toLlamaIndexNodes(stored), adapters.toLlamaIndexNodes(result));
  assert.throws(() => adapters.toLangChainDocuments({ chunks: 'no' }), TypeError);
  assert.throws(() => adapters.toLlamaIndexNodes([{ text: 1 }]), /chunk 0/);
  c.close();
});
