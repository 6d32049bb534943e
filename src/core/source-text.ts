// Text of a source file made storable. A NUL (U+0000) cannot be stored in a PostgreSQL text column (the whole
// import failed with "invalid byte sequence for encoding UTF8: 0x00", naming no row) while SQLite keeps it, so
// the two databases would differ; no real source means one. Every importer reads it as U+FFFD, the replacement
// character, so an import stores the same text on both databases and shows where the damage was.

const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

/** Raw text (a CSV cell, a whole CSV): every NUL as U+FFFD. */
export function storableText(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
}

// The escape \u0000 inside a JSON string, not preceded by an odd number of backslashes (`\\u0000` is a
// backslash followed by the letters u0000).
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * JSON text parsed with every NUL of its strings as U+FFFD: the escape `\u0000` and a raw NUL (which JSON does
 * not allow in a string: read as the damaged character it is rather than failing the file). With `source`, a
 * syntax error names it ("x.json is not valid JSON: Unexpected end of JSON input").
 */
export function parseSourceJson(text: string, source?: string): unknown {
  let clean = storableText(text);
  if (clean.includes('\\u0000')) clean = clean.replace(NUL_ESCAPE, '$1\\uFFFD');
  try {
    return JSON.parse(clean);
  } catch (error) {
    if (source === undefined || !(error instanceof SyntaxError)) throw error;
    throw new SyntaxError(`${source} is not valid JSON: ${error.message}`);
  }
}

/**
 * A string that holds no other, to keep: a cell cut from a parsed chunk of a file is a slice of the chunk, and
 * keeping the slice (in a map, a cache) keeps the whole chunk alive. V8 copies strings under 13 characters
 * when slicing; a longer one is copied here, exactly (lone surrogates included).
 */
export function ownCopy(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}
