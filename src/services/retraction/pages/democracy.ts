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
import {
  comparisonSection,
  kfoldFigures,
  parameterisationSentence,
  plusMinus,
  predictiveTable,
  rangeText,
} from './democracy-comparison.ts';
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

/** A check's verdict in words (colour repeats it). */
function verdict(ok: boolean | null, { t }: Words): SafeHtml {
  if (ok === null) return html`<span class="badge neutral">${t('democracy.badge.notReported')}</span>`;
  return ok
    ? html`<span class="badge good">${t('democracy.badge.passes')}</span>`
    : html`<span class="badge bad">${t('democracy.badge.fails')}</span>`;
}

function probability(p: number | null, { t }: Words): string {
  if (p === null) return t('democracy.none');
  if (p > 0.999) return t('democracy.over', { p: formatPercent(0.999) });
  if (p < 0.001) return t('democracy.under', { p: formatPercent(0.001) });
  return formatPercent(p);
}

function modelBadges(info: ModelInfo, { t }: Words): SafeHtml {
  return html`<ul class="badges">
    <li>
      ${
        info.status === 'fitted'
          ? html`<span class="badge good">${t('democracy.badge.fitted')}</span>`
          : html`<span class="badge warn">${t('democracy.badge.published')}</span>`
      }
    </li>
    ${info.panel_generated === true ? html`<li><span class="badge warn">${t('democracy.badge.generated')}</span></li>` : ''}
    ${
      info.status === 'fitted' && !info.describes_current_panel
        ? html`<li><span class="badge warn">${t('democracy.badge.earlierPanel')}</span></li>`
        : ''
    }
  </ul>`;
}

function sourceForm(info: ModelInfo, current: ModelSource | null, { t }: Words): SafeHtml {
  if (info.available_sources.length < 2) return html``;
  return html`<form class="filters" method="get" action="/democracy">
    <label
      >${t('democracy.source.label')}
      <select name="source">
        ${info.available_sources.map(
          (s) =>
            html`<option value="${s}" ${s === current ? html`selected` : ''}>
              ${s === 'fitted' ? t('democracy.source.fitted') : t('democracy.source.published')}
            </option>`,
        )}
      </select>
    </label>
    <button type="submit">${t('democracy.source.show')}</button>
  </form>`;
}

