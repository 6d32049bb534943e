// When the next draws of a category fall. Point dates step the median of the last six gaps from the last
// draw; the ranges come from the distribution of recent gaps, treated as a renewal process, and deep in a wait also
// from the rhythm of the program's rounds across categories.
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { median, quantile } from './statistics.ts';

/** Gaps whose median is the step between predicted draws. */
const STEP_GAP_COUNT = 6;
/** Recent gaps whose empirical distribution gives date_range when no gap distribution is passed (the plain, exact form). */
const RANGE_GAP_COUNT = 12;
/**
 * Gaps of a category that form the served date distribution (walk-forward.ts, dateGapWeights). The calibrated level sits
 * at the top of its grid (0.99) nearly always, where the shortest window holds every remembered gap whatever its recency
 * weight: how many gaps are remembered, not their halving, decides how long an old break keeps the range wide. On the
 * origins of 2019–2024 (docs/draws.md, "Date ranges"), 8 gaps against 12 gave a mean yearly date interval score of 0.954
 * (0.911–0.983) × on draw days and 0.985 (0.975–0.994) × as of every 7th day; 10 gaps lay between, 6 within the noise of 8.
 */
export const DATE_LAW_GAPS = 8;
/** Predicted dates never fall more than this many days after the as-of date (date_range may). */
const MAX_DAYS_AHEAD = 365;
/** date_range covers the central 95% of the gap-sum distribution. */
const DATE_RANGE_LEVEL = 0.95;
/** A category is dormant after max(DORMANT_MIN_DAYS, DORMANT_GAP_MULTIPLE × its 95th-percentile gap) without a draw. */
export const DORMANT_MIN_DAYS = 365;
const DORMANT_GAP_MULTIPLE = 3;

export const DATE_METHOD =
  "predicted_date: step = the median of the last six gaps between the category's draw dates (whole days, " +
  "half rounded up, at least one; a young category with one draw date: the median of every category's recent " +
  'gaps); rank h is the h-th step after the last draw that falls after the as-of date, so a date already past is ' +
  'replaced by the next one on the same cadence; a Saturday or Sunday moves to the following Monday, and each rank ' +
  'falls after the previous one. Ranks more than 365 days after the as-of date are not predicted. date_range: a ' +
  'renewal model of the gaps: the first gap is conditioned on exceeding the days already elapsed since the last ' +
  'draw (if no gap in the distribution is that long, the clock restarts at the as-of date), the h-th draw is the ' +
  'sum of that first gap and h − 1 further independent gaps, computed exactly by convolution; the range is the ' +
  'shortest interval holding the level of that sum (weekends moved to Monday), widened to include predicted_date, and not clipped: a ' +
  "later draw of a slow category may fall more than a year ahead. Past the category's typical gap (the median of its last six " +
  "gaps) the first gap is half the category's own conditioned law and half the program's next round: IRCC draws in rounds " +
  'across categories (draw days of any category within 3 days of the one before form a round), and the gaps between ' +
  "the rounds of the last 730 days, spread ±10% and conditioned on exceeding the days since the program's last round, " +
  'say when the next round comes. A ' +
  "later rank's range is never narrower than the one before and never ends before it (its latest day is moved later if needed).";

export const STALE_DATE_METHOD =
  'A stale feed (the newest draw of any category more than PDI_DRAWS_STALE_DAYS days, default 30, before the as-of ' +
  "date: data_source.stale) has probably missed draws, so the days since a category's last known draw are not a wait: " +
  'its next draw then follows the residual (forward-recurrence) law of the same gap distribution, the wait from an ' +
  'arbitrary day to the next draw, r = 1, 2, … days after the as-of date with weight P(gap ≥ r) ÷ E[gap]; later draws ' +
  "add further independent gaps; the program's rounds do not enter; the levels are the calibrated ones.";

