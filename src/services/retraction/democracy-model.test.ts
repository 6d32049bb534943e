// The democracy model as the service runs it: `fit retraction` on an imported panel (a small one, drawn from
// the model with known coefficients), stored with the data version and served by the three model endpoints;
// a changed panel marks the stored fit as describing an earlier panel.
import { after, before, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import type { ServiceApp } from '../../core/service.ts';
import { listDataVersions } from '../../core/db/datasets.ts';
import { simulatePanel } from './bayes/simulate.ts';
import { retractionService } from './service.ts';
import { importPanel } from './import.ts';
import { fitOptionsFromCli, fitOverrides, fitReport, fitStoredPanel, importPublishedFit } from './democracy-model.ts';
import { tempDir, writeCsv } from '../../../test/support/retraction/fixtures.ts';

const publishedGate = needsSharedData('retraction', 'democracy_model_results.json');
const SMALL_FIT = { warmup: 150, draws: 150, chains: 2, parallelism: 'single' as const, seed: 'service-test' };

function panelRows(seed: string) {
  const { rows } = simulatePanel({
    countries: 16,
    firstYear: 2012,
    years: 4,
    predictors: ['democracy_index', 'gdp'],
    truth: { alpha: -6, beta: { democracy_index: -0.4, gdp: 0.1 }, sigmaCountry: 0.5, sigmaYear: 0.1, phi: 10 },
    seed,
  });
  return rows.map((r) => [
    r.country,
    '',
    'Test region',
    r.year,
    (r.predictors.democracy_index as number).toFixed(6),
    r.publications,
    r.retractions,
    (r.predictors.gdp as number).toFixed(6),
  ]);
}
const HEADER = ['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions', 'gdp'];

describeEachDatabase(
  'retraction democracy model',
  (t) => {
    let dir: string;
    let app: ServiceApp;
    before(async () => {
      dir = tempDir('model');
      await importPanel(t.db, writeCsv(path.join(dir, 'panel.csv'), HEADER, panelRows('panel-a')));
      app = await buildTestApp(retractionService, testContext(retractionService, t.db, { dataDir: dir }));
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const get = async (url: string) => (await app.inject({ url, remoteAddress: '203.0.113.1' })).json();

    it('reports not_fitted before any fit', async () => {
      const body = await get('/api/democracy/statistical-results/');
      assert.equal(body.model.status, 'not_fitted');
      assert.deepEqual(body.predictors, []);
    });

    it('fits the imported panel on command and serves the stored fit as numbers', async () => {
      const { report, fit } = await fitStoredPanel(t.db, SMALL_FIT);
      assert.equal(report.dataset, 'democracy-model-fit');
      // What the command prints: the settings, both clocks, and the checks.
      const printed = fitReport(fit, report);
      assert.match(printed, /2 chains × \(150 warmup \+ 150 draws\)/);
      assert.match(printed, /wall-clock, [\d.]+ CPU-seconds in 1 thread/);
      assert.match(printed, /PSIS-LOO elpd .*; WAIC elpd/);
      assert.match(printed, /posterior predictive checks \(300 replicates\)/);
      assert.equal(fit.source, 'fitted');
      assert.deepEqual(fit.predictors, ['democracy_index', 'gdp']);

      const results = await get('/api/democracy/statistical-results/');
      assert.equal(results.model.status, 'fitted');
      assert.equal(results.model.describes_current_panel, true);
      const panelVersion = (await listDataVersions(t.db.kysely, 'retraction')).find((v) => v.dataset === 'democracy-panel')!.version;
      assert.equal(results.model.panel_data_version, panelVersion);
      assert.deepEqual(
        results.predictors.map((p: { predictor: string }) => p.predictor),
        ['democracy_index', 'gdp'],
      );
      for (const p of results.predictors) {
        assert.equal(typeof p.posterior_mean, 'number');
        assert.ok(p.credible_interval_95.lower < p.posterior_mean && p.posterior_mean < p.credible_interval_95.upper);
        assert.ok(Math.abs(p.rate_ratio - Math.exp(p.posterior_mean)) < 1e-12);
        assert.ok(Math.abs(p.prob_positive + p.prob_negative - 1) < 1e-9);
        assert.match(p.interpretation, /per one standard deviation/i);
      }
      // The stored numbers are the fit's own.
      assert.equal(results.predictors[0].posterior_mean, fit.summaries[0].mean);
      assert.deepEqual(
        results.hyperparameters.map((h: { parameter: string }) => h.parameter),
        ['alpha', 'sigma_country', 'sigma_year', 'phi'],
      );

      const diagnostics = await get('/api/democracy/model-diagnostics/');
      assert.equal(diagnostics.sampler.chains, 2);
      assert.equal(diagnostics.sampler.warmup, 150);
      assert.equal(diagnostics.sampler.iterations, 300);
      assert.equal(diagnostics.data.sample_size, 64);
      assert.equal(diagnostics.data.countries, 16);
      assert.deepEqual(diagnostics.data.years, { first: 2012, last: 2015, count: 4 });
      for (const value of [
        diagnostics.convergence.rhat_max,
        diagnostics.convergence.ess_bulk_min,
        diagnostics.convergence.ess_tail_min,
        diagnostics.sampler.divergences,
        diagnostics.loo.elpd_loo,
        diagnostics.loo.p_loo,
        diagnostics.sampler.sampler_seconds,
      ]) {
        assert.equal(typeof value, 'number');
      }
      const k = diagnostics.loo.pareto_k;
      assert.equal(k.good + k.ok + k.bad + k.very_bad, 64);
      assert.equal(typeof diagnostics.checks.rhat_below_threshold, 'boolean');

      const methodology = (await get('/api/democracy/methodology/')).methodology;
      assert.equal(methodology.sampler.chains, 2);
      assert.ok(methodology.priors.some((p: { text: string }) => p.text === 'phi ~ Gamma(shape 2, rate 0.1)'));
      assert.equal(methodology.configuration.sampler.seed, 'service-test');
      assert.equal(methodology.data_sources[0].name, 'panel.csv');
      assert.ok(
        methodology.variables.some((v: { name: string; source: string }) => v.name === 'democracy_index' && v.source === 'panel.csv'),
      );

      const overview = await get('/api/democracy/overview/');
      assert.equal(overview.democracy_effect.posterior_mean, results.predictors[0].posterior_mean);
    });

    it('keeps the fitted and the imported model apart and says which is served', { skip: publishedGate.skip }, async () => {
      await importPublishedFit(t.db, sharedData('retraction', 'democracy_model_results.json'));
      assert.equal((await get('/api/democracy/statistical-results/')).model.status, 'fitted', "the service's own fit is the default");
      const imported = await get('/api/democracy/statistical-results/?source=imported');
      assert.equal(imported.model.status, 'imported');
      assert.deepEqual(imported.model.available_sources, ['fitted', 'imported']);
      assert.ok(imported.predictors.some((p: { predictor: string }) => p.predictor === 'democracy'));
      const diagnostics = await get('/api/democracy/model-diagnostics/?source=imported');
      assert.equal(diagnostics.convergence.rhat_max, 1.0032);
      assert.equal(diagnostics.convergence.ess_bulk_min, null);
      assert.equal(diagnostics.loo.looic, 10869.6921);
    });

    it('marks the stored fit as describing an earlier panel once the panel changes', async () => {
      await importPanel(t.db, writeCsv(path.join(dir, 'panel.csv'), HEADER, panelRows('panel-b')));
      const body = await get('/api/democracy/statistical-results/?source=fitted');
      assert.equal(body.model.status, 'fitted');
      assert.equal(body.model.describes_current_panel, false);
      assert.match(body.model.note, /earlier version of the panel/);
      // The kept fit is no longer compared (its rows are gone), and its log-likelihood cannot be recomputed.
      const comparison = await get('/api/democracy/model-comparison/');
      assert.deepEqual(comparison.models, []);
      assert.equal(comparison.excluded.length, 1);
      assert.match(comparison.excluded[0].reason, /earlier panel/);
      const logLik = await app.inject({ url: `/api/democracy/log-lik/?model=${comparison.excluded[0].label}` });
      assert.equal(logLik.statusCode, 409);
      assert.equal(logLik.json().code, 'PANEL_CHANGED');
    });
  },
  { migrations: retractionService.migrations },
);

test('fit options from the command line: Stan-style iterations, priors, adapt delta, family, k-fold', () => {
  assert.deepEqual(fitOptionsFromCli({ iter: '3000', chains: '4', adaptDelta: '0.95', seed: 7 }), {
    seed: 7,
    warmup: 1500,
    draws: 1500,
    chains: 4,
    adaptDelta: 0.95,
  });
  assert.deepEqual(fitOptionsFromCli({ iter: '2000', warmup: '500' }), { warmup: 500, draws: 1500 });
  const priors = fitOptionsFromCli({ prior: ['beta=normal(0, 0.5)', 'sigma_country=exponential(2)', 'phi=gamma(2,0.05)'] }).priors;
  assert.deepEqual(priors, { coefficients: { mean: 0, sd: 0.5 }, sigmaCountry: { rate: 2 }, dispersion: { shape: 2, rate: 0.05 } });
  assert.deepEqual(fitOptionsFromCli({ family: 'poisson', kfold: '10', maxTreedepth: '12' }), {
    family: 'poisson',
    kfold: 10,
    maxTreeDepth: 12,
  });
  // The overrides reach the configuration, and only what was given.
  assert.deepEqual(fitOverrides(fitOptionsFromCli({ iter: '400', adaptDelta: '0.9', prior: 'alpha=normal(-6,2)' })), {
    priors: { intercept: { mean: -6, sd: 2 } },
    sampler: { warmup: 200, draws: 200, targetAcceptance: 0.9 },
  });
  for (const [options, message] of [
    [{ iter: '10', warmup: '10' }, /--warmup \(10\) must be less than --iter \(10\)/],
    [{ iter: 'many' }, /--iter must be a whole number/],
    [{ chains: '0' }, /--chains must be a whole number ≥ 1/],
    [{ adaptDelta: '1.2' }, /--adapt-delta/],
    [{ seed: Number.NaN }, /--seed must be a whole number/],
    [{ family: 'gaussian' }, /--family must be negbinomial2 or poisson/],
    [{ prior: 'beta=cauchy(0,1)' }, /prior for beta is normal\(mean, sd\), not cauchy/],
    [{ prior: 'gamma=normal(0,1)' }, /unknown parameter "gamma"/],
    [{ prior: 'phi=gamma(2)' }, /gamma takes 2 number\(s\): shape, rate/],
    [{ prior: 'beta normal 0 1' }, /expected name=distribution\(parameters\)/],
    [{ parameterisation: 'funnel' }, /--parameterisation must be one of auto, centred, non-centred/],
    [{ label: 'a b' }, /--label must be 1–40 letters/],
  ] as const) {
    assert.throws(() => fitOptionsFromCli(options), message);
  }
  // --parameterisation: auto switches on divergences; centred never switches; non-centred samples both effects non-centred.
  assert.deepEqual(fitOverrides(fitOptionsFromCli({ parameterisation: 'auto' })), { nonCentredOnDivergence: true, sampler: {} });
  assert.deepEqual(fitOverrides(fitOptionsFromCli({ parameterisation: 'centred' })), { nonCentredOnDivergence: false, sampler: {} });
  assert.deepEqual(fitOverrides(fitOptionsFromCli({ parameterisation: 'non-centred', label: 'nb-nc' })), {
    nonCentredOnDivergence: false,
    parameterisation: { countryEffects: 'non-centred', yearEffects: 'non-centred' },
    sampler: {},
  });
  assert.equal(fitOptionsFromCli({ label: 'nb-nc' }).label, 'nb-nc');
});
