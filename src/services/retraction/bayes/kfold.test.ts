// K-fold cross-validation by country: the quadrature over a new country's effect against brute-force
// integration, the fold assignment, and a small end-to-end run through fitDemocracyModel.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitDemocracyModel } from './fit.ts';
import { resolveConfig } from './config.ts';
import { assignFolds, integrateCountryEffect, KFOLD_QUADRATURE_NODES, kfoldByCountry, type KFoldRefit } from './kfold.ts';
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
  assert.equal(k.perObservation.length, 48);
  assert.ok(Math.abs(k.perObservation.reduce((a, p) => a + p.elpd, 0) - k.elpdKfoldPointwise) < 1e-9);
  assert.ok(k.elpdKfoldPointwiseSe > 0);
  assert.ok(Number.isFinite(k.elpdKfold) && k.elpdKfoldSe > 0 && k.kfoldic === -2 * k.elpdKfold);
  // Predicting a country the fit has not seen is harder than describing one it has: p_kfold > 0.
  assert.ok(k.pKfold! > 0, `p_kfold ${k.pKfold}`);
  assert.ok(k.refitRhatMax !== null && k.refitEssBulkMin !== null);
  assert.equal(fit.posteriorPredictive, null, 'replicates 0 switches the predictive check off');
  assert.ok(fit.methodology.diagnosticsUsed.some((d) => d.startsWith('3-fold cross-validation by country')));
  assert.ok(fit.choices!.some((c) => c.setting === 'kfoldByCountry' && c.value === 3 && c.default === 0));
});

// brms::kfold's pointwise elpd, recomputed from each fold's own draws: for each held-out row, log of the mean over
// draws of p(y_i | θ_s), with the new country effect integrated out on a fine grid (not by the quadrature under test).
test('k-fold pointwise elpd equals the direct computation of brms::kfold on the same folds', async () => {
  const { rows } = simulatePanel({
    countries: 9,
    firstYear: 2015,
    years: 3,
    predictors: ['democracy_index', 'gdp'],
    truth: { alpha: -6, beta: { democracy_index: -0.3, gdp: 0.2 }, sigmaCountry: 0.5, sigmaYear: 0.1, phi: 4 },
    seed: 'kfold-pointwise',
  });
  const config = resolveConfig({ sampler: { warmup: 120, draws: 60, chains: 2, parallelism: 'single', seed: 'kfold-pointwise' } });
  const refits: KFoldRefit[] = [];
  const k = await kfoldByCountry(rows, config, 3, { onRefit: (r) => refits.push(r) });
  assert.equal(refits.length, 3);
  let direct = 0;
  let checked = 0;
  for (const { fold, train, held, layout: L, draws } of refits) {
    const all = draws.all;
    const S = all[0].length;
    for (let i = 0; i < held.n; i++) {
      const t = train.years.indexOf(held.years[held.year[i]]);
      let log = -Infinity;
      for (let s = 0; s < S; s++) {
        let eta = held.logExposure[i] + all[L.alpha][s] + all[L.yearBlock + t][s];
        for (let j = 0; j < held.k; j++) {
          const x = (held.raw[i * held.k + j] - train.yearMean[t * train.k + j]) * train.yearScale[t * train.k + j];
          eta += x * all[L.beta + j][s];
        }
        const sigma = all[L.logSigmaCountry][s];
        const phi = all[L.logPhi][s];
        const step = sigma / 200;
        let integral = -Infinity;
        for (let u = -10 * sigma; u <= 10 * sigma; u += step) {
          const logNormal = -0.5 * (u / sigma) ** 2 - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI);
          integral = logAddExp(integral, negBinomial2LogPmf(held.y[i], eta + u, phi) + logNormal + Math.log(step));
        }
        log = logAddExp(log, integral);
      }
      const expected = log - Math.log(S);
      const country = held.countries[held.country[i]];
      const year = held.years[held.year[i]];
      const reported = k.perObservation.find((p) => p.country === country && p.year === year)!;
      assert.equal(reported.fold, fold);
      // 15 adaptive Gauss–Hermite nodes against a grid: agreement to 1e-4 nats, far inside the Monte Carlo error.
      assert.ok(Math.abs(reported.elpd - expected) < 1e-4, `${country} ${year}: ${reported.elpd} vs direct ${expected}`);
      direct += expected;
      checked++;
    }
  }
  assert.equal(checked, 27);
  assert.ok(Math.abs(k.elpdKfoldPointwise - direct) < 1e-3, `elpd_kfold_pointwise ${k.elpdKfoldPointwise} vs direct ${direct}`);
  // SE as loo's: √n · sd of the pointwise terms.
  const terms = k.perObservation.map((p) => p.elpd);
  const mean = direct / terms.length;
  const sd = Math.sqrt(terms.reduce((a, v) => a + (v - mean) ** 2, 0) / (terms.length - 1));
  assert.ok(Math.abs(k.elpdKfoldPointwiseSe - Math.sqrt(terms.length) * sd) < 1e-9);
  console.log(`elpd_kfold joint ${k.elpdKfold.toFixed(4)}, pointwise ${k.elpdKfoldPointwise.toFixed(6)} (direct ${direct.toFixed(6)})`);
});
