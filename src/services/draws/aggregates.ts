// What Service D computes at import and stores with the data version (requests only read it): per-category
// and overall statistics of the draws, each draw's days since the previous draw of its category, and the
// forecasts of every category with the backtests behind them and the models' pooled performance.
import { dayNumber } from './feed/ircc-dates.ts';
import { sortRoundsChronologically } from './feed/rounds-feed.ts';
import type { HorizonMetrics, ModelBacktest } from './forecast/backtest.ts';
import { poolBacktests } from './forecast/backtest.ts';
import { gapsBetweenDates } from './forecast/draw-dates.ts';
import { forecastCategory } from './forecast/forecast-category.ts';
import type { CategoryForecast, DrawObservation, ForecastStatus, Prediction, SeriesSummary } from './forecast/forecast-category.ts';
import { MODEL_NAMES } from './forecast/models.ts';
import type { ModelName } from './forecast/models.ts';
import type { ModelSelection } from './forecast/series-forecast.ts';
import { DEFAULT_MAX_HORIZON } from './forecast/series-forecast.ts';
import { mean, median } from './forecast/statistics.ts';

export const SERVICE = 'draws';
/** The draws, replaced by each import of the feed. */
export const ROUNDS_DATASET = 'rounds';
/** The forecasts, replaced by each import and by `fit draws`. */
export const FORECASTS_DATASET = 'forecasts';
export const STATISTICS_AGGREGATE = 'statistics';
export const FORECASTS_AGGREGATE = 'forecasts';

export interface DrawFact {
  roundNumber: string;
  roundSortKey: number;
  date: string;
  crs: number;
  invitations: number;
}

export interface CategoryStatistics {
  total_draws: number;
  avg_crs_score: number | null;
  median_crs_score: number | null;
  min_crs_score: number | null;
  max_crs_score: number | null;
  total_invitations: number;
  avg_invitations: number | null;
  first_draw_date: string | null;
  latest_draw_date: string | null;
  /** Mean and median gap in days between consecutive distinct draw dates of the category. */
  avg_days_between_draws: number | null;
  median_days_between_draws: number | null;
  /** Round number of the newest draw (by date, then round). */
  latest_round_number: string | null;
}

