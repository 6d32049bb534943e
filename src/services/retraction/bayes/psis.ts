// Pareto-smoothed importance sampling (Vehtari, Simpson, Gelman, Yao & Gabry 2024, JMLR 25(72)) and
// PSIS-LOO (Vehtari, Gelman & Gabry 2017, Statistics and Computing 27). The generalised Pareto fit is
// the profile-likelihood estimator of Zhang & Stephens (2009, Technometrics 51) with the weakly
// informative shrinkage of k toward 0.5 that the PSIS paper uses.
import { essBasic } from './diagnostics.ts';
import type { LooSummary, ParetoKCounts, WaicSummary } from './types.ts';

export interface GeneralisedParetoFit {
  /** Shape ξ (the Pareto k diagnostic). */
  k: number;
  /** Scale σ. */
  sigma: number;
}

/**
 * Fits a generalised Pareto distribution (location 0) to exceedances `x` (ascending, all ≥ 0).
 * `shrink`: apply the prior adjustment k ← (n k + 10·0.5)/(n + 10).
 */
export function fitGeneralisedPareto(x: Float64Array, shrink = true): GeneralisedParetoFit {
  const n = x.length;
  const priorScale = 3;
  const m = 30 + Math.floor(Math.sqrt(n));
  const xMax = x[n - 1];
  const xQuartile = x[Math.max(0, Math.floor(n / 4 + 0.5) - 1)];
  const theta = new Float64Array(m);
  const logLik = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    theta[j] = 1 / xMax + (1 - Math.sqrt(m / (j + 0.5))) / priorScale / xQuartile;
    // Profile log-likelihood at θ (Zhang & Stephens' b = −θ): ξ(θ) = mean(log(1 + b x)), ℓ = n(log(b/ξ) − ξ − 1).
    const b = -theta[j];
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.log1p(b * x[i]);
    const kj = s / n;
    logLik[j] = n * (Math.log(b / kj) - kj - 1);
  }
  let maxLog = -Infinity;
  for (let j = 0; j < m; j++) if (logLik[j] > maxLog) maxLog = logLik[j];
  let weightSum = 0;
  let thetaHat = 0;
  for (let j = 0; j < m; j++) {
    const w = Number.isFinite(logLik[j]) ? Math.exp(logLik[j] - maxLog) : 0;
    weightSum += w;
    thetaHat += w * theta[j];
  }
  thetaHat /= weightSum;
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.log1p(-thetaHat * x[i]);
  let k = s / n;
  const sigma = -k / thetaHat;
  if (shrink) k = (n * k + 10 * 0.5) / (n + 10);
  if (Number.isNaN(k)) k = Infinity;
  return { k, sigma };
}

/** Quantile function of the generalised Pareto distribution (location 0). */
export function generalisedParetoQuantile(p: number, k: number, sigma: number): number {
  if (k === 0) return -sigma * Math.log1p(-p);
  return (sigma * Math.expm1(-k * Math.log1p(-p))) / k;
}

/**
 * Indices of the `count` largest values, in ascending order of value: a native numeric sort finds the
 * threshold, then only the candidates at or above it are ordered by index comparison.
 */
function largestIndices(values: Float64Array, count: number): Int32Array {
  const n = values.length;
  const threshold = selectKth(values.slice(), n - count);
  const candidates: number[] = [];
  for (let i = 0; i < n; i++) if (values[i] >= threshold) candidates.push(i);
  candidates.sort((a, b) => values[a] - values[b] || a - b);
  // Ties at the threshold can add candidates; keep the largest `count`.
  return Int32Array.from(candidates.slice(candidates.length - count));
}

