// Posterior predictive checks (Gelman, Meng & Stern 1996; Gelman et al., Bayesian Data Analysis, 3rd ed.,
// ch. 6): replicated panels y_rep drawn from the model at evenly spaced posterior draws, the same statistics
// computed on the data and on every replicate, and for each the posterior predictive p-value
// P(T(y_rep) ≥ T(y)). A p-value near 0 or 1 says the model rarely produces data like the observed in that
// respect. A dispersion statistic, Pearson's χ²/df, is a realised discrepancy (it depends on the parameters):
// T(y, θ_s) = Σ_i (y_i − μ_is)² / Var(y_i | θ_s) / (n − k − 1), set against T(y_rep,s, θ_s) of the replicate
// drawn at the same θ_s, with p = P(T(y_rep, θ) ≥ T(y, θ)) over the posterior (Gelman, Meng & Stern 1996,
// section 2.3). It compares the scatter of the counts around their means with the model's variance
// (μ for the Poisson, μ + μ²/φ for NB2), which the marginal statistics above can miss. Also a rootogram (Kleiber & Zeileis 2016): observed and expected frequencies of the counts, as
// chart data.
import { Random } from '../../../core/random.ts';
import { mcseProbability } from './mcse.ts';
import type { NegBinPanelData, PointwiseLogLik } from './model.ts';
import { quantileSorted } from './special.ts';
import type { PosteriorPredictiveCheck, PredictiveStatistic, RootogramBin } from './types.ts';

/** Two-sided: a mid p-value outside [EXTREME, 1 − EXTREME] is flagged. */
const EXTREME = 0.025;

export interface PredictiveCheckInput {
  data: NegBinPanelData;
  /** Calendar year of each year index. */
  years: readonly number[];
  /** The fit's draws, through the pointwise likelihood (its linear predictor and φ). */
  pointwise: PointwiseLogLik;
  /** Chains the draws came in (chain-major, equal lengths): for the MCSE of each p-value. */
  chains: number;
  replicates: number;
  seed: number | string;
}

/** A rootogram bin: the counts from lower to upper (null: open above). */
type Bin = { lower: number; upper: number | null };

/**
 * Bins of the rootogram: each count 0–9 alone, then 10–19, 20–49, 50–99, 100–199, … (a 1-2-5 series), up to
 * the bin holding the largest observed count; one more bin, open above, catches larger replicated counts.
 */
export function rootogramBins(maxObserved: number): Bin[] {
  const bins: Bin[] = [];
  let lower = 0;
  while (lower <= maxObserved) {
    let upper: number;
    if (lower < 10) upper = lower;
    else {
      const decade = 10 ** Math.floor(Math.log10(lower));
      const lead = lower / decade;
      upper = (lead < 2 ? 2 : lead < 5 ? 5 : 10) * decade - 1;
    }
    bins.push({ lower, upper });
    lower = upper + 1;
  }
  bins.push({ lower, upper: null });
  return bins;
}

function binIndex(bins: readonly Bin[], y: number): number {
  // Few bins (about 10 + 3 per decade): a linear scan from the top is cheap and clear.
  for (let b = bins.length - 1; b > 0; b--) if (y >= bins[b].lower) return b;
  return 0;
}

/** Statistics computed exactly from integer sums, so that ties between observed and replicated data are exact. */
interface CountSums {
  zeros: number;
  sum: number;
  sumSquares: number;
  max: number;
}

const sdOf = (s: CountSums, n: number) => (n > 1 ? Math.sqrt(Math.max(0, (s.sumSquares - (s.sum * s.sum) / n) / (n - 1))) : 0);

