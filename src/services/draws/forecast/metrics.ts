// Backtest metrics of the walk-forward: errors of a model at one horizon over a set of points, and whether the
// interval served at each point (sized only from errors known then) held the actual value or date.
import { conformalHalfWidth, fitIsotonic, isotonicAt, mean } from './statistics.ts';
import type { IsotonicBlock } from './statistics.ts';
import type { WindowClass } from './draw-dates.ts';
import type { MemberName } from './members.ts';
import {
  DATE_HORIZONS,
  DATE_LEVELS,
  INTERVAL_DAYS,
  knownAt,
  RECENT_DAYS,
  RECORD_HORIZONS,
  seriesValue,
  walkRoots,
} from './walk-forward.ts';
import type { SeriesKind, WalkPoint } from './walk-forward.ts';

export const INTERVAL_LEVEL = 0.95;
/**
 * Coverage the served date ranges are calibrated to: a 95% range of draw dates spans the rare long breaks of every
 * category and is too wide to plan with, while the highest level tried (DATE_LEVELS) still held only about 90%.
 */
export const DATE_INTERVAL_TARGET = 0.9;
/** Scaled-error quantile used while fewer than ⌈(n + 1) × 0.95⌉ errors are known (a wide, stated default). */
export const FALLBACK_QUANTILE = 4;
/** Young forecasts of the last three years size a young category's interval (all of them while too few). */
const YOUNG_DAYS = 3 * 365;
/** Young categories' half-width while no young forecast has been scored (CRS points; log invitations). */
const YOUNG_FALLBACK: Record<SeriesKind, number> = { crs: 100, invitations: 1.5 };
/**
 * Step γ of adaptive conformal inference (Gibbs & Candès 2021) on the level of the established categories' intervals:
 * after each scored forecast α ← α + γ(0.05 − miss), so the level falls after a run of hits and rises after misses, and
 * the long-run share of misses tracks 5% whatever the errors do. On the 2023–2024 origins it brought the CRS intervals
 * of over-covered categories in (CEC 100% → 94%, 2023 and 2024 each 90–93%) for little change in the interval score; on invitations it let the
 * coverage fall below 90%, so their level stays fixed.
 */
export const ADAPTIVE_STEP: Record<SeriesKind, number> = { crs: 0.0025, invitations: 0 };
/** The adapted level stays within this range: an interval that claims 99.9% or 50% would say nothing useful. */
export const ADAPTIVE_LEVEL_RANGE = [0.8, 0.995] as const;

/**
 * The level adaptive conformal inference serves after `misses` (in the order their targets became known): with
 * α_{t+1} = α_t + γ(α − miss_t) from α_1 = 1 − level, the level is 1 − α_T = level − γ Σ (1 − level − miss_t),
 * kept within ADAPTIVE_LEVEL_RANGE.
 */
export function adaptiveLevel(level: number, step: number, misses: readonly boolean[]): number {
  let alpha = 1 - level;
  for (const miss of misses) alpha += step * (1 - level - (miss ? 1 : 0));
  return Math.min(ADAPTIVE_LEVEL_RANGE[1], Math.max(ADAPTIVE_LEVEL_RANGE[0], 1 - alpha));
}

/** Results that depend only on (the points, kind, h, day): memoised per points array. */
const memo = new WeakMap<readonly WalkPoint[], Map<string, unknown>>();
function remember<T>(points: readonly WalkPoint[], key: string, compute: () => T): T {
  // A truncated walk shares its full walk's results: each depends only on what was known by its day.
  const root = walkRoots.get(points) ?? points;
  let cache = memo.get(root);
  if (!cache) memo.set(root, (cache = new Map()));
  if (!cache.has(key)) cache.set(key, compute());
  return cache.get(key) as T;
}
/** |error| within this many CRS points counts as a hit for confidence_score. */
export const HIT_TOLERANCE = 10;

/** The served forecast of a point, or one member's. */
export type Forecaster = MemberName | 'served';

export interface HorizonMetrics {
  h: number;
  n: number;
  mae: number | null;
  rmse: number | null;
  /** Mean of |error| / the category's scale when the forecast was made (its mean absolute change). */
  mase: number | null;
  /** Mean of actual − forecast. */
  bias: number | null;
  /** Share of actuals inside the 95% interval served then (served forecasts only; null for the members). */
  coverage_95: number | null;
  /** Median half-width of those intervals (CRS points; log invitations for invitations). */
  median_half_width: number | null;
  /** Errors with |error| ≤ HIT_TOLERANCE (CRS). */
  hits: number;
}

