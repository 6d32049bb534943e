import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG, resolveConfig } from './config.ts';
import { fitDemocracyModel } from './fit.ts';
import { describeParameterisation } from './model.ts';
import { simulatePanel } from './simulate.ts';

// A small panel keeps this end-to-end check quick; parameter recovery at full size is recovery.test.ts.
const { rows } = simulatePanel({
  countries: 24,
  firstYear: 2010,
  years: 5,
  predictors: ['openness', 'wealth'],
  truth: { alpha: -5.5, beta: { openness: -0.4, wealth: 0.2 }, sigmaCountry: 0.7, sigmaYear: 0.2, phi: 8 },
  seed: 'fit-small',
});
const panel = [...rows, { country: 'Nowhere', year: 2010, publications: 0, retractions: 0, predictors: { openness: 1, wealth: 1 } }];
const sampler = { warmup: 200, draws: 200, chains: 2 };

test('fitDemocracyModel returns a complete, JSON-serialisable fitted result', async () => {
  const fit = await fitDemocracyModel(panel, {
    sampler: { ...sampler, parallelism: 'single' },
    variables: { openness: { label: 'press openness', source: 'test source' } },
  });
  assert.equal(fit.source, 'fitted');
  assert.deepEqual(fit.predictors, ['openness', 'wealth']);
  assert.deepEqual(JSON.parse(JSON.stringify(fit)), fit);

  assert.equal(fit.summaries.length, 2);
  for (const s of fit.summaries) {
    assert.ok(s.ciLower! < s.mean && s.mean < s.ciUpper!);
    assert.ok(Math.abs(s.probPositive! + s.probNegative! - 1) < 1e-12);
    assert.equal(s.rateRatio, Math.exp(s.mean));
    assert.ok(typeof s.rhat === 'number' && typeof s.essBulk === 'number' && typeof s.essTail === 'number');
  }
  assert.ok(fit.summaries[0].interpretation.includes('press openness'), 'the configured label is used');
  assert.deepEqual(
    fit.hyperparameters.map((h) => h.name),
    ['alpha', 'sigma_country', 'sigma_year', 'phi'],
  );

  const d = fit.diagnostics;
  assert.equal(d.chains, 2);
  assert.equal(d.warmup, 200);
  assert.equal(d.draws, 200);
  assert.equal(d.iterations, 400);
  assert.equal(d.sampleSize, 120);
  assert.equal(d.countries, 24);
  assert.deepEqual(d.years, { first: 2010, last: 2014, count: 5 });
  for (const key of [
    'rhatMax',
    'essBulkMin',
    'essTailMin',
    'essRatioMin',
    'essPerSecond',
    'divergences',
    'meanAcceptStat',
    'samplerSeconds',
  ] as const) {
    assert.equal(typeof d[key], 'number', key);
  }
  assert.ok(d.rhatMax! >= 1 - 1e-9 && d.rhatMax! < 1.1);
  assert.equal(d.treeDepthSaturation!.maxTreeDepth, DEFAULT_CONFIG.sampler.maxTreeDepth);
  const k = d.loo!.paretoK!;
  assert.equal(k.good + k.ok + k.bad + k.veryBad, 120);
  assert.ok(d.loo!.pLoo! > 0 && d.loo!.looic! === -2 * d.loo!.elpdLoo!);

  // Data accounting and methodology come from the same run and configuration.
  assert.equal(fit.data!.excludedRows, 1);
  const m = fit.methodology;
  assert.equal(m.sampler.chains, 2);
  assert.equal(m.sampler.warmup, 200);
  assert.equal(m.sampler.seed, String(DEFAULT_CONFIG.sampler.seed));
  assert.ok(m.priors!.some((p) => p.text === 'phi ~ Gamma(shape 2, rate 0.1)'));
  assert.ok(m.priors!.some((p) => p.text === 'alpha ~ Normal(0, 3)'));
  assert.ok(m.limitations.some((l) => l.includes('1 of 121 rows were excluded')));
  const openness = m.variables.find((v) => v.name === 'openness')!;
  assert.equal(openness.source, 'test source');
  assert.equal(fit.config!.sampler.parallelism, 'single');
  assert.ok(fit.timing!.samplerSeconds > 0 && fit.timing!.warmupSecondsPerChain.length === 2);

  // CPU time of the chains' threads beside the wall clock (Node 24 measures it), and what the machine was doing.
  const timing = fit.timing!;
  assert.equal(timing.warmupCpuSecondsPerChain.length, 2);
  assert.ok(timing.samplingCpuSecondsPerChain.every((v) => typeof v === 'number' && v > 0));
  const cpuSum = [...timing.warmupCpuSecondsPerChain, ...timing.samplingCpuSecondsPerChain].reduce((a, v) => a! + v!, 0)!;
  assert.ok(Math.abs(timing.samplerCpuSeconds! - cpuSum) < 1e-9);
  assert.equal(d.samplerCpuSeconds, timing.samplerCpuSeconds);
  assert.ok(Math.abs(d.essPerCpuSecond! - d.essBulkMin! / timing.samplerCpuSeconds!) < 1e-9);
  assert.equal(timing.workers, 0, 'single: chains on the calling thread');
  assert.ok(timing.availableCores >= 1 && timing.loadAverageBefore >= 0);

  // Monte Carlo standard errors next to R̂ and ESS, for coefficients, hyperparameters and effects alike.
  for (const s of [...fit.summaries, ...fit.hyperparameters, ...fit.effects!.country, ...fit.effects!.year]) {
    for (const key of ['mean', 'sd', 'median', 'ciLower', 'ciUpper'] as const) assert.ok(s.mcse![key]! > 0, `${s.name} mcse.${key}`);
  }
  assert.ok(fit.summaries.every((s) => s.mcse!.probPositive! >= 0 && s.mcse!.rateRatio! > 0));
  // Country and year effects with their intervals, one per level, counted rows.
  assert.equal(fit.effects!.country.length, 24);
  assert.deepEqual(
    fit.effects!.year.map((e) => e.level),
    ['2010', '2011', '2012', '2013', '2014'],
  );
  assert.ok(fit.effects!.year.every((e) => e.observations === 24 && e.name === `v[${e.level}]` && e.ciLower! < e.ciUpper!));
  // WAIC beside PSIS-LOO; posterior predictive checks by default.
  assert.ok(Math.abs(d.waic!.elpdWaic - d.loo!.elpdLoo!) < 0.05 * Math.abs(d.loo!.elpdLoo!));
  assert.equal(fit.posteriorPredictive!.replicates, 400, 'at most one replicate per draw');
  // The choices made: what differs from the defaults.
  assert.deepEqual(fit.choices!.map((c) => c.setting).sort(), ['sampler.chains', 'sampler.draws', 'sampler.parallelism', 'sampler.warmup']);
});

