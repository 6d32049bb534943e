// The walk-forward: for every category and every draw, the forecasts that would have been made right after
// it, from what was known that day only: each member's h-step forecasts of the CRS cut-off and of log
// invitations, the pooled coefficient, the combination weights (from errors already observed), the served
// combination, the date distribution of the next draws, and the next draws themselves as targets. Everything
// the served forecasts need (weights, interval quantiles, calibration of the dates) and everything /api/models/
// and the benchmark report is read from these records, filtered by what was known at a date.
import { COMBINED_MEMBERS, memberForecasts } from './members.ts';
import type { MemberName } from './members.ts';
import { estimateReversion } from './pooling.ts';
import type { ReversionPair } from './pooling.ts';
import {
  DATE_LAW_GAPS,
  dateIntervals,
  dateLaws,
  dormancyThreshold,
  likeliestWindow,
  roundRhythm,
  smoothGaps,
  typicalGap,
  windowClass,
} from './draw-dates.ts';
import type { GapWeights, WindowClass } from './draw-dates.ts';
import { mean, median } from './statistics.ts';

export const SERIES_KINDS = ['crs', 'invitations'] as const;
/** crs: the cut-off; invitations: modelled as log(invitations), served back on the count scale. */
export type SeriesKind = (typeof SERIES_KINDS)[number];

/** Horizons of the walk-forward records: every rank served (the benchmark reports h = 1…3). */
export const RECORD_HORIZONS = 5;
/** Draws from which a category is established: fewer is young, forecast by the pooled model. */
export const ESTABLISHED_DRAWS = 5;
/** Errors older than this many days do not weigh models or calibrate dates: a regime from years ago must not dominate. */
export const RECENT_DAYS = 730;
/**
 * Interval quantiles come from the errors whose targets fell in this many days up to the forecast (all of them while
 * those are too few), per series. CRS errors are divided by a unit that already follows each category's recent
 * volatility, so what is left is a tail shape, and three years hold enough far-rank errors to estimate it steadily.
 * The invitations' scaled errors shift from year to year more than the unit follows, so their quantile remembers one
 * year. Chosen on the origins of 2019–2024 by the mean of the per-year interval score ratios (docs/draws.md, *How
 * intervals are sized*).
 */
export const INTERVAL_DAYS: Record<SeriesKind, number> = { crs: 1095, invitations: 365 };
/** Own recent h = 1 errors per member that set its combination weight. */
export const WEIGHT_ERRORS = 10;
/** The pooled prior counts as this many own errors. */
export const WEIGHT_PRIOR_ERRORS = 4;
/** Changes whose mean absolute size is a category's scale. */
export const SCALE_CHANGES = 12;
/** Smallest scale (CRS points; log invitations): a run of identical values must not make an interval vanish. */
const MIN_SCALE: Record<SeriesKind, number> = { crs: 3, invitations: 0.1 };
/**
 * Half-life, in draws, of the exponential weights of a category's volatility (the intervals' unit): recent
 * changes count most, so a category whose draws have steadied gets narrow intervals within a few draws, and one
 * that turned jumpy gets wide ones as quickly.
 */
export const VOLATILITY_HALF_LIFE = 8;
/** The established categories' median volatility counts as this many changes of a category's own. */
export const VOLATILITY_PRIOR_CHANGES = 3;
/** Gaps whose median is a dormant category's typical gap (its pause in typical gaps, if_resumed). */
export const DATE_GAPS = 12;
/** Share of the date distribution taken from every category's recent gaps (long, irregular breaks happen). */
export const DATE_POOLED_SHARE = 0.05;
/**
 * Invitation ranges stay within the category's smallest and largest draws ×÷ this factor (e^0.35): beyond anything
 * drawn is implausible, while a record size a little past the extremes does happen.
 */
export const INVITATION_BOUND_FACTOR = Math.exp(0.35);
/** A category's largest draw is a one-off when it is more than this many times its 2nd-largest. */
export const ONE_OFF_RATIO = 2;