function compare(
  name: string,
  description: string,
  observed: number,
  replicated: Float64Array,
  chainOf: Int32Array,
  chains: number,
): PredictiveStatistic {
  const R = replicated.length;
  let above = 0;
  let ties = 0;
  let sum = 0;
  for (let r = 0; r < R; r++) {
    const v = replicated[r];
    sum += v;
    if (v > observed) above++;
    else if (v === observed) ties++;
  }
  const mean = sum / R;
  let ss = 0;
  for (let r = 0; r < R; r++) ss += (replicated[r] - mean) ** 2;
  const sorted = replicated.slice().sort();
  const pValue = (above + ties) / R;
  const pValueMid = (above + 0.5 * ties) / R;
  // The p-value is a mean over draws of an indicator, so its MCSE comes from the chains' autocorrelation.
  const byChain: number[][] = Array.from({ length: chains }, () => []);
  for (let r = 0; r < R; r++) byChain[chainOf[r]].push(replicated[r] - observed);
  const usable = byChain.filter((c) => c.length > 0);
  const shortest = Math.min(...usable.map((c) => c.length));
  let mcse: number | null = null;
  if (shortest >= 8) {
    const value = mcseProbability(
      usable.map((c) => Float64Array.from(c.slice(0, shortest))),
      (d) => d >= 0,
    );
    mcse = Number.isFinite(value) ? value : null;
  }
  return {
    name,
    description,
    observed,
    replicatedMean: mean,
    replicatedSd: R > 1 ? Math.sqrt(ss / (R - 1)) : 0,
    replicatedLower: quantileSorted(sorted, 0.025),
    replicatedUpper: quantileSorted(sorted, 0.975),
    pValue,
    pValueMid,
    mcsePValue: mcse,
    extreme: Math.min(pValueMid, 1 - pValueMid) < EXTREME,
  };
}

/**
 * A realised discrepancy T(·, θ_r) against its replicate: observed is the posterior mean of T(y, θ_r), the
 * replicated summaries are those of T(y_rep,r, θ_r), and the p-values count the pairs, P(T(y_rep,r, θ_r) ≥ T(y, θ_r)).
 */
function compareRealised(
  name: string,
  description: string,
  observed: Float64Array,
  replicated: Float64Array,
  chainOf: Int32Array,
  chains: number,
): PredictiveStatistic {
  const R = replicated.length;
  // The pairs' differences against 0 give the p-values and their MCSE through compare().
  const difference = replicated.map((v, r) => v - observed[r]);
  const paired = compare(name, description, 0, difference, chainOf, chains);
  const sorted = replicated.slice().sort();
  const mean = replicated.reduce((a, v) => a + v, 0) / R;
  let ss = 0;
  for (let r = 0; r < R; r++) ss += (replicated[r] - mean) ** 2;
  return {
    ...paired,
    observed: observed.reduce((a, v) => a + v, 0) / R,
    replicatedMean: mean,
    replicatedSd: R > 1 ? Math.sqrt(ss / (R - 1)) : 0,
    replicatedLower: quantileSorted(sorted, 0.025),
    replicatedUpper: quantileSorted(sorted, 0.975),
  };
}

/** Degrees of freedom of Pearson's χ²: observations less the intercept and coefficients (at least 1). */
const pearsonDf = (n: number, k: number) => Math.max(1, n - k - 1);

/** The data's own statistics: the count sums, the totals of each year and the counts in each rootogram bin. */
function observedStatistics(data: NegBinPanelData, bins: readonly Bin[]) {
  const { n, nYears, y, year } = data;
  const observed: CountSums = { zeros: 0, sum: 0, sumSquares: 0, max: 0 };
  const observedYear = new Float64Array(nYears);
  const observedBins = new Float64Array(bins.length);
  for (let i = 0; i < n; i++) {
    const v = y[i];
    if (v === 0) observed.zeros++;
    observed.sum += v;
    observed.sumSquares += v * v;
    observed.max = Math.max(observed.max, v);
    observedYear[year[i]] += v;
    observedBins[binIndex(bins, v)]++;
  }
  return { observed, observedYear, observedBins };
}

/** Observed and expected frequencies per bin, on the square-root scale too; `binCounts` is replicates × bins. */
function rootogramOf(bins: readonly Bin[], observedBins: Float64Array, binCounts: Float64Array, R: number): RootogramBin[] {
  const B = bins.length;
  return bins.map((bin, b) => {
    const counts = Float64Array.from({ length: R }, (_, r) => binCounts[r * B + b]);
    const expected = counts.reduce((a, v) => a + v, 0) / R;
    const sorted = counts.sort();
    const sqrtObserved = Math.sqrt(observedBins[b]);
    const sqrtExpected = Math.sqrt(expected);
    return {
      label: bin.upper === null ? `${bin.lower}+` : bin.upper === bin.lower ? String(bin.lower) : `${bin.lower}–${bin.upper}`,
      lower: bin.lower,
      upper: bin.upper,
      observed: observedBins[b],
      expected,
      expectedLower: quantileSorted(sorted, 0.025),
      expectedUpper: quantileSorted(sorted, 0.975),
      sqrtObserved,
      sqrtExpected,
      hangingBottom: sqrtExpected - sqrtObserved,
    };
  });
}