export const DORMANT_RULE =
  'A category is dormant, and not predicted, when its last draw is more than max(365, 3 × the 95th percentile ' +
  'of its gaps between draw dates) days before the as-of date (percentile by linear interpolation; 365 days ' +
  'when it has fewer than two draw dates). When the feed is stale (its newest draw, of any category, more than ' +
  'PDI_DRAWS_STALE_DAYS days before the as-of date: data_source.stale), the silence is counted to that newest draw ' +
  'instead: the draws the feed lacks are unknown, not absent, so only the days the feed covers can show a category ' +
  'has stopped drawing.';

/** 0 = Sunday … 6 = Saturday; day 0 (1970-01-01) was a Thursday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

function isWeekend(day: number): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/** A Saturday or Sunday becomes the following Monday. */
export function weekendToMonday(day: number): number {
  const w = weekday(day);
  return w === 6 ? day + 2 : w === 0 ? day + 1 : day;
}

/** Gaps in days between consecutive distinct dates (same-day draws count once). */
export function gapsBetweenDates(sortedDates: readonly string[]): number[] {
  const days = [...new Set(sortedDates.map(dayNumber))].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < days.length; i++) gaps.push(days[i] - days[i - 1]);
  return gaps;
}

export interface DormancyCheck {
  /** Days from the last draw to the as-of date. */
  daysSinceLastDraw: number;
  /** The day the silence is counted to: the as-of date, or a stale feed's newest draw (the feed knows nothing later). */
  silenceCountedTo: string;
  /** Days from the last draw to silenceCountedTo: what the threshold is compared with. */
  silenceDays: number;
  /** Days without a draw after which the category counts as dormant. */
  thresholdDays: number;
  gapP95: number | null;
  dormant: boolean;
}

/** Days without a draw after which a category with these gaps is dormant: max(365, 3 × their 95th percentile). */
export function dormancyThreshold(gaps: readonly number[]): number {
  return Math.max(DORMANT_MIN_DAYS, gaps.length > 0 ? DORMANT_GAP_MULTIPLE * quantile(gaps, 0.95) : 0);
}

/**
 * DORMANT_RULE. `staleFeedNewest`: the newest draw of any category when the feed is stale (null when it is not); the
 * silence is then counted to it, since days past it without a draw in the feed are days the feed does not cover.
 */
export function checkDormancy(
  lastDrawDate: string,
  gaps: readonly number[],
  asOf: string,
  staleFeedNewest: string | null = null,
): DormancyCheck {
  const daysSinceLastDraw = dayNumber(asOf) - dayNumber(lastDrawDate);
  const silenceCountedTo = staleFeedNewest ?? asOf;
  const silenceDays = dayNumber(silenceCountedTo) - dayNumber(lastDrawDate);
  const gapP95 = gaps.length > 0 ? quantile(gaps, 0.95) : null;
  const thresholdDays = dormancyThreshold(gaps);
  return { daysSinceLastDraw, silenceCountedTo, silenceDays, thresholdDays, gapP95, dormant: silenceDays > thresholdDays };
}

interface PredictedDate {
  rank: number;
  date: string;
  earliest: string;
  latest: string;
  /**
   * The next draw (rank 1) only: its likeliest LIKELY_WINDOW_DAYS days within [earliest, latest] (likeliestWindow), the
   * law's mass in them, the class its probability is calibrated in (null for a stale feed's window: no window of that
   * law was among those the calibration learnt from, so its mass is served), and the range at the calibrated level
   * before it was widened to include `date` (what the level's coverage was measured on).
   */
  likely: {
    earliest: string;
    latest: string;
    mass: number;
    windowClass: WindowClass | null;
    levelRange: { earliest: string; latest: string };
  } | null;
}

export interface DatePrediction {
  /** Days between predicted draws. */
  stepDays: number;
  /** Latest date any prediction may take. */
  capDate: string;
  /** Ranks 1…n; shorter than requested when later ranks would pass the cap. */
  dates: PredictedDate[];
}

