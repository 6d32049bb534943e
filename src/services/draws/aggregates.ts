// What Service D computes at import and stores with the data version (requests only read it): per-category
// and overall statistics of the draws, each draw's days since the previous draw of its category, and the
// forecasts of every category with the backtests behind them and the models' pooled performance.
import { dayNumber } from './feed/ircc-dates.ts';
import { sortRoundsChronologically } from './feed/rounds-feed.ts';
import { gapsBetweenDates } from './forecast/draw-dates.ts';
import { forecastPanel, SERVED_MODELS } from './forecast/forecast-panel.ts';
import type {
  CategoryDrawsInput,
  CategoryForecast,
  ForecastStatus,
  ResumptionForecast,
  IntervalCalibration,
  ModelName,
  Prediction,
  SeriesSummary,
} from './forecast/forecast-panel.ts';
import type { MemberName } from './forecast/members.ts';
import type { HorizonMetrics } from './forecast/metrics.ts';
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

interface OverallStatistics {
  total_draws: number;
  avg_crs_score: number | null;
  avg_invitations: number | null;
  min_crs_score: number | null;
  max_crs_score: number | null;
}

function round2(x: number): number {
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

function overallStatistics(draws: readonly DrawFact[]): OverallStatistics {
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
  /** Only draws on or before this date are counted (the as-of date of the import or the latest fit). */
  as_of: string;
  overall: OverallStatistics;
  /** By category id, for categories with draws. */
  categories: Record<string, CategoryStatistics>;
}

/** The statistics aggregate of every category's draws (category id → its draws) on or before `asOf`. */
export function computeStatistics(byCategory: ReadonlyMap<number, readonly DrawFact[]>, asOf: string): StoredStatistics {
  const known = new Map([...byCategory].map(([id, draws]) => [id, draws.filter((d) => d.date <= asOf)]));
  return {
    as_of: asOf,
    overall: overallStatistics([...known.values()].flat()),
    categories: Object.fromEntries(
      [...known].filter(([, draws]) => draws.length > 0).map(([id, draws]) => [String(id), categoryStatistics(draws)]),
    ),
  };
}

export type CategoryDraws = CategoryDrawsInput;

/**
 * Bumped when the stored forecasts change shape or the rule that makes them changes: a serving process refits
 * forecasts of another format, even those made for the same as-of date.
 */
export const FORECASTS_FORMAT = 7;

export interface StoredCategoryForecast {
  category_id: number;
  slug: string;
  status: ForecastStatus;
  status_reason: string;
  draws: number;
  last_draw_date: string | null;
  days_since_last_draw: number | null;
  /** Days without a draw that dormancy is judged on: to the as-of date, or to a stale feed's newest draw (silence_counted_to). */
  silence_days: number | null;
  silence_counted_to: string | null;
  dormant_after_days: number | null;
  dormant_since: string | null;
  /** A dormant category's next draw should it come (its last values, intervals widened over the pause). */
  if_resumed: ResumptionForecast | null;
  step_days: number | null;
  crs: SeriesSummary | null;
  invitations: SeriesSummary | null;
  backtest_h1: CategoryForecast['backtestH1'];
}

export interface StoredModelPerformance {
  name: ModelName;
  /** Categories whose served CRS forecasts use this model (members: with a weight in the combination). */
  selected_for: number[];
  /** Rolling-origin backtest of CRS cut-offs over the report window, by horizon. */
  crs: HorizonMetrics[];
  /** The same for invitations (log scale). */
  invitations: HorizonMetrics[];
}

export interface StoredForecasts {
  format: typeof FORECASTS_FORMAT;
  as_of: string;
  /** Version of the draws the forecasts were computed from. */
  rounds_version: string;
  categories: StoredCategoryForecast[];
  models: StoredModelPerformance[];
  calibration: IntervalCalibration;
}

export interface ComputedForecasts {
  value: Omit<StoredForecasts, 'rounds_version'>;
  predictions: { categoryId: number; prediction: Prediction }[];
}

/**
 * Forecasts of every category for one as-of date. Pure and deterministic; categories in the order given. With
 * `staleAfterDays` (freshness.ts; null: never stale), a feed whose newest draw is older dates its next draws by the
 * residual law (forecast/draw-dates.ts, STALE_DATE_METHOD).
 */
export function computeForecasts(categories: readonly CategoryDraws[], asOf: string, staleAfterDays: number | null): ComputedForecasts {
  const panel = forecastPanel(categories, asOf, { staleAfterDays });
  const predictions = panel.categories.flatMap((c) => c.predictions.map((prediction) => ({ categoryId: c.id, prediction })));
  const servedBy = (model: ModelName) =>
    panel.categories.filter((c) => c.predictions.length > 0 && c.predictions[0].model_used === model).map((c) => c.id);
  const weighted = (member: ModelName) =>
    panel.categories.filter((c) => c.predictions.length > 0 && (c.crs?.weights[member as MemberName] ?? 0) > 0).map((c) => c.id);
  return {
    value: {
      format: FORECASTS_FORMAT,
      as_of: asOf,
      categories: panel.categories.map((c) => ({
        category_id: c.id,
        slug: c.slug,
        status: c.status,
        status_reason: c.statusReason,
        draws: c.draws,
        last_draw_date: c.lastDate,
        days_since_last_draw: c.dormancy?.daysSinceLastDraw ?? null,
        silence_days: c.dormancy?.silenceDays ?? null,
        silence_counted_to: c.dormancy?.silenceCountedTo ?? null,
        dormant_after_days: c.dormancy?.thresholdDays ?? null,
        dormant_since: c.dormantSince,
        if_resumed: c.ifResumed,
        step_days: c.stepDays,
        crs: c.crs,
        invitations: c.invitations,
        backtest_h1: c.backtestH1,
      })),
      models: panel.models!.map((m) => ({
        name: m.name,
        selected_for: (SERVED_MODELS as readonly string[]).includes(m.name) ? servedBy(m.name) : weighted(m.name),
        crs: m.crs,
        invitations: m.invitations,
      })),
      calibration: panel.calibration!,
    },
    predictions,
  };
}
