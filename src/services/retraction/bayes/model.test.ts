import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../../core/random.ts';
import { DEFAULT_CONFIG } from './config.ts';
import { buildDesign } from './design.ts';
import { panelData } from './fit.ts';
import { countryProjection, negBinomial2LogPmf, NegBinPanelTarget, PointwiseLogLik, poissonLogPmf, yearBasis } from './model.ts';
import { simulatePanel } from './simulate.ts';
import { digamma, logGamma, normalQuantile } from './special.ts';

const predictors = ['a', 'b', 'c'];
const sim = simulatePanel({
  countries: 12,
  firstYear: 2010,
  years: 6,
  predictors,
  truth: { alpha: -6, beta: { a: -0.3, b: 0.2, c: 0 }, sigmaCountry: 1, sigmaYear: 0.3, phi: 4 },
  seed: 'gradient-panel',
});
const design = buildDesign(sim.rows);
const data = panelData(design);
const priors = { ...DEFAULT_CONFIG.priors, intercept: { mean: -1, sd: 2.5 }, dispersion: { shape: 2.5, rate: 0.2 } };

function randomPoint(target: NegBinPanelTarget, rng: Random): Float64Array {
  const q = new Float64Array(target.dim);
  target.initialise(rng, 1.5, q);
  return q;
}

test('special functions match known values', () => {
  assert.ok(Math.abs(logGamma(0.5) - 0.5 * Math.log(Math.PI)) < 1e-13);
  assert.ok(Math.abs(logGamma(7) - Math.log(720)) < 1e-13);
  // Reference values from Python's math.lgamma.
  for (const [x, expected] of [
    [1e-3, 6.907178885383854],
    [3.7, 1.4280723266653883],
    [25.25, 55.58568604486943],
    [150.5, 602.5139548705855],
  ]) {
    assert.ok(Math.abs(logGamma(x) - expected) < 1e-13 * Math.max(1, expected), `logGamma(${x})`);
  }
  const euler = 0.5772156649015329;
  assert.ok(Math.abs(digamma(1) + euler) < 1e-13);
  assert.ok(Math.abs(digamma(0.5) + euler + 2 * Math.log(2)) < 1e-13);
  // ψ(n + 1) = H_n − γ
  let harmonic = 0;
  for (let i = 1; i <= 40; i++) harmonic += 1 / i;
  assert.ok(Math.abs(digamma(41) - (harmonic - euler)) < 1e-13);
  assert.ok(Math.abs(normalQuantile(0.975) - 1.959963984540054) < 1e-14);
  assert.ok(Math.abs(normalQuantile(1e-10) + 6.361340902404056) < 1e-12);
  assert.equal(normalQuantile(0.5), 0);
});

test('NB2 log pmf sums to 1 and has mean μ', () => {
  for (const [mu, phi] of [
    [3.2, 0.7],
    [40, 5],
    [0.05, 20],
  ]) {
    let total = 0;
    let mean = 0;
    for (let y = 0; y < 5000; y++) {
      const p = Math.exp(negBinomial2LogPmf(y, Math.log(mu), phi));
      total += p;
      mean += y * p;
    }
    assert.ok(Math.abs(total - 1) < 1e-10, `sum ${total}`);
    assert.ok(Math.abs(mean - mu) < 1e-8 * Math.max(1, mu), `mean ${mean} vs ${mu}`);
  }
});

const variants = [
  { shiftedCoefficients: true, countryEffects: 'centred', yearEffects: 'centred' },
  { shiftedCoefficients: true, countryEffects: 'centred', yearEffects: 'non-centred' },
  { shiftedCoefficients: true, countryEffects: 'non-centred', yearEffects: 'non-centred' },
  { shiftedCoefficients: false, countryEffects: 'non-centred', yearEffects: 'non-centred' },
  { shiftedCoefficients: false, countryEffects: 'centred', yearEffects: 'centred' },
  { shiftedCoefficients: true, countryEffects: 'non-centred', yearEffects: 'centred' },
  { shiftedCoefficients: false, countryEffects: 'non-centred', yearEffects: 'centred' },
] as const;

