// Monte Carlo standard errors against closed forms (independent and AR(1) draws) and against their own
// definition: the spread of an estimate over many independent repetitions of the sampling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../../core/random.ts';
import { essMean, mcseMean, mcseProbability, mcseQuantile, mcseSd } from './mcse.ts';
import { betaCdf, betaQuantile, gaussHermite, logGamma, normalQuantile, quantileSorted } from './special.ts';

function ar1Chains(rng: Random, rho: number, chains: number, n: number): Float64Array[] {
  const innovation = Math.sqrt(1 - rho * rho);
  return Array.from({ length: chains }, () => {
    const x = new Float64Array(n);
    x[0] = rng.normal();
    for (let t = 1; t < n; t++) x[t] = rho * x[t - 1] + innovation * rng.normal();
    return x;
  });
}

const within = (value: number, expected: number, tolerance: number, label: string) =>
  assert.ok(Math.abs(value / expected - 1) < tolerance, `${label}: ${value} vs ${expected} (±${tolerance * 100}%)`);

test('regularised incomplete beta equals the binomial tail for integer shapes; the quantile inverts it', () => {
  // I_x(a, b) = P(Binomial(a + b − 1, x) ≥ a) for integer a, b.
  const logTerm = (n: number, k: number, x: number) =>
    logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1) + k * Math.log(x) + (n - k) * Math.log1p(-x);
  for (const [a, b] of [
    [1, 1],
    [3, 7],
    [40, 12],
    [250, 900],
  ]) {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
      let tail = 0;
      const n = a + b - 1;
      for (let j = a; j <= n; j++) tail += Math.exp(logTerm(n, j, x));
      const value = betaCdf(x, a, b);
      assert.ok(
        Math.abs(value - tail) < 1e-12 * Math.max(tail, 1e-300) || Math.abs(value - tail) < 1e-13,
        `I_${x}(${a}, ${b}) = ${value} vs ${tail}`,
      );
    }
    for (const p of [0.158, 0.5, 0.841]) assert.ok(Math.abs(betaCdf(betaQuantile(p, a, b), a, b) - p) < 1e-10);
  }
  assert.equal(betaCdf(0, 2, 3), 0);
  assert.equal(betaCdf(1, 2, 3), 1);
});

test('Gauss–Hermite rules integrate polynomials of degree < 2n exactly', () => {
  for (const n of [1, 5, 15, 40]) {
    const { nodes, weights } = gaussHermite(n);
    // ∫ x^{2m} e^{−x²} dx = Γ(m + ½); odd moments vanish.
    for (let degree = 0; degree < 2 * n; degree++) {
      let sum = 0;
      let scale = 0;
      for (let j = 0; j < n; j++) {
        sum += weights[j] * nodes[j] ** degree;
        scale += Math.abs(weights[j] * nodes[j] ** degree);
      }
      const exact = degree % 2 === 1 ? 0 : Math.exp(logGamma(degree / 2 + 0.5));
      assert.ok(Math.abs(sum - exact) <= 1e-12 * Math.max(scale, exact), `n ${n}, degree ${degree}: ${sum} vs ${exact}`);
    }
  }
});

test('independent draws: MCSEs of the mean, sd and quantiles match their closed forms', () => {
  const rng = new Random('mcse-iid');
  const chains = Array.from({ length: 4 }, () => Float64Array.from({ length: 5000 }, () => rng.normal(2, 3)));
  const N = 20000;
  within(essMean(chains), N, 0.1, 'ESS of the mean');
  within(mcseMean(chains), 3 / Math.sqrt(N), 0.06, 'MCSE of the mean: σ/√N');
  within(mcseSd(chains), 3 / Math.sqrt(2 * N), 0.1, 'MCSE of the sd: σ/√(2N)');
  const sorted = Float64Array.from(chains.flatMap((c) => [...c])).sort();
  for (const p of [0.025, 0.5, 0.975]) {
    // Asymptotic sd of a sample quantile: √(p(1−p)/N) / f(q_p), f the normal density at q_p.
    const z = normalQuantile(p);
    const density = Math.exp(-0.5 * z * z) / (3 * Math.sqrt(2 * Math.PI));
    const r = mcseQuantile(chains, p, sorted);
    within(r.mcse, Math.sqrt((p * (1 - p)) / N) / density, 0.2, `MCSE of the ${p} quantile`);
    const q = quantileSorted(sorted, p);
    assert.ok(r.lower <= q && q <= r.upper, 'the bracketing draws surround the estimate');
  }
  within(
    mcseProbability(chains, (v) => v > 2),
    Math.sqrt(0.25 / N),
    0.1,
    'MCSE of P(x > median): √(p(1−p)/N)',
  );
  assert.equal(
    mcseProbability(chains, (v) => v > 1000),
    0,
    'a probability every draw agrees on',
  );
});

test('AR(1) draws: the MCSE of the mean follows σ²(1+ρ)/((1−ρ)N) and the spread over repetitions', () => {
  const rng = new Random('mcse-ar1');
  const rho = 0.6;
  const chains = 4;
  const n = 1000;
  const N = chains * n;
  const closedForm = Math.sqrt((1 + rho) / (1 - rho) / N);
  const means: number[] = [];
  const meanMcse: number[] = [];
  const sds: number[] = [];
  const sdMcse: number[] = [];
  const medians: number[] = [];
  const medianMcse: number[] = [];
  const reps = 150;
  for (let r = 0; r < reps; r++) {
    const draws = ar1Chains(rng, rho, chains, n);
    const all = Float64Array.from(draws.flatMap((c) => [...c]));
    const m = all.reduce((a, b) => a + b, 0) / N;
    means.push(m);
    sds.push(Math.sqrt(all.reduce((a, b) => a + (b - m) ** 2, 0) / (N - 1)));
    const sorted = all.slice().sort();
    medians.push(quantileSorted(sorted, 0.5));
    meanMcse.push(mcseMean(draws));
    sdMcse.push(mcseSd(draws));
    medianMcse.push(mcseQuantile(draws, 0.5, sorted).mcse);
  }
  const spread = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
  };
  const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  within(average(meanMcse), closedForm, 0.08, 'average MCSE of the mean vs the AR(1) closed form');
  // The sd of 150 estimates is itself uncertain by about 1/√(2·149) ≈ 6%: 20% is three of those.
  within(average(meanMcse), spread(means), 0.2, 'MCSE of the mean vs the spread of the means');
  within(average(sdMcse), spread(sds), 0.2, 'MCSE of the sd vs the spread of the sds');
  within(average(medianMcse), spread(medians), 0.25, 'MCSE of the median vs the spread of the medians');
});

test('a constant quantity has no MCSE', () => {
  const chains = [new Float64Array(100).fill(1), new Float64Array(100).fill(1)];
  assert.ok(Number.isNaN(mcseMean(chains)));
  assert.ok(Number.isNaN(mcseQuantile(chains, 0.5).mcse));
});
