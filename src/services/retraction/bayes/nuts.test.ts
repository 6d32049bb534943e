import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../../core/random.ts';
import { sampleChains, sampleChainsInThread, type ChainsResult } from './chains.ts';
import { essBulk, splitRhat } from './diagnostics.ts';
import { curvatureInverseMetric, NutsSampler, type NutsSettings } from './nuts.ts';
import type { Target } from './target.ts';
import { GaussianTarget } from './targets.ts';

const settings: NutsSettings = {
  warmup: 1000,
  draws: 1000,
  maxTreeDepth: 10,
  targetAcceptance: 0.8,
  maxEnergyError: 1000,
  initRadius: 2,
  initialMetric: 'unit',
  adaptation: { initBuffer: 75, termBuffer: 50, baseWindow: 25 },
};

/** Σ_ij = s_i s_j r^|i-j| and its inverse (by Gauss–Jordan; small matrices only). */
function correlatedNormal(scales: number[], r: number): { covariance: Float64Array; precision: Float64Array } {
  const d = scales.length;
  const covariance = new Float64Array(d * d);
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) covariance[i * d + j] = scales[i] * scales[j] * r ** Math.abs(i - j);
  const a = Array.from({ length: d }, (_, i) => [
    ...covariance.slice(i * d, i * d + d),
    ...Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)),
  ]);
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let row = c + 1; row < d; row++) if (Math.abs(a[row][c]) > Math.abs(a[p][c])) p = row;
    [a[c], a[p]] = [a[p], a[c]];
    const pivot = a[c][c];
    for (let k = 0; k < 2 * d; k++) a[c][k] /= pivot;
    for (let row = 0; row < d; row++) {
      if (row === c) continue;
      const f = a[row][c];
      for (let k = 0; k < 2 * d; k++) a[row][k] -= f * a[c][k];
    }
  }
  const precision = new Float64Array(d * d);
  for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) precision[i * d + j] = a[i][d + j];
  return { covariance, precision };
}

function column(result: ChainsResult, index: number, transform: (v: number) => number = (v) => v): Float64Array[] {
  return result.chains.map((c) => {
    const out = new Float64Array(c.draws);
    for (let s = 0; s < c.draws; s++) out[s] = transform(c.samples[s * c.dim + index]);
    return out;
  });
}

function moments(chains: Float64Array[]): { mean: number; sd: number } {
  let n = 0,
    sum = 0,
    sum2 = 0;
  for (const c of chains)
    for (const v of c) {
      n++;
      sum += v;
      sum2 += v * v;
    }
  const mean = sum / n;
  return { mean, sd: Math.sqrt((sum2 - n * mean * mean) / (n - 1)) };
}

/** Mean within 4 Monte Carlo standard errors, sd within 4 (sd of a normal sd estimate ≈ sd / √(2 ESS)), R̂ < 1.01. */
function assertMatches(chains: Float64Array[], mean: number, sd: number, label: string): void {
  const m = moments(chains);
  const ess = essBulk(chains);
  const rhat = splitRhat(chains);
  assert.ok(rhat < 1.01, `${label}: R̂ ${rhat}`);
  assert.ok(ess > 300, `${label}: ESS ${ess}`);
  assert.ok(Math.abs(m.mean - mean) < (4 * sd) / Math.sqrt(ess), `${label}: mean ${m.mean} vs ${mean} (ESS ${ess.toFixed(0)})`);
  assert.ok(Math.abs(m.sd - sd) < (4 * sd) / Math.sqrt(2 * ess), `${label}: sd ${m.sd} vs ${sd} (ESS ${ess.toFixed(0)})`);
}

