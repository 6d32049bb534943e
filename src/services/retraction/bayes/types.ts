// Public, JSON-serialisable shapes of the Bayesian engine of Service E. Fitted and imported results share
// FitResult; a field an imported fit does not carry is null, never invented.

/** One country-year of the democracy panel, as the importer or the simulator supplies it. */
export interface PanelRow {
  country: string;
  year: number;
  publications: number;
  retractions: number;
  predictors: Record<string, number | null | undefined>;
}

interface NormalPrior {
  mean: number;
  sd: number;
}
interface ExponentialPrior {
  rate: number;
}
interface GammaPrior {
  shape: number;
  rate: number;
}

export interface ModelPriors {
  /** α, the intercept of the log rate per publication. */
  intercept: NormalPrior;
  /** β_k, one per standardised predictor. */
  coefficients: NormalPrior;
  /** σ_c, the standard deviation of the country effects. */
  sigmaCountry: ExponentialPrior;
  /** σ_t, the standard deviation of the year effects. */
  sigmaYear: ExponentialPrior;
  /** φ, the negative-binomial dispersion (variance μ + μ²/φ). */
  dispersion: GammaPrior;
}

export interface AdaptationSettings {
  /** Warmup iterations before the first metric window (step size only). */
  initBuffer: number;
  /** Warmup iterations after the last metric window (step size only). */
  termBuffer: number;
  /** Length of the first metric window; each following window doubles. */
  baseWindow: number;
}

export interface SamplerSettings {
  algorithm: 'nuts';
  chains: number;
  /** Warmup (adaptation) iterations per chain, discarded. */
  warmup: number;
  /** Kept post-warmup draws per chain. */
  draws: number;
  maxTreeDepth: number;
  /** Dual-averaging target of the mean Metropolis acceptance statistic. */
  targetAcceptance: number;
  /** Energy error above which a trajectory is declared divergent. */
  maxEnergyError: number;
  /** Initial values drawn uniformly in (-r, r) on the unconstrained scale (intercept: around the pooled rate). */
  initRadius: number;
  /**
   * Inverse metric before the first window closes: 'unit' (identity, as Stan), or 'curvature': the inverse
   * of the log density's diagonal curvature at the initial point, capped at 1, which spares the first
   * warmup iterations from crawling with a step size set by the stiffest parameter.
   */
  initialMetric: 'unit' | 'curvature';
  adaptation: AdaptationSettings;
  seed: number | string;
  /** 'workers': one chain per worker thread (at most maxWorkers at once); 'single': all chains on this thread. */
  parallelism: 'workers' | 'single';
  /** Upper bound on concurrent worker threads; null = min(chains, available cores). */
  maxWorkers: number | null;
}

interface VariableDescription {
  label?: string;
  definition?: string;
  source?: string;
}

interface DataSource {
  name: string;
  description?: string;
  url?: string;
}

/**
 * The count distribution of retractions given the rate: the model's negative binomial (NB2), or the Poisson,
 * which has no overdispersion (kept as an alternative to compare against, by LOO and posterior predictive checks).
 */
export type CountFamily = 'negbinomial2' | 'poisson';

interface PosteriorPredictiveSettings {
  /** Replicated data sets drawn, one per evenly spaced posterior draw (at most one per draw); 0 = no check. */
  replicates: number;
}

/** Coordinates the sampler moves in; every choice gives the same posterior (see model.ts). */
export interface ParameterisationSettings {
  countryEffects: 'centred' | 'non-centred';
  yearEffects: 'centred' | 'non-centred';
  shiftedCoefficients: boolean;
}

export interface DemocracyModelConfig {
  /** Predictor keys to use, in this order; null = every key of the first row, in its order. */
  predictors: string[] | null;
  family: CountFamily;
  priors: ModelPriors;
  parameterisation: ParameterisationSettings;
  /**
   * When the fit in the configured parameterisation has divergent transitions after warmup, refit with the
   * year effects non-centred, then (still divergent) the country effects too, and keep the fit with the fewest
   * divergences (the earliest on a tie). Diagnostics.parameterisation says which was used and why.
   */
  nonCentredOnDivergence: boolean;
  sampler: SamplerSettings;
  /** Compute PSIS-LOO and WAIC from the per-observation log-likelihoods. */
  loo: boolean;
  posteriorPredictive: PosteriorPredictiveSettings;
  /**
   * K-fold cross-validation by country: K refits, each leaving out a K-th of the countries (0 = not run).
   * Costs K fits; the alternative to PSIS-LOO when Pareto k flags observations.
   */
  kfoldByCountry: number;
  /** Optional text the importer supplies about each predictor; echoed into the methodology. */
  variables: Record<string, VariableDescription>;
  dataSources: DataSource[];
}

