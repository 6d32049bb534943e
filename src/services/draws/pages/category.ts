// `/categories/{id}`: one category's lowest CRS score and invitations over time with the forecast fan of its next
// draws (95% intervals), the next draw's date range, its forecast draws, how it is forecast, its recent draws and
// the "my score" form. Young categories say their forecast is pooled and wider; dormant ones say since when.
import { Type } from 'typebox';
import { withError } from '../../../core/http/params.ts';
import { externalLink, html, queryString, untranslated } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { PageInput } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { StoredCategoryForecast } from '../aggregates.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { DEFAULT_HORIZONS } from '../forecast/forecast-panel.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { listDraws } from '../repository.ts';
import type { CategoryRecord, DrawRecord } from '../repository.ts';
import { IdParams } from '../schemas/common.ts';
import type { DrawsState } from '../state.ts';
import { forecastChart } from './forecast-chart.ts';
import { dataAgeNotice, forecastOf, formCategories, readForecastView, staleWindow } from './forecast-view.ts';
import type { ForecastView } from './forecast-view.ts';
import {
  categoryIn,
  categoryNames,
  count,
  dateRange,
  nextDraw,
  parameterMessage,
  pathCategory,
  percent,
  range,
  score,
  scoreForm,
  statusBadge,
  statusNote,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';
import { statusReasonText } from './status-reason.ts';
import { translated } from './translated.ts';

/** The charts show the draws of the last two years (at least the last ten) unless the whole history is asked for. */
export const HISTORY_YEARS = 2;
export const HISTORY_MIN_DRAWS = 10;
const RECENT_DRAWS_SHOWN = 10;

/** The combination's members, in the order the weights table lists them (their names are 'member.<id>' messages). */
const MEMBERS = ['naive', 'ses', 'damped_trend', 'pooled_reversion'] as const;

/** The draws a chart shows: newest first in, oldest first out. */
function chartedDraws(draws: readonly DrawRecord[], asOf: string, whole: boolean): DrawRecord[] {
  if (whole) return [...draws].reverse();
  const since = isoFromDayNumber(dayNumber(asOf) - Math.round(365.25 * HISTORY_YEARS));
  const recent = draws.filter((d, i) => d.date >= since || i < HISTORY_MIN_DRAWS);
  return recent.reverse();
}

function categoryCharts(category: CategoryRecord, draws: readonly DrawRecord[], predictions: readonly Prediction[], w: Words) {
  const { t } = w;
  const slug = `category-${category.id}`;
  // A category with no forecast (dormant) has no dashed line, band or forecast table to describe.
  const fan = predictions.length > 0 ? t('category.fan') : '';
  return {
    crs: forecastChart({
      id: `${slug}-crs`,
      title: t('category.crsChart', { name: category.name }),
      description: t('category.crsChartText', { fan }),
      valueName: t('category.crsAxis'),
      w,
      history: draws.map((d) => ({ date: d.date, round: d.round_number, value: d.lowest_crs_score })),
      forecasts: predictions.map((p) => ({
        rank: p.rank,
        date: p.predicted_date,
        point: p.predicted_crs_score,
        lower: p.uncertainty_range.min,
        upper: p.uncertainty_range.max,
      })),
    }),
    invitations: forecastChart({
      id: `${slug}-invitations`,
      title: t('category.invChart', { name: category.name }),
      description: t('category.invChartText', { fan }),
      valueName: t('category.invAxis'),
      w,
      logScale: true,
      history: draws.map((d) => ({ date: d.date, round: d.round_number, value: d.invitations_issued })),
      forecasts: predictions.flatMap((p) =>
        p.invitations_range
          ? [
              {
                rank: p.rank,
                date: p.predicted_date,
                point: p.predicted_invitations,
                lower: p.invitations_range.min,
                upper: p.invitations_range.max,
              },
            ]
          : [],
      ),
    }),
  };
}

/** "next", "2nd", "3rd", "4th" … ("prochaine", "2e", "3e" …): ICU's ordinal rules of the language. */
export function drawOrdinal(rank: number, w: Words): string {
  return w.t('category.ordinal', { rank });
}

/** `stale`: the feed is stale, so the likely window's chance is the date law's own mass, not recalibrated. */
function nextDrawFacts(next: Prediction, young: boolean, stale: boolean, w: Words): SafeHtml {
  const { t, loc } = w;
  return html`<dl class="facts" id="next-draw">
    <dt>${t('common.date')}</dt>
    <dd>
      ${t('category.dateFact', {
        earliest: loc.date(next.date_range.earliest),
        latest: loc.date(next.date_range.latest),
        date: loc.date(next.predicted_date),
      })}${
        next.likely_window
          ? html`;
              <span id="likely-window"
                >${t('category.likelyFact', {
                  earliest: loc.date(next.likely_window.earliest),
                  latest: loc.date(next.likely_window.latest),
                  probability: percent(next.likely_window.probability, w),
                })}${stale ? html` ${t('common.likelyStale')}` : ''}</span
              >`
          : ''
      }
    </dd>
    <dt>${t('category.lowestCrsScore')}</dt>
    <dd>
      ${t('category.withInterval', {
        value: score(next.predicted_crs_score, w),
        range: range(next.uncertainty_range.min, next.uncertainty_range.max, w),
      })}
    </dd>
    <dt>${t('common.invitations')}</dt>
    <dd>
      ${
        next.invitations_range
          ? t('category.withInterval', {
              value: count(next.predicted_invitations, w),
              range: range(next.invitations_range.min, next.invitations_range.max, w, count),
            })
          : count(next.predicted_invitations, w)
      }
    </dd>
    <dt>${t('category.trackRecord')}</dt>
    <dd>
      ${t(young ? 'category.trackRecordYoung' : 'category.trackRecordOwn', { score: loc.percent(next.confidence_score / 100, 1) })}${
        next.confidence_forecasts_scored === null
          ? ''
          : html`; ${t('category.trackRecordCount', { count: next.confidence_forecasts_scored })}`
      }
    </dd>
    <dt>${t('category.model')}</dt>
    <dd>${t(next.model_used === 'pooled_young' ? 'category.modelYoung' : 'category.modelCombination')}</dd>
  </dl>`;
}

function forecastTable(category: CategoryRecord, predictions: readonly Prediction[], w: Words): SafeHtml {
  const { t, loc } = w;
  return html`<div class="table-scroll">
    <table class="data" id="forecast-draws">
      <caption>
        ${t('category.forecastCaption', { name: category.name })}
      </caption>
      <thead>
        <tr>
          <th scope="col" class="num">${t('common.draw')}</th>
          <th scope="col">${t('common.rhythmDate')}</th>
          <th scope="col">${t('common.dateRange90')}</th>
          <th scope="col" class="num">${t('common.lowestCrs')}</th>
          <th scope="col" class="num">${t('common.interval95')}</th>
          <th scope="col" class="num">${t('common.invitations')}</th>
          <th scope="col" class="num">${t('common.interval95')}</th>
          <th scope="col" class="num">${t('category.within10')}</th>
        </tr>
      </thead>
      <tbody>
        ${predictions.map(
          (p) =>
            html`<tr>
              <td class="num">${drawOrdinal(p.rank, w)}</td>
              <td class="date">${loc.date(p.predicted_date, 'short')}</td>
              <td class="range">${dateRange(p.date_range.earliest, p.date_range.latest, w)}</td>
              <td class="num">${score(p.predicted_crs_score, w)}</td>
              <td class="num range">${range(p.uncertainty_range.min, p.uncertainty_range.max, w)}</td>
              <td class="num">${count(p.predicted_invitations, w)}</td>
              <td class="num range">${p.invitations_range ? range(p.invitations_range.min, p.invitations_range.max, w, count) : '—'}</td>
              <td class="num">
                ${loc.percent(p.confidence_score / 100, 1)}${
                  p.confidence_forecasts_scored === null
                    ? ''
                    : html`<br /><small>${t('category.trackRecordCount', { count: p.confidence_forecasts_scored })}</small>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** `staleNote`: on a stale feed, which days the backtest's last two years hold (staleWindow). */
function modelSection(forecast: StoredCategoryForecast, staleNote: SafeHtml, w: Words): SafeHtml {
  if (forecast.crs === null) return html``;
  const { t, loc } = w;
  const b = forecast.backtest_h1;
  const f = (x: number | null) => (x === null ? '—' : loc.fixed(x, 1));
  const weights = (kind: 'crs' | 'invitations') => forecast[kind]?.weights ?? {};
  const members = MEMBERS.filter((m) => m in weights('crs') || m in weights('invitations'));
  const weight = (kind: 'crs' | 'invitations', m: string) =>
    loc.percent(Math.round((weights(kind)[m as keyof ReturnType<typeof weights>] ?? 0) * 100) / 100, 0);
  return html`<h2>${t('category.howForecast')}</h2>
    ${
      forecast.status === 'young'
        ? html`<p>${t('category.pooled', { phi: loc.fixed(forecast.crs.phi.used, 3) })}</p>`
        : html`<div class="table-scroll">
            <table class="data" id="weights">
              <caption>
                ${t('category.weightsCaption')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">${t('category.model')}</th>
                  <th scope="col" class="num">${t('common.lowestCrs')}</th>
                  <th scope="col" class="num">${t('common.invitations')}</th>
                </tr>
              </thead>
              <tbody>
                ${members.map(
                  (m) =>
                    html`<tr>
                      <th scope="row">${t(`member.${m}`)}</th>
                      <td class="num">${weight('crs', m)}</td>
                      <td class="num">${weight('invitations', m)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${
      b.n > 0
        ? html`${staleNote}
            <p id="backtest-h1">
              ${t('category.backtest', { count: b.n, served: f(b.served), naive: f(b.naive), mean: f(b.window_mean) })}
              <a href="/models">${t('category.everyBacktest')}</a>.
            </p>`
        : forecast.status === 'young'
          ? html`<p>${t('category.youngScored')} <a href="/models">${t('category.modelsPage')}</a>.</p>`
          : html`<p>${t('category.notScored')}</p>`
    }`;
}

function recentDrawsTable(category: CategoryRecord, draws: readonly DrawRecord[], w: Words): SafeHtml {
  const { t, loc } = w;
  const shown = draws.slice(0, RECENT_DRAWS_SHOWN);
  return html`<div class="table-scroll">
      <table class="data" id="recent-draws">
        <caption>
          ${t('category.lastDraws', { count: shown.length, name: category.name })}
        </caption>
        <thead>
          <tr>
            <th scope="col">${t('common.date')}</th>
            <th scope="col">${t('common.round')}</th>
            <th scope="col" class="num">${t('common.lowestCrs')}</th>
            <th scope="col" class="num">${t('common.invitations')}</th>
            <th scope="col" class="num">${t('common.daysSincePrevious')}</th>
          </tr>
        </thead>
        <tbody>
          ${shown.map(
            (d) =>
              html`<tr>
                <td class="date">${loc.date(d.date, 'short')}</td>
                <td>${externalLink(d.url, d.round_number)}</td>
                <td class="num">${score(d.lowest_crs_score, w)}</td>
                <td class="num">${count(d.invitations_issued, w)}</td>
                <td class="num">${d.days_since_last_draw ?? '—'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p><a href="/draws${queryString({ category: category.id })}">${t('category.everyDrawOf', { name: category.name })}</a></p>`;
}

function statsRow(view: ForecastView, category: CategoryRecord, w: Words): SafeHtml {
  const { t, loc } = w;
  const s = view.statistics?.categories[String(category.id)];
  if (!s) return html``;
  return html`<div class="stats-row">
    <p>
      <span class="stat">${count(s.total_draws, w)}</span>
      ${t('category.drawsSince', { count: s.total_draws, date: s.first_draw_date ? loc.date(s.first_draw_date) : '—' })}
    </p>
    <p><span class="stat">${s.latest_draw_date ? loc.date(s.latest_draw_date, 'short') : '—'}</span> ${t('category.lastDraw')}</p>
    <p><span class="stat">${s.median_days_between_draws ?? '—'}</span> ${t('category.medianDays')}</p>
    <p>
      <span class="stat">${s.min_crs_score === null ? '—' : range(s.min_crs_score, s.max_crs_score ?? s.min_crs_score, w)}</span>
      ${t('category.crsRange')}
    </p>
  </div>`;
}

/** A category's description in the page's language: a known family's by its slug, a new one's from its name. */
function describe(category: CategoryRecord, w: Words): SafeHtml {
  const unknown = /^Rounds the feed names "(.*)"; no known category family matches this name\.$/.exec(category.description ?? '');
  if (unknown) return html`${w.t('category.unknownDescription', { name: category.name })}`;
  return translated(`category.${category.slug}`, category.description ?? '', w.loc);
}

/** The page's own parameter: `history=all` charts every draw (the API has no such parameter). */
const CategoryPageQuery = Type.Object({
  history: Type.Optional(
    withError(Type.Literal('all', { description: 'Chart every draw, not the last two years.' }), 'must be “all” or left out'),
  ),
});

interface CategoryView {
  category: CategoryRecord;
  /** False on a French page for a category with no French name (the feed gave none): its name is the English one. */
  named: boolean;
  view: ForecastView;
  /** Its draws through the as-of date, newest first. */
  draws: DrawRecord[];
}

type CategoryInput = PageInput<{ history?: 'all' }, { id: string }>;

/** The heading, the description, the data's age and what the category's status means for its forecast. */
function heading({ category, named, view }: CategoryView, w: Words): SafeHtml {
  const { t, loc } = w;
  const forecast = forecastOf(view, category.id);
  const status = !category.is_active ? 'inactive' : (forecast?.status ?? 'insufficient_history');
  const predictions = view.predictions.get(category.id) ?? [];
  return html`<p class="breadcrumbs"><a href="/">${t('error.links.next')}</a> › <span${named ? '' : untranslated(loc)}>${category.name}</span></p>
    <h1${named ? '' : untranslated(loc)}>${category.name}</h1>
    ${named ? '' : html`<p class="note" id="no-french-name">${t('category.noFrenchName')}</p>`}
    ${category.description ? html`<p class="lead">${describe(category, w)}</p>` : ''} ${dataAgeNotice(view, w)}
    <p>${statusBadge(status, w, forecast?.dormant_since ?? null)}</p>
    ${
      status === 'predicted'
        ? html`<p class="muted">${forecast ? statusReasonText(forecast.status_reason, w) : ''}.</p>`
        : statusNote(forecast, category, view.forecastsAsOf ?? view.asOf, w)
    }
    ${
      predictions.length > 0 && predictions.length < DEFAULT_HORIZONS
        ? html`<p class="muted">
            ${t('category.onlySome', { count: predictions.length, horizons: DEFAULT_HORIZONS, date: loc.date(view.forecastsAsOf ?? view.asOf) })}
          </p>`
        : ''
    }`;
}

/** A dormant category's forecast should it draw again: stated as conditional, its date not forecast. */
function ifResumedSection(forecast: StoredCategoryForecast | undefined, w: Words): SafeHtml {
  const resumed = forecast?.if_resumed;
  if (!forecast || forecast.status !== 'dormant') return html``;
  // if_resumed is null for a category with a single draw: no gap to measure its pause by (schemas/predict.ts).
  if (!resumed) return html`<p class="note" id="if-resumed-none">${w.t('category.ifResumedNone')}</p>`;
  return html`<section id="if-resumed" aria-labelledby="if-resumed-heading">
    <h2 id="if-resumed-heading">${w.t('category.ifResumed')}</h2>
    <p>
      ${w.t('category.ifResumedText', {
        crs: score(resumed.crs.point, w),
        range: range(resumed.crs.min, resumed.crs.max, w),
        invitations: count(resumed.invitations.point, w),
        invitationsRange: range(resumed.invitations.min, resumed.invitations.max, w, count),
        gaps: Math.round(resumed.pause_gaps * 10) / 10,
      })}
    </p>
  </section>`;
}

/** The draws over time: the two charts, with the link between the recent window and the whole history. */
function history({ category, view, draws }: CategoryView, whole: boolean, input: CategoryInput, w: Words): SafeHtml {
  const { t, loc } = w;
  if (draws.length === 0) return html`<p class="note">${t('category.noDraws', { date: loc.date(view.asOf) })}</p>`;
  const charted = chartedDraws(draws, view.asOf, whole);
  let specs: ReturnType<typeof categoryCharts> | undefined;
  const charts = () => (specs ??= categoryCharts(category, charted, view.predictions.get(category.id) ?? [], w));
  // The window of draws charted moves with the as-of date, which the query does not name.
  const drawnFrom = { asOf: view.asOf };
  return html`<h2>${t('category.overTime')}</h2>
    <p>
      ${
        whole
          ? html`${t('category.everySince', { date: loc.date(charted[0].date) })}
              <a href="/categories/${category.id}">${t('category.showYears', { years: HISTORY_YEARS })}</a>.`
          : html`${t('category.drawsSinceShort', { date: loc.date(charted[0].date) })}${
              charted.length < draws.length ? t('category.ofAll', { shown: charted.length, all: draws.length }) : ''
            }.${
              charted.length < draws.length
                ? html` <a href="/categories/${category.id}?history=all"
                      >${t('category.showEvery', { date: loc.date(draws[draws.length - 1].date) })}</a
                    >.`
                : ''
            }`
      }
    </p>
    ${input.chart('crs', () => charts().crs, drawnFrom)} ${input.chart('invitations', () => charts().invitations, drawnFrom)}`;
}

function renderCategory(data: CategoryView, input: CategoryInput) {
  const w = wordsOf(input.locale);
  const { t } = w;
  const { category, view, draws } = data;
  const predictions = view.predictions.get(category.id) ?? [];
  const forecast = forecastOf(view, category.id);
  const next = nextDraw(predictions);
  return {
    title: category.name,
    description: t('category.description', { name: category.name }),
    section: '/',
    body: html`${heading(data, w)} ${statsRow(view, category, w)}
      ${
        next
          ? html`<h2>${t('category.nextDraw')}</h2>
              ${nextDrawFacts(next, forecast?.status === 'young', view.source.stale === true, w)}`
          : ''
      }
      ${ifResumedSection(forecast, w)} ${history(data, input.query.history === 'all', input, w)}
      ${
        predictions.length > 0
          ? html`<h2>${t('category.forecastDraws')}</h2>
              ${forecastTable(category, predictions, w)}`
          : ''
      }
      ${forecast ? modelSection(forecast, staleWindow(view.forecastsAsOf ?? view.asOf, view.source, w), w) : ''}
      ${
        draws.length > 0
          ? html`<h2>${t('category.recentDraws')}</h2>
              ${recentDrawsTable(category, draws, w)}`
          : ''
      }
      <h2 id="my-score-heading">${t('overview.myScore')}</h2>
      ${scoreForm(formCategories(view), { category: category.id }, w, 'my-score-heading')}`,
  };
}

export function categoryPage(app: ServiceApp, state: DrawsState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/categories/:id',
    params: IdParams,
    query: CategoryPageQuery,
    async read({ params, locale }): Promise<CategoryView> {
      const [found, view, names] = await Promise.all([
        pathCategory(state, params.id, wordsOf(locale)),
        readForecastView(state, locale.language),
        categoryNames(state, locale.language),
      ]);
      const draws = await listDraws(state.db, { categoryId: found.id, through: view.asOf }, locale.language);
      return { category: categoryIn(found, names), named: locale.language === 'en' || names.has(found.id), view, draws };
    },
    render: renderCategory,
    explain: parameterMessage({
      id: (value, w) => w.t('error.categoryPath', { value }),
      history: (value, w) => w.t('error.history', { value }),
    }),
  });
}