/** Weights of gap lengths (days): counts, or smoothed weights (see smoothGaps). */
export type GapWeights = Map<number, number>;

/** Each gap as one count (the exact empirical distribution). */
function gapCounts(gaps: readonly number[]): GapWeights {
  const base: GapWeights = new Map();
  for (const g of gaps) base.set(g, (base.get(g) ?? 0) + 1);
  return base;
}

/**
 * Each gap spread over g − w … g + w days with triangular weights, w = max(1, round(GAP_SMOOTHING × g)): a draw
 * a day or two later than any seen before is possible, not impossible. Every gap keeps a total weight of one.
 */
export function smoothGaps(gaps: readonly number[], weights?: readonly number[]): GapWeights {
  const out: GapWeights = new Map();
  gaps.forEach((g, i) => {
    const w = Math.max(1, Math.round(GAP_SMOOTHING * g));
    const total = (w + 1) ** 2; // Σ_{d=−w..w} (w + 1 − |d|)
    for (let d = -w; d <= w; d++) {
      const day = g + d;
      if (day < 1) continue;
      out.set(day, (out.get(day) ?? 0) + ((weights?.[i] ?? 1) * (w + 1 - Math.abs(d))) / total);
    }
  });
  return out;
}

/** Half-width of the smoothing kernel as a share of the gap. */
const GAP_SMOOTHING = 0.1;

/**
 * Weights of offsets (days after the last draw) of the h-th next draw, h = 1…horizons, under the renewal
 * model described in DATE_METHOD: the first gap conditioned on exceeding `elapsedDays` (if no gap is that long,
 * the clock restarts at the as-of date), then h − 1 further independent gaps, by exact convolution. With counts
 * as `gaps` the weights are counts of gap combinations, so quantiles are exact.
 */
export function gapSumDistributions(gaps: readonly number[] | GapWeights, elapsedDays: number, horizons: number): Map<number, number>[] {
  const base = gaps instanceof Map ? gaps : gapCounts(gaps);
  let first = new Map<number, number>();
  for (const [g, w] of base) if (g > elapsedDays) first.set(g, w);
  if (first.size === 0) {
    first = new Map();
    for (const [g, w] of base) first.set(elapsedDays + g, w);
  }
  const result = [first];
  for (let h = 2; h <= horizons; h++) {
    const previous = result[h - 2];
    const next = new Map<number, number>();
    for (const [s, ws] of previous) for (const [g, wg] of base) next.set(s + g, (next.get(s + g) ?? 0) + ws * wg);
    result.push(next);
  }
  return result;
}

/** Smallest offset whose cumulative weight reaches p of the total. */
export function distributionQuantile(distribution: Map<number, number>, p: number): number {
  const entries = [...distribution.entries()].sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let cumulative = 0;
  for (const [offset, w] of entries) {
    cumulative += w;
    if (cumulative >= p * total - 1e-9 * total) return offset;
  }
  return entries[entries.length - 1][0];
}

export interface DatePredictionOptions {
  /** Central level of date_range for rank h (default DATE_RANGE_LEVEL; the served forecasts pass the calibrated levels). */
  levelFor?: (h: number) => number;
  /** The gap distribution (default: the last RANGE_GAP_COUNT gaps, counted exactly). */
  gapWeights?: GapWeights;
  /** Days between predicted draws when the dates hold fewer than two distinct days (a young category). */
  stepDays?: number;
  /** Every category's draw days up to the as-of date: deep in a wait, the program's rounds inform the next draw (roundRhythm). */
  programDays?: readonly number[];
  /**
   * The feed is stale (its newest draw is older than the staleness limit): draws after the last known one have probably
   * been missed, so the days since it are not a wait. The next draw then follows the residual law (residualGapLaw) from
   * the as-of date, and the program's rounds, whose elapsed wait is as unknown, do not enter.
   */
  elapsedUnknown?: boolean;
}

