// The point forecasts the served forecast combines, each from one category's series (oldest first) and, for
// the pooled model, a coefficient shared by all categories. Every member gives h = 1…H forecasts; with too
// little history for its fit a member falls back to the last value (and says so in `fitted`).
import { DAMPED_MIN_OBSERVATIONS, fitDamped, fitSesAlpha, sesFilter } from './models.ts';
import { mean, median } from './statistics.ts';

export const MEMBER_NAMES = ['naive', 'window_mean', 'ses', 'damped_trend', 'pooled_reversion'] as const;
export type MemberName = (typeof MEMBER_NAMES)[number];

/** The members the served combination weighs; the window mean is a baseline only (it lost to naive where it was chosen). */
export const COMBINED_MEMBERS: readonly MemberName[] = ['naive', 'ses', 'damped_trend', 'pooled_reversion'];

export const WINDOW = 6;
/** Values whose median is the level the pooled model reverts to. */
export const REVERSION_WINDOW = 5;
/** Fewest values a damped trend is fitted to (models.ts); below, its forecast is SES's. */
export { DAMPED_MIN_OBSERVATIONS };
/** Fewest values SES is fitted to; below, its forecast is the last value. */
export const SES_MIN_OBSERVATIONS = 3;

export interface MemberForecasts {
  /** forecasts[member][h − 1]. */
  forecasts: Record<MemberName, number[]>;
  /** False where a member fell back to the last value for lack of history. */
  fitted: Record<MemberName, boolean>;
}

/**
 * Every member's h-step forecasts of series `y` (oldest first, at least one value). `phi` is the pooled
 * reversion coefficient for this category (see pooling.ts): the pooled model forecasts
 * m + (y_T − m)(1 − φ)^h, with m the median of the last five values.
 */
export function memberForecasts(y: readonly number[], phi: number, horizons: number): MemberForecasts {
  if (y.length === 0) throw new RangeError('a forecast needs at least one value');
  const last = y[y.length - 1];
  const flat = (v: number) => Array.from({ length: horizons }, () => v);
  const steps = Array.from({ length: horizons }, (_, i) => i + 1);
  const level = median(y.slice(-REVERSION_WINDOW));
  const ses = y.length >= SES_MIN_OBSERVATIONS ? sesFilter(y, fitSesAlpha(y)).level : last;
  let damped: number[];
  if (y.length >= DAMPED_MIN_OBSERVATIONS) {
    const fitted = fitDamped(y);
    damped = steps.map((h) => fitted.point(h));
  } else damped = flat(ses);
  return {
    forecasts: {
      naive: flat(last),
      window_mean: flat(mean(y.slice(-WINDOW))),
      ses: flat(ses),
      damped_trend: damped,
      pooled_reversion: steps.map((h) => level + (last - level) * (1 - phi) ** h),
    },
    fitted: {
      naive: true,
      window_mean: true,
      ses: y.length >= SES_MIN_OBSERVATIONS,
      damped_trend: y.length >= DAMPED_MIN_OBSERVATIONS,
      pooled_reversion: true,
    },
  };
}
