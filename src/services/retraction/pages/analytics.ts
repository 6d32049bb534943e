// `/analytics`: the dashboard. Retractions per year beside the other kinds of notice (expressions of concern,
// corrections, reinstatements: counted apart, never as retractions), citations per citing year split at the notice,
// subjects and countries, and the timing of the citations that came after the notice. The figures are the API's:
// the analytics-data tables (GET /api/analytics-data/) and the post-retraction analytics
// (GET /api/post-retraction-analytics/), both computed at import.
import { barChart, html, lineChart, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { AGGREGATES } from '../aggregates.ts';
import type { AnalyticsTables } from '../aggregates.ts';
import { NATURES, NATURE_FILTERS, NATURE_NAMES } from '../nature.ts';
import type { NatureFilter } from '../nature.ts';
import { PAPER_DATASETS, postRetractionReport, storedAggregate } from '../reports.ts';
import { dataSource } from '../repository.ts';
import { TIME_FILTERS, TIMING_BUCKETS } from '../windows.ts';
import type { TimeFilter } from '../windows.ts';
import type { RetractionState } from '../state.ts';
import { TIMING_LABELS } from './paper.ts';
import { paperHref } from './search.ts';
import { clientError, errorNote, formatCount, formatPercent, oneOfParam, param, sendPage, sourceNote } from './shared.ts';

/** Subjects and countries drawn (the data table and the CSV have them all). */
export const TOP_GROUPS = 15;

export const NATURE_PLURAL: Record<NatureFilter, string> = {
  retraction: 'retracted papers',
  expression_of_concern: 'papers with an expression of concern',
  correction: 'corrected papers',
  reinstatement: 'reinstated papers',
  other: 'papers with another or no stated kind of notice',
  all: 'records of every kind of notice',
};

const TIME_WORDS: Record<TimeFilter, string> = {
  all: 'all citing dates',
  '1y': 'citing dates in the last year',
  '3y': 'citing dates in the last 3 years',
  '5y': 'citing dates in the last 5 years',
};

const TREND_SERIES = [
  ['expressions_of_concern', 'Expressions of concern'],
  ['corrections', 'Corrections'],
  ['reinstatements', 'Reinstatements'],
  ['other_notices', 'Other notices'],
] as const;

function filterForm(nature: NatureFilter, time: TimeFilter): SafeHtml {
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}" ${value === current ? html`selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="/analytics">
    <label
      >Kind of notice
      <select name="nature">
        ${NATURE_FILTERS.map((n) => option(n, n === 'all' ? 'Every kind' : NATURE_NAMES[n], nature))}
      </select>
    </label>
    <label
      >Citing dates (timing section)
      <select name="time_filter">
        ${TIME_FILTERS.map((t) => option(t, TIME_WORDS[t], time))}
      </select>
    </label>
    <button type="submit">Show</button>
  </form>`;
}

export function analyticsPage(app: ServiceApp, state: RetractionState, kit: PageKit): void {
  const { db } = state;
  app.get('/analytics', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const title = 'Analytics';
      let nature: NatureFilter;
      let time: TimeFilter;
      try {
        nature = oneOfParam('nature', param(request.query, 'nature'), NATURE_FILTERS, 'retraction');
        time = oneOfParam('time_filter', param(request.query, 'time_filter'), TIME_FILTERS, 'all');
      } catch (error) {
        const { status, message } = clientError(error);
        return {
          status,
          title,
          section: '/analytics',
          body: html`<h1>${title}</h1>
            ${filterForm('retraction', 'all')}${errorNote(message)}`,
        };
      }
      const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables(nature));
      const report = await postRetractionReport(state, { timeFilter: time, nature });
      const source = await dataSource(db, PAPER_DATASETS);
      const key = `${tables.data_version}:analytics:${nature}`;
      const o = tables.value.overview;
      const what = NATURE_PLURAL[nature];

      const trends = tables.value.trends;
      const years = trends.map((r) => String(r.year));
      const perYear = kit.charts.figure(`${key}:retractions-per-year`, () =>
        barChart({
          id: 'retractions-per-year',
          title: 'Retractions per year',
          description:
            'Retraction notices per year of the notice (nature Retraction only; the other kinds of notice are in the next chart).',
          categories: years,
          series: [{ name: 'Retractions', values: trends.map((r) => r.retractions) }],
          valueName: 'notices',
        }),
      );
      const otherSeries = TREND_SERIES.filter(([k]) => trends.some((r) => r[k] > 0));
      const others =
        otherSeries.length > 0
          ? kit.charts.figure(`${key}:other-notices-per-year`, () =>
              barChart({
                id: 'other-notices-per-year',
                title: 'Other notices per year',
                description:
                  'Expressions of concern, corrections and reinstatements per year of the notice, stacked; none of them is a retraction.',
                categories: years,
                series: otherSeries.map(([k, name]) => ({ name, values: trends.map((r) => r[k]) })),
                stacked: true,
                valueName: 'notices',
              }),
            )
          : html`<p>No notice of another kind.</p>`;

      const citations = tables.value.citations;
      const citationChart =
        citations.length > 0
          ? kit.charts.figure(`${key}:citations-per-year`, () =>
              barChart({
                id: 'citations-per-year',
                title: `Citations of ${what} per citing year`,
                description:
                  'Citations per year of the citing work, stacked: before the notice (Before), on its day (Same day), and after it (After).',
                categories: citations.map((r) => String(r.year)),
                series: [
                  { name: 'Before', values: citations.map((r) => r.pre_retraction) },
                  { name: 'Same day', values: citations.map((r) => r.same_day) },
                  { name: 'After', values: citations.map((r) => r.post_retraction) },
                ],
                stacked: true,
                valueName: 'citations',
              }),
            )
          : html`<p>No dated citation of ${what}.</p>`;

      const subjects = tables.value.subjects.slice(0, TOP_GROUPS);
      const subjectChart =
        subjects.length > 0
          ? kit.charts.figure(`${key}:subjects`, () =>
              barChart({
                id: 'subjects',
                title: `Subjects of ${what}`,
                description: `The ${subjects.length} subjects with the most ${what} (a paper with several subjects counts in each).`,
                categories: subjects.map((s) => s.subject),
                series: [{ name: 'Papers', values: subjects.map((s) => s.papers) }],
                horizontal: true,
                valueName: 'papers',
              }),
            )
          : html`<p>No subject recorded.</p>`;
      const countries = tables.value.geographic.slice(0, TOP_GROUPS);
      const countryChart =
        countries.length > 0
          ? kit.charts.figure(`${key}:countries`, () =>
              barChart({
                id: 'countries',
                title: `Countries of ${what}`,
                description: `The ${countries.length} countries with the most ${what} (a paper with authors in several countries counts in each).`,
                categories: countries.map((s) => s.country),
                series: [{ name: 'Papers', values: countries.map((s) => s.papers) }],
                horizontal: true,
                valueName: 'papers',
              }),
            )
          : html`<p>No country recorded.</p>`;

      const timeKey = `${key}:${time}`;
      const timing = kit.charts.figure(`${timeKey}:timing`, () =>
        barChart({
          id: 'citation-timing',
          title: 'How long after the notice citations came',
          description: `Citations after the notice by days between the notice and the citing work (${TIME_WORDS[time]}).`,
          categories: TIMING_BUCKETS.map((b) => TIMING_LABELS[b]),
          series: [
            {
              name: 'Citations after the notice',
              values: TIMING_BUCKETS.map((b) => report.timing_distribution.find((t) => t.bucket === b)?.count ?? 0),
            },
          ],
          valueName: 'citations',
          height: 260,
        }),
      );
      const monthly =
        report.monthly_trend.length > 0
          ? kit.charts.figure(`${timeKey}:monthly`, () =>
              lineChart({
                id: 'monthly-trend',
                title: 'Citations after the notice, per month',
                description: `Citations after the notice per citing month, the ${report.monthly_trend.length} months up to ${report.filters.as_of ?? 'the last citing date'} (year-only dates left out).`,
                series: [{ name: 'Citations after the notice', points: report.monthly_trend.map((m) => [`${m.month}-01`, m.count]) }],
                valueName: 'citations',
                height: 260,
              }),
            )
          : '';

      const csv = (type: string) => `/api/analytics-data/${queryString({ type, format: 'csv', nature })}`;
      return {
        title: nature === 'retraction' ? title : `${title}: ${NATURE_PLURAL[nature]}`,
        description: 'Retractions per year, subjects, countries and the citations retracted papers receive after their retraction.',
        section: '/analytics',
        body: html`<h1>${title}</h1>
          ${filterForm(nature, time)} ${sourceNote(source)}
          <h2>Totals: ${what}</h2>
          <div class="stats-row">
            <p><span class="stat">${formatCount(o.total_papers)}</span>${what}</p>
            <p><span class="stat">${formatCount(o.total_citations)}</span>citations of them</p>
            <p>
              <span class="stat">${formatPercent(o.post_retraction_rate)}</span>of the citations came after the notice
              (${formatCount(o.post_retraction_citations)})
            </p>
            <p><span class="stat">${formatCount(o.journals)}</span>journals, ${formatCount(o.countries)} countries</p>
          </div>
          <p class="muted">
            Notices from ${o.first_retraction_date ?? '—'} to ${o.last_retraction_date ?? '—'}; citations as of ${o.citations_as_of ?? '—'}.
            ${o.undated_citations > 0 ? html`${formatCount(o.undated_citations)} citations without a date count in the totals only.` : ''}
          </p>
          <div class="table-scroll">
            <table class="data">
              <caption>
                Every kind of notice, counted apart (only a retraction is a retracted paper)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Kind of notice</th>
                  <th scope="col" class="num">Papers</th>
                  <th scope="col" class="num">Citations</th>
                  <th scope="col" class="num">Citations after the notice</th>
                </tr>
              </thead>
              <tbody>
                ${NATURES.map((n) => o.by_nature.find((b) => b.nature === n)!)
                  .filter(Boolean)
                  .map(
                    (b) =>
                      html`<tr>
                        <th scope="row"><a href="/analytics${queryString({ nature: b.nature })}">${NATURE_NAMES[b.nature]}</a></th>
                        <td class="num">${formatCount(b.papers)}</td>
                        <td class="num">${formatCount(b.total_citations)}</td>
                        <td class="num">${formatCount(b.post_retraction_citations)}</td>
                      </tr>`,
                  )}
              </tbody>
            </table>
          </div>
          <h2>Notices per year</h2>
          <div class="grid-2">${perYear}${others}</div>
          <h2>Citations</h2>
          ${citationChart}
          <h2>Subjects and countries</h2>
          <div class="grid-2">${subjectChart}${countryChart}</div>
          <p class="muted">
            Every subject and country as CSV: <a href="${csv('subjects')}">subjects</a>, <a href="${csv('geographic')}">countries</a>,
            <a href="${csv('trends')}">notices per year</a>, <a href="${csv('citations')}">citations per year</a>.
          </p>
          <h2>Timing of the citations after the notice</h2>
          <p>
            ${formatCount(report.totals.post_retraction_citations)} of ${formatCount(report.totals.citations)} citations
            (${formatPercent(report.totals.post_retraction_rate)}) came after the notice, for ${TIME_WORDS[time]}.
          </p>
          <div class="grid-2">${timing}${monthly}</div>
          ${
            report.top_papers.length > 0
              ? html`<div class="table-scroll">
                  <table class="data">
                    <caption>
                      Most cited after the notice (${TIME_WORDS[time]})
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Paper</th>
                        <th scope="col">Journal</th>
                        <th scope="col">Notice</th>
                        <th scope="col" class="num">After the notice</th>
                        <th scope="col" class="num">All citations</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${report.top_papers.map(
                        (p) =>
                          html`<tr>
                            <th scope="row"><a href="${paperHref(p.record_id)}">${p.title}</a></th>
                            <td>${p.journal ?? '—'}</td>
                            <td>${p.retraction_date ?? '—'}</td>
                            <td class="num">${formatCount(p.post_retraction_citations)}</td>
                            <td class="num">${formatCount(p.total_citations)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>`
              : ''
          }`,
      };
    }),
  );
}
