// What the served date ranges are worth to a person, and what the draws allow. Two views beside the rolling-origin
// benchmark (whose origins are draw days, when nothing has elapsed yet): (1) as-of days spread through every gap —
// a person asks on any day, and the range they are served is conditioned on the days already elapsed; (2) the widths
// the real gaps allow: for each width, the share of next draws a window of that width would have held had it been
// chosen per category in hindsight, knowing the period's gaps exactly. A forecast made beforehand beats that fixed
// window only as far as it foresees changes in a category's rhythm, so it bounds what a width target can ask.
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { dormancyThreshold } from './draw-dates.ts';
import { forecastPanel, statedLikelyProbability } from './forecast-panel.ts';
import type { CategoryDrawsInput, PanelForecast, PanelForecastOptions } from './forecast-panel.ts';
import { DATE_INTERVAL_TARGET, likelyProbability, windowCalibration } from './metrics.ts';
import { ACTIVE_DAYS, panelOf, winkler } from './rolling-origin.ts';
import type { LikelyStatement } from './rolling-origin.ts';
import { mean, median, quantile } from './statistics.ts';
import { truncateWalk, walkForward } from './walk-forward.ts';

/** One served next-draw date range, as of a day, beside the next draw that followed. */
export interface AsOfDateRecord {
  category: string;
  asOf: string;
  /** Days from the category's last draw to the as-of date. */
  elapsed: number;
  /** The next draw after the as-of date. */
  actual: string;
  range: [string, string];
  /** The likely window served beside the range (null when none was). */
  likely: LikelyStatement | null;
  /** At least two draw days in the ACTIVE_DAYS up to the as-of date. */
  active: boolean;
  /** The next draw came after a pause longer than the category's dormancy threshold (afterDormancyPause). */
  afterPause: boolean;
}

/**
 * The next draw's served date range of every forecast category, as of every `everyDays`-th day from `from` to `to`
 * (both included), beside the next draw that came; a category with no later draw in the data is left out. Each
 * forecast is forecastPanel's on the draws known that day.
 */
export function asOfDayDateRecords(
  categories: readonly CategoryDrawsInput[],
  from: string,
  to: string,
  everyDays = 7,
  options: Pick<PanelForecastOptions, 'roundRhythm' | 'staleAfterDays'> = {},
): AsOfDateRecord[] {
  if (!(Number.isInteger(everyDays) && everyDays >= 1)) throw new RangeError(`everyDays must be a positive integer, got ${everyDays}`);
  const panel = panelOf(categories);
  const walk = walkForward(panel);
  const records: AsOfDateRecord[] = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day += everyDays) {
    const asOf = isoFromDayNumber(day);
    const forecast = forecastPanel(categories, asOf, { ...options, report: false, walk, horizons: 1 });
    for (const c of forecast.categories) {
      const next = nextDrawStatement(forecast, c.slug);
      const draws = panel.find((x) => x.slug === c.slug)!.draws;
      const actual = draws.find((d) => d.day > day);
      if (next === null || actual === undefined || c.lastDate === null) continue;
      records.push({
        category: c.slug,
        asOf,
        elapsed: day - dayNumber(c.lastDate),
        actual: isoFromDayNumber(actual.day),
        ...next,
        active: new Set(draws.filter((d) => d.day <= day && d.day > day - ACTIVE_DAYS).map((d) => d.day)).size >= 2,
        afterPause: afterDormancyPause(
          draws.map((d) => d.day),
          day,
          actual.day,
        ),
      });
    }
  }
  return records;
}

export interface DateRangeSummary {
  n: number;
  coverage: number | null;
  /**
   * Mean Winkler interval score (days) of the ranges as 90% intervals: width plus 2/0.1 times the days by which the
   * draw fell outside. Coverage and width in one figure, lower is better: a narrower range gains only while it holds.
   */
  intervalScore: number | null;
  activeN: number;
  /** Median latest − earliest (days) of the active categories' ranges. */
  medianWidthActive: number | null;
}

export function summariseDateRanges(records: readonly Pick<AsOfDateRecord, 'actual' | 'range' | 'active'>[]): DateRangeSummary {
  const active = records.filter((r) => r.active);
  const alpha = 1 - DATE_INTERVAL_TARGET;
  return {
    n: records.length,
    coverage: records.length > 0 ? records.filter((r) => r.actual >= r.range[0] && r.actual <= r.range[1]).length / records.length : null,
    intervalScore:
      records.length > 0
        ? mean(records.map((r) => winkler(dayNumber(r.range[0]), dayNumber(r.range[1]), dayNumber(r.actual), alpha)))
        : null,
    activeN: active.length,
    medianWidthActive: active.length > 0 ? median(active.map((r) => dayNumber(r.range[1]) - dayNumber(r.range[0]))) : null,
  };
}