for (const variant of variants) {
  const label = `${variant.countryEffects} country (${variant.shiftedCoefficients ? 'shifted' : 'plain'}), ${variant.yearEffects} year effects`;
  test(`analytic gradient matches central finite differences (${label})`, () => {
    const target = new NegBinPanelTarget(data, priors, variant);
    const rng = new Random(`fd-${label}`);
    const grad = new Float64Array(target.dim);
    const scratch = new Float64Array(target.dim);
    let worst = 0;
    for (let point = 0; point < 8; point++) {
      const q = randomPoint(target, rng);
      target.logDensityGradient(q, grad);
      for (let i = 0; i < target.dim; i++) {
        const h = 1e-5 * Math.max(1, Math.abs(q[i]));
        const saved = q[i];
        q[i] = saved + h;
        const up = target.logDensityGradient(q, scratch);
        q[i] = saved - h;
        const down = target.logDensityGradient(q, scratch);
        q[i] = saved;
        const numeric = (up - down) / (2 * h);
        const error = Math.abs(numeric - grad[i]) / Math.max(1, Math.abs(grad[i]));
        worst = Math.max(worst, error);
        assert.ok(error < 2e-6, `coordinate ${i} at point ${point}: analytic ${grad[i]}, numeric ${numeric}`);
      }
    }
    assert.ok(worst > 0);
  });
}

const naiveVariants = [
  { countryEffects: 'non-centred', yearEffects: 'non-centred', shiftedCoefficients: false },
  { countryEffects: 'centred', yearEffects: 'non-centred', shiftedCoefficients: false },
  { countryEffects: 'centred', yearEffects: 'centred', shiftedCoefficients: false },
  { countryEffects: 'centred', yearEffects: 'centred', shiftedCoefficients: true },
  { countryEffects: 'non-centred', yearEffects: 'centred', shiftedCoefficients: false },
] as const;

test('the year basis is orthonormal with a constant first column', () => {
  for (const T of [1, 2, 7, 18]) {
    const B = yearBasis(T);
    for (let a = 0; a < T; a++) {
      assert.ok(Math.abs(B[a * T] - 1 / Math.sqrt(T)) < 1e-15);
      for (let b = 0; b < T; b++) {
        let dotCols = 0;
        for (let t = 0; t < T; t++) dotCols += B[t * T + a] * B[t * T + b];
        assert.ok(Math.abs(dotCols - (a === b ? 1 : 0)) < 1e-12);
      }
    }
  }
});

