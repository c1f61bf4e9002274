// Types of 'docrag/adapters' (adapters.js): docrag chunks as LangChain.js documents
// and LlamaIndex.TS text nodes, with no dependency on either library.
import type { ChunkMetadata, ConversionResult, StoredChunk } from './index.js';

/** What the adapters read: `convert()`'s result, or `Collection.chunks(docId)`. */
export type ChunkSource = ConversionResult<any> | StoredChunk[];

/** A LangChain `DocumentInterface`: accepted by `new Document(x)` from `@langchain/core/documents`. */
export interface LangChainDocument {
  pageContent: string;
  metadata: ChunkMetadata;
  /** `docId:seq`. */
  id: string;
}

/** Fields of a LlamaIndex `TextNode`: accepted by `new TextNode(x)` from `@llamaindex/core/schema` or `llamaindex`. */
export interface LlamaIndexNodeFields {
  /** `docId:seq`. */
  id_: string;
  text: string;
  metadata: ChunkMetadata;
  /** The source document, and the neighbouring chunks of the same document. */
  relationships: {
    SOURCE: { nodeId: string; metadata: Record<string, never> };
    PREVIOUS?: { nodeId: string; metadata: Record<string, never> };
    NEXT?: { nodeId: string; metadata: Record<string, never> };
  };
  /** Every metadata key: the chunk text already starts with its context line. */
  excludedEmbedMetadataKeys: string[];
  excludedLlmMetadataKeys: string[];
}

/**
 * One LangChain document per chunk: `pageContent` the chunk text, `metadata` docrag's
 * flat record, `id` `docId:seq`.
 * @throws {TypeError} when `source` is neither a conversion result nor chunk records.
 */
export function toLangChainDocuments(source: ChunkSource): LangChainDocument[];

/**
 * One LlamaIndex text node's fields per chunk, linked to its document and neighbours.
 * @throws {TypeError} when `source` is neither a conversion result nor chunk records.
 */
export function toLlamaIndexNodes(source: ChunkSource): LlamaIndexNodeFields[];
