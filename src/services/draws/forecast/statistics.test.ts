import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  conformalHalfWidth,
  fitIsotonic,
  isotonicAt,
  median,
  quantile,
  studentTCentralProbability,
  studentTQuantile,
} from './statistics.ts';

const close = (actual: number, expected: number, tolerance: number, label = ''): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label} ${actual} ≠ ${expected} ± ${tolerance}`);

test('Student t 97.5% quantiles match the printed tables', () => {
  // Standard two-sided 95% critical values (e.g. any statistics table).
  const table: [number, number][] = [
    [1, 12.7062047],
    [2, 4.30265273],
    [3, 3.18244631],
    [4, 2.77644511],
    [5, 2.57058184],
    [10, 2.22813885],
    [30, 2.04227246],
    [100, 1.98397152],
  ];
  for (const [df, t] of table) close(studentTQuantile(0.975, df), t, 1e-6, `df ${df}`);
  close(studentTQuantile(0.975, 100000), 1.959964, 1e-4, 'large df → normal');
});

test('t central probability agrees with closed forms', () => {
  // ν = 1 (Cauchy): P(|T| ≤ t) = 2·atan(t)/π; ν = 2: t/√(2 + t²).
  for (const t of [0.3, 1, 2.5, 10]) {
    close(studentTCentralProbability(t, 1), (2 * Math.atan(t)) / Math.PI, 1e-12, `ν=1 t=${t}`);
    close(studentTCentralProbability(t, 2), t / Math.sqrt(2 + t * t), 1e-12, `ν=2 t=${t}`);
  }
  assert.throws(() => studentTCentralProbability(1, 2.5), RangeError);
});

test('median, type-7 quantile and the conformal rank', () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  // Sorted 1,2,3,4,10; position 4·0.95 = 3.8 → 4 + 0.8·(10 − 4).
  close(quantile([10, 1, 3, 2, 4], 0.95), 8.8, 1e-12);
  assert.equal(quantile([7], 0.95), 7);
  const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1);
  assert.equal(conformalHalfWidth(oneToTwenty), 20, 'n = 20: k = ⌈21·0.95⌉ = 20');
  assert.equal(conformalHalfWidth(Array.from({ length: 39 }, (_, i) => 39 - i)), 38, 'n = 39: k = ⌈40·0.95⌉ = 38');
  assert.equal(conformalHalfWidth(Array.from({ length: 100 }, (_, i) => i + 1)), 96, 'n = 100: k = ⌈101·0.95⌉ = 96');
  assert.equal(conformalHalfWidth([1, 2, 3]), Infinity, 'too few errors for the rank');
});

test('isotonic regression pools adjacent violators into a non-decreasing map', () => {
  const blocks = fitIsotonic([
    { score: 0.1, outcome: false },
    { score: 0.2, outcome: true },
    { score: 0.3, outcome: false },
    { score: 0.6, outcome: true },
    { score: 0.8, outcome: true },
  ]);
  // 0.2 (hit) then 0.3 (miss) violate the order: pooled into one block at rate ½.
  assert.deepEqual(
    blocks.map((b) => [Math.round(b.score * 100) / 100, b.rate, b.n]),
    [
      [0.1, 0, 1],
      [0.25, 0.5, 2],
      [0.7, 1, 2],
    ],
  );
  // Linear between the blocks' mean scores, flat beyond the ends.
  assert.equal(isotonicAt(blocks, 0), 0);
  close(isotonicAt(blocks, 0.475), 0.75, 1e-12);
  assert.equal(isotonicAt(blocks, 0.95), 1);
  // Observations of one score are one block whatever their order: a hit before a miss, or after it, at 0.5.
  for (const order of [
    [true, false],
    [false, true],
  ])
    assert.deepEqual(
      fitIsotonic([{ score: 0.1, outcome: false }, ...order.map((outcome) => ({ score: 0.5, outcome })), { score: 0.9, outcome: true }]),
      [
        { score: 0.1, rate: 0, n: 1 },
        { score: 0.5, rate: 0.5, n: 2 },
        { score: 0.9, rate: 1, n: 1 },
      ],
    );
});