test('worker threads give the same fit as one thread for the same seed, and report progress', async () => {
  const small = { ...sampler, warmup: 100, draws: 100 };
  // Runs this short may diverge; the automatic refit is tested in parameterisation.test.ts.
  const single = await fitDemocracyModel(rows, { sampler: { ...small, parallelism: 'single' }, loo: false, nonCentredOnDivergence: false });
  const progress: { chain: number; completed: number; total: number }[] = [];
  const workers = await fitDemocracyModel(
    rows,
    { sampler: { ...small, parallelism: 'workers', maxWorkers: 2 }, loo: false, nonCentredOnDivergence: false },
    { onProgress: (p) => progress.push(p) },
  );
  for (const chain of [0, 1]) {
    const mine = progress.filter((p) => p.chain === chain).map((p) => p.completed);
    assert.deepEqual(mine, [25, 50, 75, 100, 125, 150, 175, 200]);
  }
  assert.ok(progress.every((p) => p.total === 200));
  assert.deepEqual(workers.summaries, single.summaries);
  assert.equal(workers.diagnostics.rhatMax, single.diagnostics.rhatMax);
  assert.equal(workers.diagnostics.loo, null);
});

test('methodology follows the configuration: a changed prior changes the text and the fit', async () => {
  const config = {
    sampler: { ...sampler, warmup: 100, draws: 100, parallelism: 'single' as const },
    loo: false,
    nonCentredOnDivergence: false,
  };
  const base = await fitDemocracyModel(rows, config);
  const tight = await fitDemocracyModel(rows, { ...config, priors: { coefficients: { mean: 0, sd: 0.01 } } });
  assert.ok(tight.methodology.priors!.some((p) => p.text === 'beta_k ~ Normal(0, 0.01) for every predictor k'));
  assert.equal(base.methodology.model.parameterisation, describeParameterisation(base.config!.parameterisation));
  assert.ok(base.methodology.model.parameterisation!.startsWith('country effects centred'));
  assert.ok(base.methodology.sampler.text.includes('2 chains of 100 warmup and 100 kept iterations'));
  assert.ok(!base.methodology.priors!.some((p) => p.text.includes('0.01')));
  // A prior that tight pulls the coefficients to 0.
  for (const s of tight.summaries) assert.ok(Math.abs(s.mean) < 0.05 && s.sd! < 0.02, `${s.name}: ${s.mean} ± ${s.sd}`);
});

test('bad configuration and empty panels are refused with a RangeError', async () => {
  assert.throws(() => resolveConfig({ sampler: { chains: 0 } }), /sampler.chains/);
  assert.throws(() => resolveConfig({ sampler: { targetAcceptance: 1.5 } }), /targetAcceptance/);
  assert.throws(() => resolveConfig({ priors: { dispersion: { shape: -1, rate: 0.1 } } }), /dispersion.shape/);
  await assert.rejects(fitDemocracyModel([], {}), /no complete rows/);
});