export interface OverallStatistics {
  total_draws: number;
  avg_crs_score: number | null;
  avg_invitations: number | null;
  min_crs_score: number | null;
  max_crs_score: number | null;
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

export function categoryStatistics(draws: readonly DrawFact[]): CategoryStatistics {
  if (draws.length === 0) {
    return {
      total_draws: 0,
      avg_crs_score: null,
      median_crs_score: null,
      min_crs_score: null,
      max_crs_score: null,
      total_invitations: 0,
      avg_invitations: null,
      first_draw_date: null,
      latest_draw_date: null,
      avg_days_between_draws: null,
      median_days_between_draws: null,
      latest_round_number: null,
    };
  }
  const sorted = sortRoundsChronologically(draws);
  const crs = sorted.map((d) => d.crs);
  const invitations = sorted.map((d) => d.invitations);
  const gaps = gapsBetweenDates(sorted.map((d) => d.date));
  const totalInvitations = invitations.reduce((s, n) => s + n, 0);
  return {
    total_draws: sorted.length,
    avg_crs_score: round2(mean(crs)),
    median_crs_score: median(crs),
    min_crs_score: Math.min(...crs),
    max_crs_score: Math.max(...crs),
    total_invitations: totalInvitations,
    avg_invitations: round2(totalInvitations / sorted.length),
    first_draw_date: sorted[0].date,
    latest_draw_date: sorted[sorted.length - 1].date,
    avg_days_between_draws: gaps.length > 0 ? round2(mean(gaps)) : null,
    median_days_between_draws: gaps.length > 0 ? median(gaps) : null,
    latest_round_number: sorted[sorted.length - 1].roundNumber,
  };
}

export function overallStatistics(draws: readonly DrawFact[]): OverallStatistics {
  if (draws.length === 0) return { total_draws: 0, avg_crs_score: null, avg_invitations: null, min_crs_score: null, max_crs_score: null };
  const crs = draws.map((d) => d.crs);
  return {
    total_draws: draws.length,
    avg_crs_score: round2(mean(crs)),
    avg_invitations: round2(mean(draws.map((d) => d.invitations))),
    min_crs_score: Math.min(...crs),
    max_crs_score: Math.max(...crs),
  };
}

/**
 * Days since the previous draw of the same category, by round number: 0 for a second draw on the same
 * day, null for the category's first draw. `draws` are one category's draws, in any order.
 */
export function daysSinceLastDraw(draws: readonly DrawFact[]): Map<string, number | null> {
  const result = new Map<string, number | null>();
  let previous: string | null = null;
  for (const d of sortRoundsChronologically(draws)) {
    result.set(d.roundNumber, previous === null ? null : dayNumber(d.date) - dayNumber(previous));
    previous = d.date;
  }
  return result;
}

export interface StoredStatistics {
  overall: OverallStatistics;
  /** By category id, for categories with draws. */
  categories: Record<string, CategoryStatistics>;
}

/** The statistics aggregate of all draws and of each category's (category id → its draws). */
export function computeStatistics(all: readonly DrawFact[], byCategory: ReadonlyMap<number, readonly DrawFact[]>): StoredStatistics {
  return {
    overall: overallStatistics(all),
    categories: Object.fromEntries([...byCategory].map(([id, draws]) => [String(id), categoryStatistics(draws)])),
  };
}

export interface CategoryDraws {
  id: number;
  slug: string;
  draws: DrawObservation[];
}

export interface StoredBacktest {
  model: ModelName;
  first_origin: number;
  by_horizon: HorizonMetrics[];
}

export interface StoredSeries {
  model: ModelName;
  selection: ModelSelection;
  /** The chosen model's parameters fitted to the whole series. */
  parameters: Record<string, number>;
  /** Every candidate's backtest metrics (per-origin records are not kept). */
  backtests: StoredBacktest[];
  /** How each horizon's interval was made. */
  intervals: { h: number; method: 'conformal' | 'analytic'; half_width: number | null; backtest_errors: number }[];
}

export interface StoredCategoryForecast {
  category_id: number;
  slug: string;
  status: ForecastStatus;
  status_reason: string;
  draws: number;
  last_draw_date: string | null;
  days_since_last_draw: number | null;
  dormant_after_days: number | null;
  step_days: number | null;
  crs: StoredSeries | null;
  invitations: StoredSeries | null;
}

export interface StoredModelPerformance {
  name: ModelName;
  /** Predicted categories whose CRS forecasts use this model. */
  selected_for: number[];
  /** Pooled over the CRS backtests of every category with enough history. */
  crs: HorizonMetrics[];
  /** The same for invitation counts. */
  invitations: HorizonMetrics[];
  /** Categories whose backtests are pooled. */
  categories_backtested: number[];
}

export interface StoredForecasts {
  as_of: string;
  /** Version of the draws the forecasts were computed from. */
  rounds_version: string;
  categories: StoredCategoryForecast[];
  models: StoredModelPerformance[];
}

export interface ComputedForecasts {
  value: Omit<StoredForecasts, 'rounds_version'>;
  predictions: { categoryId: number; prediction: Prediction }[];
}

function storeSeries(series: SeriesSummary | null): StoredSeries | null {
  if (series === null) return null;
  return {
    model: series.model,
    selection: series.selection,
    parameters: series.parameters,
    backtests: series.backtests.map((b) => ({ model: b.model, first_origin: b.firstOrigin, by_horizon: b.byHorizon })),
    intervals: series.forecast.forecasts.map((f) => ({
      h: f.h,
      method: f.intervalMethod,
      half_width: Number.isFinite(f.halfWidth) ? f.halfWidth : null,
      backtest_errors: f.backtestErrors,
    })),
  };
}

/** Forecasts of every category for one as-of date. Pure and deterministic; categories in the order given. */
export function computeForecasts(categories: readonly CategoryDraws[], asOf: string): ComputedForecasts {
  const forecasts: { category: CategoryDraws; forecast: CategoryForecast }[] = categories.map((category) => ({
    category,
    forecast: forecastCategory(category.draws, asOf),
  }));
  const predictions = forecasts.flatMap(({ category, forecast }) =>
    forecast.predictions.map((prediction) => ({ categoryId: category.id, prediction })),
  );
  const models: StoredModelPerformance[] = MODEL_NAMES.map((name) => {
    const crs: ModelBacktest[] = [];
    const invitations: ModelBacktest[] = [];
    const backtested: number[] = [];
    for (const { category, forecast } of forecasts) {
      const c = forecast.backtests.crs.find((b) => b.model === name);
      const i = forecast.backtests.invitations.find((b) => b.model === name);
      if (c) {
        crs.push(c);
        backtested.push(category.id);
      }
      if (i) invitations.push(i);
    }
    return {
      name,
      selected_for: forecasts
        .filter(({ forecast }) => forecast.status === 'predicted' && forecast.chosenModels.crs === name)
        .map(({ category }) => category.id),
      crs: poolBacktests(crs, DEFAULT_MAX_HORIZON),
      invitations: poolBacktests(invitations, DEFAULT_MAX_HORIZON),
      categories_backtested: backtested,
    };
  });
  return {
    value: {
      as_of: asOf,
      categories: forecasts.map(({ category, forecast }) => ({
        category_id: category.id,
        slug: category.slug,
        status: forecast.status,
        status_reason: forecast.statusReason,
        draws: forecast.history.draws,
        last_draw_date: forecast.history.lastDate,
        days_since_last_draw: forecast.history.dormancy?.daysSinceLastDraw ?? null,
        dormant_after_days: forecast.history.dormancy?.thresholdDays ?? null,
        step_days: forecast.stepDays,
        crs: storeSeries(forecast.crs),
        invitations: storeSeries(forecast.invitations),
      })),
      models,
    },
    predictions,
  };
}
