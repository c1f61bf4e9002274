// Types for the docrag package (both the node and the browser entry).
// Hand-written next to src/wasm/; tests/node/types.test.mjs checks the option keys,
// error codes and metadata field types against what the wasm module really does.

/** Your own metadata fields: strings or whole numbers. */
export type UserFields = Record<string, string | number>;

/** A metadata value: a string ("yes"/"no" for flags, "; "-joined lists) or a whole number. */
export type MetaValue = string | number;

/** "yes" or "no". */
export type Flag = 'yes' | 'no';

/** Where a chunk's page numbers come from. */
export type PageSource = 'rendered' | 'explicit' | 'estimated' | 'pdf';

/**
 * One chunk's flat metadata record. `ssDocId` and `ssSeq` have fixed names; the
 * other fields use default labels that `ConvertOptions.labels` can rename, so they
 * are typed as optional.
 */
export interface ChunkMetadata {
  /** The document id (fixed name). */
  ssDocId: string;
  /** 0-based position of the chunk in the document (fixed name). */
  ssSeq: number;
  /** The document title. */
  docTitle?: string;
  /** First page the chunk covers, 1-based. */
  firstPage?: number;
  /** Last page the chunk covers, 1-based. */
  lastPage?: number;
  /**
   * "rendered" (Word's saved layout), "explicit" (page breaks only; HTML, Markdown,
   * text), "estimated" (written "~7" in the chunk-information line) or "pdf" (the
   * PDF's own pages: exact).
   */
  pageSource?: PageSource;
  /** 0-based index of the section the chunk starts in. */
  sectionIndex?: number;
  /** Heading path of the section, outermost first. */
  headingPath?: string;
  /** Level of the innermost heading (0 before the first heading). */
  headingLevel?: number;
  /** body, header, footer, footnote or endnote. */
  chunkKind?: string;
  /** o200k_base tokens in the chunk text. */
  tokenCount?: number;
  /** Ids of the tables the chunk holds part of. */
  tableIds?: string;
  /** Whether the chunk begins inside a table (a continuation). */
  startsInTable?: Flag;
  /** Whether the chunk ends inside a table. */
  endsInTable?: Flag;
  /** Whether the chunk holds tracked changes. */
  hasRevisions?: Flag;
  /** Authors of those tracked changes. */
  revisionAuthors?: string;
  /** Whether the chunk holds comments. */
  hasComments?: Flag;
  /** Authors of those comments. */
  commentAuthors?: string;
  /** Person names found in the chunk. */
  persons?: string;
  /** Organization names found in the chunk. */
  organizations?: string;
  /** Place names found in the chunk. */
  places?: string;
  /** Important terms found in the chunk. */
  terms?: string;
  /** Key phrases: headings. */
  keyHeadings?: string;
  /** Key phrases: bold text. */
  keyBold?: string;
  /** Key phrases: italic text. */
  keyItalic?: string;
  /** Key phrases: table column headings. */
  keyTableHeadings?: string;
  /** Key phrases: list item text. */
  keyListText?: string;
  /** Key phrases: field results. */
  keyFieldData?: string;
  /** Key phrases: a sample of plain text. */
  keyPlainSample?: string;
  /** "yes" when one indivisible unit made the chunk larger than maxTokens. */
  oversize?: Flag;
  /** Any other field (renamed labels, your own fields). */
  [field: string]: MetaValue | undefined;
}

/** Names the per-chunk hook found. Every list is optional. */
export interface Names {
  persons?: string[];
  organizations?: string[];
  places?: string[];
  terms?: string[];
}

/**
 * Per-chunk names hook: receives the chunk's plain text, returns the names in it (or
 * undefined). Must be synchronous. If it throws, the conversion stops calling it and
 * `convert` re-throws that exception unchanged.
 */
export type NamesCallback = (text: string) => Names | undefined;

/** Resource limits for untrusted input; the defaults are safe for a browser tab. */
export interface Limits {
  /** Largest accepted input, in bytes. Default 268435456 (256 MiB). */
  maxInputBytes?: number;
  /** Largest total of inflated zip members read, in bytes. Default 134217728 (128 MiB). */
  maxInflatedBytes?: number;
  /** Largest inflated/compressed ratio of a zip member over 1 MiB. Default 300. */
  maxRatio?: number;
  /** Deepest element nesting in any XML part, in elements. Default 256. */
  maxDepth?: number;
  /**
   * Most elements (paragraphs, table cells, runs, XML elements) one document may hold.
   * The budget is also bounded by the input: 100,000 + one element per 8 bytes of input
   * (per 0.8 byte for DOCX, which is compressed). Over it, `convert` throws `too-large`.
   * Default 2000000.
   */
  maxElements?: number;
  /** Most pages one document may have (over it: `too-large`). Default 100000. */
  maxPages?: number;
  /** Most chunks one document may produce (over it: `too-large`). Default 200000. */
  maxChunks?: number;
}

/** Options for `convert`. Unknown keys and wrong types throw `invalid-option`. */
export interface ConvertOptions<F extends UserFields = UserFields> {
  /** Maximum chunk size in o200k_base tokens. Default 1024; at least 64. */
  maxTokens?: number;
  /** First page to convert, 1-based; -1 = from the start. Default -1. */
  firstPage?: number;
  /** Last page to convert, 1-based and inclusive; -1 = to the end. Default -1. */
  lastPage?: number;
  /** Document id. Default "sha256-" + the first 16 hex digits of the input's SHA-256. */
  docId?: string;
  /** Document title. Default: document properties, else the first heading, else fileName without extension. */
  title?: string;
  /** The file's name: a format hint and the title of last resort. Default none. */
  fileName?: string;
  /** A MIME type hint, never required. Default none. */
  mimeType?: string;
  /** The input format, skipping detection (e.g. "text" for a Markdown-looking .txt). Default: detected from the bytes, fileName and mimeType. */
  format?: "docx" | "html" | "rtf" | "markdown" | "text" | "pdf";
  /**
   * Where page numbers come from. "auto" (default): Word's saved layout where the
   * DOCX has it, else an estimate (every RTF); "estimate": always estimate; "saved":
   * never (explicit breaks only).
   */
  pages?: "auto" | "estimate" | "saved";
  /** Your own fields, copied into every metadata record (not ssDocId or ssSeq). Default none. */
  fields?: F;
  /** Label renames, default label -> your label (metadata names, chunk-information words). Default none. */
  labels?: Record<string, string>;
  /** Place names the built-in name finder matches as whole words. Default none. */
  places?: string[];
  /** Important terms the built-in name finder matches as whole words. Default none. */
  terms?: string[];
  /** Per-chunk names hook that replaces the built-in finder. Default: the built-in finder. */
  names?: NamesCallback;
  /** Resource limits. Default: see `Limits`. */
  limits?: Limits;
  /**
   * Called as the conversion goes: `parse` per part read (a DOCX body every 64
   * top-level blocks, each header, note and comment part), `chunk` every 64 top-level
   * blocks chunked; at most one call per stage, part and 1% of its work.
   */
  onProgress?: (p: ConversionProgress) => void;
  /**
   * Stops the conversion at its next progress report (an `AbortError`). `convert` runs
   * synchronously, so the signal can only change before the call or from `onProgress`;
   * `Collection.addFile` and `WorkerCollection.addFile` also check it between stages.
   */
  signal?: AbortSignal;
}

