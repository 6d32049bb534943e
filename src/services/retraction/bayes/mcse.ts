// Monte Carlo standard errors of posterior summaries, the formulas of Vehtari, Gelman, Simpson, Carpenter &
// Bürkner (2021), "Rank-normalization, folding, and localization", §4 and appendix, as the R package
// `posterior` computes them:
//   mean      sd / √ESS_mean, ESS_mean the ESS of the split (not rank-normalised) chains;
//   sd        first-order delta method on the variance, √(Var(var̂) / (4 var̂)), with
//             Var(var̂) = (E[(x − x̄)⁴] − var̂²) / ESS of (x − x̄)² (Kenney & Keeping 1951, p. 141);
//   quantile  the ±1 sd interval of the quantile's position: with ESS_q the ESS of I(x ≤ q̂), a = Beta
//             quantiles at Φ(−1), Φ(1) of Beta(ESS_q p + 1, ESS_q (1 − p) + 1), the draws at positions
//             ⌊a₁S⌋ and ⌈a₂S⌉ of the sorted draws, MCSE = half their distance;
//   P(A)      a mean of the indicator of A: √(p (1 − p) / ESS of the indicator).
import { essBasic, essQuantile, splitChains } from './diagnostics.ts';
import { betaQuantile } from './special.ts';

/** Φ(−1) and Φ(1): the probabilities of a ±1 sd interval of a normal. */
const ONE_SD = [0.15865525393145707, 0.8413447460685429] as const;

function pooled(chains: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(chains.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chains) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** ESS of the mean: basic ESS of the split chains, without rank normalisation. */
export function essMean(chains: readonly Float64Array[]): number {
  return essBasic(splitChains(chains));
}

/** MCSE of the posterior mean. NaN for a constant quantity. */
export function mcseMean(chains: readonly Float64Array[]): number {
  const all = pooled(chains);
  const n = all.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += all[i];
  m /= n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (all[i] - m) * (all[i] - m);
  const sd = Math.sqrt(ss / (n - 1));
  return sd / Math.sqrt(essMean(chains));
}

/** MCSE of the posterior standard deviation. NaN for a constant quantity. */
export function mcseSd(chains: readonly Float64Array[]): number {
  const all = pooled(chains);
  const n = all.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += all[i];
  m /= n;
  const squared = chains.map((c) => c.map((v) => (v - m) * (v - m)));
  let m2 = 0;
  let m4 = 0;
  for (const c of squared) {
    for (let i = 0; i < c.length; i++) {
      m2 += c[i];
      m4 += c[i] * c[i];
    }
  }
  m2 /= n;
  m4 /= n;
  const ess = essMean(squared);
  const varOfVar = (m4 - m2 * m2) / ess;
  return Math.sqrt(varOfVar / m2 / 4);
}

export interface QuantileMcse {
  /** Half the distance between the draws bracketing the quantile's ±1 sd position interval. */
  mcse: number;
  /** Those two draws: a monotone transform g gives MCSE(g(q)) = (g(upper) − g(lower)) / 2. */
  lower: number;
  upper: number;
}

/** MCSE of the `prob` quantile. `sorted`: all draws ascending (pass it when computing several quantiles). */
export function mcseQuantile(chains: readonly Float64Array[], prob: number, sorted?: Float64Array): QuantileMcse {
  const ess = essQuantile(chains, prob);
  const sims = sorted ?? pooled(chains).sort();
  const S = sims.length;
  if (!Number.isFinite(ess)) return { mcse: NaN, lower: NaN, upper: NaN };
  const a1 = betaQuantile(ONE_SD[0], ess * prob + 1, ess * (1 - prob) + 1);
  const a2 = betaQuantile(ONE_SD[1], ess * prob + 1, ess * (1 - prob) + 1);
  // 1-based positions max(⌊a₁S⌋, 1) and min(⌈a₂S⌉, S), as in the reference implementation.
  const lower = sims[Math.max(Math.floor(a1 * S), 1) - 1];
  const upper = sims[Math.min(Math.ceil(a2 * S), S) - 1];
  return { mcse: (upper - lower) / 2, lower, upper };
}

/**
 * MCSE of a probability estimated as the share of draws where `event` holds. When every draw agrees the
 * estimate is 0 or 1 and its MCSE 0 (the indicator has no variance to measure).
 */
export function mcseProbability(chains: readonly Float64Array[], event: (value: number) => boolean): number {
  let hits = 0;
  let total = 0;
  const indicators = chains.map((c) => {
    const out = new Float64Array(c.length);
    for (let i = 0; i < c.length; i++) {
      if (event(c[i])) {
        out[i] = 1;
        hits++;
      }
    }
    total += c.length;
    return out;
  });
  const p = hits / total;
  if (p === 0 || p === 1) return 0;
  return Math.sqrt((p * (1 - p)) / essMean(indicators));
}
