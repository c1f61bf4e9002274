// Adapters from docrag's chunks to the document shapes of LangChain.js and
// LlamaIndex.TS, with no dependency on either: plain objects their constructors
// accept (`new Document(x)` from @langchain/core/documents, `new TextNode(x)` from
// @llamaindex/core/schema or llamaindex). Import from 'docrag/adapters'.

/**
 * The chunks of `source` as `{docId, seq, text, metadata}`: `source` is what
 * `convert` returns (`{docId, chunks, metadata}`), or chunk records as
 * `Collection.chunks(docId)` returns them (`[{text, metadata}]`).
 */
function records(source) {
  if (Array.isArray(source)) {
    return source.map((c, i) => {
      if (!c || typeof c.text !== 'string' || typeof c.metadata !== 'object') {
        throw new TypeError(`chunk ${i}: expected {text, metadata} as Collection.chunks() returns`);
      }
      return { docId: String(c.metadata.ssDocId ?? ''), seq: Number(c.metadata.ssSeq ?? i), text: c.text, metadata: c.metadata };
    });
  }
  if (source && Array.isArray(source.chunks) && Array.isArray(source.metadata)) {
    return source.chunks.map((text, i) => {
      const metadata = source.metadata[i] ?? {};
      return { docId: String(metadata.ssDocId ?? source.docId ?? ''), seq: Number(metadata.ssSeq ?? i), text, metadata };
    });
  }
  throw new TypeError('expected the result of convert() ({docId, chunks, metadata}) or an array of {text, metadata} chunks');
}

/** A chunk's id: the document id and its sequence number, `sha256-…:3`. */
const chunkId = (r) => `${r.docId}:${r.seq}`;

/**
 * LangChain documents: `{pageContent, metadata, id}` per chunk, `pageContent` the
 * chunk text (its first line the citation context), `metadata` docrag's flat record
 * (copied), `id` `docId:seq`.
 */
export function toLangChainDocuments(source) {
  return records(source).map((r) => ({ pageContent: r.text, metadata: { ...r.metadata }, id: chunkId(r) }));
}

/**
 * LlamaIndex text nodes: `{id_, text, metadata, relationships, excludedEmbedMetadataKeys,
 * excludedLlmMetadataKeys}` per chunk. The relationships name the source document
 * (`SOURCE`) and the neighbouring chunks (`PREVIOUS`, `NEXT`); every metadata key is
 * excluded from the embedded and the LLM text, since the chunk text already starts
 * with its context line.
 */
export function toLlamaIndexNodes(source) {
  const all = records(source);
  return all.map((r, i) => {
    const keys = Object.keys(r.metadata);
    const relationships = { SOURCE: { nodeId: r.docId, metadata: {} } };
    const prev = all[i - 1];
    const next = all[i + 1];
    if (prev && prev.docId === r.docId) relationships.PREVIOUS = { nodeId: chunkId(prev), metadata: {} };
    if (next && next.docId === r.docId) relationships.NEXT = { nodeId: chunkId(next), metadata: {} };
    return {
      id_: chunkId(r),
      text: r.text,
      metadata: { ...r.metadata },
      relationships,
      excludedEmbedMetadataKeys: keys,
      excludedLlmMetadataKeys: keys,
    };
  });
}
