// Convergence diagnostics of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-normalization,
// folding, and localization: an improved R̂ for assessing convergence of MCMC", Bayesian Analysis 16(2):
// rank-normalised split R̂ (max of bulk and folded), bulk ESS and tail ESS, with the ESS from Geyer's
// initial monotone sequence over the multi-chain autocorrelation.
import { normalQuantile, quantileSorted } from './special.ts';

/** In-place iterative radix-2 FFT on (re, im); n must be a power of two. inverse: unscaled inverse transform. */
function fft(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      let t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / len;
    const wRe = Math.cos(angle);
    const wIm = Math.sin(angle);
    const half = len >> 1;
    for (let i = 0; i < n; i += len) {
      let curRe = 1;
      let curIm = 0;
      for (let k = 0; k < half; k++) {
        const aRe = re[i + k + half] * curRe - im[i + k + half] * curIm;
        const aIm = re[i + k + half] * curIm + im[i + k + half] * curRe;
        re[i + k + half] = re[i + k] - aRe;
        im[i + k + half] = im[i + k] - aIm;
        re[i + k] += aRe;
        im[i + k] += aIm;
        const nextRe = curRe * wRe - curIm * wIm;
        curIm = curRe * wIm + curIm * wRe;
        curRe = nextRe;
      }
    }
  }
}

/** Biased autocovariance estimates (divisor n) at lags 0..n-1, by FFT with zero padding. */
export function autocovariance(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  let size = 1;
  while (size < 2 * n) size <<= 1;
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  for (let i = 0; i < n; i++) re[i] = x[i] - mean;
  fft(re, im, false);
  for (let i = 0; i < size; i++) {
    re[i] = re[i] * re[i] + im[i] * im[i];
    im[i] = 0;
  }
  fft(re, im, true);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = re[i] / size / n;
  return out;
}

/**
 * Autocovariances computed on demand: short lags by direct sums (a well-mixing chain needs only a few),
 * and all lags at once by FFT as soon as a long lag is asked for.
 */
class LazyAutocovariance {
  private readonly centred: Float64Array;
  private readonly direct: Float64Array;
  private all: Float64Array | null = null;
  private static readonly DIRECT_LAGS = 48;

  constructor(x: Float64Array) {
    const n = x.length;
    let m = 0;
    for (let i = 0; i < n; i++) m += x[i];
    m /= n;
    this.centred = new Float64Array(n);
    for (let i = 0; i < n; i++) this.centred[i] = x[i] - m;
    this.direct = new Float64Array(Math.min(n, LazyAutocovariance.DIRECT_LAGS)).fill(NaN);
  }

  at(lag: number): number {
    if (this.all) return this.all[lag];
    if (lag < this.direct.length) {
      let v = this.direct[lag];
      if (Number.isNaN(v)) {
        const d = this.centred;
        const n = d.length;
        let s = 0;
        for (let t = 0; t + lag < n; t++) s += d[t] * d[t + lag];
        v = s / n;
        this.direct[lag] = v;
      }
      return v;
    }
    this.all = autocovariance(this.centred);
    return this.all[lag];
  }
}

function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / x.length;
}

function sampleVariance(x: ArrayLike<number>): number {
  const m = mean(x);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - m) * (x[i] - m);
  return s / (x.length - 1);
}