/**
 * The size the upper invitation bound is made from: the largest of `sizes`, or the 2nd-largest when the largest is a
 * one-off (more than ONE_OFF_RATIO times it), so that a single outsized draw does not keep a category's ranges wide
 * for good (docs/draws.md, "How intervals are sized").
 */
export function upperBoundSize(sizes: readonly number[]): number {
  let first = -Infinity;
  let second = -Infinity;
  for (const s of sizes) {
    if (s > first) [first, second] = [s, first];
    else if (s > second) second = s;
  }
  return second > 0 && first > ONE_OFF_RATIO * second ? second : first;
}
/** Half-life, in gaps, of the recency weights of a category's own gaps. */
export const DATE_HALF_LIFE = 4;
/**
 * The likely windows calibrated on are those served on every this many days of each gap: a person asks on any day, and
 * a window asked for deep in a long wait is a different statement from one asked on the draw day. (The date levels'
 * three days of a gap include its last, where the draw is due the next day, which would flatter a window's record.)
 */
export const LIKELY_STEP_DAYS = 7;
/** Horizons whose date intervals are calibrated in the walk-forward; later ranks use the last one's level. */
export const DATE_HORIZONS = 3;
/**
 * Levels tried when the date interval is calibrated. None above 0.99: past it the window reaches into the rare long
 * breaks of every category and grows by months for a few points of coverage, which no one can plan with.
 */
export const DATE_LEVELS = [0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99] as const;

export interface PanelDraw {
  /** Days since 1970-01-01. */
  day: number;
  crs: number;
  invitations: number;
}

export interface PanelCategory {
  id: number;
  slug: string;
  /** Oldest first (date, then round). */
  draws: PanelDraw[];
}

export interface SeriesPoint {
  /** The category's scale then (mean |change| of its last SCALE_CHANGES changes, at least MIN_SCALE); young: the pooled median. */
  scale: number;
  /**
   * What intervals are sized in units of: the category's volatility (see volatility()), shrunk toward the
   * established categories' median volatility with the weight of VOLATILITY_PRIOR_CHANGES changes, at least
   * MIN_SCALE. Young categories: 1 (their intervals come from absolute errors).
   */
  errorScale: number;
  phi: number;
  members: Record<MemberName, number[]>;
  /** Weights of COMBINED_MEMBERS (sum 1). */
  weights: Partial<Record<MemberName, number>>;
  /** The served point forecast by h: the weighted combination (established), the pooled model (young). */
  served: number[];
}

export interface WalkPoint {
  category: number;
  /** Draws known (the forecast follows the k-th draw). */
  k: number;
  /** Day of the k-th draw: the forecast was made with what was known on it. */
  day: number;
  young: boolean;
  /**
   * Targets before the first pause longer than the category's dormancy threshold (0 when the next draw itself came
   * after one): past a pause nothing would have been served, so those errors size no interval and weigh no model.
   */
  servableHorizons: number;
  series: Record<SeriesKind, SeriesPoint>;
  /** The next RECORD_HORIZONS draws of the category (null past the end of the data). */
  targets: (PanelDraw | null)[];
  /**
   * Date intervals (day numbers) of the h-th next draw, h ≤ DATE_HORIZONS, at each of DATE_LEVELS, as served on
   * three days of the gap before the next draw: the draw day itself (nothing elapsed), its middle and its last day.
   * Used only once that next draw is known (they are evaluations, spread over the gap as a user's as-of date is).
   */
  dateBounds: { elapsed: number; bounds: [number, number][][] }[];
  /**
   * The next draw's likely window (likeliestWindow, day numbers, with the law's mass in it) as served on every
   * LIKELY_STEP_DAYS-th day of the gap before the next draw from the draw day on, the program's round rhythm included as
   * served: what the window's probability is calibrated on, once the next draw is known.
   */
  likelyWindows: { elapsed: number; windowClass: WindowClass; earliest: number; latest: number; mass: number }[];
}

export function seriesValue(kind: SeriesKind, d: PanelDraw): number {
  return kind === 'crs' ? d.crs : Math.log(d.invitations);
}

