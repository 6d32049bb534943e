// The entry point: one canonical category's draws and an as-of date in, its status, five predictions and
// the backtests they rest on out. Pure and deterministic: the same draws and as-of date give the same result.
import { dayNumber, isValidIsoDate } from '../feed/ircc-dates.ts';
import type { Bounds, ModelBacktest } from './backtest.ts';
import { checkDormancy, gapsBetweenDates, predictDrawDates, type DormancyCheck } from './draw-dates.ts';
import type { ModelName } from './models.ts';
import { DEFAULT_MAX_HORIZON, forecastSeries, type ModelSelection, type SeriesForecast } from './series-forecast.ts';

export interface DrawObservation {
  /** YYYY-MM-DD. */
  date: string;
  /** Lowest CRS score invited. */
  crs: number;
  invitations: number;
  /** Orders same-day draws (ParsedRound.roundSortKey); optional. */
  roundSortKey?: number;
}

export interface ForecastOptions {
  /** Ranks to predict (default 5). */
  horizons?: number;
  /** Fewest draws a category needs to be predicted (default 5). */
  minDraws?: number;
  crsBounds?: Bounds;
  invitationBounds?: Bounds;
}

export const CRS_BOUNDS: Bounds = { min: 0, max: 1200 };
export const INVITATION_BOUNDS: Bounds = { min: 1, max: Number.MAX_SAFE_INTEGER };
export const MIN_DRAWS_FOR_FORECAST = 5;

export interface UncertaintyRange {
  min: number;
  max: number;
  confidence_level: 95;
  margin_of_error: number;
}

export interface Prediction {
  /** h: 1 is the next draw. */
  rank: number;
  predicted_date: string;
  predicted_crs_score: number;
  predicted_invitations: number;
  confidence_score: number;
  model_used: ModelName;
  uncertainty_range: UncertaintyRange;
  date_range: { earliest: string; latest: string };
}

export type ForecastStatus = 'predicted' | 'dormant' | 'insufficient_history';

export interface CategoryHistory {
  draws: number;
  firstDate: string | null;
  lastDate: string | null;
  /** Gaps in days between consecutive distinct draw dates. */
  gaps: number[];
  dormancy: DormancyCheck | null;
}

export interface SeriesSummary {
  model: ModelName;
  selection: ModelSelection;
  parameters: Record<string, number>;
  backtests: ModelBacktest[];
  forecast: SeriesForecast;
}

