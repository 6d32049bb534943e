// The democracy page on SQLite and PostgreSQL before and after a small fit to a generated panel: without a model it
// says so and how to fit one; after the fit, the forest plot draws one estimate and one interval per predictor, the
// table gives each sign's posterior probability, the diagnostics are the API's with their verdicts, the year effects
// are drawn, the methodology is there, and the generated panel is labelled; the kept fits are compared as
// GET /api/democracy/model-comparison/ compares them, and a k-fold fit shows both k-fold figures and its k-fold table.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { figures, plotted, tableRows, textOf } from '../../../../test/support/pages.ts';
import { tempDir, writeGeneratedPanel } from '../../../../test/support/retraction/fixtures.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { fitStoredPanel } from '../democracy-model.ts';
import { importPanel } from '../import.ts';
import { retractionService } from '../service.ts';
import { pageLocale } from '../../../core/pages/locale.ts';
import { parameterisationSentence } from './democracy-comparison.ts';
import { wordsOf } from './shared.ts';

/** The rows of the page's table whose caption matches. */
function captionedRows(page: string, caption: RegExp): string[][] {
  const table = [...page.matchAll(/<table class="data">[\s\S]*?<\/table>/g)].find((m) =>
    caption.test(textOf(/<caption>([\s\S]*?)<\/caption>/.exec(m[0])?.[1] ?? '')),
  );
  assert.ok(table, `a table captioned ${caption}`);
  return tableRows(table[0]);
}
const num = (cell: string) => Number(cell.replace(/,/g, ''));
/** "a ± b" as the page prints it, to one decimal. */
const pmCell = (cell: string) => cell.split(' ± ').map(num);