function seriesScale(kind: SeriesKind, y: readonly number[]): number | null {
  if (y.length < 2) return null;
  const changes: number[] = [];
  for (let t = Math.max(1, y.length - SCALE_CHANGES); t < y.length; t++) changes.push(Math.abs(y[t] - y[t - 1]));
  return Math.max(MIN_SCALE[kind], mean(changes));
}

/** Gaps in days between the distinct draw days of a category's draws from index `from` to k − 1. */
export function gapsOf(draws: readonly PanelDraw[], k: number, from = 0): number[] {
  const gaps: number[] = [];
  for (let i = from + 1; i < k; i++) if (draws[i].day > draws[i - 1].day) gaps.push(draws[i].day - draws[i - 1].day);
  return gaps;
}

/**
 * Where the current regime of a category's first k draws starts: just after its last pause longer than its
 * dormancy threshold (a category that came back from dormancy, as General in 2022 and CEC in 2024, is forecast
 * from its draws since, not from the level it had years before); 0 without such a pause.
 */
export function regimeStart(draws: readonly PanelDraw[], k: number): number {
  let pauses = pausesMemo.get(draws);
  if (!pauses) {
    // Each gap is judged by the threshold of the gaps before it (a long pause must not raise its own bar).
    pauses = draws.map((d, i) => i > 0 && d.day - draws[i - 1].day > dormancyThreshold(gapsOf(draws, i)));
    pausesMemo.set(draws, pauses);
  }
  for (let i = k - 1; i >= 1; i--) if (pauses[i]) return i;
  return 0;
}

/** Which draws follow a pause, per draws array (the walk-forward asks for every k). */
const pausesMemo = new WeakMap<readonly PanelDraw[], boolean[]>();

/**
 * The gap distribution of a category at a point: its last DATE_LAW_GAPS gaps, smoothed, each weighted by recency
 * (halving every DATE_HALF_LIFE gaps back, so a rhythm the category has just taken up shows within a few draws), mixed
 * with every category's gaps of the RECENT_DAYS before (DATE_POOLED_SHARE of the weight; a category with fewer than
 * three gaps borrows enough to count as three).
 */
export function dateGapWeights(own: readonly number[], pooled: readonly number[]): GapWeights {
  const recent = own.slice(-DATE_LAW_GAPS);
  const decay = 0.5 ** (1 / DATE_HALF_LIFE);
  const ownWeights = recent.map((_, i) => decay ** (recent.length - 1 - i));
  if (pooled.length === 0) return smoothGaps(recent, ownWeights);
  const total = ownWeights.reduce((s, w) => s + w, 0);
  const pooledWeight = Math.max(3 - recent.length, 0) + DATE_POOLED_SHARE * total;
  return smoothGaps([...recent, ...pooled], [...ownWeights, ...pooled.map(() => pooledWeight / pooled.length)]);
}

export interface WalkForward {
  categories: readonly PanelCategory[];
  /** Every point, ordered by day (then category, then k). */
  points: WalkPoint[];
  /** points of each category by k − 1. */
  byCategory: WalkPoint[][];
  pairs: Record<SeriesKind, ReversionPair[]>;
}

/**
 * Errors known by `day`: servable points whose h-th target fell on or before it, within the last `windowDays`
 * (null: any time).
 */
export function knownAt(points: readonly WalkPoint[], day: number, h: number, windowDays: number | null = RECENT_DAYS): WalkPoint[] {
  return points.filter((p) => {
    const t = p.targets[h - 1];
    return h <= p.servableHorizons && t !== null && t.day <= day && (windowDays === null || t.day > day - windowDays);
  });
}

/**
 * Combination weights at `day` for one category: each member's score is its mean squared h = 1 error over the
 * category's last WEIGHT_ERRORS known errors, shrunk toward the pooled mean squared scaled error of all
 * categories (× the category's scale²) with the weight of WEIGHT_PRIOR_ERRORS errors; weight ∝ 1/score.
 */