/** One progress report of a conversion. */
export interface ConversionProgress {
  /** `parse`: reading the input (`done`/`total` in bytes of `part`); `chunk`: chunking (in top-level blocks). */
  stage: 'parse' | 'chunk';
  done: number;
  total: number;
  /** The part read (`word/document.xml`, `word/footnotes.xml`; the format's name at the start of a parse), empty while chunking. */
  part: string;
  fileName: string;
}

/** Something the reader skipped or simplified; the conversion went on. */
export interface ConversionWarning {
  /** Stable code, e.g. "unknown-element". */
  code: string;
  /** One sentence naming the element or part. */
  message: string;
}

/** The result of `convert`. `chunks[i]` and `metadata[i]` belong together. */
export interface ConversionResult<F extends UserFields = {}> {
  /** The document id (also `ssDocId` in every record). */
  docId: string;
  /** The resolved title. */
  title: string;
  /** Markdown chunks in document order. */
  chunks: string[];
  /** One flat record per chunk. */
  metadata: Array<ChunkMetadata & F>;
  /** Content skipped or simplified. */
  warnings: ConversionWarning[];
}

/** Stable error codes. */
export type DocragErrorCode =
  | 'empty-input'
  | 'not-zip'
  | 'encrypted'
  | 'legacy-doc'
  | 'unsupported-format'
  | 'missing-main-part'
  | 'malformed-xml'
  | 'too-large'
  | 'zip-bomb'
  | 'too-deep'
  | 'invalid-option'
  | 'invalid-dimension'
  | 'dimension-mismatch'
  | 'zero-vector'
  | 'non-finite-vector'
  | 'duplicate-chunk'
  | 'index-full'
  | 'not-an-index'
  | 'unsupported-index-version'
  | 'corrupt-index'
  | 'invalid-parameter'
  | 'empty-record-set'
  | 'missing-field'
  | 'not-a-number'
  | 'bad-field-value'
  | 'seq-out-of-range'
  | 'duplicate-seq'
  | 'mixed-documents'
  | 'anchor-out-of-range'
  | 'invalid-percent'
  | 'invalid-input'
  | 'not-initialized'
  | 'init-failed'
  | 'storage-unavailable'
  | 'upgrade-blocked'
  | 'schema-too-new'
  | 'quota-exceeded'
  | 'storage-closed'
  | 'storage-corrupt'
  | 'storage-failed'
  | 'unknown-document'
  | 'empty-question'
  | 'aborted'
  | 'invalid-provider-config'
  | 'http-status'
  | 'network'
  | 'timeout'
  | 'malformed-reply'
  | 'provider-reported'
  | 'provider-function'
  | 'embedding-count'
  | 'embedding-empty'
  | 'embedding-non-finite'
  | 'embedding-dimension'
  | 'rate-limited'
  | 'no-embedding-model'
  | 'no-chat-model'
  | 'bad-percent'
  | 'unknown-mode'
  | 'duplicate-document'
  | 'indexing'
  | 'embedding-model-mismatch'
  | 'embedding-count-mismatch'
  | 'empty-document'
  | 'pdf-encrypted'
  | 'malformed-pdf'
  | 'internal';

/**
 * Every error docrag throws, except aborts: `code` is stable, `cause` the underlying
 * error when there is one, and `option`/`part`/`position` say where when known. Test
 * with `err instanceof DocragError` (also true for a DocragError of another copy of the
 * package, by its shape) or `isDocragError(err)`.
 *
 * An aborted call rejects with a `DOMException` named `AbortError` instead (the
 * platform convention, as `fetch` does), whose `cause` is a DocragError with code
 * `aborted`; test with `isAbortError(err)` or `err.name === 'AbortError'`.
 */
export declare class DocragError extends Error {
  constructor(code: DocragErrorCode, message: string, options?: { cause?: unknown; option?: string; part?: string; position?: number });
  name: 'DocragError';
  code: DocragErrorCode;
  /** For `malformed-xml`, `zip-bomb` and `too-deep`: the package part (e.g. `word/document.xml`) or input it happened in. */
  part?: string;
  /** For `invalid-option`: the option as you spelled it, e.g. "maxTokens" or "fields.ssSeq". */
  option?: string;
  /** For `http-status` and `rate-limited`: the provider's HTTP status. */
  status?: number;
  /** For `http-status` and `rate-limited`: the Retry-After the provider asked for, in milliseconds. */
  retryAfterMs?: number;
  /** For `rate-limited`: requests sent, the first one included. */
  attempts?: number;
  /** For `timeout`: the per-request timeout, in milliseconds. */
  timeoutMs?: number;
  /** For `embedding-count` (vectors) and `embedding-dimension` (dimensions): what was expected. */
  expected?: number;
  /** For `embedding-count` and `embedding-dimension`: what the provider returned. */
  got?: number;
  /** For `embedding-dimension`, `embedding-empty`, `embedding-non-finite`: the text's index in the call. */
  index?: number;
  /** For `malformed-xml`: the byte offset in `part` where reading stopped; for `embedding-non-finite`: the component's position in the vector. */
  position?: number;
}

/** What `convert` reads: the file's bytes, or the document's text. */
export type ConvertInput = Uint8Array | ArrayBuffer | string;

/**
 * A compiled `WebAssembly.Module` where the environment's types declare one (lib.dom
 * does; @types/node does not), else `never`, so these types need neither.
 */
export type CompiledModule = typeof globalThis extends {
  WebAssembly: { Module: abstract new (...args: any[]) => infer M };
}
  ? M
  : never;

/** What `init` can load the wasm module from. */
export type InitInput = URL | string | Response | ArrayBuffer | Uint8Array | CompiledModule;

/**
 * Converts a document (DOCX, HTML, RTF, Markdown or plain text; detected from the bytes, with `fileName`
 * as a hint) into token-bounded Markdown chunks with flat metadata. Synchronous, so not
 * for PDFs (pdf.js reads them asynchronously): use `convertAsync` or `Collection.addFile`.
 *
 * @throws {DocragError} when the input is not a document docrag can read (`empty-input` for 0
 * bytes, `empty-document` when it has no text, as `Collection.addFile`; `unsupported-format`
 * for a PDF), or an option is invalid.
 * @throws whatever `options.names` threw, unchanged.
 */
export function convert<F extends UserFields = {}>(
  input: ConvertInput,
  options?: ConvertOptions<F>,
): ConversionResult<F>;