function forecastOf(p: WalkPoint, kind: SeriesKind, who: Forecaster, h: number): number {
  const s = p.series[kind];
  return who === 'served' ? s.served[h - 1] : s.members[who][h - 1];
}

/** |actual − served| / errorScale of the points, at horizon h (young points: the absolute error). */
function scaledErrors(points: readonly WalkPoint[], kind: SeriesKind, h: number): number[] {
  return points.map((p) => Math.abs(seriesValue(kind, p.targets[h - 1]!) - p.series[kind].served[h - 1]) / p.series[kind].errorScale);
}

/**
 * The half-width of the served 95% interval at `day`, in units of errorScale: the conformal quantile (k-th
 * smallest with k = ⌈(n + 1) × 0.95⌉) of the scaled errors of the established categories' served forecasts whose
 * targets are known by `day`, over the last INTERVAL_DAYS of the kind (all of them while too few); FALLBACK_QUANTILE
 * if even that is too few. Young categories (absolute units): the same over the young forecasts of the last
 * YOUNG_DAYS (every one ever scored when there is none), 1.5 × the largest of them while they are too few for the
 * rank (YOUNG_FALLBACK with none at all).
 */
export function intervalQuantile(
  points: readonly WalkPoint[],
  kind: SeriesKind,
  h: number,
  day: number,
  young: boolean,
): { q: number; n: number } {
  return remember(points, `q|${kind}|${h}|${day}|${young}`, () => {
    const pick = (window: number | null) => knownAt(points, day, h, window).filter((p) => p.young === young);
    if (young) {
      // Young forecasts are few: the last three years', else every one's; 1.5 × the largest while too few for the rank.
      for (const window of [YOUNG_DAYS, null]) {
        const errors = scaledErrors(pick(window), kind, h);
        if (errors.length === 0) continue;
        const q = conformalHalfWidth(errors, INTERVAL_LEVEL);
        return { q: Number.isFinite(q) ? q : 1.5 * Math.max(...errors), n: errors.length };
      }
      return { q: YOUNG_FALLBACK[kind], n: 0 };
    }
    const level = servedLevel(points, kind, h, day);
    for (const window of [INTERVAL_DAYS[kind], null]) {
      const known = pick(window);
      const q = conformalHalfWidth(scaledErrors(known, kind, h), level);
      if (Number.isFinite(q)) return { q, n: known.length };
    }
    return { q: FALLBACK_QUANTILE, n: 0 };
  });
}

/**
 * The level of the established categories' h-step intervals at `day`: INTERVAL_LEVEL adapted (adaptiveLevel) by whether
 * each of their served h-step forecasts whose target is known by `day` fell outside the interval served then.
 */
export function servedLevel(points: readonly WalkPoint[], kind: SeriesKind, h: number, day: number): number {
  if (ADAPTIVE_STEP[kind] === 0) return INTERVAL_LEVEL;
  return remember(points, `level|${kind}|${h}|${day}`, () => {
    warmLevels(points, kind, day);
    // Forecasts made before `day` only: one made on `day` whose target was drawn the same day (a lettered round) was
    // sized by this very level.
    const known = knownAt(points, day, h, null)
      .filter((p) => !p.young && p.day < day)
      .sort((a, b) => a.targets[h - 1]!.day - b.targets[h - 1]!.day);
    const misses = known.map(
      (p) => Math.abs(seriesValue(kind, p.targets[h - 1]!) - p.series[kind].served[h - 1]) > servedHalfWidth(points, p, kind, h, p.day),
    );
    return adaptiveLevel(INTERVAL_LEVEL, ADAPTIVE_STEP[kind], misses);
  });
}

/** Per full walk and kind: how many of its points (ordered by day) have had their served intervals computed. */
const warmed = new WeakMap<readonly WalkPoint[], Record<SeriesKind, number>>();

/**
 * Computes the intervals served at every point made before `day`, oldest first. A level depends on the intervals served
 * before it, and each of those on the levels before them: computed in order, each step finds the earlier ones already
 * memoised, where asking for the newest first would recurse once per draw day. A truncated walk's points are a prefix
 * of its full walk's, so the count carries over.
 */
