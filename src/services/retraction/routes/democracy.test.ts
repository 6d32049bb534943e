// The democracy endpoints on SQLite and PostgreSQL: the panel, its visualisations, the model endpoints before
// any fit, and the bad inputs; then a small fit of a generated panel and what is served from it.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { tempDir, writeGeneratedPanel } from '../../../../test/support/retraction/fixtures.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { pearson } from '../democracy.ts';
import { fitStoredPanel } from '../democracy-model.ts';
import { importPanel } from '../import.ts';
import { psisLoo } from '../bayes/psis.ts';
import { retractionService } from '../service.ts';

describeEachDatabase(
  'retraction routes: democracy',
  (t) => {
    const fx = retractionHttpFixture(t);

    it('serves the democracy panel, its visualisations and the model endpoints', async () => {
      const overview = (await fx.get('/api/democracy/overview/')).body;
      assert.equal(overview.panel.rows, 1080);
      assert.equal(overview.panel.countries, 60);
      assert.deepEqual(overview.panel.predictors.slice(0, 1), ['democracy_index']);
      assert.ok(['imported', 'not_fitted'].includes(overview.model.status));

      const chile = (await fx.get('/api/democracy/raw-data/?country=CHL&limit=5')).body;
      assert.deepEqual([chile.count, chile.total, chile.limit], [5, 18, 5]);
      assert.ok(chile.data.every((r: { iso3: string; is_demo: boolean }) => r.iso3 === 'CHL' && r.is_demo));
      const partial = (await fx.get('/api/democracy/raw-data/?country=chi&year=2010')).body;
      assert.deepEqual(partial.data.map((r: { country: string }) => r.country).sort(), ['Chile', 'China', 'Czechia']); // chi is part of each name
      assert.equal((await fx.get('/api/democracy/raw-data/')).body.limit, 100);
      const clamped = (await fx.get('/api/democracy/raw-data/?limit=5000')).body;
      assert.deepEqual([clamped.limit, clamped.count], [1000, 1000]);

      const vis = (await fx.get('/api/democracy/visualizations/')).body;
      assert.equal(vis.scatter.points.length, 60);
      const r = pearson(
        vis.scatter.points.map((p: { democracy_index: number }) => p.democracy_index),
        vis.scatter.points.map((p: { retraction_rate: number }) => p.retraction_rate),
      )!;
      assert.ok(Math.abs(vis.scatter.correlation.pearson_r - r) < 1e-3);
      assert.equal(vis.temporal_trends.length, 18);
      assert.equal(vis.world_map.length, 60);
      assert.equal(
        vis.regional_summary.reduce((a: number, g: { countries: number }) => a + g.countries, 0),
        60,
      );

      const fitted = (await fx.get('/api/democracy/statistical-results/?source=fitted')).body;
      assert.equal(fitted.model.status, 'not_fitted');
      assert.deepEqual(fitted.predictors, []);
      assert.match(fitted.model.note, /pdi fit retraction/);
      const diagnostics = (await fx.get('/api/democracy/model-diagnostics/?source=fitted')).body;
      assert.equal(diagnostics.convergence, null);
      assert.equal((await fx.get('/api/democracy/methodology/?source=fitted')).body.methodology, null);
    });

    errorCases(fx, [
      ['GET', '/api/democracy/raw-data/?year=abc', 400, 'INVALID_PARAMETER', /^year must be an integer$/],
      ['GET', '/api/democracy/raw-data/?year=1500', 400, 'INVALID_PARAMETER', /^year must be a whole year between 1800 and 2200$/],
      ['GET', '/api/democracy/raw-data/?limit=-1', 400, 'INVALID_PARAMETER', /^limit must be at least 1$/],
      ['GET', '/api/democracy/statistical-results/?source=guess', 400, 'INVALID_PARAMETER', /^source must be one of: fitted, imported$/],
      ['DELETE', '/api/democracy/overview/', 405, 'METHOD_NOT_ALLOWED', /^GET method required$/],
    ]);
  },
  { migrations: retractionService.migrations },
);

