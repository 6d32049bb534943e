// `/democracy`: the Bayesian country-year model of democracy against retractions. A forest plot of each predictor's
// rate ratio with its 95% credible interval (log axis), the posterior probability of each effect's sign, the
// diagnostics (R̂, ESS, MCSE, divergences, LOO/WAIC) beside the API's thresholds, the out-of-sample fit (PSIS-LOO,
// WAIC, k-fold) and the posterior predictive rootogram, the year effects, the panel's charts (scatter with a fitted
// curve, yearly trends, regions, world map: GET /api/democracy/visualizations/), the comparison of the kept fits
// and the parameterisation, k-fold and dispersion outputs (democracy-comparison.ts), and the methodology. Every number is the API's (servedModel and the body builders of GET /api/democracy/…); without a
// stored model the page says so and how to fit one. Generated panels and imported fits are labelled.
import { getAggregate } from '../../../core/db/datasets.ts';
import { externalLink, forestPlot, html, queryString } from '../../../core/pages/index.ts';
import { recordTable } from '../../../core/pages/table.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { PageInput } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { PageResult } from '../../../core/pages/replies.ts';
import { ModelQuery } from '../schemas/democracy.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { PANEL_AGGREGATES } from '../democracy.ts';
import type { DemocracyVisualizations, PanelSummary } from '../democracy.ts';
import { comparisonSection, kfoldFigures, parameterisationSentence, predictiveTable } from './democracy-comparison.ts';
import { comparisonSpec, regionsSpec, rootogramSpec, scatterSpec, trendsSpec, worldMapSpec } from './democracy-charts.ts';
import {
  DIAGNOSTIC_THRESHOLDS,
  MCSE_NOTE,
  PANEL_DATASETS,
  SCALE_NOTE,
  diagnosticsBody,
  effectBody,
  methodologyBody,
  parameterBody,
  predictiveBody,
  predictorBody,
  servedModel,
} from '../democracy-model.ts';
import type { ModelInfo, ModelSource } from '../democracy-model.ts';
import { compareStoredFits } from '../democracy-comparison.ts';
import { dataSource } from '../repository.ts';
import type { RetractionDb } from '../tables.ts';
import { formatCount, formatNumber, formatPercent, sourceNote, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

type Predictor = ReturnType<typeof predictorBody>;
type Diagnostics = ReturnType<typeof diagnosticsBody>;

const FIT_COMMAND = 'pdi fit retraction';
const IMPORT_COMMAND = 'pdi import retraction democracy_model_results.json --kind published-fit';

/** A check's verdict in words (colour repeats it). */
function verdict(ok: boolean | null): SafeHtml {
  if (ok === null) return html`<span class="badge neutral">not reported</span>`;
  return ok ? html`<span class="badge good">passes</span>` : html`<span class="badge bad">fails</span>`;
}

function probability(p: number | null): string {
  if (p === null) return '—';
  if (p > 0.999) return 'over 99.9%';
  if (p < 0.001) return 'under 0.1%';
  return formatPercent(p);
}

function plusMinus(value: number | null, se: number | null, digits = 1): string {
  if (value === null) return '—';
  return se === null ? formatNumber(value, digits) : `${formatNumber(value, digits)} ± ${formatNumber(se, digits)}`;
}

function modelBadges(info: ModelInfo): SafeHtml {
  return html`<ul class="badges">
    <li>
      ${
        info.status === 'fitted'
          ? html`<span class="badge good">fitted by this service</span>`
          : html`<span class="badge warn">published fit, imported as-is</span>`
      }
    </li>
    ${info.panel_generated === true ? html`<li><span class="badge warn">fitted to a GENERATED panel</span></li>` : ''}
    ${
      info.status === 'fitted' && !info.describes_current_panel
        ? html`<li><span class="badge warn">fitted to an earlier version of the panel</span></li>`
        : ''
    }
  </ul>`;
}

function sourceForm(info: ModelInfo, current: ModelSource | null): SafeHtml {
  if (info.available_sources.length < 2) return html``;
  return html`<form class="filters" method="get" action="/democracy">
    <label
      >Model
      <select name="source">
        ${info.available_sources.map(
          (s) =>
            html`<option value="${s}" ${s === current ? html`selected` : ''}>
              ${s === 'fitted' ? 'Fitted by this service' : 'Published fit (imported)'}
            </option>`,
        )}
      </select>
    </label>
    <button type="submit">Show</button>
  </form>`;
}

function effectsTable(predictors: readonly Predictor[]): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        Rate ratios, credible intervals and the probability of each effect's sign
      </caption>
      <thead>
        <tr>
          <th scope="col">Predictor</th>
          <th scope="col" class="num">Rate ratio</th>
          <th scope="col">95% credible interval</th>
          <th scope="col" class="num">Coefficient (log scale), mean ± sd</th>
          <th scope="col">More probable sign</th>
          <th scope="col">Posterior probability of that sign</th>
        </tr>
      </thead>
      <tbody>
        ${predictors.map(
          (p) =>
            html`<tr>
              <th scope="row">${p.predictor}</th>
              <td class="num">${formatNumber(p.rate_ratio)}</td>
              <td>
                ${
                  p.rate_ratio_interval_95
                    ? `${formatNumber(p.rate_ratio_interval_95.lower)} to ${formatNumber(p.rate_ratio_interval_95.upper)}`
                    : '—'
                }
              </td>
              <td class="num">${plusMinus(p.posterior_mean, p.posterior_sd, 3)}</td>
              <td>
                ${p.sign.direction === 'negative' ? 'negative (lower rate)' : p.sign.direction === 'positive' ? 'positive (higher rate)' : '—'}
              </td>
              <td>
                ${probability(p.sign.probability)}${p.sign.mcse !== null ? html` <span class="muted">(MCSE ${formatNumber(p.sign.mcse, 4)})</span>` : ''}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function convergenceTable(predictors: readonly Predictor[]): SafeHtml {
  if (predictors.every((p) => p.rhat === null && p.ess_bulk === null && p.ess_tail === null && p.mcse === null))
    return html`<p class="note">This model reports no R̂, ESS or MCSE per predictor (a published fit reports what its file holds).</p>`;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        Convergence of each predictor's coefficient
      </caption>
      <thead>
        <tr>
          <th scope="col">Predictor</th>
          <th scope="col" class="num">R̂</th>
          <th scope="col" class="num">Bulk ESS</th>
          <th scope="col" class="num">Tail ESS</th>
          <th scope="col" class="num">MCSE of the mean</th>
          <th scope="col" class="num">MCSE of the rate ratio</th>
        </tr>
      </thead>
      <tbody>
        ${predictors.map(
          (p) =>
            html`<tr>
              <th scope="row">${p.predictor}</th>
              <td class="num">${formatNumber(p.rhat, 4)}</td>
              <td class="num">${formatNumber(p.ess_bulk, 0)}</td>
              <td class="num">${formatNumber(p.ess_tail, 0)}</td>
              <td class="num">${formatNumber(p.mcse?.posterior_mean ?? null, 4)}</td>
              <td class="num">${formatNumber(p.mcse?.rate_ratio ?? null, 4)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function checksTable(d: Diagnostics): SafeHtml {
  const c = d.convergence!;
  const s = d.sampler!;
  const t = DIAGNOSTIC_THRESHOLDS;
  const checks = d.checks!;
  const row = (label: string, value: string, threshold: string, ok: boolean | null) =>
    html`<tr>
      <th scope="row">${label}</th>
      <td>${value}</td>
      <td>${threshold}</td>
      <td>${verdict(ok)}</td>
    </tr>`;
  const paretoK = d.loo?.pareto_k;
  return html`<div class="table-scroll">
      <table class="data">
        <caption>
          Sampler and model checks
        </caption>
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">Value</th>
            <th scope="col">Threshold</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          ${row(
            'Largest R̂',
            `${formatNumber(c.rhat_max, 4)}${c.rhat_max_parameter ? ` (${c.rhat_max_parameter})` : ''}`,
            `below ${t.rhat_max}`,
            checks.rhat_below_threshold,
          )}
          ${row(
            'Smallest bulk ESS',
            `${formatNumber(c.ess_bulk_min, 0)}${c.ess_bulk_min_parameter ? ` (${c.ess_bulk_min_parameter})` : ''}`,
            `at least ${t.ess_bulk_min}`,
            checks.ess_bulk_above_threshold,
          )}
          ${row(
            'Smallest tail ESS',
            `${formatNumber(c.ess_tail_min, 0)}${c.ess_tail_min_parameter ? ` (${c.ess_tail_min_parameter})` : ''}`,
            `at least ${t.ess_tail_min}`,
            checks.ess_tail_above_threshold,
          )}
          ${row(
            'Divergent transitions after warmup',
            s.divergences === null ? '—' : formatCount(s.divergences),
            'none',
            checks.no_divergences,
          )}
          ${row(
            'Pareto k of PSIS-LOO',
            paretoK ? `${paretoK.good} good, ${paretoK.ok} ok, ${paretoK.bad} bad, ${paretoK.very_bad} very bad` : '—',
            `all at most ${t.pareto_k_ok}`,
            checks.pareto_k_all_ok,
          )}
          ${row(
            'Posterior predictive checks',
            d.posterior_predictive
              ? d.posterior_predictive.flagged.length === 0
                ? 'no statistic extreme'
                : `extreme: ${d.posterior_predictive.flagged.join(', ')}`
              : '—',
            'no statistic outside the central 95%',
            checks.posterior_predictive_none_extreme,
          )}
        </tbody>
      </table>
    </div>
    <dl class="facts">
      <dt>Sampler</dt>
      <dd>
        ${s.chains ?? '—'} chains, ${s.warmup ?? '—'} warmup and ${s.draws ?? '—'} kept draws
        each${
          s.tree_depth_saturation
            ? html`; ${formatCount(s.tree_depth_saturation.count)} transitions (${formatPercent(s.tree_depth_saturation.fraction)}) hit the
              maximum tree depth ${s.tree_depth_saturation.max_tree_depth}`
            : ''
        }${s.ebfmi_min !== null ? html`; smallest E-BFMI ${formatNumber(s.ebfmi_min)}` : ''}${
          s.mean_accept_stat !== null ? html`; mean acceptance ${formatNumber(s.mean_accept_stat)}` : ''
        }
      </dd>
      <dt>PSIS-LOO</dt>
      <dd>
        ${
          d.loo
            ? html`elpd ${plusMinus(d.loo.elpd_loo, d.loo.elpd_loo_se)}, p_loo ${plusMinus(d.loo.p_loo, d.loo.p_loo_se)}, LOOIC
              ${plusMinus(d.loo.looic, d.loo.looic_se)}${d.loo.flagged_count ? html`; ${d.loo.flagged_count} observations with Pareto k above 0.7` : ''}${
                d.loo.alternative ? html`. ${d.loo.alternative}` : ''
              }`
            : 'not reported'
        }
      </dd>
      <dt>WAIC</dt>
      <dd>
        ${
          d.waic
            ? html`elpd ${plusMinus(d.waic.elpd_waic, d.waic.elpd_waic_se)}, p_waic ${plusMinus(d.waic.p_waic, d.waic.p_waic_se)}, WAIC
              ${plusMinus(d.waic.waic, d.waic.waic_se)}${
                d.waic.p_waic_above_0_4
                  ? html`; ${d.waic.p_waic_above_0_4} observations with p_waic above 0.4 (WAIC is then less reliable than PSIS-LOO)`
                  : ''
              }`
            : 'not reported'
        }
      </dd>
      ${
        d.kfold
          ? kfoldFigures(d.kfold)
          : html`<dt>K-fold cross-validation by country</dt>
              <dd>not run for this fit (<code>pdi fit retraction --kfold 10</code>)</dd>`
      }
      ${
        d.data
          ? html`<dt>Data</dt>
              <dd>
                ${formatCount(d.data.sample_size ?? 0)} country-years, ${d.data.countries ?? '—'}
                countries${d.data.years ? html`, ${d.data.years.first}–${d.data.years.last}` : ''}
              </dd>`
          : ''
      }
    </dl>`;
}

type Chart = PageInput<unknown, unknown>['chart'];

/** The panel's charts as GET /api/democracy/visualizations/ serves them, each with its data table. */
function panelFigures(chart: Chart, v: DemocracyVisualizations): SafeHtml {
  return html`<h3 id="panel-scatter">Democracy and retraction rates</h3>
    ${
      v.scatter.points.length > 0
        ? chart('panel-scatter', () => scatterSpec(v.scatter))
        : html`<p class="note">No country has both a democracy index and publications.</p>`
    }
    <p class="muted">${v.scatter.description}</p>
    ${
      v.temporal_trends.length > 0
        ? html`<h3 id="panel-trends">Over the years</h3>
            ${chart('panel-trends', () => trendsSpec(v.temporal_trends))}`
        : ''
    }
    ${
      v.regional_summary.length > 0
        ? html`<h3 id="panel-regions">By region</h3>
            ${chart('panel-regions', () => regionsSpec(v.regional_summary))}`
        : ''
    }
    ${
      v.world_map.length > 0
        ? html`<h3 id="panel-map">On the map</h3>
            ${chart('panel-map', () => worldMapSpec(v.world_map))}`
        : html`<p class="muted">The panel has no ISO3 codes, so no country can be placed on a map.</p>`
    }
    <p class="muted"><a href="/api/democracy/visualizations/">The charts' data as JSON</a>.</p>`;
}

function methodologySection(m: ReturnType<typeof methodologyBody>): SafeHtml {
  return html`<h2 id="methodology">Methodology</h2>
    <p>${m.model.description}</p>
    <p><strong>Family:</strong> ${m.model.family}${m.model.parameterisation ? html`; ${m.model.parameterisation}` : ''}.</p>
    <pre class="formula" aria-label="Model formula">${m.model.formula.join('\n')}</pre>
    ${
      m.priors
        ? recordTable({
            caption: 'Priors',
            columns: ['Parameter', 'Prior', 'Why'],
            rows: m.priors,
            cells: (p) => [p.parameter, p.distribution, p.text],
          })
        : html`<p><strong>Priors:</strong> ${m.priors_description ?? 'not stated'}.</p>`
    }
    <p><strong>Sampler:</strong> ${m.sampler.text}</p>
    ${recordTable({
      caption: 'Variables',
      columns: ['Variable', 'Role', 'Definition', 'Source'],
      rows: m.variables,
      cells: (v) => [v.name, v.role, v.definition, v.source ?? '—'],
    })}
    <p>
      <strong>Data:</strong>
      ${m.data.observations === null ? 'observations not stated' : `${formatCount(m.data.observations)} country-years`}${
        m.data.countries !== null ? `, ${m.data.countries} countries` : ''
      }${m.data.years ? `, ${m.data.years.first}–${m.data.years.last}` : ''}${
        m.data.excluded_rows
          ? html`; ${formatCount(m.data.excluded_rows)} rows left
            out${
              m.data.exclusion_reasons
                ? html` (${Object.entries(m.data.exclusion_reasons)
                    .map(([why, n]) => `${why}: ${n}`)
                    .join('; ')})`
                : ''
            }`
          : ''
      }.
      Missing data: ${m.data.missing_data_method}
    </p>
    ${
      m.data_sources.length > 0
        ? html`<p>
            <strong>Sources:</strong>
            ${m.data_sources.map(
              (s, i) => html`${i > 0 ? '; ' : ''}${externalLink(s.url, s.name)}${s.description ? ` (${s.description})` : ''}`,
            )}
          </p>`
        : ''
    }
    ${m.diagnostics_used.length > 0 ? html`<p><strong>Diagnostics used:</strong> ${m.diagnostics_used.join('; ')}.</p>` : ''}
    ${
      m.limitations.length > 0
        ? html`<h3>Limitations</h3>
            <ul>
              ${m.limitations.map((l) => html`<li>${l}</li>`)}
            </ul>`
        : ''
    }`;
}

const TITLE = 'Democracy and retractions';

interface DemocracyData {
  requested: ModelSource | undefined;
  model: Awaited<ReturnType<typeof servedModel>>;
  panel: Awaited<ReturnType<typeof getAggregate<PanelSummary>>>;
  visualizations: Awaited<ReturnType<typeof getAggregate<DemocracyVisualizations>>>;
  panelSource: Awaited<ReturnType<typeof dataSource>>;
  comparison: SafeHtml;
}

function panelSection(data: DemocracyData, chart: Chart, w: Words): SafeHtml {
  const { panel, visualizations } = data;
  if (!panel)
    return html`<h2>The panel</h2>
      <p class="note">
        No democracy panel is imported: import one with <code>pdi import retraction democracy_panel.csv --kind panel</code>.
      </p>`;
  const p = panel.value;
  return html`<h2>The panel</h2>
    ${sourceNote(data.panelSource, w)}
    <p>
      ${formatCount(p.rows)} country-years: ${p.countries} countries${p.years ? `, ${p.years.first}–${p.years.last}` : ''};
      ${formatCount(p.total_retractions)} retractions among ${formatCount(p.total_publications)} publications
      (${formatNumber(p.retractions_per_1000_publications)} per 1,000). Predictors: ${p.predictors.join(', ')}.
      <a href="/api/democracy/raw-data/">The rows as JSON</a>.
    </p>
    ${visualizations ? panelFigures(chart, visualizations.value) : ''}`;
}

function unfittedPage(data: DemocracyData, chart: Chart, w: Words): PageResult {
  const info = data.model.info;
  return {
    title: TITLE,
    description: 'A Bayesian country-year model of democracy against retractions.',
    section: '/democracy',
    body: html`<h1>${TITLE}</h1>
      <p class="note" role="status"><strong>No model is fitted yet.</strong> ${info.note}</p>
      <p>To fit the model to the imported panel (MCMC; it takes minutes):</p>
      <pre><code>${FIT_COMMAND}</code></pre>
      <p>or to serve a published fit as it is:</p>
      <pre><code>${IMPORT_COMMAND}</code></pre>
      ${sourceForm(info, data.requested ?? null)} ${data.comparison} ${panelSection(data, chart, w)}`,
  };
}

type Fit = NonNullable<DemocracyData['model']['fit']>;

function rateRatioForest(predictors: readonly Predictor[], chart: Chart): { figure: SafeHtml; plotted: number } {
  const plottable = predictors.filter((p) => p.rate_ratio !== null && p.rate_ratio_interval_95 !== null);
  if (plottable.length === 0) return { figure: html`<p class="note">The model reports no rate-ratio intervals to plot.</p>`, plotted: 0 };
  const figure = chart('rate-ratios', () =>
    forestPlot({
      id: 'rate-ratios',
      title: 'Rate ratios of the predictors, with 95% credible intervals',
      description:
        'Multiplicative change in the expected retraction rate per publication for one standard deviation higher predictor (within a year), on a log axis; 1 is no change.',
      rows: plottable.map((p) => ({
        label: p.predictor,
        estimate: p.rate_ratio!,
        lower: p.rate_ratio_interval_95!.lower,
        upper: p.rate_ratio_interval_95!.upper,
      })),
      logScale: true,
      valueName: 'rate ratio (log axis)',
    }),
  );
  return { figure, plotted: plottable.length };
}

function yearSection(fit: Fit, source: string | null, chart: Chart): SafeHtml {
  const yearEffects = fit.effects?.year.map(effectBody) ?? [];
  if (yearEffects.length === 0) return html``;
  return html`<h2>Year effects</h2>
    ${chart('year-effects', () =>
      forestPlot({
        id: 'year-effects',
        title: 'Year effects v[t], with 95% credible intervals',
        description: 'Deviation of each year from the intercept on the log retraction rate per publication; 0 is no deviation.',
        rows: yearEffects.flatMap((e) =>
          e.posterior_mean === null || !e.credible_interval_95
            ? []
            : [{ label: e.level, estimate: e.posterior_mean, lower: e.credible_interval_95.lower, upper: e.credible_interval_95.upper }],
        ),
        valueName: 'log rate deviation',
      }),
    )}
    <p class="muted">Country effects: <a href="/api/democracy/effects/${queryString({ group: 'country', source })}">as JSON</a>.</p>`;
}

function modelCharts(fit: Fit, diagnostics: Diagnostics, source: string | null, chart: Chart): SafeHtml {
  const elpdChart = comparisonSpec(diagnostics);
  const ppc = fit.posteriorPredictive ? predictiveBody(fit.posteriorPredictive) : null;
  return html`${
    elpdChart
      ? html`<h3 id="elpd">Out-of-sample fit</h3>
          ${chart('elpd', () => elpdChart)}`
      : ''
  }
  ${
    ppc && ppc.rootogram.length > 0
      ? html`<h3 id="rootogram">Posterior predictive check</h3>
          ${chart('rootogram', () => rootogramSpec(ppc))}
          <p class="muted">
            ${ppc.flagged.length === 0 ? 'No checked statistic is extreme.' : html`Extreme: ${ppc.flagged.join(', ')}.`}
            <a href="/api/democracy/posterior-predictive/${queryString({ source })}">The check as JSON</a>.
          </p>`
      : ''
  }
  ${ppc ? predictiveTable(ppc) : html`<p class="note">This model has no posterior predictive check (an imported fit has no draws).</p>`}`;
}

function hyperTable(fit: Fit): SafeHtml {
  const hyper = fit.hyperparameters.map(parameterBody);
  if (hyper.length === 0) return html``;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        Intercept and scale parameters
      </caption>
      <thead>
        <tr>
          <th scope="col">Parameter</th>
          <th scope="col" class="num">Mean</th>
          <th scope="col">95% credible interval</th>
          <th scope="col" class="num">R̂</th>
          <th scope="col" class="num">Bulk ESS</th>
          <th scope="col" class="num">MCSE of the mean</th>
        </tr>
      </thead>
      <tbody>
        ${hyper.map(
          (h) =>
            html`<tr>
              <th scope="row">${h.parameter}</th>
              <td class="num">${formatNumber(h.posterior_mean)}</td>
              <td>
                ${h.credible_interval_95 ? `${formatNumber(h.credible_interval_95.lower)} to ${formatNumber(h.credible_interval_95.upper)}` : '—'}
              </td>
              <td class="num">${formatNumber(h.rhat, 4)}</td>
              <td class="num">${formatNumber(h.ess_bulk, 0)}</td>
              <td class="num">${formatNumber(h.mcse?.posterior_mean ?? null, 4)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function fittedPage(data: DemocracyData, fit: Fit, chart: Chart, w: Words): PageResult {
  const info = data.model.info;
  const predictors = fit.summaries.map(predictorBody);
  const diagnostics = diagnosticsBody(fit);
  const forest = rateRatioForest(predictors, chart);
  const democracy = predictors.find((p) => p.predictor === 'democracy_index' || p.predictor === 'democracy');
  return {
    title: TITLE,
    description: 'Rate ratios of democracy and other predictors on retractions, with credible intervals, diagnostics and methodology.',
    section: '/democracy',
    body: html`<h1>${TITLE}</h1>
      ${modelBadges(info)}
      <p class="note">${info.note}</p>
      ${sourceForm(info, info.source)} ${democracy ? html`<p class="lead"><strong>Democracy:</strong> ${democracy.interpretation}</p>` : ''}
      <h2>Effects</h2>
      <p class="muted">${SCALE_NOTE}</p>
      ${forest.figure} ${effectsTable(predictors)}
      ${
        predictors.length > forest.plotted
          ? html`<p class="muted">${predictors.length - forest.plotted} predictor(s) without a reported interval are in the table only.</p>`
          : ''
      }
      <h2>Diagnostics</h2>
      <p class="muted">${MCSE_NOTE}</p>
      ${parameterisationSentence(diagnostics.parameterisation)} ${convergenceTable(predictors)}
      ${diagnostics.convergence && diagnostics.sampler && diagnostics.checks ? checksTable(diagnostics) : html`<p>No diagnostics reported.</p>`}
      ${modelCharts(fit, diagnostics, info.source, chart)} ${hyperTable(fit)} ${yearSection(fit, info.source, chart)} ${data.comparison}
      ${methodologySection(methodologyBody(fit))} ${panelSection(data, chart, w)}`,
  };
}

export function democracyPage(app: ServiceApp, db: RetractionDb, kit: PageKit): void {
  definePage(app, kit, {
    url: '/democracy',
    query: ModelQuery,
    async read({ query }): Promise<DemocracyData> {
      const requested = query.source;
      return {
        requested,
        model: await servedModel(db, requested),
        panel: await getAggregate<PanelSummary>(db, 'retraction', PANEL_AGGREGATES.summary),
        visualizations: await getAggregate<DemocracyVisualizations>(db, 'retraction', PANEL_AGGREGATES.visualizations),
        panelSource: await dataSource(db, [...PANEL_DATASETS]),
        comparison: comparisonSection(await compareStoredFits(db)),
      };
    },
    render(data, { chart, locale }) {
      const w = wordsOf(locale);
      return data.model.fit ? fittedPage(data, data.model.fit, chart, w) : unfittedPage(data, chart, w);
    },
    refused: (problem, { locale }) => ({
      title: TITLE,
      section: '/democracy',
      body: html`<h1>${TITLE}</h1>
        ${errorNote(problem.message, locale)}
        <p><a href="/democracy">Show the default model</a></p>`,
    }),
  });
}