for (const initialMetric of ['unit', 'curvature'] as const)
  test(`correlated multivariate normal (${initialMetric} start metric): means, sds and a correlation within Monte Carlo error; R̂ < 1.01`, () => {
    const scales = [0.1, 0.5, 1, 3, 10, 30];
    const { covariance, precision } = correlatedNormal(scales, 0.9);
    const mean = Float64Array.from([1, -2, 0.5, 10, -20, 3]);
    const result = sampleChainsInThread(() => new GaussianTarget(mean, precision), {
      chains: 4,
      seed: `mvn-${initialMetric}`,
      settings: { ...settings, initialMetric },
    });
    for (let i = 0; i < scales.length; i++) assertMatches(column(result, i), mean[i], scales[i], `x${i}`);
    // Correlation of x2 and x3 (true 0.9).
    const a = column(result, 2).flatMap((c) => Array.from(c));
    const b = column(result, 3).flatMap((c) => Array.from(c));
    const ma = a.reduce((s, v) => s + v, 0) / a.length;
    const mb = b.reduce((s, v) => s + v, 0) / b.length;
    let sab = 0,
      saa = 0,
      sbb = 0;
    for (let i = 0; i < a.length; i++) {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) ** 2;
      sbb += (b[i] - mb) ** 2;
    }
    assert.ok(Math.abs(sab / Math.sqrt(saa * sbb) - covariance[2 * 6 + 3] / (scales[2] * scales[3])) < 0.03);
    // Adaptation: no divergences, acceptance near its target, metric near the marginal variances.
    for (const chain of result.chains) {
      assert.equal(
        chain.divergent.reduce((s, v) => s + v, 0),
        0,
      );
      const accept = chain.acceptStat.reduce((s, v) => s + v, 0) / chain.draws;
      assert.ok(accept > 0.7 && accept < 0.97, `mean acceptance ${accept}`);
      for (let i = 0; i < scales.length; i++) {
        const ratio = chain.inverseMetric[i] / scales[i] ** 2;
        assert.ok(ratio > 0.6 && ratio < 1.6, `inverse metric ${i}: ${ratio} of the variance`);
      }
    }
  });

test('the curvature start metric is the inverse diagonal precision, capped at 1', () => {
  const precision = Float64Array.from([4, 1, 0, 1, 0.25, 0, 0, 0, 100]);
  const out = new Float64Array(3);
  curvatureInverseMetric(new GaussianTarget(new Float64Array(3), precision), Float64Array.from([0.3, -1, 2]), out);
  assert.ok(Math.abs(out[0] - 0.25) < 1e-8);
  assert.equal(out[1], 1);
  assert.ok(Math.abs(out[2] - 0.01) < 1e-10);
});

/** log λ with λ ~ Gamma(a, b) and y_i ~ Poisson(λ): posterior Gamma(a + Σy, b + n) on λ. */
class PoissonGammaTarget implements Target {
  readonly dim = 1;
  private readonly shape: number;
  private readonly rate: number;
  constructor(a: number, b: number, counts: number[]) {
    this.shape = a + counts.reduce((s, v) => s + v, 0);
    this.rate = b + counts.length;
  }
  logDensityGradient(q: Float64Array, grad: Float64Array): number {
    const lambda = Math.exp(q[0]);
    // (shape − 1) log λ − rate λ, plus the log-Jacobian log λ of sampling log λ.
    grad[0] = this.shape - this.rate * lambda;
    return this.shape * q[0] - this.rate * lambda;
  }
  initialise(rng: Random, radius: number, out: Float64Array): void {
    out[0] = rng.uniform(-radius, radius);
  }
}

test('Poisson–gamma conjugate model: posterior mean and sd of λ within Monte Carlo error', () => {
  const counts = [3, 7, 4, 0, 5, 6, 2, 4, 9, 3, 1, 4];
  const a = 2;
  const b = 0.5;
  const result = sampleChainsInThread(() => new PoissonGammaTarget(a, b, counts), { chains: 4, seed: 'poisson-gamma', settings });
  const shape = a + counts.reduce((s, v) => s + v, 0);
  const rate = b + counts.length;
  assertMatches(column(result, 0, Math.exp), shape / rate, Math.sqrt(shape) / rate, 'lambda');
});

/** Neal's funnel in its centred form: v ~ N(0, 3), x_i ~ N(0, e^{v/2}); the neck makes trajectories diverge. */
class FunnelTarget implements Target {
  readonly dim = 10;
  logDensityGradient(q: Float64Array, grad: Float64Array): number {
    const v = q[0];
    let lp = -(v * v) / 18;
    grad[0] = -v / 9;
    const precision = Math.exp(-v);
    for (let i = 1; i < this.dim; i++) {
      lp += -0.5 * q[i] * q[i] * precision - 0.5 * v;
      grad[i] = -q[i] * precision;
      grad[0] += 0.5 * q[i] * q[i] * precision - 0.5;
    }
    return lp;
  }
  initialise(rng: Random, radius: number, out: Float64Array): void {
    for (let i = 0; i < this.dim; i++) out[i] = rng.uniform(-radius, radius);
  }
}