/** Recursive partial, for callers that override only a few settings. */
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

/**
 * Monte Carlo standard errors of the reported summaries (mcse.ts): how far each could move if the sampler
 * ran again with another seed. Null when not computable (an imported fit, a constant quantity).
 */
export interface SummaryMcse {
  mean: number | null;
  sd: number | null;
  median: number | null;
  ciLower: number | null;
  ciUpper: number | null;
}

interface PredictorMcse extends SummaryMcse {
  rateRatio: number | null;
  rateRatioLower: number | null;
  rateRatioUpper: number | null;
  /** Of P(β > 0), which is also that of P(β < 0) when no draw is exactly 0. */
  probPositive: number | null;
}

export interface PredictorSummary {
  name: string;
  mean: number;
  sd: number | null;
  median: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  /** exp(posterior mean of β): multiplicative change of the rate per one within-year SD. */
  rateRatio: number;
  rateRatioLower: number | null;
  rateRatioUpper: number | null;
  probPositive: number | null;
  probNegative: number | null;
  rhat: number | null;
  essBulk: number | null;
  essTail: number | null;
  mcse: PredictorMcse | null;
  interpretation: string;
  /** The text an imported source gave, kept verbatim. */
  sourceInterpretation?: string;
}

export interface ParameterSummary {
  name: string;
  mean: number | null;
  sd: number | null;
  median: number | null;
  ciLower: number | null;
  ciUpper: number | null;
  rhat: number | null;
  essBulk: number | null;
  essTail: number | null;
  mcse: SummaryMcse | null;
}

/** A country effect u[c] or a year effect v[t], with the panel rows it rests on. */
export interface GroupEffectSummary extends ParameterSummary {
  group: 'country' | 'year';
  level: string;
  observations: number;
}

export interface ParetoKCounts {
  /** k ≤ 0.5 */
  good: number;
  /** 0.5 < k ≤ 0.7 */
  ok: number;
  /** 0.7 < k ≤ 1 */
  bad: number;
  /** k > 1 */
  veryBad: number;
}

/** An observation whose Pareto k exceeds 0.7: its PSIS-LOO term is unreliable. */
export interface FlaggedObservation {
  country: string;
  year: number;
  retractions: number;
  publications: number;
  paretoK: number;
  elpdLoo: number;
}

export interface LooSummary {
  elpdLoo: number | null;
  elpdLooSe: number | null;
  pLoo: number | null;
  pLooSe: number | null;
  looic: number | null;
  looicSe: number | null;
  paretoK: ParetoKCounts | null;
  maxParetoK: number | null;
  /** Observations with k > 0.7, largest k first (at most FLAGGED_LIMIT; flaggedCount has them all). */
  flagged?: FlaggedObservation[];
  flaggedCount?: number;
}

/** WAIC (Watanabe 2010) from the same pointwise log-likelihoods, as the R package `loo` reports it. */
export interface WaicSummary {
  elpdWaic: number;
  elpdWaicSe: number;
  pWaic: number;
  pWaicSe: number;
  waic: number;
  waicSe: number;
  /** Observations whose pointwise p_waic exceeds 0.4, where WAIC is known to be unreliable. */
  pWaicAbove04: number;
}

