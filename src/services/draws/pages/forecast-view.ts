// What most pages read: the categories as /api/categories/ lists them, the stored statistics, predictions and
// forecasts, through the repository functions the API handlers call (no query of its own).
import type { Language } from '../../../core/i18n/language.ts';
import type { StoredCategoryForecast, StoredForecasts, StoredStatistics } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { html } from '../../../core/pages/index.ts';
import type { SafeHtml } from '../../../core/pages/index.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { RECENT_DAYS } from '../forecast/walk-forward.ts';
import type { NewestDraw } from '../freshness.ts';
import { forecastBasis, listCategories, listPredictions, readForecasts, readStatistics } from '../repository.ts';
import type { CategoryRecord, DataSource } from '../repository.ts';
import type { DrawsState } from '../state.ts';
import { categoryIn, categoryNames } from './shared.ts';
import type { Words } from './shared.ts';

/** The mean lengths of a Gregorian year and month, in days. */
const DAYS_PER_YEAR = 365.2425;
const DAYS_PER_MONTH = DAYS_PER_YEAR / 12;

export interface ForecastView {
  /** The as-of date now (draws after it are not shown). */
  asOf: string;
  /** The date the stored forecasts were made for. */
  forecastsAsOf: string | null;
  /** Active categories with a draw on or before the as-of date, in listing order (as /api/categories/). */
  categories: CategoryRecord[];
  statistics: StoredStatistics | null;
  predictions: Map<number, Prediction[]>;
  forecasts: StoredForecasts | null;
  /** When the forecasts were computed (ISO time). */
  computedAt: string | null;
  /** The newest draw the forecasts were made from. */
  newestDrawUsed: NewestDraw | null;
  /** What the API's data_source says (the data's age included). */
  source: DataSource;
}

/** The view with its categories named in `language`. */
export async function readForecastView(state: DrawsState, language: Language): Promise<ForecastView> {
  await state.recordServed();
  const [categories, statistics, predictions, forecasts, names] = await Promise.all([
    listCategories(state.db, { activeOnly: true }),
    readStatistics(state.db),
    listPredictions(state.db),
    readForecasts(state.db),
    categoryNames(state, language),
  ]);
  const origin = forecasts?.value.as_of ?? null;
  const [basis, source] = await Promise.all([forecastBasis(state.db, origin), state.source(origin)]);
  return {
    asOf: state.asOf(),
    forecastsAsOf: forecasts?.value.as_of ?? null,
    categories: (statistics === null ? categories : categories.filter((c) => statistics.categories[String(c.id)] !== undefined)).map((c) =>
      categoryIn(c, names),
    ),
    statistics,
    predictions,
    forecasts: forecasts?.value ?? null,
    computedAt: forecasts?.computed_at ?? null,
    newestDrawUsed: basis.newest_draw_used,
    source,
  };
}

/** An age in days said roughly, so that "355 days" also reads as "about a year"; nothing under two months. */
function roughAge(days: number, w: Words): string {
  const months = Math.round(days / DAYS_PER_MONTH);
  if (months < 2) return '';
  if (months < 12) return w.t('age.aboutMonths', { months });
  return w.t('age.aboutYears', { years: Math.max(1, Math.round(days / DAYS_PER_YEAR)) });
}

/**
 * What the forecasts were made from, said beside them: their origin and the newest draw used; and, plainly, when that
 * draw is older than PDI_DRAWS_STALE_DAYS (newer draws are then probably missing from the data).
 */
export function dataAgeNotice(view: Pick<ForecastView, 'forecastsAsOf' | 'newestDrawUsed' | 'source'>, w: Words): SafeHtml {
  const { source } = view;
  const { t, loc } = w;
  const basis =
    view.forecastsAsOf && view.newestDrawUsed
      ? html`<p class="note" id="forecast-basis">
          ${t('basis.text', {
            asOf: loc.date(view.forecastsAsOf),
            date: loc.date(view.newestDrawUsed.date),
            round: view.newestDrawUsed.round_number,
          })}
        </p>`
      : '';
  const stale =
    source.stale && source.newest_draw_date !== null
      ? html`<p class="note warn" id="data-age" role="note">
          <strong>${t('age.title')}</strong>
          ${t('age.text', {
            date: loc.date(source.newest_draw_date),
            days: source.days_since_newest_draw ?? 0,
            about: roughAge(source.days_since_newest_draw ?? 0, w),
            asOf: loc.date(source.as_of),
            limit: source.stale_after_days,
          })}
          ${t('age.meaning', { date: loc.date(source.newest_draw_date) })}
        </p>`
      : '';
  return html`${stale}${basis}`;
}

export function forecastOf(view: Pick<ForecastView, 'forecasts'>, categoryId: number): StoredCategoryForecast | undefined {
  return view.forecasts?.categories.find((c) => c.category_id === categoryId);
}

/** The categories for the "my score" form: forecast ones first, each saying whether it is forecast. */
export function formCategories(view: ForecastView): { id: number; name: string; predicted: boolean }[] {
  const rows = view.categories.map((c) => ({ id: c.id, name: c.name, predicted: (view.predictions.get(c.id)?.length ?? 0) > 0 }));
  return [...rows.filter((r) => r.predicted), ...rows.filter((r) => !r.predicted)];
}

/**
 * On a stale feed, what "the last two years" of the backtest hold: the RECENT_DAYS up to the as-of date, of which the
 * data covers only the days up to its newest draw.
 */
export function staleWindow(asOf: string, source: DataSource, w: Words): SafeHtml {
  if (source.stale !== true || source.newest_draw_date === null) return html``;
  const { t, loc } = w;
  const from = isoFromDayNumber(dayNumber(asOf) - RECENT_DAYS + 1);
  return html`<p class="note warn" id="stale-window">
    ${t('models.staleWindow', { days: RECENT_DAYS, asOf: loc.date(asOf), from: loc.date(from), newest: loc.date(source.newest_draw_date) })}
  </p>`;
}