/** A next draw seen from its category's previous draw day: the gap (days) and the category. */
export interface NextGap {
  category: string;
  gap: number;
}

/**
 * For each width w (days, latest − earliest as the served ranges count it), the share of the next gaps a window
 * [a, a + w] days after the last draw holds when a is chosen per category in hindsight to hold the most of that
 * category's gaps: the coverage a category's fixed window could reach, knowing the period's gaps exactly.
 */
export function hindsightWindowCoverage(gaps: readonly NextGap[], widths: readonly number[]): { width: number; coverage: number | null }[] {
  const byCategory = new Map<string, number[]>();
  for (const g of gaps) byCategory.set(g.category, [...(byCategory.get(g.category) ?? []), g.gap]);
  return widths.map((width) => {
    if (gaps.length === 0) return { width, coverage: null };
    let held = 0;
    for (const own of byCategory.values()) {
      const sorted = [...own].sort((a, b) => a - b);
      let best = 0;
      // The best window starts at one of the gaps (moving it later until its start meets a gap loses nothing).
      for (let i = 0, j = 0; i < sorted.length; i++) {
        while (j < sorted.length && sorted[j] <= sorted[i] + width) j++;
        best = Math.max(best, j - i);
      }
      held += best;
    }
    return { width, coverage: held / gaps.length };
  });
}

/** The spread of a category's next gaps: how many, and their 5%, 50% and 95% quantiles (linear interpolation). */
export function gapSpread(gaps: readonly NextGap[]): { category: string; n: number; p05: number; p50: number; p95: number }[] {
  const byCategory = new Map<string, number[]>();
  for (const g of gaps) byCategory.set(g.category, [...(byCategory.get(g.category) ?? []), g.gap]);
  return [...byCategory.entries()]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .map(([category, own]) => ({ category, n: own.length, p05: quantile(own, 0.05), p50: quantile(own, 0.5), p95: quantile(own, 0.95) }));
}

/**
 * Whether the next draw (day `nextDay`) of a category with these draw days came after a pause longer than its dormancy
 * threshold as of `asOfDay` (from its gaps up to then, as the walk-forward judges a target): such a return follows a
 * change of the program (General's pause of 2020–2022, CEC's of 2021–2024), which no gap law foresees; the category
 * turns dormant, and is no longer forecast, once the threshold has passed.
 */
export function afterDormancyPause(days: readonly number[], asOfDay: number, nextDay: number): boolean {
  const known = [...new Set(days.filter((d) => d <= asOfDay))].sort((a, b) => a - b);
  if (known.length === 0) return false;
  const gaps = known.slice(1).map((d, i) => d - known[i]);
  return nextDay - 1 - known[known.length - 1] > dormancyThreshold(gaps);
}

type DatedRange = Pick<AsOfDateRecord, 'asOf' | 'actual' | 'range' | 'active'>;

/** summariseDateRanges of each calendar year of the as-of dates, oldest first. */
export function summariseByYear(records: readonly DatedRange[]): { year: string; summary: DateRangeSummary }[] {
  const years = [...new Set(records.map((r) => r.asOf.slice(0, 4)))].sort();
  return years.map((year) => ({ year, summary: summariseDateRanges(records.filter((r) => r.asOf.startsWith(year))) }));
}

/**
 * The mean over calendar years of each year's mean interval score: every year weighs the same, whatever its number of
 * ranges (the years of 2023–2024, with nine categories drawing, would otherwise outweigh 2019–2022's three or four).
 */
export function meanYearlyIntervalScore(records: readonly DatedRange[]): number | null {
  const scores = summariseByYear(records).map((y) => y.summary.intervalScore!);
  return scores.length > 0 ? mean(scores) : null;
}

/** Stated probabilities are grouped into this many equal bins for the reliability table and the calibration error. */
const LIKELY_BINS = 10;

export interface LikelyWindowSummary {
  n: number;
  /** Mean stated probability, and the share of draws that fell in their window. */
  meanStated: number | null;
  hitRate: number | null;
  /** Mean (stated − outcome)², and the same for the reference (the hit rate of the windows known at each origin). */
  brier: number | null;
  referenceBrier: number | null;
  /** 1 − brier ÷ referenceBrier: above 0 the stated probabilities say more than the windows' past hit rate. */
  skill: number | null;
  /** The same Brier score and calibration error of the law's own mass in the windows (before calibration). */
  massBrier: number | null;
  massEce: number | null;
  massMean: number | null;
  /** Expected calibration error: Σ over bins of (statements in it ÷ n) × |mean stated − share that held|. */
  ece: number | null;
  /** Reliability table: statements with from ≤ p < to (the last bin includes 1). */
  bins: { from: number; to: number; n: number; stated: number | null; observed: number | null }[];
  /** Median calendar days from the as-of date to the window's first day. */
  medianLead: number | null;
}