/**
 * As `convert`, and PDFs too: a PDF is read by pdf.js (the `pdfjs-dist` dependency,
 * imported on the first PDF only, its parser on the calling thread), each page's text
 * runs and ruling lines laid out by docrag into headings, paragraphs, tables, notes
 * and header/footer parts; every chunk's pages are the PDF's (`pageSource: "pdf"`).
 * `onProgress` hears each PDF page (`parse`, `done`/`total` in bytes of the file, the
 * share of its pages read); `signal` aborts between pages.
 *
 * @throws {DocragError} as `convert`; for PDFs also `pdf-encrypted` (a user password is
 * needed), `malformed-pdf` (nothing readable), `too-large` (over `limits.maxPages`).
 */
export function convertAsync<F extends UserFields = {}>(
  input: ConvertInput,
  options?: ConvertOptions<F>,
): Promise<ConversionResult<F>>;

/**
 * Loads the wasm module. Needed once before `convert` in browsers; a no-op in Node.
 * Idempotent.
 */
export function init(input?: InitInput, options?: InitOptions): Promise<void>;
export function init(options: InitOptions): Promise<void>;

/** Progress of `init` (and of the first `Collection.open` of a page, which loads the module). */
export interface InitProgress {
  /** `download`: bytes of the .wasm received (`total` 0 when the server sends no length); `compile`; `done`. */
  stage: 'download' | 'compile' | 'done';
  done: number;
  total: number;
}

export interface InitOptions {
  /** Called as the module downloads (when `init` fetches it from a URL) and compiles. */
  onProgress?: (p: InitProgress) => void;
  /**
   * Rejects this call with an `AbortError`; when this call started the download, it
   * stops it too (other calls waiting on the same load then reject, and a later
   * `init` starts again).
   */
  signal?: AbortSignal;
  /**
   * Where pdf.js's legacy build is served: the directory holding `pdf.min.mjs` and
   * `pdf.worker.min.mjs` (copy `node_modules/pdfjs-dist/legacy/build/`). Only pages
   * without a bundler need it, where the package's bare `import('pdfjs-dist/...')`
   * does not resolve; bundlers and Node resolve that themselves. A WorkerCollection
   * opened afterwards passes it to its worker. pdf.js is imported on the first PDF.
   */
  pdfjs?: string | URL;
}

/**
 * Number of o200k_base tokens in `text` (the tokenizer of GPT-4o, GPT-4.1, GPT-5 and
 * the o-series): exactly tiktoken's `encode_ordinary(text).length`, so special-token
 * text such as `<|endoftext|>` counts as ordinary text. The same counter sets every
 * chunk's `tokenCount`. The first call builds the tokenizer's tables (milliseconds).
 * Needs `await init()` first in browsers.
 * @throws {DocragError} `invalid-input` when `text` is not a string; `not-initialized`
 * before `init()` in browsers.
 */
export function countTokens(text: string): number;

/** Whether `value` is a DocragError (as opposed to an exception from your callback). */
export function isDocragError(value: unknown): value is DocragError;

/** Whether `value` is the rejection of an aborted call: a `DOMException` named `AbortError` (its `cause` is the DocragError with code `aborted`). */
export function isAbortError(value: unknown): value is Error & { name: 'AbortError'; cause: DocragError };

/** The system message that tells a language model how to read docrag's Markdown and cite it. */
export const SYSTEM_MESSAGE: string;

/** Same as `SYSTEM_MESSAGE`. */
export function systemMessage(): string;

/** The package version. */
export function version(): string;

/** One retrieved chunk: plain data. */
export interface SearchHit {
  /** The chunk's document id (`ssDocId`). */
  docId: string;
  /** The chunk's 0-based position in its document (`ssSeq`). */
  seq: number;
  /** Higher is better: cosine similarity in [-1, 1] (VectorIndex) or a BM25 sum >= 0 (Bm25Index). */
  score: number;
}

/**
 * Exact cosine top-k over embeddings, stored L2-normalized and contiguously (4 x dim
 * bytes per chunk), scanned with wasm SIMD128. Ties go to the smaller (docId, seq).
 * Call `free()` when done (or let the garbage collector do it).
 */
export class VectorIndex {
  /**
   * An empty index for `dim`-dimensional vectors (e.g. 384 or 1536).
   * @throws {DocragError} `invalid-dimension` when `dim` is 0.
   */
  constructor(dim: number);
  /** The dimension of every vector, in components. */
  readonly dim: number;
  /** The number of vectors (chunks) held. */
  readonly size: number;
  /**
   * Adds the embedding of chunk `seq` of document `docId`.
   * @throws {DocragError} `dimension-mismatch`, `zero-vector`, `non-finite-vector` or `duplicate-chunk`.
   */
  add(docId: string, seq: number, vector: Float32Array | readonly number[]): void;
  /**
   * The `k` chunks most similar to `query`, best first; only chunks of `docIds` when given.
   * @throws {DocragError} `dimension-mismatch`, `zero-vector` or `non-finite-vector` for the query; `invalid-input` for bad `docIds`.
   */
  search(query: Float32Array | readonly number[], k: number, docIds?: readonly string[] | null): SearchHit[];
  /** Removes every chunk of `docId`; returns how many were removed. */
  removeDocument(docId: string): number;
  /** The versioned binary form (magic "DRVX", little-endian), for IndexedDB. */
  toBytes(): Uint8Array;
  /**
   * Loads what `toBytes` wrote. The bytes are read a block (64 KB) at a time, never
   * copied into wasm memory whole: loading needs about the index's own size
   * (vectors x dim x 4 bytes) plus one 1 MB storage block.
   * @throws {DocragError} `not-an-index`, `unsupported-index-version` or `corrupt-index`;
   * `invalid-input` when `bytes` is neither a Uint8Array nor an ArrayBuffer.
   */
  static fromBytes(bytes: Uint8Array | ArrayBuffer): VectorIndex;
  /** Whether this build scores with wasm SIMD128 instructions. */
  static simd(): boolean;
  /** Releases the wasm memory now. */
  free(): void;
}

/**
 * The built-in lexical index: BM25 (k1 1.2, b 0.75) over Unicode words, lowercased,
 * with Chinese/Japanese/Korean as character bigrams. Ties go to the smaller (docId, seq).
 */
export class Bm25Index {
  /** An empty index. */
  constructor();
  /** The number of chunks held. */
  readonly size: number;
  /**
   * Indexes the text of chunk `seq` of document `docId`.
   * @throws {DocragError} `duplicate-chunk`.
   */
  add(docId: string, seq: number, text: string): void;
  /**
   * The `k` best-matching chunks, best first; only chunks of `docIds` when given.
   * @throws {DocragError} `invalid-input` for bad `docIds`.
   */
  search(query: string, k: number, docIds?: readonly string[] | null): SearchHit[];
  /** Removes every chunk of `docId`; returns how many were removed. */
  removeDocument(docId: string): number;
  /** The versioned binary form (magic "DRBM", little-endian), for IndexedDB. */
  toBytes(): Uint8Array;
  /**
   * Loads what `toBytes` wrote.
   * @throws {DocragError} `not-an-index`, `unsupported-index-version` or `corrupt-index`.
   */
  static fromBytes(bytes: Uint8Array): Bm25Index;
  /** Releases the wasm memory now. */
  free(): void;
}

