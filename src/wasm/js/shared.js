// Helpers shared by the node and browser entries. No Node built-ins here: the
// browser entry imports this file.

/**
 * A DocragError: a real Error with name "DocragError" and a stable `code`, shaped
 * like the errors the wasm module throws.
 */
export function docragError(code, message, cause) {
  const err = new Error(message, cause === undefined ? undefined : { cause });
  err.name = 'DocragError';
  err.code = code;
  return err;
}

/** Whether `value` is an error thrown by docrag (as opposed to, say, a names callback). */
export function isDocragError(value) {
  return value instanceof Error && value.name === 'DocragError' && typeof value.code === 'string';
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
