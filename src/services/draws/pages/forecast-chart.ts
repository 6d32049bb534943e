// A category's draws over time with the forecast fan of its next draws, built on core's lineChart (interval bands).
// Two adjustments, both to the chart's data and never to echarts itself: every draw is drawn as a mark (core shows
// marks only up to 60 points, and a mark is what carries a draw's value into the SVG), the band's ends are drawn as
// small caps (so the interval's bounds are in the SVG too), and the table beside the chart lists every draw with
// its round number (two draws of one category on the same day are two rows, as they are two marks).
import type { SeriesOption } from 'echarts';
import { lineChart, numberAxisLabel } from '../../../core/pages/index.ts';
import type { ChartSpec } from '../../../core/pages/index.ts';
import type { Words } from './shared.ts';

export interface HistoryPoint {
  date: string;
  round: string;
  value: number;
}

export interface ForecastPoint {
  rank: number;
  date: string;
  point: number;
  lower: number;
  upper: number;
}

/** Indexes of the series in the chart (the bands come first in core's lineChart). */
const FORECAST_SERIES = { bandLower: 0, bandUpper: 1, draws: 2, forecast: 3 } as const;

export function forecastChart(options: {
  id: string;
  title: string;
  description: string;
  valueName: string;
  history: readonly HistoryPoint[];
  forecasts: readonly ForecastPoint[];
  logScale?: boolean;
  w: Words;
}): ChartSpec {
  const { t } = options.w;
  const history = [...options.history].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const hasForecast = options.forecasts.length > 0;
  const spec = lineChart({
    id: options.id,
    title: options.title,
    description: options.description,
    valueName: options.valueName,
    language: options.w.loc.language,
    series: [
      { name: t('chart.draws'), points: history.map((d) => [d.date, d.value]) },
      ...(hasForecast
        ? [{ name: t('chart.forecast'), points: options.forecasts.map((f): [string, number] => [f.date, f.point]), dashed: true }]
        : []),
    ],
    bands: hasForecast
      ? [{ name: t('chart.interval'), points: options.forecasts.map((f): [string, number, number] => [f.date, f.lower, f.upper]) }]
      : [],
  });
  const series = spec.option.series as SeriesOption[];
  const marks = history.length > 80 ? 3 : 5;
  spec.option.series = series.map((s, i) => {
    if (hasForecast && (i === FORECAST_SERIES.bandLower || i === FORECAST_SERIES.bandUpper)) {
      return { ...s, symbol: 'rect', symbolSize: [10, 2], showSymbol: true, itemStyle: { color: '#9a3f00' } } as SeriesOption;
    }
    return { ...s, showSymbol: true, symbolSize: i === (hasForecast ? FORECAST_SERIES.forecast : -1) ? 7 : marks } as SeriesOption;
  });
  if (options.logScale) {
    spec.option.yAxis = { type: 'log', name: options.valueName, logBase: 10, axisLabel: numberAxisLabel(options.w.loc.language) };
  }
  spec.table = {
    columns: [t('common.date'), t('chart.round'), t('chart.draw'), t('chart.forecast'), t('chart.lower'), t('chart.upper')],
    rows: [
      ...history.map((d): Array<string | number | null> => [d.date, d.round, d.value, null, null, null]),
      ...options.forecasts.map((f): Array<string | number | null> => [
        f.date,
        t('chart.nextDraw', { rank: f.rank }),
        null,
        f.point,
        f.lower,
        f.upper,
      ]),
    ],
    dateColumns: [0],
  };
  return spec;
}