/** Options of `Expansion.addRelatedChunks`. */
export interface RelatedOptions {
  /** Enrichment budget in tokens, obeyed only by the remaining-tables step. Default Infinity. */
  budget?: number;
  /** Complete the anchors' runs of tracked changes. Default true. */
  revisions?: boolean;
  /** Complete the anchors' runs of comments. Default true. */
  comments?: boolean;
  /** Then add the document's other tables, whole, while the budget allows. Default false. */
  allTables?: boolean;
  /** Complete every table met in the expanded set, so no table is sent in part. Default true. */
  adjacentTables?: boolean;
}

/** One document's index-document entry. */
export interface IndexEntry {
  /** The whole entry: the parts separated by a blank line. */
  text: string;
  /** Parts of about 900 tokens; every part after the first has a header ending "(continued)". */
  parts: string[];
  /** o200k_base tokens of `text`. */
  tokens: number;
}

/**
 * One document's enrichment engine: its metadata records validated and indexed once,
 * for any number of queries. Works on metadata only, never the chunk text; token
 * counts come from each record's `tokenCount`.
 */
export class Enricher {
  /**
   * Builds the engine from one document's complete set of records, in any order.
   * `labels` are the label renames the conversion used (default: none).
   * @throws {DocragError} `empty-record-set`, `missing-field`, `not-a-number`,
   * `bad-field-value`, `seq-out-of-range`, `duplicate-seq`, `mixed-documents`,
   * `invalid-option` (a bad rename) or `invalid-input` (not an array of objects).
   */
  constructor(records: readonly ChunkMetadata[], labels?: Record<string, string>);
  /** Number of chunks. */
  readonly chunkCount: number;
  /** The document id (`ssDocId`). */
  readonly docId: string;
  /** Tokens of the whole document. */
  tokenCount(): number;
  /** Tokens of chunk `seq`; 0 when out of range. */
  chunkTokenCount(seq: number): number;
  /** Whether any chunk holds a table. */
  hasTables(): boolean;
  /** Whether any chunk holds tracked revisions. */
  hasRevisions(): boolean;
  /** Whether any chunk holds comments. */
  hasComments(): boolean;
  /** Authors of tracked revisions, each once, in order of first appearance. */
  revisionAuthors(): string[];
  /** Authors of comments, each once, in order of first appearance. */
  commentAuthors(): string[];
  /** `sectionIndex` of each body section, in document order. */
  sectionIndexes(): number[];
  /** Pages of each body section (aligned with `sectionIndexes()`). */
  sectionPages(): number[];
  /** Chunks of each body section (aligned with `sectionIndexes()`). */
  sectionChunks(): number[];
  /**
   * Starts one query's expansion from the retrieved sequence numbers.
   * @throws {DocragError} `anchor-out-of-range` (negative or too large) or
   * `invalid-input` (not whole numbers).
   */
  expand(anchors: readonly number[]): Expansion;
  /**
   * This document's index-document entry, sized at `percent` of its tokens (default 5).
   * @throws {DocragError} `invalid-percent` unless 0 < percent <= 100.
   */
  indexDocument(percent?: number): IndexEntry;
  /** Same as `ROUTING_PROMPT`. */
  static routingPrompt(): string;
  /** Same as `INDEX_ANSWER_PROMPT`. */
  static indexAnswerPrompt(): string;
  /** Releases the wasm memory now. */
  free(): void;
}

/**
 * One query's expansion, made by `Enricher.expand`. Every method works from the
 * anchor set (chaining does not compound; call `anchorExpanded()` to compound) and
 * returns the cumulative enrichment tokens: tokens of chunks added to the retrieved
 * ones. Completions ignore budgets; additions add whole units (a page, a chunk) only
 * while the enrichment stays within `budget` tokens (Infinity for none).
 */
export class Expansion {
  private constructor();
  /** Completes the tables the anchors hold part of. */
  completeTables(): number;
  /** Completes every table met in the expanded set. */
  completeExpandedTables(): number;
  /** Completes the runs of consecutive chunks with tracked changes around the anchors. */
  completeRevisions(): number;
  /** Completes the runs of consecutive chunks with comments around the anchors. */
  completeComments(): number;
  /**
   * Adds the rest of each anchor's page (when `restOfPage`), the first and last page,
   * `pagesAround` pages around each anchor, then the second and second-to-last page.
   * @throws {DocragError} `invalid-input` for a bad budget.
   */
  addPageChunks(restOfPage: boolean, pagesAround: number, budget: number): number;
  /**
   * Adds `pages` pages around each anchor within its section (Infinity: the whole section).
   * @throws {DocragError} `invalid-input` for a bad budget or page count.
   */
  addSectionPages(pages: number, budget: number): number;
  /** Adds every chunk with tracked changes, only `author`'s when given. */
  addRevisionChunks(budget: number, author?: string): number;
  /** Adds every chunk with comments, only `author`'s when given. */
  addCommentChunks(budget: number, author?: string): number;
  /**
   * Completes tables, revision runs and comment runs, then adds other tables when
   * `allTables` and the budget allows.
   * @throws {DocragError} `invalid-input` for bad options.
   */
  addRelatedChunks(options?: RelatedOptions): number;
  /** Makes the expanded set the anchor set. */
  anchorExpanded(): void;
  /** The expanded set: ascending sequence numbers. */
  expanded(): number[];
  /** The current anchor set, ascending. */
  anchors(): number[];
  /** Tokens of the expanded set, retrieved chunks included. */
  tokenCount(): number;
  /** Tokens of the retrieved chunks. */
  retrievedTokens(): number;
  /** Tokens added to the retrieved chunks (what every method returns). */
  enrichmentTokens(): number;
  /** Releases the wasm memory now. */
  free(): void;
}

/** The system prompt of the routing call: append the index document; the model replies NONE, ALL, INDEX or `id:confidence | ...`. */
export const ROUTING_PROMPT: string;

/** The system prompt for answering from the index document alone (after an INDEX reply). */
export const INDEX_ANSWER_PROMPT: string;

// ---------------------------------------------------------------------------
// The persistent collection (browser runtime)
// ---------------------------------------------------------------------------

/** One stored document's summary (`Collection.documents()`). */
export interface DocumentInfo {
  /** The document id (`ssDocId`): `sha256-` + 16 hex digits of the file's bytes unless you set one. */
  docId: string;
  title: string;
  /** The file name it was added from ("" when none was known). */
  fileName: string;
  format: 'docx' | 'html' | 'rtf' | 'markdown' | 'text' | 'pdf';
  /** Size of the added file, in bytes. */
  sizeBytes: number;
  /** When it was added: milliseconds since the Unix epoch. */
  addedAt: number;
  chunkCount: number;
  /** Sum of the chunks' `tokenCount` (o200k_base tokens). */
  tokenCount: number;
  /** The highest `lastPage` of any chunk (1 without page breaks). */
  pages: number;
  hasTables: boolean;
  hasRevisions: boolean;
  hasComments: boolean;
  /** The converter's warnings as `code: message` lines. */
  warnings: string[];
  /** Embedding models with stored vectors for this document. */
  embeddingModels: string[];
}

