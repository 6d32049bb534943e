// The entry point: every category's draws and an as-of date in; each category's status, its predictions (date,
// CRS cut-off and invitations with 95% intervals) and the backtests behind them out. Only draws on or before
// the as-of date are used. Pure and deterministic: the same draws and as-of date give the same result.
import { dayNumber, isoFromDayNumber, isValidIsoDate } from '../feed/ircc-dates.ts';
import { checkDormancy, gapsBetweenDates, LIKELY_WINDOW_DAYS, predictDrawDates, WINDOW_CLASSES } from './draw-dates.ts';
import type { DatePrediction, DormancyCheck, WindowClass } from './draw-dates.ts';
import { MEMBER_NAMES } from './members.ts';
import type { MemberName } from './members.ts';
import {
  DATE_INTERVAL_TARGET,
  dateCoverage,
  dateLevel,
  HIT_TOLERANCE,
  horizonMetrics,
  intervalQuantile,
  likelyCalibration,
  likelyProbability,
  reportWindow,
  servedHalfWidth,
} from './metrics.ts';
import type { LikelyCalibration } from './metrics.ts';
import type { Forecaster, HorizonMetrics } from './metrics.ts';
import { reversionEstimate } from './pooling.ts';
import { clamp, median } from './statistics.ts';
import {
  DATE_GAPS,
  dateGapWeights,
  ESTABLISHED_DRAWS,
  gapsOf,
  INVITATION_BOUND_FACTOR,
  knownAt,
  pooledScale,
  pooledVolatility,
  RECORD_HORIZONS,
  regimeStart,
  RECENT_DAYS,
  recentGaps,
  SERIES_KINDS,
  seriesPoint,
  seriesValue,
  truncateWalk,
  upperBoundSize,
  VOLATILITY_PRIOR_CHANGES,
  volatility,
  walkForward,
} from './walk-forward.ts';
import type { PanelCategory, SeriesKind, SeriesPoint, WalkForward, WalkPoint } from './walk-forward.ts';

export interface DrawObservation {
  /** YYYY-MM-DD. */
  date: string;
  /** Lowest CRS score invited. */
  crs: number;
  invitations: number;
  /** Orders same-day draws (ParsedRound.roundSortKey); optional. */
  roundSortKey?: number;
}

export interface CategoryDrawsInput {
  id: number;
  slug: string;
  draws: readonly DrawObservation[];
}

const CRS_BOUNDS = { min: 0, max: 1200 } as const;
export const DEFAULT_HORIZONS = 5;
/** The served models: the combination for established categories, the pooled model for young ones. */
export const SERVED_MODELS = ['combination', 'pooled_young'] as const;
export type ServedModel = (typeof SERVED_MODELS)[number];
export type ModelName = MemberName | ServedModel;
export const MODEL_NAMES: readonly ModelName[] = [...MEMBER_NAMES, ...SERVED_MODELS];

interface Range {
  min: number;
  max: number;
  confidence_level: 95;
}

export interface Prediction {
  /** h: 1 is the next draw. */
  rank: number;
  predicted_date: string;
  predicted_crs_score: number;
  predicted_invitations: number;
  confidence_score: number;
  /**
   * n of confidence_score: the scored forecasts its hit rate is over, so that 50 from none is told from 50 of 40.
   * Always set by forecastPanel; null only when read back from rows stored before it was kept.
   */
  confidence_forecasts_scored: number | null;
  model_used: ServedModel;
  uncertainty_range: Range & { margin_of_error: number };
  /** Always set by forecastPanel; null only when read back from rows stored before invitations had intervals. */
  invitations_range: Range | null;
  date_range: { earliest: string; latest: string };
  /**
   * The next draw (rank 1): its likeliest three weeks with their calibrated probability. Null for later ranks: their
   * windows, mapped the same way, overstated how often they held (docs/draws.md, "The likely three weeks of later draws").
   */
  likely_window: LikelyWindowForecast | null;
}

/**
 * The LIKELY_WINDOW_DAYS calendar days (first and last included) within date_range holding the most of the date law
 * (or containing date_range when it is shorter), and the probability that the draw falls in them: the law's mass there
 * recalibrated on past windows' outcomes (metrics.ts, likelyCalibration), no larger than the range's 90% when the
 * window lies inside the range and no smaller when it contains it.
 */
