// The charts of /democracy beyond the forest plots, each a ChartSpec (server-rendered SVG with its data table):
// the scatter of democracy against retraction rates with its fitted curve, the yearly trends, the regional summary,
// a world map (Natural Earth boundaries from the world-atlas package, public domain, read from disk), the hanging
// rootogram of the posterior predictive check and the model's out-of-sample fit (PSIS-LOO, WAIC, k-fold) side by side.
import { PALETTE, barChart, forestPlot, lineChart } from '../../../core/pages/index.ts';
import { choroplethMap, worldMapCodes } from '../../../core/pages/world-map.ts';
import type { ChartSpec } from '../../../core/pages/index.ts';
import type { DemocracyVisualizations } from '../democracy.ts';
import { fitRateCurve } from '../democracy-curve.ts';
import type { diagnosticsBody, predictiveBody } from '../democracy-model.ts';

type Diagnostics = ReturnType<typeof diagnosticsBody>;
type Predictive = ReturnType<typeof predictiveBody>;

const round = (value: number, digits = 4) => Number(value.toFixed(digits));

/** Points sampled along the fitted curve. */
const CURVE_POINTS = 41;

export function scatterSpec(scatter: DemocracyVisualizations['scatter']): ChartSpec {
  const points = scatter.points;
  const curve = fitRateCurve(points.map((p) => ({ x: p.democracy_index, events: p.retractions, exposure: p.publications })));
  const xs = points.map((p) => p.democracy_index);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const line = curve
    ? Array.from({ length: CURVE_POINTS }, (_, i) => {
        const x = lo + ((hi - lo) * i) / (CURVE_POINTS - 1);
        return [round(x), round(curve.ratePer1000(x))];
      })
    : [];
  const c = scatter.correlation;
  const correlation =
    c.pearson_r === null
      ? 'too few countries for a correlation'
      : `Pearson r ${c.pearson_r.toFixed(2)}${c.pearson_95ci ? ` (95% interval ${c.pearson_95ci.lower.toFixed(2)} to ${c.pearson_95ci.upper.toFixed(2)})` : ''}, Spearman ρ ${c.spearman_rho?.toFixed(2) ?? '—'}, ${c.n} countries`;
  return {
    id: 'democracy-scatter',
    title: 'Democracy and retraction rates by country',
    description:
      `Each point is a country: its mean democracy index against its retractions per 1,000 publications over its years; ${correlation}. ` +
      (curve
        ? `The line is a Poisson fit of retractions on the democracy index with publications as exposure (rate per 1,000 = 1000·exp(${curve.intercept.toFixed(3)} + ${curve.slope.toFixed(3)}·index)); descriptive, without the model's covariates and effects.`
        : 'The points cannot determine a curve.'),
    height: 360,
    option: {
      grid: { left: 64, right: 24, top: 40, bottom: 56 },
      legend: { top: 0, data: ['Countries', ...(curve ? ['Poisson fit'] : [])] },
      xAxis: { type: 'value', name: 'democracy index (mean)', nameLocation: 'middle', nameGap: 32, scale: true },
      yAxis: { type: 'value', name: 'retractions per 1,000', scale: true },
      series: [
        { name: 'Countries', type: 'scatter', data: points.map((p) => [p.democracy_index, p.retraction_rate]), symbolSize: 7 },
        ...(curve ? [{ name: 'Poisson fit', type: 'line' as const, data: line, showSymbol: false, color: PALETTE[1] }] : []),
      ],
    },
    table: {
      columns: [
        'Country',
        'Region',
        'Democracy index (mean)',
        'Retractions per 1,000',
        'Fitted per 1,000',
        'Retractions',
        'Publications',
        'Years',
      ],
      rows: points.map((p) => [
        p.country,
        p.region,
        p.democracy_index,
        p.retraction_rate,
        curve ? round(curve.ratePer1000(p.democracy_index)) : null,
        p.retractions,
        p.publications,
        p.years,
      ]),
    },
  };
}

