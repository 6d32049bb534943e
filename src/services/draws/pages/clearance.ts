// The chance that a CRS score clears a draw's cut-off, from the served forecast. Framework-free.
//
// What is stored per draw is a point forecast ŷ and the half-width m of a split-conformal 95% interval (m = q × u:
// the 95% quantile of past scaled absolute errors times the category's error unit), not the whole distribution of
// past errors. The interval is symmetric and m is a quantile of |error|, so the distribution it implies is taken as
// symmetric around ŷ with P(|C − ŷ| ≤ m) = 0.95. Its shape is an assumption: a Laplace (double exponential) law,
// scale b = m / ln 20. Checked against the walk-forward of the real IRCC draws (score-calibration.ts prints the
// check), it matches past next-draw errors better than a normal law: heavier tails and a sharper centre, as cut-offs
// that mostly move a little and sometimes jump.
//
// The published cut-off is a whole score, clipped to 0–1200: C = clamp(round(ŷ + e), 0, 1200). A candidate whose
// score equals the cut-off is invited only if their profile was submitted before the tie-break time, which is not
// known in advance, so "cut-off below the score" and "cut-off equal to it" are reported apart.

/** The range of CRS scores (and so of cut-offs). */
export const CRS_RANGE = { min: 0, max: 1200 } as const;

/** ln 20: for a Laplace law, P(|X − μ| ≤ b ln 20) = 1 − e^{−ln 20} = 0.95. */
const LN20 = Math.log(20);

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

/** The Laplace scale whose central 95% interval is ± margin. */
export function laplaceScaleFor95(margin: number): number {
  return margin / LN20;
}

/** P(X ≤ x) for X ~ Laplace(location, scale); a point mass at `location` when scale is 0. */
export function laplaceCdf(x: number, location: number, scale: number): number {
  if (!(scale > 0)) return x >= location ? 1 : 0;
  const z = (x - location) / scale;
  return z < 0 ? 0.5 * Math.exp(z) : 1 - 0.5 * Math.exp(-z);
}

/** The p-quantile of Laplace(location, scale), 0 < p < 1. */
export function laplaceQuantile(p: number, location: number, scale: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be strictly between 0 and 1, got ${p}`);
  return p < 0.5 ? location + scale * Math.log(2 * p) : location - scale * Math.log(2 * (1 - p));
}

/** P(published cut-off ≤ s) for a whole score s: the unrounded cut-off falls below s + ½ (clipped to 0–1200). */
function cutoffAtOrBelow(s: number, forecast: CutoffForecast): number {
  if (s < CRS_RANGE.min) return 0;
  if (s >= CRS_RANGE.max) return 1;
  return laplaceCdf(s + 0.5, forecast.point, laplaceScaleFor95(Math.max(0, forecast.margin)));
}

/** The chance that a whole CRS score (0–1200) clears the cut-off of a draw forecast as `forecast`. */
export function clearance(score: number, forecast: CutoffForecast): Clearance {
  if (!Number.isInteger(score) || score < CRS_RANGE.min || score > CRS_RANGE.max) {
    throw new RangeError(`score must be a whole number from ${CRS_RANGE.min} to ${CRS_RANGE.max}, got ${score}`);
  }
  if (!Number.isFinite(forecast.point) || !Number.isFinite(forecast.margin)) throw new RangeError('the forecast must be finite');
  const atOrBelow = cutoffAtOrBelow(score, forecast);
  const below = cutoffAtOrBelow(score - 1, forecast);
  return { atOrBelow, below, equal: atOrBelow - below };
}

/** The central range holding the cut-off with probability `level` under the same law (unrounded, unclipped). */
export function centralRange(forecast: CutoffForecast, level: number): { lower: number; upper: number } {
  const b = laplaceScaleFor95(Math.max(0, forecast.margin));
  if (b === 0) return { lower: forecast.point, upper: forecast.point };
  return { lower: laplaceQuantile((1 - level) / 2, forecast.point, b), upper: laplaceQuantile((1 + level) / 2, forecast.point, b) };
}
