// `/analytics`: the dashboard. Retractions per year beside the other kinds of notice (expressions of concern,
// corrections, reinstatements: counted apart, never as retractions), citations per citing year split at the notice,
// subjects and countries, and the timing of the citations that came after the notice. The figures are the API's:
// the analytics-data tables (GET /api/analytics-data/) and the post-retraction analytics
// (GET /api/post-retraction-analytics/), both computed at import; `nature` and `time_filter` are validated by the
// latter's schema.
import { Type } from 'typebox';
import { barChart, html, lineChart, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { AGGREGATES } from '../aggregates.ts';
import type { AnalyticsTables } from '../aggregates.ts';
import { NATURES, NATURE_FILTERS } from '../nature.ts';
import type { NatureFilter } from '../nature.ts';
import { PAPER_DATASETS, postRetractionReport, storedAggregate } from '../answers.ts';
import { dataSource } from '../repository.ts';
import { PostRetractionQuery } from '../schemas/analytics.ts';
import { TIME_FILTERS, TIMING_BUCKETS } from '../windows.ts';
import type { TimeFilter } from '../windows.ts';
import type { RetractionState } from '../state.ts';
import { paperHref } from './search.ts';
import { sourceNote, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

/** Subjects and countries drawn (the data table and the CSV have them all). */
export const TOP_GROUPS = 15;

/** The two parameters of the page, as the post-retraction analytics declare them. */
const AnalyticsPageQuery = Type.Object({
  nature: PostRetractionQuery.properties.nature,
  time_filter: PostRetractionQuery.properties.time_filter,
});

const TREND_SERIES = ['expressions_of_concern', 'corrections', 'reinstatements', 'other_notices'] as const;

function filterForm(nature: string, time: string, { t }: Words): SafeHtml {
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}" ${value === current ? html`selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="/analytics">
    <label
      >${t('analytics.nature')}
      <select name="nature">
        ${NATURE_FILTERS.map((n) => option(n, n === 'all' ? t('analytics.everyKind') : n === 'other' ? t('nature.otherFacet') : t(`nature.${n}`), nature))}
      </select>
    </label>
    <label
      >${t('analytics.time')}
      <select name="time_filter">
        ${TIME_FILTERS.map((x) => option(x, t(`time.${x}`), time))}
      </select>
    </label>
    <button type="submit">${t('analytics.show')}</button>
  </form>`;
}

type Data = {
  nature: NatureFilter;
  time: TimeFilter;
  tables: AnalyticsTables;
  report: Awaited<ReturnType<typeof postRetractionReport>>;
  source: Awaited<ReturnType<typeof dataSource>>;
};
type Chart = (id: string, build: () => ReturnType<typeof barChart>) => SafeHtml;

function noticeCharts({ tables }: Data, chart: Chart, { t }: Words): SafeHtml {
  const trends = tables.trends;
  const years = trends.map((r) => String(r.year));
  const perYear = chart('retractions-per-year', () =>
    barChart({
      id: 'retractions-per-year',
      title: t('chart.perYear.title'),
      description: t('chart.perYear.description'),
      categories: years,
      series: [{ name: t('chart.perYear.series'), values: trends.map((r) => r.retractions) }],
      valueName: t('chart.notices'),
    }),
  );
  const otherSeries = TREND_SERIES.filter((k) => trends.some((r) => r[k] > 0));
  const others =
    otherSeries.length > 0
      ? chart('other-notices-per-year', () =>
          barChart({
            id: 'other-notices-per-year',
            title: t('chart.others.title'),
            description: t('chart.others.description'),
            categories: years,
            series: otherSeries.map((k) => ({ name: t(`chart.others.${k}`), values: trends.map((r) => r[k]) })),
            stacked: true,
            valueName: t('chart.notices'),
          }),
        )
      : html`<p>${t('analytics.noOther')}</p>`;
  return html`<div class="grid-2">${perYear}${others}</div>`;
}

function citationChart({ tables }: Data, what: string, chart: Chart, { t }: Words): SafeHtml {
  const citations = tables.citations;
  if (citations.length === 0) return html`<p>${t('analytics.noCitation', { what })}</p>`;
  return chart('citations-per-year', () =>
    barChart({
      id: 'citations-per-year',
      title: t('chart.citations.title', { what }),
      description: t('chart.citations.description'),
      categories: citations.map((r) => String(r.year)),
      series: [
        { name: t('chart.citations.before'), values: citations.map((r) => r.pre_retraction) },
        { name: t('chart.citations.sameDay'), values: citations.map((r) => r.same_day) },
        { name: t('chart.citations.after'), values: citations.map((r) => r.post_retraction) },
      ],
      stacked: true,
      valueName: t('chart.citationsValue'),
    }),
  );
}

function groupCharts({ tables }: Data, what: string, chart: Chart, { t }: Words): SafeHtml {
  const group = (id: 'subjects' | 'countries', rows: Array<{ name: string; papers: number }>, none: string) =>
    rows.length > 0
      ? chart(id, () =>
          barChart({
            id,
            title: t(`chart.${id}.title`, { what }),
            description: t(`chart.${id}.description`, { n: rows.length, what }),
            categories: rows.map((s) => s.name),
            series: [{ name: t('chart.papers'), values: rows.map((s) => s.papers) }],
            horizontal: true,
            valueName: t('chart.papersValue'),
          }),
        )
      : html`<p>${none}</p>`;
  const subjects = tables.subjects.slice(0, TOP_GROUPS).map((s) => ({ name: s.subject, papers: s.papers }));
  const countries = tables.geographic.slice(0, TOP_GROUPS).map((s) => ({ name: s.country, papers: s.papers }));
  return html`<div class="grid-2">
    ${group('subjects', subjects, t('analytics.noSubject'))}${group('countries', countries, t('analytics.noCountry'))}
  </div>`;
}

function timingCharts({ report, time }: Data, chart: Chart, { t }: Words): SafeHtml {
  const timing = chart('citation-timing', () =>
    barChart({
      id: 'citation-timing',
      title: t('chart.timing.title'),
      description: t('chart.timing.description', { time: t(`time.${time}`) }),
      categories: TIMING_BUCKETS.map((b) => t(`timing.${b}`)),
      series: [
        {
          name: t('chart.timing.series'),
          values: TIMING_BUCKETS.map((b) => report.timing_distribution.find((x) => x.bucket === b)?.count ?? 0),
        },
      ],
      valueName: t('chart.citationsValue'),
      height: 260,
    }),
  );
  const monthly =
    report.monthly_trend.length > 0
      ? chart('monthly-trend', () =>
          lineChart({
            id: 'monthly-trend',
            title: t('chart.monthly.title'),
            description: t('chart.monthly.description', {
              n: report.monthly_trend.length,
              asOf: report.filters.as_of ?? t('chart.monthly.lastDate'),
            }),
            series: [{ name: t('chart.timing.series'), points: report.monthly_trend.map((m) => [`${m.month}-01`, m.count]) }],
            valueName: t('chart.citationsValue'),
            height: 260,
          }),
        )
      : '';
  return html`<div class="grid-2">${timing}${monthly}</div>`;
}

function totals({ tables, nature }: Data, w: Words): SafeHtml {
  const { t, loc } = w;
  const o = tables.overview;
  const what = t(`plural.${nature}`);
  const none = t('common.none');
  return html`<h2>${t('analytics.totals', { what })}</h2>
    <div class="stats-row">
      <p><span class="stat">${loc.number(o.total_papers)}</span>${what}</p>
      <p><span class="stat">${loc.number(o.total_citations)}</span>${t('analytics.citationsOfThem')}</p>
      <p><span class="stat">${loc.percent(o.post_retraction_rate)}</span>${t('analytics.cameAfter', { n: o.post_retraction_citations })}</p>
      <p><span class="stat">${loc.number(o.journals)}</span>${t('analytics.journals', { countries: o.countries })}</p>
    </div>
    <p class="muted">
      ${t('analytics.span', { first: o.first_retraction_date ?? none, last: o.last_retraction_date ?? none, asOf: o.citations_as_of ?? none })}
      ${o.undated_citations > 0 ? t('analytics.undated', { n: o.undated_citations }) : ''}
    </p>
    <div class="table-scroll">
      <table class="data">
        <caption>
          ${t('analytics.byNatureCaption')}
        </caption>
        <thead>
          <tr>
            <th scope="col">${t('analytics.col.kind')}</th>
            <th scope="col" class="num">${t('analytics.col.papers')}</th>
            <th scope="col" class="num">${t('analytics.col.citations')}</th>
            <th scope="col" class="num">${t('analytics.col.after')}</th>
          </tr>
        </thead>
        <tbody>
          ${NATURES.map((n) => o.by_nature.find((b) => b.nature === n))
            .filter((b) => b !== undefined)
            .map(
              (b) =>
                html`<tr>
                  <th scope="row">
                    <a href="/analytics${queryString({ nature: b.nature })}"
                      >${b.nature === 'other' ? t('nature.otherFacet') : t(`nature.${b.nature}`)}</a
                    >
                  </th>
                  <td class="num">${loc.number(b.papers)}</td>
                  <td class="num">${loc.number(b.total_citations)}</td>
                  <td class="num">${loc.number(b.post_retraction_citations)}</td>
                </tr>`,
            )}
        </tbody>
      </table>
    </div>`;
}

function topPapers({ report, time }: Data, { t, loc }: Words): SafeHtml {
  if (report.top_papers.length === 0) return html``;
  const none = t('common.none');
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('analytics.topCaption', { time: t(`time.${time}`) })}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('analytics.col.paper')}</th>
          <th scope="col">${t('analytics.col.journal')}</th>
          <th scope="col">${t('analytics.col.notice')}</th>
          <th scope="col" class="num">${t('analytics.col.afterNotice')}</th>
          <th scope="col" class="num">${t('analytics.col.all')}</th>
        </tr>
      </thead>
      <tbody>
        ${report.top_papers.map(
          (p) =>
            html`<tr>
              <th scope="row"><a href="${paperHref(p.record_id)}">${p.title}</a></th>
              <td>${p.journal ?? none}</td>
              <td>${p.retraction_date ?? none}</td>
              <td class="num">${loc.number(p.post_retraction_citations)}</td>
              <td class="num">${loc.number(p.total_citations)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function analyticsBody(data: Data, chart: Chart, w: Words): SafeHtml {
  const { t, loc } = w;
  const { nature, time, report } = data;
  const what = t(`plural.${nature}`);
  const csv = (type: string) => `/api/analytics-data/${queryString({ type, format: 'csv', nature })}`;
  return html`<h1>${t('analytics.title')}</h1>
    ${filterForm(nature, time, w)} ${sourceNote(data.source, w)} ${totals(data, w)}
    <h2>${t('analytics.perYear')}</h2>
    ${noticeCharts(data, chart, w)}
    <h2>${t('analytics.citations')}</h2>
    ${citationChart(data, what, chart, w)}
    <h2>${t('analytics.groups')}</h2>
    ${groupCharts(data, what, chart, w)}
    <p class="muted">
      ${t('analytics.csv')} <a href="${csv('subjects')}">${t('analytics.csv.subjects')}</a>,
      <a href="${csv('geographic')}">${t('analytics.csv.countries')}</a>, <a href="${csv('trends')}">${t('analytics.csv.trends')}</a>,
      <a href="${csv('citations')}">${t('analytics.csv.citations')}</a>.
    </p>
    <h2>${t('analytics.timing')}</h2>
    <p>
      ${t('analytics.timingText', {
        after: report.totals.post_retraction_citations,
        n: report.totals.citations,
        rate: loc.percent(report.totals.post_retraction_rate),
        time: t(`time.${time}`),
      })}
    </p>
    ${timingCharts(data, chart, w)} ${topPapers(data, w)}`;
}

export function analyticsPage(app: ServiceApp, state: RetractionState, kit: PageKit): void {
  const { db } = state;
  definePage(app, kit, {
    url: '/analytics',
    query: AnalyticsPageQuery,
    async read({ query }): Promise<Data> {
      const nature = query.nature ?? 'retraction';
      const time = query.time_filter ?? 'all';
      const tables = (await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables(nature))).value;
      const report = await postRetractionReport(state, { timeFilter: time, nature });
      return { nature, time, tables, report, source: await dataSource(db, PAPER_DATASETS) };
    },
    render(data, { locale, chart }) {
      const w = wordsOf(locale);
      return {
        title: data.nature === 'retraction' ? w.t('analytics.title') : w.t('analytics.titleOf', { what: w.t(`plural.${data.nature}`) }),
        description: w.t('analytics.description'),
        section: '/analytics',
        body: analyticsBody(data, chart, w),
      };
    },
    refused(problem, { locale }) {
      const w = wordsOf(locale);
      return {
        title: w.t('analytics.title'),
        section: '/analytics',
        body: html`<h1>${w.t('analytics.title')}</h1>
          ${filterForm('retraction', 'all', w)}${errorNote(problem.message, locale)}`,
      };
    },
  });
}
