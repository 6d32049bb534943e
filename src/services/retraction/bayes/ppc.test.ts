// Posterior predictive checks: the p-values against a closed form, the rootogram's accounting, and on a
// simulated overdispersed panel the well-specified negative binomial passes while a Poisson fit fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildDesign } from './design.ts';
import { fitDemocracyModel } from './fit.ts';
import { logGamma } from './special.ts';
import { PointwiseLogLik, parameterLayout } from './model.ts';
import { panelData } from './posterior.ts';
import { posteriorPredictiveCheck, rootogramBins } from './ppc.ts';
import { simulatePanel } from './simulate.ts';

test('rootogram bins: single counts to 9, then a 1-2-5 series up to the largest count, then an open bin', () => {
  assert.deepEqual(rootogramBins(3), [
    { lower: 0, upper: 0 },
    { lower: 1, upper: 1 },
    { lower: 2, upper: 2 },
    { lower: 3, upper: 3 },
    { lower: 4, upper: null },
  ]);
  const bins = rootogramBins(250);
  assert.deepEqual(
    bins.slice(9).map((b) => [b.lower, b.upper]),
    [
      [9, 9],
      [10, 19],
      [20, 49],
      [50, 99],
      [100, 199],
      [200, 499],
      [500, null],
    ],
  );
});

test('with one posterior point the p-value of the total is the Poisson tail P(Σ y_rep ≥ Σ y)', () => {
  // Poisson, no predictors, every draw at the same parameters: Σ y_rep ~ Poisson(Σ μ_i), a closed form.
  const rows = Array.from({ length: 12 }, (_, i) => ({
    country: `C${i % 4}`,
    year: 2000 + Math.floor(i / 4),
    publications: 1000,
    retractions: [3, 5, 2, 4, 6, 1, 3, 2, 5, 4, 7, 3][i],
    predictors: {},
  }));
  const design = buildDesign(rows, []);
  const data = panelData(design);
  const L = parameterLayout(0, design.nCountries, design.nYears, 'poisson');
  const S = 4000;
  const columns = Array.from({ length: L.dim }, () => new Float64Array(S));
  const rate = 0.0035;
  columns[L.alpha].fill(Math.log(rate));
  columns[L.logSigmaCountry].fill(1);
  columns[L.logSigmaYear].fill(1);
  const pointwise = new PointwiseLogLik(data, columns, 'poisson');
  const check = posteriorPredictiveCheck({ data, years: design.years, pointwise, chains: 4, replicates: S, seed: 'closed-form' });
  const total = rows.reduce((a, r) => a + r.retractions, 0);
  const lambda = rows.length * 1000 * rate;
  // P(X ≥ total) for X ~ Poisson(λ).
  let below = 0;
  for (let k = 0; k < total; k++) below += Math.exp(k * Math.log(lambda) - lambda - logGamma(k + 1));
  const exact = 1 - below;
  const mean = check.statistics.find((s) => s.name === 'mean')!;
  const tolerance = 4 * Math.sqrt((exact * (1 - exact)) / S);
  assert.ok(Math.abs(mean.pValue - exact) < tolerance, `p ${mean.pValue} vs exact ${exact}`);
  assert.ok(
    mean.mcsePValue !== null && Math.abs(mean.mcsePValue / Math.sqrt((exact * (1 - exact)) / S) - 1) < 0.2,
    `MCSE ${mean.mcsePValue}`,
  );
  assert.ok(Math.abs(mean.replicatedMean - lambda / rows.length) < 0.05);
  // The rootogram accounts for every observation, observed and replicated.
  assert.equal(
    check.rootogram.reduce((a, b) => a + b.observed, 0),
    rows.length,
  );
  assert.ok(Math.abs(check.rootogram.reduce((a, b) => a + b.expected, 0) - rows.length) < 1e-9);
  for (const bin of check.rootogram) assert.ok(Math.abs(bin.hangingBottom - (Math.sqrt(bin.expected) - Math.sqrt(bin.observed))) < 1e-12);
  assert.equal(check.yearTotals.length, 3);
  // Pearson χ²/df at the one parameter point: the data's value is the closed form Σ (y − μ)²/μ / (n − 1), and a
  // Poisson replicate's χ² has expectation n (each term has mean 1, variance 2 + 1/μ).
  const pearson = check.statistics.find((s) => s.name === 'pearson_dispersion')!;
  const mu = 1000 * rate;
  const direct = rows.reduce((a, r) => a + (r.retractions - mu) ** 2 / mu, 0) / (rows.length - 1);
  assert.ok(Math.abs(pearson.observed - direct) < 1e-9, `observed ${pearson.observed} vs ${direct}`);
  const sdReplicated = Math.sqrt(rows.length * (2 + 1 / mu)) / (rows.length - 1);
  assert.ok(Math.abs(pearson.replicatedMean - rows.length / (rows.length - 1)) < (4 * sdReplicated) / Math.sqrt(S));
  assert.ok(Math.abs(pearson.replicatedSd / sdReplicated - 1) < 0.1, `sd ${pearson.replicatedSd} vs ${sdReplicated}`);
  // Its p-value is the share of replicates whose χ² reaches the data's.
  assert.ok(pearson.pValue > 0 && pearson.pValue < 1);
});

