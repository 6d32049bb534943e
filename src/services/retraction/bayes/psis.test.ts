import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../../core/random.ts';
import { countParetoK, fitGeneralisedPareto, generalisedParetoQuantile, psis, psisLoo } from './psis.ts';

test('generalised Pareto fit recovers the shape of GPD samples', () => {
  for (const k of [0.2, 0.5, 0.9]) {
    const rng = new Random(`gpd-${k}`);
    const x = Float64Array.from({ length: 3000 }, () => generalisedParetoQuantile(rng.next(), k, 2)).sort();
    const fit = fitGeneralisedPareto(x, false);
    assert.ok(Math.abs(fit.k - k) < 0.08, `k ${fit.k} vs ${k}`);
    assert.ok(Math.abs(fit.sigma / 2 - 1) < 0.15, `sigma ${fit.sigma}`);
  }
});

test('PSIS k-hat matches the tail index of Pareto importance ratios', () => {
  // Ratios r = U^(−k) have a Pareto tail with shape k. PSIS shrinks the estimate from its M tail draws
  // toward 0.5 with weight 10/(M + 10), so that is the value to expect.
  const M = Math.ceil(Math.min(0.2 * 4000, 3 * Math.sqrt(4000)));
  for (const k of [0.3, 0.7, 1.3]) {
    const expected = (M * k + 5) / (M + 10);
    let sum = 0;
    const replications = 40;
    for (let rep = 0; rep < replications; rep++) {
      const rng = new Random(`pareto-${k}-${rep}`);
      const logRatios = Float64Array.from({ length: 4000 }, () => -k * Math.log(rng.nextOpen()));
      sum += psis(logRatios).k;
    }
    const mean = sum / replications;
    assert.ok(Math.abs(mean - expected) < 0.05, `mean k-hat ${mean} vs ${expected} (k = ${k})`);
  }
});

test('PSIS keeps the body of the weights, smooths the tail monotonically and truncates it at the largest raw ratio', () => {
  const rng = new Random('weights');
  const S = 1000;
  const logRatios = Float64Array.from({ length: S }, () => 2 * rng.normal());
  const { logWeights, tailLength } = psis(logRatios);
  assert.equal(tailLength, Math.ceil(Math.min(0.2 * S, 3 * Math.sqrt(S))));
  const total = logWeights.reduce((sum, v) => sum + Math.exp(v), 0);
  assert.ok(Math.abs(total - 1) < 1e-12);
  const order = Array.from({ length: S }, (_, i) => i).sort((a, b) => logRatios[a] - logRatios[b]);
  const offset = logWeights[order[0]] - logRatios[order[0]];
  const maxRaw = logRatios[order[S - 1]];
  for (let r = 0; r < S; r++) {
    const s = order[r];
    if (r < S - tailLength) assert.ok(Math.abs(logWeights[s] - offset - logRatios[s]) < 1e-9, 'body weights are the raw ratios');
    else {
      assert.ok(logWeights[s] - offset <= maxRaw + 1e-9, 'tail weights do not exceed the largest raw ratio');
      assert.ok(logWeights[s] >= logWeights[order[r - 1]] - 1e-12, 'smoothed tail keeps the order');
    }
  }
  // Smoothing changed the tail.
  const changed = order.slice(S - tailLength).filter((s) => Math.abs(logWeights[s] - offset - logRatios[s]) > 1e-6).length;
  assert.ok(changed > tailLength / 2);
});

test('Pareto k counts use the 0.5, 0.7 and 1 boundaries', () => {
  assert.deepEqual(countParetoK([0.1, 0.5, 0.51, 0.7, 0.71, 1, 1.01, Infinity]), { good: 2, ok: 2, bad: 2, veryBad: 2 });
});