/** One stored chunk (`Collection.chunks(docId)`). */
export interface StoredChunk {
  /** The chunk's Markdown. */
  text: string;
  metadata: ChunkMetadata;
}

/**
 * One line of `Collection.export()`: format `docrag.chunk.v1`, one JSON object per
 * chunk (JSONL), what the CLI's `docrag load postgres://... FILE.jsonl` reads. New
 * optional fields may appear within v1; a change of meaning gets a new `format`.
 */
export interface ExportedChunk {
  /** Always "docrag.chunk.v1"; a reader refuses any other value. */
  format: 'docrag.chunk.v1';
  /** `${documentId}:${seq}`, unique in a collection. */
  chunkId: string;
  /** The document id (`ssDocId`). */
  documentId: string;
  /** 0-based position of the chunk in its document (`ssSeq`). */
  seq: number;
  /** The file the document was added from ("" when unknown). */
  fileName: string;
  /** The chunk's Markdown, chunk-information line first (as `chunks(docId)[seq].text`). */
  text: string;
  /** o200k_base tokens of `text` (`countTokens(text)`), counted at export whatever `labels` renamed. */
  tokenCount: number;
  /** The flat metadata record (strings and integers), under its labels. */
  metadata: ChunkMetadata;
  /**
   * The chunk's vector, present only when its document has stored vectors of the
   * current provider's embedding model. Without a provider (or one that cannot embed)
   * no line has one, even when vectors of an earlier model are stored.
   */
  embedding?: number[];
  /** With `embedding`: the model id it came from (`provider.embeddingModelId`, e.g. "openai:text-embedding-3-small"). */
  embeddingModel?: string;
}

/** Progress of `export()`: chunks written so far, after each document. */
export interface ExportProgress {
  stage: 'export';
  done: number;
  total: number;
}

/** How `Collection.search()` ranks chunks. */
export type SearchMethod = 'cosine' | 'bm25' | 'hybrid';

/** Options of `Collection.search()`. */
export interface CollectionSearchOptions {
  /** How many chunks, at most (whole number, 1 to 1,000,000). Default 10. */
  k?: number;
  /**
   * "cosine" (default): the question is embedded by the current provider (as `ask()`
   * embeds it) and compared with every chunk vector of that model, exactly (a full
   * scan; the order `docrag search --exact` gives in PostgreSQL for an export of the
   * collection). "bm25": the built-in lexical index; no provider needed. "hybrid":
   * as `ask()` retrieves: every chunk scores 0.7 x its BM25 / the best BM25 + 0.3 x
   * its cosine rescaled from 0 (at or below 0.7 of the best cosine) to 1 (the best);
   * the cosine top-k alone when no chunk shares a word with the question.
   */
  method?: SearchMethod;
  /** Rejects the call with an `AbortError` (the question's embedding request included). */
  signal?: AbortSignal;
}

/** One chunk found by `Collection.search()`: a {@link SearchHit} with its chunk id. */
export interface CollectionSearchHit extends SearchHit {
  /** `<docId>:<seq>`, the export's `chunkId` (and the `chunk_id` `docrag load` writes). */
  chunkId: string;
  /**
   * Higher is better: the cosine similarity (-1 to 1) for "cosine", the BM25 sum for
   * "bm25", the fused score (0 to 1) for "hybrid".
   */
  score: number;
}

export interface ExportOptions {
  /** Rejects the call with an `AbortError` (checked between documents). */
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
}

/**
 * Progress of `addFile`, in stage order; `done`/`total` are bytes (read), bytes of
 * `part` (parse), top-level blocks (chunk), chunks (embed) or steps (store).
 */
export interface AddProgress {
  stage: 'read' | 'parse' | 'chunk' | 'embed' | 'store' | 'done';
  done: number;
  total: number;
  fileName?: string;
  /** For `parse`: the part being read (see `ConversionProgress`). */
  part?: string;
}

export interface OpenOptions {
  /**
   * Where records live. "auto" (default): IndexedDB when the global `indexedDB` exists,
   * memory under Node (which has none); a browser without IndexedDB (some private
   * windows) fails with `storage-unavailable` rather than silently forgetting.
   * "memory": nothing persists beyond this page or process.
   */
  storage?: 'auto' | 'indexeddb' | 'memory';
  /**
   * The model provider. Omitted: the one remembered with `setProvider(p, {remember: true})`,
   * else none (BM25 retrieval and the extractive answerer).
   */
  provider?: ProviderOptions | null;
  /** Called after another tab added or removed a document (the collection has already reloaded). */
  onChange?: (change: { type: 'added' | 'removed'; docId: string }) => void;
  /**
   * Called as the collection opens: on a page's first open the module's `download`
   * and `compile` (see `InitProgress`), then `open` (the database), `load` (its
   * records), `index` (the search indexes rebuilt) and `done`, each 0/1 then 1/1.
   */
  onProgress?: (p: { stage: 'download' | 'compile' | 'open' | 'load' | 'index' | 'done'; done: number; total: number }) => void;
  /** Rejects the open with an `AbortError` between its steps; nothing is written by an open. */
  signal?: AbortSignal;
}

export interface AddFileOptions {
  /** Overrides the File's name (used for format detection and `fileName`). */
  fileName?: string;
  /** Overrides the Blob's type. */
  mimeType?: string;
  /** Conversion options (`maxTokens`, `fields`, `labels`, ...). */
  convert?: ConvertOptions;
  /** Re-convert and replace a stored document with the same id. Default false: the stored one is returned unchanged. */
  replace?: boolean;
  /** Aborts the add (rejects with an `AbortError`); nothing is stored. */
  signal?: AbortSignal;
  onProgress?: (p: AddProgress) => void;
}

/** A chat message of the conversation so far. */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
}

export interface AskOptions {
  /** Processing mode. Default "rag". */
  mode?: 'rag' | 'entire' | 'adaptive' | 'adaptive-rag';
  /** Fixed top-k (chunks) for the retrieving modes, instead of the token budget. */
  chunks?: number;
  /**
   * RAG mode's token budget for the context's excerpts (retrieved and completing
   * text together), in o200k tokens. Default 4,000. The instructions and the
   * question come on top. See the README's "Retrieval" section.
   */
  tokenBudget?: number;
  /** The earlier conversation, reduced to `historyTokens` before it is sent. */
  history?: ChatMessage[];
  /** Model routing and classification calls when a chat model is set. Default true. */
  routing?: boolean;
  /** Send the payload to the chat model when one is set. Default true; false returns the payload with the extractive answer. */
  generate?: boolean;
  /** With the percentages: collections below this many tokens send every chunk. Default 20,000. Under the token budget a collection is sent whole when it fits the budget; 0 always retrieves in both modes. */
  smallCollectionTokens?: number;
  /** Top-k as a percentage of the chunks (replaces the token budget; not with `tokenBudget`). Default 15. */
  retrievalPercent?: number;
  /** Broad questions: share of the quota spread over every document (replaces the token budget). Default 25. */
  coveragePercent?: number;
  /** Enrichment budget, percent of the collection's tokens (replaces the token budget). Default 10. */
  enrichmentPercent?: number;
  /** Routing confidence threshold, 0-100. Default 70. */
  confidenceThreshold?: number;
  /** Most numbered sources in the context. Default 200. */
  maxSources?: number;
  /** History budget in tokens. Default 4,000. */
  historyTokens?: number;
  /** Context window for adaptive RAG, in tokens. Default 128,000. */
  contextWindow?: number;
  signal?: AbortSignal;
  /** Stages: embed-question, route, classify, retrieve, generate, done. */
  onProgress?: (p: { stage: string; done: number; total: number }) => void;
  /** Each streamed piece of the model's answer. */
  onToken?: (delta: string) => void;
}

