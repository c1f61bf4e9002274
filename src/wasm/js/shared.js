// Helpers shared by the node and browser entries. No Node built-ins here: the
// browser entry imports this file.

/**
 * Every error docrag throws (other than an abort): `code` is stable (see
 * `DocragErrorCode` in index.d.ts), `cause` the underlying error when there is one,
 * and where it happened when known: `option` (an invalid option), `part` (a package
 * part such as `word/document.xml`) and `position` (a byte offset in that part).
 * Errors made by the wasm module are instances too (the entries register this class
 * with it); `instanceof` also recognises a DocragError from another copy of the
 * package by its shape.
 */
export class DocragError extends Error {
  constructor(code, message, options) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DocragError';
    this.code = code;
    for (const key of ['option', 'part', 'position']) {
      if (options?.[key] !== undefined) this[key] = options[key];
    }
  }

  static [Symbol.hasInstance](value) {
    return value instanceof Error && value.name === 'DocragError' && typeof value.code === 'string';
  }
}

/** A DocragError (kept for the entries' existing call sites). */
export function docragError(code, message, cause) {
  return new DocragError(code, message, cause === undefined ? undefined : { cause });
}

/**
 * The error an aborted call rejects with: a `DOMException` named `AbortError`, as
 * `fetch` and `AbortSignal.throwIfAborted()` throw, whose `cause` is the DocragError
 * with code `aborted`.
 */
export function abortError(message = 'the operation was aborted by its AbortSignal') {
  const err = new DOMException(message, 'AbortError');
  Object.defineProperty(err, 'cause', { value: new DocragError('aborted', message), configurable: true, writable: true });
  return err;
}

/** Whether `value` has an AbortSignal's shape (`aborted` and `addEventListener`). */
export function isAbortSignal(value) {
  return typeof value === 'object' && value !== null && 'aborted' in value && typeof value.addEventListener === 'function';
}

/** `init({onProgress, signal})`: an options bag where the input would be. */
export function isInitOptions(value) {
  return (
    value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype &&
    ('onProgress' in value || 'signal' in value || 'pdfjs' in value)
  );
}

/** Whether `value` is an error thrown by docrag (as opposed to, say, a names callback). */
export function isDocragError(value) {
  return value instanceof DocragError;
}

/** Whether `value` is the rejection of an aborted docrag call. */
export function isAbortError(value) {
  return value instanceof DOMException && value.name === 'AbortError';
}

/** A readable description of what `init` was asked to load, for error messages. */
export function describeSource(source) {
  if (source instanceof URL) return source.href;
  if (typeof source === 'string') return source;
  if (typeof Request !== 'undefined' && source instanceof Request) return source.url;
  if (typeof Response !== 'undefined' && source instanceof Response) return source.url || 'a Response';
  if (source instanceof WebAssembly.Module) return 'a WebAssembly.Module';
  if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer) return `${source.byteLength} bytes`;
  return String(source);
}
