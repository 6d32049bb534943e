import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { VarintReader, varintLength, writeVarint } from './varint.ts';

describe('varint (the postings encoding of C search)', () => {
  it('reads back every list written, each value in the length it announces, at every group boundary', () => {
    const edges = [0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0x1fffff, 0x200000, 0xfffffff, 0x10000000, 0x7fffffff, 0x80000000, 0xffffffff];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...edges), fc.nat({ max: 0xffffffff })), { maxLength: 50 }), (values) => {
        const bytes = new Uint8Array(values.reduce((n, v) => n + varintLength(v), 0));
        let at = 0;
        for (const v of values) {
          const next = writeVarint(bytes, at, v);
          assert.equal(next - at, varintLength(v));
          at = next;
        }
        assert.equal(at, bytes.length);
        const reader = new VarintReader();
        const read: number[] = [];
        while (reader.at < bytes.length) read.push(reader.next(bytes));
        assert.deepEqual(read, values);
      }),
      { numRuns: 500 },
    );
  });
  it('takes 1 to 5 bytes at the 7-bit boundaries', () => {
    assert.deepEqual([0x7f, 0x80, 0x3fff, 0x4000, 0x1fffff, 0x200000, 0xfffffff, 0x10000000].map(varintLength), [1, 2, 2, 3, 3, 4, 4, 5]);
  });
});