/** A numbered source of the context: document, section and page of one chunk. */
export interface Source {
  /** The number the context and the answer use: [n]. */
  number: number;
  docId: string;
  /** The document title. */
  title: string;
  /** The heading path ("" before the first heading). */
  section: string;
  /** 1-based; 0 when unknown. */
  firstPage: number;
  lastPage: number;
  /** The chunk's `pageSource` ("" when none); show "estimated" pages as "p. ~7". */
  pageSource: PageSource | '';
  /** The chunk's `ssSeq`. */
  seq: number;
  /** The start of the chunk's text, whitespace collapsed. */
  snippet: string;
  /** Retrieval score (0 for chunks added by enrichment or sent whole). */
  score: number;
}

/** Where a marker is in the answer: UTF-8 byte offsets and UTF-16 code-unit offsets (for `String.prototype.slice`). */
export interface CitationSpan {
  start: number;
  end: number;
  startUtf16: number;
  endUtf16: number;
}

/** One cited source and every place the answer cites it. */
export interface Citation extends Source {
  spans: CitationSpan[];
}

export interface CitationReport {
  citations: Citation[];
  /** Cited numbers with no source. */
  unknown: number;
  /** Whether the answer cites at least one known source. */
  grounded: boolean;
}

/** Tokens sent by purpose (o200k_base), and the path the question took. */
export interface Accounting {
  path: 'everything' | 'routed-whole' | 'index' | 'pointed' | 'broad' | 'entire' | 'adaptive-rag';
  /** Why that path, in one sentence. */
  reason: string;
  routingTokens: number;
  retrievalTokens: number;
  enrichmentTokens: number;
  historyTokens: number;
  questionTokens: number;
  contextTokens: number;
  totalTokens: number;
  /** Whether the question was classified broad (null when not classified). */
  broad: boolean | null;
  truncated: boolean;
  /** Which retrieval ran, when the question had an embedding. */
  retrieval?: string;
}

/** How the extractive answer answered: the structure it read, `records` for a question about the
 * collection as such (answered from each document's counts of tables, changes, comments, notes,
 * parts and its language), or `none` when it declined. */
export type AnswerKind =
  | 'table-cell' | 'table' | 'list' | 'section' | 'changes' | 'comments' | 'notes'
  | 'header-footer' | 'facts' | 'documents' | 'records' | 'none';

/** The answer read from the context with no model. */
export interface ExtractiveAnswer {
  /** Plain text: the direct answer first, each statement followed by ` [n]`. */
  text: string;
  /** The same answer as balanced Markdown (a list when it has several items). */
  markdown: string;
  /** What was read to answer; `none` when the documents do not answer. */
  kind: AnswerKind;
  /** Whether the answer says the documents do not answer the question. */
  declined: boolean;
  /** The statements in answer order, plain, with their source numbers (0: uncited). */
  quotes: { number: number; text: string }[];
  /** o200k tokens of `text`. */
  tokens: number;
}

export interface AskResult {
  /** The messages for a chat model: context (the cacheable prefix), history, question. */
  payload: { messages: ChatMessage[] };
  /** The context message's text: byte-identical whenever the same chunks are selected. */
  cachedPrefix: string;
  accounting: Accounting;
  sources: Source[];
  /** The routing decision, when a routing call was made. */
  routing?: unknown;
  /**
   * The answer: the chat model's, or the extractive one without a chat model.
   * `text` is plain text (the extractive answer writes tracked changes and comments
   * as words, never markup); `markdown` is balanced Markdown to render (a model's
   * reply is used as is). Both cite sources with the same `[n]` markers.
   */
  answer: { text: string; markdown: string; by: 'model' | 'extractive' };
  /** Citations read from `answer.text` (spans into `text`). */
  citations: CitationReport;
  /** The same citations read from `answer.markdown` (spans into `markdown`). */
  markdownCitations: CitationReport;
  /** The chunks used, as numbered sources; in entire-document mode "" or "TRUNCATED" (text was cut to fit). */
  vectorChunks: Source[] | string;
  /** The extractive answer (always computed, with or without a chat model). */
  extractive: ExtractiveAnswer;
  /** The model calls made, in order. */
  modelCalls: { purpose: 'embedding' | 'routing' | 'classification' | 'answer'; model: 'embedding' | 'main' | 'small' }[];
}

export interface SummarizeOptions {
  mode?: 'map-reduce' | 'hierarchical' | 'iterative' | 'topics' | 'extractive';
  /** Topic mode: a phrase the topics should serve. */
  focus?: string;
  /** The model's context window in tokens; requests stay under about 60% of it. */
  contextWindow?: number;
  /** Hierarchical reduce: most levels before a forced final pass. */
  maxDepth?: number;
  /** Topic mode: chunks per topic. Default 3. */
  topicK?: number;
  /** Model calls in flight at once. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  /** `label` reads like "map 12/40" or "reduce 2/13 (level 1)". */
  onProgress?: (p: { stage: string; done: number; total: number; label: string; level?: number }) => void;
}

/** A finished summary (Markdown with `[chunk-N]` or `[docId:N]` markers). */
export interface Summary {
  mode: string;
  requestedMode: string;
  fallback?: string;
  text: string;
  /** The distinct valid chunks it cites, in order of first citation. */
  citations: { /** The marker without brackets: `chunk-3` or `docId:3`. */ id: string; docId: string; seq: number; /** `headingPath`. */ section: string }[];
  /** Whether every model reply passed citation validation (extractive: always). */
  verified: boolean;
  /** "citations could not be verified" when not verified. */
  warning?: string;
  invalidCitations: string[];
  notices: string[];
  trace: {
    docIds: string[];
    chunksTotal: number;
    chunksProcessed: number;
    topics: string[];
    modelCalls: number;
    retries: number;
    /** o200k_base tokens. */
    tokensSent: number;
    tokensReceived: number;
    wallMs: number | null;
    reduceLevels: number;
    requestBudgetTokens: number;
    maxRequestTokens: number;
    truncatedInputs: number;
    headingsTotal: number;
    headingsCovered: number;
    /** Share of top-level headings with at least one chunk used, 0-1. */
    coverage: number | null;
    bullets: number;
    bulletsCited: number;
    /** Share of bullets with a valid citation, 0-1. */
    citationRate: number | null;
  };
}