test('divergent transitions are detected and counted (centred funnel)', () => {
  const result = sampleChainsInThread(() => new FunnelTarget(), {
    chains: 2,
    seed: 'funnel',
    settings: { ...settings, warmup: 300, draws: 500 },
  });
  const total = result.chains.reduce((s, c) => s + c.warmupDivergences + c.divergent.reduce((t, v) => t + v, 0), 0);
  assert.ok(total > 0, 'the funnel neck should produce divergences');
});

test('an unstable step size makes transitions divergent; a stable one never does', () => {
  const target = new GaussianTarget(new Float64Array(2), Float64Array.from([1, 0, 0, 1]));
  const count = (stepSize: number) => {
    const sampler = new NutsSampler(target, new Random(`step-${stepSize}`), 10, 1000);
    sampler.stepSize = stepSize;
    const point = sampler.newPoint();
    point.q.set([0.5, -0.5]);
    sampler.evaluate(point);
    let divergent = 0;
    for (let i = 0; i < 200; i++) if (sampler.transition(point).divergent) divergent++;
    return divergent;
  };
  // Leapfrog on a unit normal is unstable for ε > 2; at ε = 10 the energy grows ~10⁴-fold per step.
  assert.ok(count(10) > 150);
  assert.equal(count(0.5), 0);
});

test('tree depth is capped at maxTreeDepth and saturation shows up', () => {
  const { precision } = correlatedNormal([1, 1, 1, 1], 0.99);
  const result = sampleChainsInThread(() => new GaussianTarget(new Float64Array(4), precision), {
    chains: 2,
    seed: 'depth',
    settings: { ...settings, warmup: 0, draws: 300, maxTreeDepth: 2 },
  });
  let saturated = 0;
  for (const c of result.chains) {
    for (let s = 0; s < c.draws; s++) {
      assert.ok(c.treeDepth[s] <= 2);
      assert.ok(c.leapfrogSteps[s] <= 3, 'depth 2 is at most 1 + 2 leapfrog steps');
      if (c.treeDepth[s] === 2) saturated++;
    }
  }
  assert.ok(saturated > 100, `saturated ${saturated} of 600`);
});

test('worker threads reproduce the single-thread draws exactly; seeds matter', async () => {
  const { precision } = correlatedNormal([1, 2, 3], 0.5);
  const spec = { kind: 'gaussian' as const, mean: Float64Array.from([0, 1, 2]), precision };
  const small = { ...settings, warmup: 100, draws: 100 };
  const single = await sampleChains(spec, { chains: 3, seed: 11, settings: small, parallelism: 'single' });
  const workers = await sampleChains(spec, { chains: 3, seed: 11, settings: small, parallelism: 'workers', maxWorkers: 2 });
  assert.equal(workers.workers, 2);
  for (let c = 0; c < 3; c++) {
    assert.deepEqual(Array.from(workers.chains[c].samples), Array.from(single.chains[c].samples));
    assert.equal(workers.chains[c].stepSize, single.chains[c].stepSize);
  }
  assert.notDeepEqual(Array.from(single.chains[0].samples), Array.from(single.chains[1].samples));
  const other = await sampleChains(spec, { chains: 1, seed: 12, settings: small, parallelism: 'single' });
  assert.notDeepEqual(Array.from(other.chains[0].samples), Array.from(single.chains[0].samples));
});

test('a chain that fails in a worker rejects with its message', async () => {
  const spec = { kind: 'gaussian' as const, mean: Float64Array.from([0, 0]), precision: Float64Array.from([1, 0, 0, 1, 0]) };
  await assert.rejects(
    sampleChains(spec, { chains: 2, seed: 1, settings: { ...settings, warmup: 10, draws: 10 }, parallelism: 'workers', maxWorkers: 1 }),
    /chain 0 failed: precision must be dim × dim/,
  );
});