/** Leave-countries-out cross-validation: each fold's countries predicted by a fit without them. */
export interface KFoldSummary {
  folds: number;
  /** elpd_kfold_joint: Σ over countries of log p(y_country | data without its fold), the country's rows predicted jointly. */
  elpdKfold: number;
  elpdKfoldSe: number;
  /** −2 elpd_kfold. */
  kfoldic: number;
  /** Log predictive density of the full-data fit over the same countries (jointly); minus elpd_kfold = p_kfold. */
  pKfold: number | null;
  countries: number;
  observations: number;
  foldCountries: string[][];
  perCountry: { country: string; fold: number; observations: number; elpd: number }[];
  /**
   * elpd_kfold_pointwise, as brms::kfold defines it: Σ over held-out country-years of log (1/S) Σ_s p(y_i | θ_s) under
   * the fit without the row's fold (the new country effect integrated out per draw); SE from the pointwise terms.
   */
  elpdKfoldPointwise: number;
  elpdKfoldPointwiseSe: number;
  perObservation: { country: string; year: number; fold: number; elpd: number }[];
  /** Largest R̂ and smallest bulk ESS over the refits' parameters, to judge the refits themselves. */
  refitRhatMax: number | null;
  refitEssBulkMin: number | null;
  refitDivergences: number;
  wallSeconds: number;
  cpuSeconds: number | null;
  method: string;
}

/** One parameterisation the fit was sampled in, and its divergent transitions after warmup. */
export interface ParameterisationAttempt {
  countryEffects: 'centred' | 'non-centred';
  yearEffects: 'centred' | 'non-centred';
  divergences: number;
}

/** Which parameterisation the reported fit used, and why (the automatic switch on divergences). */
export interface ParameterisationReport {
  countryEffects: 'centred' | 'non-centred';
  yearEffects: 'centred' | 'non-centred';
  /** True when it differs from the configured one because the configured one diverged. */
  switched: boolean;
  reason: string;
  /** Every parameterisation sampled, in order; the reported fit is one of them. */
  attempts: ParameterisationAttempt[];
}

export interface Diagnostics {
  /** Null in fits stored before it was recorded, and for imported fits. */
  parameterisation?: ParameterisationReport | null;
  /** Rank-normalised split R̂ (max of bulk and folded), maximum over all parameters. */
  rhatMax: number | null;
  rhatMaxParameter: string | null;
  essBulkMin: number | null;
  essBulkMinParameter: string | null;
  essTailMin: number | null;
  essTailMinParameter: string | null;
  /** essBulkMin / total kept draws. */
  essRatioMin: number | null;
  /** essBulkMin / sampler wall-clock seconds (warmup included), under whatever load the machine had. */
  essPerSecond: number | null;
  /** essBulkMin / CPU seconds the sampling threads used (warmup included). */
  essPerCpuSecond: number | null;
  divergences: number | null;
  warmupDivergences: number | null;
  treeDepthSaturation: { count: number; fraction: number; maxTreeDepth: number } | null;
  meanAcceptStat: number | null;
  /** Energy Bayesian fraction of missing information, minimum over chains (< 0.3 is a warning sign). */
  ebfmiMin: number | null;
  stepSizes: number[] | null;
  meanTreeDepth: number | null;
  chains: number | null;
  /** Iterations per chain, warmup included. */
  iterations: number | null;
  warmup: number | null;
  /** Kept draws per chain. */
  draws: number | null;
  loo: LooSummary | null;
  waic: WaicSummary | null;
  kfold: KFoldSummary | null;
  sampleSize: number | null;
  countries: number | null;
  years: { first: number; last: number; count: number } | null;
  /** Wall-clock seconds of all chains (see Timing). */
  samplerSeconds: number | null;
  samplerCpuSeconds: number | null;
}

/**
 * What the clocks measured. `…Seconds` are wall-clock (elapsed real) time: they include waiting for a core
 * when the machine is busy, and chains overlap when they run in parallel. `…CpuSeconds` are the CPU time
 * (user + system) of the thread that ran each chain (process.threadCpuUsage), null where Node cannot tell.
 */
interface Timing {
  startedAt: string;
  finishedAt: string;
  /** Wall clock, the whole fit: sampling, summaries, diagnostics, LOO, checks. */
  totalSeconds: number;
  /** Wall clock from the first chain's start to the last chain's end (warmup and sampling). */
  samplerSeconds: number;
  warmupSecondsPerChain: number[];
  samplingSecondsPerChain: number[];
  /** CPU seconds of all chains' threads together (warmup and sampling). */
  samplerCpuSeconds: number | null;
  warmupCpuSecondsPerChain: (number | null)[];
  samplingCpuSecondsPerChain: (number | null)[];
  /** Wall clock: summaries, diagnostics, LOO, WAIC and posterior predictive checks after sampling (k-fold excluded). */
  postprocessSeconds: number;
  /** CPU seconds of the calling thread for the same work. */
  postprocessCpuSeconds: number | null;
  /** Threads that ran chains (0: all on the calling thread) and the cores Node reported. */
  workers: number;
  availableCores: number;
  /** 1-minute load average of the machine before and after sampling (os.loadavg; 0 on Windows). */
  loadAverageBefore: number;
  loadAverageAfter: number;
}

