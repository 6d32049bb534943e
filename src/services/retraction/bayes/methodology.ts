// The methodology is rendered from the configuration object the fit ran with and from the data it saw,
// so the published description cannot drift from what was computed.
import { describeParameterisation } from './model.ts';
import type {
  CountFamily,
  DataSummary,
  DemocracyModelConfig,
  Methodology,
  MethodologyPrior,
  ModelPriors,
  SamplerSettings,
} from './types.ts';

const fmt = (v: number) => String(v);

export const MODEL_FAMILY =
  'Negative binomial (NB2: variance μ + μ²/φ) with log link, exposure offset, and country and year random intercepts';
const POISSON_FAMILY =
  'Poisson (variance μ: no overdispersion beyond the effects) with log link, exposure offset, and country and year random intercepts';

function familyDescription(family: CountFamily): string {
  return family === 'poisson' ? POISSON_FAMILY : MODEL_FAMILY;
}

export function modelFormula(family: CountFamily = 'negbinomial2'): string[] {
  return [
    family === 'poisson' ? 'retractions[c,t] ~ Poisson(mu[c,t])' : 'retractions[c,t] ~ NegativeBinomial2(mu[c,t], phi)',
    'log(mu[c,t]) = log(publications[c,t]) + alpha + sum_k beta_k * x_k[c,t] + u[c] + v[t]',
    'x_k[c,t] = (raw_k[c,t] - mean_k[t]) / sd_k[t]   (standardised across countries within year t)',
    'u[c] ~ Normal(0, sigma_country)',
    'v[t] ~ Normal(0, sigma_year)',
  ];
}

function describePriors(p: ModelPriors, family: CountFamily = 'negbinomial2'): MethodologyPrior[] {
  const all: MethodologyPrior[] = [
    { parameter: 'alpha', distribution: 'normal', text: `alpha ~ Normal(${fmt(p.intercept.mean)}, ${fmt(p.intercept.sd)})` },
    {
      parameter: 'beta_k',
      distribution: 'normal',
      text: `beta_k ~ Normal(${fmt(p.coefficients.mean)}, ${fmt(p.coefficients.sd)}) for every predictor k`,
    },
    { parameter: 'sigma_country', distribution: 'exponential', text: `sigma_country ~ Exponential(rate ${fmt(p.sigmaCountry.rate)})` },
    { parameter: 'sigma_year', distribution: 'exponential', text: `sigma_year ~ Exponential(rate ${fmt(p.sigmaYear.rate)})` },
    { parameter: 'phi', distribution: 'gamma', text: `phi ~ Gamma(shape ${fmt(p.dispersion.shape)}, rate ${fmt(p.dispersion.rate)})` },
  ];
  return family === 'poisson' ? all.filter((prior) => prior.parameter !== 'phi') : all;
}

function describeSampler(s: SamplerSettings): Methodology['sampler'] {
  const a = s.adaptation;
  const start =
    s.initialMetric === 'curvature'
      ? 'starting from the inverse diagonal curvature at the initial point (capped at 1)'
      : 'starting from the identity';
  const adaptation =
    `dual-averaging step size toward a mean acceptance statistic of ${fmt(s.targetAcceptance)}; diagonal metric ` +
    `${start}, then estimated from warmup draws in windows (initial buffer ${a.initBuffer}, first window ${a.baseWindow} doubling, ` +
    `terminal buffer ${a.termBuffer} iterations)`;
  const threads =
    s.parallelism === 'workers'
      ? `chains run in parallel worker threads (${s.maxWorkers === null ? 'as many at a time as there are cores' : `at most ${s.maxWorkers} at a time`})`
      : 'chains run one after another on one thread';
  return {
    algorithm:
      'No-U-Turn sampler (Hamiltonian Monte Carlo with multinomial trajectory sampling and the generalised no-U-turn criterion), analytic gradients',
    chains: s.chains,
    warmup: s.warmup,
    draws: s.draws,
    iterations: s.warmup + s.draws,
    maxTreeDepth: s.maxTreeDepth,
    targetAcceptance: s.targetAcceptance,
    adaptation,
    seed: String(s.seed),
    text:
      `${s.chains} chains of ${s.warmup} warmup and ${s.draws} kept iterations (${s.chains * s.draws} draws in all), ` +
      `maximum tree depth ${s.maxTreeDepth}, divergence declared at an energy error above ${fmt(s.maxEnergyError)}; ` +
      `${adaptation}; initial values uniform within ±${fmt(s.initRadius)} on the unconstrained scale (intercept centred on the pooled log rate); ` +
      `seed "${String(s.seed)}", ${threads}.`,
  };
}