export function posteriorPredictiveCheck(input: PredictiveCheckInput): PosteriorPredictiveCheck {
  const { data, years, pointwise, chains } = input;
  const { n, nYears, y, year } = data;
  const S = pointwise.draws;
  const R = Math.min(input.replicates, S);
  if (R < 1 || n === 0) throw new RangeError('a posterior predictive check needs at least one draw and one observation');
  const perChain = Math.floor(S / chains);
  // Evenly spaced draws: the middle of each of R equal stretches of the chain-major draws.
  const drawOf = Int32Array.from({ length: R }, (_, r) => Math.min(S - 1, Math.floor(((r + 0.5) * S) / R)));
  const chainOf = drawOf.map((s) => Math.min(chains - 1, Math.floor(s / perChain)));

  let maxObserved = 0;
  for (let i = 0; i < n; i++) maxObserved = Math.max(maxObserved, y[i]);
  const bins = rootogramBins(maxObserved);
  const B = bins.length;

  const { observed, observedYear, observedBins } = observedStatistics(data, bins);

  const zeros = new Float64Array(R);
  const sums = new Float64Array(R);
  const squares = new Float64Array(R);
  const maxima = new Float64Array(R);
  const yearTotals = new Float64Array(R * nYears);
  const binCounts = new Float64Array(R * B);
  const pearsonObserved = new Float64Array(R);
  const pearsonReplicated = new Float64Array(R);
  const rng = new Random(input.seed).fork('posterior-predictive');
  const eta = new Float64Array(S);
  const phi = pointwise.phi;
  for (let i = 0; i < n; i++) {
    pointwise.linearPredictor(i, eta);
    const t = year[i];
    for (let r = 0; r < R; r++) {
      const s = drawOf[r];
      const mu = Math.exp(eta[s]);
      const v = phi ? rng.negBinomial(mu, phi[s]) : rng.poisson(mu);
      const variance = phi ? mu + (mu * mu) / phi[s] : mu;
      pearsonObserved[r] += (y[i] - mu) ** 2 / variance;
      pearsonReplicated[r] += (v - mu) ** 2 / variance;
      if (v === 0) zeros[r]++;
      sums[r] += v;
      squares[r] += v * v;
      if (v > maxima[r]) maxima[r] = v;
      yearTotals[r * nYears + t] += v;
      binCounts[r * B + binIndex(bins, v)]++;
    }
  }

  const sd = new Float64Array(R);
  for (let r = 0; r < R; r++) sd[r] = sdOf({ zeros: zeros[r], sum: sums[r], sumSquares: squares[r], max: maxima[r] }, n);
  const statistics = [
    compare(
      'share_of_zeros',
      'Share of country-years with no retraction.',
      observed.zeros / n,
      zeros.map((z) => z / n),
      chainOf,
      chains,
    ),
    compare(
      'mean',
      'Mean retractions per country-year.',
      observed.sum / n,
      sums.map((v) => v / n),
      chainOf,
      chains,
    ),
    compare('sd', 'Standard deviation of retractions across country-years.', sdOf(observed, n), sd, chainOf, chains),
    compare('max', 'Largest retraction count of any country-year.', observed.max, maxima, chainOf, chains),
    compareRealised(
      'pearson_dispersion',
      `Pearson χ²/df: Σ (y − μ)² / Var(y | θ) over country-years, divided by df = n − k − 1 = ${pearsonDf(n, data.k)}, ` +
        'at each posterior draw θ for the data and for the replicate drawn at that θ; about 1 when the counts scatter as the model says, ' +
        'above 1 when they are overdispersed against it. observed is its posterior mean for the data; p_value = P(χ²(y_rep, θ) ≥ χ²(y, θ)).',
      pearsonObserved.map((v) => v / pearsonDf(n, data.k)),
      pearsonReplicated.map((v) => v / pearsonDf(n, data.k)),
      chainOf,
      chains,
    ),
  ];
  const perYear = years.map((calendarYear, t) => {
    const replicated = Float64Array.from({ length: R }, (_, r) => yearTotals[r * nYears + t]);
    return {
      ...compare(
        `total[${calendarYear}]`,
        `Retractions of all countries in ${calendarYear}.`,
        observedYear[t],
        replicated,
        chainOf,
        chains,
      ),
      year: calendarYear,
    };
  });

  const rootogram = rootogramOf(bins, observedBins, binCounts, R);

  return {
    replicates: R,
    seed: `${String(input.seed)}/posterior-predictive`,
    statistics,
    yearTotals: perYear,
    rootogram,
    flagged: [...statistics, ...perYear].filter((s) => s.extreme).map((s) => s.name),
  };
}