function combinationWeights(
  known: readonly WalkPoint[],
  kind: SeriesKind,
  category: number,
  scale: number,
): Partial<Record<MemberName, number>> {
  const own = known.filter((p) => p.category === category && !p.young);
  const pooled = known.filter((p) => !p.young);
  const inverse = COMBINED_MEMBERS.map((m) => {
    const ownErrors = own.slice(-WEIGHT_ERRORS).map((p) => (seriesValue(kind, p.targets[0]!) - p.series[kind].members[m][0]) ** 2);
    const prior =
      pooled.length > 0
        ? mean(pooled.map((p) => ((seriesValue(kind, p.targets[0]!) - p.series[kind].members[m][0]) / p.series[kind].scale) ** 2)) *
          scale *
          scale
        : scale * scale;
    const score = (ownErrors.reduce((s, e) => s + e, 0) + WEIGHT_PRIOR_ERRORS * prior) / (ownErrors.length + WEIGHT_PRIOR_ERRORS);
    return 1 / Math.max(score, 1e-12);
  });
  const total = inverse.reduce((s, w) => s + w, 0);
  return Object.fromEntries(COMBINED_MEMBERS.map((m, i) => [m, inverse[i] / total]));
}

/**
 * Exponentially weighted mean |change| of a series (weights halving every `halfLife` changes back, VOLATILITY_HALF_LIFE
 * as served), shrunk toward `prior` with the weight of `priorChanges` changes (0: the series' own), at least MIN_SCALE.
 */
export function volatility(kind: SeriesKind, y: readonly number[], prior = 0, priorChanges = 0, halfLife = VOLATILITY_HALF_LIFE): number {
  const decay = 0.5 ** (1 / halfLife);
  let sum = 0;
  let weights = 0;
  for (let t = y.length - 1, w = 1; t >= 1; t--, w *= decay) {
    sum += w * Math.abs(y[t] - y[t - 1]);
    weights += w;
  }
  const value = weights + priorChanges > 0 ? (sum + priorChanges * prior) / (weights + priorChanges) : prior;
  return Math.max(MIN_SCALE[kind], value);
}

function combine(members: Record<MemberName, number[]>, weights: Partial<Record<MemberName, number>>, horizons: number): number[] {
  return Array.from({ length: horizons }, (_, i) => COMBINED_MEMBERS.reduce((s, m) => s + (weights[m] ?? 0) * members[m][i], 0));
}

/** A category's series point made with its first k draws, pooled parameters as of `day`, errors known by `day`. */
export function seriesPoint(
  kind: SeriesKind,
  draws: readonly PanelDraw[],
  k: number,
  category: number,
  phi: number,
  known: readonly WalkPoint[],
  youngScale: number,
  horizons: number,
  pooledUnit: number = youngScale,
): SeriesPoint {
  const start = regimeStart(draws, k);
  const y = draws.slice(start, k).map((d) => seriesValue(kind, d));
  const young = k - start < ESTABLISHED_DRAWS;
  const scale = young ? youngScale : seriesScale(kind, y)!;
  const members = memberForecasts(y, phi, horizons).forecasts;
  if (young) return { scale, errorScale: 1, phi, members, weights: {}, served: members.pooled_reversion };
  const weights = combinationWeights(known, kind, category, scale);
  // A regime just restarted (few changes of its own) leans on the other categories' volatility.
  const unit = volatility(kind, y, pooledUnit, VOLATILITY_PRIOR_CHANGES);
  return { scale, errorScale: unit, phi, members, weights, served: combine(members, weights, horizons) };
}

/** Median scale of the established categories at a point in time: the scale of a young category. */
export function pooledScale(kind: SeriesKind, categories: readonly PanelCategory[], day: number): number {
  const scales: number[] = [];
  for (const c of categories) {
    const y = c.draws.filter((d) => d.day <= day).map((d) => seriesValue(kind, d));
    if (y.length >= ESTABLISHED_DRAWS) scales.push(seriesScale(kind, y)!);
  }
  return scales.length > 0 ? median(scales) : kind === 'crs' ? 15 : 0.5;
}

/**
 * Median volatility (unshrunk, weights halving every `halfLife` changes back) of the established categories at a point
 * in time: the prior of every category's unit.
 */
