// When the next draws of a category fall. Point dates step the median of the last six gaps from the last
// draw; the ranges come from the distribution of recent gaps, treated as a renewal process.
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { median, quantile } from './statistics.ts';

/** Gaps whose median is the step between predicted draws. */
export const STEP_GAP_COUNT = 6;
/** Recent gaps whose empirical distribution gives date_range. */
export const RANGE_GAP_COUNT = 12;
/** Predicted dates never fall more than this many days after the as-of date. */
export const MAX_DAYS_AHEAD = 365;
/** date_range covers the central 95% of the gap-sum distribution. */
export const DATE_RANGE_LEVEL = 0.95;
/** A category is dormant after max(DORMANT_MIN_DAYS, DORMANT_GAP_MULTIPLE × its 95th-percentile gap) without a draw. */
export const DORMANT_MIN_DAYS = 365;
export const DORMANT_GAP_MULTIPLE = 3;

export const DATE_METHOD =
  "predicted_date: step = the median of the last six gaps between the category's draw dates (whole days, " +
  'half rounded up, at least one); rank h is the h-th step after the last draw that falls after the as-of ' +
  'date, so a date already past is replaced by the next one on the same cadence; a Saturday or Sunday moves ' +
  'to the following Monday, and each rank falls after the previous one. Ranks more than 365 days after the ' +
  'as-of date are not predicted. date_range: the last twelve gaps (or all, if fewer) form an empirical gap ' +
  'distribution; the first gap is conditioned on exceeding the days already elapsed since the last draw ' +
  '(if no recorded gap is that long, the clock restarts at the as-of date), the h-th draw is the sum of that ' +
  'first gap and h − 1 further independent gaps, computed exactly by convolution; earliest and latest are ' +
  'the 2.5% and 97.5% quantiles of that sum, moved off weekends, widened to include predicted_date and ' +
  'capped at 365 days after the as-of date.';

export const DORMANT_RULE =
  'A category is dormant, and not predicted, when its last draw is more than max(365, 3 × the 95th percentile ' +
  'of its gaps between draw dates) days before the as-of date (percentile by linear interpolation; 365 days ' +
  'when it has fewer than two draw dates).';

/** 0 = Sunday … 6 = Saturday; day 0 (1970-01-01) was a Thursday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** A Saturday or Sunday becomes the following Monday. */
export function weekendToMonday(day: number): number {
  const w = weekday(day);
  return w === 6 ? day + 2 : w === 0 ? day + 1 : day;
}

/** A Saturday or Sunday becomes the preceding Friday (for caps, which must not be exceeded). */
function weekendToFriday(day: number): number {
  const w = weekday(day);
  return w === 6 ? day - 1 : w === 0 ? day - 2 : day;
}

/** Gaps in days between consecutive distinct dates (same-day draws count once). */
export function gapsBetweenDates(sortedDates: readonly string[]): number[] {
  const days = [...new Set(sortedDates.map(dayNumber))].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < days.length; i++) gaps.push(days[i] - days[i - 1]);
  return gaps;
}

export interface DormancyCheck {
  daysSinceLastDraw: number;
  /** Days without a draw after which the category counts as dormant. */
  thresholdDays: number;
  gapP95: number | null;
  dormant: boolean;
}

export function checkDormancy(lastDrawDate: string, gaps: readonly number[], asOf: string): DormancyCheck {
  const daysSinceLastDraw = dayNumber(asOf) - dayNumber(lastDrawDate);
  const gapP95 = gaps.length > 0 ? quantile(gaps, 0.95) : null;
  const thresholdDays = Math.max(DORMANT_MIN_DAYS, gapP95 === null ? 0 : DORMANT_GAP_MULTIPLE * gapP95);
  return { daysSinceLastDraw, thresholdDays, gapP95, dormant: daysSinceLastDraw > thresholdDays };
}

export interface PredictedDate {
  rank: number;
  date: string;
  earliest: string;
  latest: string;
}

export interface DatePrediction {
  /** Days between predicted draws. */
  stepDays: number;
  /** Latest date any prediction may take. */
  capDate: string;
  /** Ranks 1…n; shorter than requested when later ranks would pass the cap. */
  dates: PredictedDate[];
}

/**
 * Integer weights of offsets (days after the last draw) of the h-th next draw, h = 1…horizons, under the
 * renewal model described in DATE_METHOD. Weights are counts of gap combinations, so quantiles are exact.
 */
export function gapSumDistributions(gaps: readonly number[], elapsedDays: number, horizons: number): Map<number, number>[] {
  const base = new Map<number, number>();
  for (const g of gaps) base.set(g, (base.get(g) ?? 0) + 1);
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

/** Predicted draw dates of a category from its sorted draw dates (at least two distinct) and the as-of date. */
export function predictDrawDates(sortedDates: readonly string[], asOf: string, horizons: number): DatePrediction {
  const gaps = gapsBetweenDates(sortedDates);
  if (gaps.length === 0) throw new RangeError('date prediction needs at least two distinct draw dates');
  const last = dayNumber(sortedDates[sortedDates.length - 1]);
  const today = dayNumber(asOf);
  if (last > today) throw new RangeError(`last draw ${sortedDates[sortedDates.length - 1]} is after the as-of date ${asOf}`);
  const cap = today + MAX_DAYS_AHEAD;
  const capBusiness = weekendToFriday(cap);
  const stepDays = Math.max(1, Math.floor(median(gaps.slice(-STEP_GAP_COUNT)) + 0.5));
  const elapsed = today - last;
  const firstStep = Math.floor(elapsed / stepDays) + 1;
  const distributions = gapSumDistributions(gaps.slice(-RANGE_GAP_COUNT), elapsed, horizons);
  const tail = (1 - DATE_RANGE_LEVEL) / 2;
  const dates: PredictedDate[] = [];
  let previous = today;
  for (let h = 1; h <= horizons; h++) {
    let day = weekendToMonday(last + (firstStep + h - 1) * stepDays);
    if (day <= previous) day = weekendToMonday(previous + 1);
    if (day > cap) break;
    const distribution = distributions[h - 1];
    let earliest = weekendToMonday(last + distributionQuantile(distribution, tail));
    let latest = weekendToMonday(last + distributionQuantile(distribution, 1 - tail));
    earliest = Math.min(earliest, day);
    latest = Math.min(Math.max(latest, day), capBusiness);
    dates.push({ rank: h, date: isoFromDayNumber(day), earliest: isoFromDayNumber(earliest), latest: isoFromDayNumber(latest) });
    previous = day;
  }
  return { stepDays, capDate: isoFromDayNumber(cap), dates };
}
