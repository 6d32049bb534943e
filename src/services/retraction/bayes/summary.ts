// Posterior summaries of the coefficients and the plain-language sentence derived from them.
import { diagnoseQuantity } from './diagnostics.ts';
import { quantileSorted } from './special.ts';
import { mcseMean, mcseProbability, mcseQuantile, mcseSd } from './mcse.ts';
import type { ParameterSummary, PredictorSummary, SummaryMcse } from './types.ts';

export interface DrawSummary {
  mean: number;
  sd: number;
  median: number;
  q025: number;
  q975: number;
  probPositive: number;
  probNegative: number;
}

/** Summary of all draws of one quantity (chains pooled). */
export function summariseDraws(all: ArrayLike<number>): DrawSummary {
  const n = all.length;
  const sorted = Float64Array.from(all).sort();
  let sum = 0;
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < n; i++) {
    sum += sorted[i];
    if (sorted[i] > 0) positive++;
    else if (sorted[i] < 0) negative++;
  }
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (sorted[i] - mean) * (sorted[i] - mean);
  return {
    mean,
    sd: n > 1 ? Math.sqrt(ss / (n - 1)) : 0,
    median: quantileSorted(sorted, 0.5),
    q025: quantileSorted(sorted, 0.025),
    q975: quantileSorted(sorted, 0.975),
    probPositive: positive / n,
    probNegative: negative / n,
  };
}

export function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function concat(chains: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(chains.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chains) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** Summary, convergence diagnostics and Monte Carlo standard errors of one quantity's chains. */
function summariseChains(chains: readonly Float64Array[]) {
  const all = concat(chains);
  const s = summariseDraws(all);
  const d = diagnoseQuantity(chains);
  const sorted = all.slice().sort();
  const lower = mcseQuantile(chains, 0.025, sorted);
  const upper = mcseQuantile(chains, 0.975, sorted);
  const mcse: SummaryMcse = {
    mean: finiteOrNull(mcseMean(chains)),
    sd: finiteOrNull(mcseSd(chains)),
    median: finiteOrNull(mcseQuantile(chains, 0.5, sorted).mcse),
    ciLower: finiteOrNull(lower.mcse),
    ciUpper: finiteOrNull(upper.mcse),
  };
  return { s, d, mcse, lower, upper };
}

export function summariseParameter(name: string, chains: readonly Float64Array[]): ParameterSummary {
  const { s, d, mcse } = summariseChains(chains);
  return {
    name,
    mean: s.mean,
    sd: s.sd,
    median: s.median,
    ciLower: s.q025,
    ciUpper: s.q975,
    rhat: finiteOrNull(d.rhat),
    essBulk: finiteOrNull(d.essBulk),
    essTail: finiteOrNull(d.essTail),
    mcse,
  };
}

export function summarisePredictor(name: string, chains: readonly Float64Array[], label?: string): PredictorSummary {
  const { s, d, mcse, lower, upper } = summariseChains(chains);
  const rateRatio = Math.exp(s.mean);
  const summary: PredictorSummary = {
    name,
    mean: s.mean,
    sd: s.sd,
    median: s.median,
    ciLower: s.q025,
    ciUpper: s.q975,
    rateRatio,
    rateRatioLower: Math.exp(s.q025),
    rateRatioUpper: Math.exp(s.q975),
    probPositive: s.probPositive,
    probNegative: s.probNegative,
    rhat: finiteOrNull(d.rhat),
    essBulk: finiteOrNull(d.essBulk),
    essTail: finiteOrNull(d.essTail),
    mcse: {
      ...mcse,
      // exp(mean of β): first-order delta method; the interval ends: exp is monotone, so the bracketing draws carry over.
      rateRatio: mcse.mean === null ? null : rateRatio * mcse.mean,
      rateRatioLower: finiteOrNull((Math.exp(lower.upper) - Math.exp(lower.lower)) / 2),
      rateRatioUpper: finiteOrNull((Math.exp(upper.upper) - Math.exp(upper.lower)) / 2),
      probPositive: finiteOrNull(mcseProbability(chains, (v) => v > 0)),
    },
    interpretation: '',
  };
  summary.interpretation = interpretPredictor(summary, label);
  return summary;
}

function percent(p: number): string {
  if (p > 0.999) return 'over 99.9%';
  if (p < 0.001) return 'under 0.1%';
  return `${(100 * p).toFixed(1)}%`;
}

/**
 * One sentence per coefficient, every number in it taken from the summary, then the posterior probability
 * of the association's more probable sign. The scale is one standard
 * deviation of the predictor across countries within a year, because that is how predictors enter.
 */
export function interpretPredictor(
  s: Pick<PredictorSummary, 'name' | 'rateRatio' | 'rateRatioLower' | 'rateRatioUpper' | 'probPositive' | 'probNegative'>,
  label?: string,
): string {
  const what = label ?? s.name;
  const change = (s.rateRatio - 1) * 100;
  const size = Math.abs(change).toFixed(1);
  let sentence: string;
  if (size === '0.0') {
    sentence = `Per one standard deviation higher ${what} within a year, the expected retraction rate per publication is essentially unchanged (rate ratio ${s.rateRatio.toFixed(3)}`;
  } else {
    sentence = `Per one standard deviation higher ${what} within a year, the expected retraction rate per publication is ${size}% ${change < 0 ? 'lower' : 'higher'} (rate ratio ${s.rateRatio.toFixed(3)}`;
  }
  const lo = s.rateRatioLower;
  const hi = s.rateRatioUpper;
  if (lo !== null && hi !== null) sentence += `, 95% credible interval ${lo.toFixed(3)} to ${hi.toFixed(3)})`;
  else sentence += ')';
  sentence += '.';
  // The probability of the sign, not whether the interval excludes 1: an interval end at 0.9999 or 1.0001
  // would flip such a sentence, while the probability moves by a hair.
  if (s.probNegative !== null && s.probPositive !== null) {
    const towardLower = s.probNegative >= s.probPositive;
    sentence += ` Posterior probability that the association is ${towardLower ? 'negative' : 'positive'}: ${percent(towardLower ? s.probNegative : s.probPositive)}.`;
  }
  return sentence;
}