/**
 * Predicted draw dates of a category from its sorted draw dates and the as-of date. Without options: at least
 * two distinct dates, date_range from the exact distribution of the last twelve gaps at 95%.
 */
export function predictDrawDates(
  sortedDates: readonly string[],
  asOf: string,
  horizons: number,
  options: DatePredictionOptions = {},
): DatePrediction {
  const gaps = gapsBetweenDates(sortedDates);
  if (sortedDates.length === 0) throw new RangeError('date prediction needs at least one draw date');
  if (gaps.length === 0 && (options.stepDays === undefined || options.gapWeights === undefined))
    throw new RangeError('date prediction needs at least two distinct draw dates, or a step and a gap distribution');
  const last = dayNumber(sortedDates[sortedDates.length - 1]);
  const today = dayNumber(asOf);
  if (last > today) throw new RangeError(`last draw ${sortedDates[sortedDates.length - 1]} is after the as-of date ${asOf}`);
  const cap = today + MAX_DAYS_AHEAD;
  const stepDays = Math.max(1, Math.floor((gaps.length > 0 ? median(gaps.slice(-STEP_GAP_COUNT)) : options.stepDays!) + 0.5));
  const elapsed = today - last;
  const firstStep = Math.floor(elapsed / stepDays) + 1;
  const levels = Array.from({ length: horizons }, (_, i) => (options.levelFor ?? (() => DATE_RANGE_LEVEL))(i + 1));
  const typical = typicalGap(gaps, stepDays);
  const unknown = options.elapsedUnknown === true;
  const rounds = unknown || options.programDays === undefined || elapsed <= typical ? null : roundRhythm(options.programDays, last, today);
  const laws = dateLaws(options.gapWeights ?? gapCounts(gaps.slice(-RANGE_GAP_COUNT)), last, elapsed, horizons, rounds, unknown);
  const intervals = laws.map(({ days, total }) => levels.map((level) => shortestWindow(days, total, level, last)));
  const dates: PredictedDate[] = [];
  const bounds: [number, number][] = [];
  let previous = today;
  for (let h = 1; h <= horizons; h++) {
    let day = weekendToMonday(last + (firstStep + h - 1) * stepDays);
    if (day <= previous) day = weekendToMonday(previous + 1);
    if (day > cap) break;
    const level = intervals[h - 1][h - 1];
    let [earliest, latest] = level;
    earliest = Math.min(earliest, day);
    latest = Math.max(latest, day);
    if (h > 1) [earliest, latest] = neverNarrower([earliest, latest], bounds[h - 2]);
    bounds.push([earliest, latest]);
    const window = h === 1 ? likeliestWindow(laws[0], last, today + 1, [earliest, latest]) : null;
    dates.push({
      rank: h,
      date: isoFromDayNumber(day),
      earliest: isoFromDayNumber(earliest),
      latest: isoFromDayNumber(latest),
      likely: window && {
        earliest: isoFromDayNumber(window.earliest),
        latest: isoFromDayNumber(window.latest),
        mass: window.mass,
        windowClass: unknown ? null : windowClass(elapsed, typical),
        levelRange: { earliest: isoFromDayNumber(level[0]), latest: isoFromDayNumber(level[1]) },
      },
    });
    previous = day;
  }
  return { stepDays, capDate: isoFromDayNumber(cap), dates };
}

/**
 * What a likely window's probability is calibrated with (metrics.ts, likelyCalibration): windows asked for on the draw
 * day, later within the category's typical gap, and past it (where the program's rounds enter the law) hold their draw
 * at different rates for the same mass.
 */
export type WindowClass = 'draw_day' | 'within_typical_gap' | 'past_typical_gap';
export const WINDOW_CLASSES: readonly WindowClass[] = ['draw_day', 'within_typical_gap', 'past_typical_gap'];