/** The k-th smallest value (0-based) by quickselect with median-of-three pivots; reorders `a`. */
function selectKth(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot.
    let x = a[lo],
      y = a[mid],
      z = a[hi];
    if (x > y) {
      const t = x;
      x = y;
      y = t;
    }
    if (y > z) {
      y = z;
    }
    const pivot = x > y ? x : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

export interface PsisResult {
  /** Smoothed log weights, normalised to log-sum-exp 0. */
  logWeights: Float64Array;
  k: number;
  tailLength: number;
}

/**
 * Pareto-smooths the largest importance ratios: the M = ceil(min(0.2 S, 3 √(S / r_eff))) largest log
 * ratios are replaced by the expected order statistics of a generalised Pareto fitted to them, then all
 * weights are truncated at the largest raw weight.
 */
export function psis(logRatios: Float64Array, relativeEfficiency = 1): PsisResult {
  const S = logRatios.length;
  let maxRatio = -Infinity;
  for (let s = 0; s < S; s++) if (logRatios[s] > maxRatio) maxRatio = logRatios[s];
  const lw = new Float64Array(S);
  for (let s = 0; s < S; s++) lw[s] = logRatios[s] - maxRatio;
  const reff = Number.isFinite(relativeEfficiency) && relativeEfficiency > 0 ? relativeEfficiency : 1;
  const tailLength = Math.ceil(Math.min(0.2 * S, 3 * Math.sqrt(S / reff)));
  let k = Infinity;
  if (tailLength >= 5 && tailLength < S) {
    const tail = largestIndices(lw, tailLength + 1);
    const cutoff = lw[tail[0]];
    const tailMin = lw[tail[1]];
    const tailMax = lw[tail[tailLength]];
    if (tailMax - tailMin > Number.EPSILON / 100) {
      const expCutoff = Math.exp(cutoff);
      const exceed = new Float64Array(tailLength);
      for (let i = 0; i < tailLength; i++) exceed[i] = Math.exp(lw[tail[i + 1]]) - expCutoff;
      const fit = fitGeneralisedPareto(exceed);
      k = fit.k;
      if (Number.isFinite(k)) {
        for (let i = 0; i < tailLength; i++) {
          const p = (i + 0.5) / tailLength;
          lw[tail[i + 1]] = Math.log(generalisedParetoQuantile(p, k, fit.sigma) + expCutoff);
        }
      }
    } else {
      k = 0;
    }
  }
  let maxW = -Infinity;
  for (let s = 0; s < S; s++) {
    if (lw[s] > 0) lw[s] = 0;
    if (lw[s] > maxW) maxW = lw[s];
  }
  let sum = 0;
  for (let s = 0; s < S; s++) sum += Math.exp(lw[s] - maxW);
  const total = maxW + Math.log(sum);
  for (let s = 0; s < S; s++) lw[s] -= total;
  return { logWeights: lw, k, tailLength };
}

export interface PointwiseLoo {
  elpd: Float64Array;
  /** log of the posterior mean of p(y_i | θ): the in-sample log predictive density. */
  lpd: Float64Array;
  paretoK: Float64Array;
  /** Posterior variance of log p(y_i | θ) (sample variance over draws): WAIC's pointwise p_waic. */
  pWaic: Float64Array;
}

export function countParetoK(k: ArrayLike<number>): ParetoKCounts {
  const counts: ParetoKCounts = { good: 0, ok: 0, bad: 0, veryBad: 0 };
  for (let i = 0; i < k.length; i++) {
    const v = k[i];
    if (v <= 0.5) counts.good++;
    else if (v <= 0.7) counts.ok++;
    else if (v <= 1) counts.bad++;
    else counts.veryBad++;
  }
  return counts;
}

/** Sum and standard error √(n · var) of pointwise terms, as `loo` reports them. */
function total(a: Float64Array): { sum: number; se: number } {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i];
  const m = sum / a.length;
  let v = 0;
  for (let i = 0; i < a.length; i++) v += (a[i] - m) * (a[i] - m);
  return { sum, se: Math.sqrt((a.length * v) / Math.max(1, a.length - 1)) };
}

/**
 * WAIC from the pointwise in-sample log predictive densities and posterior variances of the log-likelihood:
 * elpd_waic = Σ (lpd_i − p_waic_i), waic = −2 elpd_waic, standard errors from the pointwise terms.
 */
