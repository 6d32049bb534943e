// The chance that a CRS score clears a draw's cut-off, from the served forecast. Framework-free.
//
// What is stored per draw is a point forecast ŷ and the half-width m of a split-conformal 95% interval (m = q × u:
// the 95% quantile of past scaled absolute errors times the category's error unit), not the whole distribution of
// past errors. The cut-off is taken as ŷ + e, e following an asymmetric Laplace law in units of m: a share p of it
// at or below ŷ, falling off exponentially with scale b₋ = λ₋ m below ŷ and b₊ = λ₊ m above it. Cut-offs jump up
// further than they drop (a small draw after a large one), so a symmetric law overstated the high probabilities.
// p, λ₋ and λ₊ are the maximum-likelihood fit to the signed errors (C − ŷ) / m of the forecasts the service would
// have made after every draw whose next draws fell in 2023–2024 (score-calibration.ts fits and prints them, and
// checks them against the forecasts of 2025, which the fit never saw).
//
// The published cut-off is a whole score, clipped to 0–1200: C = clamp(round(ŷ + e), 0, 1200). A candidate whose
// score equals the cut-off is invited only if their profile was submitted before the tie-break time, which is not
// known in advance, so "cut-off below the score" and "cut-off equal to it" are reported apart.

/** The range of CRS scores (and so of cut-offs). */
export const CRS_RANGE = { min: 0, max: 1200 } as const;

/** The shape of the cut-off's law around ŷ, in units of the 95% half-width m (see the file comment). */
export interface CutoffLaw {
  /** p: P(cut-off ≤ ŷ). */
  belowShare: number;
  /** λ₋: the scale below ŷ is λ₋ m. */
  lowerScale: number;
  /** λ₊: the scale above ŷ is λ₊ m. */
  upperScale: number;
}

/** The symmetric Laplace law whose central 95% is ± m (b = m / ln 20): what the calibration script compares the fit with. */
export const SYMMETRIC_LAW: CutoffLaw = { belowShare: 0.5, lowerScale: 1 / Math.log(20), upperScale: 1 / Math.log(20) };

/**
 * The law "my score" states: fitted by maximum likelihood on the 2023–2024 targets of the IRCC snapshot (370 signed
 * errors, h = 1–5); `npx node src/services/draws/pages/score-calibration.ts` refits and prints it.
 */
export const CUTOFF_LAW: CutoffLaw = { belowShare: 0.492, lowerScale: 0.32, upperScale: 0.454 };

/** The two scales (CRS points) of the law for a forecast whose 95% half-width is `margin`. */
export function lawScales(margin: number, law: CutoffLaw = CUTOFF_LAW): { lower: number; upper: number } {
  const m = Math.max(0, margin);
  return { lower: law.lowerScale * m, upper: law.upperScale * m };
}

/** P(X ≤ x) for X = ŷ + e, e under `law` with the 95% half-width `margin`; a point mass at ŷ when margin is 0. */
export function lawCdf(x: number, point: number, margin: number, law: CutoffLaw = CUTOFF_LAW): number {
  const { lower, upper } = lawScales(margin, law);
  if (!(lower > 0 && upper > 0)) return x >= point ? 1 : 0;
  return x < point ? law.belowShare * Math.exp((x - point) / lower) : 1 - (1 - law.belowShare) * Math.exp(-(x - point) / upper);
}

/** The q-quantile of the same law, 0 < q < 1. */
export function lawQuantile(q: number, point: number, margin: number, law: CutoffLaw = CUTOFF_LAW): number {
  if (!(q > 0 && q < 1)) throw new RangeError(`q must be strictly between 0 and 1, got ${q}`);
  const { lower, upper } = lawScales(margin, law);
  return q <= law.belowShare ? point + lower * Math.log(q / law.belowShare) : point - upper * Math.log((1 - q) / (1 - law.belowShare));
}

export interface CutoffForecast {
  /** Point forecast of the cut-off (predicted_crs_score). */
  point: number;
  /** Half-width of the 95% interval before clipping (margin_of_error). */
  margin: number;
}

export interface Clearance {
  /** P(cut-off ≤ score): the score is invited (at equality, only if the profile is older than the tie-break time). */
  atOrBelow: number;
  /** P(cut-off < score): the score is invited whatever the tie-break. */
  below: number;
  /** P(cut-off = score): the tie-break rule decides. */
  equal: number;
}

/** P(published cut-off ≤ s) for a whole score s: the unrounded cut-off falls below s + ½ (clipped to 0–1200). */
function cutoffAtOrBelow(s: number, forecast: CutoffForecast, law: CutoffLaw): number {
  if (s < CRS_RANGE.min) return 0;
  if (s >= CRS_RANGE.max) return 1;
  return lawCdf(s + 0.5, forecast.point, forecast.margin, law);
}

/** The chance that a whole CRS score (0–1200) clears the cut-off of a draw forecast as `forecast`. */
export function clearance(score: number, forecast: CutoffForecast, law: CutoffLaw = CUTOFF_LAW): Clearance {
  if (!Number.isInteger(score) || score < CRS_RANGE.min || score > CRS_RANGE.max) {
    throw new RangeError(`score must be a whole number from ${CRS_RANGE.min} to ${CRS_RANGE.max}, got ${score}`);
  }
  if (!Number.isFinite(forecast.point) || !Number.isFinite(forecast.margin)) throw new RangeError('the forecast must be finite');
  const atOrBelow = cutoffAtOrBelow(score, forecast, law);
  const below = cutoffAtOrBelow(score - 1, forecast, law);
  return { atOrBelow, below, equal: atOrBelow - below };
}

/** The central range holding the cut-off with probability `level` under the law (unrounded, unclipped). */
export function centralRange(forecast: CutoffForecast, level: number, law: CutoffLaw = CUTOFF_LAW): { lower: number; upper: number } {
  if (!(forecast.margin > 0)) return { lower: forecast.point, upper: forecast.point };
  return {
    lower: lawQuantile((1 - level) / 2, forecast.point, forecast.margin, law),
    upper: lawQuantile((1 + level) / 2, forecast.point, forecast.margin, law),
  };
}
