// `/`: the next draw of every category (date range, lowest CRS and invitations with 95% intervals), the cut-offs
// as a chart of intervals, the categories that are not forecast and why, every forecast rank, and the "my score"
// form. The numbers are those of GET /api/predict/ and /api/stats/.
import { forestPlot, html } from '../../../core/pages/index.ts';
import type { ForestRow, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { StoredCategoryForecast } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsState } from '../state.ts';
import { dataAgeNotice, forecastOf, formCategories, readForecastView, staleWindow } from './forecast-view.ts';
import type { ForecastView } from './forecast-view.ts';
import { count, dateRange, likelyWindowText, nextDraw, percent, range, score, scoreForm, statusBadge, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';
import { statusReasonText } from './status-reason.ts';

export const NEXT_DRAWS_CHART = 'next-cutoffs';

/** Categories with a forecast, each with its next draw (the rows of the table and of the chart). */
function forecastRows(view: ForecastView): { category: CategoryRecord; next: Prediction; young: boolean }[] {
  return view.categories.flatMap((category) => {
    const next = nextDraw(view.predictions.get(category.id));
    return next ? [{ category, next, young: forecastOf(view, category.id)?.status === 'young' }] : [];
  });
}

function nextCutoffsChart(view: ForecastView, w: Words) {
  const { t } = w;
  const established = t('overview.established');
  const youngGroup = t('overview.youngGroup');
  const rows: ForestRow[] = forecastRows(view).map(({ category, next, young }) => ({
    label: category.name,
    estimate: next.predicted_crs_score,
    lower: next.uncertainty_range.min,
    upper: next.uncertainty_range.max,
    group: young ? youngGroup : established,
  }));
  return forestPlot({
    id: NEXT_DRAWS_CHART,
    title: t('overview.chart'),
    description: t('overview.chartText'),
    rows,
    valueName: t('overview.chartAxis'),
    groupColours: { [established]: '#0072B2', [youngGroup]: '#B05A00' },
    language: w.loc.language,
  });
}

function nextDrawsTable(view: ForecastView, w: Words): SafeHtml {
  const { t } = w;
  const rows = forecastRows(view);
  return html`<div class="table-scroll">
    <table class="data" id="next-draws">
      <caption>
        ${t('overview.nextCaption', { date: w.loc.date(view.forecastsAsOf ?? view.asOf) })}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('common.category')}</th>
          <th scope="col">${t('common.status')}</th>
          <th scope="col">${t('common.rhythmDate')}</th>
          <th scope="col">${t('common.dateRange90')}</th>
          <th scope="col">${t('common.likelyWindow')}</th>
          <th scope="col" class="num">${t('common.lowestCrsForecast')}</th>
          <th scope="col" class="num">${t('common.interval95')}</th>
          <th scope="col" class="num">${t('common.invitationsForecast')}</th>
          <th scope="col" class="num">${t('common.interval95')}</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          ({ category, next, young }) =>
            html`<tr>
              <th scope="row"><a href="/categories/${category.id}">${category.name}</a></th>
              <td>${statusBadge(young ? 'young' : 'predicted', w)}</td>
              <td class="date">${w.loc.date(next.predicted_date, 'short')}</td>
              <td class="range">${dateRange(next.date_range.earliest, next.date_range.latest, w)}</td>
              <td class="range likely">${likelyWindowText(next.likely_window, w)}</td>
              <td class="num">${score(next.predicted_crs_score, w)}</td>
              <td class="num range">${range(next.uncertainty_range.min, next.uncertainty_range.max, w)}</td>
              <td class="num">${count(next.predicted_invitations, w)}</td>
              <td class="num range">
                ${next.invitations_range ? range(next.invitations_range.min, next.invitations_range.max, w, count) : '—'}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function allRanksTable(view: ForecastView, w: Words): SafeHtml {
  const { t } = w;
  const rows = view.categories.flatMap((category) => (view.predictions.get(category.id) ?? []).map((p) => ({ category, p })));
  return html`<details>
    <summary>${t('overview.everyForecast', { count: rows.length })}</summary>
    <div class="table-scroll">
      <table class="data" id="all-forecast-draws">
        <caption>
          ${t('overview.everyCaption')}
        </caption>
        <thead>
          <tr>
            <th scope="col">${t('common.category')}</th>
            <th scope="col" class="num">${t('common.rank')}</th>
            <th scope="col">${t('common.rhythmDate')}</th>
            <th scope="col">${t('common.dateRange90')}</th>
            <th scope="col" class="num">${t('common.lowestCrs')}</th>
            <th scope="col" class="num">${t('common.interval95')}</th>
            <th scope="col" class="num">${t('common.invitations')}</th>
            <th scope="col" class="num">${t('common.interval95')}</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            ({ category, p }) =>
              html`<tr>
                <th scope="row"><a href="/categories/${category.id}">${category.name}</a></th>
                <td class="num">${p.rank}</td>
                <td class="date">${w.loc.date(p.predicted_date, 'short')}</td>
                <td class="range">${dateRange(p.date_range.earliest, p.date_range.latest, w)}</td>
                <td class="num">${score(p.predicted_crs_score, w)}</td>
                <td class="num range">${range(p.uncertainty_range.min, p.uncertainty_range.max, w)}</td>
                <td class="num">${count(p.predicted_invitations, w)}</td>
                <td class="num range">${p.invitations_range ? range(p.invitations_range.min, p.invitations_range.max, w, count) : '—'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </details>`;
}

function notForecast(view: ForecastView, w: Words): SafeHtml {
  const { t, loc } = w;
  const rows = view.categories.filter((c) => (view.predictions.get(c.id)?.length ?? 0) === 0);
  if (rows.length === 0) return html``;
  return html`<h2>${t('overview.notForecast')}</h2>
    <ul id="not-forecast">
      ${rows.map((c) => {
        const f = forecastOf(view, c.id);
        const latest = view.statistics?.categories[String(c.id)]?.latest_draw_date ?? f?.last_draw_date ?? null;
        return html`<li>
          <a href="/categories/${c.id}">${c.name}</a>${t('overview.itemColon')}
          ${
            f?.status === 'dormant'
              ? html`${t('overview.dormant', { since: loc.date(f.dormant_since ?? ''), last: loc.date(f.last_draw_date ?? '') })}${ifResumedClause(f, w)}`
              : html`${t('overview.noForecastItem')}${latest ? t('overview.lastDraw', { date: loc.date(latest) }) : ''}${
                  f ? html`${t('overview.itemColon')}${statusReasonText(f.status_reason, w)}` : ''
                }`
          }
        </li>`;
      })}
    </ul>`;
}

/** A dormant category's forecast should it draw again (its last values, the interval widened for the pause), in a clause. */
function ifResumedClause(forecast: StoredCategoryForecast, w: Words): SafeHtml {
  const resumed = forecast.if_resumed;
  if (!resumed) return html``;
  return html`<span class="if-resumed"
    >${w.t('overview.ifResumed', {
      crs: score(resumed.crs.point, w),
      range: range(resumed.crs.min, resumed.crs.max, w),
      invitations: count(resumed.invitations.point, w),
      invitationsRange: range(resumed.invitations.min, resumed.invitations.max, w, count),
    })}</span
  >`;
}

/** What the intervals held in the backtest (the stored calibration of /api/models/). */
function calibrationSentence(view: ForecastView, w: Words): SafeHtml {
  const { t } = w;
  const crs = view.forecasts?.calibration.crs.find((m) => m.h === 1);
  const dates = view.forecasts?.calibration.dates.find((d) => d.h === 1);
  if (!crs || crs.coverage_95 === null) return html``;
  return html`${staleWindow(view.forecastsAsOf ?? view.asOf, view.source, w)}
    <p>
      ${t('overview.calibration', { held: percent(crs.coverage_95, w), count: crs.n })}${
        dates && dates.coverage !== null
          ? t(view.source.stale === true ? 'overview.calibrationDatesStale' : 'overview.calibrationDates', {
              held: percent(dates.coverage, w),
            })
          : ''
      }${t('overview.calibrationSee')} <a href="/models">${t('overview.calibrationLink')}</a>.
    </p>`;
}

export function overviewPage(app: ServiceApp, state: DrawsState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/',
    read: ({ locale }) => readForecastView(state, locale.language),
    render(view, { locale, chart }) {
      const w = wordsOf(locale);
      const { t } = w;
      const forecast = forecastRows(view);
      const young = forecast.filter((r) => r.young);
      return {
        title: t('overview.title'),
        description: t('overview.description'),
        section: '/',
        body: html`<h1>${t('overview.heading')}</h1>
          <p class="lead">${t('overview.lead', { date: view.forecastsAsOf ? w.loc.date(view.forecastsAsOf) : t('overview.noDate') })}</p>
          ${dataAgeNotice(view, w)}
          ${
            forecast.length === 0
              ? html`<p class="note warn">${t('overview.noForecast')}</p>`
              : html`${nextDrawsTable(view, w)}
                  <p class="muted" id="likely-note">
                    ${t(view.source.stale === true ? 'overview.likelyNoteStale' : 'overview.likelyNote')}
                  </p>
                  ${
                    young.length > 0
                      ? html`<p class="note warn">
                          ${t('overview.young', { names: young.map((r) => r.category.name).join(', '), count: young.length })}
                        </p>`
                      : ''
                  }
                  ${chart(NEXT_DRAWS_CHART, () => nextCutoffsChart(view, w))} ${allRanksTable(view, w)}`
          }
          ${calibrationSentence(view, w)}
          <p id="track-record-link">${t('overview.trackRecord')} <a href="/track-record">${t('overview.trackRecordLink')}</a>.</p>
          ${notForecast(view, w)}
          <h2 id="my-score-heading">${t('overview.myScore')}</h2>
          <p>${t('overview.myScoreText')}</p>
          ${scoreForm(formCategories(view), {}, w, 'my-score-heading')}`,
      };
    },
  });
}