export interface MethodologyPrior {
  parameter: string;
  distribution: string;
  text: string;
}

export interface Methodology {
  model: {
    family: string;
    formula: string[];
    parameterisation: string | null;
    description: string;
  };
  priors: MethodologyPrior[] | null;
  priorsDescription: string | null;
  sampler: {
    algorithm: string;
    chains: number | null;
    warmup: number | null;
    draws: number | null;
    iterations: number | null;
    maxTreeDepth: number | null;
    targetAcceptance: number | null;
    adaptation: string | null;
    seed: string | null;
    text: string;
  };
  variables: { name: string; role: 'outcome' | 'exposure' | 'predictor' | 'grouping'; definition: string; source: string | null }[];
  dataSources: DataSource[];
  data: {
    observations: number | null;
    countries: number | null;
    years: { first: number; last: number; count: number } | null;
    excludedRows: number | null;
    exclusionReasons: Record<string, number> | null;
    missingDataMethod: string;
  };
  diagnosticsUsed: string[];
  limitations: string[];
}

export interface DataSummary {
  observations: number;
  countries: number;
  years: { first: number; last: number; count: number } | null;
  excludedRows: number;
  exclusionReasons: Record<string, number>;
}

/** One test statistic of the posterior predictive check. */
export interface PredictiveStatistic {
  name: string;
  description: string;
  observed: number;
  replicatedMean: number;
  replicatedSd: number;
  /** 2.5% and 97.5% quantiles of the statistic over the replicated data sets. */
  replicatedLower: number;
  replicatedUpper: number;
  /** P(T(y_rep) ≥ T(y)), the conventional posterior predictive p-value. */
  pValue: number;
  /** P(T(y_rep) > T(y)) + ½ P(T(y_rep) = T(y)): the same with ties split, for discrete statistics. */
  pValueMid: number;
  mcsePValue: number | null;
  /** min(p_mid, 1 − p_mid) < 0.025: the data are more extreme than 95% of what the model replicates. */
  extreme: boolean;
}

export interface RootogramBin {
  label: string;
  lower: number;
  /** Inclusive; null = and above. */
  upper: number | null;
  observed: number;
  /** Mean number of replicated observations in the bin, and the 2.5% and 97.5% quantiles of that number. */
  expected: number;
  expectedLower: number;
  expectedUpper: number;
  sqrtObserved: number;
  sqrtExpected: number;
  /** Hanging rootogram: the observed bar hangs from √expected, so its bottom is √expected − √observed. */
  hangingBottom: number;
}

export interface PosteriorPredictiveCheck {
  replicates: number;
  seed: string;
  statistics: PredictiveStatistic[];
  yearTotals: (PredictiveStatistic & { year: number })[];
  rootogram: RootogramBin[];
  /** Names of the statistics flagged extreme. */
  flagged: string[];
}

/** A setting the fit ran with that differs from the default configuration. */
export interface ModelChoice {
  setting: string;
  value: unknown;
  default: unknown;
}

export interface FitResult {
  source: 'fitted' | 'imported';
  model: 'negbinomial2-country-year' | 'poisson-country-year';
  predictors: string[];
  summaries: PredictorSummary[];
  /** α, σ_country, σ_year, φ (no φ for the Poisson). Empty for an imported fit that does not report them. */
  hyperparameters: ParameterSummary[];
  /** Country and year effects u[c], v[t]; null for an imported fit. */
  effects: { country: GroupEffectSummary[]; year: GroupEffectSummary[] } | null;
  posteriorPredictive: PosteriorPredictiveCheck | null;
  diagnostics: Diagnostics;
  methodology: Methodology;
  timing: Timing | null;
  data: DataSummary | null;
  /** The configuration the fit ran with (null when imported). */
  config: DemocracyModelConfig | null;
  /** The settings of `config` that differ from the defaults (empty: the defaults; null when imported). */
  choices: ModelChoice[] | null;
  /** Imported only: the remaining sections of the source file, scalars unwrapped. */
  importedExtras?: Record<string, unknown>;
}