export function windowClass(elapsed: number, typical: number): WindowClass {
  return elapsed === 0 ? 'draw_day' : elapsed <= typical ? 'within_typical_gap' : 'past_typical_gap';
}

/** A category's typical gap: the median of its last STEP_GAP_COUNT gaps (`fallback` without any); past it the round rhythm counts. */
export function typicalGap(gaps: readonly number[], fallback: number): number {
  return gaps.length > 0 ? median(gaps.slice(-STEP_GAP_COUNT)) : fallback;
}

/**
 * A later draw's range widened, never narrowed, so that it is at least as wide as the draw before and ends no earlier:
 * the shortest windows of two gap sums (at levels calibrated per rank) can otherwise give the later draw a shorter
 * range, claiming more certainty about a draw further away. A latest day moved onto a weekend goes on to the Monday.
 */
export function neverNarrower(range: readonly [number, number], before: readonly [number, number]): [number, number] {
  const [earliest, latest] = range;
  const widened = Math.max(latest, before[1], earliest + (before[1] - before[0]));
  return [earliest, widened === latest ? latest : weekendToMonday(widened)];
}

/**
 * The shortest run of days [lastDay + a, lastDay + b] whose weight reaches `level` of `total` (the earliest such run
 * on a tie): for a category with a steady rhythm and a few odd gaps this is a window around the rhythm, where the
 * central interval would stretch to both odd tails.
 */
function shortestWindow(days: Float64Array, total: number, level: number, lastDay: number): [number, number] {
  const need = level * total - 1e-9 * total;
  let best: [number, number] = [-1, -1];
  let sum = 0;
  let j = 0;
  for (let i = 0; i < days.length; i++) {
    // A run starting on a day of no weight is never shorter than the one starting on the next day that has some.
    if (days[i] === 0) continue;
    while (j < days.length && sum < need) sum += days[j++];
    if (sum < need) break;
    // j − 1 is the day whose weight completed the run: it carries weight, so the run is i … j − 1.
    if (best[0] < 0 || j - 1 - i < best[1] - best[0]) best = [i, j - 1];
    sum -= days[i];
  }
  if (best[0] < 0) best = [0, days.length - 1];
  return [lastDay + best[0], lastDay + best[1]];
}

/** One draw's date law, dense: weight by offset (days after the last draw), weekend weight moved to the Monday after. */
export interface DateLaw {
  days: Float64Array;
  total: number;
}

/**
 * The same distributions as gapSumDistributions, dense (index = offset in days) and moved to business days from
 * `lastDay`, for every horizon: what dateIntervals and likeliestWindow read.
 */
export function dateLaws(
  base: GapWeights,
  lastDay: number,
  elapsedDays: number,
  horizons: number,
  /** Offsets of the program's next round (roundRhythm): given, it is ROUND_WEIGHT of the first gap's law. */
  rounds: GapWeights | null = null,
  /** The days elapsed are not a wait (a stale feed): the first draw follows residualGapLaw from the as-of date. */
  elapsedUnknown = false,
): DateLaw[] {
  const entries = [...base.entries()];
  const gs = Int32Array.from(entries.map(([g]) => g));
  const gw = Float64Array.from(entries.map(([, w]) => w));
  let maxGap = 0;
  for (const g of gs) maxGap = Math.max(maxGap, g);
  let first: [number, number][];
  if (elapsedUnknown) first = [...residualGapLaw(base)].map(([r, w]) => [elapsedDays + r, w]);
  else {
    first = entries.filter(([g]) => g > elapsedDays);
    if (first.length === 0) first = entries.map(([g, w]) => [elapsedDays + g, w]);
  }
  if (rounds !== null) first = mixture(first, [...rounds.entries()], ROUND_WEIGHT);
  let current = new Float64Array(Math.max(...first.map(([g]) => g)) + 1);
  for (const [g, w] of first) current[g] += w;
  const result: DateLaw[] = [];
  for (let h = 1; h <= horizons; h++) {
    if (h > 1) {
      const next = new Float64Array(current.length + maxGap);
      const n = gs.length;
      for (let s = 0; s < current.length; s++) {
        const ws = current[s];
        if (ws === 0) continue;
        for (let j = 0; j < n; j++) next[s + gs[j]] += ws * gw[j];
      }
      current = next;
    }
    const days = new Float64Array(current.length + 2);
    let total = 0;
    for (let o = 0; o < current.length; o++) {
      if (current[o] === 0) continue;
      const w = weekday(lastDay + o);
      days[o + (w === 6 ? 2 : w === 0 ? 1 : 0)] += current[o];
      total += current[o];
    }
    result.push({ days, total });
  }
  return result;
}

