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

export interface NormalPrior {
  mean: number;
  sd: number;
}
export interface ExponentialPrior {
  rate: number;
}
export interface GammaPrior {
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

export interface VariableDescription {
  label?: string;
  definition?: string;
  source?: string;
}

export interface DataSource {
  name: string;
  description?: string;
  url?: string;
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
  priors: ModelPriors;
  parameterisation: ParameterisationSettings;
  sampler: SamplerSettings;
  /** Compute PSIS-LOO from the per-observation log-likelihoods. */
  loo: boolean;
  /** Optional text the importer supplies about each predictor; echoed into the methodology. */
  variables: Record<string, VariableDescription>;
  dataSources: DataSource[];
}

/** Recursive partial, for callers that override only a few settings. */
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

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

export interface LooSummary {
  elpdLoo: number | null;
  elpdLooSe: number | null;
  pLoo: number | null;
  pLooSe: number | null;
  looic: number | null;
  looicSe: number | null;
  paretoK: ParetoKCounts | null;
  maxParetoK: number | null;
}

export interface Diagnostics {
  /** Rank-normalised split R̂ (max of bulk and folded), maximum over all parameters. */
  rhatMax: number | null;
  rhatMaxParameter: string | null;
  essBulkMin: number | null;
  essBulkMinParameter: string | null;
  essTailMin: number | null;
  essTailMinParameter: string | null;
  /** essBulkMin / total kept draws. */
  essRatioMin: number | null;
  /** essBulkMin / sampler wall time (warmup included). */
  essPerSecond: number | null;
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
  sampleSize: number | null;
  countries: number | null;
  years: { first: number; last: number; count: number } | null;
  samplerSeconds: number | null;
}

export interface Timing {
  startedAt: string;
  finishedAt: string;
  totalSeconds: number;
  /** Wall time of all chains (warmup and sampling). */
  samplerSeconds: number;
  warmupSecondsPerChain: number[];
  samplingSecondsPerChain: number[];
  /** Summaries, diagnostics and LOO after sampling. */
  postprocessSeconds: number;
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

export interface FitResult {
  source: 'fitted' | 'imported';
  model: 'negbinomial2-country-year';
  predictors: string[];
  summaries: PredictorSummary[];
  /** α, σ_country, σ_year, φ. Empty for an imported fit that does not report them. */
  hyperparameters: ParameterSummary[];
  diagnostics: Diagnostics;
  methodology: Methodology;
  timing: Timing | null;
  data: DataSummary | null;
  /** The configuration the fit ran with (null when imported). */
  config: DemocracyModelConfig | null;
  /** Imported only: the remaining sections of the source file, scalars unwrapped. */
  importedExtras?: Record<string, unknown>;
}
