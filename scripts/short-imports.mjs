// Short import names for the wasm module and its JavaScript glue (scripts/build-pkg.mjs).
//
// wasm-bindgen names every function the module imports from its glue
// `__wbg_<name>_<16 hex digits>` (about 150 imports of 30-50 bytes): the names sit in
// the wasm's import section and again as the keys of the glue's import object, and
// their hashes do not compress. This renames them to short names in both, and leaves
// every other byte of the module as it was (the import section is re-encoded, nothing
// else is touched). Measured: 4.6 KB less gzip in the wasm, 2.1 KB in the glue.
//
// WebAssembly binary format (core specification, section 5.5.5 "Import Section"): a
// vector of (module name, field name, import description); names are a LEB128 length
// and UTF-8 bytes.

/** Unsigned LEB128 at `bytes[at]`: `[value, next offset]`. */
function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    if (b === undefined) throw new Error('short-imports: truncated LEB128');
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

function leb(value) {
  const out = [];
  do {
    let b = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return Buffer.from(out);
}

function name(text) {
  const b = Buffer.from(text, 'utf8');
  return Buffer.concat([leb(b.length), b]);
}

/** The end offset of an import description at `at` (kinds: func, table, memory, global, tag). */
function descEnd(bytes, at) {
  const kind = bytes[at++];
  const limits = (p) => {
    const flags = bytes[p++];
    [, p] = readLeb(bytes, p);
    if (flags & 1) [, p] = readLeb(bytes, p);
    return p;
  };
  switch (kind) {
    case 0x00: // function: type index
      return readLeb(bytes, at)[1];
    case 0x01: // table: a one-byte reference type, then limits
      return limits(at + 1);
    case 0x02: // memory: limits
      return limits(at);
    case 0x03: // global: a one-byte value type, then mutability
      return at + 2;
    case 0x04: // tag: attribute, type index
      return readLeb(bytes, at + 1)[1];
    default:
      throw new Error(`short-imports: unknown import kind 0x${kind?.toString(16)}`);
  }
}

/** `a`, `b`, ... `Z`, `$`, `_`, then two characters: the n-th short name. */
function shortName(n) {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$_';
  let s = '';
  do {
    s = chars[n % chars.length] + s;
    n = Math.floor(n / chars.length) - 1;
  } while (n >= 0);
  return s;
}

/**
 * Renames the imports of `module` (from the glue's module `glueModule`) in `wasm` (a
 * Buffer) and in `glue` (the glue's source, where each name must appear exactly once
 * as a whole word, or this throws: a renaming that missed a use would break at run
 * time). Returns `{ wasm, glue, renamed }`.
 */
export function shortenImports(wasm, glue, glueModule) {
  let at = 8;
  const parts = [wasm.subarray(0, 8)];
  let renamed = 0;
  let seen = false;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = readLeb(wasm, at + 1);
    const end = body + size;
    if (id !== 2) {
      parts.push(wasm.subarray(at, end));
      at = end;
      continue;
    }
    seen = true;
    let [count, p] = readLeb(wasm, body);
    const out = [leb(count)];
    for (let i = 0; i < count; i++) {
      let len;
      [len, p] = readLeb(wasm, p);
      const mod = wasm.toString('utf8', p, p + len);
      p += len;
      [len, p] = readLeb(wasm, p);
      const field = wasm.toString('utf8', p, p + len);
      p += len;
      const descStart = p;
      p = descEnd(wasm, p);
      let newField = field;
      if (mod === glueModule) {
        newField = shortName(renamed++);
        // The name as a whole identifier (names are letters, digits, `_` and `$`).
        const word = new RegExp(`(?<![\\w$])${field.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
        const uses = glue.match(word)?.length ?? 0;
        if (uses !== 1) throw new Error(`short-imports: the glue names the import ${field} ${uses} times, expected once`);
        glue = glue.replace(word, newField);
      }
      out.push(name(mod), name(newField), wasm.subarray(descStart, p));
    }
    if (p !== end) throw new Error('short-imports: the import section has trailing bytes');
    const section = Buffer.concat(out);
    parts.push(Buffer.from([2]), leb(section.length), section);
    at = end;
  }
  if (!seen) throw new Error('short-imports: the module has no import section');
  return { wasm: Buffer.concat(parts), glue, renamed };
}