// Overdispersed counts (φ = 1.5) from the negative-binomial model.
const { rows: overdispersed } = simulatePanel({
  countries: 24,
  firstYear: 2010,
  years: 5,
  predictors: ['democracy_index', 'gdp'],
  truth: { alpha: -6.2, beta: { democracy_index: -0.3, gdp: 0.1 }, sigmaCountry: 0.6, sigmaYear: 0.15, phi: 1.5 },
  seed: 'ppc-overdispersed',
  publications: { logMedian: Math.log(3000), logSdBetweenCountries: 1, growthPerYear: 0.05, logSdWithinCountry: 0.1 },
});
const small = { warmup: 200, draws: 200, chains: 2, parallelism: 'single' as const, seed: 'ppc' };

test('the negative binomial passes its checks on overdispersed data; a Poisson fit fails them', async () => {
  const nb = await fitDemocracyModel(overdispersed, { sampler: small, posteriorPredictive: { replicates: 400 } });
  const poisson = await fitDemocracyModel(overdispersed, { family: 'poisson', sampler: small, posteriorPredictive: { replicates: 400 } });
  const show = (label: string, fit: typeof nb) =>
    `${label}: ${fit.posteriorPredictive!.statistics.map((s) => `${s.name} p=${s.pValue.toFixed(3)}`).join(', ')}`;
  console.log(show('negative binomial', nb));
  console.log(show('Poisson', poisson));

  const nbChecks = nb.posteriorPredictive!;
  assert.equal(nbChecks.replicates, 400);
  assert.deepEqual(
    nbChecks.statistics.map((s) => s.name),
    ['share_of_zeros', 'mean', 'sd', 'max', 'pearson_dispersion'],
  );
  for (const s of nbChecks.statistics) assert.ok(!s.extreme && s.pValue > 0.05 && s.pValue < 0.95, `NB ${s.name}: p ${s.pValue}`);
  assert.ok(nbChecks.yearTotals.filter((s) => s.extreme).length <= 1, 'per-year totals: at most one of five flagged by chance');

  const byName = Object.fromEntries(poisson.posteriorPredictive!.statistics.map((s) => [s.name, s]));
  for (const name of ['sd', 'max', 'pearson_dispersion']) {
    assert.ok(
      byName[name].extreme && byName[name].pValue < 0.01,
      `Poisson ${name}: p ${byName[name].pValue} (the data vary more than it can)`,
    );
    assert.ok(poisson.posteriorPredictive!.flagged.includes(name));
  }
  assert.equal(poisson.model, 'poisson-country-year');
  assert.ok(!poisson.hyperparameters.some((h) => h.name === 'phi'));
  assert.ok(!poisson.methodology.priors!.some((p) => p.parameter === 'phi'));
  // Predictive accuracy agrees: both LOO and WAIC prefer the negative binomial by many standard errors.
  const dLoo = nb.diagnostics.loo!.elpdLoo! - poisson.diagnostics.loo!.elpdLoo!;
  assert.ok(dLoo > 4 * nb.diagnostics.loo!.elpdLooSe!, `elpd_loo difference ${dLoo}`);
  assert.ok(nb.diagnostics.waic!.elpdWaic > poisson.diagnostics.waic!.elpdWaic);
  // Observations PSIS flags are named, largest k first.
  const flagged = poisson.diagnostics.loo!.flagged!;
  assert.equal(flagged.length, Math.min(100, poisson.diagnostics.loo!.flaggedCount!));
  assert.ok(flagged.length > 0 && flagged.every((f, i) => f.paretoK > 0.7 && (i === 0 || flagged[i - 1].paretoK >= f.paretoK)));
  assert.ok(
    overdispersed.some((r) => r.country === flagged[0].country && r.year === flagged[0].year && r.retractions === flagged[0].retractions),
  );
});