export function trendsSpec(trends: DemocracyVisualizations['temporal_trends']): ChartSpec {
  const spec = lineChart({
    id: 'democracy-trends',
    title: 'Retraction rate and mean democracy index per year',
    description:
      'Retractions per 1,000 publications pooled over the countries of each year, and the mean democracy index of those countries.',
    series: [
      { name: 'Retractions per 1,000', points: trends.map((t) => [t.year, t.retraction_rate]) },
      { name: 'Mean democracy index', points: trends.map((t) => [t.year, t.mean_democracy_index]) },
    ],
    timeAxis: false,
    height: 300,
  });
  // The two measures have their own scales: the index on a second axis.
  const option = spec.option as { yAxis: unknown; series: Array<Record<string, unknown>>; xAxis: Record<string, unknown> };
  option.yAxis = [
    { type: 'value', name: 'per 1,000', scale: true },
    { type: 'value', name: 'index', scale: true },
  ];
  // Years without a thousands separator.
  option.xAxis = { ...option.xAxis, scale: true, minInterval: 1, axisLabel: { formatter: (value: number) => String(value) } };
  option.series[1] = { ...option.series[1], yAxisIndex: 1 };
  option.series[0] = { ...option.series[0], yAxisIndex: 0 };
  return {
    ...spec,
    table: {
      columns: ['Year', 'Countries', 'Retractions', 'Publications', 'Retractions per 1,000', 'Mean democracy index'],
      rows: trends.map((t) => [String(t.year), t.countries, t.retractions, t.publications, t.retraction_rate, t.mean_democracy_index]),
    },
  };
}

export function regionsSpec(regions: DemocracyVisualizations['regional_summary']): ChartSpec {
  const spec = barChart({
    id: 'democracy-regions',
    title: 'Retraction rate by region',
    description: 'Retractions per 1,000 publications pooled over the countries and years of each region.',
    categories: regions.map((r) => r.region),
    series: [{ name: 'Retractions per 1,000', values: regions.map((r) => r.retraction_rate) }],
    horizontal: true,
    valueName: 'per 1,000',
  });
  return {
    ...spec,
    table: {
      columns: ['Region', 'Countries', 'Retractions', 'Publications', 'Retractions per 1,000', 'Mean democracy index'],
      rows: regions.map((r) => [r.region, r.countries, r.retractions, r.publications, r.retraction_rate, r.mean_democracy_index]),
    },
  };
}

/** The alpha-3 codes the map draws. */
export const mapCodes = worldMapCodes;

export function worldMapSpec(world: DemocracyVisualizations['world_map']): ChartSpec {
  const drawn = mapCodes();
  const rated = world.filter((w) => w.retraction_rate !== null);
  const missing = world.filter((w) => !drawn.has(w.iso3.toUpperCase())).map((w) => w.country);
  return choroplethMap({
    id: 'democracy-world-map',
    title: 'Retraction rate by country',
    description:
      'Retractions per 1,000 publications over each country’s years, darker for higher rates; countries without panel data are light grey. Boundaries: Natural Earth 1:110m (public domain).' +
      (missing.length > 0 ? ` Not on this map (no boundary at this scale): ${missing.join(', ')}.` : ''),
    values: rated.map((w) => ({ alpha3: w.iso3.toUpperCase(), value: w.retraction_rate! })),
    legend: ['more', 'fewer per 1,000'],
    table: {
      columns: [
        'Country',
        'ISO3',
        'Region',
        'Latest year',
        'Democracy index (latest)',
        'Retractions',
        'Publications',
        'Retractions per 1,000',
      ],
      rows: world.map((w) => [
        w.country,
        w.iso3,
        w.region,
        String(w.latest_year),
        w.democracy_index,
        w.retractions,
        w.publications,
        w.retraction_rate,
      ]),
    },
  });
}

