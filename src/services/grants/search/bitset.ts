// Bitsets of 32-bit words (bit i of word i >> 5): the agreements matching a search (memory-search.ts) and the
// texts holding a word (text-match.ts).

/** The set bits of a 32-bit word. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
