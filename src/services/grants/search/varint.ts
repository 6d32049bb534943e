// Unsigned integers in 7-bit groups, low group first, the high bit of a byte set when another follows (LEB128): the
// delta-encoded lists of C's in-memory search (the agreements of each text, memory-search.ts; the texts of each
// trigram, text-match.ts). One encoding, written and read here for both.

/** Bytes `value` (0 … 2^32 - 1) takes. */
export function varintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** Writes `value` (0 … 2^32 - 1) at `at`; returns the position after it. */
export function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

/**
 * Reads values one after another from `at` on, which it advances past each: the hot loops of a first search walk
 * lists with one reader (a field and a call V8 inlines, as fast as the loop written out in place).
 */
export class VarintReader {
  at = 0;

  next(bytes: Uint8Array): number {
    let x = bytes[this.at++];
    let value = x & 0x7f;
    for (let shift = 7; x & 0x80; shift += 7) {
      x = bytes[this.at++];
      value |= (x & 0x7f) << shift;
    }
    return value >>> 0; // a fifth group sets bit 31, which `|` leaves as the sign
  }
}