export function rootogramSpec(check: NonNullable<Predictive>): ChartSpec {
  const bins = check.rootogram;
  return {
    id: 'democracy-rootogram',
    title: 'Hanging rootogram of the posterior predictive check',
    description:
      'Per bin of retraction counts, the square root of the number of country-years observed (bars) hangs from the square root of the number the model expects (line): ' +
      `a bar ending above zero means fewer observed than expected, below zero more. ${check.replicates} replicated panels.`,
    height: 320,
    option: {
      grid: { left: 64, right: 24, top: 40, bottom: 56 },
      legend: { top: 0, data: ['√observed (hanging)', '√expected'] },
      xAxis: {
        type: 'category',
        data: bins.map((b) => b.label),
        name: 'retractions in a country-year',
        nameLocation: 'middle',
        nameGap: 32,
      },
      yAxis: { type: 'value', name: '√ country-years' },
      series: [
        {
          name: 'hanging base',
          type: 'bar',
          stack: 'hang',
          stackStrategy: 'all',
          silent: true,
          itemStyle: { color: 'transparent' },
          data: bins.map((b) => round(b.hanging_bottom)),
        },
        {
          name: '√observed (hanging)',
          type: 'bar',
          stack: 'hang',
          stackStrategy: 'all',
          data: bins.map((b) => round(b.sqrt_observed)),
        },
        {
          name: '√expected',
          type: 'line',
          data: bins.map((b) => round(b.sqrt_expected)),
          color: PALETTE[1],
          markLine: { silent: true, symbol: 'none', data: [{ yAxis: 0 }], lineStyle: { color: '#444444' }, label: { show: false } },
        },
      ],
    },
    table: {
      columns: [
        'Retractions',
        'Observed country-years',
        'Expected',
        'Expected: 2.5%',
        'Expected: 97.5%',
        '√observed',
        '√expected',
        'Bar bottom',
      ],
      rows: bins.map((b) => [
        b.label,
        b.observed,
        round(b.expected, 3),
        round(b.expected_interval_95.lower, 3),
        round(b.expected_interval_95.upper, 3),
        round(b.sqrt_observed, 3),
        round(b.sqrt_expected, 3),
        round(b.hanging_bottom, 3),
      ]),
    },
  };
}

/** PSIS-LOO, WAIC and k-fold elpd of the served model with ±1.96 standard errors (null when none is reported). */
export function comparisonSpec(d: Diagnostics): ChartSpec | null {
  const rows: Array<{ label: string; estimate: number; se: number; note: string }> = [];
  if (d.loo && d.loo.elpd_loo !== null && d.loo.elpd_loo_se !== null)
    rows.push({ label: 'PSIS-LOO', estimate: d.loo.elpd_loo, se: d.loo.elpd_loo_se, note: 'leave one country-year out (pointwise)' });
  if (d.waic) rows.push({ label: 'WAIC', estimate: d.waic.elpd_waic, se: d.waic.elpd_waic_se, note: 'pointwise' });
  if (d.kfold)
    rows.push({
      label: `${d.kfold.folds}-fold by country`,
      estimate: d.kfold.elpd_kfold,
      se: d.kfold.elpd_kfold_se,
      note: d.kfold.method,
    });
  if (rows.length === 0) return null;
  const spec = forestPlot({
    id: 'democracy-elpd',
    title: 'Expected log predictive density: PSIS-LOO, WAIC and k-fold',
    description:
      'Each estimate of the model’s out-of-sample fit (higher is better) with ±1.96 standard errors. PSIS-LOO and WAIC predict each country-year left out; ' +
      'the k-fold figure refits the model without whole countries, so it answers a harder question and is not on the same footing.',
    rows: rows.map((r) => ({ label: r.label, estimate: r.estimate, lower: r.estimate - 1.96 * r.se, upper: r.estimate + 1.96 * r.se })),
    valueName: 'elpd',
  });
  return {
    ...spec,
    table: {
      columns: ['Estimate', 'elpd', 'Standard error', 'Lower (−1.96 se)', 'Upper (+1.96 se)', 'What is left out'],
      rows: rows.map((r) => [
        r.label,
        round(r.estimate, 2),
        round(r.se, 2),
        round(r.estimate - 1.96 * r.se, 2),
        round(r.estimate + 1.96 * r.se, 2),
        r.note,
      ]),
    },
  };
}
