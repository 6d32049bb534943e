// `/track-record`: every forecast as served beside the draw that happened, and each category's running record (MAE
// against repeating the last draw, interval score, coverage). The numbers are those of GET /api/track-record/.
import { badRequest } from '../../../core/http/errors.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listCategories } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
import { readTrackRecord, trackRecordEntry } from '../track-record.ts';
import type { CategoryRecordSummary, SeriesRecord, TrackRecordEntry } from '../track-record.ts';
import { categoryParam, count, param, percent, range, score, sendPage } from './shared.ts';

const PER_PAGE = 100;

const figure = (x: number | null, digits = 1) => (x === null ? '—' : x.toFixed(digits));
const interval = (i: SeriesRecord['mae_interval_95'], digits = 1) =>
  i === null ? '' : ` (${i.low.toFixed(digits)}–${i.high.toFixed(digits)})`;

function summaryTable(summary: readonly (CategoryRecordSummary & { name: string })[]): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data" id="track-record-summary">
      <caption>
        Running record of each category: lowest CRS score (95% intervals of the MAE and coverage in brackets)
      </caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col" class="num">Forecasts</th>
          <th scope="col" class="num">Scored</th>
          <th scope="col" class="num">Draws judged</th>
          <th scope="col" class="num">MAE</th>
          <th scope="col" class="num">Naive MAE</th>
          <th scope="col" class="num">MAE ÷ naive</th>
          <th scope="col" class="num">Interval score</th>
          <th scope="col" class="num">Coverage of 95% intervals</th>
        </tr>
      </thead>
      <tbody>
        ${summary.map(
          (s) =>
            html`<tr>
              <th scope="row"><a href="/track-record?category=${s.category_id}">${s.name}</a></th>
              <td class="num">${count(s.forecasts)}</td>
              <td class="num">${count(s.scored)}</td>
              <td class="num">${count(s.draws_judged)}</td>
              <td class="num">${figure(s.crs.mae)}${interval(s.crs.mae_interval_95)}</td>
              <td class="num">${figure(s.crs.naive_mae)}</td>
              <td class="num">${figure(s.crs.relative_mae, 2)}</td>
              <td class="num">${figure(s.crs.interval_score)}</td>
              <td class="num">
                ${s.crs.coverage_95 === null ? '—' : percent(s.crs.coverage_95)}${interval(s.crs.coverage_interval_95, 2)}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function entriesTable(entries: readonly TrackRecordEntry[]): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data" id="track-record-forecasts">
      <caption>
        Forecasts as served, newest first, beside what happened
      </caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col" class="num">Rank</th>
          <th scope="col">Made on</th>
          <th scope="col">From draws up to</th>
          <th scope="col">Forecast date</th>
          <th scope="col" class="num">Lowest CRS (95%)</th>
          <th scope="col">Draw that happened</th>
          <th scope="col" class="num">Actual CRS</th>
          <th scope="col" class="num">Error (naive)</th>
          <th scope="col">Inside interval</th>
        </tr>
      </thead>
      <tbody>
        ${entries.map(
          (e) =>
            html`<tr>
              <th scope="row">${e.category_name}</th>
              <td class="num">${e.horizon}</td>
              <td class="date">${e.origin}</td>
              <td class="date">${e.base.date} (round ${e.base.round_number})</td>
              <td class="date">${e.forecast.date}</td>
              <td class="num">${score(e.forecast.crs_score)} (${range(e.forecast.crs_range.min, e.forecast.crs_range.max)})</td>
              <td>${e.outcome ? `${e.outcome.date} (round ${e.outcome.round_number})` : 'not yet'}</td>
              <td class="num">${e.outcome ? score(e.outcome.crs_score) : '—'}</td>
              <td class="num">${e.outcome ? `${score(e.outcome.crs_error)} (${score(e.outcome.naive_crs_error)})` : '—'}</td>
              <td>${e.outcome ? (e.outcome.crs_inside ? 'yes' : 'no') : '—'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function trackRecordPage(app: ServiceApp, routes: DrawsRouteContext, kit: PageKit): void {
  app.get('/track-record', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const category = await categoryParam(routes, param(request.query, 'category'));
      const rawPage = param(request.query, 'page');
      if (rawPage !== undefined && !/^[1-9]\d{0,5}$/.test(rawPage))
        throw badRequest(`page must be a whole number from 1, got "${rawPage}"`);
      const page = rawPage === undefined ? 1 : Number(rawPage);
      await routes.recordServed();
      const [record, categories] = await Promise.all([
        readTrackRecord(routes.db, { categoryId: category?.id, page, limit: PER_PAGE }),
        listCategories(routes.db, { activeOnly: false }),
      ]);
      const names = new Map(categories.map((c) => [c.id, c.name]));
      const entries = record.rows.map((r) => trackRecordEntry(r, names.get(r.category_id) ?? ''));
      const pages = Math.max(1, Math.ceil(record.count / PER_PAGE));
      const base = category ? `/track-record?category=${category.id}&` : '/track-record?';
      return {
        title: 'Track record',
        description: 'Past forecasts of the Express Entry draws beside the draws that happened: accuracy, interval score and coverage.',
        section: '/track-record',
        body: html`<h1>Track record${category ? html`: ${category.name}` : ''}</h1>
          <p class="lead">
            Every forecast this service served is kept, with the date it was made and the newest draw it was made from. When IRCC publishes
            the draw it forecast (the category’s next draws after that date), it is scored here. Judge the forecasts by this record: the MAE
            beside the naive forecast (repeat the category’s last draw), the interval score (Winkler, α = 0.05: the width of the 95%
            interval plus a penalty of 40 times any miss; lower is better) and how often the 95% intervals held the outcome.
          </p>
          ${
            record.count === 0
              ? html`<p class="note">No forecast has been recorded yet.</p>`
              : html`${summaryTable(record.summary.map((s) => ({ ...s, name: names.get(s.category_id) ?? '' })))}
                  <h2>Forecasts${category ? html` <a href="/track-record">(every category)</a>` : ''}</h2>
                  <p class="muted">${count(record.count)} forecasts; page ${page} of ${pages}.</p>
                  ${entriesTable(entries)}
                  <p>
                    ${page > 1 ? html`<a rel="prev" href="${base}page=${page - 1}">Newer</a>` : ''}
                    ${page < pages ? html`<a rel="next" href="${base}page=${page + 1}">Older</a>` : ''}
                  </p>`
          }
          <p>The same data as JSON: <a href="/api/track-record/">/api/track-record/</a>.</p>`,
      };
    }),
  );
}
