// One series (CRS cut-offs or invitation counts of a category, oldest first): backtest the candidate
// models, choose one, and forecast h = 1…H with a 95% interval.
import { CONFORMAL_MIN_ERRORS, INTERVAL_LEVEL, rollingOriginBacktest, type Bounds, type ModelBacktest } from './backtest.ts';
import { analyticHalfWidth, MODELS, type ModelDefinition, type ModelName } from './models.ts';
import { clamp, conformalHalfWidth, mean } from './statistics.ts';

/** First training length of the backtests of naive, window mean and SES. */
export const BACKTEST_FIRST_ORIGIN = 3;
/** First training length of the damped-trend backtest. */
export const DAMPED_FIRST_ORIGIN = 10;
/** A damped trend is a candidate only for series at least this long (≥ 10 backtest errors at h = 1). */
export const DAMPED_MIN_SERIES_LENGTH = 20;
/** Models whose h = 1 MAE is within this fraction of the best count as tied; the simplest of them wins. */
export const SELECTION_TIE_TOLERANCE = 0.02;
/** With fewer h = 1 backtest errors than this, MAE differences are noise and the naive model is used. */
export const THIN_DATA_MIN_ERRORS = 10;
export const DEFAULT_WINDOW = 6;
export const DEFAULT_MAX_HORIZON = 5;

export interface SeriesForecastOptions {
  bounds: Bounds;
  maxHorizon?: number;
  window?: number;
}

export interface ModelSelection {
  model: ModelName;
  reason: 'lowest_mae' | 'tie_simpler' | 'thin_data';
  /** h = 1 targets common to every candidate, on which the MAEs below are compared. */
  comparedOn: number;
  /** h = 1 MAE of each candidate on the common targets. */
  maeH1: Partial<Record<ModelName, number>>;
  tolerance: number;
}

export interface HorizonForecast {
  h: number;
  /** Point forecast, clipped to the bounds. */
  point: number;
  lower: number;
  upper: number;
  /** Half-width before clipping: the conformal quantile or the analytic t·sd. */
  halfWidth: number;
  intervalMethod: 'conformal' | 'analytic';
  /** Backtest errors of the chosen model at this horizon. */
  backtestErrors: number;
}

export interface SeriesForecast {
  length: number;
  candidates: ModelName[];
  backtests: ModelBacktest[];
  selection: ModelSelection;
  /** Parameters of the chosen model fitted to the whole series. */
  parameters: Record<string, number>;
  forecasts: HorizonForecast[];
}

/** Models considered for a series of this length. */
export function candidateModels(length: number): ModelDefinition[] {
  return MODELS.filter((m) => (m.name === 'damped_trend' ? length >= DAMPED_MIN_SERIES_LENGTH : length >= m.minObservations));
}

/**
 * The choice rule: with fewer than THIN_DATA_MIN_ERRORS common h = 1 errors, naive; otherwise the simplest
 * model whose h = 1 MAE on the common targets is within SELECTION_TIE_TOLERANCE of the lowest.
 */
export function selectModel(backtests: readonly ModelBacktest[]): ModelSelection {
  const complexity = (name: ModelName): number => MODELS.find((m) => m.name === name)!.complexity;
  const firstCommon = Math.max(...backtests.map((b) => b.firstOrigin));
  const common = backtests.map((b) => ({
    model: b.model,
    errors: b.records[0].filter((r) => r.origin >= firstCommon).map((r) => Math.abs(r.error)),
  }));
  const comparedOn = common[0]?.errors.length ?? 0;
  const maeH1: Partial<Record<ModelName, number>> = {};
  if (comparedOn > 0) for (const c of common) maeH1[c.model] = mean(c.errors);
  const hasNaive = backtests.some((b) => b.model === 'naive');
  if (comparedOn < THIN_DATA_MIN_ERRORS && hasNaive) {
    return { model: 'naive', reason: 'thin_data', comparedOn, maeH1, tolerance: SELECTION_TIE_TOLERANCE };
  }
  const ranked = common
    .map((c) => ({ model: c.model, mae: maeH1[c.model]! }))
    .sort((a, b) => a.mae - b.mae || complexity(a.model) - complexity(b.model));
  const best = ranked[0];
  const tied = ranked.filter((r) => r.mae <= best.mae * (1 + SELECTION_TIE_TOLERANCE) + 1e-12);
  const chosen = tied.sort((a, b) => complexity(a.model) - complexity(b.model))[0];
  return {
    model: chosen.model,
    reason: chosen.model === best.model ? 'lowest_mae' : 'tie_simpler',
    comparedOn,
    maeH1,
    tolerance: SELECTION_TIE_TOLERANCE,
  };
}

/** Backtests, model choice and h-step forecasts of one series; null if it has fewer than two values. */
export function forecastSeries(y: readonly number[], options: SeriesForecastOptions): SeriesForecast | null {
  if (y.length < 2) return null;
  if (!y.every(Number.isFinite)) throw new RangeError('series values must be finite numbers');
  const maxHorizon = options.maxHorizon ?? DEFAULT_MAX_HORIZON;
  const window = options.window ?? DEFAULT_WINDOW;
  const { bounds } = options;
  const candidates = candidateModels(y.length);
  const backtests = candidates.map((m) =>
    rollingOriginBacktest(y, m, {
      firstOrigin: m.name === 'damped_trend' ? DAMPED_FIRST_ORIGIN : BACKTEST_FIRST_ORIGIN,
      maxHorizon,
      bounds,
      window,
    }),
  );
  const selection = selectModel(backtests);
  const chosen = candidates.find((m) => m.name === selection.model)!;
  const chosenBacktest = backtests.find((b) => b.model === selection.model)!;
  const fitted = chosen.fit(y, { window });
  const forecasts: HorizonForecast[] = [];
  for (let h = 1; h <= maxHorizon; h++) {
    const point = clamp(fitted.point(h), bounds.min, bounds.max);
    const errors = chosenBacktest.records[h - 1].map((r) => Math.abs(r.error));
    const conformal = errors.length >= CONFORMAL_MIN_ERRORS;
    const halfWidth = conformal ? conformalHalfWidth(errors, INTERVAL_LEVEL) : analyticHalfWidth(fitted, h, INTERVAL_LEVEL);
    forecasts.push({
      h,
      point,
      lower: clamp(point - halfWidth, bounds.min, bounds.max),
      upper: clamp(point + halfWidth, bounds.min, bounds.max),
      halfWidth,
      intervalMethod: conformal ? 'conformal' : 'analytic',
      backtestErrors: errors.length,
    });
  }
  return {
    length: y.length,
    candidates: candidates.map((m) => m.name),
    backtests,
    selection,
    parameters: fitted.parameters,
    forecasts,
  };
}