// Moderate overdispersion (NB2, φ = 5) is invisible to a mean and barely to an sd, but not to Pearson χ²/df:
// under a Poisson fit the data scatter about twice as much as the model allows. Poisson data pass it.
test('Pearson dispersion flags moderately overdispersed data (φ = 5) under a Poisson fit, and not Poisson data', async () => {
  const panel = (phi: number, seed: string) =>
    simulatePanel({
      countries: 24,
      firstYear: 2010,
      years: 5,
      predictors: ['democracy_index'],
      truth: { alpha: -6.2, beta: { democracy_index: -0.3 }, sigmaCountry: 0.6, sigmaYear: 0.15, phi },
      seed,
      publications: { logMedian: Math.log(3000), logSdBetweenCountries: 1, growthPerYear: 0.05, logSdWithinCountry: 0.1 },
    }).rows;
  const settings = {
    family: 'poisson' as const,
    sampler: { warmup: 200, draws: 500, chains: 2, parallelism: 'single' as const, seed: 'ppc-dispersion' },
    posteriorPredictive: { replicates: 1000 },
    loo: false,
  };
  const moderate = await fitDemocracyModel(panel(5, 'ppc-phi-5'), settings);
  const poisson = await fitDemocracyModel(panel(Infinity, 'ppc-poisson'), settings);
  const statistic = (fit: typeof moderate) => fit.posteriorPredictive!.statistics.find((s) => s.name === 'pearson_dispersion')!;
  const flagged = statistic(moderate);
  const passed = statistic(poisson);
  console.log(
    `Poisson fit, φ = 5 data: χ²/df ${flagged.observed.toFixed(2)} (replicated ${flagged.replicatedMean.toFixed(2)}), p ${flagged.pValue}`,
  );
  console.log(
    `Poisson fit, Poisson data: χ²/df ${passed.observed.toFixed(2)} (replicated ${passed.replicatedMean.toFixed(2)}), p ${passed.pValue}`,
  );
  assert.equal(moderate.posteriorPredictive!.replicates, 1000);
  assert.ok(flagged.pValue < 0.001 && flagged.extreme, `φ = 5: p ${flagged.pValue}`);
  assert.ok(flagged.observed > 1.5, `φ = 5: χ²/df ${flagged.observed}`);
  assert.ok(moderate.posteriorPredictive!.flagged.includes('pearson_dispersion'));
  assert.ok(!passed.extreme && passed.pValue > 0.05 && passed.pValue < 0.95, `Poisson: p ${passed.pValue}`);
  assert.ok(Math.abs(passed.observed - 1) < 0.3, `Poisson: χ²/df ${passed.observed}`);
  assert.ok(!poisson.posteriorPredictive!.flagged.includes('pearson_dispersion'));
});