/**
 * A named, persistent document collection. In a browser it lives in IndexedDB
 * (database `docrag:<name>`): reopening restores documents, chunks, metadata and
 * embeddings with no re-parsing and no provider call. Under Node it lives in memory.
 *
 * Every write is one transaction: a failed `addFile` (bad file, provider failure,
 * abort, quota) stores nothing and changes nothing already stored.
 */
export class Collection {
  private constructor();
  /**
   * Opens or creates a collection. In browsers it loads the wasm module first when
   * `init()` has not run (the default location; call `init(url)` first for another).
   * @throws {DocragError} `storage-unavailable`, `upgrade-blocked` (another tab holds an
   * older version open), `schema-too-new`, `invalid-option`. A damaged record does not
   * fail the open: its document is listed by `damaged()`.
   */
  static open(name: string, options?: OpenOptions): Promise<Collection>;
  /**
   * Deletes a collection's IndexedDB database. docrag's own open handles (in any tab)
   * close themselves when this runs, and later calls on them fail with `storage-closed`;
   * a connection that does not close makes this fail with `upgrade-blocked`.
   */
  static deleteStored(name: string): Promise<void>;
  readonly name: string;
  readonly storage: 'indexeddb' | 'memory';
  /** The current provider's capabilities, or null. */
  readonly provider: { embeddingModelId: string | null; chat: boolean; smallChat: boolean } | null;
  /** The documents, in the order they were added. */
  documents(): DocumentInfo[];
  /**
   * Documents left out at open because a stored record of theirs is damaged, with the
   * reason. Their records are kept until `remove(docId)` deletes them.
   */
  damaged(): { docId: string; reason: string }[];
  /** One document's chunks in order. @throws {DocragError} `unknown-document`. */
  chunks(docId: string): StoredChunk[];
  /**
   * Totals over the collection (tokens: o200k_base). `embeddingModels`: the model whose
   * vectors are in use for retrieval (the current provider's, when documents have its
   * vectors); other models' stored vectors are listed per document in `DocumentInfo`.
   */
  stats(): { documents: number; chunks: number; tokens: number; embeddingModels: string[] };
  /**
   * Adds a file: convert, embed (chunks whose text already has a stored vector are not
   * re-embedded), store. Adding a stored document again returns it unchanged unless `replace`.
   * PDFs are read as `convertAsync` reads them (pdf.js, imported on the first PDF).
   * @throws {DocragError} a conversion code, `empty-document` (no text: 0 chunks), a provider code
   * (`zero-vector` and the other vector checks included), an `AbortError` when aborted (until the store transaction
   * completes; a later abort changes nothing), `quota-exceeded`, `storage-closed`.
   */
  addFile(file: File | Blob | Uint8Array | ArrayBuffer | string, options?: AddFileOptions): Promise<DocumentInfo>;
  /**
   * Embeds the documents that have no vectors of the current provider's embedding model
   * (a provider set after they were added). Resolves to how many documents were embedded.
   */
  embedMissing(options?: { signal?: AbortSignal; onProgress?: (p: AddProgress) => void }): Promise<number>;
  /**
   * Every chunk of the collection as JSONL in a `Blob` of type `application/x-ndjson`:
   * one line per chunk, each an {@link ExportedChunk} (format "docrag.chunk.v1":
   * `format`, `chunkId`, `documentId`, `seq`, `fileName`, `text`, `tokenCount`,
   * `metadata`, and `embedding` + `embeddingModel` when the document has vectors of
   * the current provider's embedding model; none without a provider). Documents in
   * `documents()` order, chunks in `ssSeq` order; an empty collection gives an empty
   * Blob. `docrag load postgres://... FILE.jsonl` loads the file into a server-side
   * vector database.
   * @throws {DocragError} `invalid-option`; an `AbortError` when aborted.
   */
  export(options?: ExportOptions): Promise<Blob>;
  /**
   * Removes a document and every stored record of it. Resolves to whether it was there.
   * An `addFile` of the same document still running stores it again when it completes.
   */
  remove(docId: string): Promise<boolean>;
  /**
   * Summarizes one document (an id), several (an array), or the whole collection (null).
   * Default mode: "hierarchical" with a chat model (map-reduce that reduces in
   * batches when the notes do not fit), "extractive" without one. Every
   * `[chunk-N]` / `[docId:N]` citation is checked against the chunks of its call; a
   * reply that fails twice flags the summary (`verified: false`, `warning`).
   * @throws {DocragError} `no-chat-model` for a model mode without one, `unknown-document`, a provider code; an `AbortError` when aborted.
   */
  summarize(docIds?: string | string[] | null, options?: SummarizeOptions): Promise<Summary>;
  /** Asks a question. @throws {DocragError} `empty-question`, a provider code; an `AbortError` when aborted. */
  ask(question: string, options?: AskOptions): Promise<AskResult>;
  /**
   * The `k` chunks that best match `question`, best first, with no answer and no chat
   * call (see {@link CollectionSearchOptions} for the methods). Ties are ordered by `docId`,
   * then `seq`, ascending (ids compared as byte strings). "cosine" searches the
   * documents that have vectors of the provider's model (`embedMissing()` embeds the
   * others). An empty collection gives `[]`.
   * @throws {DocragError} `no-embedding-model` for "cosine" or "hybrid" without a provider
   * with an embedding model, or when the collection holds no vectors of its model;
   * `empty-question`, `invalid-option`, a provider code; an `AbortError` when aborted.
   */
  search(question: string, options?: CollectionSearchOptions): Promise<CollectionSearchHit[]>;
  /**
   * Sets the provider (null: none). Keys stay in memory unless `remember: true`, which stores
   * the options (API key included) in this collection's storage.
   */
  setProvider(provider: ProviderOptions | null, options?: { remember?: boolean }): Promise<void>;
  /** A stored setting (any JSON value), undefined when unset. */
  getSetting<T = unknown>(key: string): T | undefined;
  /** Stores a JSON-serializable setting; undefined deletes it. */
  setSetting(key: string, value: unknown): Promise<void>;
  /** Reloads from storage (another tab changed it). */
  refresh(): Promise<void>;
  /** Closes the storage connection. */
  close(): void;
  /** Releases the wasm memory now. */
  free(): void;
}

// ---------------------------------------------------------------------------
// Providers

/**
 * A chat model given as a function: return the whole reply (or a Promise of it), or
 * an async iterable of text pieces to stream it. `model` is "small" for routing and
 * classification calls. Honour `signal` if you can.
 */
export type ChatFunction = (
  messages: ChatMessage[],
  options: { signal?: AbortSignal; model: 'main' | 'small' },
) => AsyncIterable<string> | Promise<string> | string;

/**
 * An embedding model given as a function: one vector per text, in order, all of the
 * same length (checked: `embedding-count`, `embedding-dimension`, `embedding-empty`,
 * `embedding-non-finite`).
 */
export type EmbedFunction = (
  texts: string[],
  options: { signal?: AbortSignal },
) => Promise<Float32Array[] | number[][]> | Float32Array[] | number[][];