function effectsTable(predictors: readonly Predictor[], w: Words): SafeHtml {
  const { t } = w;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('democracy.effectsTable.caption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('democracy.col.predictor')}</th>
          <th scope="col" class="num">${t('democracy.col.rateRatio')}</th>
          <th scope="col">${t('democracy.col.interval')}</th>
          <th scope="col" class="num">${t('democracy.col.coefficient')}</th>
          <th scope="col">${t('democracy.col.sign')}</th>
          <th scope="col">${t('democracy.col.signProbability')}</th>
        </tr>
      </thead>
      <tbody>
        ${predictors.map(
          (p) =>
            html`<tr>
              <th scope="row">${p.predictor}</th>
              <td class="num">${formatNumber(p.rate_ratio)}</td>
              <td>${rangeText(p.rate_ratio_interval_95, w)}</td>
              <td class="num">${plusMinus(p.posterior_mean, p.posterior_sd, w, 3)}</td>
              <td>
                ${
                  p.sign.direction === 'negative'
                    ? t('democracy.sign.negative')
                    : p.sign.direction === 'positive'
                      ? t('democracy.sign.positive')
                      : t('democracy.none')
                }
              </td>
              <td>
                ${probability(p.sign.probability, w)}${
                  p.sign.mcse !== null
                    ? html` <span class="muted">${t('democracy.mcse', { value: formatNumber(p.sign.mcse, 4) })}</span>`
                    : ''
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function convergenceTable(predictors: readonly Predictor[], { t }: Words): SafeHtml {
  if (predictors.every((p) => p.rhat === null && p.ess_bulk === null && p.ess_tail === null && p.mcse === null))
    return html`<p class="note">${t('democracy.convergence.none')}</p>`;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('democracy.convergence.caption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('democracy.col.predictor')}</th>
          <th scope="col" class="num">${t('democracy.col.rhat')}</th>
          <th scope="col" class="num">${t('democracy.col.essBulk')}</th>
          <th scope="col" class="num">${t('democracy.col.essTail')}</th>
          <th scope="col" class="num">${t('democracy.col.mcseMean')}</th>
          <th scope="col" class="num">${t('democracy.col.mcseRateRatio')}</th>
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

function checksTable(d: Diagnostics, w: Words): SafeHtml {
  const { t } = w;
  const c = d.convergence!;
  const s = d.sampler!;
  const limits = DIAGNOSTIC_THRESHOLDS;
  const checks = d.checks!;
  const none = t('democracy.none');
  const row = (label: string, value: string, threshold: string, ok: boolean | null) =>
    html`<tr>
      <th scope="row">${label}</th>
      <td>${value}</td>
      <td>${threshold}</td>
      <td>${verdict(ok, w)}</td>
    </tr>`;
  const valueOf = (value: string, parameter: string | null | undefined) =>
    t('democracy.check.valueOf', { value, parameter: parameter || 'none' });
  const paretoK = d.loo?.pareto_k;
  const ppc = d.posterior_predictive;
  return html`<div class="table-scroll">
      <table class="data">
        <caption>
          ${t('democracy.checks.caption')}
        </caption>
        <thead>
          <tr>
            ${(['check', 'value', 'threshold', 'verdict'] as const).map((k) => html`<th scope="col">${t(`democracy.col.${k}`)}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${row(
            t('democracy.check.rhat'),
            valueOf(formatNumber(c.rhat_max, 4), c.rhat_max_parameter),
            t('democracy.check.below', { value: String(limits.rhat_max) }),
            checks.rhat_below_threshold,
          )}
          ${row(
            t('democracy.check.essBulk'),
            valueOf(formatNumber(c.ess_bulk_min, 0), c.ess_bulk_min_parameter),
            t('democracy.check.atLeast', { value: String(limits.ess_bulk_min) }),
            checks.ess_bulk_above_threshold,
          )}
          ${row(
            t('democracy.check.essTail'),
            valueOf(formatNumber(c.ess_tail_min, 0), c.ess_tail_min_parameter),
            t('democracy.check.atLeast', { value: String(limits.ess_tail_min) }),
            checks.ess_tail_above_threshold,
          )}
          ${row(
            t('democracy.check.divergences'),
            s.divergences === null ? none : formatCount(s.divergences),
            t('democracy.check.noneAllowed'),
            checks.no_divergences,
          )}
          ${row(
            t('democracy.check.paretoK'),
            paretoK
              ? t('democracy.check.paretoCounts', {
                  good: String(paretoK.good),
                  ok: String(paretoK.ok),
                  bad: String(paretoK.bad),
                  veryBad: String(paretoK.very_bad),
                })
              : none,
            t('democracy.check.allAtMost', { value: String(limits.pareto_k_ok) }),
            checks.pareto_k_all_ok,
          )}
          ${row(
            t('democracy.check.ppc'),
            ppc
              ? ppc.flagged.length === 0
                ? t('democracy.check.noExtreme')
                : t('democracy.check.extreme', { statistics: ppc.flagged.join(', ') })
              : none,
            t('democracy.check.ppcThreshold'),
            checks.posterior_predictive_none_extreme,
          )}
        </tbody>
      </table>
    </div>
    ${samplerFacts(d, w)}`;
}

/** The sampler, PSIS-LOO, WAIC, k-fold and data figures beside the checks. */
function samplerFacts(d: Diagnostics, w: Words): SafeHtml {
  const { t } = w;
  const s = d.sampler!;
  const none = t('democracy.none');
  return html` <dl class="facts">
    <dt>${t('democracy.sampler')}</dt>
    <dd>
      ${t('democracy.sampler.text', { chains: String(s.chains ?? none), warmup: String(s.warmup ?? none), draws: String(s.draws ?? none) })}${
        s.tree_depth_saturation
          ? t('democracy.sampler.treeDepth', {
              count: formatCount(s.tree_depth_saturation.count),
              fraction: formatPercent(s.tree_depth_saturation.fraction),
              depth: String(s.tree_depth_saturation.max_tree_depth),
            })
          : ''
      }${s.ebfmi_min !== null ? t('democracy.sampler.ebfmi', { value: formatNumber(s.ebfmi_min) }) : ''}${
        s.mean_accept_stat !== null ? t('democracy.sampler.accept', { value: formatNumber(s.mean_accept_stat) }) : ''
      }
    </dd>
    <dt>${t('democracy.loo')}</dt>
    <dd>
      ${
        d.loo
          ? html`${t('democracy.loo.text', {
              elpd: plusMinus(d.loo.elpd_loo, d.loo.elpd_loo_se, w),
              p: plusMinus(d.loo.p_loo, d.loo.p_loo_se, w),
              ic: plusMinus(d.loo.looic, d.loo.looic_se, w),
            })}${d.loo.flagged_count ? t('democracy.loo.flagged', { n: String(d.loo.flagged_count) }) : ''}${
              d.loo.alternative ? html`. ${d.loo.alternative}` : ''
            }`
          : t('democracy.notReported')
      }
    </dd>
    <dt>${t('democracy.waic')}</dt>
    <dd>
      ${
        d.waic
          ? html`${t('democracy.waic.text', {
              elpd: plusMinus(d.waic.elpd_waic, d.waic.elpd_waic_se, w),
              p: plusMinus(d.waic.p_waic, d.waic.p_waic_se, w),
              ic: plusMinus(d.waic.waic, d.waic.waic_se, w),
            })}${d.waic.p_waic_above_0_4 ? t('democracy.waic.flagged', { n: String(d.waic.p_waic_above_0_4) }) : ''}`
          : t('democracy.notReported')
      }
    </dd>
    ${
      d.kfold
        ? kfoldFigures(d.kfold, w)
        : html`<dt>${t('democracy.kfold.heading')}</dt>
            <dd>${t('democracy.kfold.notRun')} (<code>${t('democracy.kfold.command')}</code>)</dd>`
    }
    ${
      d.data
        ? html`<dt>${t('democracy.data')}</dt>
            <dd>
              ${t('democracy.data.text', { rows: formatCount(d.data.sample_size ?? 0), countries: String(d.data.countries ?? none) })}${
                d.data.years ? html`, ${d.data.years.first}–${d.data.years.last}` : ''
              }
            </dd>`
        : ''
    }
  </dl>`;
}

type Chart = PageInput<unknown, unknown>['chart'];

/** The panel's charts as GET /api/democracy/visualizations/ serves them, each with its data table. */
function panelFigures(chart: Chart, v: DemocracyVisualizations, w: Words): SafeHtml {
  const { t } = w;
  return html`<h3 id="panel-scatter">${t('democracy.panel.scatter')}</h3>
    ${
      v.scatter.points.length > 0
        ? chart('panel-scatter', () => scatterSpec(v.scatter, w))
        : html`<p class="note">${t('democracy.panel.noScatter')}</p>`
    }
    <p class="muted">${v.scatter.description}</p>
    ${
      v.temporal_trends.length > 0
        ? html`<h3 id="panel-trends">${t('democracy.panel.trends')}</h3>
            ${chart('panel-trends', () => trendsSpec(v.temporal_trends, w))}`
        : ''
    }
    ${
      v.regional_summary.length > 0
        ? html`<h3 id="panel-regions">${t('democracy.panel.regions')}</h3>
            ${chart('panel-regions', () => regionsSpec(v.regional_summary, w))}`
        : ''
    }
    ${
      v.world_map.length > 0
        ? html`<h3 id="panel-map">${t('democracy.panel.map')}</h3>
            ${chart('panel-map', () => worldMapSpec(v.world_map, w))}`
        : html`<p class="muted">${t('democracy.panel.noMap')}</p>`
    }
    <p class="muted"><a href="/api/democracy/visualizations/">${t('democracy.panel.chartsJson')}</a>.</p>`;
}

function methodologySection(m: ReturnType<typeof methodologyBody>, { t }: Words): SafeHtml {
  const none = t('democracy.none');
  return html`<h2 id="methodology">${t('democracy.methodology')}</h2>
    <p>${m.model.description}</p>
    <p>
      <strong>${t('democracy.family')}</strong> ${m.model.family}${m.model.parameterisation ? html`; ${m.model.parameterisation}` : ''}.
    </p>
    <pre class="formula" aria-label="${t('democracy.formula')}">${m.model.formula.join('\n')}</pre>
    ${
      m.priors
        ? recordTable({
            caption: t('democracy.priors'),
            columns: [t('democracy.col.parameter'), t('democracy.col.prior'), t('democracy.col.why')],
            rows: m.priors,
            cells: (p) => [p.parameter, p.distribution, p.text],
          })
        : html`<p><strong>${t('democracy.priors.label')}</strong> ${m.priors_description ?? t('democracy.priors.notStated')}.</p>`
    }
    <p><strong>${t('democracy.sampler.label')}</strong> ${m.sampler.text}</p>
    ${recordTable({
      caption: t('democracy.variables'),
      columns: [t('democracy.col.variable'), t('democracy.col.role'), t('democracy.col.definition'), t('democracy.col.source')],
      rows: m.variables,
      cells: (v) => [v.name, v.role, v.definition, v.source ?? none],
    })}
    <p>
      <strong>${t('democracy.data.label')}</strong>
      ${
        m.data.observations === null
          ? t('democracy.data.notStated')
          : t('democracy.data.observations', { n: formatCount(m.data.observations) })
      }${m.data.countries !== null ? t('democracy.data.countries', { n: String(m.data.countries) }) : ''}${
        m.data.years ? `, ${m.data.years.first}–${m.data.years.last}` : ''
      }${
        m.data.excluded_rows
          ? html`${t('democracy.data.excluded', { n: formatCount(m.data.excluded_rows) })}${
              m.data.exclusion_reasons
                ? html` (${Object.entries(m.data.exclusion_reasons)
                    .map(([why, n]) => `${why}: ${n}`)
                    .join('; ')})`
                : ''
            }`
          : ''
      }.
      ${t('democracy.data.missing')} ${m.data.missing_data_method}
    </p>
    ${
      m.data_sources.length > 0
        ? html`<p>
            <strong>${t('democracy.sources')}</strong>
            ${m.data_sources.map(
              (s, i) => html`${i > 0 ? '; ' : ''}${externalLink(s.url, s.name)}${s.description ? ` (${s.description})` : ''}`,
            )}
          </p>`
        : ''
    }
    ${
      m.diagnostics_used.length > 0 ? html`<p><strong>${t('democracy.diagnosticsUsed')}</strong> ${m.diagnostics_used.join('; ')}.</p>` : ''
    }
    ${
      m.limitations.length > 0
        ? html`<h3>${t('democracy.limitations')}</h3>
            <ul>
              ${m.limitations.map((l) => html`<li>${l}</li>`)}
            </ul>`
        : ''
    }`;
}

interface DemocracyData {
  requested: ModelSource | undefined;
  model: Awaited<ReturnType<typeof servedModel>>;
  panel: Awaited<ReturnType<typeof getAggregate<PanelSummary>>>;
  visualizations: Awaited<ReturnType<typeof getAggregate<DemocracyVisualizations>>>;
  panelSource: Awaited<ReturnType<typeof dataSource>>;
  comparison: Awaited<ReturnType<typeof compareStoredFits>>;
}

function panelSection(data: DemocracyData, chart: Chart, w: Words): SafeHtml {
  const { t } = w;
  const { panel, visualizations } = data;
  if (!panel)
    return html`<h2>${t('democracy.panel.heading')}</h2>
      <p class="note">${t('democracy.panel.none')} <code>${t('democracy.panel.importCommand')}</code>.</p>`;
  const p = panel.value;
  return html`<h2>${t('democracy.panel.heading')}</h2>
    ${sourceNote(data.panelSource, w)}
    <p>
      ${t('democracy.panel.rows', { rows: formatCount(p.rows), countries: String(p.countries) })}${
        p.years ? `, ${p.years.first}–${p.years.last}` : ''
      };
      ${t('democracy.panel.totals', {
        retractions: formatCount(p.total_retractions),
        publications: formatCount(p.total_publications),
        rate: formatNumber(p.retractions_per_1000_publications),
        predictors: p.predictors.join(', '),
      })}
      <a href="/api/democracy/raw-data/">${t('democracy.panel.json')}</a>.
    </p>
    ${visualizations ? panelFigures(chart, visualizations.value, w) : ''}`;
}

function unfittedPage(data: DemocracyData, chart: Chart, w: Words): PageResult {
  const { t } = w;
  const info = data.model.info;
  const title = t('democracy.title');
  return {
    title,
    description: t('democracy.description.unfitted'),
    section: '/democracy',
    body: html`<h1>${title}</h1>
      <p class="note" role="status"><strong>${t('democracy.noModel')}</strong> ${info.note}</p>
      <p>${t('democracy.fitHow')}</p>
      <pre><code>${t('democracy.fitCommand')}</code></pre>
      <p>${t('democracy.importHow')}</p>
      <pre><code>${t('democracy.importCommand')}</code></pre>
      ${sourceForm(info, data.requested ?? null, w)} ${comparisonSection(data.comparison, w)} ${panelSection(data, chart, w)}`,
  };
}

type Fit = NonNullable<DemocracyData['model']['fit']>;

function rateRatioForest(predictors: readonly Predictor[], chart: Chart, { t }: Words): { figure: SafeHtml; plotted: number } {
  const plottable = predictors.filter((p) => p.rate_ratio !== null && p.rate_ratio_interval_95 !== null);
  if (plottable.length === 0) return { figure: html`<p class="note">${t('democracy.forest.none')}</p>`, plotted: 0 };
  const figure = chart('rate-ratios', () =>
    forestPlot({
      id: 'rate-ratios',
      title: t('democracy.forest.title'),
      description: t('democracy.forest.description'),
      rows: plottable.map((p) => ({
        label: p.predictor,
        estimate: p.rate_ratio!,
        lower: p.rate_ratio_interval_95!.lower,
        upper: p.rate_ratio_interval_95!.upper,
      })),
      logScale: true,
      valueName: t('democracy.forest.value'),
    }),
  );
  return { figure, plotted: plottable.length };
}

function yearSection(fit: Fit, source: string | null, chart: Chart, { t }: Words): SafeHtml {
  const yearEffects = fit.effects?.year.map(effectBody) ?? [];
  if (yearEffects.length === 0) return html``;
  return html`<h2>${t('democracy.year.heading')}</h2>
    ${chart('year-effects', () =>
      forestPlot({
        id: 'year-effects',
        title: t('democracy.year.title'),
        description: t('democracy.year.description'),
        rows: yearEffects.flatMap((e) =>
          e.posterior_mean === null || !e.credible_interval_95
            ? []
            : [{ label: e.level, estimate: e.posterior_mean, lower: e.credible_interval_95.lower, upper: e.credible_interval_95.upper }],
        ),
        valueName: t('democracy.year.value'),
      }),
    )}
    <p class="muted">
      ${t('democracy.year.country')}
      <a href="/api/democracy/effects/${queryString({ group: 'country', source })}">${t('democracy.year.json')}</a>.
    </p>`;
}

function modelCharts(fit: Fit, diagnostics: Diagnostics, source: string | null, chart: Chart, w: Words): SafeHtml {
  const { t } = w;
  const elpdChart = comparisonSpec(diagnostics, w);
  const ppc = fit.posteriorPredictive ? predictiveBody(fit.posteriorPredictive) : null;
  return html`${
    elpdChart
      ? html`<h3 id="elpd">${t('democracy.elpd.heading')}</h3>
          ${chart('elpd', () => elpdChart)}`
      : ''
  }
  ${
    ppc && ppc.rootogram.length > 0
      ? html`<h3 id="rootogram">${t('democracy.ppc.heading')}</h3>
          ${chart('rootogram', () => rootogramSpec(ppc, w))}
          <p class="muted">
            ${ppc.flagged.length === 0 ? t('democracy.ppc.noExtreme') : t('democracy.ppc.extreme', { statistics: ppc.flagged.join(', ') })}
            <a href="/api/democracy/posterior-predictive/${queryString({ source })}">${t('democracy.ppc.json')}</a>.
          </p>`
      : ''
  }
  ${ppc ? predictiveTable(ppc, w) : html`<p class="note">${t('democracy.ppc.none')}</p>`}`;
}

function hyperTable(fit: Fit, w: Words): SafeHtml {
  const { t } = w;
  const hyper = fit.hyperparameters.map(parameterBody);
  if (hyper.length === 0) return html``;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('democracy.hyper.caption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('democracy.col.parameter')}</th>
          <th scope="col" class="num">${t('democracy.col.mean')}</th>
          <th scope="col">${t('democracy.col.interval')}</th>
          <th scope="col" class="num">${t('democracy.col.rhat')}</th>
          <th scope="col" class="num">${t('democracy.col.essBulk')}</th>
          <th scope="col" class="num">${t('democracy.col.mcseMean')}</th>
        </tr>
      </thead>
      <tbody>
        ${hyper.map(
          (h) =>
            html`<tr>
              <th scope="row">${h.parameter}</th>
              <td class="num">${formatNumber(h.posterior_mean)}</td>
              <td>${rangeText(h.credible_interval_95, w)}</td>
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
  const { t } = w;
  const info = data.model.info;
  const title = t('democracy.title');
  const predictors = fit.summaries.map(predictorBody);
  const diagnostics = diagnosticsBody(fit);
  const forest = rateRatioForest(predictors, chart, w);
  const democracy = predictors.find((p) => p.predictor === 'democracy_index' || p.predictor === 'democracy');
  return {
    title,
    description: t('democracy.description.fitted'),
    section: '/democracy',
    body: html`<h1>${title}</h1>
      ${modelBadges(info, w)}
      <p class="note">${info.note}</p>
      ${sourceForm(info, info.source, w)}
      ${democracy ? html`<p class="lead"><strong>${t('democracy.lead')}</strong> ${democracy.interpretation}</p>` : ''}
      <h2>${t('democracy.effects')}</h2>
      <p class="muted">${SCALE_NOTE}</p>
      ${forest.figure} ${effectsTable(predictors, w)}
      ${
        predictors.length > forest.plotted
          ? html`<p class="muted">${t('democracy.notPlotted', { n: predictors.length - forest.plotted })}</p>`
          : ''
      }
      <h2>${t('democracy.diagnostics')}</h2>
      <p class="muted">${MCSE_NOTE}</p>
      ${parameterisationSentence(diagnostics.parameterisation, w)} ${convergenceTable(predictors, w)}
      ${
        diagnostics.convergence && diagnostics.sampler && diagnostics.checks
          ? checksTable(diagnostics, w)
          : html`<p>${t('democracy.noDiagnostics')}</p>`
      }
      ${modelCharts(fit, diagnostics, info.source, chart, w)} ${hyperTable(fit, w)} ${yearSection(fit, info.source, chart, w)}
      ${comparisonSection(data.comparison, w)} ${methodologySection(methodologyBody(fit), w)} ${panelSection(data, chart, w)}`,
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
        comparison: await compareStoredFits(db),
      };
    },
    render(data, { chart, locale }) {
      const w = wordsOf(locale);
      return data.model.fit ? fittedPage(data, data.model.fit, chart, w) : unfittedPage(data, chart, w);
    },
    refused: (problem, { locale }) => {
      const { t } = wordsOf(locale);
      return {
        title: t('democracy.title'),
        section: '/democracy',
        body: html`<h1>${t('democracy.title')}</h1>
          ${errorNote(problem.message, locale)}
          <p><a href="/democracy">${t('democracy.showDefault')}</a></p>`,
      };
    },
  });
}