/** Each chain cut into its first and second half (an odd middle draw is dropped). */
export function splitChains(chains: readonly Float64Array[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (const c of chains) {
    const half = Math.floor(c.length / 2);
    out.push(c.subarray(0, half), c.subarray(c.length - half));
  }
  return out;
}

function isConstant(chains: readonly Float64Array[]): boolean {
  const first = chains[0][0];
  for (const c of chains) for (let i = 0; i < c.length; i++) if (c[i] !== first) return false;
  return true;
}

/**
 * ESS of the mean over equal-length chains (no splitting or ranking here): Geyer's initial positive
 * and monotone sequence on the combined autocorrelation, with the variance inflated by between-chain
 * disagreement. NaN for a constant quantity.
 */
export function essBasic(chains: readonly Float64Array[]): number {
  const m = chains.length;
  const n = Math.min(...chains.map((c) => c.length));
  if (n < 4 || isConstant(chains)) return NaN;
  const acov = chains.map((c) => new LazyAutocovariance(c.length === n ? c : c.subarray(0, n)));
  const chainMeans = chains.map((c) => mean(c.subarray(0, n)));
  let meanVar = 0;
  for (const a of acov) meanVar += (a.at(0) * n) / (n - 1);
  meanVar /= m;
  let varPlus = (meanVar * (n - 1)) / n;
  if (m > 1) varPlus += sampleVariance(chainMeans);
  const rhoAt = (lag: number): number => {
    let s = 0;
    for (const a of acov) s += a.at(lag);
    return 1 - (meanVar - s / m) / varPlus;
  };
  const rho = new Float64Array(n);
  rho[0] = 1;
  let rhoEven = 1;
  let rhoOdd = rhoAt(1);
  rho[1] = rhoOdd;
  let t = 0;
  while (t < n - 5 && rhoEven + rhoOdd > 0) {
    t += 2;
    rhoEven = rhoAt(t);
    rhoOdd = rhoAt(t + 1);
    if (rhoEven + rhoOdd >= 0) {
      rho[t] = rhoEven;
      rho[t + 1] = rhoOdd;
    }
  }
  const maxT = t;
  // The last positive even lag enters the improved (antithetic-friendly) estimate.
  if (rhoEven > 0) rho[maxT] = rhoEven;
  // Initial monotone sequence: pair sums may not increase.
  for (let s = 2; s <= maxT - 2; s += 2) {
    if (rho[s] + rho[s + 1] > rho[s - 2] + rho[s - 1]) {
      rho[s] = (rho[s - 2] + rho[s - 1]) / 2;
      rho[s + 1] = rho[s];
    }
  }
  let sum = 0;
  for (let s = 0; s < maxT; s++) sum += rho[s];
  const total = m * n;
  let tau = -1 + 2 * sum + rho[maxT];
  tau = Math.max(tau, 1 / Math.log10(total));
  return total / tau;
}

function pooled(chains: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(chains.reduce((sum, c) => sum + c.length, 0));
  let o = 0;
  for (const c of chains) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** First index in ascending `sorted` whose value is ≥ v (upper = false) or > v (upper = true). */
function bound(sorted: Float64Array, v: number, upper: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (upper ? sorted[mid] <= v : sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Normal scores of the pooled ranks (average rank for ties), Blom's offset 3/8; same shapes as the input. */
export function rankNormalise(chains: readonly Float64Array[]): Float64Array[] {
  const values = pooled(chains);
  const total = values.length;
  const sorted = values.slice().sort();
  const z = new Float64Array(total);
  for (let i = 0; i < total; i++) {
    const v = values[i];
    // 1-based average rank of v among ties: (first + last) / 2 + 1.
    const rank = (bound(sorted, v, false) + bound(sorted, v, true) - 1) / 2 + 1;
    z[i] = normalQuantile((rank - 0.375) / (total + 0.25));
  }
  const out: Float64Array[] = [];
  let o = 0;
  for (const c of chains) {
    out.push(z.subarray(o, o + c.length));
    o += c.length;
  }
  return out;
}

/** Classic potential scale reduction over the given (already split) chains. */
export function rhatBasic(chains: readonly Float64Array[]): number {
  const m = chains.length;
  const n = Math.min(...chains.map((c) => c.length));
  if (m < 2 || n < 2 || isConstant(chains)) return NaN;
  const means = chains.map((c) => mean(c.subarray(0, n)));
  const within = mean(chains.map((c) => sampleVariance(c.subarray(0, n))));
  const betweenOverN = sampleVariance(means);
  const varPlus = ((n - 1) / n) * within + betweenOverN;
  return Math.sqrt(varPlus / within);
}

function folded(chains: readonly Float64Array[]): Float64Array[] {
  const all = pooled(chains).sort();
  const median = quantileSorted(all, 0.5);
  return chains.map((c) => c.map((v) => Math.abs(v - median)));
}

/** Rank-normalised split R̂: the larger of the bulk R̂ and the R̂ of the folded draws. */
export function splitRhat(chains: readonly Float64Array[]): number {
  const split = splitChains(chains);
  const bulk = rhatBasic(rankNormalise(split));
  const tail = rhatBasic(rankNormalise(folded(split)));
  if (Number.isNaN(bulk)) return tail;
  if (Number.isNaN(tail)) return bulk;
  return Math.max(bulk, tail);
}

/** Bulk ESS: ESS of the rank-normalised split chains. */
export function essBulk(chains: readonly Float64Array[]): number {
  return essBasic(rankNormalise(splitChains(chains)));
}

/** ESS of the quantile at prob: ESS of the indicator I(θ ≤ q) over split chains. */
export function essQuantile(chains: readonly Float64Array[], prob: number): number {
  const all = pooled(chains).sort();
  const q = quantileSorted(all, prob);
  const indicators = splitChains(chains).map((c) => c.map((v) => (v <= q ? 1 : 0)));
  return essBasic(indicators);
}

/** Tail ESS: the smaller of the ESS of the 5% and 95% quantiles. */
export function essTail(chains: readonly Float64Array[]): number {
  const lo = essQuantile(chains, 0.05);
  const hi = essQuantile(chains, 0.95);
  if (Number.isNaN(lo)) return hi;
  if (Number.isNaN(hi)) return lo;
  return Math.min(lo, hi);
}

/** Energy Bayesian fraction of missing information of one chain (Betancourt 2016). */
export function ebfmi(energy: ArrayLike<number>): number {
  const n = energy.length;
  if (n < 2) return NaN;
  const m = mean(energy);
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    den += (energy[i] - m) * (energy[i] - m);
    if (i > 0) num += (energy[i] - energy[i - 1]) * (energy[i] - energy[i - 1]);
  }
  return num / den;
}

export interface QuantityDiagnostics {
  rhat: number;
  essBulk: number;
  essTail: number;
}

export function diagnoseQuantity(chains: readonly Float64Array[]): QuantityDiagnostics {
  return { rhat: splitRhat(chains), essBulk: essBulk(chains), essTail: essTail(chains) };
}