describeEachDatabase(
  'retraction democracy page before and after a fit to a generated panel',
  (t) => {
    let dir: string;
    let app: ServiceApp;
    let client = 0;
    const inject = (url: string) => app.inject({ url, remoteAddress: `10.98.${(client >> 8) & 255}.${client++ & 255}` });

    before(async () => {
      dir = tempDir('democracy-page');
      const file = writeGeneratedPanel(dir, { countries: 12, firstYear: 2015, seed: 'pages-fit' });
      await importPanel(t.db, file);
      app = await buildTestApp(retractionService, testContext(retractionService, t.db, { dataDir: dir }));
    });
    after(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('without a model, says that none is fitted and how to fit one', async () => {
      const res = await inject('/democracy');
      assert.equal(res.statusCode, 200);
      const text = textOf(res.body);
      assert.match(text, /No model is fitted yet/);
      assert.match(res.body, /<code>pdi fit retraction<\/code>/);
      assert.match(text, /48 country-years: 12 countries, 2015–2018/);
      // The panel's charts need no model: scatter, trends and regions as the API serves them (the panel has no ISO3 codes, so no map).
      const vis = (await inject('/api/democracy/visualizations/')).json();
      const figs = figures(res.body);
      assert.deepEqual([...figs.keys()], ['democracy-scatter', 'democracy-trends', 'democracy-regions']);
      const scatter = figs.get('democracy-scatter')!;
      assert.equal(plotted(scatter, 0), vis.scatter.points.length);
      const scatterRows = tableRows(scatter);
      assert.deepEqual(
        scatterRows.map((r) => r[0]),
        vis.scatter.points.map((p: { country: string }) => p.country),
      );
      for (const [i, p] of (vis.scatter.points as Array<{ retraction_rate: number }>).entries())
        assert.ok(Math.abs(Number(scatterRows[i][3]) - p.retraction_rate) < 6e-4, scatterRows[i][0]);
      assert.match(scatter, /ecmeta_series_index="1"/, 'the fitted curve is drawn');
      assert.deepEqual(
        tableRows(figs.get('democracy-trends')!).map((r) => r[0]),
        vis.temporal_trends.map((t: { year: number }) => String(t.year)),
      );
      assert.equal(tableRows(figs.get('democracy-regions')!).length, vis.regional_summary.length);
      assert.match(text, /no ISO3 codes/);
      // No kept fit: the comparison says so plainly.
      assert.match(text, /Model comparison No kept fit of the current panel has PSIS-LOO to compare/);
      assert.doesNotMatch(res.body, /\/api\/democracy\/log-lik\//);
    });

    it('after a fit: forest plot, sign probabilities, diagnostics, year effects and methodology, all as the API serves them', async () => {
      await fitStoredPanel(t.db, {
        warmup: 150,
        draws: 150,
        chains: 2,
        parallelism: 'single',
        seed: 'pages-fit',
        posteriorPredictiveReplicates: 100,
        priors: { coefficients: { mean: 0, sd: 2 } },
      });
      const res = await inject('/democracy');
      assert.equal(res.statusCode, 200);
      const results = (await inject('/api/democracy/statistical-results/')).json();
      const diagnostics = (await inject('/api/democracy/model-diagnostics/')).json();
      const effects = (await inject('/api/democracy/effects/')).json();
      const text = textOf(res.body);
      assert.match(text, /fitted by this service/);
      assert.match(text, /fitted to a GENERATED panel/);

      const figs = figures(res.body);
      const forest = figs.get('rate-ratios')!;
      assert.equal(plotted(forest, 1), results.predictors.length); // the estimates
      assert.equal(plotted(forest, 0), results.predictors.length); // the intervals
      const rows = tableRows(forest);
      assert.deepEqual(
        rows.map((r) => r[0]),
        results.predictors.map((p: { predictor: string }) => p.predictor),
      );
      for (const [i, p] of results.predictors.entries()) {
        assert.ok(Math.abs(Number(rows[i][1]) - p.rate_ratio) < 5e-4, p.predictor);
        assert.ok(Math.abs(Number(rows[i][2]) - p.rate_ratio_interval_95.lower) < 5e-4, p.predictor);
        assert.ok(Math.abs(Number(rows[i][3]) - p.rate_ratio_interval_95.upper) < 5e-4, p.predictor);
        const sign = p.sign.direction === 'negative' ? 'negative \\(lower rate\\)' : 'positive \\(higher rate\\)';
        assert.match(text, new RegExp(`${p.predictor} [^]*?${sign}`));
      }
      assert.match(text, /Posterior probability of that sign/);
      assert.match(text, /MCSE/);

      // Diagnostics: the API's values, with their verdicts in words.
      assert.match(text, new RegExp(`Largest R̂ ${diagnostics.convergence.rhat_max.toLocaleString('en-CA', { maximumFractionDigits: 4 })}`));
      assert.match(text, /Divergent transitions after warmup/);
      const verdicts = (res.body.match(/<span class="badge (good|bad|neutral)">(passes|fails|not reported)<\/span>/g) ?? []).length;
      assert.equal(verdicts, 6);
      assert.match(text, /PSIS-LOO elpd -?[\d,.]+ ± [\d,.]+/);
      assert.match(text, /WAIC elpd -?[\d,.]+ ± [\d,.]+/);

      // The out-of-sample fit and the rootogram, as the API serves them.
      const elpd = tableRows(figs.get('democracy-elpd')!);
      assert.equal(elpd[0][0], 'PSIS-LOO');
      assert.ok(Math.abs(Number(elpd[0][1].replace(/,/g, '')) - diagnostics.loo.elpd_loo) < 0.01);
      assert.equal(elpd[1][0], 'WAIC');
      const ppc = (await inject('/api/democracy/posterior-predictive/')).json();
      const rootogram = figs.get('democracy-rootogram')!;
      assert.deepEqual(
        tableRows(rootogram).map((r) => [r[0], Number(r[1].replace(/,/g, ''))]),
        ppc.check.rootogram.map((b: { label: string; observed: number }) => [b.label, b.observed]),
      );
      assert.equal(plotted(rootogram, 1), ppc.check.rootogram.length);

      const years = figs.get('year-effects')!;
      assert.equal(plotted(years, 1), effects.year_effects.length);
      assert.deepEqual(
        tableRows(years).map((r) => r[0]),
        ['2015', '2016', '2017', '2018'],
      );

      assert.match(text, /Methodology/);
      assert.match(res.body, /<pre class="formula" aria-label="Model formula">[^<]*retractions/);
      assert.match(text, /Priors/);
      assert.match(text, /Limitations/);

      // The parameterisation used and why, as the diagnostics serve it.
      const p = diagnostics.parameterisation;
      assert.ok(p);
      const sentence = textOf(/<p id="parameterisation">([\s\S]*?)<\/p>/.exec(res.body)![1]);
      assert.ok(sentence.startsWith(`Parameterisation: country effects ${p.country_effects}, year effects ${p.year_effects}`), sentence);
      assert.ok(sentence.includes(p.reason), sentence);
      if (p.switched)
        for (const a of p.attempts as Array<{ divergences: number }>) assert.match(sentence, new RegExp(`${a.divergences} divergence`));
      // A switched fit lists every attempt with its divergences (rendered from this fit's record, switched).
      const switched = textOf(
        String(
          parameterisationSentence(
            {
              ...p,
              year_effects: 'non-centred',
              switched: true,
              attempts: [
                { country_effects: 'centred', year_effects: 'centred', divergences: 7 },
                { country_effects: 'centred', year_effects: 'non-centred', divergences: 1 },
              ],
            },
            wordsOf(pageLocale('en', false)),
          ),
        ),
      );
      assert.match(switched, /year effects non-centred \(switched from the configured form\)/);
      assert.match(switched, /Attempts: country centred, year centred: 7 divergences; country centred, year non-centred: 1 divergence\./);

      // The predictive checks' statistics, the Pearson dispersion among them with its p-value and flag.
      const checkRows = captionedRows(res.body, /^Posterior predictive checks on 100 replicated panels$/);
      assert.equal(checkRows.length, ppc.check.statistics.length);
      const dispersion = ppc.check.statistics.find((s: { name: string }) => s.name === 'pearson_dispersion');
      const row = checkRows.find((r) => r[0].startsWith('Pearson dispersion (χ²/df)'))!;
      assert.ok(row, 'a Pearson dispersion row');
      assert.ok(Math.abs(num(row[1]) - dispersion.observed) < 5e-4);
      assert.ok(Math.abs(num(row[4]) - dispersion.p_value) < 5e-4);
      assert.equal(row[6], dispersion.extreme ? 'extreme' : 'within 95%');
      assert.match(text, /K-fold cross-validation by country not run for this fit/);

      // One kept fit: the comparison table has it, with its log-lik CSV, and no k-fold table.
      const comparison = (await inject('/api/democracy/model-comparison/')).json();
      const compared = captionedRows(res.body, /^Kept fits compared by PSIS-LOO on the same 48 country-years/);
      assert.deepEqual(
        compared.map((r) => r[0]),
        comparison.models.map((m: { label: string }) => m.label),
      );
      assert.match(res.body, new RegExp(`<a href="${comparison.models[0].log_lik.replace(/[?]/g, '\\?')}">CSV</a>`));
      assert.match(text, /Only one fit is kept/);
      assert.match(text, /No kept fit ran k-fold cross-validation/);
    });

    it('with a second fit run with k-fold: the paired comparison, its k-fold table and both k-fold figures with their definitions', async () => {
      await fitStoredPanel(t.db, {
        warmup: 150,
        draws: 150,
        chains: 2,
        parallelism: 'single',
        seed: 'pages-fit',
        posteriorPredictiveReplicates: 100,
        family: 'poisson',
        kfold: 2,
        label: 'poisson-kfold',
      });
      const res = await inject('/democracy');
      assert.equal(res.statusCode, 200);
      const text = textOf(res.body);
      const comparison = (await inject('/api/democracy/model-comparison/')).json();
      const diagnostics = (await inject('/api/democracy/model-diagnostics/')).json();
      assert.equal(comparison.models.length, 2);

      const rows = captionedRows(res.body, /^Kept fits compared by PSIS-LOO/);
      assert.deepEqual(
        rows.map((r) => r[0]),
        comparison.models.map((m: { label: string }) => m.label),
      );
      for (const [i, m] of comparison.models.entries()) {
        const [diff, se] = pmCell(rows[i][3]);
        assert.ok(Math.abs(diff - m.elpd_diff) < 0.051 && Math.abs(se - m.se_diff) < 0.051, rows[i][3]);
        const [elpd, elpdSe] = pmCell(rows[i][4]);
        assert.ok(Math.abs(elpd - m.elpd_loo) < 0.051 && Math.abs(elpdSe - m.elpd_loo_se) < 0.051, rows[i][4]);
        assert.ok(Math.abs(num(rows[i][5]) - m.p_loo) < 0.051);
        assert.equal(num(rows[i][7]), m.pareto_k_above_0_7);
        assert.equal(num(rows[i][8]), m.divergences);
        assert.equal(rows[i][9], 'CSV');
        assert.ok(res.body.includes(`<a href="${m.log_lik.replace('&', '&amp;')}">CSV</a>`), m.log_lik);
      }
      assert.doesNotMatch(text, /Only one fit is kept/);

      const kfoldRows = captionedRows(res.body, /^Kept fits compared by 2-fold cross-validation by country/);
      assert.deepEqual(
        kfoldRows.map((r) => r[0]),
        comparison.kfold.models.map((m: { label: string }) => m.label),
      );
      assert.ok(Math.abs(pmCell(kfoldRows[0][2])[0] - comparison.kfold.models[0].elpd_kfold_pointwise) < 0.051);
      assert.match(text, new RegExp(`Without k-fold on these folds: ${comparison.kfold.without_kfold.join(', ')}`));

      // The served fit is the latest, the k-fold one: both figures with their definitions.
      const k = diagnostics.kfold;
      assert.match(text, /2-fold cross-validation by country, joint \(elpd_kfold\)/);
      assert.match(text, /2-fold cross-validation by country, pointwise \(elpd_kfold_pointwise\)/);
      const joint = /joint \(elpd_kfold\) (-?[\d,.]+) ± ([\d,.]+)/.exec(text)!;
      assert.ok(Math.abs(num(joint[1]) - k.elpd_kfold) < 0.051);
      const pointwise = /pointwise \(elpd_kfold_pointwise\) (-?[\d,.]+) ± ([\d,.]+)/.exec(text)!;
      assert.ok(Math.abs(num(pointwise[1]) - k.elpd_kfold_pointwise) < 0.051);
      assert.ok(text.includes(textOf(k.definitions.elpd_kfold)));
      assert.ok(text.includes(textOf(k.definitions.elpd_kfold_pointwise)));
    });
  },
  { migrations: retractionService.migrations },
);