function warmLevels(points: readonly WalkPoint[], kind: SeriesKind, day: number): void {
  const root = walkRoots.get(points) ?? points;
  let done = warmed.get(root);
  if (!done) warmed.set(root, (done = { crs: 0, invitations: 0 }));
  while (done[kind] < points.length && points[done[kind]].day < day) {
    const p = points[done[kind]++];
    servedHalfWidth(points, p, kind, RECORD_HORIZONS, p.day);
  }
}

/** The half-width a point is served (value units): errorScale × its family's quantile; a young one never narrower than an established one would be. */
export function servedHalfWidth(
  points: readonly WalkPoint[],
  p: Pick<WalkPoint, 'young' | 'series' | 'category'>,
  kind: SeriesKind,
  h: number,
  day: number,
): number {
  const s = p.series[kind];
  // A later draw is never more certain than an earlier one: the half-width is the largest of those up to h.
  let half = 0;
  for (let j = 1; j <= h; j++) {
    half = Math.max(
      half,
      p.young
        ? Math.max(intervalQuantile(points, kind, j, day, true).q, intervalQuantile(points, kind, j, day, false).q * s.scale)
        : intervalQuantile(points, kind, j, day, false).q * s.errorScale,
    );
  }
  return half;
}

/**
 * The calibrated level of the date interval at `day` for horizon h: the smallest of DATE_LEVELS whose intervals (served
 * on three days of each gap: see WalkPoint.dateBounds) held at least `target` of the draw dates known by then (last
 * RECENT_DAYS, every category); the largest level if none did, `target` itself (or the nearest level) with nothing known.
 */
export function dateLevel(
  points: readonly WalkPoint[],
  horizon: number,
  day: number,
  target = DATE_INTERVAL_TARGET,
): { level: number; index: number; n: number } {
  const h = Math.min(horizon, DATE_HORIZONS);
  return remember(points, `date|${h}|${day}|${target}`, () => calibrateDates(points, h, day, target));
}

/** Whether the h-th next draw of each known point fell inside its date intervals at level index i, over its three as-of days. */
function dateHits(points: readonly WalkPoint[], h: number, level: (p: WalkPoint) => number): { n: number; held: number } {
  let n = 0;
  let held = 0;
  for (const p of points) {
    const actual = p.targets[h - 1]!.day;
    const index = level(p);
    for (const at of p.dateBounds) {
      const [lo, hi] = at.bounds[h - 1][index];
      n++;
      if (actual >= lo && actual <= hi) held++;
    }
  }
  return { n, held };
}

function calibrateDates(points: readonly WalkPoint[], h: number, day: number, target: number): { level: number; index: number; n: number } {
  const known = knownAt(points, day, h).filter((p) => p.dateBounds.length > 0);
  if (known.length === 0) {
    const index = Math.max(
      0,
      DATE_LEVELS.findIndex((l) => l >= target),
    );
    return { level: DATE_LEVELS[index], index, n: 0 };
  }
  for (let i = 0; i < DATE_LEVELS.length; i++) {
    const { n, held } = dateHits(known, h, () => i);
    if (held >= target * n) return { level: DATE_LEVELS[i], index: i, n: known.length };
  }
  return { level: DATE_LEVELS[DATE_LEVELS.length - 1], index: DATE_LEVELS.length - 1, n: known.length };
}

/** With fewer known next-draw windows than this, a likely window's probability is its law's own mass (uncalibrated). */
export const LIKELY_MIN_WINDOWS = 30;

/**
 * How the likely window's mass becomes a probability at `day`: the isotonic regression of "the next draw fell inside"
 * on the law's mass in the window, over the windows of every category's points whose next draw is known by `day`
 * (the last RECENT_DAYS, as the date level is calibrated; every LIKELY_STEP_DAYS-th day of each gap:
 * WalkPoint.likelyWindows), apart in each WindowClass: the same mass held more often in a window asked for on the draw
 * day than in one asked for deep in a wait, where the law mixes in the program's rounds.
 * `baseRate`: the share of those windows that held their draw (the reference a stated probability must beat).
 */
export interface LikelyCalibration {
  n: number;
  baseRate: number | null;
  blocks: IsotonicBlock[];
}

