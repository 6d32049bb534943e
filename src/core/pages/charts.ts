// Charts rendered to SVG on the server with Apache ECharts (its SSR renderer): the chart is part of the HTML,
// needs no script, and each figure carries a title, a description and the data as a table beside it, so a
// screen reader and a test can read what is plotted. Every plotted element carries ECharts' own
// `ecmeta_series_index` / `ecmeta_data_index` attributes (tests count them against the rows behind the chart).
import * as echarts from 'echarts';
import type { CustomSeriesRenderItem, EChartsOption, SeriesOption } from 'echarts';
import { escapeHtml, html, trustedHtml } from './html.ts';
import type { SafeHtml } from './html.ts';
import { formatDate, formatFixed, formatNumberIn, localeOf } from '../i18n/format.ts';
import type { Language } from '../i18n/language.ts';
import { layoutMessages } from '../i18n/messages/index.ts';

/** Colours with at least 3:1 contrast on white, distinguishable in the common colour-vision deficiencies (Okabe–Ito). */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'] as const;

export interface ChartTable {
  columns: string[];
  rows: Array<Array<string | number | null>>;
  /** Columns of calendar dates (YYYY-MM-DD), written in the table as the figure's language writes dates. */
  dateColumns?: number[];
}

export interface ChartSpec {
  /** Stable id within the page (element ids are derived from it). */
  id: string;
  title: string;
  /** One or two sentences saying what the chart shows (read by screen readers). */
  description: string;
  option: EChartsOption;
  /** The numbers behind the chart, shown as a table beside it. */
  table: ChartTable;
  width?: number;
  height?: number;
  /** The language of the figure's caption and data table (English when absent). */
  language?: Language;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

type EChartsLocale = Exclude<NonNullable<Parameters<typeof echarts.init>[2]>['locale'], string | undefined>;
const echartsLocales = new Map<Language, EChartsLocale>();

/**
 * ECharts' words for a language, with the month and weekday names Intl gives (fr-CA: janv., févr.): a time axis then
 * labels its ticks as the rest of the page writes dates. ECharts' other words (toolbox, aria) are not drawn in a
 * server-rendered SVG, so its English ones are kept.
 */
function echartsLocale(language: Language): EChartsLocale {
  let locale = echartsLocales.get(language);
  if (locale === undefined) {
    const names = (options: Intl.DateTimeFormatOptions, count: number, dateOf: (i: number) => Date) => {
      const format = new Intl.DateTimeFormat(localeOf(language), { ...options, timeZone: 'UTC' });
      return Array.from({ length: count }, (_, i) => format.format(dateOf(i)));
    };
    const month = (i: number) => new Date(Date.UTC(2021, i, 1));
    // 2021-01-03 was a Sunday: ECharts counts weekdays from Sunday.
    const day = (i: number) => new Date(Date.UTC(2021, 0, 3 + i));
    // ECharts fills what a locale object leaves out from its English one; its type asks for every field.
    locale = {
      time: {
        month: names({ month: 'long' }, 12, month),
        monthAbbr: names({ month: 'short' }, 12, month),
        dayOfWeek: names({ weekday: 'long' }, 7, day),
        dayOfWeekAbbr: names({ weekday: 'short' }, 7, day),
      },
    } as EChartsLocale;
    echartsLocales.set(language, locale);
  }
  return locale;
}

/** Labels of a value axis with the language's separators (1 000 in French, 1,000 in English). */
export function numberAxisLabel(language: Language): { formatter: (value: number) => string } {
  return { formatter: (value: number) => formatNumberIn(language, value, 6) };
}

/** The SVG alone (with role, title and description), for callers that place it themselves. */
export function renderChartSvg(spec: ChartSpec): string {
  const width = spec.width ?? 720;
  const height = spec.height ?? 320;
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height, locale: echartsLocale(spec.language ?? 'en') });
  try {
    chart.setOption({
      animation: false,
      color: [...PALETTE],
      textStyle: { fontFamily: FONT, color: '#222' },
      ...spec.option,
    });
    const svg = chart.renderToSVGString();
    const titleId = `${spec.id}-title`;
    const descId = `${spec.id}-desc`;
    return svg
      .replace(
        /^<svg /,
        `<svg role="img" aria-labelledby="${titleId} ${descId}" class="chart-svg" ` +
          `preserveAspectRatio="xMidYMid meet" style="max-width:100%;height:auto" `,
      )
      .replace(
        /(<svg[^>]*>)/,
        `$1<title id="${titleId}">${escapeHtml(spec.title)}</title><desc id="${descId}">${escapeHtml(spec.description)}</desc>`,
      );
  } finally {
    chart.dispose();
  }
}