for (const variant of naiveVariants) {
  test(`log density equals an independent sum of NB2 log pmfs, priors and Jacobians (${variant.countryEffects}${variant.shiftedCoefficients ? ' shifted' : ''} country, ${variant.yearEffects} year effects)`, () => {
    const target = new NegBinPanelTarget(data, priors, variant);
    const B = yearBasis(data.nYears);
    const grad = new Float64Array(target.dim);
    const L = target.layout;
    const { n, k, nCountries, nYears } = data;
    const xbar = new Float64Array(nCountries * k);
    const rows = new Float64Array(nCountries);
    for (let i = 0; i < n; i++) {
      rows[data.country[i]]++;
      for (let j = 0; j < k; j++) xbar[data.country[i] * k + j] += data.x[i * k + j];
    }
    for (let c = 0; c < nCountries; c++) for (let j = 0; j < k; j++) xbar[c * k + j] /= rows[c];
    const normal = (v: number, m: number, s: number) => -0.5 * ((v - m) / s) ** 2 - Math.log(s) - 0.5 * Math.log(2 * Math.PI);
    const naive = (q: Float64Array) => {
      const sc = Math.exp(q[L.logSigmaCountry]);
      const st = Math.exp(q[L.logSigmaYear]);
      const phi = Math.exp(q[L.logPhi]);
      // Year coordinates w: v = s B w; the prior of v is on w (B orthogonal): N(0, 1) non-centred, N(0, σ_t) centred.
      const w = Array.from({ length: nYears }, (_, j) => q[L.yearBlock + j]);
      const v = Array.from(
        { length: nYears },
        (_, t) => (variant.yearEffects === 'centred' ? 1 : st) * w.reduce((sum, wj, j) => sum + B[t * nYears + j] * wj, 0),
      );
      const vMean = v.reduce((a, b) => a + b, 0) / nYears;
      const alpha = variant.countryEffects === 'centred' && variant.shiftedCoefficients ? q[0] - vMean : q[0];
      // Centred countries sample a_c = α + x̄_c·β + u_c + v̄.
      const u = Array.from({ length: nCountries }, (_, c) => {
        if (variant.countryEffects === 'non-centred') return sc * q[L.countryBlock + c];
        let between = 0;
        for (let j = 0; j < k; j++) between += xbar[c * k + j] * q[1 + j];
        return q[L.countryBlock + c] - alpha - between - vMean;
      });
      let lp = 0;
      for (let i = 0; i < n; i++) {
        let eta = data.logExposure[i] + alpha + u[data.country[i]] + v[data.year[i]];
        for (let j = 0; j < k; j++) eta += data.x[i * k + j] * q[1 + j];
        lp += negBinomial2LogPmf(data.y[i], eta, phi);
      }
      lp += normal(alpha, priors.intercept.mean, priors.intercept.sd);
      for (let j = 0; j < k; j++) lp += normal(q[1 + j], priors.coefficients.mean, priors.coefficients.sd);
      lp += Math.log(priors.sigmaCountry.rate) - priors.sigmaCountry.rate * sc + Math.log(sc);
      lp += Math.log(priors.sigmaYear.rate) - priors.sigmaYear.rate * st + Math.log(st);
      const { shape, rate } = priors.dispersion;
      lp += shape * Math.log(rate) - logGamma(shape) + (shape - 1) * Math.log(phi) - rate * phi + Math.log(phi);
      for (let c = 0; c < nCountries; c++)
        lp += variant.countryEffects === 'centred' ? normal(u[c], 0, sc) : normal(q[L.countryBlock + c], 0, 1);
      for (let j = 0; j < nYears; j++) lp += variant.yearEffects === 'centred' ? normal(w[j], 0, st) : normal(w[j], 0, 1);
      return lp;
    };
    const rng = new Random(`naive-${variant.countryEffects}-${variant.yearEffects}`);
    const q1 = randomPoint(target, rng);
    const q2 = randomPoint(target, rng);
    const diffTarget = target.logDensityGradient(q1, grad) - target.logDensityGradient(q2, grad);
    const diffNaive = naive(q1) - naive(q2);
    assert.ok(Math.abs(diffTarget - diffNaive) < 1e-7 * Math.max(1, Math.abs(diffNaive)), `${diffTarget} vs ${diffNaive}`);
    // constrain() reports the same model effects the naive density used.
    const out = new Float64Array(target.dim);
    target.constrain(q1, out);
    const sc = Math.exp(q1[L.logSigmaCountry]);
    if (variant.countryEffects === 'non-centred') assert.ok(Math.abs(out[L.countryBlock] - sc * q1[L.countryBlock]) < 1e-12);
    else
      assert.ok(
        Math.abs(out[0] - (variant.shiftedCoefficients ? q1[0] - out.subarray(L.yearBlock).reduce((a, b) => a + b, 0) / nYears : q1[0])) <
          1e-12,
      );
  });
}

test('shifted coordinates give the same density at the same model parameters', () => {
  const shifted = new NegBinPanelTarget(data, priors, { countryEffects: 'non-centred', shiftedCoefficients: true });
  const plain = new NegBinPanelTarget(data, priors, { countryEffects: 'non-centred', shiftedCoefficients: false });
  assert.ok(countryProjection(data) !== null);
  const rng = new Random('shift');
  const grad = new Float64Array(shifted.dim);
  const constrained = new Float64Array(shifted.dim);
  for (let point = 0; point < 5; point++) {
    const q = randomPoint(shifted, rng);
    shifted.constrain(q, constrained);
    const qPlain = q.slice();
    for (let a = 0; a <= data.k; a++) qPlain[a] = constrained[a];
    const a = shifted.logDensityGradient(q, grad);
    const b = plain.logDensityGradient(qPlain, grad);
    assert.ok(Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(a)), `${a} vs ${b}`);
    // The shift actually moves the coefficients (otherwise this test would prove nothing).
    assert.ok(Math.abs(constrained[1] - q[1]) > 1e-6);
  }
});

test('pointwise log-likelihood agrees with the NB2 pmf at the constrained draws', () => {
  const target = new NegBinPanelTarget(data, priors);
  const rng = new Random('pointwise');
  const S = 7;
  const columns = Array.from({ length: target.dim }, () => new Float64Array(S));
  const row = new Float64Array(target.dim);
  for (let s = 0; s < S; s++) {
    target.constrain(randomPoint(target, rng), row);
    for (let j = 0; j < target.dim; j++) columns[j][s] = row[j];
  }
  const pointwise = new PointwiseLogLik(data, columns);
  const out = new Float64Array(S);
  const L = target.layout;
  for (const i of [0, 5, data.n - 1]) {
    pointwise.compute(i, out);
    for (let s = 0; s < S; s++) {
      let eta = data.logExposure[i] + columns[0][s] + columns[L.countryBlock + data.country[i]][s] + columns[L.yearBlock + data.year[i]][s];
      for (let j = 0; j < data.k; j++) eta += data.x[i * data.k + j] * columns[1 + j][s];
      const expected = negBinomial2LogPmf(data.y[i], eta, columns[L.logPhi][s]);
      assert.ok(Math.abs(out[s] - expected) < 1e-9 * Math.max(1, Math.abs(expected)));
    }
  }
});

