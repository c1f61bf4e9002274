// Type-checked against the packed package by scripts/check-types.mjs under
// moduleResolution bundler and node16, strict, skipLibCheck false. Each line marked
// ts-expect-error is a mistake the types must reject (tsc fails if they accept it).
import {
  Bm25Index,
  Collection,
  Provider,
  convert,
  Enricher,
  Expansion,
  INDEX_ANSWER_PROMPT,
  init,
  isDocragError,
  ROUTING_PROMPT,
  SYSTEM_MESSAGE,
  systemMessage,
  VectorIndex,
  version,
  type AskResult,
  type ChunkMetadata,
  type CollectionSearchHit,
  type DocumentInfo,
  type ExportedChunk,
  type ProviderOptions,
  type ConversionResult,
  type ConvertOptions,
  type DocragErrorCode,
  type IndexEntry,
  type Names,
  type RelatedOptions,
  type SearchHit,
} from 'docrag';

await init();
await init(new URL('https://example.invalid/docrag_bg.wasm'));

const bytes = new Uint8Array([0x50, 0x4b]);
const withFields = convert(bytes, {
  maxTokens: 512,
  firstPage: 1,
  lastPage: -1,
  fileName: 'report.docx',
  fields: { project: 'apollo', year: 2024 },
  limits: { maxInputBytes: 1 << 20, maxDepth: 64 },
});
const project: string = withFields.metadata[0].project;
const year: number = withFields.metadata[0].year;
const seq: number = withFields.metadata[0].ssSeq;
const docId: string = withFields.metadata[0].ssDocId;
const first: number | undefined = withFields.metadata[0].firstPage;
const flag: 'yes' | 'no' | undefined = withFields.metadata[0].hasRevisions;
const chunks: string[] = withFields.chunks;
const warningCodes: string[] = withFields.warnings.map((w) => w.code);

const plain: ConversionResult = convert(new ArrayBuffer(8));
const anyField: string | number | undefined = plain.metadata[0].whatever;
// @ts-expect-error without `fields`, an unknown field may be absent or a number
const notAString: string = plain.metadata[0].project;

const finder = (text: string): Names => ({ persons: [text.slice(0, 3)], terms: [] });
convert('plain text', { names: finder, places: ['Paris'], terms: ['wasm'] });
convert('plain text', { names: () => undefined });

const options: ConvertOptions<{ team: string }> = { fields: { team: 'search' } };
const typed: ConversionResult<{ team: string }> = convert('text', options);
const team: string = typed.metadata[0].team;
const record: ChunkMetadata = typed.metadata[0];

// @ts-expect-error unknown option key (a typo of maxTokens)
convert('text', { maxToken: 512 });
// @ts-expect-error maxTokens is a number
convert('text', { maxTokens: '512' });
// @ts-expect-error a number is not an input
convert(42);
// @ts-expect-error the names callback returns names, not a number
convert('text', { names: (text: string) => 42 });
// @ts-expect-error user fields are strings or numbers
convert('text', { fields: { nested: { a: 1 } } });
// @ts-expect-error limits are numbers
convert('text', { limits: { maxDepth: 'deep' } });

try {
  convert(bytes);
} catch (e) {
  if (isDocragError(e)) {
    const code: DocragErrorCode = e.code;
    const option: string | undefined = e.option;
    const message: string = e.message;
    // @ts-expect-error codes are a closed union
    const wrong: DocragErrorCode = 'no-such-code';
    void [code, option, message, wrong];
  }
}

const text: string = SYSTEM_MESSAGE + systemMessage() + version();
void [project, year, seq, docId, first, flag, chunks, warningCodes, anyField, notAString, team, record, text];

const vectors = new VectorIndex(3);
vectors.add('doc', 0, new Float32Array([1, 0, 0]));
vectors.add('doc', 1, [0, 1, 0]);
const vectorHits: SearchHit[] = vectors.search(new Float32Array([1, 1, 0]), 5, ['doc']);
const hitDoc: string = vectorHits[0].docId;
const hitSeq: number = vectorHits[0].seq;
const restored: VectorIndex = VectorIndex.fromBytes(vectors.toBytes());
const simd: boolean = VectorIndex.simd();
const dim: number = restored.dim + restored.size;
const lexical = new Bm25Index();
lexical.add('doc', 0, 'some text');
const lexicalHits: SearchHit[] = lexical.search('text', 3);
const lexicalCopy: Bm25Index = Bm25Index.fromBytes(lexical.toBytes());
// @ts-expect-error a vector query is numbers, not text
vectors.search('text', 3);
// @ts-expect-error docIds are strings
lexical.search('text', 3, [1, 2]);
vectors.free();
void [hitDoc, hitSeq, simd, dim, lexicalHits, lexicalCopy];