export function pooledVolatility(
  kind: SeriesKind,
  categories: readonly PanelCategory[],
  day: number,
  halfLife = VOLATILITY_HALF_LIFE,
): number {
  const units: number[] = [];
  for (const c of categories) {
    const k = c.draws.filter((d) => d.day <= day).length;
    const start = regimeStart(c.draws, k);
    if (k - start >= ESTABLISHED_DRAWS)
      units.push(
        volatility(
          kind,
          c.draws.slice(start, k).map((d) => seriesValue(kind, d)),
          0,
          0,
          halfLife,
        ),
      );
  }
  return units.length > 0 ? median(units) : kind === 'crs' ? 15 : 0.5;
}

/** Longest gap borrowed from other categories: a break of more than a year is dormancy, not a gap. */
const POOLED_GAP_MAX = 365;

/** Gaps (up to POOLED_GAP_MAX days) of every category in the RECENT_DAYS up to `day`. */
export function recentGaps(categories: readonly PanelCategory[], day: number): number[] {
  const gaps: number[] = [];
  for (const c of categories) {
    let previous: number | null = null;
    for (const d of c.draws) {
      if (d.day > day) break;
      if (previous !== null && d.day > previous && d.day > day - RECENT_DAYS && d.day - previous <= POOLED_GAP_MAX)
        gaps.push(d.day - previous);
      previous = d.day;
    }
  }
  return gaps;
}

/** The walk-forward over a panel; see the file comment. Deterministic. */
export function walkForward(categories: readonly PanelCategory[]): WalkForward {
  const events = categories
    .flatMap((c, ci) => c.draws.map((d, i) => ({ ci, k: i + 1, day: d.day })))
    .sort((a, b) => a.day - b.day || a.ci - b.ci || a.k - b.k);
  const points: WalkPoint[] = [];
  const byCategory: WalkPoint[][] = categories.map(() => []);
  const pairs: Record<SeriesKind, ReversionPair[]> = { crs: [], invitations: [] };
  const scaleCache = new Map<string, number>();
  const cachedPooledScale = (kind: SeriesKind, day: number) => {
    const key = `${kind}:${day}`;
    if (!scaleCache.has(key)) scaleCache.set(key, pooledScale(kind, categories, day));
    return scaleCache.get(key)!;
  };
  const programDays = [...new Set(categories.flatMap((c) => c.draws.map((d) => d.day)))].sort((a, b) => a - b);
  const unitCache = new Map<string, number>();
  const cachedPooledVolatility = (kind: SeriesKind, day: number) => {
    const key = `${kind}:${day}`;
    if (!unitCache.has(key)) unitCache.set(key, pooledVolatility(kind, categories, day));
    return unitCache.get(key)!;
  };
  for (const e of events) {
    const c = categories[e.ci];
    // Reversion pairs whose target is this draw become known now (for every later estimate).
    for (const kind of SERIES_KINDS) {
      const start = regimeStart(c.draws, e.k);
      if (e.k - 1 - start >= 3) {
        const y = c.draws.slice(start, e.k - 1).map((d) => seriesValue(kind, d));
        const scale = seriesScale(kind, y)!;
        const level = median(y.slice(-5));
        pairs[kind].push({
          category: e.ci,
          day: e.day,
          x: (level - y[y.length - 1]) / scale,
          z: (seriesValue(kind, c.draws[e.k - 1]) - y[y.length - 1]) / scale,
        });
      }
    }
    const known1 = knownAt(points, e.day, 1);
    const series = Object.fromEntries(
      SERIES_KINDS.map((kind) => [
        kind,
        seriesPoint(
          kind,
          c.draws,
          e.k,
          e.ci,
          estimateReversion(pairs[kind], e.ci, e.day),
          known1,
          cachedPooledScale(kind, e.day),
          RECORD_HORIZONS,
          cachedPooledVolatility(kind, e.day),
        ),
      ]),
    ) as Record<SeriesKind, SeriesPoint>;
    const start = regimeStart(c.draws, e.k);
    const ownGaps = gapsOf(c.draws, e.k, start);
    const pooledGaps = recentGaps(categories, e.day);
    const gapWeights = dateGapWeights(ownGaps, pooledGaps);

    const lastDay = c.draws[e.k - 1].day;
    const nextDay = c.draws.slice(e.k).find((d) => d.day > lastDay)?.day;
    const threshold = dormancyThreshold(gapsOf(c.draws, e.k));
    let servableHorizons = 0;
    for (let h = 1, previous = lastDay; h <= RECORD_HORIZONS; h++) {
      const target = c.draws[e.k + h - 1];
      if (target !== undefined && target.day - 1 - previous > threshold) break;
      servableHorizons = h;
      if (target !== undefined) previous = target.day;
    }
    const gap = nextDay === undefined ? 1 : nextDay - lastDay;
    const dateBounds =
      gapWeights.size === 0
        ? []
        : [...new Set([0, Math.floor((gap - 1) / 2), gap - 1])].map((elapsed) => ({
            elapsed,
            bounds: dateIntervals(gapWeights, lastDay, elapsed, DATE_HORIZONS, DATE_LEVELS),
          }));
    // As served (forecastPanel): past the typical gap, the program's rounds; a young category's step is the pooled median.
    const typical = typicalGap(ownGaps, Math.floor((pooledGaps.length > 0 ? median(pooledGaps) : 14) + 0.5));
    const likelyWindows =
      gapWeights.size === 0
        ? []
        : Array.from({ length: Math.ceil(gap / LIKELY_STEP_DAYS) }, (_, i) => {
            const elapsed = i * LIKELY_STEP_DAYS;
            const asOfDay = lastDay + elapsed;
            const rounds = elapsed <= typical ? null : roundRhythm(programDays, lastDay, asOfDay);
            const [law] = dateLaws(gapWeights, lastDay, elapsed, 1, rounds);
            const window = likeliestWindow(law, lastDay, asOfDay + 1, [asOfDay + 1, lastDay + law.days.length - 1]);
            return { elapsed, windowClass: windowClass(elapsed, typical), ...window };
          });
    const point: WalkPoint = {
      category: e.ci,
      k: e.k,
      day: e.day,
      young: e.k - start < ESTABLISHED_DRAWS,
      servableHorizons,
      series,
      targets: Array.from({ length: RECORD_HORIZONS }, (_, h) => c.draws[e.k + h] ?? null),
      dateBounds,
      likelyWindows,
    };
    points.push(point);
    byCategory[e.ci].push(point);
  }
  return { categories, points, byCategory, pairs };
}