// A simulated panel imported by hand (not through the demo) carries the generator's marker column: every
// democracy response labels it generated. Fitted small; the model endpoints, the effects, the predictive
// checks and the streamed draws are read from the stored fit.
describeEachDatabase(
  'retraction routes: democracy model, effects, predictive checks and draws of a fit to a generated panel',
  (t) => {
    let dir: string;
    let app: ServiceApp;
    let client = 0;
    const address = () => `10.77.${(client >> 8) & 255}.${client++ & 255}`;
    const get = async (url: string, remoteAddress = address()) => {
      const res = await app.inject({ url, remoteAddress });
      const json = String(res.headers['content-type']).startsWith('application/json') ? res.json() : null;
      return { status: res.statusCode, body: json, text: res.body, headers: res.headers };
    };
    before(async () => {
      dir = tempDir('democracy-fit');
      const file = writeGeneratedPanel(dir, { countries: 16, firstYear: 2012, seed: 'routes-fit' });
      await importPanel(t.db, file); // no isDemo: the file itself says it is generated
      app = await buildTestApp(retractionService, testContext(retractionService, t.db, { dataDir: dir }));
    });
    after(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('has no draws to serve before a fit', async () => {
      const res = await get('/api/democracy/draws/');
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'NO_DRAWS');
      assert.match(res.body.error, /pdi fit retraction/);
    });

    it('serves MCSEs, sign probabilities, effects, checks and labelled clocks, all labelled generated', async () => {
      await fitStoredPanel(t.db, {
        warmup: 150,
        draws: 150,
        chains: 2,
        parallelism: 'single',
        seed: 'routes-fit',
        posteriorPredictiveReplicates: 200,
        priors: { coefficients: { mean: 0, sd: 2 } },
      });

      const results = (await get('/api/democracy/statistical-results/')).body;
      assert.equal(results.model.panel_generated, true);
      assert.match(results.model.note, /GENERATED/);
      assert.match(results.uncertainty, /Monte Carlo standard error/);
      for (const p of results.predictors) {
        assert.ok(!/excludes|includes a rate ratio/.test(p.interpretation), p.interpretation);
        assert.equal(p.sign.probability, Math.max(p.prob_positive, p.prob_negative));
        assert.equal(p.sign.direction, p.prob_negative >= p.prob_positive ? 'negative' : 'positive');
        assert.match(p.interpretation, new RegExp(`association is ${p.sign.direction}`));
        for (const value of [
          p.mcse.posterior_mean,
          p.mcse.posterior_sd,
          p.mcse.posterior_median,
          p.mcse.credible_interval_95.lower,
          p.mcse.credible_interval_95.upper,
          p.mcse.rate_ratio,
          p.sign.mcse,
        ]) {
          assert.ok(typeof value === 'number' && value >= 0, JSON.stringify(p.mcse));
        }
        // An MCSE is small against the posterior sd it refers to (about sd/√ESS).
        assert.ok(p.mcse.posterior_mean < 0.2 * p.posterior_sd);
      }
      assert.ok(results.hyperparameters.every((h: { mcse: { posterior_mean: number } }) => h.mcse.posterior_mean > 0));

      const effects = (await get('/api/democracy/effects/')).body;
      assert.equal(effects.country_effects.length, 16);
      assert.deepEqual(
        effects.year_effects.map((e: { level: string }) => e.level),
        ['2012', '2013', '2014', '2015'],
      );
      for (const e of [...effects.country_effects, ...effects.year_effects]) {
        assert.ok(e.credible_interval_95.lower < e.posterior_mean && e.posterior_mean < e.credible_interval_95.upper);
        assert.equal(e.parameter, `${e.group === 'country' ? 'u' : 'v'}[${e.level}]`);
        assert.ok(e.mcse.posterior_mean > 0 && typeof e.rhat === 'number');
      }
      assert.equal((await get('/api/democracy/effects/?group=year')).body.country_effects.length, 0);

      const diagnostics = (await get('/api/democracy/model-diagnostics/')).body;
      assert.equal(typeof diagnostics.waic.elpd_waic, 'number');
      assert.ok(Math.abs(diagnostics.waic.waic + 2 * diagnostics.waic.elpd_waic) < 1e-9);
      assert.ok(Array.isArray(diagnostics.loo.flagged_observations));
      assert.equal(diagnostics.loo.flagged_count, diagnostics.loo.pareto_k.bad + diagnostics.loo.pareto_k.very_bad);
      assert.equal(diagnostics.kfold, null);
      assert.match(diagnostics.timing.clock, /wall-clock/i);
      assert.ok(
        diagnostics.timing.cpu.sampler_seconds > 0 && diagnostics.sampler.sampler_cpu_seconds === diagnostics.timing.cpu.sampler_seconds,
      );
      assert.equal(diagnostics.timing.cpu.sampling_seconds_per_chain.length, 2);
      assert.equal(diagnostics.timing.machine.worker_threads, 0);
      assert.equal(typeof diagnostics.convergence.ess_per_cpu_second, 'number');
      assert.deepEqual(diagnostics.posterior_predictive.details, '/api/democracy/posterior-predictive/');

      const ppc = (await get('/api/democracy/posterior-predictive/')).body;
      assert.equal(ppc.check.replicates, 200);
      assert.deepEqual(
        ppc.check.statistics.map((s: { name: string }) => s.name),
        ['share_of_zeros', 'mean', 'sd', 'max', 'pearson_dispersion'],
      );
      assert.equal(ppc.check.year_totals.length, 4);
      assert.equal(
        ppc.check.rootogram.reduce((a: number, b: { observed: number }) => a + b.observed, 0),
        64,
      );
      assert.ok(ppc.check.statistics.every((s: { p_value: number; mcse_p_value: number }) => s.p_value >= 0 && s.p_value <= 1));
      assert.deepEqual(ppc.check.flagged, diagnostics.posterior_predictive.flagged);

      const methodology = (await get('/api/democracy/methodology/')).body;
      assert.deepEqual(
        methodology.methodology.choices.find((c: { setting: string }) => c.setting === 'priors.coefficients.sd'),
        { setting: 'priors.coefficients.sd', value: 2, default: 1 },
      );
      assert.ok(methodology.methodology.diagnostics_used.some((d: string) => d.startsWith('WAIC')));

      // Every democracy response says the data are generated.
      for (const url of [
        '/api/democracy/overview/',
        '/api/democracy/raw-data/',
        '/api/democracy/visualizations/',
        '/api/democracy/statistical-results/',
        '/api/democracy/effects/',
        '/api/democracy/model-diagnostics/',
        '/api/democracy/posterior-predictive/',
        '/api/democracy/methodology/',
        '/api/democracy/draws/',
      ]) {
        const body = (await get(url)).body;
        assert.equal(body.data_source.kind, 'generated', url);
        assert.equal(body.data_source.is_demo, true, url);
      }
    });

    it('streams the draws as JSON and CSV, by parameter name or group', async () => {
      const json = await get('/api/democracy/draws/');
      assert.equal(json.status, 200);
      assert.match(String(json.headers['content-disposition']), /attachment; filename="democracy-draws-generated-.*\.json"/);
      assert.equal(json.headers['x-data-kind'], 'generated');
      const body = json.body;
      assert.deepEqual(body.parameters, ['alpha', 'beta[democracy_index]', 'beta[gdp]', 'sigma_country', 'sigma_year', 'phi']);
      assert.deepEqual(body.columns.slice(0, 3), ['.chain', '.iteration', '.draw']);
      assert.equal(body.draws.length, 300);
      assert.deepEqual(body.draws[150].slice(0, 3), [2, 1, 151]);
      // The served draws are the ones the summaries were computed from.
      const results = (await get('/api/democracy/statistical-results/')).body;
      assert.deepEqual(body.columns.slice(3), ['alpha', 'beta_democracy_index', 'beta_gdp', 'sigma_country', 'sigma_year', 'phi']);
      const column = body.columns.indexOf('beta_democracy_index');
      const mean = body.draws.reduce((a: number, row: number[]) => a + row[column], 0) / body.draws.length;
      assert.ok(Math.abs(mean - results.predictors[0].posterior_mean) < 1e-12);

      const csv = await get('/api/democracy/draws/?format=csv&parameters=u,v[2013]');
      assert.equal(csv.status, 200);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      const lines = csv.text.trim().split('\r\n');
      assert.equal(lines.length, 301);
      const header = lines[0].split(',');
      assert.equal(header.length, 3 + 16 + 1);
      // Names R's read.csv and pandas keep: u_<country>, v_2013 (make.names would leave them as they are).
      assert.ok(header[3].startsWith('u_') && header[header.length - 1] === 'v_2013');
      assert.ok(
        header.every((name) => /^(\.[A-Za-z_]|[A-Za-z])[A-Za-z0-9._]*$/.test(name)),
        header.join(','),
      );
      assert.equal(new Set(header).size, header.length);
      // names=stan keeps the model's names; a column name selects as the model name does.
      const stan = await get('/api/democracy/draws/?format=csv&parameters=beta_gdp,v[2013]&names=stan');
      assert.equal(stan.text.split('\r\n')[0], '.chain,.iteration,.draw,beta[gdp],v[2013]');
      const bad = await get('/api/democracy/draws/?names=r');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'INVALID_PARAMETER');
      assert.ok(
        lines[1]
          .split(',')
          .slice(3)
          .every((cell) => Number.isFinite(Number(cell))),
      );
    });

    it('refuses unknown parameters and formats', async () => {
      const unknown = await get('/api/democracy/draws/?parameters=alpha,gamma');
      assert.equal(unknown.status, 400);
      assert.deepEqual(unknown.body, { error: 'parameters: unknown parameter: gamma', code: 'INVALID_PARAMETER' });
      const format = await get('/api/democracy/draws/?format=xml');
      assert.equal(format.status, 400);
      assert.equal(format.body.code, 'INVALID_PARAMETER');
    });

    it('limits the draws with the exports: 10 downloads a minute per client, one budget', async () => {
      const me = '10.78.0.1';
      for (let i = 0; i < 9; i++) assert.equal((await get('/api/democracy/draws/?parameters=alpha', me)).status, 200);
      assert.equal((await get('/api/export/?limit=1', me)).status, 200);
      const over = await get('/api/democracy/draws/?parameters=alpha', me);
      assert.equal(over.status, 429);
      assert.equal(over.body.code, 'RATE_LIMITED');
      assert.match(over.body.error, /export/);
    });

    it('keeps fits side by side, compares them as loo_compare and serves their pointwise log-likelihood', async () => {
      const small = {
        warmup: 150,
        draws: 150,
        chains: 2,
        parallelism: 'single' as const,
        seed: 'routes-fit',
        posteriorPredictiveReplicates: 0,
      };
      const { label } = await fitStoredPanel(t.db, { ...small, family: 'poisson', label: 'poisson' });
      assert.equal(label, 'poisson');
      const models = (await get('/api/democracy/models/')).body.models;
      assert.equal(models.length, 2);
      const nb = models.find((m: { family: string }) => m.family === 'negbinomial2');
      assert.match(nb.label, /^negbinomial2-/);
      assert.ok(
        models.every((m: { describes_current_panel: boolean; panel_generated: boolean }) => m.describes_current_panel && m.panel_generated),
      );

      const comparison = (await get('/api/democracy/model-comparison/')).body;
      assert.equal(comparison.observations, 64);
      assert.deepEqual(comparison.excluded, []);
      const [best, other] = comparison.models;
      assert.deepEqual([best.elpd_diff, best.se_diff], [0, 0]);
      assert.ok(best.elpd_loo >= other.elpd_loo);
      assert.ok(Math.abs(other.elpd_diff - (other.elpd_loo - best.elpd_loo)) < 1e-9);
      assert.ok(other.se_diff > 0);
      assert.match(comparison.method, /loo_compare/);

      // The downloaded log_lik matrix gives back the fit's own PSIS-LOO: loo::loo() on it would print the same elpd_loo.
      const csv = await get(`/api/democracy/log-lik/?model=${encodeURIComponent(other.label)}`);
      assert.equal(csv.status, 200);
      assert.equal(csv.headers['x-data-kind'], 'generated');
      const lines = csv.text.trim().split('\r\n');
      const header = lines[0].split(',');
      assert.equal(header.length, 3 + 64);
      assert.ok(
        header.slice(3).every((h) => /^log_lik_[A-Za-z0-9._]+_20\d\d$/.test(h)),
        header.slice(3, 6).join(','),
      );
      const draws = lines.slice(1).map((line) => line.split(',').map(Number));
      assert.equal(draws.length, 300);
      const loo = psisLoo(64, 300, 2, (i, out) => draws.forEach((row, s) => (out[s] = row[3 + i])));
      assert.ok(Math.abs(loo.summary.elpdLoo! - other.elpd_loo) < 1e-9, `${loo.summary.elpdLoo} vs ${other.elpd_loo}`);

      const stan = await get('/api/democracy/log-lik/?model=poisson&names=stan');
      // The model's names hold a comma: the CSV quotes them.
      assert.match(stan.text.split('\r\n')[0], /^\.chain,\.iteration,\.draw,"log_lik\[Country 01,2012\]","log_lik\[Country 01,2013\]"/);
      const unknown = await get('/api/democracy/log-lik/?model=nonesuch');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'NO_FIT');
      assert.equal((await get('/api/democracy/log-lik/?model=a%20b')).status, 400);
      assert.equal((await get('/api/democracy/log-lik/')).status, 400);
      assert.equal(comparison.kfold, null, 'no fit ran k-fold');

      // Two fits with k-fold on the same folds: the same paired comparison on brms::kfold's pointwise terms.
      const kfoldFits = [];
      for (const family of ['negbinomial2', 'poisson'] as const)
        kfoldFits.push((await fitStoredPanel(t.db, { ...small, family, kfold: 2, label: `${family}-kfold` })).fit);
      const withKfold = (await get('/api/democracy/model-comparison/')).body;
      assert.equal(withKfold.models.length, 4);
      assert.equal(withKfold.kfold.folds, 2);
      assert.deepEqual(withKfold.kfold.without_kfold.sort(), [nb.label, 'poisson'].sort());
      const [first, second] = withKfold.kfold.models;
      assert.deepEqual([first.elpd_diff, first.se_diff], [0, 0]);
      const byLabel = Object.fromEntries(kfoldFits.map((f, i) => [i === 0 ? 'negbinomial2-kfold' : 'poisson-kfold', f.diagnostics.kfold!]));
      assert.ok(Math.abs(first.elpd_kfold_pointwise - byLabel[first.label].elpdKfoldPointwise) < 1e-9);
      const a = byLabel[first.label].perObservation.map((o) => o.elpd);
      const b = byLabel[second.label].perObservation.map((o) => o.elpd);
      const d = b.map((v, i) => v - a[i]);
      const mean = d.reduce((x, y) => x + y, 0) / d.length;
      const sd = Math.sqrt(d.reduce((x, v) => x + (v - mean) ** 2, 0) / (d.length - 1));
      assert.ok(Math.abs(second.elpd_diff - mean * d.length) < 1e-9);
      assert.ok(Math.abs(second.se_diff - Math.sqrt(d.length) * sd) < 1e-9);
      const diagnostics = (await get('/api/democracy/model-diagnostics/')).body;
      assert.equal(diagnostics.kfold.per_observation.length, 64);
      assert.match(diagnostics.kfold.definitions.elpd_kfold_pointwise, /brms::kfold/);
      assert.ok(Math.abs(diagnostics.kfold.elpd_kfold_pointwise - kfoldFits[1].diagnostics.kfold!.elpdKfoldPointwise) < 1e-9);
      assert.equal(diagnostics.parameterisation.attempts[0].year_effects, 'centred');
    });
  },
  { migrations: retractionService.migrations },
);