test('Poisson family: no φ coordinate; gradient matches finite differences; density is the Poisson sum plus priors', () => {
  for (const variant of [
    { countryEffects: 'centred', yearEffects: 'centred', shiftedCoefficients: true },
    { countryEffects: 'non-centred', yearEffects: 'non-centred', shiftedCoefficients: true },
  ] as const) {
    const poisson = new NegBinPanelTarget(data, priors, variant, 'poisson');
    const nb = new NegBinPanelTarget(data, priors, variant);
    assert.equal(poisson.dim, nb.dim - 1);
    assert.equal(poisson.layout.logPhi, -1);
    const rng = new Random(`poisson-${variant.countryEffects}`);
    const grad = new Float64Array(poisson.dim);
    const scratch = new Float64Array(poisson.dim);
    for (let point = 0; point < 4; point++) {
      const q = randomPoint(poisson, rng);
      poisson.logDensityGradient(q, grad);
      for (let i = 0; i < poisson.dim; i++) {
        const h = 1e-5 * Math.max(1, Math.abs(q[i]));
        const saved = q[i];
        q[i] = saved + h;
        const up = poisson.logDensityGradient(q, scratch);
        q[i] = saved - h;
        const down = poisson.logDensityGradient(q, scratch);
        q[i] = saved;
        const numeric = (up - down) / (2 * h);
        assert.ok(Math.abs(numeric - grad[i]) / Math.max(1, Math.abs(grad[i])) < 2e-6, `coordinate ${i}: ${grad[i]} vs ${numeric}`);
      }
    }
    // The likelihood part: two points that differ only in their counts' rates differ by the Poisson sums.
    const L = poisson.layout;
    const q1 = randomPoint(poisson, rng);
    const q2 = q1.slice();
    for (let j = 0; j < data.k; j++) q2[L.beta + j] += 0.1;
    const out1 = new Float64Array(poisson.dim);
    const out2 = new Float64Array(poisson.dim);
    poisson.constrain(q1, out1);
    poisson.constrain(q2, out2);
    const likelihood = (out: Float64Array) => {
      let lp = 0;
      for (let i = 0; i < data.n; i++) {
        let eta = data.logExposure[i] + out[0] + out[L.countryBlock + data.country[i]] + out[L.yearBlock + data.year[i]];
        for (let j = 0; j < data.k; j++) eta += data.x[i * data.k + j] * out[L.beta + j];
        lp += poissonLogPmf(data.y[i], eta);
      }
      let prior = 0;
      for (let j = 0; j < data.k; j++) prior += -0.5 * ((out[L.beta + j] - priors.coefficients.mean) / priors.coefficients.sd) ** 2;
      return lp + prior;
    };
    const diffTarget = poisson.logDensityGradient(q1, grad) - poisson.logDensityGradient(q2, grad);
    if (variant.countryEffects === 'non-centred') {
      // Non-centred, shifted: moving β' moves only β (u, α unchanged through the projection), so only likelihood and β prior change.
      const diffNaive = likelihood(out1) - likelihood(out2);
      assert.ok(Math.abs(diffTarget - diffNaive) < 1e-7 * Math.max(1, Math.abs(diffNaive)), `${diffTarget} vs ${diffNaive}`);
    }
    // Pointwise: the Poisson pmf at the constrained draws.
    const columns = Array.from({ length: poisson.dim }, (_, j) => Float64Array.of(out1[j], out2[j]));
    const pointwise = new PointwiseLogLik(data, columns, 'poisson');
    assert.equal(pointwise.phi, null);
    const ll = new Float64Array(2);
    pointwise.compute(3, ll);
    let eta = data.logExposure[3] + out1[0] + out1[L.countryBlock + data.country[3]] + out1[L.yearBlock + data.year[3]];
    for (let j = 0; j < data.k; j++) eta += data.x[3 * data.k + j] * out1[L.beta + j];
    assert.ok(Math.abs(ll[0] - poissonLogPmf(data.y[3], eta)) < 1e-10);
  }
});