interface LikelyWindowForecast {
  earliest: string;
  latest: string;
  days: number;
  probability: number;
}

/** predicted: established and active; young: 1–4 draws (pooled model, wider intervals); dormant; insufficient_history: no draws. */
export type ForecastStatus = 'predicted' | 'young' | 'dormant' | 'insufficient_history';

export interface CategoryForecast {
  id: number;
  slug: string;
  status: ForecastStatus;
  statusReason: string;
  draws: number;
  lastDate: string | null;
  dormancy: DormancyCheck | null;
  /** First day the category counted as dormant (last draw + the dormancy threshold); null unless dormant. */
  dormantSince: string | null;
  stepDays: number | null;
  predictions: Prediction[];
  /** Dormant categories with two draws or more: their next draw's values should they draw again; null otherwise. */
  ifResumed: ResumptionForecast | null;
  /** Combination weights and the pooled coefficient at the as-of date; null without a forecast. */
  crs: SeriesSummary | null;
  invitations: SeriesSummary | null;
  /** The date law's own mass in the next draw's likely window, before calibration (the benchmark's reference); null without one. */
  likelyMass: number | null;
  /**
   * The next draw's range at the calibrated level before it was widened to include predicted_date (what a window
   * holding it is at least as likely as): with likelyMass, what a benchmark restates the window's probability from
   * (statedLikelyProbability); null without a window.
   */
  likelyLevelRange: [string, string] | null;
  /** h = 1 backtest of this category over the report window: served, naive and window mean. */
  backtestH1: { n: number; served: number | null; naive: number | null; window_mean: number | null };
}

/**
 * A dormant category's next draw, should it come (its date is not forecast): its last value, with the 95% interval of
 * a next-draw forecast widened as a random walk over the pause, × √(pause_gaps), so the longer the silence, the less
 * it claims. Invitations on the log scale, within the sizes the category has plausibly drawn (plausibleInvitations).
 */
export interface ResumptionForecast {
  /** Typical gaps the silence spans so far: days since the last draw ÷ the median of the category's last gaps (at least 1). */
  pause_gaps: number;
  crs: Range & { point: number; margin_of_error: number };
  invitations: Range & { point: number };
}

export interface SeriesSummary {
  weights: Partial<Record<MemberName, number>>;
  phi: { pooled: number; own: number | null; own_pairs: number; used: number };
  /** Mean |change| of the last twelve changes (young: the established categories' median). */
  scale: number;
  /** Intervals' unit (see SeriesPoint.errorScale). */
  error_scale: number;
  /** Half-width by h (CRS points; log invitations), the quantile it came from and how many errors that quantile rests on. */
  intervals: { h: number; half_width: number; quantile: number; errors: number }[];
}

interface ModelPerformance {
  name: ModelName;
  crs: HorizonMetrics[];
  invitations: HorizonMetrics[];
}

export interface IntervalCalibration {
  /** Served 95% intervals of the report window: coverage and median half-width by horizon. */
  crs: HorizonMetrics[];
  invitations: HorizonMetrics[];
  /** Date intervals: the calibrated level at the as-of date and the coverage of the window. */
  dates: { h: number; level: number; n: number; coverage: number | null }[];
}

export interface PanelForecast {
  asOf: string;
  /** The newest draw of any category is more than staleAfterDays before the as-of date: dates from the residual law. */
  stale: boolean;
  categories: CategoryForecast[];
  /** Null when `report` is false. */
  models: ModelPerformance[] | null;
  calibration: IntervalCalibration | null;
  /**
   * Known next-draw windows the likely windows' probabilities are calibrated on, and the share of them that held, of
   * those asked for within the category's typical gap and past it (LikelyCalibration).
   */
  likelyWindows: Record<WindowClass | 'all', { n: number; baseRate: number | null }>;
}

