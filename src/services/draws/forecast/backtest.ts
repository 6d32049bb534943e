// Rolling-origin backtests with an expanding window: at each origin t the model is fitted to the first t
// values and forecasts the next h = 1…H; the error is actual − forecast (positive: the forecast was too low).
import { analyticHalfWidth, type ModelDefinition, type ModelName } from './models.ts';
import { clamp, conformalHalfWidth, mean } from './statistics.ts';

/** Backtest errors needed at a horizon before the interval becomes conformal. */
export const CONFORMAL_MIN_ERRORS = 20;
export const INTERVAL_LEVEL = 0.95;
/** |error| within this many CRS points counts as a hit for confidence_score. */
export const HIT_TOLERANCE = 10;

export interface Bounds {
  min: number;
  max: number;
}

export interface BacktestRecord {
  /** Training length: the forecast was made from the first `origin` values. */
  origin: number;
  actual: number;
  forecast: number;
  error: number;
  analyticHalfWidth: number;
  /** Inside the interval the method would have served then: conformal from errors already observed at that origin when there were ≥ 20, else analytic. */
  covered: boolean;
  analyticCovered: boolean;
}

export interface HorizonMetrics {
  h: number;
  n: number;
  mae: number | null;
  rmse: number | null;
  /** MAE over the in-sample mean absolute one-step change of the whole series (Hyndman & Koehler 2006). */
  mase: number | null;
  /** Mean of actual − forecast. */
  bias: number | null;
  /** Share of actuals inside the interval served by the method at that origin (see BacktestRecord.covered). */
  coverage_95: number | null;
  /** Share inside the model's own analytic 95% interval. */
  analytic_coverage_95: number | null;
  /** Errors with |error| ≤ HIT_TOLERANCE. */
  hits: number;
}

export interface ModelBacktest {
  model: ModelName;
  /** First training length used. */
  firstOrigin: number;
  /** MASE denominator: mean |y_t − y_{t−1}| over the series; null when the series never changes. */
  scale: number | null;
  /** records[h − 1]: one record per origin with a target at horizon h, oldest origin first. */
  records: BacktestRecord[][];
  byHorizon: HorizonMetrics[];
}

export function maseScale(y: readonly number[]): number | null {
  if (y.length < 2) return null;
  let s = 0;
  for (let t = 1; t < y.length; t++) s += Math.abs(y[t] - y[t - 1]);
  const scale = s / (y.length - 1);
  return scale > 0 ? scale : null;
}

export function horizonMetrics(h: number, records: readonly BacktestRecord[], scale: number | null): HorizonMetrics {
  const n = records.length;
  if (n === 0) return { h, n, mae: null, rmse: null, mase: null, bias: null, coverage_95: null, analytic_coverage_95: null, hits: 0 };
  const errors = records.map((r) => r.error);
  const mae = mean(errors.map(Math.abs));
  return {
    h,
    n,
    mae,
    rmse: Math.sqrt(mean(errors.map((e) => e * e))),
    mase: scale === null ? null : mae / scale,
    bias: mean(errors),
    coverage_95: records.filter((r) => r.covered).length / n,
    analytic_coverage_95: records.filter((r) => r.analyticCovered).length / n,
    hits: records.filter((r) => Math.abs(r.error) <= HIT_TOLERANCE).length,
  };
}

export function rollingOriginBacktest(
  y: readonly number[],
  model: ModelDefinition,
  options: { firstOrigin: number; maxHorizon: number; bounds: Bounds; window: number },
): ModelBacktest {
  const { maxHorizon, bounds } = options;
  const firstOrigin = Math.max(options.firstOrigin, model.minObservations);
  const records: BacktestRecord[][] = Array.from({ length: maxHorizon }, () => []);
  for (let origin = firstOrigin; origin < y.length; origin++) {
    const fitted = model.fit(y.slice(0, origin), { window: options.window });
    for (let h = 1; h <= maxHorizon && origin + h - 1 < y.length; h++) {
      const actual = y[origin + h - 1];
      const forecast = clamp(fitted.point(h), bounds.min, bounds.max);
      const error = actual - forecast;
      const half = analyticHalfWidth(fitted, h, INTERVAL_LEVEL);
      const analyticCovered = Math.abs(error) <= half;
      records[h - 1].push({ origin, actual, forecast, error, analyticHalfWidth: half, covered: analyticCovered, analyticCovered });
    }
  }
  // What the served interval would have been at each origin: conformal once ≥ 20 errors at that horizon had
  // been observed (target index origin' + h − 1 < origin), otherwise the analytic one.
  for (let h = 1; h <= maxHorizon; h++) {
    const list = records[h - 1];
    for (const r of list) {
      const past = list.filter((p) => p.origin + h <= r.origin).map((p) => Math.abs(p.error));
      if (past.length >= CONFORMAL_MIN_ERRORS) r.covered = Math.abs(r.error) <= conformalHalfWidth(past, INTERVAL_LEVEL);
    }
  }
  const scale = maseScale(y);
  return {
    model: model.name,
    firstOrigin,
    scale,
    records,
    byHorizon: records.map((list, i) => horizonMetrics(i + 1, list, scale)),
  };
}

/** Metrics of one model pooled over several series (e.g. all categories, for /api/models/). */
export function poolBacktests(backtests: readonly ModelBacktest[], maxHorizon: number): HorizonMetrics[] {
  const pooled: HorizonMetrics[] = [];
  for (let h = 1; h <= maxHorizon; h++) {
    const records = backtests.flatMap((b) => b.records[h - 1] ?? []);
    const metrics = horizonMetrics(h, records, null);
    const scaled = backtests.flatMap((b) => (b.scale === null ? [] : (b.records[h - 1] ?? []).map((r) => Math.abs(r.error) / b.scale!)));
    metrics.mase = scaled.length > 0 && scaled.length === records.length ? mean(scaled) : null;
    pooled.push(metrics);
  }
  return pooled;
}
