// `/statistics`: what GET /api/krt/statistics/ serves, drawn: resource types, the vendors with the most rows, and the
// share of rows with a valid RRID by year of the article, each chart with its numbers in a table beside it.
import { Type } from 'typebox';
import { clampLimit, limitParam } from '../../../core/http/params.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { ChartSpec, PageKit, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { KrtAnswers } from '../answers.ts';
import type { KrtKey } from '../messages/index.ts';
import { VENDORS_MAX } from '../schemas/statistics.ts';
import type { StoreStatistics } from '../statistics.ts';
import { wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

/** Vendors charted on the page unless `?vendors=` asks for another number (at most the API's VENDORS_MAX). */
export const VENDORS_CHARTED = 15;

/** `?vendors=`: how many vendors the chart shows, read as GET /api/krt/statistics/ reads it (the page's default). */
const StatisticsPageQuery = Type.Object({ vendors: limitParam(VENDORS_CHARTED, VENDORS_MAX, 'vendors charted, most rows first') });

/** The page's charts (the tests count their bars against the API's figures). */
function statisticsCharts(s: StoreStatistics, t: Translate<KrtKey>, loc: PageLocale, vendorsCharted = VENDORS_CHARTED): ChartSpec[] {
  const language = loc.language;
  const pct = (share: number | null) => (share === null ? null : loc.percent(share, 1));
  const interval = (i: [number, number] | null) =>
    i === null ? null : t('common.range', { low: loc.percent(i[0], 1), high: loc.percent(i[1], 1) });
  const types = barChart({
    id: 'krt-types',
    title: t('stats.typesChart'),
    description: t('stats.typesChartDescription', { rows: s.rows }),
    categories: s.resource_types.map((r) => r.resource_type),
    series: [
      { name: t('series.rows'), values: s.resource_types.map((r) => r.rows) },
      { name: t('series.validRows'), values: s.resource_types.map((r) => r.rows_with_valid_rrid) },
    ],
    horizontal: true,
    language,
  });
  types.table = {
    columns: [
      t('column.resourceType'),
      t('column.rows'),
      t('column.shareOfRows'),
      t('column.articles'),
      t('column.rowsWithRrid'),
      t('column.rowsWithValidRrid'),
      t('column.shareValid'),
      t('column.interval'),
    ],
    rows: s.resource_types.map((r) => [
      r.resource_type,
      r.rows,
      pct(r.share_of_rows),
      r.articles,
      r.rows_with_rrid,
      r.rows_with_valid_rrid,
      pct(r.share_valid),
      interval(r.share_valid_interval),
    ]),
  };
  const top = s.vendors.slice(0, vendorsCharted);
  const vendors = barChart({
    id: 'krt-vendors',
    title: t('stats.vendorsChart'),
    description: t('stats.vendorsChartDescription', { shown: top.length, vendorRows: s.vendor_rows }),
    categories: top.map((v) => v.vendor),
    series: [{ name: t('series.rows'), values: top.map((v) => v.rows) }],
    horizontal: true,
    language,
  });
  vendors.table = {
    columns: [t('column.vendor'), t('column.rows'), t('column.shareOfRows'), t('column.articles')],
    rows: top.map((v) => [v.vendor, v.rows, pct(v.share_of_rows), v.articles]),
  };
  const yearName = (year: number | null) => (year === null ? t('stats.noYear') : String(year));
  const years = barChart({
    id: 'krt-years',
    title: t('stats.yearsChart'),
    description: t('stats.yearsChartDescription'),
    categories: s.by_year.map((y) => yearName(y.year)),
    series: [
      {
        name: t('series.shareValid'),
        values: s.by_year.map((y) => (y.share_valid === null ? null : Number((y.share_valid * 100).toFixed(1)))),
      },
    ],
    language,
  });
  years.table = {
    columns: [
      t('column.year'),
      t('column.articles'),
      t('column.rows'),
      t('column.rowsWithRrid'),
      t('column.rowsWithValidRrid'),
      t('column.shareValid'),
      t('column.interval'),
    ],
    rows: s.by_year.map((y) => [
      yearName(y.year),
      y.articles,
      y.rows,
      y.rows_with_rrid,
      y.rows_with_valid_rrid,
      pct(y.share_valid),
      interval(y.share_valid_interval),
    ]),
  };
  return [types, vendors, years];
}

function vendorsForm(vendors: number, w: Words): SafeHtml {
  return html`<form class="filters" method="get" action="/statistics#vendors-heading">
    <label
      >${w.t('stats.vendorsField', { max: VENDORS_MAX })}
      <input type="number" name="vendors" value="${vendors}" min="1" max="${VENDORS_MAX}" step="1" required />
    </label>
    <button type="submit">${w.t('stats.vendorsSubmit')}</button>
  </form>`;
}

function statisticsBody(s: StoreStatistics, figures: SafeHtml[], vendorsCharted: number, w: Words): SafeHtml {
  const { t, loc } = w;
  const [types, vendors, years] = figures;
  const interval = s.share_valid_interval ?? [0, 0];
  return html`<p>
      <strong
        >${t('stats.valid', {
          valid: s.rows_with_valid_rrid,
          rows: s.rows,
          share: loc.percent(s.share_valid ?? 0, 1),
          low: loc.percent(interval[0], 1),
          high: loc.percent(interval[1], 1),
          withRrid: s.rows_with_rrid,
        })}</strong
      >
    </p>
    <p class="muted">${t('stats.validDefinition')}</p>
    <section aria-labelledby="types-heading">
      <h2 id="types-heading">${t('stats.typesHeading')}</h2>
      ${types}
    </section>
    <section aria-labelledby="vendors-heading">
      <h2 id="vendors-heading">${t('stats.vendorsHeading')}</h2>
      <p>
        ${t('stats.vendorsLead', { vendorRows: s.vendor_rows, vendors: s.vendors_total, shown: Math.min(vendorsCharted, s.vendors.length) })}
      </p>
      ${vendorsForm(vendorsCharted, w)} ${vendors}
    </section>
    <section aria-labelledby="years-heading">
      <h2 id="years-heading">${t('stats.yearsHeading')}</h2>
      ${years}
    </section>`;
}

export function statisticsPage(app: ServiceApp, answers: KrtAnswers, kit: PageKit): void {
  definePage(app, kit, {
    url: '/statistics',
    query: StatisticsPageQuery,
    read: () => answers.statistics(),
    render(s, { query, locale, chart }) {
      const vendorsCharted = clampLimit(query.vendors, VENDORS_MAX);
      const w = wordsOf(locale);
      const { t } = w;
      const head = html`<h1>${t('stats.title')}</h1>
        <p class="lead">${t('stats.lead')}</p>
        <p>${t('stats.corpus', { articles: s.articles, withRows: s.articles_with_rows, rows: s.rows })}</p>`;
      const page = { title: t('stats.title'), description: t('stats.description'), section: '/statistics' };
      if (s.rows === 0)
        return {
          ...page,
          body: html`${head}
            <p class="note" role="status">${t('stats.empty')}</p>`,
        };
      // Each chart cached under the page's key (data version, language, validated parameters) and its id.
      const figures = statisticsCharts(s, t, locale, vendorsCharted).map((spec) => chart(spec.id, () => spec));
      return { ...page, body: html`${head} ${statisticsBody(s, figures, vendorsCharted, w)}` };
    },
  });
}