/** How the stated probabilities of likely windows fared against the draws that came. */
export function summariseLikelyWindows(
  records: readonly { asOf: string; actual: string; likely: LikelyStatement | null }[],
): LikelyWindowSummary {
  const rs = records.filter(
    (r): r is typeof r & { likely: LikelyStatement } => r.likely !== null && r.likely.reference !== null && r.likely.mass !== null,
  );
  const held = rs.map((r) => (r.actual >= r.likely.range[0] && r.actual <= r.likely.range[1] ? 1 : 0));
  const table = (stated: (r: (typeof rs)[number]) => number) => {
    const bins = Array.from({ length: LIKELY_BINS }, (_, i) => ({
      from: i / LIKELY_BINS,
      to: (i + 1) / LIKELY_BINS,
      n: 0,
      sum: 0,
      hits: 0,
    }));
    rs.forEach((r, i) => {
      const bin = bins[Math.min(LIKELY_BINS - 1, Math.floor(stated(r) * LIKELY_BINS))];
      bin.n++;
      bin.sum += stated(r);
      bin.hits += held[i];
    });
    return bins;
  };
  const bins = table((r) => r.likely.probability);
  const ece = (bs: typeof bins) => bs.reduce((sum, b) => sum + (b.n > 0 ? (b.n / n) * Math.abs(b.sum / b.n - b.hits / b.n) : 0), 0);
  const n = rs.length;
  if (n === 0)
    return {
      n,
      meanStated: null,
      hitRate: null,
      brier: null,
      referenceBrier: null,
      skill: null,
      massBrier: null,
      massEce: null,
      massMean: null,
      ece: null,
      bins: [],
      medianLead: null,
    };
  const brier = mean(rs.map((r, i) => (r.likely.probability - held[i]) ** 2));
  const referenceBrier = mean(rs.map((r, i) => (r.likely.reference! - held[i]) ** 2));
  return {
    n,
    meanStated: mean(rs.map((r) => r.likely.probability)),
    hitRate: mean(held),
    brier,
    referenceBrier,
    skill: referenceBrier > 0 ? 1 - brier / referenceBrier : null,
    massBrier: mean(rs.map((r, i) => (r.likely.mass! - held[i]) ** 2)),
    massEce: ece(table((r) => r.likely.mass!)),
    massMean: mean(rs.map((r) => r.likely.mass!)),
    ece: ece(bins),
    bins: bins.map((b) => ({
      from: b.from,
      to: b.to,
      n: b.n,
      stated: b.n > 0 ? b.sum / b.n : null,
      observed: b.n > 0 ? b.hits / b.n : null,
    })),
    medianLead: median(rs.map((r) => dayNumber(r.likely.range[0]) - dayNumber(r.asOf))),
  };
}

/**
 * A next-draw date statement as served: the range and the likely window (null when none was served), with the range at
 * the calibrated level the window's probability is nested with (CategoryForecast.likelyLevelRange).
 */
interface DateStatement {
  range: [string, string];
  likely: LikelyStatement | null;
  levelRange: [string, string] | null;
}

/** The next draw's date statement a forecast serves for a category (null when it forecasts none). */
function nextDrawStatement(forecast: PanelForecast, slug: string): DateStatement | null {
  const c = forecast.categories.find((x) => x.slug === slug)!;
  const next = c.predictions.find((p) => p.rank === 1);
  return next === undefined
    ? null
    : {
        range: [next.date_range.earliest, next.date_range.latest],
        levelRange: c.likelyLevelRange,
        likely: next.likely_window && {
          range: [next.likely_window.earliest, next.likely_window.latest],
          probability: next.likely_window.probability,
          reference: forecast.likelyWindows.all.baseRate,
          mass: c.likelyMass,
        },
      };
}

/** One category's next draw after an origin, forecast from a feed that stopped `hiddenDays` before it, both ways. */
export interface StaleFeedRecord {
  category: string;
  /** The origin T: forecasts are made as of it. */
  asOf: string;
  /** The feed stops this many days before T: draws in (T − hiddenDays, T] are hidden. */
  hiddenDays: number;
  /** The true next draw after T. */
  actual: string;
  /** The date law conditioned on the days since the last known draw (the fresh feed's law). */
  conditioned: DateStatement;
  /** The residual law a stale feed is served (draw-dates.ts, residualGapLaw). */
  residual: DateStatement;
}

