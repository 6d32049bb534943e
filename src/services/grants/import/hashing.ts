// The importer's hashes: a text's 96-bit fingerprint (the text dictionary's key) and a row's content hash (what
// tells an unchanged agreement from an updated one), three 32-bit multiplicative lanes fed without allocating.
import { DATA_COLUMNS, SEARCHED_COLUMNS } from '../tables.ts';

/** Where the searched texts sit among the data columns: the text's number (1-based), 0 for another column. */
const TEXT_NUMBER_OF_COLUMN = new Uint8Array(DATA_COLUMNS.length);
SEARCHED_COLUMNS.forEach(({ column }, j) => (TEXT_NUMBER_OF_COLUMN[DATA_COLUMNS.indexOf(column)] = j + 1));

/** A 32-bit finaliser: spreads every input bit over the whole word. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

// Three 32-bit multiplicative hashes of UTF-16 code units (distinct odd multipliers and seeds), kept in
// `lanes` so that a text or a whole row can be fed through them without allocating.
const lanes = new Int32Array(3);

function startLanes(): void {
  lanes[0] = 0x811c9dc5;
  lanes[1] = 0x9e3779b9;
  lanes[2] = 0x27d4eb2f;
}

function feedUnit(u: number): void {
  lanes[0] = Math.imul(lanes[0] ^ u, 0x01000193);
  lanes[1] = Math.imul(lanes[1] ^ u, 0x5bd1e995);
  lanes[2] = Math.imul(lanes[2] ^ u, 0xcc9e2d51);
}

function feedText(text: string): void {
  let a = lanes[0];
  let b = lanes[1];
  let c = lanes[2];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ u, 0x5bd1e995);
    c = Math.imul(c ^ u, 0xcc9e2d51);
  }
  lanes[0] = a;
  lanes[1] = b;
  lanes[2] = c;
}

/** A text's fingerprint into `out`: a 64-bit key (out[0] low, out[1] high word) and a 32-bit check. */
export type Fingerprinter = (text: string, out: Uint32Array) => void;

export const fingerprint: Fingerprinter = (text, out) => {
  startLanes();
  feedText(text);
  out[0] = mix32(lanes[0]);
  out[1] = mix32(lanes[1]);
  out[2] = mix32(lanes[2] ^ text.length);
};

// Markers fed between and for values: above every UTF-16 code unit, so no text can imitate them.
const END_OF_VALUE = 0x10001;
const NULL_VALUE = 0x10002;
const BASE64URL = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', (ch) => ch.charCodeAt(0));

/**
 * The content hash of a row's first `count` values (96 bits in 16 base64url characters): what an import
 * compares to tell an unchanged agreement from an updated one. With `prints`, the values are the data
 * columns (DATA_COLUMNS order; the k-th at `positions[k]` when given) and the searched texts' columns enter as
 * their fingerprints (the k-th text's at 3k, 3k + 1, 3k + 2). Not cryptographic, and need not be:
 * two different rows of one agreement agreeing on 96 bits would only count an update as unchanged (the row is
 * written either way). Cheaper for the writing thread than a sha1 of the joined values, and allocating only
 * its result. (Rows stored with a sha1 hash count as updated at the next import.)
 */
export function rowHash(values: readonly unknown[], count: number, prints?: Uint32Array, positions?: Uint8Array): string {
  startLanes();
  for (let k = 0; k < count; k++) {
    const value = values[positions ? positions[k] : k];
    const text = prints ? TEXT_NUMBER_OF_COLUMN[k] : 0;
    if (text > 0) {
      for (let w = 3 * text - 3; w < 3 * text; w++) feedUnit(prints![w]);
    } else if (typeof value === 'string') feedText(value);
    else if (value === null || value === undefined) feedUnit(NULL_VALUE);
    else feedText(String(value));
    feedUnit(END_OF_VALUE);
  }
  // 16 base64url characters, six bits each (one string built at once: Number#toString cost a third as much as the hashing)
  const a = mix32(lanes[0]);
  const b = mix32(lanes[1]);
  const c = mix32(lanes[2]);
  const d = BASE64URL;
  return String.fromCharCode(
    d[a & 63],
    d[(a >>> 6) & 63],
    d[(a >>> 12) & 63],
    d[(a >>> 18) & 63],
    d[(a >>> 24) & 63],
    d[((a >>> 30) | (b << 2)) & 63],
    d[(b >>> 4) & 63],
    d[(b >>> 10) & 63],
    d[(b >>> 16) & 63],
    d[(b >>> 22) & 63],
    d[((b >>> 28) | (c << 4)) & 63],
    d[(c >>> 2) & 63],
    d[(c >>> 8) & 63],
    d[(c >>> 14) & 63],
    d[(c >>> 20) & 63],
    d[(c >>> 26) & 63],
  );
}