export interface PanelForecastOptions {
  horizons?: number;
  /** A walk-forward of these categories over at least the as-of date (truncated to it here): saves recomputing it. */
  walk?: WalkForward;
  /** Compute the model tables of /api/models/ (the benchmark leaves them out). Default true. */
  report?: boolean;
  /** Date ranges deep in a wait also from the program's rounds (draw-dates.ts, roundRhythm). Default true; the benchmark's baseline turns it off. */
  roundRhythm?: boolean;
  /**
   * Days without a draw of any category after which the data is stale (freshness.ts, PDI_DRAWS_STALE_DAYS); null or
   * absent: never. A stale feed's next draws are dated by the residual law (draw-dates.ts, STALE_DATE_METHOD).
   */
  staleAfterDays?: number | null;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

function validate(categories: readonly CategoryDrawsInput[], asOf: string): void {
  if (!isValidIsoDate(asOf)) throw new RangeError(`asOf must be a YYYY-MM-DD date, got ${JSON.stringify(asOf)}`);
  for (const c of categories) {
    c.draws.forEach((d, i) => {
      if (!isValidIsoDate(d.date)) throw new RangeError(`${c.slug} draw ${i}: date must be YYYY-MM-DD, got ${JSON.stringify(d.date)}`);
      if (!Number.isFinite(d.crs) || d.crs < CRS_BOUNDS.min || d.crs > CRS_BOUNDS.max)
        throw new RangeError(`${c.slug} draw ${i} (${d.date}): crs ${d.crs} is not a score in 0–1200`);
      if (!Number.isInteger(d.invitations) || d.invitations < 1)
        throw new RangeError(`${c.slug} draw ${i} (${d.date}): invitations ${d.invitations} is not a positive integer`);
    });
  }
}

/** Only what was known on the as-of date, in a canonical order so that input order cannot change the result. */
function panelOf(categories: readonly CategoryDrawsInput[], asOf: string): PanelCategory[] {
  const today = dayNumber(asOf);
  return categories.map((c) => ({
    id: c.id,
    slug: c.slug,
    draws: c.draws
      .filter((d) => dayNumber(d.date) <= today)
      .sort(
        (a, b) =>
          (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
          (a.roundSortKey ?? 0) - (b.roundSortKey ?? 0) ||
          a.crs - b.crs ||
          a.invitations - b.invitations,
      )
      .map((d) => ({ day: dayNumber(d.date), crs: d.crs, invitations: d.invitations })),
  }));
}

/** confidence_score: Laplace-smoothed hit rate (hits + 1)/(n + 2) × 100 of the n scored served CRS forecasts at h. */
function confidenceScore(points: readonly WalkPoint[], h: number): { score: number; n: number } {
  const scored = points.filter((p) => p.targets[h - 1] !== null);
  const hits = scored.filter((p) => Math.abs(p.targets[h - 1]!.crs - p.series.crs.served[h - 1]) <= HIT_TOLERANCE).length;
  return { score: round1(((hits + 1) / (scored.length + 2)) * 100), n: scored.length };
}

function summary(
  point: SeriesPoint,
  kind: SeriesKind,
  wf: WalkForward,
  category: number,
  day: number,
  young: boolean,
  horizons: number,
): SeriesSummary {
  const phi = reversionEstimate(wf.pairs[kind], category, day);
  return {
    weights: point.weights,
    phi: { pooled: phi.pooled, own: phi.own, own_pairs: phi.ownPairs, used: phi.shrunk },
    scale: point.scale,
    error_scale: point.errorScale,
    intervals: Array.from({ length: horizons }, (_, i) => {
      const h = i + 1;
      const q = intervalQuantile(wf.points, kind, h, day, young);
      return {
        h,
        half_width: servedHalfWidth(
          wf.points,
          { young, category, series: { [kind]: point } as Record<SeriesKind, SeriesPoint> },
          kind,
          h,
          day,
        ),
        quantile: q.q,
        errors: q.n,
      };
    }),
  };
}

/** ResumptionForecast of a dormant category as of `today`; null with fewer than two draws (no gap, no change). */
function resumption(c: PanelCategory, wf: WalkForward, panel: readonly PanelCategory[], today: number): ResumptionForecast | null {
  if (c.draws.length < 2) return null;
  const last = c.draws[c.draws.length - 1];
  const gaps = gapsOf(c.draws, c.draws.length).slice(-DATE_GAPS);
  const pauseGaps = Math.max(1, (today - last.day) / Math.max(1, gaps.length > 0 ? median(gaps) : 1));
  const start = regimeStart(c.draws, c.draws.length);
  const nextDrawHalf = (kind: SeriesKind) => {
    const y = c.draws.slice(start).map((d) => seriesValue(kind, d));
    const unit = volatility(kind, y, pooledVolatility(kind, panel, today), VOLATILITY_PRIOR_CHANGES);
    return intervalQuantile(wf.points, kind, 1, today, false).q * unit;
  };
  const crsHalf = nextDrawHalf('crs') * Math.sqrt(pauseGaps);
  const invHalf = nextDrawHalf('invitations') * Math.sqrt(pauseGaps);
  // A random walk's spread grows without end; cut-offs do not: the range stays within the cut-offs the category has
  // drawn ± a next draw's half-width, as the invitations stay within its plausible sizes (plausibleInvitations).
  const cutoffs = c.draws.map((d) => d.crs);
  const crsBounds = {
    min: Math.max(CRS_BOUNDS.min, Math.min(...cutoffs) - nextDrawHalf('crs')),
    max: Math.min(CRS_BOUNDS.max, Math.max(...cutoffs) + nextDrawHalf('crs')),
  };
  const drawn = plausibleInvitations(c.draws, false);
  return {
    pause_gaps: round1(pauseGaps),
    crs: {
      point: last.crs,
      min: Math.floor(Math.min(last.crs, Math.max(crsBounds.min, last.crs - crsHalf)) * 10) / 10,
      max: Math.ceil(Math.max(last.crs, Math.min(crsBounds.max, last.crs + crsHalf)) * 10) / 10,
      margin_of_error: round1(crsHalf),
      confidence_level: 95,
    },
    invitations: {
      point: last.invitations,
      min: Math.min(last.invitations, Math.max(drawn.min, Math.floor(last.invitations * Math.exp(-invHalf)))),
      max: Math.max(last.invitations, Math.min(drawn.max, Math.ceil(last.invitations * Math.exp(invHalf)))),
      confidence_level: 95,
    },
  };
}

/**
 * Invitations stay within what the category has plausibly drawn: the smallest and largest of `draws` (a young
 * category's: every category's draws of the last two years) ×÷ INVITATION_BOUND_FACTOR, since a log-scale interval
 * can otherwise reach far past anything ever drawn, while a record size a little past the extremes does happen. An
 * established category's upper end comes from its 2nd-largest draw when its largest is a one-off (upperBoundSize);
 * a young category's pooled draws are many categories' sizes, not one category's outlier.
 */
function plausibleInvitations(draws: readonly { invitations: number }[], young: boolean): { min: number; max: number } {
  const sizes = draws.map((d) => d.invitations);
  return {
    min: Math.max(1, Math.floor(Math.min(...sizes) / INVITATION_BOUND_FACTOR)),
    max: Math.ceil((young ? Math.max(...sizes) : upperBoundSize(sizes)) * INVITATION_BOUND_FACTOR),
  };
}

/** What a category's predictions are served from: its series points, their summaries (intervals) and the model. */
interface ServedSeries {
  points: Record<SeriesKind, SeriesPoint>;
  crs: SeriesSummary;
  invitations: SeriesSummary;
  model: ServedModel;
}

/** The prediction at one rank: the served CRS and invitations with their 95% intervals, the date range, the confidence. */
function prediction(
  date: DatePrediction['dates'][number],
  served: ServedSeries,
  drawn: { min: number; max: number },
  confidencePoints: readonly WalkPoint[],
  today: number,
  calibration: (windowClass: WindowClass) => LikelyCalibration | null,
): Prediction {
  const h = date.rank;
  const crs = clamp(served.points.crs.served[h - 1], CRS_BOUNDS.min, CRS_BOUNDS.max);
  const crsHalf = served.crs.intervals[h - 1].half_width;
  const logInvitations = served.points.invitations.served[h - 1];
  const invHalf = served.invitations.intervals[h - 1].half_width;
  const invitations = Math.max(1, Math.round(Math.exp(logInvitations)));
  const confidence = confidenceScore(
    confidencePoints.filter((p) => p.targets[h - 1] !== null && p.targets[h - 1]!.day <= today),
    h,
  );
  return {
    rank: h,
    predicted_date: date.date,
    predicted_crs_score: round1(crs),
    predicted_invitations: invitations,
    confidence_score: confidence.score,
    confidence_forecasts_scored: confidence.n,
    model_used: served.model,
    uncertainty_range: {
      // Outward to one decimal, so rounding never narrows the interval.
      min: Math.floor(clamp(crs - crsHalf, CRS_BOUNDS.min, CRS_BOUNDS.max) * 10) / 10,
      max: Math.ceil(clamp(crs + crsHalf, CRS_BOUNDS.min, CRS_BOUNDS.max) * 10) / 10,
      confidence_level: 95,
      margin_of_error: round1(crsHalf),
    },
    invitations_range: {
      min: Math.min(invitations, Math.max(drawn.min, Math.floor(Math.exp(logInvitations - invHalf)))),
      max: Math.max(invitations, Math.min(drawn.max, Math.ceil(Math.exp(logInvitations + invHalf)))),
      confidence_level: 95,
    },
    date_range: { earliest: date.earliest, latest: date.latest },
    likely_window:
      date.likely &&
      likelyWindow(
        date.likely,
        [date.earliest, date.latest],
        [date.likely.levelRange.earliest, date.likely.levelRange.latest],
        date.likely.windowClass === null ? null : calibration(date.likely.windowClass),
      ),
  };
}

/** The share of the windows of every class that held their draw. */
function pooledRate(classes: readonly LikelyCalibration[]): { n: number; baseRate: number | null } {
  const n = classes.reduce((sum, c) => sum + c.n, 0);
  return { n, baseRate: n === 0 ? null : classes.reduce((sum, c) => sum + c.n * (c.baseRate ?? 0), 0) / n };
}

/**
 * LikelyWindowForecast of a window of the date law (its mass there) beside the served range and the range at the
 * calibrated level that the served one widens (to include predicted_date; the same range when it did not need to).
 */
function likelyWindow(
  window: { earliest: string; latest: string; mass: number },
  range: readonly [string, string],
  levelRange: readonly [string, string],
  /** Null for a stale feed's window: the law's own mass is served (draw-dates.ts, STALE_DATE_METHOD, says why). */
  calibration: LikelyCalibration | null,
): LikelyWindowForecast {
  const probability = calibration === null ? window.mass : likelyProbability(calibration, window.mass);
  return {
    earliest: window.earliest,
    latest: window.latest,
    days: LIKELY_WINDOW_DAYS,
    probability: statedLikelyProbability(probability, [window.earliest, window.latest], range, levelRange),
  };
}

/**
 * The probability a likely window [earliest, latest] is served with, from its calibrated (or raw) probability: nested
 * statements must agree, so a part of the 90% range is no likelier than the range, a window holding the range no less;
 * the 90% is the calibrated range's (`levelRange`), so a window holding that one says at least 0.9 even where the served
 * `range`, widened to the cadence's date, reaches past the window. Rounded to three decimals.
 */
export function statedLikelyProbability(
  probability: number,
  window: readonly [string, string],
  range: readonly [string, string],
  levelRange: readonly [string, string],
): number {
  let p = probability;
  if (window[0] >= range[0] && window[1] <= range[1]) p = Math.min(p, DATE_INTERVAL_TARGET);
  if (window[0] <= levelRange[0] && window[1] >= levelRange[1]) p = Math.max(p, DATE_INTERVAL_TARGET);
  return Math.round(p * 1000) / 1000;
}

/** The model tables of /api/models/ (each member, the combination, the young model by horizon) and the interval calibration. */
function panelReport(
  wf: WalkForward,
  today: number,
  horizons: number,
  levels: readonly number[],
): { models: ModelPerformance[]; calibration: IntervalCalibration } {
  const established = (h: number) => reportWindow(wf.points, today, h).filter((p) => !p.young);
  const youngWindow = (h: number) => knownAt(wf.points, today, h, null).filter((p) => p.young);
  const table = (kind: SeriesKind, who: Forecaster, pick: (h: number) => WalkPoint[]) =>
    Array.from({ length: horizons }, (_, i) => horizonMetrics(wf.points, pick(i + 1), kind, who, i + 1));
  const models: ModelPerformance[] = [
    ...MEMBER_NAMES.map((name) => ({ name, crs: table('crs', name, established), invitations: table('invitations', name, established) })),
    { name: 'combination' as const, crs: table('crs', 'served', established), invitations: table('invitations', 'served', established) },
    { name: 'pooled_young' as const, crs: table('crs', 'served', youngWindow), invitations: table('invitations', 'served', youngWindow) },
  ];
  const calibration: IntervalCalibration = {
    crs: models.find((m) => m.name === 'combination')!.crs,
    invitations: models.find((m) => m.name === 'combination')!.invitations,
    dates: Array.from({ length: horizons }, (_, i) => {
      const h = i + 1;
      const cov = dateCoverage(wf.points, reportWindow(wf.points, today, h), h);
      return { h, level: levels[i], n: cov.n, coverage: cov.coverage };
    }),
  };
  return { models, calibration };
}

export function forecastPanel(categories: readonly CategoryDrawsInput[], asOf: string, options: PanelForecastOptions = {}): PanelForecast {
  validate(categories, asOf);
  const horizons = Math.min(options.horizons ?? DEFAULT_HORIZONS, RECORD_HORIZONS);
  const today = dayNumber(asOf);
  const panel = panelOf(categories, asOf);
  const wf = options.walk ? truncateWalk(options.walk, today) : walkForward(panel);
  const known1 = knownAt(wf.points, today, 1);
  const levels = Array.from({ length: horizons }, (_, i) => dateLevel(wf.points, i + 1, today).level);
  const likely = (windowClass: WindowClass) => likelyCalibration(wf.points, today, windowClass);
  const pooledGaps = recentGaps(panel, today);
  const programDays = [...new Set(panel.flatMap((c) => c.draws.map((d) => d.day)))].sort((a, b) => a - b);
  const newestDay = programDays.at(-1);
  const stale = options.staleAfterDays != null && newestDay !== undefined && today - newestDay > options.staleAfterDays;
  // Dormancy of a stale feed is judged up to its newest draw (draw-dates.ts, DORMANT_RULE).
  const staleFeedNewest = stale && newestDay !== undefined ? isoFromDayNumber(newestDay) : null;

  const results = panel.map((c, ci): CategoryForecast => {
    const dates = c.draws.map((d) => isoFromDayNumber(d.day));
    const gaps = gapsBetweenDates(dates);
    const lastDate = dates.at(-1) ?? null;
    const dormancy = lastDate === null ? null : checkDormancy(lastDate, gaps, asOf, staleFeedNewest);
    const window = reportWindow(wf.byCategory[ci], today, 1).filter((p) => !p.young);
    const h1 = (who: Forecaster) => horizonMetrics(wf.points, window, 'crs', who, 1).mae;
    const result: CategoryForecast = {
      id: c.id,
      slug: c.slug,
      status: 'insufficient_history',
      statusReason: `no draws on or before ${asOf}`,
      draws: c.draws.length,
      lastDate,
      dormancy,
      dormantSince: null,
      stepDays: null,
      predictions: [],
      ifResumed: null,
      likelyMass: null,
      likelyLevelRange: null,
      crs: null,
      invitations: null,
      backtestH1: { n: window.length, served: h1('served'), naive: h1('naive'), window_mean: h1('window_mean') },
    };
    if (dormancy === null || lastDate === null) return result;
    if (dormancy.dormant) {
      result.status = 'dormant';
      result.dormantSince = isoFromDayNumber(dayNumber(lastDate) + Math.floor(dormancy.thresholdDays) + 1);
      const countedTo = staleFeedNewest === null ? asOf : `${staleFeedNewest}, the newest draw of a stale feed`;
      result.statusReason = `dormant since ${result.dormantSince}: last draw ${lastDate}, ${dormancy.silenceDays} days before ${countedTo}; dormant after ${round1(dormancy.thresholdDays)} days without a draw`;
      result.ifResumed = resumption(c, wf, panel, today);
      if (result.ifResumed)
        result.statusReason += `; should it draw again: its last values, intervals widened over a pause of ${round1(result.ifResumed.pause_gaps)} typical gaps`;
      return result;
    }
    const start = regimeStart(c.draws, c.draws.length);
    const regime = c.draws.length - start;
    const young = regime < ESTABLISHED_DRAWS;
    result.status = young ? 'young' : 'predicted';
    const points = Object.fromEntries(
      SERIES_KINDS.map((kind) => [
        kind,
        seriesPoint(
          kind,
          c.draws,
          c.draws.length,
          ci,
          reversionEstimate(wf.pairs[kind], ci, today).shrunk,
          known1,
          pooledScale(kind, panel, today),
          horizons,
          pooledVolatility(kind, panel, today),
        ),
      ]),
    ) as Record<SeriesKind, SeriesPoint>;
    result.crs = summary(points.crs, 'crs', wf, ci, today, young, horizons);
    result.invitations = summary(points.invitations, 'invitations', wf, ci, today, young, horizons);
    const datePrediction = predictDrawDates(dates.slice(start), asOf, horizons, {
      // A stale feed's ranges keep the calibrated levels: on the stale backtest (docs/draws.md, "A stale feed's dates")
      // they held 90.0% of next draws, where the residual law's own 90% held 79.4%.
      levelFor: (h) => levels[h - 1],
      elapsedUnknown: stale,
      gapWeights: dateGapWeights(gapsBetweenDates(dates.slice(start)), pooledGaps),
      stepDays: pooledGaps.length > 0 ? median(pooledGaps) : 14,
      programDays: options.roundRhythm === false ? undefined : programDays,
    });
    result.stepDays = datePrediction.stepDays;
    const nextLikely = datePrediction.dates[0]?.likely ?? null;
    result.likelyMass = nextLikely?.mass ?? null;
    result.likelyLevelRange = nextLikely && [nextLikely.levelRange.earliest, nextLikely.levelRange.latest];
    const ranks = datePrediction.dates.length;
    const resumed =
      start > 0 ? ` since it resumed on ${dates[start]} after a pause of ${c.draws[start].day - c.draws[start - 1].day} days` : '';
    result.statusReason =
      (young
        ? `${regime} ${regime === 1 ? 'draw' : 'draws'}${resumed}: young, forecast by the pooled model with wider intervals`
        : `${c.draws.length} draws${resumed ? ` (${regime}${resumed})` : ''}; last ${lastDate}`) +
      (ranks === horizons ? '' : `; only ${ranks} of ${horizons} ranks fall within a year of ${asOf}`);
    const drawn = plausibleInvitations(young ? panel.flatMap((x) => x.draws.filter((d) => d.day > today - RECENT_DAYS)) : c.draws, young);
    // Confidence from the category's own served forecasts; a young category's from every young forecast.
    const confidencePoints = young ? knownAt(wf.points, today, 1, null).filter((p) => p.young) : wf.byCategory[ci].filter((p) => !p.young);
    const served: ServedSeries = {
      points,
      crs: result.crs,
      invitations: result.invitations,
      model: young ? 'pooled_young' : 'combination',
    };
    for (const date of datePrediction.dates) result.predictions.push(prediction(date, served, drawn, confidencePoints, today, likely));
    return result;
  });

  const classes = WINDOW_CLASSES.map(likely);
  const likelyWindows = {
    ...(Object.fromEntries(WINDOW_CLASSES.map((c, i) => [c, { n: classes[i].n, baseRate: classes[i].baseRate }])) as Record<
      WindowClass,
      { n: number; baseRate: number | null }
    >),
    all: pooledRate(classes),
  };
  if (options.report === false) return { asOf, stale, categories: results, models: null, calibration: null, likelyWindows };

  const { models, calibration } = panelReport(wf, today, horizons, levels);
  return { asOf, stale, categories: results, models, calibration, likelyWindows };
}