/**
 * The forward-recurrence (residual) time of a renewal process with these gaps, seen from an arbitrary day: the next
 * event comes r = 1, 2, … days later with weight P(gap ≥ r) ÷ E[gap] (so P(R > t) = Σ_{u>t} P(gap > u) ÷ E[gap]; a
 * long gap is more likely to span a given day, and a day inside it is on average half of it from its end). This is the
 * next draw's law when the days since the last known draw say nothing of the wait: a stale feed has probably missed
 * draws since, so the wait conditioned on those days (no draw for a year, longer than any gap) would claim a draw
 * within days. Weights sum to 1.
 */
export function residualGapLaw(base: GapWeights): GapWeights {
  let maxGap = 0;
  // Σ gap × weight: E[gap] times the total weight, so that the weights below sum to 1.
  let lengthWeight = 0;
  for (const [g, w] of base) {
    maxGap = Math.max(maxGap, g);
    lengthWeight += g * w;
  }
  const out: GapWeights = new Map();
  if (lengthWeight <= 0) return out;
  const atLeast = new Float64Array(maxGap + 2);
  for (const [g, w] of base) atLeast[g] += w;
  for (let r = maxGap - 1; r >= 1; r--) atLeast[r] += atLeast[r + 1];
  for (let r = 1; r <= maxGap; r++) if (atLeast[r] > 0) out.set(r, atLeast[r] / lengthWeight);
  return out;
}

/**
 * The shortest interval holding each of `levels` of the h-th draw's law, for every horizon: the fast form the
 * walk-forward uses for every draw of every category.
 */
export function dateIntervals(
  base: GapWeights,
  lastDay: number,
  elapsedDays: number,
  horizons: number,
  levels: readonly number[],
  rounds: GapWeights | null = null,
): [number, number][][] {
  return dateLaws(base, lastDay, elapsedDays, horizons, rounds).map(({ days, total }) =>
    levels.map((level) => shortestWindow(days, total, level, lastDay)),
  );
}

/**
 * Calendar days of the likely window, the first and the last included: three weeks, the width the benchmark's date
 * target asks of dates a person can plan with (21 days), which no range calibrated to hold 90% reaches in years with
 * breaks.
 */
export const LIKELY_WINDOW_DAYS = 21;

/** A run of LIKELY_WINDOW_DAYS days (day numbers) and the share of the law's weight it holds. */
export interface LikelyWindow {
  earliest: number;
  latest: number;
  mass: number;
}

/**
 * The run of `width` calendar days holding the most of the law's weight (on a tie the earliest opening on a weekday), starting no earlier
 * than `firstDay` (the day after the as-of date). Runs inside `span` (day numbers: the served range, or every day
 * the law reaches) are considered, or, when the span is shorter than `width`, runs that contain it: the window then
 * nests with the served range, and the two statements cannot contradict each other.
 */
