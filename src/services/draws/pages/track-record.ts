// `/track-record`: every forecast as served beside the draw that happened, and each category's running record (MAE
// against repeating the last draw, interval score, coverage). The numbers are those of GET /api/track-record/.
import { Type } from 'typebox';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listCategories } from '../repository.ts';
import { TrackRecordQuery } from '../schemas/track-record.ts';
import type { DrawsState } from '../state.ts';
import { readTrackRecord, trackRecordEntry } from '../track-record.ts';
import type { CategoryRecordSummary, SeriesRecord, TrackRecordEntry } from '../track-record.ts';
import {
  CATEGORY_WORDS,
  categoryIn,
  categoryNames,
  chosenCategory,
  count,
  dateRange,
  parameterMessage,
  percent,
  range,
  score,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';

const PER_PAGE = 100;

/** GET /api/track-record/'s category and page (the page shows PER_PAGE forecasts a page, whatever a limit says). */
const TrackRecordPageQuery = Type.Object({ category: TrackRecordQuery.properties.category, page: TrackRecordQuery.properties.page });

const fixedIn = (x: number, digits: number, w: Words) => w.loc.fixed(x, digits);
const figure = (x: number | null, w: Words, digits = 1) => (x === null ? '—' : fixedIn(x, digits, w));
const interval = (i: SeriesRecord['mae_interval_95'], w: Words, digits = 1) =>
  i === null ? '' : ` (${fixedIn(i.low, digits, w)}–${fixedIn(i.high, digits, w)})`;

function summaryTable(summary: readonly (CategoryRecordSummary & { name: string })[], w: Words): SafeHtml {
  const { t } = w;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="track-record-summary-caption">
    <table class="data" id="track-record-summary">
      <caption id="track-record-summary-caption">
        ${t('track.summaryCaption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('common.category')}</th>
          <th scope="col" class="num">${t('track.forecasts')}</th>
          <th scope="col" class="num">${t('track.scored')}</th>
          <th scope="col" class="num">${t('track.judged')}</th>
          <th scope="col" class="num">${t('track.mae')}</th>
          <th scope="col" class="num">${t('track.naiveMae')}</th>
          <th scope="col" class="num">${t('track.relative')}</th>
          <th scope="col" class="num">${t('track.intervalScore')}</th>
          <th scope="col" class="num">${t('track.coverage')}</th>
          <th scope="col" class="num">${t('track.likelyRecord')}</th>
        </tr>
      </thead>
      <tbody>
        ${summary.map(
          (s) =>
            html`<tr>
              <th scope="row"><a href="/track-record?category=${s.category_id}">${s.name}</a></th>
              <td class="num">${count(s.forecasts, w)}</td>
              <td class="num">${count(s.scored, w)}</td>
              <td class="num">${count(s.draws_judged, w)}</td>
              <td class="num">${figure(s.crs.mae, w)}${interval(s.crs.mae_interval_95, w)}</td>
              <td class="num">${figure(s.crs.naive_mae, w)}</td>
              <td class="num">${figure(s.crs.relative_mae, w, 2)}</td>
              <td class="num">${figure(s.crs.interval_score, w)}</td>
              <td class="num">
                ${s.crs.coverage_95 === null ? '—' : percent(s.crs.coverage_95, w)}${interval(s.crs.coverage_interval_95, w, 2)}
              </td>
              <td class="num">
                ${
                  s.likely_window.n === 0
                    ? '—'
                    : t('track.likelyRecordValue', {
                        stated: percent(s.likely_window.mean_probability!, w),
                        held: percent(s.likely_window.hit_rate!, w),
                        count: s.likely_window.n,
                      })
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function entriesTable(entries: readonly TrackRecordEntry[], w: Words): SafeHtml {
  const { t, loc } = w;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="track-record-forecasts-caption">
    <table class="data" id="track-record-forecasts">
      <caption id="track-record-forecasts-caption">
        ${t('track.entriesCaption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('common.category')}</th>
          <th scope="col" class="num">${t('common.rank')}</th>
          <th scope="col">${t('track.madeOn')}</th>
          <th scope="col">${t('track.fromDraws')}</th>
          <th scope="col">${t('track.categoryLast')}</th>
          <th scope="col">${t('track.forecastDate')}</th>
          <th scope="col" class="num">${t('track.lowestCrs95')}</th>
          <th scope="col">${t('track.happened')}</th>
          <th scope="col" class="num">${t('track.actual')}</th>
          <th scope="col" class="num">${t('track.error')}</th>
          <th scope="col">${t('track.inside')}</th>
          <th scope="col">${t('track.likelyWindow')}</th>
          <th scope="col">${t('track.inWindow')}</th>
        </tr>
      </thead>
      <tbody>
        ${entries.map(
          (e) =>
            html`<tr>
              <th scope="row">${e.category_name}</th>
              <td class="num">${e.horizon}</td>
              <td class="date">${loc.date(e.origin, 'short')}</td>
              <td class="date">${loc.date(e.newest_draw_date, 'short')}</td>
              <td class="date">${t('track.dateRound', { date: loc.date(e.base.date, 'short'), round: e.base.round_number })}</td>
              <td class="date">${loc.date(e.forecast.date, 'short')}</td>
              <td class="num">${score(e.forecast.crs_score, w)} (${range(e.forecast.crs_range.min, e.forecast.crs_range.max, w)})</td>
              <td>
                ${e.outcome ? t('track.dateRound', { date: loc.date(e.outcome.date, 'short'), round: e.outcome.round_number }) : t('track.notYet')}
              </td>
              <td class="num">${e.outcome ? score(e.outcome.crs_score, w) : '—'}</td>
              <td class="num">${e.outcome ? `${score(e.outcome.crs_error, w)} (${score(e.outcome.naive_crs_error, w)})` : '—'}</td>
              <td>${e.outcome ? t(e.outcome.crs_inside ? 'track.yes' : 'track.no') : '—'}</td>
              <td class="range">
                ${
                  e.forecast.likely_window
                    ? t('common.likelyWindowValue', {
                        range: dateRange(e.forecast.likely_window.earliest, e.forecast.likely_window.latest, w),
                        probability: percent(e.forecast.likely_window.probability, w),
                      })
                    : '—'
                }
              </td>
              <td>
                ${e.outcome && e.outcome.likely_window_inside !== null ? t(e.outcome.likely_window_inside ? 'track.yes' : 'track.no') : '—'}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function trackRecordPage(app: ServiceApp, state: DrawsState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/track-record',
    query: TrackRecordPageQuery,
    async read({ query, locale }) {
      const names = await categoryNames(state, locale.language);
      const category = await chosenCategory(state, query.category, names, wordsOf(locale));
      await state.recordServed();
      const [record, categories] = await Promise.all([
        readTrackRecord(state.db, { categoryId: category?.id, page: query.page ?? 1, limit: PER_PAGE, asOf: state.asOf() }),
        listCategories(state.db, { activeOnly: false }),
      ]);
      return { category, record, names: new Map(categories.map((c) => [c.id, categoryIn(c, names).name])) };
    },
    render({ category, record, names }, { query, locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const page = query.page ?? 1;
      const entries = record.rows.map((r) => trackRecordEntry(r, names.get(r.category_id) ?? ''));
      const pages = Math.max(1, Math.ceil(record.count / PER_PAGE));
      const base = category ? `/track-record?category=${category.id}&` : '/track-record?';
      return {
        title: t('track.title'),
        description: t('track.description'),
        section: '/track-record',
        body: html`<h1>${category ? t('track.headingOf', { name: category.name }) : t('track.title')}</h1>
          <p class="lead">${t('track.lead')}</p>
          ${
            record.count === 0
              ? html`<p class="note">${t('track.none')}</p>`
              : html`${summaryTable(
                    record.summary.map((s) => ({ ...s, name: names.get(s.category_id) ?? '' })),
                    w,
                  )}
                  <h2>${t('track.forecasts')}${category ? html` <a href="/track-record">${t('track.every')}</a>` : ''}</h2>
                  <p class="muted">${t('track.count', { count: record.count, page, pages })}</p>
                  ${entriesTable(entries, w)}
                  <p>
                    ${page > 1 ? html`<a rel="prev" href="${base}page=${page - 1}">${t('track.newer')}</a>` : ''}
                    ${page < pages ? html`<a rel="next" href="${base}page=${page + 1}">${t('track.older')}</a>` : ''}
                  </p>`
          }
          <p>${t('track.json')} <a href="/api/track-record/">/api/track-record/</a>.</p>`,
      };
    },
    explain: parameterMessage({ ...CATEGORY_WORDS, page: (value, w) => w.t('track.badPage', { value }) }),
  });
}
