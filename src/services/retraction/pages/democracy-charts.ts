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
import type { Words } from './shared.ts';

type Diagnostics = ReturnType<typeof diagnosticsBody>;
type Predictive = ReturnType<typeof predictiveBody>;

const round = (value: number, digits = 4) => Number(value.toFixed(digits));

/** Points sampled along the fitted curve. */
const CURVE_POINTS = 41;

export function scatterSpec(scatter: DemocracyVisualizations['scatter'], { t }: Words): ChartSpec {
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
      ? t('democracy.scatter.noCorrelation')
      : t('democracy.scatter.correlation', {
          r: c.pearson_r.toFixed(2),
          interval: c.pearson_95ci
            ? t('democracy.range', { lower: c.pearson_95ci.lower.toFixed(2), upper: c.pearson_95ci.upper.toFixed(2) })
            : 'none',
          rho: c.spearman_rho?.toFixed(2) ?? t('democracy.none'),
          n: String(c.n),
        });
  const countries = t('democracy.scatter.countries');
  const fit = t('democracy.scatter.fit');
  return {
    id: 'democracy-scatter',
    title: t('democracy.scatter.title'),
    description:
      t('democracy.scatter.description', { correlation }) +
      (curve
        ? t('democracy.scatter.curve', { intercept: curve.intercept.toFixed(3), slope: curve.slope.toFixed(3) })
        : t('democracy.scatter.noCurve')),
    height: 360,
    option: {
      grid: { left: 64, right: 24, top: 40, bottom: 56 },
      legend: { top: 0, data: [countries, ...(curve ? [fit] : [])] },
      xAxis: { type: 'value', name: t('democracy.scatter.xAxis'), nameLocation: 'middle', nameGap: 32, scale: true },
      yAxis: { type: 'value', name: t('democracy.scatter.yAxis'), scale: true },
      series: [
        { name: countries, type: 'scatter', data: points.map((p) => [p.democracy_index, p.retraction_rate]), symbolSize: 7 },
        ...(curve ? [{ name: fit, type: 'line' as const, data: line, showSymbol: false, color: PALETTE[1] }] : []),
      ],
    },
    table: {
      columns: [
        t('democracy.chart.country'),
        t('democracy.chart.region'),
        t('democracy.scatter.col.index'),
        t('democracy.chart.retractionsPerThousand'),
        t('democracy.scatter.col.fitted'),
        t('democracy.chart.retractions'),
        t('democracy.chart.publications'),
        t('democracy.chart.years'),
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

export function trendsSpec(trends: DemocracyVisualizations['temporal_trends'], { t }: Words): ChartSpec {
  const spec = lineChart({
    id: 'democracy-trends',
    title: t('democracy.trends.title'),
    description: t('democracy.trends.description'),
    series: [
      { name: t('democracy.chart.retractionsPerThousand'), points: trends.map((y) => [y.year, y.retraction_rate]) },
      { name: t('democracy.chart.meanIndex'), points: trends.map((y) => [y.year, y.mean_democracy_index]) },
    ],
    timeAxis: false,
    height: 300,
  });
  // The two measures have their own scales: the index on a second axis.
  const option = spec.option as { yAxis: unknown; series: Array<Record<string, unknown>>; xAxis: Record<string, unknown> };
  option.yAxis = [
    { type: 'value', name: t('democracy.chart.perThousand'), scale: true },
    { type: 'value', name: t('democracy.trends.indexAxis'), scale: true },
  ];
  // Years without a thousands separator.
  option.xAxis = { ...option.xAxis, scale: true, minInterval: 1, axisLabel: { formatter: (value: number) => String(value) } };
  option.series[1] = { ...option.series[1], yAxisIndex: 1 };
  option.series[0] = { ...option.series[0], yAxisIndex: 0 };
  return {
    ...spec,
    table: {
      columns: [
        t('democracy.chart.year'),
        t('democracy.chart.countries'),
        t('democracy.chart.retractions'),
        t('democracy.chart.publications'),
        t('democracy.chart.retractionsPerThousand'),
        t('democracy.chart.meanIndex'),
      ],
      rows: trends.map((y) => [String(y.year), y.countries, y.retractions, y.publications, y.retraction_rate, y.mean_democracy_index]),
    },
  };
}

export function regionsSpec(regions: DemocracyVisualizations['regional_summary'], { t }: Words): ChartSpec {
  const spec = barChart({
    id: 'democracy-regions',
    title: t('democracy.regions.title'),
    description: t('democracy.regions.description'),
    categories: regions.map((r) => r.region),
    series: [{ name: t('democracy.chart.retractionsPerThousand'), values: regions.map((r) => r.retraction_rate) }],
    horizontal: true,
    valueName: t('democracy.chart.perThousand'),
  });
  return {
    ...spec,
    table: {
      columns: [
        t('democracy.chart.region'),
        t('democracy.chart.countries'),
        t('democracy.chart.retractions'),
        t('democracy.chart.publications'),
        t('democracy.chart.retractionsPerThousand'),
        t('democracy.chart.meanIndex'),
      ],
      rows: regions.map((r) => [r.region, r.countries, r.retractions, r.publications, r.retraction_rate, r.mean_democracy_index]),
    },
  };
}

/** The alpha-3 codes the map draws. */
export const mapCodes = worldMapCodes;

export function worldMapSpec(world: DemocracyVisualizations['world_map'], { t }: Words): ChartSpec {
  const drawn = mapCodes();
  const rated = world.filter((w) => w.retraction_rate !== null);
  const missing = world.filter((w) => !drawn.has(w.iso3.toUpperCase())).map((w) => w.country);
  return choroplethMap({
    id: 'democracy-world-map',
    title: t('democracy.map.title'),
    description: t('democracy.map.description') + (missing.length > 0 ? t('democracy.map.missing', { countries: missing.join(', ') }) : ''),
    values: rated.map((w) => ({ alpha3: w.iso3.toUpperCase(), value: w.retraction_rate! })),
    legend: [t('democracy.map.more'), t('democracy.map.fewer')],
    table: {
      columns: [
        t('democracy.chart.country'),
        t('democracy.map.col.iso3'),
        t('democracy.chart.region'),
        t('democracy.map.col.latestYear'),
        t('democracy.map.col.index'),
        t('democracy.chart.retractions'),
        t('democracy.chart.publications'),
        t('democracy.chart.retractionsPerThousand'),
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

export function rootogramSpec(check: NonNullable<Predictive>, { t }: Words): ChartSpec {
  const bins = check.rootogram;
  const observed = t('democracy.rootogram.observed');
  const expected = t('democracy.rootogram.expected');
  return {
    id: 'democracy-rootogram',
    title: t('democracy.rootogram.title'),
    description: t('democracy.rootogram.description', { replicates: String(check.replicates) }),
    height: 320,
    option: {
      grid: { left: 64, right: 24, top: 40, bottom: 56 },
      legend: { top: 0, data: [observed, expected] },
      xAxis: {
        type: 'category',
        data: bins.map((b) => b.label),
        name: t('democracy.rootogram.xAxis'),
        nameLocation: 'middle',
        nameGap: 32,
      },
      yAxis: { type: 'value', name: t('democracy.rootogram.yAxis') },
      series: [
        {
          name: t('democracy.rootogram.base'),
          type: 'bar',
          stack: 'hang',
          stackStrategy: 'all',
          silent: true,
          itemStyle: { color: 'transparent' },
          data: bins.map((b) => round(b.hanging_bottom)),
        },
        {
          name: observed,
          type: 'bar',
          stack: 'hang',
          stackStrategy: 'all',
          data: bins.map((b) => round(b.sqrt_observed)),
        },
        {
          name: expected,
          type: 'line',
          data: bins.map((b) => round(b.sqrt_expected)),
          color: PALETTE[1],
          markLine: { silent: true, symbol: 'none', data: [{ yAxis: 0 }], lineStyle: { color: '#444444' }, label: { show: false } },
        },
      ],
    },
    table: {
      columns: [
        t('democracy.chart.retractions'),
        t('democracy.rootogram.col.observed'),
        t('democracy.rootogram.col.expected'),
        t('democracy.rootogram.col.lower'),
        t('democracy.rootogram.col.upper'),
        t('democracy.rootogram.col.sqrtObserved'),
        t('democracy.rootogram.col.sqrtExpected'),
        t('democracy.rootogram.col.bottom'),
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
export function comparisonSpec(d: Diagnostics, { t }: Words): ChartSpec | null {
  const rows: Array<{ label: string; estimate: number; se: number; note: string }> = [];
  if (d.loo && d.loo.elpd_loo !== null && d.loo.elpd_loo_se !== null)
    rows.push({ label: t('democracy.elpd.loo'), estimate: d.loo.elpd_loo, se: d.loo.elpd_loo_se, note: t('democracy.elpd.looNote') });
  if (d.waic)
    rows.push({ label: t('democracy.elpd.waic'), estimate: d.waic.elpd_waic, se: d.waic.elpd_waic_se, note: t('democracy.elpd.waicNote') });
  if (d.kfold)
    rows.push({
      label: t('democracy.elpd.kfold', { folds: String(d.kfold.folds) }),
      estimate: d.kfold.elpd_kfold,
      se: d.kfold.elpd_kfold_se,
      note: d.kfold.method,
    });
  if (rows.length === 0) return null;
  const spec = forestPlot({
    id: 'democracy-elpd',
    title: t('democracy.elpd.title'),
    description: t('democracy.elpd.description'),
    rows: rows.map((r) => ({ label: r.label, estimate: r.estimate, lower: r.estimate - 1.96 * r.se, upper: r.estimate + 1.96 * r.se })),
    valueName: t('democracy.elpd.value'),
  });
  return {
    ...spec,
    table: {
      columns: [
        t('democracy.elpd.col.estimate'),
        t('democracy.elpd.col.elpd'),
        t('democracy.elpd.col.se'),
        t('democracy.elpd.col.lower'),
        t('democracy.elpd.col.upper'),
        t('democracy.elpd.col.leftOut'),
      ],
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
