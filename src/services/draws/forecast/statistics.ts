// Small statistical building blocks of the forecasts, each checked against closed forms in the tests.

export function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Sample quantile by linear interpolation between order statistics (Hyndman & Fan type 7, R's default). */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('quantile of no values');
  const s = [...values].sort((a, b) => a - b);
  const position = (s.length - 1) * p;
  const lo = Math.floor(position);
  const hi = Math.ceil(position);
  return s[lo] + (s[hi] - s[lo]) * (position - lo);
}

/**
 * P(|T| ≤ t) for Student's t with integer ν degrees of freedom, by the finite series of Abramowitz & Stegun
 * 26.7.3–26.7.4 (θ = atan(t/√ν)); exact up to rounding, no special functions needed.
 */
export function studentTCentralProbability(t: number, nu: number): number {
  if (!Number.isInteger(nu) || nu < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${nu}`);
  if (t === Infinity) return 1;
  const theta = Math.atan(Math.abs(t) / Math.sqrt(nu));
  const c2 = Math.cos(theta) ** 2;
  const s = Math.sin(theta);
  if (nu % 2 === 1) {
    if (nu === 1) return (2 * theta) / Math.PI;
    let term = 1;
    let sum = 1;
    for (let k = 2; k <= nu - 3; k += 2) {
      term *= (c2 * k) / (k + 1);
      sum += term;
    }
    return (2 / Math.PI) * (theta + s * Math.cos(theta) * sum);
  }
  let term = 1;
  let sum = 1;
  for (let k = 1; k <= nu - 3; k += 2) {
    term *= (c2 * k) / (k + 1);
    sum += term;
  }
  return s * sum;
}

const tQuantileCache = new Map<string, number>();

/** Upper quantile t with P(T ≤ t) = p (p > 0.5), integer ν, by bisection on the exact probability. */
export function studentTQuantile(p: number, nu: number): number {
  if (!(p > 0.5 && p < 1)) throw new RangeError(`p must be in (0.5, 1), got ${p}`);
  const key = `${p}:${nu}`;
  const cached = tQuantileCache.get(key);
  if (cached !== undefined) return cached;
  const target = 2 * p - 1;
  let lo = 0;
  let hi = 1;
  while (studentTCentralProbability(hi, nu) < target) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCentralProbability(mid, nu) < target) lo = mid;
    else hi = mid;
  }
  const result = (lo + hi) / 2;
  tQuantileCache.set(key, result);
  return result;
}

/**
 * Split-conformal half-width: the k-th smallest absolute error with k = ⌈(n+1)·level⌉, the finite-sample rank
 * that gives coverage of at least `level` for exchangeable errors. Infinity when n is too small for that rank.
 */
export function conformalHalfWidth(absoluteErrors: readonly number[], level = 0.95): number {
  const n = absoluteErrors.length;
  const k = Math.ceil((n + 1) * level - 1e-9);
  if (k > n) return Infinity;
  const s = [...absoluteErrors].sort((a, b) => a - b);
  return s[k - 1];
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** A monotone (non-decreasing) step map from a score to a probability: blocks of scores with their observed rate. */
export interface IsotonicBlock {
  /** Mean score of the block's observations. */
  score: number;
  rate: number;
  n: number;
}

/**
 * Isotonic regression of outcomes (0/1) on scores by pool-adjacent-violators: the non-decreasing step function of
 * least squared error. Blocks oldest score first. Observations of one score start as one block: a map is a function of
 * the score, and blocks of one score with different rates would leave it to the observations' order which rate a
 * score is mapped to.
 */
export function fitIsotonic(observations: readonly { score: number; outcome: boolean }[]): IsotonicBlock[] {
  const sorted = [...observations].sort((a, b) => a.score - b.score);
  const blocks: { sum: number; hits: number; n: number }[] = [];
  for (let i = 0; i < sorted.length;) {
    const block = { sum: 0, hits: 0, n: 0 };
    for (const score = sorted[i].score; i < sorted.length && sorted[i].score === score; i++) {
      block.sum += score;
      block.hits += sorted[i].outcome ? 1 : 0;
      block.n++;
    }
    blocks.push(block);
    while (blocks.length > 1) {
      const [a, b] = blocks.slice(-2);
      if (a.hits / a.n < b.hits / b.n) break;
      blocks.splice(-2, 2, { sum: a.sum + b.sum, hits: a.hits + b.hits, n: a.n + b.n });
    }
  }
  return blocks.map((b) => ({ score: b.sum / b.n, rate: b.hits / b.n, n: b.n }));
}

/** The isotonic map at a score: linear between the blocks' mean scores, the end blocks' rates beyond them. */
export function isotonicAt(blocks: readonly IsotonicBlock[], score: number): number {
  if (blocks.length === 0) throw new RangeError('isotonicAt needs at least one block');
  if (score <= blocks[0].score) return blocks[0].rate;
  for (let i = 1; i < blocks.length; i++) {
    const [a, b] = [blocks[i - 1], blocks[i]];
    if (score <= b.score) return a.rate + ((b.rate - a.rate) * (score - a.score)) / (b.score - a.score);
  }
  return blocks[blocks.length - 1].rate;
}
