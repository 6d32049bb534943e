// K-fold cross-validation by country: the quadrature over a new country's effect against brute-force
// integration, the fold assignment, and a small end-to-end run through fitDemocracyModel.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitDemocracyModel } from './fit.ts';
import { assignFolds, integrateCountryEffect, KFOLD_QUADRATURE_NODES } from './kfold.ts';
import { negBinomial2LogPmf, poissonLogPmf } from './model.ts';
import { simulatePanel } from './simulate.ts';
import { gaussHermite, logAddExp, logGamma } from './special.ts';

test('adaptive Gauss–Hermite integral over the country effect equals brute-force integration', () => {
  const rule = gaussHermite(KFOLD_QUADRATURE_NODES);
  const cases = [
    // Few counts against a wide prior; many counts (a sharp likelihood far from the prior's centre).
    { y: [0, 2, 1], eta: [-0.5, 0.1, 0.3], sigma: 1.2, phi: 3 as number | null },
    { y: [240, 310, 280, 295], eta: [3.1, 3.3, 3.2, 3.25], sigma: 0.4, phi: 12 },
    { y: [4, 0, 9, 3, 5], eta: [1.2, 0.9, 1.6, 1.1, 1.3], sigma: 0.8, phi: null },
  ];
  for (const c of cases) {
    const y = Float64Array.from(c.y);
    const eta = Float64Array.from(c.eta);
    let constant = 0;
    for (const v of c.y)
      constant += c.phi === null ? -logGamma(v + 1) : logGamma(v + c.phi) - logGamma(c.phi) - logGamma(v + 1) + c.phi * Math.log(c.phi);
    const quadrature = integrateCountryEffect(y, eta, 0, 1, c.sigma, c.phi, constant, rule);
    // Brute force: a fine grid over ±12 prior sds, trapezoid rule in log space.
    const logIntegrand = (u: number) => {
      let f = -0.5 * (u / c.sigma) ** 2 - Math.log(c.sigma) - 0.5 * Math.log(2 * Math.PI);
      c.y.forEach((v, i) => {
        f += c.phi === null ? poissonLogPmf(v, c.eta[i] + u) : negBinomial2LogPmf(v, c.eta[i] + u, c.phi);
      });
      return f;
    };
    const step = 1e-4;
    let log = -Infinity;
    for (let u = -12 * c.sigma; u <= 12 * c.sigma; u += step) log = logAddExp(log, logIntegrand(u) + Math.log(step));
    assert.ok(Math.abs(quadrature - log) < 1e-6, `${JSON.stringify(c)}: quadrature ${quadrature} vs grid ${log}`);
  }
});

test('countries are dealt into folds by seed: a partition with sizes differing by at most one', () => {
  const countries = Array.from({ length: 23 }, (_, i) => `Country ${i}`);
  const folds = assignFolds(countries, 5, 'seed-a');
  assert.deepEqual(folds.flat().sort(), [...countries].sort());
  const sizes = folds.map((f) => f.length);
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1);
  assert.deepEqual(assignFolds([...countries].reverse(), 5, 'seed-a'), folds, 'input order does not matter');
  assert.notDeepEqual(assignFolds(countries, 5, 'seed-b'), folds);
});

test('k-fold by country runs with the fit: every country predicted once, reported beside PSIS-LOO', async () => {
  const { rows } = simulatePanel({
    countries: 12,
    firstYear: 2012,
    years: 4,
    predictors: ['democracy_index'],
    truth: { alpha: -6, beta: { democracy_index: -0.3 }, sigmaCountry: 0.5, sigmaYear: 0.1, phi: 5 },
    seed: 'kfold-small',
  });
  const folds: number[] = [];
  const progressChains = new Set<number>();
  const fit = await fitDemocracyModel(
    rows,
    {
      kfoldByCountry: 3,
      sampler: { warmup: 150, draws: 150, chains: 2, parallelism: 'single', seed: 'kfold' },
      posteriorPredictive: { replicates: 0 },
    },
    { onFold: (f) => folds.push(f), onProgress: (p) => progressChains.add(p.chain) },
  );
  // The refits' chains report progress after the full fit's: 2 chains, then 3 folds × 2 chains.
  assert.deepEqual([...progressChains].sort(), [0, 1, 2, 3, 4, 5, 6, 7]);
  const k = fit.diagnostics.kfold!;
  assert.deepEqual(folds, [0, 1, 2]);
  assert.equal(k.folds, 3);
  assert.equal(k.countries, 12);
  assert.equal(k.observations, 48);
  assert.deepEqual(k.perCountry.map((p) => p.country).sort(), fit.effects!.country.map((c) => c.level).sort());
  assert.ok(Math.abs(k.perCountry.reduce((a, p) => a + p.elpd, 0) - k.elpdKfold) < 1e-9);
  assert.ok(Number.isFinite(k.elpdKfold) && k.elpdKfoldSe > 0 && k.kfoldic === -2 * k.elpdKfold);
  // Predicting a country the fit has not seen is harder than describing one it has: p_kfold > 0.
  assert.ok(k.pKfold! > 0, `p_kfold ${k.pKfold}`);
  assert.ok(k.refitRhatMax !== null && k.refitEssBulkMin !== null);
  assert.equal(fit.posteriorPredictive, null, 'replicates 0 switches the predictive check off');
  assert.ok(fit.methodology.diagnosticsUsed.some((d) => d.startsWith('3-fold cross-validation by country')));
  assert.ok(fit.choices!.some((c) => c.setting === 'kfoldByCountry' && c.value === 3 && c.default === 0));
});