export function likelyCalibration(points: readonly WalkPoint[], day: number, windowClass: WindowClass): LikelyCalibration {
  return remember(points, `likely|${day}|${windowClass}`, () => {
    const observations = knownAt(points, day, 1).flatMap((p) =>
      p.likelyWindows
        .filter((w) => w.windowClass === windowClass)
        .map((w) => ({ score: w.mass, outcome: p.targets[0]!.day >= w.earliest && p.targets[0]!.day <= w.latest })),
    );
    return windowCalibration(observations);
  });
}

/**
 * LikelyCalibration of windows' outcomes on their law's mass (`score`): the isotonic map once LIKELY_MIN_WINDOWS are
 * known, none before. The fresh windows' maps and the stale-feed backtest's leave-one-year-out maps are fitted so.
 */
export function windowCalibration(observations: readonly { score: number; outcome: boolean }[]): LikelyCalibration {
  const n = observations.length;
  if (n === 0) return { n, baseRate: null, blocks: [] };
  return {
    n,
    baseRate: observations.filter((o) => o.outcome).length / n,
    blocks: n < LIKELY_MIN_WINDOWS ? [] : fitIsotonic(observations),
  };
}

/**
 * The stated probability of a likely window whose law's mass is `mass`: the calibration's isotonic map, kept off 0 and
 * 1 by the end blocks' sizes (a block of n windows that all held says at most n/(n + 1)); the mass itself while too
 * few windows are known.
 */
export function likelyProbability(calibration: LikelyCalibration, mass: number): number {
  const { blocks } = calibration;
  if (blocks.length === 0) return mass;
  const [first, last] = [blocks[0], blocks[blocks.length - 1]];
  return Math.min(last.n / (last.n + 1), Math.max(1 / (first.n + 1), isotonicAt(blocks, mass)));
}

/** Errors, and for the served forecasts the coverage of the intervals served then, of `points` at horizon h. */
export function horizonMetrics(
  all: readonly WalkPoint[],
  points: readonly WalkPoint[],
  kind: SeriesKind,
  who: Forecaster,
  h: number,
): HorizonMetrics {
  const scored = points.filter((p) => p.targets[h - 1] !== null);
  const n = scored.length;
  if (n === 0) return { h, n, mae: null, rmse: null, mase: null, bias: null, coverage_95: null, median_half_width: null, hits: 0 };
  const errors = scored.map((p) => seriesValue(kind, p.targets[h - 1]!) - forecastOf(p, kind, who, h));
  let coverage: number | null = null;
  let medianHalfWidth: number | null = null;
  if (who === 'served') {
    const halves = scored.map((p) => servedHalfWidth(all, p, kind, h, p.day));
    coverage = errors.filter((e, i) => Math.abs(e) <= halves[i]).length / n;
    const sorted = [...halves].sort((a, b) => a - b);
    medianHalfWidth = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
  return {
    h,
    n,
    mae: mean(errors.map(Math.abs)),
    rmse: Math.sqrt(mean(errors.map((e) => e * e))),
    mase: mean(scored.map((p, i) => Math.abs(errors[i]) / p.series[kind].scale)),
    bias: mean(errors),
    coverage_95: coverage,
    median_half_width: medianHalfWidth,
    hits: errors.filter((e) => Math.abs(e) <= HIT_TOLERANCE).length,
  };
}

/**
 * Share of the points' h-th draw dates inside the date interval served then (the level calibrated at the point's
 * day), over the three as-of days of each gap.
 */
export function dateCoverage(all: readonly WalkPoint[], points: readonly WalkPoint[], h: number): { n: number; coverage: number | null } {
  if (h > DATE_HORIZONS) return { n: 0, coverage: null };
  const scored = points.filter((p) => p.targets[h - 1] !== null && p.dateBounds.length > 0);
  if (scored.length === 0) return { n: 0, coverage: null };
  const { n, held } = dateHits(scored, h, (p) => dateLevel(all, h, p.day).index);
  return { n, coverage: held / n };
}

/** Points whose h-th target is known by `day`, within the last RECENT_DAYS: the window /api/models/ reports. */
export function reportWindow(points: readonly WalkPoint[], day: number, h: number): WalkPoint[] {
  return knownAt(points, day, h, RECENT_DAYS);
}
