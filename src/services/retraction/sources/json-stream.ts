// Streamed reading of the JSON files citation sources publish, one element at a time, without a JSON
// streaming library: a top-level array (`[{…}, {…}]`), an API page (`{"results": [{…}], "meta": …}`), or
// JSON Lines (one object per line, as in the OpenAlex snapshot). A scanner tracks strings and nesting to find
// where each element ends and hands its text to JSON.parse, so only one element is held at a time.
import fs from 'node:fs';
import { TruncatedSourceError } from '../../../core/import.ts';
import { parseSourceJson } from '../../../core/source-text.ts';

/** Keys of a wrapper object whose array holds the elements (OpenAlex API pages use "results"). */
const WRAPPER_KEYS = new Set(['results', 'works', 'citations', 'data', 'items']);

class JsonFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonFormatError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const NEWLINE = 0x0a;

/**
 * Yields each object element of the file: the objects of a top-level array or of a wrapper object's array
 * (keys results, works, citations, data, items), or else every top-level object (JSON Lines, or one object).
 * Throws JsonFormatError on text that is not JSON, and TruncatedSourceError (naming the last line) when the
 * file ends inside a value: a document that does not close was cut short.
 */
export async function* jsonElements(file: string | AsyncIterable<string>): AsyncGenerator<unknown, void, undefined> {
  const name = typeof file === 'string' ? file : 'JSON input';
  const input: AsyncIterable<string> =
    typeof file === 'string' ? fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }) : file;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Depth (before entering) at which an '{' begins an element; 0 = top-level objects. */
  let elementDepth: number | null = 0;
  /** Depth of the wrapper's element array once found (its children start at this depth). */
  let wrapperArrayDepth: number | null = null;
  let capturing = false;
  let topLevelCapture = false;
  let parts: string[] = [];
  let captureStart = 0;
  let keyCapture = false;
  let keyParts: string[] = [];
  let keyStart = 0;
  let lastKey = '';
  let line = 1;
  const ready: unknown[] = [];

  const parse = (text: string) => {
    try {
      return parseSourceJson(text);
    } catch (error) {
      throw new JsonFormatError(`${name}: an element is not valid JSON (${(error as Error).message})`);
    }
  };

  for await (const chunk of input) {
    captureStart = 0;
    keyStart = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === NEWLINE) line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) {
          inString = false;
          if (keyCapture) {
            keyParts.push(chunk.slice(keyStart, i));
            lastKey = keyParts.join('');
            keyParts = [];
            keyCapture = false;
          }
        }
        continue;
      }
      switch (c) {
        case QUOTE:
          inString = true;
          // Strings directly inside a top-level object may be the wrapper's key.
          if (topLevelCapture && depth === 1) {
            keyCapture = true;
            keyParts = [];
            keyStart = i + 1;
          }
          break;
        case OPEN_OBJECT:
          if (!capturing && elementDepth === depth) {
            capturing = true;
            topLevelCapture = depth === 0;
            parts = [];
            captureStart = i;
          }
          depth++;
          break;
        case OPEN_ARRAY:
          if (depth === 0 && !capturing) {
            elementDepth = 1; // a top-level array of elements
          } else if (topLevelCapture && depth === 1 && WRAPPER_KEYS.has(lastKey) && wrapperArrayDepth === null) {
            // The top-level object is a wrapper: its array holds the elements; the wrapper itself is not one.
            capturing = false;
            topLevelCapture = false;
            parts = [];
            wrapperArrayDepth = 2;
            elementDepth = 2;
          }
          depth++;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          depth--;
          if (depth < 0) throw new JsonFormatError(`${name}: unbalanced brackets`);
          if (capturing && depth === elementDepth && c === CLOSE_OBJECT) {
            parts.push(chunk.slice(captureStart, i + 1));
            ready.push(parse(parts.join('')));
            parts = [];
            capturing = false;
            topLevelCapture = false;
          } else if (wrapperArrayDepth !== null && c === CLOSE_ARRAY && depth === wrapperArrayDepth - 1) {
            elementDepth = null; // the wrapper's array closed; the rest of the wrapper is metadata
          } else if (depth === 0 && wrapperArrayDepth !== null) {
            wrapperArrayDepth = null; // the wrapper closed: a following top-level value starts afresh
            elementDepth = 0;
          } else if (depth === 0 && c === CLOSE_ARRAY) {
            elementDepth = 0;
          }
          break;
        default:
          break;
      }
    }
    if (capturing) parts.push(chunk.slice(captureStart));
    if (keyCapture) keyParts.push(chunk.slice(keyStart));
    while (ready.length) yield ready.shift();
  }
  if (depth !== 0 || inString)
    throw new TruncatedSourceError(name, `line ${line}: the JSON ends inside ${inString ? 'a string' : `${depth} unclosed bracket(s)`}`);
}
