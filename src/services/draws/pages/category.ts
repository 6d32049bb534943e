// `/categories/{id}`: one category's lowest CRS score and invitations over time with the forecast fan of its next
// draws (95% intervals), the next draw's date range, its forecast draws, how it is forecast, its recent draws and
// the "my score" form. Young categories say their forecast is pooled and wider; dormant ones say since when.
import { badRequest } from '../../../core/http/errors.ts';
import { externalLink, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { StoredCategoryForecast } from '../aggregates.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { DEFAULT_HORIZONS } from '../forecast/forecast-panel.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { listDraws } from '../repository.ts';
import type { CategoryRecord, DrawRecord } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
import { forecastChart } from './forecast-chart.ts';
import { dataAgeNotice, forecastOf, formCategories, readForecastView } from './forecast-view.ts';
import type { ForecastView } from './forecast-view.ts';
import { count, dateRange, nextDraw, param, range, score, scoreForm, sendPage, statusBadge, statusNote } from './shared.ts';

/** The charts show the draws of the last two years (at least the last ten) unless the whole history is asked for. */
export const HISTORY_YEARS = 2;
export const HISTORY_MIN_DRAWS = 10;
export const RECENT_DRAWS_SHOWN = 10;

const MEMBER_LABELS: Record<string, string> = {
  naive: 'Naive (last value)',
  ses: 'Simple exponential smoothing',
  damped_trend: 'Damped trend',
  pooled_reversion: 'Pooled reversion',
};

/** The draws a chart shows: newest first in, oldest first out. */
export function chartedDraws(draws: readonly DrawRecord[], asOf: string, whole: boolean): DrawRecord[] {
  if (whole) return [...draws].reverse();
  const since = isoFromDayNumber(dayNumber(asOf) - Math.round(365.25 * HISTORY_YEARS));
  const recent = draws.filter((d, i) => d.date >= since || i < HISTORY_MIN_DRAWS);
  return recent.reverse();
}

export function categoryCharts(category: CategoryRecord, draws: readonly DrawRecord[], predictions: readonly Prediction[]) {
  const slug = `category-${category.id}`;
  const fan =
    'The dashed line is the forecast of the next draws, drawn at their most likely dates, and the shaded band its 95% interval; each forecast draw’s date is itself uncertain (see the forecast table).';
  return {
    crs: forecastChart({
      id: `${slug}-crs`,
      title: `${category.name}: lowest CRS score invited`,
      description: `Each mark is a draw’s lowest CRS score. ${fan}`,
      valueName: 'lowest CRS score',
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
      title: `${category.name}: invitations per draw (log scale)`,
      description: `Each mark is a draw’s number of invitations, on a logarithmic scale (forecasts are made on that scale). ${fan}`,
      valueName: 'invitations',
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

/** "next", "2nd", "3rd", "4th" … */
export function drawOrdinal(rank: number): string {
  if (rank === 1) return 'next';
  const suffix =
    rank % 100 >= 11 && rank % 100 <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[rank % 10] ?? 'th');
  return `${rank}${suffix}`;
}

function nextDrawFacts(next: Prediction, young: boolean): SafeHtml {
  return html`<dl class="facts" id="next-draw">
    <dt>Date</dt>
    <dd>between ${next.date_range.earliest} and ${next.date_range.latest} (95% range); most likely ${next.predicted_date}</dd>
    <dt>Lowest CRS score</dt>
    <dd>${score(next.predicted_crs_score)}, 95% interval ${range(next.uncertainty_range.min, next.uncertainty_range.max)}</dd>
    <dt>Invitations</dt>
    <dd>
      ${count(next.predicted_invitations)}${
        next.invitations_range ? html`, 95% interval ${range(next.invitations_range.min, next.invitations_range.max, count)}` : ''
      }
    </dd>
    <dt>Track record</dt>
    <dd>
      ${score(next.confidence_score)}% of ${young ? 'young categories’' : 'this category’s'} past next-draw forecasts were within 10 points
      of the cut-off (smoothed hit rate)
    </dd>
    <dt>Model</dt>
    <dd>
      ${
        next.model_used === 'pooled_young'
          ? 'pooled reversion for young categories, with wider intervals'
          : 'a weighted combination of four models (below)'
      }
    </dd>
  </dl>`;
}

function forecastTable(category: CategoryRecord, predictions: readonly Prediction[]): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data" id="forecast-draws">
      <caption>
        Forecast draws of ${category.name}
      </caption>
      <thead>
        <tr>
          <th scope="col" class="num">Draw</th>
          <th scope="col">Most likely date</th>
          <th scope="col">Date range (95%)</th>
          <th scope="col" class="num">Lowest CRS</th>
          <th scope="col" class="num">95% interval</th>
          <th scope="col" class="num">Invitations</th>
          <th scope="col" class="num">95% interval</th>
          <th scope="col" class="num">Within 10 points before</th>
        </tr>
      </thead>
      <tbody>
        ${predictions.map(
          (p) =>
            html`<tr>
              <td class="num">${drawOrdinal(p.rank)}</td>
              <td class="date">${p.predicted_date}</td>
              <td class="range">${dateRange(p.date_range.earliest, p.date_range.latest)}</td>
              <td class="num">${score(p.predicted_crs_score)}</td>
              <td class="num range">${range(p.uncertainty_range.min, p.uncertainty_range.max)}</td>
              <td class="num">${count(p.predicted_invitations)}</td>
              <td class="num range">${p.invitations_range ? range(p.invitations_range.min, p.invitations_range.max, count) : '—'}</td>
              <td class="num">${score(p.confidence_score)}%</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function modelSection(forecast: StoredCategoryForecast): SafeHtml {
  if (forecast.crs === null) return html``;
  const b = forecast.backtest_h1;
  const f = (x: number | null) => (x === null ? '—' : x.toFixed(1));
  const weights = (kind: 'crs' | 'invitations') => forecast[kind]?.weights ?? {};
  const members = Object.keys(MEMBER_LABELS).filter((m) => m in weights('crs') || m in weights('invitations'));
  return html`<h2>How this category is forecast</h2>
    ${
      forecast.status === 'young'
        ? html`<p>
            Pooled reversion on its own draws with the coefficient every category shares (φ = ${forecast.crs.phi.used.toFixed(3)}); the
            interval comes from the errors of every young category’s past forecasts.
          </p>`
        : html`<div class="table-scroll">
            <table class="data" id="weights">
              <caption>
                Weights of the combination (from each model’s recent errors on this category)
              </caption>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" class="num">Lowest CRS</th>
                  <th scope="col" class="num">Invitations</th>
                </tr>
              </thead>
              <tbody>
                ${members.map(
                  (m) =>
                    html`<tr>
                      <th scope="row">${MEMBER_LABELS[m]}</th>
                      <td class="num">${((weights('crs')[m as keyof ReturnType<typeof weights>] ?? 0) * 100).toFixed(0)}%</td>
                      <td class="num">${((weights('invitations')[m as keyof ReturnType<typeof weights>] ?? 0) * 100).toFixed(0)}%</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${
      b.n > 0
        ? html`<p id="backtest-h1">
            Over the last two years (${count(b.n)} next-draw forecasts of this category), the mean absolute error of the served forecast was
            ${f(b.served)} points; always repeating the last cut-off (naive) missed by ${f(b.naive)}, the mean of the last six by
            ${f(b.window_mean)}. <a href="/models">Every model’s backtest</a>.
          </p>`
        : forecast.status === 'young'
          ? html`<p>Young categories’ forecasts are scored together: see pooled_young on <a href="/models">the models page</a>.</p>`
          : html`<p>No forecast of this category was scored in the last two years.</p>`
    }`;
}

function recentDrawsTable(category: CategoryRecord, draws: readonly DrawRecord[]): SafeHtml {
  const shown = draws.slice(0, RECENT_DRAWS_SHOWN);
  return html`<div class="table-scroll">
      <table class="data" id="recent-draws">
        <caption>
          Last ${shown.length} draws of ${category.name}
        </caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Round</th>
            <th scope="col" class="num">Lowest CRS</th>
            <th scope="col" class="num">Invitations</th>
            <th scope="col" class="num">Days since the previous</th>
          </tr>
        </thead>
        <tbody>
          ${shown.map(
            (d) =>
              html`<tr>
                <td class="date">${d.date}</td>
                <td>${externalLink(d.url, d.round_number)}</td>
                <td class="num">${d.lowest_crs_score}</td>
                <td class="num">${count(d.invitations_issued)}</td>
                <td class="num">${d.days_since_last_draw ?? '—'}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p><a href="/draws${queryString({ category: category.id })}">Every draw of ${category.name}</a></p>`;
}

function statsRow(view: ForecastView, category: CategoryRecord): SafeHtml {
  const s = view.statistics?.categories[String(category.id)];
  if (!s) return html``;
  return html`<div class="stats-row">
    <p><span class="stat">${count(s.total_draws)}</span> draws since ${s.first_draw_date}</p>
    <p><span class="stat">${s.latest_draw_date}</span> last draw</p>
    <p><span class="stat">${s.median_days_between_draws ?? '—'}</span> median days between draws</p>
    <p>
      <span class="stat">${s.min_crs_score === null ? '—' : range(s.min_crs_score, s.max_crs_score ?? s.min_crs_score)}</span> lowest CRS,
      least to most
    </p>
  </div>`;
}

export function categoryPage(app: ServiceApp, routes: DrawsRouteContext, kit: PageKit): void {
  app.get('/categories/:id', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const category = await routes.requireCategory((request.params as { id: string }).id, 'the category id');
      const history = param(request.query, 'history');
      if (history !== undefined && history !== 'all') throw badRequest(`history must be "all" or left out, got "${history}"`);
      const whole = history === 'all';
      const view = await readForecastView(routes);
      const draws = await listDraws(routes.db, { categoryId: category.id, through: view.asOf });
      const predictions = view.predictions.get(category.id) ?? [];
      const forecast = forecastOf(view, category.id);
      const next = nextDraw(predictions);
      const charted = chartedDraws(draws, view.asOf, whole);
      const version = await kit.dataVersion();
      const charts = categoryCharts(category, charted, predictions);
      const status = !category.is_active ? 'inactive' : (forecast?.status ?? 'insufficient_history');
      return {
        title: category.name,
        description: `Express Entry draws of ${category.name}: lowest CRS score and invitations over time, and the forecast of the next draws.`,
        section: '/',
        body: html`<p class="breadcrumbs"><a href="/">The next draws</a> › ${category.name}</p>
          <h1>${category.name}</h1>
          ${category.description ? html`<p class="lead">${category.description}</p>` : ''} ${dataAgeNotice(view)}
          <p>${statusBadge(status, forecast?.dormant_since ?? null)}</p>
          ${
            status === 'predicted'
              ? html`<p class="muted">${forecast?.status_reason}.</p>`
              : statusNote(forecast, category, view.forecastsAsOf ?? view.asOf)
          }
          ${
            predictions.length > 0 && predictions.length < DEFAULT_HORIZONS
              ? html`<p class="muted">
                  Only ${predictions.length} of its next ${DEFAULT_HORIZONS} draws are forecast: the others would fall more than a year
                  after ${view.forecastsAsOf ?? view.asOf}.
                </p>`
              : ''
          }
          ${statsRow(view, category)}
          ${
            next
              ? html`<h2>Next draw</h2>
                  ${nextDrawFacts(next, forecast?.status === 'young')}`
              : ''
          }
          ${
            draws.length === 0
              ? html`<p class="note">No draws of this category on or before ${view.asOf}.</p>`
              : html`<h2>Over time</h2>
                  <p>
                    ${
                      whole
                        ? html`Every draw since ${charted[0].date}.
                            <a href="/categories/${category.id}">Show the last ${HISTORY_YEARS} years</a>.`
                        : html`Draws since
                          ${charted[0].date}${charted.length < draws.length ? html` (${charted.length} of ${draws.length})` : ''}.${
                            charted.length < draws.length
                              ? html` <a href="/categories/${category.id}?history=all"
                                    >Show every draw since ${draws[draws.length - 1].date}</a
                                  >.`
                              : ''
                          }`
                    }
                  </p>
                  ${kit.charts.figure(`${version}|${charts.crs.id}|${whole}`, () => charts.crs)}
                  ${kit.charts.figure(`${version}|${charts.invitations.id}|${whole}`, () => charts.invitations)}`
          }
          ${
            predictions.length > 0
              ? html`<h2>Forecast draws</h2>
                  ${forecastTable(category, predictions)}`
              : ''
          }
          ${forecast ? modelSection(forecast) : ''}
          ${
            draws.length > 0
              ? html`<h2>Recent draws</h2>
                  ${recentDrawsTable(category, draws)}`
              : ''
          }
          <h2 id="my-score-heading">Would my score clear the next draw?</h2>
          ${scoreForm(formCategories(view), { category: category.id }, 'my-score-heading')}`,
      };
    }),
  );
}
