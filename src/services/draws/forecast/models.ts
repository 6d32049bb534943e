// The candidate forecasting models, simplest first. Each fits a series (oldest first) and gives h-step point
// forecasts with an analytic forecast standard deviation. Analytic 95% intervals use Student's t with the
// residual degrees of freedom (one-step errors minus fitted parameters), a small-sample allowance for the
// estimated σ; σ̂² = SSE / df.
import { studentTQuantile } from './statistics.ts';

/** The models with a fitted form here (members.ts combines them with the pooled reversion model). */
type FittedModelName = 'naive' | 'window_mean' | 'ses' | 'damped_trend';

export interface FittedModel {
  model: FittedModelName;
  /** Fitted or fixed parameters (alpha, beta, phi, window). */
  parameters: Record<string, number>;
  /** Residual degrees of freedom of σ̂. */
  df: number;
  /** σ̂ of one-step errors. */
  sigma: number;
  point(h: number): number;
  /** Standard deviation of the h-step forecast error under the model. */
  sd(h: number): number;
}

/** Half-width of the model's analytic central interval at the given level (default 95%). */
export function analyticHalfWidth(fitted: FittedModel, h: number, level = 0.95): number {
  if (fitted.df < 1) return Infinity;
  return studentTQuantile(1 - (1 - level) / 2, fitted.df) * fitted.sd(h);
}

function requireLength(y: readonly number[], n: number, model: string): void {
  if (y.length < n) throw new RangeError(`${model} needs at least ${n} observations, got ${y.length}`);
}

/** Random walk: the last value, σ̂ from one-step differences, sd(h) = σ̂·√h. */
export function fitNaive(y: readonly number[]): FittedModel {
  requireLength(y, 2, 'naive');
  const T = y.length;
  let sse = 0;
  for (let t = 1; t < T; t++) sse += (y[t] - y[t - 1]) ** 2;
  const df = T - 1;
  const sigma = Math.sqrt(sse / df);
  const last = y[T - 1];
  return { model: 'naive', parameters: {}, df, sigma, point: () => last, sd: (h) => sigma * Math.sqrt(h) };
}

/**
 * Mean of the last `window` values. The model is a constant level plus independent noise, under which the
 * forecast error has the same variance at every horizon; σ̂² is the mean squared one-step error of the
 * rolling window mean over the history (early points use the values available).
 */
export function fitWindowMean(y: readonly number[], window: number): FittedModel {
  requireLength(y, 2, 'window_mean');
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`window must be a positive integer, got ${window}`);
  const T = y.length;
  let sse = 0;
  for (let t = 1; t < T; t++) {
    const from = Math.max(0, t - window);
    let s = 0;
    for (let i = from; i < t; i++) s += y[i];
    sse += (y[t] - s / (t - from)) ** 2;
  }
  const df = T - 1;
  const sigma = Math.sqrt(sse / df);
  const from = Math.max(0, T - window);
  let s = 0;
  for (let i = from; i < T; i++) s += y[i];
  const level = s / (T - from);
  return { model: 'window_mean', parameters: { window }, df, sigma, point: () => level, sd: () => sigma };
}

/** One pass of simple exponential smoothing, level started at y[0]: SSE of the one-step errors and final level. */
export function sesFilter(y: readonly number[], alpha: number): { sse: number; level: number } {
  let level = y[0];
  let sse = 0;
  for (let t = 1; t < y.length; t++) {
    const e = y[t] - level;
    sse += e * e;
    level += alpha * e;
  }
  return { sse, level };
}

export const SES_ALPHA_RANGE = [0.01, 1] as const;

