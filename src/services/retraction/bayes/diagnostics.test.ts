import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../../core/random.ts';
import { autocovariance, ebfmi, essBasic, essBulk, essTail, rankNormalise, rhatBasic, splitRhat } from './diagnostics.ts';

function iidChains(seed: string, chains: number, n: number, mean = (_c: number) => 0, sd = (_c: number) => 1): Float64Array[] {
  const rng = new Random(seed);
  return Array.from({ length: chains }, (_, c) => Float64Array.from({ length: n }, () => rng.normal(mean(c), sd(c))));
}

function ar1Chains(seed: string, rho: number, chains: number, n: number): Float64Array[] {
  const rng = new Random(seed);
  const innovation = Math.sqrt(1 - rho * rho);
  return Array.from({ length: chains }, () => {
    const x = new Float64Array(n);
    x[0] = rng.normal();
    for (let t = 1; t < n; t++) x[t] = rho * x[t - 1] + innovation * rng.normal();
    return x;
  });
}

test('autocovariance by FFT equals the direct sum', () => {
  const rng = new Random('acov');
  const x = Float64Array.from({ length: 37 }, () => rng.normal());
  const fast = autocovariance(x);
  const mean = x.reduce((s, v) => s + v, 0) / x.length;
  for (const lag of [0, 1, 5, 36]) {
    let s = 0;
    for (let t = 0; t + lag < x.length; t++) s += (x[t] - mean) * (x[t + lag] - mean);
    assert.ok(Math.abs(fast[lag] - s / x.length) < 1e-12);
  }
});

test('R̂ ≈ 1 for independent chains from one distribution', () => {
  const rhat = splitRhat(iidChains('iid', 4, 1000));
  assert.ok(rhat < 1.01 && rhat > 0.99, `R̂ ${rhat}`);
});

test('R̂ is clearly above 1 when one chain sits elsewhere', () => {
  const rhat = splitRhat(iidChains('shift', 4, 1000, (c) => (c === 0 ? 1 : 0)));
  assert.ok(rhat > 1.1, `R̂ ${rhat}`);
});

test('folded R̂ catches chains that differ in scale, not location', () => {
  const chains = iidChains(
    'scale',
    4,
    1000,
    () => 0,
    (c) => (c === 0 ? 3 : 1),
  );
  const split = chains.flatMap((c) => [c.subarray(0, 500), c.subarray(500)]);
  const bulkOnly = rhatBasic(rankNormalise(split));
  assert.ok(bulkOnly < 1.02, `bulk R̂ ${bulkOnly}`);
  assert.ok(splitRhat(chains) > 1.05, `rank-normalised split R̂ ${splitRhat(chains)}`);
});

test('splitting catches a chain that drifts within itself', () => {
  const rng = new Random('drift');
  const chains = Array.from({ length: 4 }, (_, c) =>
    Float64Array.from({ length: 1000 }, (_, t) => rng.normal() + (c === 0 ? (2 * t) / 1000 : 0)),
  );
  assert.ok(splitRhat(chains) > 1.05);
});

test('ESS of AR(1) chains is near n(1−ρ)/(1+ρ), including antithetic chains', () => {
  for (const [rho, tolerance] of [
    [0.5, 0.12],
    [0.9, 0.2],
    [-0.3, 0.12],
  ]) {
    const chains = ar1Chains(`ar1-${rho}`, rho, 4, 5000);
    const expected = (4 * 5000 * (1 - rho)) / (1 + rho);
    const ess = essBasic(chains);
    assert.ok(Math.abs(ess / expected - 1) < tolerance, `ρ = ${rho}: ESS ${ess.toFixed(0)} vs ${expected.toFixed(0)}`);
    const bulk = essBulk(chains);
    assert.ok(Math.abs(bulk / expected - 1) < tolerance + 0.05, `ρ = ${rho}: bulk ESS ${bulk.toFixed(0)} vs ${expected.toFixed(0)}`);
  }
});

test('tail ESS of independent draws is near the number of draws', () => {
  const chains = iidChains('tail', 4, 2000);
  const tail = essTail(chains);
  assert.ok(Math.abs(tail / 8000 - 1) < 0.15, `tail ESS ${tail}`);
  const slow = essTail(ar1Chains('tail-ar', 0.8, 4, 2000));
  assert.ok(slow < 0.5 * 8000, `tail ESS of ρ = 0.8 chains ${slow}`);
});

test('constant quantities give NaN diagnostics rather than numbers', () => {
  const constant = [new Float64Array(100).fill(2), new Float64Array(100).fill(2)];
  assert.ok(Number.isNaN(essBasic(constant)));
  assert.ok(Number.isNaN(rhatBasic(constant)));
});

test('E-BFMI is about 2 for independent energies and small for a random walk', () => {
  const rng = new Random('bfmi');
  const iid = Float64Array.from({ length: 5000 }, () => rng.normal());
  assert.ok(Math.abs(ebfmi(iid) - 2) < 0.1);
  const walk = new Float64Array(5000);
  for (let t = 1; t < walk.length; t++) walk[t] = walk[t - 1] + rng.normal();
  assert.ok(ebfmi(walk) < 0.05);
});
