import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from './random.ts';

function moments(draw: () => number, n: number): { mean: number; variance: number } {
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < n; i++) {
    const x = draw();
    sum += x;
    sumSq += x * x;
  }
  const mean = sum / n;
  return { mean, variance: sumSq / n - mean * mean };
}

test('same seed gives the same stream; different seeds differ', () => {
  const a = new Random(42);
  const b = new Random(42);
  const c = new Random(43);
  const sa = Array.from({ length: 5 }, () => a.next());
  assert.deepEqual(
    sa,
    Array.from({ length: 5 }, () => b.next()),
  );
  assert.notDeepEqual(
    sa,
    Array.from({ length: 5 }, () => c.next()),
  );
  assert.deepEqual(new Random('x').next(), new Random('x').next());
});

test('uniform, normal, gamma, poisson and negative binomial have the right first two moments', () => {
  const r = new Random(7);
  const n = 200_000;
  const u = moments(() => r.next(), n);
  assert.ok(Math.abs(u.mean - 0.5) < 0.005 && Math.abs(u.variance - 1 / 12) < 0.002);
  const z = moments(() => r.normal(3, 2), n);
  assert.ok(Math.abs(z.mean - 3) < 0.02 && Math.abs(z.variance - 4) < 0.06);
  for (const [shape, rate] of [
    [0.5, 2],
    [2, 0.1],
    [9, 3],
  ]) {
    const g = moments(() => r.gamma(shape, rate), n);
    assert.ok(Math.abs(g.mean / (shape / rate) - 1) < 0.02, `gamma mean ${shape},${rate}`);
    assert.ok(Math.abs(g.variance / (shape / rate ** 2) - 1) < 0.05, `gamma variance ${shape},${rate}`);
  }
  for (const lambda of [0.7, 12, 85, 2000]) {
    const p = moments(() => r.poisson(lambda), n);
    assert.ok(Math.abs(p.mean / lambda - 1) < 0.01, `poisson mean ${lambda}: ${p.mean}`);
    assert.ok(Math.abs(p.variance / lambda - 1) < 0.03, `poisson variance ${lambda}: ${p.variance}`);
  }
  const nb = moments(() => r.negBinomial(20, 4), n);
  assert.ok(Math.abs(nb.mean / 20 - 1) < 0.02);
  assert.ok(Math.abs(nb.variance / (20 + 400 / 4) - 1) < 0.05);
});

test('int covers both ends and weightedIndex follows the weights', () => {
  const r = new Random(1);
  const seen = new Set<number>();
  for (let i = 0; i < 1000; i++) seen.add(r.int(1, 6));
  assert.deepEqual([...seen].sort(), [1, 2, 3, 4, 5, 6]);
  const counts = [0, 0, 0];
  for (let i = 0; i < 30_000; i++) counts[r.weightedIndex([1, 2, 7])]++;
  assert.ok(Math.abs(counts[2] / 30_000 - 0.7) < 0.015);
  assert.equal(
    counts.reduce((a, b) => a + b),
    30_000,
  );
});