/** α minimising the one-step SSE: a grid of 0.05 steps, then golden-section search around the best point. */
export function fitSesAlpha(y: readonly number[]): number {
  const [lo, hi] = SES_ALPHA_RANGE;
  let bestAlpha = 1;
  let bestSse = Infinity;
  for (let i = 1; i <= 20; i++) {
    const a = i * 0.05;
    const { sse } = sesFilter(y, a);
    if (sse < bestSse) {
      bestSse = sse;
      bestAlpha = a;
    }
  }
  let a = Math.max(lo, bestAlpha - 0.05);
  let b = Math.min(hi, bestAlpha + 0.05);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = sesFilter(y, c).sse;
  let fd = sesFilter(y, d).sse;
  for (let i = 0; i < 40 && b - a > 1e-7; i++) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = sesFilter(y, c).sse;
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = sesFilter(y, d).sse;
    }
  }
  for (const candidate of [(a + b) / 2, lo, hi]) {
    const { sse } = sesFilter(y, candidate);
    if (sse < bestSse) {
      bestSse = sse;
      bestAlpha = candidate;
    }
  }
  return bestAlpha;
}

/** SES with a given α: level forecast, sd(h) = σ̂·√(1 + (h−1)α²) (ETS(A,N,N)). */
export function sesWithAlpha(y: readonly number[], alpha: number, fittedParameters: number): FittedModel {
  const { sse, level } = sesFilter(y, alpha);
  const df = y.length - 1 - fittedParameters;
  const sigma = df >= 1 ? Math.sqrt(sse / df) : NaN;
  return {
    model: 'ses',
    parameters: { alpha },
    df,
    sigma,
    point: () => level,
    sd: (h) => sigma * Math.sqrt(1 + (h - 1) * alpha * alpha),
  };
}

export function fitSes(y: readonly number[]): FittedModel {
  requireLength(y, 3, 'ses');
  return sesWithAlpha(y, fitSesAlpha(y), 1);
}

/**
 * Additive damped trend in error-correction form (ETS(A,Ad,N)): with ŷ = ℓ + φb and e = y − ŷ,
 * ℓ ← ℓ + φb + αe and b ← φb + βe (β = α·β* of Holt's form). Started at ℓ = y[0], b = 0.
 */
export function dampedFilter(
  y: readonly number[],
  alpha: number,
  beta: number,
  phi: number,
): { sse: number; level: number; trend: number } {
  let level = y[0];
  let trend = 0;
  let sse = 0;
  for (let t = 1; t < y.length; t++) {
    const forecast = level + phi * trend;
    const e = y[t] - forecast;
    sse += e * e;
    level = forecast + alpha * e;
    trend = phi * trend + beta * e;
  }
  return { sse, level, trend };
}

export const DAMPED_PHI_RANGE = [0.8, 0.98] as const;

/** Damped trend with given parameters: point ℓ + (φ+…+φ^h)b, sd(h)² = σ̂²(1 + Σ_{j<h} (α + β(φ+…+φ^j))²). */
export function dampedWithParameters(
  y: readonly number[],
  alpha: number,
  beta: number,
  phi: number,
  fittedParameters: number,
): FittedModel {
  const { sse, level, trend } = dampedFilter(y, alpha, beta, phi);
  const df = y.length - 1 - fittedParameters;
  const sigma = df >= 1 ? Math.sqrt(sse / df) : NaN;
  const phiSum = (h: number): number => {
    let s = 0;
    let p = 1;
    for (let j = 1; j <= h; j++) {
      p *= phi;
      s += p;
    }
    return s;
  };
  return {
    model: 'damped_trend',
    parameters: { alpha, beta, phi },
    df,
    sigma,
    point: (h) => level + phiSum(h) * trend,
    sd: (h) => {
      let v = 1;
      for (let j = 1; j < h; j++) v += (alpha + beta * phiSum(j)) ** 2;
      return sigma * Math.sqrt(v);
    },
  };
}

const logistic = (u: number): number => 1 / (1 + Math.exp(-u));
const logit = (p: number): number => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p));
  return Math.log(q / (1 - q));
};

/** Unconstrained u ↦ (α, β, φ) with α ∈ [0.01, 1], β ∈ [0, α], φ ∈ [0.8, 0.98]. */
function dampedParameters(u: readonly number[]): [number, number, number] {
  const alpha = 0.01 + 0.99 * logistic(u[0]);
  const beta = alpha * logistic(u[1]);
  const phi = DAMPED_PHI_RANGE[0] + (DAMPED_PHI_RANGE[1] - DAMPED_PHI_RANGE[0]) * logistic(u[2]);
  return [alpha, beta, phi];
}