/** A figure: the chart, its caption, and its data table (collapsed) beside it. */
export function chartFigure(spec: ChartSpec, svg = renderChartSvg(spec)): SafeHtml {
  const language = spec.language ?? 'en';
  return html`<figure class="chart" id="${spec.id}">
    <figcaption><strong>${spec.title}</strong> <span class="muted">${spec.description}</span></figcaption>
    ${trustedHtml(svg)}
    <details class="chart-data">
      <summary>${layoutMessages.format(language, 'chart.dataBehind', { title: spec.title })}</summary>
      ${dataTable(spec.table, layoutMessages.format(language, 'chart.dataCaption', { title: spec.title }), language)}
    </details>
  </figure>`;
}

function dataTable(table: ChartTable, caption: string, language: Language = 'en'): SafeHtml {
  const decimals = table.columns.map((_, i) => columnDecimals(table.rows.map((row) => row[i])));
  return html`<table class="data">
    <caption>
      ${caption}
    </caption>
    <thead>
      <tr>
        ${table.columns.map((c) => html`<th scope="col">${c}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${table.rows.map(
        (row) =>
          html`<tr>
            ${row.map((cell, i) => html`<td>${formatCell(cell, language, table.dateColumns?.includes(i) ?? false, decimals[i])}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

const TABLE_DECIMALS = 3;

/** The largest number of decimals (at most 3) the numbers of a column need: all of them are written with it. */
function columnDecimals(cells: Array<string | number | null | undefined>): number {
  let decimals = 0;
  for (const cell of cells) {
    if (typeof cell !== 'number' || !Number.isFinite(cell)) continue;
    const shown = Number(cell.toFixed(TABLE_DECIMALS));
    while (decimals < TABLE_DECIMALS && Number(cell.toFixed(decimals)) !== shown) decimals++;
  }
  return decimals;
}

// A column's numbers share their decimals (883.1, 923.0, 1,222.0), so that they read and align as one quantity.
function formatCell(value: string | number | null, language: Language, date: boolean, decimals: number): string {
  if (value === null) return '—';
  if (typeof value === 'number') return formatFixed(language, value, decimals);
  return date ? formatDate(language, value, 'short') : value;
}

export interface BarSeries {
  name: string;
  values: Array<number | null>;
}

/** Bars by category (several series side by side, or stacked); horizontal for long category names. */
export function barChart(options: {
  id: string;
  title: string;
  description: string;
  categories: string[];
  series: BarSeries[];
  stacked?: boolean;
  horizontal?: boolean;
  valueName?: string;
  width?: number;
  height?: number;
  language?: Language;
}): ChartSpec {
  const categoryAxis = { type: 'category' as const, data: options.categories, axisLabel: { interval: 0, hideOverlap: true } };
  const valueAxis = { type: 'value' as const, name: options.valueName, axisLabel: numberAxisLabel(options.language ?? 'en') };
  const height = options.height ?? (options.horizontal ? Math.max(200, 60 + 26 * options.categories.length) : 320);
  return {
    id: options.id,
    title: options.title,
    description: options.description,
    width: options.width,
    height,
    language: options.language,
    option: {
      grid: { left: options.horizontal ? 180 : 64, right: 24, top: options.series.length > 1 ? 40 : 24, bottom: 48, containLabel: false },
      legend: options.series.length > 1 ? { top: 0 } : undefined,
      xAxis: options.horizontal ? valueAxis : categoryAxis,
      yAxis: options.horizontal ? { ...categoryAxis, inverse: true, axisLabel: { width: 170, overflow: 'truncate' } } : valueAxis,
      series: options.series.map((s) => ({
        name: s.name,
        type: 'bar' as const,
        data: s.values,
        stack: options.stacked ? 'total' : undefined,
      })),
    },
    table: {
      columns: ['', ...options.series.map((s) => s.name)],
      rows: options.categories.map((c, i) => [c, ...options.series.map((s) => s.values[i] ?? null)]),
    },
  };
}

export interface LineSeries {
  name: string;
  /** [x, y] points; x is a date (YYYY-MM-DD) or a number. */
  points: Array<[string | number, number | null]>;
  /** Dashed (forecasts). */
  dashed?: boolean;
}

export interface IntervalBand {
  name: string;
  /** [x, lower, upper] */
  points: Array<[string | number, number, number]>;
}

/** Lines over time, with optional shaded interval bands (a forecast fan: the band from lower to upper). */
export function lineChart(options: {
  id: string;
  title: string;
  description: string;
  series: LineSeries[];
  bands?: IntervalBand[];
  timeAxis?: boolean;
  valueName?: string;
  /** The data table's heading of the x column (default: Date on a time axis, else x). */
  xName?: string;
  width?: number;
  height?: number;
  language?: Language;
}): ChartSpec {
  const language = options.language ?? 'en';
  const bands = options.bands ?? [];
  const bandSeries = bands.flatMap((band, i) => [
    {
      name: `${band.name} (lower)`,
      type: 'line' as const,
      data: band.points.map(([x, lo]) => [x, lo]),
      stack: `band${i}`,
      lineStyle: { opacity: 0 },
      symbol: 'none',
      silent: true,
    },
    {
      name: band.name,
      type: 'line' as const,
      data: band.points.map(([x, lo, hi]) => [x, hi - lo]),
      stack: `band${i}`,
      lineStyle: { opacity: 0 },
      areaStyle: { color: PALETTE[(i + 1) % PALETTE.length], opacity: 0.25 },
      symbol: 'none',
      silent: true,
    },
  ]);
  const xName = options.xName ?? (options.timeAxis === false ? 'x' : layoutMessages.format(language, 'chart.date'));
  const columns = [
    xName,
    ...options.series.map((s) => s.name),
    ...bands.flatMap((b) => [
      layoutMessages.format(language, 'chart.lower', { name: b.name }),
      layoutMessages.format(language, 'chart.upper', { name: b.name }),
    ]),
  ];
  const xs = [
    ...new Set([...options.series.flatMap((s) => s.points.map((p) => p[0])), ...bands.flatMap((b) => b.points.map((p) => p[0]))]),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lookup = (points: Array<[string | number, ...unknown[]]>, x: string | number) => points.find((p) => p[0] === x);
  return {
    id: options.id,
    title: options.title,
    description: options.description,
    width: options.width,
    height: options.height,
    language,
    option: {
      grid: { left: 64, right: 24, top: 40, bottom: 48 },
      legend: { top: 0, data: [...options.series.map((s) => s.name), ...bands.map((b) => b.name)] },
      xAxis: options.timeAxis === false ? { type: 'value', axisLabel: numberAxisLabel(language) } : { type: 'time' },
      yAxis: { type: 'value', name: options.valueName, scale: true, axisLabel: numberAxisLabel(language) },
      series: [
        ...bandSeries,
        ...options.series.map((s) => ({
          name: s.name,
          type: 'line' as const,
          data: s.points,
          showSymbol: s.points.length <= 60,
          lineStyle: s.dashed ? { type: 'dashed' as const } : undefined,
          connectNulls: false,
        })),
      ],
    },
    table: {
      columns,
      rows: xs.map((x) => [
        x,
        ...options.series.map((s) => (lookup(s.points, x)?.[1] as number | null | undefined) ?? null),
        ...bands.flatMap((b) => {
          const p = lookup(b.points, x);
          return [(p?.[1] as number | undefined) ?? null, (p?.[2] as number | undefined) ?? null];
        }),
      ]),
    },
  };
}

export interface ForestRow {
  label: string;
  estimate: number;
  lower: number;
  upper: number;
  /** Colour group (e.g. GRADE certainty); the legend lists the groups. */
  group?: string;
}

/**
 * A forest plot: one row per estimate with its interval, a reference line (1 for ratios on a log axis, 0 for
 * differences), colours by group.
 */
export function forestPlot(options: {
  id: string;
  title: string;
  description: string;
  rows: ForestRow[];
  logScale?: boolean;
  reference?: number;
  valueName?: string;
  groupColours?: Record<string, string>;
  width?: number;
  language?: Language;
}): ChartSpec {
  const language = options.language ?? 'en';
  const say = (key: 'chart.estimate' | 'chart.interval95' | 'chart.lower95' | 'chart.upper95' | 'chart.group') =>
    layoutMessages.format(language, key);
  const reference = options.reference ?? (options.logScale ? 1 : 0);
  const valueAxis = { name: options.valueName, nameLocation: 'middle' as const, nameGap: 28, axisLabel: numberAxisLabel(language) };
  const groups = [...new Set(options.rows.map((r) => r.group ?? ''))];
  const colourOf = (group: string) => options.groupColours?.[group] ?? PALETTE[groups.indexOf(group) % PALETTE.length];
  const labels = options.rows.map((r) => r.label);
  const positive = options.rows
    .flatMap((r) => [r.lower, r.upper, r.estimate])
    .filter((v) => Number.isFinite(v) && (!options.logScale || v > 0));
  const min = Math.min(reference, ...positive);
  const max = Math.max(reference, ...positive);
  const series = groups.map((group) => {
    const rows = options.rows.map((r, index) => ({ ...r, index })).filter((r) => (r.group ?? '') === group);
    const pair: SeriesOption[] = [
      {
        name: group ? `${group} (${say('chart.interval95')})` : say('chart.interval95'),
        type: 'custom' as const,
        renderItem: ((_params, api) => {
          const start = api.coord([api.value(0), api.value(2)]);
          const end = api.coord([api.value(1), api.value(2)]);
          const [x1, y] = start;
          const [x2] = end;
          const stroke = { stroke: colourOf(group), lineWidth: 2 };
          return {
            type: 'group',
            children: [
              { type: 'line', shape: { x1, y1: y, x2, y2: y }, style: stroke },
              { type: 'line', shape: { x1, y1: y - 5, x2: x1, y2: y + 5 }, style: stroke },
              { type: 'line', shape: { x1: x2, y1: y - 5, x2, y2: y + 5 }, style: stroke },
            ],
          };
        }) satisfies CustomSeriesRenderItem,
        encode: { x: [0, 1], y: 2 },
        data: rows.map((r) => [r.lower, r.upper, r.index]),
        z: 2,
      },
      {
        name: group || say('chart.estimate'),
        type: 'scatter' as const,
        symbol: 'diamond',
        symbolSize: 11,
        itemStyle: { color: colourOf(group) },
        data: rows.map((r) => [r.estimate, r.index]),
        z: 3,
      },
    ];
    return pair;
  });
  return {
    id: options.id,
    title: options.title,
    description: options.description,
    width: options.width,
    height: Math.max(160, 70 + 30 * options.rows.length),
    language,
    option: {
      grid: { left: 220, right: 32, top: groups.length > 1 || groups[0] ? 36 : 16, bottom: 44 },
      legend: groups.length > 1 || groups[0] ? { top: 0, data: groups.filter(Boolean).map((g) => g) } : undefined,
      xAxis: options.logScale
        ? { ...valueAxis, type: 'log', min: niceLogFloor(min), max: niceLogCeil(max) }
        : { ...valueAxis, type: 'value', scale: true },
      yAxis: {
        type: 'category',
        data: labels,
        inverse: true,
        axisLabel: { width: 210, overflow: 'truncate' },
        axisTick: { show: false },
      },
      series: series.flat().map((item, i) =>
        // the reference line (no effect) is drawn once, with the first series
        i === 0
          ? {
              ...item,
              markLine: {
                silent: true,
                symbol: 'none',
                label: { show: false },
                lineStyle: { color: '#555', type: 'dashed' as const, width: 1 },
                data: [{ xAxis: reference }],
              },
            }
          : item,
      ) as SeriesOption[],
    },
    table: {
      columns: [
        '',
        say('chart.estimate'),
        say('chart.lower95'),
        say('chart.upper95'),
        ...(groups[0] || groups.length > 1 ? [say('chart.group')] : []),
      ],
      rows: options.rows.map((r) => [r.label, r.estimate, r.lower, r.upper, ...(groups[0] || groups.length > 1 ? [r.group ?? ''] : [])]),
    },
  };
}

function niceLogFloor(value: number): number {
  return 10 ** Math.floor(Math.log10(Math.max(value, 1e-6)));
}
function niceLogCeil(value: number): number {
  return 10 ** Math.ceil(Math.log10(Math.max(value, 1e-6)));
}

/**
 * Rendered figures (SVG, caption and data table) keyed by what they show (a data version plus the chart's
 * parameters): laying out a chart and its table costs more than serving a page should, so pages render each figure once per
 * data version; `build` runs only when the key is new.
 */
export class ChartCache {
  private readonly entries = new Map<string, SafeHtml>();
  private readonly maxEntries: number;
  constructor(maxEntries = 500) {
    this.maxEntries = maxEntries;
  }
  figure(key: string, build: () => ChartSpec): SafeHtml {
    let figure = this.entries.get(key);
    if (figure === undefined) {
      figure = chartFigure(build());
      this.entries.set(key, figure);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return figure;
  }
}