const enricher = new Enricher(withFields.metadata);
const renamed = new Enricher(plain.metadata, { tokenCount: 'tokens' });
const expansion: Expansion = enricher.expand([0, 3]);
const related: RelatedOptions = { budget: 500, allTables: true };
const added: number = expansion.addRelatedChunks(related) + expansion.addRelatedChunks();
const paged: number = expansion.addPageChunks(true, 1, Infinity) + expansion.addSectionPages(2, 300);
const byAuthor: number = expansion.addRevisionChunks(200, 'Ann') + expansion.addCommentChunks(200);
expansion.anchorExpanded();
const seqs: number[] = expansion.expanded();
const enrichment: number = expansion.enrichmentTokens() + expansion.tokenCount() + expansion.retrievedTokens();
const authors: string[] = enricher.revisionAuthors().concat(enricher.commentAuthors());
const sectionSizes: number[] = enricher.sectionPages().concat(enricher.sectionChunks(), enricher.sectionIndexes());
const entry: IndexEntry = enricher.indexDocument(5);
const prompts: string = ROUTING_PROMPT + INDEX_ANSWER_PROMPT + Enricher.routingPrompt() + Enricher.indexAnswerPrompt();
const facts: boolean = enricher.hasTables() || enricher.hasRevisions() || enricher.hasComments();
const counts: number = enricher.chunkCount + enricher.tokenCount() + enricher.chunkTokenCount(0);
// @ts-expect-error anchors are numbers
enricher.expand(['3']);
// @ts-expect-error an Expansion comes from Enricher.expand, not a constructor
new Expansion();
// @ts-expect-error allTables is a boolean
expansion.addRelatedChunks({ allTables: 'yes' });
void [renamed, added, paged, byAuthor, seqs, enrichment, authors, sectionSizes, entry.parts, entry.text, entry.tokens, prompts, facts, counts];

// The persistent collection and providers.
async function collectionUsage(file: File): Promise<void> {
  const provider: ProviderOptions = { kind: 'openai', baseUrl: 'http://127.0.0.1:1234', embeddingModel: 'e', chatModel: 'c' };
  const c: Collection = await Collection.open('docs', { storage: 'auto', provider, onChange: (ch) => void ch.docId });
  const info: DocumentInfo = await c.addFile(file, { convert: { maxTokens: 400 }, onProgress: (p) => void (p.stage === 'embed' && p.done / p.total) });
  const pages: number = info.pages + info.chunkCount + info.tokenCount;
  const chunkText: string = c.chunks(info.docId)[0].text;
  const r: AskResult = await c.ask('What changed?', { mode: 'rag', history: [{ role: 'user', content: 'hi' }], onToken: (t) => void t.length });
  const cited: string[] = r.citations.citations.map((x) => `${x.docId}#${x.seq} p.${x.firstPage} ${x.spans[0]?.startUtf16}`);
  const by: 'model' | 'extractive' = r.answer.by;
  const removed: boolean = await c.remove(info.docId);
  await c.setProvider(null);
  await c.setSetting('chat', [r.answer.text]);
  const embedded: number = await c.embedMissing();
  const jsonl: Blob = await c.export({ signal: new AbortController().signal, onProgress: (p) => void (p.stage === 'export' && p.done / p.total) });
  const line: ExportedChunk = JSON.parse((await jsonl.text()).split('\n')[0]);
  const vector: number[] | undefined = line.embedding;
  const lineFacts = `${line.format} ${line.chunkId} ${line.documentId}:${line.seq} ${line.fileName} ${line.tokenCount} ${line.text} ${line.metadata.ssSeq} ${line.embeddingModel ?? ''}`;
  // @ts-expect-error export takes a signal and onProgress only
  await c.export({ format: 'csv' });
  const found: CollectionSearchHit[] = await c.search('budget table', { k: 5, method: 'cosine', signal: new AbortController().signal });
  const foundFacts = `${found[0].chunkId} ${found[0].docId}:${found[0].seq} ${found[0].score.toFixed(3)} ${(await c.search('budget', { method: 'bm25' })).length}`;
  // @ts-expect-error methods are named
  await c.search('q', { method: 'vector' });
  const vectors: Float32Array[] = await new Provider(provider).embed(['a', 'b']);
  // @ts-expect-error the storage is auto, indexeddb or memory
  await Collection.open('x', { storage: 'disk' });
  // @ts-expect-error modes are named
  await c.ask('q', { mode: 3 });
  void [pages, chunkText, cited, by, removed, embedded, vectors, vector, lineFacts, foundFacts, r.accounting.path, r.cachedPrefix];
}
void collectionUsage;

// docrag/adapters: the shapes LangChain.js and LlamaIndex.TS constructors accept.
import { toLangChainDocuments, toLlamaIndexNodes, type LangChainDocument, type LlamaIndexNodeFields } from 'docrag/adapters';
export function adapters(result: ReturnType<typeof convert>): [string, string | undefined] {
  const docs: LangChainDocument[] = toLangChainDocuments(result);
  const nodes: LlamaIndexNodeFields[] = toLlamaIndexNodes(result);
  const seq: number | undefined = docs[0]?.metadata.ssSeq;
  return [`${docs[0]?.pageContent}${seq}`, nodes[0]?.relationships.NEXT?.nodeId];
}
