// Forecasts as stored: computed for every active category from its draws and an as-of date (at import, by
// `fit draws`, and again whenever the as-of date moves on), written to draws_predictions and, with the
// backtests behind them and the models' pooled performance, to the `forecasts` aggregate. Requests only read.
import type { Kysely } from 'kysely';
import { getAggregate, listDataVersions, putAggregate } from '../../core/db/datasets.ts';
import { dbBool, insertMany } from '../../core/db/dialect.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { resolveAsOf } from './as-of.ts';
import type { HorizonMetrics, ModelBacktest } from './forecast/backtest.ts';
import { poolBacktests } from './forecast/backtest.ts';
import { forecastCategory } from './forecast/forecast-category.ts';
import type { CategoryForecast, DrawObservation, ForecastStatus, Prediction, SeriesSummary } from './forecast/forecast-category.ts';
import { MODEL_NAMES } from './forecast/models.ts';
import type { ModelName } from './forecast/models.ts';
import type { ModelSelection } from './forecast/series-forecast.ts';
import { DEFAULT_MAX_HORIZON } from './forecast/series-forecast.ts';

export const SERVICE = 'draws';
export const ROUNDS_DATASET = 'rounds';
export const FORECASTS_DATASET = 'forecasts';
export const FORECASTS_AGGREGATE = 'forecasts';

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

/** Replaces the stored predictions and the forecasts aggregate (inside the caller's transaction). */
export async function writeForecasts(
  trx: Kysely<any>,
  computed: ComputedForecasts,
  roundsVersion: string,
  dataVersion: string,
): Promise<void> {
  await trx.deleteFrom('draws_predictions').execute();
  await insertMany(
    trx,
    'draws_predictions',
    computed.predictions.map(({ categoryId, prediction: p }) => ({
      category_id: categoryId,
      rank: p.rank,
      predicted_date: p.predicted_date,
      predicted_crs_score: p.predicted_crs_score,
      predicted_invitations: p.predicted_invitations,
      confidence_score: p.confidence_score,
      model_used: p.model_used,
      range_min: p.uncertainty_range.min,
      range_max: p.uncertainty_range.max,
      margin_of_error: p.uncertainty_range.margin_of_error,
      date_earliest: p.date_range.earliest,
      date_latest: p.date_range.latest,
      as_of: computed.value.as_of,
    })),
  );
  const value: StoredForecasts = { ...computed.value, rounds_version: roundsVersion };
  await putAggregate(trx, SERVICE, FORECASTS_AGGREGATE, dataVersion, value);
}

/** Every active category's draws, from the database (what `fit` forecasts from). */
export async function loadCategoryDraws(db: Kysely<any>): Promise<CategoryDraws[]> {
  const categories = await db
    .selectFrom('draws_categories')
    .select(['id', 'slug'])
    .where('is_active', '=', dbBool(db, true))
    .orderBy('id')
    .execute();
  const rows = await db
    .selectFrom('draws_draws')
    .select(['category_id', 'date', 'crs', 'invitations', 'round_sort_key'])
    .orderBy('date')
    .orderBy('round_sort_key')
    .execute();
  const byCategory = new Map<number, DrawObservation[]>();
  for (const r of rows) {
    const list = byCategory.get(Number(r.category_id)) ?? [];
    list.push({ date: r.date, crs: Number(r.crs), invitations: Number(r.invitations), roundSortKey: Number(r.round_sort_key) });
    byCategory.set(Number(r.category_id), list);
  }
  return categories.map((c) => ({ id: Number(c.id), slug: c.slug, draws: byCategory.get(Number(c.id)) ?? [] }));
}

export async function readForecasts(
  db: Kysely<any>,
): Promise<{ value: StoredForecasts; computed_at: string; data_version: string } | null> {
  return getAggregate<StoredForecasts>(db, SERVICE, FORECASTS_AGGREGATE);
}

export interface FitResult {
  as_of: string;
  report: ImportReport | null;
  categories: { category_id: number; slug: string; status: ForecastStatus; predictions: number; crs_model: ModelName | null }[];
  message: string;
}

/**
 * `fit draws`: recomputes the forecasts from the draws already imported, for `asOf` (default: the
 * configured as-of date), as a new version of the `forecasts` dataset so that caches and ETags change.
 */
export async function fitForecasts(ctx: ServiceContext, options: { asOf?: string } = {}): Promise<FitResult> {
  const asOf = options.asOf ?? resolveAsOf(ctx.config.env);
  const versions = await listDataVersions(ctx.db.kysely, SERVICE);
  const rounds = versions.find((v) => v.dataset === ROUNDS_DATASET);
  if (!rounds) return { as_of: asOf, report: null, categories: [], message: 'no draws imported yet: nothing to fit' };
  let computed: ComputedForecasts | null = null;
  const report = await runImport(
    ctx.db,
    { service: SERVICE, importer: 'fit', dataset: FORECASTS_DATASET, source: `forecasts as of ${asOf}`, isDemo: rounds.is_demo },
    async (trx, { tally, dataVersion }) => {
      const categories = await loadCategoryDraws(trx);
      tally.read(categories.reduce((s, c) => s + c.draws.length, 0));
      computed = computeForecasts(categories, asOf);
      await writeForecasts(trx, computed, rounds.version, dataVersion);
      tally.inserted(computed.predictions.length);
    },
  );
  ctx.dataVersion.invalidate();
  const value = (computed as ComputedForecasts | null)!.value;
  return {
    as_of: asOf,
    report,
    categories: value.categories.map((c) => ({
      category_id: c.category_id,
      slug: c.slug,
      status: c.status,
      predictions: (computed as ComputedForecasts | null)!.predictions.filter((p) => p.categoryId === c.category_id).length,
      crs_model: c.crs?.model ?? null,
    })),
    message: `forecasts as of ${asOf} for ${value.categories.length} categories; data version ${report.data_version}`,
  };
}

/** Refits when the stored forecasts were made for another as-of date than the current one. True if it refitted. */
export async function refreshForecastsIfStale(ctx: ServiceContext): Promise<boolean> {
  const asOf = resolveAsOf(ctx.config.env);
  const stored = await readForecasts(ctx.db.kysely);
  if (stored === null || stored.value.as_of === asOf) return false;
  await fitForecasts(ctx, { asOf });
  return true;
}