/**
 * Provider settings. Keys are held in memory only. Unknown keys throw `invalid-option`;
 * a base URL that is not http(s) throws `invalid-provider-config`.
 *
 * `embed`/`chat` functions may be given with any kind: a function replaces the HTTP
 * route for its capability. Function calls get no timeout or retries (they are yours).
 */
export interface ProviderOptions {
  /**
   * "openai" (and compatible servers), "ollama", or "function". Required with a
   * `baseUrl`; optional only when the provider is just `embed`/`chat` functions.
   */
  kind?: 'openai' | 'ollama' | 'function';
  /**
   * Server root. OpenAI: with or without `/v1` (default https://api.openai.com);
   * Ollama: default http://127.0.0.1:11434. A trailing slash is ignored.
   */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer <apiKey>`; no header without it. */
  apiKey?: string;
  /** Embedding model, e.g. "text-embedding-3-small" or "nomic-embed-text". Names a function's model in the model id. */
  embeddingModel?: string;
  /** Main chat model, e.g. "gpt-4o-mini" or "llama3.2". */
  chatModel?: string;
  /** Low-cost chat model for routing and classification; default: the main chat model. */
  smallModel?: string;
  /** Vector length to request (OpenAI `dimensions`) and to expect from every reply. */
  dimensions?: number;
  /** Most texts per embeddings request. Default 64 (OpenAI, functions), 32 (Ollama). */
  batchSize?: number;
  /**
   * Most o200k_base tokens per embeddings request. Default 8,000. A single text over
   * the limit is sent alone; the provider may truncate or reject it (`http-status`).
   */
  maxBatchTokens?: number;
  /** Per-request timeout in milliseconds, reading the reply included. Default 60,000. */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 500, 502, 503, 504, network errors and timeouts. Default 4. */
  maxRetries?: number;
  /** Backoff ceiling of the first retry in milliseconds (doubles per retry, full jitter). Default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts in milliseconds, a Retry-After included. Default 20,000. */
  retryMaxDelayMs?: number;
  /** Embeddings from your own code (an in-browser model, your backend). */
  embed?: EmbedFunction;
  /** Chat replies from your own code. */
  chat?: ChatFunction;
}

export interface EmbedOptions {
  /** Aborts the call and its retries (rejects with an `AbortError`); no request is sent after it fires. */
  signal?: AbortSignal;
  /** Called after each batch with texts done and the total. */
  onProgress?: (done: number, total: number) => void;
}

export interface ChatOptions {
  /** Aborts the call (rejects with an `AbortError`). */
  signal?: AbortSignal;
  /** Called with each streamed piece of the reply, in order. */
  onToken?: (piece: string) => void;
  /** "small" uses `smallModel` (else the main model). Default "main". */
  model?: 'main' | 'small';
}

/**
 * An embedding and chat client over `fetch` (OpenAI-compatible endpoints, Ollama) or
 * your functions: batching, retries with exponential backoff and full jitter on
 * 429/5xx/network errors (honouring Retry-After), per-request timeouts, `AbortSignal`,
 * streamed chat (SSE / NDJSON). Needs `await init()` first in browsers.
 *
 * @throws {DocragError} `invalid-option`, `invalid-provider-config`.
 */
export class Provider {
  constructor(options: ProviderOptions);
  /**
   * The key vectors are stored under: `<kind>:<embeddingModel>[:d<dimensions>]`
   * (`function:<embeddingModel or "custom">` for an embed function); undefined when it cannot embed.
   */
  readonly embeddingModelId: string | undefined;
  /** Whether `chat` can answer. */
  readonly hasChat: boolean;
  /**
   * One vector per text, in order.
   * @throws {DocragError} `http-status`, `rate-limited`, `network`, `timeout`, an `AbortError` when aborted,
   * `malformed-reply`, `embedding-count`, `embedding-dimension`, `embedding-empty`,
   * `embedding-non-finite`, `no-embedding-model`, `provider-function`.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /**
   * The whole reply; streamed pieces go to `onToken` as they arrive. A failure after
   * the first piece is not retried.
   * @throws {DocragError} as `embed`, plus `provider-reported` and `no-chat-model`.
   */
  chat(messages: ChatMessage[], options?: ChatOptions): Promise<string>;
  /** Releases the wasm-side object. */
  free(): void;
}

/**
 * `Collection` run in a Web Worker (browsers): parsing, chunking, token counting and
 * indexing happen off the page's thread, so a large file never freezes the page. The
 * worker opens the same IndexedDB collection, so a `Collection` on the page and a
 * `WorkerCollection` see the same documents. Every method returns a Promise (even
 * those that are synchronous on `Collection`). Callbacks (`onProgress`, `onToken`,
 * `onChange`) and `signal` work across the thread boundary. Provider `embed`/`chat`
 * functions stay on the page (an in-browser model keeps running where it was
 * loaded): the worker calls them back by message, a chat reply streams back piece by
 * piece, and an abort reaches the function's `signal`.
 */
export class WorkerCollection {
  private constructor();
  /**
   * Starts a worker (`worker.js` beside the package's web.js, a module worker) and
   * opens collection `name` in it. `wasmUrl`: where the worker loads the .wasm from
   * (default beside the package); `workerUrl`: the worker script, for unusual hosting.
   * @throws {DocragError} `init-failed` when the worker script cannot be loaded (a
   * bundler that did not emit `docrag/worker.js`, a wrong `workerUrl`).
   */
  static open(name: string, options?: OpenOptions, where?: { workerUrl?: string | URL; wasmUrl?: string | URL; pdfjsUrl?: string | URL }): Promise<WorkerCollection>;
  readonly name: string;
  readonly storage: 'indexeddb' | 'memory';
  documents(): Promise<DocumentInfo[]>;
  chunks(docId: string): Promise<StoredChunk[]>;
  stats(): Promise<{ documents: number; chunks: number; tokens: number; embeddingModels: string[] }>;
  damaged(): Promise<{ docId: string; reason: string }[]>;
  provider(): Promise<{ embeddingModelId: string | null; chat: boolean; smallChat: boolean } | null>;
  getSetting<T = unknown>(key: string): Promise<T | undefined>;
  addFile(file: File | Blob | Uint8Array | ArrayBuffer | string, options?: AddFileOptions): Promise<DocumentInfo>;
  remove(docId: string): Promise<boolean>;
  ask(question: string, options?: AskOptions): Promise<AskResult>;
  /** As `Collection.search()`, run in the worker. */
  search(question: string, options?: CollectionSearchOptions): Promise<CollectionSearchHit[]>;
  summarize(docIds?: string | string[] | null, options?: SummarizeOptions): Promise<Summary>;
  setProvider(provider: ProviderOptions | null, options?: { remember?: boolean }): Promise<void>;
  embedMissing(options?: { signal?: AbortSignal; onProgress?: (p: AddProgress) => void }): Promise<number>;
  /** As `Collection.export()`: the worker writes the Blob and the page receives it. */
  export(options?: ExportOptions): Promise<Blob>;
  setSetting(key: string, value: unknown): Promise<void>;
  refresh(): Promise<void>;
  /** Closes the collection and ends the worker; pending calls reject with `storage-closed`. */
  close(): Promise<void>;
}
