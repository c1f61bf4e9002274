// Type-checked against the packed package by scripts/check-types.mjs under
// moduleResolution bundler and node16, strict, skipLibCheck false. Each line marked
// ts-expect-error is a mistake the types must reject (tsc fails if they accept it).
import {
  convert,
  init,
  isDocragError,
  SYSTEM_MESSAGE,
  systemMessage,
  version,
  type ChunkMetadata,
  type ConversionResult,
  type ConvertOptions,
  type DocragErrorCode,
  type Names,
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