test('PSIS-LOO equals exact leave-one-out for a conjugate normal mean', () => {
  // y_i ~ N(μ, 1), μ ~ N(0, 10²). Posterior and each leave-one-out posterior are normal in closed form.
  const rng = new Random('loo');
  const n = 30;
  const y = Array.from({ length: n }, () => rng.normal(1.5, 1));
  const priorPrecision = 1 / 100;
  const post = (values: number[]) => {
    const precision = priorPrecision + values.length;
    return { mean: values.reduce((s, v) => s + v, 0) / precision, variance: 1 / precision };
  };
  const full = post(y);
  const S = 4000;
  const mu = Float64Array.from({ length: S }, () => rng.normal(full.mean, Math.sqrt(full.variance)));
  const logNormal = (x: number, m: number, v: number) => -0.5 * Math.log(2 * Math.PI * v) - (x - m) ** 2 / (2 * v);
  const { summary, pointwise, waic } = psisLoo(n, S, 4, (i, out) => {
    for (let s = 0; s < S; s++) out[s] = logNormal(y[i], mu[s], 1);
  });
  let exact = 0;
  for (let i = 0; i < n; i++) {
    const loo = post(y.filter((_, j) => j !== i));
    exact += logNormal(y[i], loo.mean, 1 + loo.variance);
  }
  assert.ok(Math.abs(summary.elpdLoo! - exact) < 0.05, `PSIS ${summary.elpdLoo} vs exact ${exact}`);
  assert.ok(Math.abs(summary.looic! + 2 * summary.elpdLoo!) < 1e-12);
  // One free parameter: p_loo ≈ 1.
  assert.ok(Math.abs(summary.pLoo! - 1) < 0.3, `p_loo ${summary.pLoo}`);
  assert.equal(summary.paretoK!.good, n);
  assert.ok(pointwise.paretoK.every((k) => k < 0.5));

  // WAIC from the same pass: the pointwise formula by hand, and close to exact LOO for this regular model.
  let lppd = 0;
  let pWaic = 0;
  for (let i = 0; i < n; i++) {
    const ll = Array.from(mu, (m) => logNormal(y[i], m, 1));
    const max = Math.max(...ll);
    lppd += max + Math.log(ll.reduce((a, v) => a + Math.exp(v - max), 0) / S);
    const mean = ll.reduce((a, v) => a + v, 0) / S;
    pWaic += ll.reduce((a, v) => a + (v - mean) ** 2, 0) / (S - 1);
  }
  assert.ok(Math.abs(waic.elpdWaic - (lppd - pWaic)) < 1e-9, `elpd_waic ${waic.elpdWaic} vs ${lppd - pWaic}`);
  assert.ok(Math.abs(waic.pWaic - pWaic) < 1e-9);
  assert.ok(Math.abs(waic.waic + 2 * waic.elpdWaic) < 1e-12 && Math.abs(waic.waicSe - 2 * waic.elpdWaicSe) < 1e-12);
  assert.ok(Math.abs(waic.elpdWaic - exact) < 0.1, `WAIC ${waic.elpdWaic} vs exact LOO ${exact}`);
  assert.equal(waic.pWaicAbove04, 0);
});

test('an outlier stands out with a larger Pareto k', () => {
  const rng = new Random('outlier');
  const y = [...Array.from({ length: 19 }, () => rng.normal(0, 1)), 8];
  const precision = 1 / 100 + y.length;
  const mean = y.reduce((s, v) => s + v, 0) / precision;
  const S = 4000;
  const mu = Float64Array.from({ length: S }, () => rng.normal(mean, Math.sqrt(1 / precision)));
  const { pointwise } = psisLoo(y.length, S, 4, (i, out) => {
    for (let s = 0; s < S; s++) out[s] = -0.5 * Math.log(2 * Math.PI) - (y[i] - mu[s]) ** 2 / 2;
  });
  const others = Math.max(...Array.from(pointwise.paretoK.subarray(0, 19)));
  assert.ok(pointwise.paretoK[19] > others, `outlier k ${pointwise.paretoK[19]} vs others ≤ ${others}`);
});