function waicFromPointwise(lpd: Float64Array, pWaic: Float64Array): WaicSummary {
  const elpd = lpd.map((v, i) => v - pWaic[i]);
  const e = total(elpd);
  const p = total(pWaic);
  let large = 0;
  for (let i = 0; i < pWaic.length; i++) if (pWaic[i] > 0.4) large++;
  return { elpdWaic: e.sum, elpdWaicSe: e.se, pWaic: p.sum, pWaicSe: p.se, waic: -2 * e.sum, waicSe: 2 * e.se, pWaicAbove04: large };
}

/**
 * PSIS-LOO (and WAIC, from the same pass) from per-observation log-likelihoods. `logLik(i, out)` writes
 * log p(y_i | θ_s) for all S draws, chain-major with `chains` chains of S / chains draws (used for the
 * relative efficiency of each ratio).
 */
export function psisLoo(
  nObservations: number,
  nDraws: number,
  chains: number,
  logLik: (i: number, out: Float64Array) => void,
): { summary: LooSummary; waic: WaicSummary; pointwise: PointwiseLoo } {
  const ll = new Float64Array(nDraws);
  const negLl = new Float64Array(nDraws);
  const expLl = new Float64Array(nDraws);
  const perChain = Math.floor(nDraws / chains);
  const elpd = new Float64Array(nObservations);
  const lpd = new Float64Array(nObservations);
  const paretoK = new Float64Array(nObservations);
  const pWaic = new Float64Array(nObservations);
  for (let i = 0; i < nObservations; i++) {
    logLik(i, ll);
    let maxLl = -Infinity;
    let meanLl = 0;
    for (let s = 0; s < nDraws; s++) {
      if (ll[s] > maxLl) maxLl = ll[s];
      meanLl += ll[s];
    }
    meanLl /= nDraws;
    let ssLl = 0;
    for (let s = 0; s < nDraws; s++) ssLl += (ll[s] - meanLl) * (ll[s] - meanLl);
    pWaic[i] = ssLl / Math.max(1, nDraws - 1);
    let sumExp = 0;
    for (let s = 0; s < nDraws; s++) {
      negLl[s] = -ll[s];
      expLl[s] = Math.exp(ll[s] - maxLl);
      sumExp += expLl[s];
    }
    lpd[i] = maxLl + Math.log(sumExp / nDraws);
    // Relative efficiency of the ratios from the chains' autocorrelation of exp(ll).
    let reff = 1;
    if (perChain >= 4) {
      const parts: Float64Array[] = [];
      for (let c = 0; c < chains; c++) parts.push(expLl.subarray(c * perChain, (c + 1) * perChain));
      const ess = essBasic(parts);
      if (Number.isFinite(ess)) reff = ess / (perChain * chains);
    }
    const { logWeights, k } = psis(negLl, reff);
    let maxTerm = -Infinity;
    for (let s = 0; s < nDraws; s++) {
      ll[s] += logWeights[s];
      if (ll[s] > maxTerm) maxTerm = ll[s];
    }
    let sum = 0;
    for (let s = 0; s < nDraws; s++) sum += Math.exp(ll[s] - maxTerm);
    elpd[i] = maxTerm + Math.log(sum);
    paretoK[i] = k;
  }
  const pLooPointwise = lpd.map((v, i) => v - elpd[i]);
  const { sum: elpdLoo, se: elpdLooSe } = total(elpd);
  const p = total(pLooPointwise);
  let maxK = -Infinity;
  for (let i = 0; i < paretoK.length; i++) if (paretoK[i] > maxK) maxK = paretoK[i];
  return {
    summary: {
      elpdLoo,
      elpdLooSe,
      pLoo: p.sum,
      pLooSe: p.se,
      looic: -2 * elpdLoo,
      looicSe: 2 * elpdLooSe,
      paretoK: countParetoK(paretoK),
      maxParetoK: nObservations > 0 ? maxK : null,
    },
    waic: waicFromPointwise(lpd, pWaic),
    pointwise: { elpd, lpd, paretoK, pWaic },
  };
}
