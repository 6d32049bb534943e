import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { rowHash } from './import-rows.ts';

test('rowHash: equal rows hash equally; a changed value, a moved boundary or null against "" changes the hash', () => {
  // a column holds one type (a number column numbers): the rows here are texts and nulls, numbers below
  const value = fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null));
  fc.assert(
    fc.property(fc.array(value, { minLength: 1, maxLength: 5 }), fc.array(value, { minLength: 1, maxLength: 5 }), (a, b) => {
      const same = a.length === b.length && a.every((v, k) => v === b[k]);
      assert.equal(rowHash(a, a.length) === rowHash(b, b.length), same);
    }),
    { numRuns: 2000 },
  );
  assert.notEqual(rowHash(['ab', 'c'], 2), rowHash(['a', 'bc'], 2));
  assert.notEqual(rowHash([null], 1), rowHash([''], 1));
  assert.notEqual(rowHash([1, 20], 2), rowHash([12, 0], 2));
  assert.notEqual(rowHash([150000000], 1), rowHash([150000001], 1));
  assert.equal(rowHash(['x', 1, 'ignored'], 2), rowHash(['x', 1, 'other'], 2));
  assert.match(rowHash(['x'], 1), /^[0-9a-f]{24}$/);
});