export interface MethodologyContext {
  data: DataSummary;
  predictors: string[];
  constantWithinYear: { predictor: string; year: number }[];
  /** Most strongly correlated pair of standardised predictors, if any. */
  strongestCorrelation: { a: string; b: string; r: number } | null;
}

/** The model's variables: the outcome, the exposure, each predictor as standardised, and the two groupings. */
function methodologyVariables(config: DemocracyModelConfig, context: MethodologyContext): Methodology['variables'] {
  const { data } = context;
  return [
    {
      name: 'retractions',
      role: 'outcome',
      definition: config.variables.retractions?.definition ?? 'Count of retracted papers of the country-year, as supplied in the panel.',
      source: config.variables.retractions?.source ?? null,
    },
    {
      name: 'publications',
      role: 'exposure',
      definition:
        (config.variables.publications?.definition ?? 'Number of publications of the country-year, as supplied in the panel.') +
        ' Enters as the offset log(publications), so effects act on the retraction rate per publication.',
      source: config.variables.publications?.source ?? null,
    },
    ...context.predictors.map((name) => {
      const given = config.variables[name];
      const label = given?.label ? `${given.label}. ` : '';
      const definition = given?.definition ? `${given.definition} ` : '';
      return {
        name,
        role: 'predictor' as const,
        definition:
          `${label}${definition}Standardised within each year to mean 0 and standard deviation 1 across the countries observed that year; ` +
          `its coefficient is the change in the log retraction rate per one such standard deviation.`,
        source: given?.source ?? null,
      };
    }),
    {
      name: 'country',
      role: 'grouping',
      definition: `Country; ${data.countries} countries, each with its own intercept u[c].`,
      source: null,
    },
    {
      name: 'year',
      role: 'grouping',
      definition: data.years
        ? `Calendar year; ${data.years.count} years (${data.years.first}–${data.years.last}), each with its own intercept v[t].`
        : 'Calendar year, each with its own intercept v[t].',
      source: null,
    },
  ];
}

/** What the fit cannot say: the model's standing limits, and those of this panel (collinear or constant predictors). */
function methodologyLimitations(context: MethodologyContext): string[] {
  const { data } = context;
  const limitations: string[] = [
    'Observational data: the coefficients are associations conditional on the other predictors and the country and year effects, not causal effects.',
    'A coefficient is per one cross-country standard deviation of its predictor within a year; that unit differs between predictors and years, so coefficients compare standardised contrasts, not raw units.',
    `Complete cases only, no imputation: ${data.excludedRows} of ${data.observations + data.excludedRows} rows were excluded` +
      (data.excludedRows > 0
        ? ` (${Object.entries(data.exclusionReasons)
            .map(([r, n]) => `${r}: ${n}`)
            .join('; ')}).`
        : '.'),
    'Country and year effects are exchangeable normal intercepts; dependence beyond them (for example serial correlation within a country, or country-specific trends) is not modelled.',
    'Retraction counts depend on how retractions are detected, recorded and attributed to countries, which may differ between countries and over time; the model takes the counts as given.',
  ];
  if (context.strongestCorrelation && Math.abs(context.strongestCorrelation.r) >= 0.7) {
    const c = context.strongestCorrelation;
    limitations.push(
      `Predictors are collinear: the strongest pairwise correlation is r = ${c.r.toFixed(2)} (${c.a} and ${c.b}), so the separate coefficients of such predictors are imprecise and depend on which others are included.`,
    );
  }
  if (context.constantWithinYear.length > 0) {
    limitations.push(
      `Some predictors did not vary across countries in a year and contribute nothing there: ${context.constantWithinYear.map((c) => `${c.predictor} in ${c.year}`).join(', ')}.`,
    );
  }
  return limitations;
}