/**
 * The stale-feed backtest: for origins T on every `everyDays`-th day from `from` to `to`, and each k of `hiddenDays`,
 * the feed is cut k days before T (draws after T − k hidden) and every forecast category's next draw after T is
 * forecast as of T from it, with the law conditioned on the days since the last known draw and with the residual law
 * served for stale feeds, beside the true next draw after T. Only draws on or before `through` are read: a category
 * whose next draw after T falls later is left out (the years after stay unseen).
 */
export function staleFeedRecords(
  categories: readonly CategoryDrawsInput[],
  from: string,
  to: string,
  through: string,
  hiddenDays: readonly number[],
  everyDays = 7,
): StaleFeedRecord[] {
  if (!(Number.isInteger(everyDays) && everyDays >= 1)) throw new RangeError(`everyDays must be a positive integer, got ${everyDays}`);
  const seen = categories.map((c) => ({ ...c, draws: c.draws.filter((d) => d.date <= through) }));
  const panel = panelOf(seen);
  const walk = walkForward(panel);
  const records: StaleFeedRecord[] = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day += everyDays) {
    const asOf = isoFromDayNumber(day);
    for (const k of hiddenDays) {
      const cut = isoFromDayNumber(day - k);
      const known = seen.map((c) => ({ ...c, draws: c.draws.filter((d) => d.date <= cut) }));
      const options = { report: false, walk: truncateWalk(walk, day - k), horizons: 1 };
      const ways = [forecastPanel(known, asOf, options), forecastPanel(known, asOf, { ...options, staleAfterDays: 0 })];
      for (const c of panel) {
        const actual = c.draws.find((d) => d.day > day);
        const [conditioned, residual] = ways.map((w) => nextDrawStatement(w, c.slug));
        if (actual === undefined || conditioned === null || residual === null) continue;
        records.push({ category: c.slug, asOf, hiddenDays: k, actual: isoFromDayNumber(actual.day), conditioned, residual });
      }
    }
  }
  return records;
}

/** A stale feed's likely window restated by a map fitted on other windows (leaveOneYearOutWindows). */
export interface RestatedWindow {
  asOf: string;
  hiddenDays: number;
  actual: string;
  /** The window as restated: its probability the map's, its reference the share of the map's windows that held. */
  likely: LikelyStatement;
  /** The window as served: the law's own mass within the nesting bounds, with the same reference. */
  served: LikelyStatement;
}

/**
 * Leave-one-year-out recalibration of the stale feed's likely windows (the residual law's, StaleFeedRecord.residual):
 * the window of an origin in year Y is stated by the map (metrics.ts, windowCalibration: isotonic on the law's mass, as
 * the fresh windows' maps) fitted on the windows of the other calendar years of origin only, of the same `group`
 * (every window in one map by default), within the nesting bounds the served probability keeps. Its reference (and the
 * served window's, beside it) is the share of those other years' windows that held: a constant a map must beat.
 */
export function leaveOneYearOutWindows(
  records: readonly StaleFeedRecord[],
  group: (r: StaleFeedRecord) => string | number = () => '',
): RestatedWindow[] {
  const rs = records.filter((r) => r.residual.likely?.mass != null && r.residual.levelRange !== null);
  const held = (r: StaleFeedRecord) => r.actual >= r.residual.likely!.range[0] && r.actual <= r.residual.likely!.range[1];
  const maps = new Map<string, ReturnType<typeof windowCalibration>>();
  const mapFor = (year: string, g: string | number) => {
    const key = `${year}|${g}`;
    if (!maps.has(key))
      maps.set(
        key,
        windowCalibration(
          rs.filter((o) => !o.asOf.startsWith(year) && group(o) === g).map((o) => ({ score: o.residual.likely!.mass!, outcome: held(o) })),
        ),
      );
    return maps.get(key)!;
  };
  return rs.map((r) => {
    const calibration = mapFor(r.asOf.slice(0, 4), group(r));
    const likely = r.residual.likely!;
    const probability = statedLikelyProbability(
      likelyProbability(calibration, likely.mass!),
      likely.range,
      r.residual.range,
      r.residual.levelRange!,
    );
    return {
      asOf: r.asOf,
      hiddenDays: r.hiddenDays,
      actual: r.actual,
      likely: { ...likely, probability, reference: calibration.baseRate },
      served: { ...likely, reference: calibration.baseRate },
    };
  });
}