/**
 * A truncated walk's points → the points of the full walk they were cut from. What is computed from a walk for a day up
 * to the truncation (interval quantiles and levels, calibrated date levels) uses only targets known by that day, so it
 * is the same on both, and memoised results are shared through the full walk (the benchmark replays every day).
 */
export const walkRoots = new WeakMap<readonly WalkPoint[], readonly WalkPoint[]>();

/**
 * The walk-forward as it stood on `day`: the points made by then, with the targets not yet drawn unknown. Equal
 * to walkForward of the draws on or before `day` (every point uses only what was known when it was made), and
 * much cheaper when many days are replayed (the benchmark).
 */
export function truncateWalk(wf: WalkForward, day: number): WalkForward {
  const keep = (p: WalkPoint): WalkPoint => ({ ...p, targets: p.targets.map((t) => (t !== null && t.day <= day ? t : null)) });
  const points = wf.points.filter((p) => p.day <= day).map(keep);
  walkRoots.set(points, walkRoots.get(wf.points) ?? wf.points);
  const byCategory = wf.categories.map(() => [] as WalkPoint[]);
  for (const p of points) byCategory[p.category].push(p);
  return {
    categories: wf.categories.map((c) => ({ ...c, draws: c.draws.filter((d) => d.day <= day) })),
    points,
    byCategory,
    pairs: { crs: wf.pairs.crs.filter((p) => p.day <= day), invitations: wf.pairs.invitations.filter((p) => p.day <= day) },
  };
}