/** Nelder–Mead minimisation (standard coefficients), deterministic, at most maxEvaluations calls. */
export function nelderMead(
  f: (x: number[]) => number,
  start: readonly number[],
  step: number,
  maxEvaluations: number,
): { x: number[]; value: number } {
  const n = start.length;
  let evaluations = 0;
  const evaluate = (x: number[]): number => {
    evaluations++;
    return f(x);
  };
  const simplex: { x: number[]; value: number }[] = [{ x: [...start], value: evaluate([...start]) }];
  for (let i = 0; i < n; i++) {
    const x = [...start];
    x[i] += step;
    simplex.push({ x, value: evaluate(x) });
  }
  while (evaluations < maxEvaluations) {
    simplex.sort((a, b) => a.value - b.value);
    const best = simplex[0];
    const worst = simplex[n];
    if (Math.abs(worst.value - best.value) <= 1e-10 * (Math.abs(best.value) + 1e-12)) break;
    const centroid = new Array<number>(n).fill(0);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) centroid[j] += simplex[i].x[j] / n;
    const along = (t: number): number[] => centroid.map((c, j) => c + t * (worst.x[j] - c));
    const reflected = along(-1);
    const fr = evaluate(reflected);
    if (fr < best.value) {
      const expanded = along(-2);
      const fe = evaluate(expanded);
      simplex[n] = fe < fr ? { x: expanded, value: fe } : { x: reflected, value: fr };
    } else if (fr < simplex[n - 1].value) {
      simplex[n] = { x: reflected, value: fr };
    } else {
      const contracted = fr < worst.value ? along(-0.5) : along(0.5);
      const fc = evaluate(contracted);
      if (fc < Math.min(fr, worst.value)) {
        simplex[n] = { x: contracted, value: fc };
      } else {
        for (let i = 1; i <= n; i++) {
          const x = simplex[i].x.map((v, j) => best.x[j] + 0.5 * (v - best.x[j]));
          simplex[i] = { x, value: evaluate(x) };
        }
      }
    }
  }
  simplex.sort((a, b) => a.value - b.value);
  return simplex[0];
}

/** (α, β, φ) minimising the one-step SSE: a coarse grid, then Nelder–Mead from its best point. */
function fitDampedParameters(y: readonly number[]): [number, number, number] {
  let best: [number, number, number] = [1, 0, DAMPED_PHI_RANGE[1]];
  let bestSse = Infinity;
  for (const alpha of [0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
    for (const betaShare of [0, 0.1, 0.3]) {
      for (const phi of [0.8, 0.9, 0.98]) {
        const { sse } = dampedFilter(y, alpha, alpha * betaShare, phi);
        if (sse < bestSse) {
          bestSse = sse;
          best = [alpha, alpha * betaShare, phi];
        }
      }
    }
  }
  const start = [
    logit((best[0] - 0.01) / 0.99),
    logit(best[0] > 0 ? best[1] / best[0] : 0),
    logit((best[2] - DAMPED_PHI_RANGE[0]) / (DAMPED_PHI_RANGE[1] - DAMPED_PHI_RANGE[0])),
  ];
  const result = nelderMead(
    (u) => {
      const [a, b, p] = dampedParameters(u);
      return dampedFilter(y, a, b, p).sse;
    },
    start,
    1,
    120,
  );
  return result.value < bestSse ? dampedParameters(result.x) : best;
}

export function fitDamped(y: readonly number[]): FittedModel {
  requireLength(y, DAMPED_MIN_OBSERVATIONS, 'damped_trend');
  const [alpha, beta, phi] = fitDampedParameters(y);
  return dampedWithParameters(y, alpha, beta, phi, 3);
}

/** Fewest observations a damped trend is fitted to (at a backtest origin). */
export const DAMPED_MIN_OBSERVATIONS = 10;