export interface CategoryForecast {
  asOf: string;
  status: ForecastStatus;
  /** Why the status, in words. */
  statusReason: string;
  history: CategoryHistory;
  /** Empty unless status is 'predicted'. */
  predictions: Prediction[];
  chosenModels: { crs: ModelName | null; invitations: ModelName | null };
  /** Backtests per model of each series; computed whenever the category has enough draws, dormant or not. */
  backtests: { crs: ModelBacktest[]; invitations: ModelBacktest[] };
  crs: SeriesSummary | null;
  invitations: SeriesSummary | null;
  /** Days between predicted draws (median of the last six gaps); null without a date prediction. */
  stepDays: number | null;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** confidence_score: Laplace-smoothed hit rate (hits + 1)/(n + 2) × 100 of the chosen CRS model at h. */
export function confidenceScore(backtest: ModelBacktest, h: number): number {
  const metrics = backtest.byHorizon[h - 1];
  if (!metrics || metrics.n === 0) return 50;
  return round1(((metrics.hits + 1) / (metrics.n + 2)) * 100);
}

function validateDraws(draws: readonly DrawObservation[], asOf: string): void {
  if (!isValidIsoDate(asOf)) throw new RangeError(`asOf must be a YYYY-MM-DD date, got ${JSON.stringify(asOf)}`);
  draws.forEach((d, i) => {
    if (!isValidIsoDate(d.date)) throw new RangeError(`draw ${i}: date must be YYYY-MM-DD, got ${JSON.stringify(d.date)}`);
    if (!Number.isFinite(d.crs) || d.crs < CRS_BOUNDS.min || d.crs > CRS_BOUNDS.max)
      throw new RangeError(`draw ${i} (${d.date}): crs ${d.crs} is not a score in 0–1200`);
    if (!Number.isInteger(d.invitations) || d.invitations < 1)
      throw new RangeError(`draw ${i} (${d.date}): invitations ${d.invitations} is not a positive integer`);
  });
}

function summarise(forecast: SeriesForecast): SeriesSummary {
  return {
    model: forecast.selection.model,
    selection: forecast.selection,
    parameters: forecast.parameters,
    backtests: forecast.backtests,
    forecast,
  };
}

export function forecastCategory(draws: readonly DrawObservation[], asOf: string, options: ForecastOptions = {}): CategoryForecast {
  validateDraws(draws, asOf);
  const horizons = options.horizons ?? DEFAULT_MAX_HORIZON;
  const minDraws = Math.max(2, options.minDraws ?? MIN_DRAWS_FOR_FORECAST);
  const crsBounds = options.crsBounds ?? CRS_BOUNDS;
  const invitationBounds = options.invitationBounds ?? INVITATION_BOUNDS;
  const today = dayNumber(asOf);
  // Only what was known on the as-of date; a canonical order so input order cannot change the result.
  const known = draws
    .filter((d) => dayNumber(d.date) <= today)
    .sort(
      (a, b) =>
        (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
        (a.roundSortKey ?? 0) - (b.roundSortKey ?? 0) ||
        a.crs - b.crs ||
        a.invitations - b.invitations,
    );
  const dates = known.map((d) => d.date);
  const gaps = gapsBetweenDates(dates);
  const lastDate = dates.at(-1) ?? null;
  const dormancy = lastDate === null ? null : checkDormancy(lastDate, gaps, asOf);
  const history: CategoryHistory = { draws: known.length, firstDate: dates[0] ?? null, lastDate, gaps, dormancy };

  const result: CategoryForecast = {
    asOf,
    status: 'insufficient_history',
    statusReason: '',
    history,
    predictions: [],
    chosenModels: { crs: null, invitations: null },
    backtests: { crs: [], invitations: [] },
    crs: null,
    invitations: null,
    stepDays: null,
  };
  const enoughHistory = known.length >= minDraws && gaps.length >= 1;
  if (enoughHistory) {
    const crs = forecastSeries(
      known.map((d) => d.crs),
      { bounds: crsBounds, maxHorizon: horizons },
    )!;
    const invitations = forecastSeries(
      known.map((d) => d.invitations),
      { bounds: invitationBounds, maxHorizon: horizons },
    )!;
    result.crs = summarise(crs);
    result.invitations = summarise(invitations);
    result.backtests = { crs: crs.backtests, invitations: invitations.backtests };
    result.chosenModels = { crs: crs.selection.model, invitations: invitations.selection.model };
  }

  if (dormancy === null) {
    result.statusReason = `no draws on or before ${asOf}`;
    return result;
  }
  if (dormancy.dormant) {
    result.status = 'dormant';
    result.statusReason = `last draw ${lastDate}, ${dormancy.daysSinceLastDraw} days before ${asOf}; dormant after ${round1(dormancy.thresholdDays)} days`;
    return result;
  }
  if (!enoughHistory) {
    result.statusReason = `${known.length} draw(s) on ${new Set(dates).size} date(s); at least ${minDraws} draws on two dates are needed`;
    return result;
  }

  result.status = 'predicted';
  const datePrediction = predictDrawDates(dates, asOf, horizons);
  result.stepDays = datePrediction.stepDays;
  result.statusReason =
    datePrediction.dates.length === horizons
      ? `${known.length} draws; last ${lastDate}`
      : `${known.length} draws; last ${lastDate}; only ${datePrediction.dates.length} of ${horizons} ranks fall within a year of ${asOf}`;
  const crs = result.crs!;
  const invitations = result.invitations!;
  const crsBacktest = crs.backtests.find((b) => b.model === crs.model)!;
  for (const date of datePrediction.dates) {
    const c = crs.forecast.forecasts[date.rank - 1];
    const inv = invitations.forecast.forecasts[date.rank - 1];
    result.predictions.push({
      rank: date.rank,
      predicted_date: date.date,
      predicted_crs_score: round1(c.point),
      predicted_invitations: Math.max(invitationBounds.min, Math.round(inv.point)),
      confidence_score: confidenceScore(crsBacktest, date.rank),
      model_used: crs.model,
      uncertainty_range: {
        // Outward to one decimal, so rounding never narrows the interval.
        min: Math.floor(c.lower * 10) / 10,
        max: Math.ceil(c.upper * 10) / 10,
        confidence_level: 95,
        margin_of_error: round1(c.halfWidth),
      },
      date_range: { earliest: date.earliest, latest: date.latest },
    });
  }
  return result;
}