export function likeliestWindow(
  law: DateLaw,
  lastDay: number,
  firstDay: number,
  span: readonly [number, number],
  width = LIKELY_WINDOW_DAYS,
): LikelyWindow {
  const weight = (offset: number) => (offset >= 0 && offset < law.days.length ? law.days[offset] : 0);
  const [a, b] = [span[0] - lastDay, span[1] - lastDay];
  const lo = b - a + 1 >= width ? a : Math.max(b - width + 1, firstDay - lastDay);
  const hi = Math.max(lo, b - a + 1 >= width ? b - width + 1 : a);
  let sum = 0;
  for (let o = lo; o < lo + width; o++) sum += weight(o);
  let best = { start: lo, sum };
  for (let start = lo + 1; start <= hi; start++) {
    sum += weight(start + width - 1) - weight(start - 1);
    // On a tie a window opening on a weekday beats one opening on a weekend (the same draw days, said more plainly).
    const better = sum > best.sum + 1e-12 * law.total;
    const tie = !better && sum >= best.sum - 1e-12 * law.total;
    if (better || (tie && isWeekend(lastDay + best.start) && !isWeekend(lastDay + start))) best = { start, sum };
  }
  return {
    earliest: lastDay + best.start,
    latest: lastDay + best.start + width - 1,
    mass: law.total > 0 ? Math.min(1, best.sum / law.total) : 0,
  };
}

/** Weights of `b` at `share` of the total and `a` at the rest, each normalised first. */
function mixture(a: readonly [number, number][], b: readonly [number, number][], share: number): [number, number][] {
  const total = (xs: readonly [number, number][]) => xs.reduce((sum, [, w]) => sum + w, 0);
  const out = new Map<number, number>();
  for (const [xs, weight] of [
    [a, (1 - share) / total(a)],
    [b, share / total(b)],
  ] as const)
    for (const [offset, w] of xs) out.set(offset, (out.get(offset) ?? 0) + w * weight);
  return [...out.entries()];
}

/** Draw days of any category within this many days of the previous one belong to the same round of the program. */
const ROUND_SPAN_DAYS = 3;
/** Rounds of this many days up to the as-of date give the program's rhythm (the two years the levels look back on). */
const ROUND_WINDOW_DAYS = 730;
/**
 * Share of the program's next round in the first gap's law past a category's typical gap: of 0.3, 0.5 and 0.7 on the
 * 2023–2024 as-of days (docs/draws.md, "Date ranges"), the one whose gain held when the threshold moved; the round
 * alone misses too often.
 */
const ROUND_WEIGHT = 0.5;

/** The first day of each round of the program: sorted draw days, a day more than ROUND_SPAN_DAYS after the one before opening a round. */
export function programRounds(sortedDays: readonly number[]): number[] {
  const starts: number[] = [];
  let previous = -Infinity;
  for (const day of sortedDays) {
    if (day - previous > ROUND_SPAN_DAYS) starts.push(day);
    previous = Math.max(previous, day);
  }
  return starts;
}

/**
 * When the program's next round comes, as offsets from a category's last draw: the gaps between the program's rounds
 * of the last ROUND_WINDOW_DAYS, spread as smoothGaps does, conditioned on exceeding the days since its last round (and
 * falling after the as-of date). Deep in a category's wait this says more than the category's own gaps: a break of the
 * whole program ends with its next round. Null with fewer than two rounds, or no gap that long.
 */
export function roundRhythm(programDays: readonly number[], lastDay: number, asOfDay: number): GapWeights | null {
  const rounds = programRounds(programDays.filter((d) => d <= asOfDay));
  const lastRound = rounds.at(-1);
  if (lastRound === undefined) return null;
  const gaps: number[] = [];
  for (let i = 1; i < rounds.length; i++) if (rounds[i] > asOfDay - ROUND_WINDOW_DAYS) gaps.push(rounds[i] - rounds[i - 1]);
  const out: GapWeights = new Map();
  for (const [g, w] of smoothGaps(gaps)) if (lastRound + g > asOfDay) out.set(lastRound - lastDay + g, w);
  return out.size > 0 ? out : null;
}
