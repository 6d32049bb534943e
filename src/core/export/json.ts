// Streamed JSON document: `{ ...head, "<arrayKey>": [ ...rows ], ...tail }`, where the rows are pulled one at a
// time and `tail` is computed after the last row (e.g. totals gathered while the rows went by).
//
// Every key and value is serialised by JSON.stringify, so the output is valid JSON for any string: quotes,
// control characters and lone surrogates come out escaped (`\ud800`, ES2019 well-formed stringify), and
// U+2028/U+2029 stay as raw characters, which RFC 8259 allows and JSON.parse reads back unchanged. The text
// is byte-for-byte what JSON.stringify(wholeObject) (or JSON.stringify(wholeObject, null, indent) with
// `pretty`) would give, without ever holding the whole object.

import { Readable } from 'node:stream';
import { CHUNK_CHARS } from './cells.ts';
import type { RowSource } from './cells.ts';

type Fields = Record<string, unknown>;

export interface JsonDocumentOptions<Row> {
  /** Fields written before the array, in order. */
  head?: Fields;
  /** Key of the streamed array. */
  arrayKey: string;
  rows: RowSource<Row>;
  /** Fields written after the array; called once the last row has been written. */
  tail?: (info: { rowCount: number }) => Fields | Promise<Fields>;
  /** Indent: true = 2 spaces, or a number of spaces (meant for small documents such as one KRT table). */
  pretty?: boolean | number;
}

export async function* jsonChunks<Row>(options: JsonDocumentOptions<Row>): AsyncGenerator<Buffer, void, undefined> {
  const indent =
    options.pretty === true ? 2 : typeof options.pretty === 'number' ? Math.max(0, Math.min(10, Math.floor(options.pretty))) : 0;
  // Structural whitespace exactly as JSON.stringify(value, null, indent) lays it out.
  const nl1 = indent > 0 ? '\n' + ' '.repeat(indent) : '';
  const nl2 = indent > 0 ? '\n' + ' '.repeat(2 * indent) : '';
  const colon = indent > 0 ? ': ' : ':';
  // A nested value's own line breaks need the depth at which it sits; JSON.stringify never puts a raw line
  // break inside a string, so every '\n' in its output is structural.
  const nest = (json: string, pad: string): string => (indent > 0 && json.includes('\n') ? json.replaceAll('\n', pad) : json);

  const seen = new Set<string>();
  let fieldCount = 0;
  const field = (key: string, value: unknown): string | undefined => {
    const json = JSON.stringify(value, null, indent);
    if (json === undefined) return undefined; // undefined, functions, symbols: omitted, as JSON.stringify does
    if (seen.has(key)) throw new Error(`JSON export: duplicate key ${JSON.stringify(key)}`);
    seen.add(key);
    return (fieldCount++ === 0 ? '' : ',') + nl1 + JSON.stringify(key) + colon + nest(json, nl1);
  };

  if (options.head && Object.hasOwn(options.head, options.arrayKey)) {
    throw new Error(`JSON export: head must not contain the array key ${JSON.stringify(options.arrayKey)}`);
  }

  let pending = '{';
  for (const [key, value] of Object.entries(options.head ?? {})) pending += field(key, value) ?? '';
  seen.add(options.arrayKey);
  pending += (fieldCount++ === 0 ? '' : ',') + nl1 + JSON.stringify(options.arrayKey) + colon + '[';

  let rowCount = 0;
  for await (const row of options.rows) {
    // Inside an array, values JSON.stringify cannot represent become null.
    const json = JSON.stringify(row, null, indent) ?? 'null';
    pending += (rowCount === 0 ? '' : ',') + nl2 + nest(json, nl2);
    rowCount++;
    if (pending.length >= CHUNK_CHARS) {
      yield Buffer.from(pending, 'utf8');
      pending = '';
    }
  }
  pending += (rowCount === 0 ? '' : nl1) + ']';

  const tail = options.tail ? await options.tail({ rowCount }) : {};
  for (const [key, value] of Object.entries(tail)) pending += field(key, value) ?? '';
  pending += (indent > 0 ? '\n' : '') + '}';
  yield Buffer.from(pending, 'utf8');
}

/** The JSON document as a byte stream, ready for `reply.send()`. */
export function jsonReadable<Row>(options: JsonDocumentOptions<Row>): Readable {
  return Readable.from(jsonChunks(options), { objectMode: false });
}
