// `/`: the next draw of every category (date range, lowest CRS and invitations with 95% intervals), the cut-offs
// as a chart of intervals, the categories that are not forecast and why, every forecast rank, and the "my score"
// form. The numbers are those of GET /api/predict/ and /api/stats/.
import { forestPlot, html } from '../../../core/pages/index.ts';
import type { ForestRow, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
import { dataAgeNotice, forecastOf, formCategories, readForecastView } from './forecast-view.ts';
import type { ForecastView } from './forecast-view.ts';
import { count, dateRange, nextDraw, percent, range, score, scoreForm, sendPage, statusBadge } from './shared.ts';

export const NEXT_DRAWS_CHART = 'next-cutoffs';

/** Categories with a forecast, each with its next draw (the rows of the table and of the chart). */
export function forecastRows(view: ForecastView): { category: CategoryRecord; next: Prediction; young: boolean }[] {
  return view.categories.flatMap((category) => {
    const next = nextDraw(view.predictions.get(category.id));
    return next ? [{ category, next, young: forecastOf(view, category.id)?.status === 'young' }] : [];
  });
}

export function nextCutoffsChart(view: ForecastView) {
  const rows: ForestRow[] = forecastRows(view).map(({ category, next, young }) => ({
    label: category.name,
    estimate: next.predicted_crs_score,
    lower: next.uncertainty_range.min,
    upper: next.uncertainty_range.max,
    group: young ? 'Young category (pooled, wider)' : 'Established category',
  }));
  return forestPlot({
    id: NEXT_DRAWS_CHART,
    title: 'Lowest CRS score of the next draw, by category',
    description:
      'Each diamond is the forecast cut-off of the category’s next draw; the bar is its 95% interval. Categories are drawn at ' +
      'different levels: Provincial Nominee scores include the 600 points of a nomination.',
    rows,
    valueName: 'lowest CRS score invited',
    groupColours: { 'Established category': '#0072B2', 'Young category (pooled, wider)': '#B05A00' },
  });
}

function nextDrawsTable(view: ForecastView): SafeHtml {
  const rows = forecastRows(view);
  return html`<div class="table-scroll">
    <table class="data" id="next-draws">
      <caption>
        Next draw of each forecast category (as of ${view.forecastsAsOf ?? view.asOf})
      </caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col">Status</th>
          <th scope="col">Most likely date</th>
          <th scope="col">Date range (95%)</th>
          <th scope="col" class="num">Lowest CRS: forecast</th>
          <th scope="col" class="num">95% interval</th>
          <th scope="col" class="num">Invitations: forecast</th>
          <th scope="col" class="num">95% interval</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          ({ category, next, young }) =>
            html`<tr>
              <th scope="row"><a href="/categories/${category.id}">${category.name}</a></th>
              <td>${statusBadge(young ? 'young' : 'predicted')}</td>
              <td class="date">${next.predicted_date}</td>
              <td class="range">${dateRange(next.date_range.earliest, next.date_range.latest)}</td>
              <td class="num">${score(next.predicted_crs_score)}</td>
              <td class="num range">${range(next.uncertainty_range.min, next.uncertainty_range.max)}</td>
              <td class="num">${count(next.predicted_invitations)}</td>
              <td class="num range">
                ${next.invitations_range ? range(next.invitations_range.min, next.invitations_range.max, count) : '—'}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function allRanksTable(view: ForecastView): SafeHtml {
  const rows = view.categories.flatMap((category) => (view.predictions.get(category.id) ?? []).map((p) => ({ category, p })));
  return html`<details>
    <summary>Every forecast draw (up to five per category; ${rows.length} in all)</summary>
    <div class="table-scroll">
      <table class="data" id="all-forecast-draws">
        <caption>
          Forecast draws by category and rank (rank 1 is the next draw)
        </caption>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col" class="num">Rank</th>
            <th scope="col">Most likely date</th>
            <th scope="col">Date range (95%)</th>
            <th scope="col" class="num">Lowest CRS</th>
            <th scope="col" class="num">95% interval</th>
            <th scope="col" class="num">Invitations</th>
            <th scope="col" class="num">95% interval</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            ({ category, p }) =>
              html`<tr>
                <th scope="row"><a href="/categories/${category.id}">${category.name}</a></th>
                <td class="num">${p.rank}</td>
                <td class="date">${p.predicted_date}</td>
                <td class="range">${dateRange(p.date_range.earliest, p.date_range.latest)}</td>
                <td class="num">${score(p.predicted_crs_score)}</td>
                <td class="num range">${range(p.uncertainty_range.min, p.uncertainty_range.max)}</td>
                <td class="num">${count(p.predicted_invitations)}</td>
                <td class="num range">${p.invitations_range ? range(p.invitations_range.min, p.invitations_range.max, count) : '—'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </details>`;
}

function notForecast(view: ForecastView): SafeHtml {
  const rows = view.categories.filter((c) => (view.predictions.get(c.id)?.length ?? 0) === 0);
  if (rows.length === 0) return html``;
  return html`<h2>Categories not forecast</h2>
    <ul id="not-forecast">
      ${rows.map((c) => {
        const f = forecastOf(view, c.id);
        const latest = view.statistics?.categories[String(c.id)]?.latest_draw_date ?? f?.last_draw_date ?? null;
        return html`<li>
          <a href="/categories/${c.id}">${c.name}</a>:
          ${
            f?.status === 'dormant'
              ? html`dormant since ${f.dormant_since} (last draw ${f.last_draw_date})`
              : html`no forecast${latest ? html` (last draw ${latest})` : ''}${f ? html`: ${f.status_reason}` : ''}`
          }
        </li>`;
      })}
    </ul>`;
}

/** What the intervals held in the backtest (the stored calibration of /api/models/). */
function calibrationSentence(view: ForecastView): SafeHtml {
  const crs = view.forecasts?.calibration.crs.find((m) => m.h === 1);
  const dates = view.forecasts?.calibration.dates.find((d) => d.h === 1);
  if (!crs || crs.coverage_95 === null) return html``;
  return html`<p>
    Checked against the past: in the backtest (forecasts made after every past draw from what was known that day), the 95% interval of the
    next cut-off held ${percent(crs.coverage_95)} of the ${count(crs.n)} next-draw cut-offs of the last two
    years${dates && dates.coverage !== null ? html`, and the date range held ${percent(dates.coverage)} of the next draws’ dates` : ''}. See
    <a href="/models">the models and their backtest</a>.
  </p>`;
}

export function overviewPage(app: ServiceApp, routes: DrawsRouteContext, kit: PageKit): void {
  app.get('/', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const view = await readForecastView(routes);
      const version = await kit.dataVersion();
      const forecast = forecastRows(view);
      const young = forecast.filter((r) => r.young);
      return {
        title: 'The next draws',
        description: 'Forecasts of the next Express Entry draws of every category, with 95% intervals and a CRS score check.',
        section: '/',
        body: html`<h1>Express Entry: the next draws</h1>
          <p class="lead">
            Forecasts of each category’s next rounds of invitations, made on ${view.forecastsAsOf ?? 'no date (no forecast stored)'}: the
            lowest CRS score invited and the number of invitations, each with a 95% interval, and the range of dates the next draw should
            fall in. They come from past draws only; IRCC sets draws by policy, so the intervals — sized from how far past forecasts missed
            — matter as much as the forecasts.
          </p>
          ${dataAgeNotice(view)}
          ${
            forecast.length === 0
              ? html`<p class="note warn">No category has a forecast: there are no draws recent enough to forecast from.</p>`
              : html`${nextDrawsTable(view)}
                ${
                  young.length > 0
                    ? html`<p class="note warn">
                        ${young.map((r) => r.category.name).join(', ')}: young (fewer than five draws in the current run), forecast by the
                        pooled model with wider intervals.
                      </p>`
                    : ''
                }
                ${kit.charts.figure(`${version}|${NEXT_DRAWS_CHART}`, () => nextCutoffsChart(view))} ${allRanksTable(view)}`
          }
          ${calibrationSentence(view)}
          <p id="track-record-link">
            Every forecast served here is kept and scored when its draw is published: see <a href="/track-record">the track record</a>.
          </p>
          ${notForecast(view)}
          <h2 id="my-score-heading">Would my score clear the next draw?</h2>
          <p>The chance, from the forecast and how far past forecasts missed; not a promise.</p>
          ${scoreForm(formCategories(view), {}, 'my-score-heading')}`,
      };
    }),
  );
}
