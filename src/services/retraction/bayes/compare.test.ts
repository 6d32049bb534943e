// loo_compare against its definition on hand-checkable numbers, and the reason pairing matters.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looCompare } from './compare.ts';

test('loo_compare: ordered by elpd, elpd_diff and se_diff from the paired pointwise differences', () => {
  const a = [-1, -2, -3, -4];
  const b = [-1.5, -2, -2.5, -5]; // Σ −11, the worse
  const rows = looCompare([
    { label: 'b', pointwise: b },
    { label: 'a', pointwise: a },
  ]);
  assert.deepEqual(
    rows.map((r) => r.label),
    ['a', 'b'],
  );
  assert.deepEqual([rows[0].elpdDiff, rows[0].seDiff], [0, 0]);
  // Differences b − a: −0.5, 0, 0.5, −1; sum −1, mean −0.25, sample variance (0.0625 + 0.0625 + 0.5625 + 0.5625)/3.
  assert.equal(rows[1].elpdDiff, -1);
  assert.ok(Math.abs(rows[1].seDiff - Math.sqrt((4 * 1.25) / 3)) < 1e-12);
  assert.equal(rows[0].elpdLoo, -10);
  // elpd_loo's own SE: √n · sd of the pointwise terms, as loo prints it.
  assert.ok(Math.abs(rows[0].elpdLooSe - Math.sqrt((4 * 5) / 3)) < 1e-12);
  assert.throws(
    () =>
      looCompare([
        { label: 'x', pointwise: [1] },
        { label: 'y', pointwise: [1, 2] },
      ]),
    /observations/,
  );
  assert.deepEqual(looCompare([]), []);
});

test('pairing: a shift shared by every observation cancels in se_diff but not in the separate SEs', () => {
  const base = Array.from({ length: 200 }, (_, i) => -2 - 3 * Math.sin(i));
  const better = base.map((v, i) => v + 0.05 + 0.01 * Math.cos(7 * i));
  const [best, other] = looCompare([
    { label: 'base', pointwise: base },
    { label: 'better', pointwise: better },
  ]);
  assert.equal(best.label, 'better');
  assert.ok(other.elpdDiff < 0 && other.seDiff < 0.2, `se_diff ${other.seDiff}`);
  // Judged by the separate SEs, the difference (10) would look like noise next to them (≈ 30 each).
  assert.ok(best.elpdLooSe > 20 && -other.elpdDiff / other.seDiff > 40);
});