/** The convergence and predictive checks this configuration runs, with their references. */
function diagnosticsUsedBy(config: DemocracyModelConfig): string[] {
  const diagnosticsUsed = [
    'rank-normalised split R-hat, maximum of bulk and folded (Vehtari et al. 2021)',
    'bulk and tail effective sample size (Vehtari et al. 2021)',
    'divergent transitions, tree-depth saturation and E-BFMI of the sampler',
  ];
  if (config.nonCentredOnDivergence)
    diagnosticsUsed.push(
      'divergent transitions after warmup in the centred parameterisation trigger a refit with the year effects, then also the country effects, non-centred; the fit with the fewest is reported (diagnostics.parameterisation says which and why)',
    );
  diagnosticsUsed.push(
    'Monte Carlo standard errors of every reported mean, sd, median, interval end and probability (Vehtari et al. 2021, as the R package posterior)',
  );
  if (config.loo) {
    diagnosticsUsed.push(
      'PSIS-LOO: expected log predictive density with Pareto k diagnostics, observations with k > 0.7 listed (Vehtari, Gelman & Gabry 2017; Vehtari et al. 2024)',
      'WAIC from the same pointwise log-likelihoods (Watanabe 2010), with the count of pointwise p_waic above 0.4',
    );
  }
  if (config.posteriorPredictive.replicates > 0) {
    diagnosticsUsed.push(
      `posterior predictive checks on ${config.posteriorPredictive.replicates} replicated panels: share of zeros, mean, sd, maximum and per-year totals with ` +
        'posterior predictive p-values P(T(y_rep) ≥ T(y)) (Gelman, Meng & Stern 1996), Pearson χ²/df as a realised discrepancy against the replicate drawn at the same parameters, ' +
        'and a rootogram of the counts (Kleiber & Zeileis 2016)',
    );
  }
  if (config.kfoldByCountry > 0) {
    diagnosticsUsed.push(
      `${config.kfoldByCountry}-fold cross-validation by country (each fold's countries predicted as new countries by a refit without them): ` +
        'elpd_kfold jointly per country, and elpd_kfold_pointwise per country-year as brms::kfold reports it',
    );
  }
  return diagnosticsUsed;
}

export function buildMethodology(config: DemocracyModelConfig, context: MethodologyContext): Methodology {
  const { data } = context;
  return {
    model: {
      family: familyDescription(config.family),
      formula: modelFormula(config.family),
      parameterisation: describeParameterisation(config.parameterisation, config.family),
      description:
        `Retractions per country-year are modelled as ${config.family === 'poisson' ? 'Poisson' : 'negative binomial'} counts whose rate per publication depends on ${context.predictors.length} ` +
        `standardised predictors (${context.predictors.join(', ')}), a country effect and a year effect.`,
    },
    priors: describePriors(config.priors, config.family),
    priorsDescription: null,
    sampler: describeSampler(config.sampler),
    variables: methodologyVariables(config, context),
    dataSources: config.dataSources.map((s) => ({ ...s })),
    data: {
      observations: data.observations,
      countries: data.countries,
      years: data.years,
      excludedRows: data.excludedRows,
      exclusionReasons: { ...data.exclusionReasons },
      missingDataMethod: 'complete cases (rows with a missing value are excluded)',
    },
    diagnosticsUsed: diagnosticsUsedBy(config),
    limitations: methodologyLimitations(context),
  };
}
