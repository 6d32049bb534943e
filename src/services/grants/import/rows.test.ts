import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DATA_COLUMNS, SEARCHED_COLUMNS } from '../tables.ts';
import { rowHash } from './hashing.ts';
import { PARAMS_PER_ROW, ROW_COLUMNS, completeRows } from './rows.ts';
import { TextDictionary } from './text-dictionary.ts';

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
  assert.match(rowHash(['x'], 1), /^[A-Za-z0-9_-]{16}$/);
});

test('completeRows: the content hash follows the values, not the dictionary ids they were given, nor the row layout', () => {
  const valueOf = (title: string) => (c: string) =>
    c === 'agreement_title_en' ? title : c === 'agreement_value_cents' ? 100 : `${c} value`;
  const row = (title: string) => [...ROW_COLUMNS.map(valueOf(title)), ''];
  const fresh = new TextDictionary();
  const used = new TextDictionary();
  completeRows({ rows: [row('another title'), row('a third')] }, used); // other texts took the first ids
  const a = { rows: [row('a title')] };
  const b = { rows: [row('a title')] };
  completeRows(a, fresh);
  completeRows(b, used);
  const hashSlot = PARAMS_PER_ROW - 1;
  const idSlots = [hashSlot - SEARCHED_COLUMNS.length, hashSlot] as const;
  assert.ok(
    a.rows[0].slice(...idSlots).every((id) => typeof id === 'number'),
    'the texts are replaced by their ids',
  );
  assert.notDeepEqual(a.rows[0].slice(...idSlots), b.rows[0].slice(...idSlots));
  assert.equal(a.rows[0][hashSlot], b.rows[0][hashSlot]);
  const c = { rows: [row('a title!')] };
  completeRows(c, fresh);
  assert.notEqual(c.rows[0][hashSlot], a.rows[0][hashSlot]);
  // the hash of the values in DATA_COLUMNS order, the texts as their fingerprints: what rows stored before the
  // texts moved to the end of a row (and out of the table) carry, so that a re-import finds them unchanged
  const prints = new Uint32Array(3 * SEARCHED_COLUMNS.length);
  const printer = new TextDictionary();
  SEARCHED_COLUMNS.forEach(({ column }, j) => {
    printer.idOf(String(valueOf('a title')(column)));
    prints.set(printer.lastPrint, 3 * j);
  });
  assert.equal(a.rows[0][hashSlot], rowHash(DATA_COLUMNS.map(valueOf('a title')), DATA_COLUMNS.length, prints));
});
