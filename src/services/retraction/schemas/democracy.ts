// The democracy endpoints (panel, visualisations, the model's results, diagnostics and methodology): queries,
// bodies and documentation.
import { Type } from 'typebox';
import { Nullable, producesFormats } from '../../../core/http/schema.ts';
import { limitParam, withError } from '../../../core/http/params.ts';
import { CLOCK_NOTE, EFFECTS_NOTE, MCSE_NOTE, MODEL_SOURCES, PREDICTIVE_NOTE, SCALE_NOTE } from '../democracy-model.ts';
import { COLUMN_NAMINGS, PARAMETER_GROUPS } from '../bayes/draws.ts';
import { DataSource, Num, NullableInteger, NullableNumber, NullableString, oneOf } from './common.ts';

const RAW_DATA_DEFAULT_LIMIT = 100;
export const RAW_DATA_MAX_LIMIT = 1000;

const Interval = Nullable(Type.Object({ lower: Type.Number(), upper: Type.Number() }));
const YearsRange = Nullable(Type.Object({ first: Type.Integer(), last: Type.Integer(), count: Type.Integer() }));

const RawDataQuery = Type.Object({
  country: Type.Optional(
    Type.String({ maxLength: 100, description: 'Country name (case-insensitive, partial) or ISO3 code.', examples: ['Argentina'] }),
  ),
  year: Type.Optional(
    withError(
      Type.Integer({ minimum: 1800, maximum: 2200, description: 'Year (1800–2200).' }),
      'must be a whole year between 1800 and 2200',
    ),
  ),
  limit: limitParam(RAW_DATA_DEFAULT_LIMIT, RAW_DATA_MAX_LIMIT, 'rows'),
});

const PanelRowSchema = Type.Object({
  country: Type.String(),
  iso3: NullableString,
  region: NullableString,
  year: Type.Integer(),
  democracy_index: NullableNumber,
  publications: NullableNumber,
  retractions: NullableInteger,
  retractions_per_1000_publications: NullableNumber,
  covariates: Type.Record(Type.String(), NullableNumber),
  is_demo: Type.Boolean(),
});

const RawDataBody = Type.Object({
  count: Type.Integer(),
  total: Type.Integer(),
  limit: Type.Integer(),
  filters: Type.Object({ country: NullableString, year: NullableInteger }),
  data: Type.Array(PanelRowSchema),
  data_source: DataSource,
});

export const ModelQuery = Type.Object({
  source: Type.Optional(
    oneOf(
      MODEL_SOURCES,
      "Which stored model: fitted (by this service) or imported (a published fit). Default: the service's own fit if there is one.",
    ),
  ),
});

const ModelInfo = Type.Object({
  status: oneOf(
    ['fitted', 'imported', 'not_fitted'] as const,
    'not_fitted: no model stored yet; the numbers below are then null or empty.',
  ),
  source: NullableString,
  model: NullableString,
  stored_at: NullableString,
  data_version: NullableString,
  panel_data_version: NullableString,
  describes_current_panel: Type.Boolean(),
  panel_generated: Nullable(
    Type.Boolean({
      description:
        'true: the stored fit was fitted to a GENERATED (demo or simulated) panel and describes simulated data; false: to imported real data; null: an imported published fit, or nothing stored.',
    }),
  ),
  imported_from: NullableString,
  available_sources: Type.Array(Type.String()),
  note: Type.String(),
});

const mcseFields = {
  posterior_mean: NullableNumber,
  posterior_sd: NullableNumber,
  posterior_median: NullableNumber,
  credible_interval_95: Interval,
};
const Mcse = Nullable(
  Type.Object(mcseFields, { description: 'Monte Carlo standard errors of the numbers beside; null for an imported fit.' }),
);

const PredictorResult = Type.Object({
  predictor: Type.String(),
  posterior_mean: Num,
  posterior_sd: NullableNumber,
  posterior_median: NullableNumber,
  credible_interval_95: Interval,
  rate_ratio: Num,
  rate_ratio_interval_95: Interval,
  prob_positive: NullableNumber,
  prob_negative: NullableNumber,
  sign: Type.Object(
    {
      direction: Nullable(Type.String({ description: 'negative or positive' })),
      probability: NullableNumber,
      mcse: NullableNumber,
    },
    { description: 'The more probable sign of the coefficient and its posterior probability, with the MCSE of that probability.' },
  ),
  rhat: NullableNumber,
  ess_bulk: NullableNumber,
  ess_tail: NullableNumber,
  mcse: Nullable(
    Type.Object({
      ...mcseFields,
      rate_ratio: NullableNumber,
      rate_ratio_interval_95: Interval,
      prob_positive: NullableNumber,
    }),
  ),
  interpretation: Type.String(),
  source_interpretation: NullableString,
});
const parameterFields = {
  parameter: Type.String(),
  posterior_mean: NullableNumber,
  posterior_sd: NullableNumber,
  posterior_median: NullableNumber,
  credible_interval_95: Interval,
  rhat: NullableNumber,
  ess_bulk: NullableNumber,
  ess_tail: NullableNumber,
  mcse: Mcse,
};
const ParameterResult = Type.Object(parameterFields);
const EffectResult = Type.Object({
  group: Type.String({ enum: ['country', 'year'] }),
  level: Type.String(),
  observations: Type.Integer(),
  ...parameterFields,
});

const StatisticalResultsBody = Type.Object({
  model: ModelInfo,
  scale: Type.String(),
  uncertainty: Type.String(),
  predictors: Type.Array(PredictorResult),
  hyperparameters: Type.Array(ParameterResult),
  effects: Type.String({ description: 'Where the country and year effects are served.' }),
  data_source: DataSource,
});

const EffectsQuery = Type.Object({
  ...ModelQuery.properties,
  group: Type.Optional(oneOf(['country', 'year'] as const, 'Only the country effects or only the year effects; default both.')),
});

const EffectsBody = Type.Object({
  model: ModelInfo,
  description: Type.String(),
  country_effects: Type.Array(EffectResult),
  year_effects: Type.Array(EffectResult),
  data_source: DataSource,
});

const PredictiveStatisticFields = {
  name: Type.String(),
  description: Type.String(),
  observed: Num,
  replicated_mean: Num,
  replicated_sd: Num,
  replicated_interval_95: Type.Object({ lower: Num, upper: Num }),
  p_value: Num,
  p_value_mid: Num,
  mcse_p_value: NullableNumber,
  extreme: Type.Boolean(),
};

const PosteriorPredictiveBody = Type.Object({
  model: ModelInfo,
  description: Type.String(),
  check: Nullable(
    Type.Object({
      replicates: Type.Integer(),
      seed: Type.String(),
      statistics: Type.Array(Type.Object(PredictiveStatisticFields)),
      year_totals: Type.Array(Type.Object({ year: Type.Integer(), ...PredictiveStatisticFields })),
      rootogram: Type.Array(
        Type.Object({
          label: Type.String(),
          lower: Type.Integer(),
          upper: NullableInteger,
          observed: Type.Integer(),
          expected: Num,
          expected_interval_95: Type.Object({ lower: Num, upper: Num }),
          sqrt_observed: Num,
          sqrt_expected: Num,
          hanging_bottom: Num,
        }),
      ),
      flagged: Type.Array(Type.String()),
    }),
  ),
  data_source: DataSource,
});

const DRAWS_FORMATS = ['json', 'csv'] as const;
const NAMES_DESCRIPTION =
  "Column names: syntactic (default) names that R's read.csv and pandas keep unchanged: beta_gdp for beta[gdp], u_<country> with accents dropped and " +
  'other characters outside [A-Za-z0-9._] as one underscore, v_<year>, a repeat suffixed _2; stan: the model names, beta[gdp], u[<country>], v[<year>] ' +
  '(as Stan and posterior::as_draws_df write them; R read.csv turns them into beta.gdp. unless check.names = FALSE).';
const DrawsQuery = Type.Object({
  format: Type.Optional(oneOf(DRAWS_FORMATS, 'json (default) or csv.')),
  parameters: Type.Optional(
    Type.String({
      maxLength: 20000,
      description:
        'Comma-separated parameter names (alpha, beta[democracy_index], sigma_country, sigma_year, phi, u[<country>], v[<year>]) or groups: ' +
        Object.entries(PARAMETER_GROUPS)
          .map(([k, v]) => `${k} (${v})`)
          .join(', ') +
        '. Default: population. Column names (beta_gdp) are accepted as well as model names.',
    }),
  ),
  names: Type.Optional(oneOf(COLUMN_NAMINGS, NAMES_DESCRIPTION)),
});

const Effects = Type.Union([Type.Literal('centred'), Type.Literal('non-centred')]);
const DiagnosticsBody = Type.Object({
  model: ModelInfo,
  parameterisation: Nullable(
    Type.Object(
      {
        country_effects: Effects,
        year_effects: Effects,
        switched: Type.Boolean({
          description: 'True when the configured (centred) parameterisation diverged and a non-centred refit is reported.',
        }),
        reason: Type.String(),
        attempts: Type.Array(Type.Object({ country_effects: Effects, year_effects: Effects, divergences: Type.Integer() }), {
          description: 'Every parameterisation sampled, in order, with its divergent transitions after warmup.',
        }),
      },
      {
        description:
          'The parameterisation of the country and year effects the reported draws came from, and why: the centred one unless it had divergent transitions after warmup, ' +
          'then the year effects non-centred, then the country effects too, keeping the fit with the fewest divergences. Same posterior in all; null for an imported fit or one stored before this was recorded.',
      },
    ),
  ),
  convergence: Nullable(
    Type.Object({
      rhat_max: NullableNumber,
      rhat_max_parameter: NullableString,
      ess_bulk_min: NullableNumber,
      ess_bulk_min_parameter: NullableString,
      ess_tail_min: NullableNumber,
      ess_tail_min_parameter: NullableString,
      ess_ratio_min: NullableNumber,
      ess_per_second: Nullable(Type.Number({ description: 'Bulk ESS min per wall-clock second of sampling (see timing.clock).' })),
      ess_per_cpu_second: Nullable(Type.Number({ description: 'Bulk ESS min per CPU-second of the sampling threads.' })),
    }),
  ),
  sampler: Nullable(
    Type.Object({
      chains: NullableInteger,
      iterations: NullableInteger,
      warmup: NullableInteger,
      draws: NullableInteger,
      divergences: NullableInteger,
      warmup_divergences: NullableInteger,
      tree_depth_saturation: Nullable(Type.Object({ count: Type.Integer(), fraction: Num, max_tree_depth: Type.Integer() })),
      mean_accept_stat: NullableNumber,
      ebfmi_min: NullableNumber,
      step_sizes: Nullable(Type.Array(Num)),
      mean_tree_depth: NullableNumber,
      sampler_seconds: Nullable(Type.Number({ description: 'Wall-clock seconds of all chains (see timing.clock).' })),
      sampler_cpu_seconds: Nullable(Type.Number({ description: 'CPU seconds of the threads that ran the chains.' })),
    }),
  ),
  loo: Nullable(
    Type.Object({
      elpd_loo: NullableNumber,
      elpd_loo_se: NullableNumber,
      p_loo: NullableNumber,
      p_loo_se: NullableNumber,
      looic: NullableNumber,
      looic_se: NullableNumber,
      pareto_k: Nullable(Type.Object({ good: Type.Integer(), ok: Type.Integer(), bad: Type.Integer(), very_bad: Type.Integer() })),
      max_pareto_k: NullableNumber,
      flagged_count: NullableInteger,
      flagged_observations: Type.Array(
        Type.Object({
          country: Type.String(),
          year: Type.Integer(),
          retractions: Type.Integer(),
          publications: Num,
          pareto_k: Num,
          elpd_loo: Num,
        }),
        { description: 'Observations with Pareto k > 0.7 (PSIS-LOO unreliable there), largest k first, at most 100.' },
      ),
      alternative: NullableString,
    }),
  ),
  waic: Nullable(
    Type.Object({
      elpd_waic: Num,
      elpd_waic_se: Num,
      p_waic: Num,
      p_waic_se: Num,
      waic: Num,
      waic_se: Num,
      p_waic_above_0_4: Type.Integer(),
    }),
  ),
  kfold: Nullable(
    Type.Object({
      folds: Type.Integer(),
      elpd_kfold: Type.Number({
        description: 'The joint figure, elpd_kfold_joint: Σ over countries of log p(all rows of the country | the other folds).',
      }),
      elpd_kfold_se: Num,
      kfoldic: Num,
      p_kfold: NullableNumber,
      elpd_kfold_pointwise: Nullable(
        Type.Number({
          description:
            "brms::kfold's figure: Σ over held-out country-years of log mean_s p(y_i | θ_s) under the fold's refit; null in fits stored before it was computed.",
        }),
      ),
      elpd_kfold_pointwise_se: NullableNumber,
      kfoldic_pointwise: NullableNumber,
      definitions: Type.Object(
        { elpd_kfold: Type.String(), elpd_kfold_pointwise: Type.String() },
        { description: 'What each of the two k-fold figures sums.' },
      ),
      per_observation: Type.Array(Type.Object({ country: Type.String(), year: Type.Integer(), fold: Type.Integer(), elpd: Num }), {
        description: 'The pointwise terms of elpd_kfold_pointwise.',
      }),
      countries: Type.Integer(),
      observations: Type.Integer(),
      fold_countries: Type.Array(Type.Array(Type.String())),
      per_country: Type.Array(Type.Object({ country: Type.String(), fold: Type.Integer(), observations: Type.Integer(), elpd: Num })),
      refit_rhat_max: NullableNumber,
      refit_ess_bulk_min: NullableNumber,
      refit_divergences: Type.Integer(),
      wall_seconds: Num,
      cpu_seconds: NullableNumber,
      method: Type.String(),
    }),
  ),
  posterior_predictive: Nullable(Type.Object({ replicates: Type.Integer(), flagged: Type.Array(Type.String()), details: Type.String() })),
  data: Nullable(Type.Object({ sample_size: NullableInteger, countries: NullableInteger, years: YearsRange })),
  checks: Nullable(
    Type.Object({
      thresholds: Type.Object({ rhat_max: Num, ess_bulk_min: Num, ess_tail_min: Num, pareto_k_ok: Num }),
      rhat_below_threshold: Nullable(Type.Boolean()),
      ess_bulk_above_threshold: Nullable(Type.Boolean()),
      ess_tail_above_threshold: Nullable(Type.Boolean()),
      no_divergences: Nullable(Type.Boolean()),
      pareto_k_all_ok: Nullable(Type.Boolean()),
      posterior_predictive_none_extreme: Nullable(Type.Boolean()),
    }),
  ),
  timing: Type.Any({ description: CLOCK_NOTE }),
  data_source: DataSource,
});

const MethodologyBody = Type.Object({
  model: ModelInfo,
  data_source: DataSource,
  methodology: Type.Any({
    description:
      'Model, priors, sampler, variables, data sources, data accounting, diagnostics used, limitations and the configuration, generated from the configuration the fit ran with; null when no model is stored.',
  }),
});

const OverviewBody = Type.Object({
  panel: Type.Any({
    description:
      'Rows, countries, regions, years, predictors, totals and the democracy index range of the imported panel; null when none is imported.',
  }),
  model: ModelInfo,
  democracy_effect: Nullable(PredictorResult),
  endpoints: Type.Record(Type.String(), Type.String()),
  data_source: DataSource,
});

const VisualizationsBody = Type.Object({
  scatter: Type.Any(),
  temporal_trends: Type.Array(Type.Any()),
  regional_summary: Type.Array(Type.Any()),
  world_map: Type.Array(Type.Any()),
  computed_at: Type.String(),
  data_source: DataSource,
});

export const overviewSchema = {
  summary: 'Democracy and retractions: the panel and the headline result',
  description:
    'The imported country-year panel in brief, which model is served (fitted by this service, imported, or not fitted yet) and its democracy coefficient.',
  response: { 200: OverviewBody },
};

export const rawDataSchema = {
  summary: 'The democracy country-year panel',
  description: `Rows ordered by country, then year. \`country\`: an ISO3 code, or part of the country name (case-insensitive). \`limit\` default ${RAW_DATA_DEFAULT_LIMIT}, values above ${RAW_DATA_MAX_LIMIT} reduced to ${RAW_DATA_MAX_LIMIT}; \`total\` counts every matching row.`,
  querystring: RawDataQuery,
  response: { 200: RawDataBody },
};

export const visualizationsSchema = {
  summary: 'Chart data: democracy against retraction rates',
  description:
    'scatter: one point per country (mean democracy index, retractions per 1,000 publications pooled over its years) with Pearson r (Fisher-z 95% interval) and Spearman rho; ' +
    'temporal_trends per year; regional_summary per region; world_map per ISO3 code (latest democracy index, totals). Descriptive, computed at import.',
  response: { 200: VisualizationsBody },
};

export const statisticalResultsSchema = {
  summary: 'Posterior summaries of the model coefficients',
  description: `Per predictor: posterior mean, sd, median, 95% credible interval, rate ratio with its interval, P(β>0), P(β<0), the probability of the more probable sign, R-hat, ESS, Monte Carlo standard errors and a plain-language interpretation. ${SCALE_NOTE} ${MCSE_NOTE}`,
  querystring: ModelQuery,
  response: { 200: StatisticalResultsBody },
};

export const modelDiagnosticsSchema = {
  summary: 'Convergence and fit diagnostics of the model',
  description:
    'Rank-normalised split R-hat (max), bulk and tail ESS (min), ESS ratio, divergences, chains, iterations, warmup, PSIS-LOO (elpd, p_loo, looic, Pareto k counts, ' +
    'the observations with k > 0.7 and what to do about them), WAIC, k-fold cross-validation by country when it was run, the posterior predictive checks flagged, ' +
    'sample size, countries, years and sampler time (wall-clock and CPU seconds, labelled), as numbers (null where an imported fit does not report them).',
  querystring: ModelQuery,
  response: { 200: DiagnosticsBody },
};

export const methodologySchema = {
  summary: 'How the model is specified and fitted',
  description:
    'Model, priors, sampler settings, variables, data sources, data accounting, diagnostics and limitations, rendered from the configuration the stored fit used.',
  querystring: ModelQuery,
  response: { 200: MethodologyBody },
};

export const effectsSchema = {
  summary: 'Country and year effects of the model',
  description: `${EFFECTS_NOTE} ${MCSE_NOTE}`,
  querystring: EffectsQuery,
  response: { 200: EffectsBody },
};

export const posteriorPredictiveSchema = {
  summary: 'Posterior predictive checks of the model, with a rootogram',
  description: PREDICTIVE_NOTE,
  querystring: ModelQuery,
  response: { 200: PosteriorPredictiveBody },
};

const DrawsBody = Type.Object({
  model: ModelInfo,
  data_source: DataSource,
  parameters: Type.Array(Type.String(), { description: 'The model names of the selected parameters (beta[gdp]), in column order.' }),
  chains: Type.Integer(),
  draws_per_chain: Type.Integer(),
  warmup: Type.Integer(),
  columns: Type.Array(Type.String(), { description: 'Column names, as the names parameter chose them.' }),
  draws: Type.Array(Type.Array(Num), { description: 'One array per draw, in the order of columns.' }),
});

export const drawsSchema = {
  summary: 'Posterior draws of the model (streamed)',
  description:
    "The posterior draws of the service's own fit, one row per draw: .chain, .iteration (post-warmup, from 1), .draw (from 1), then the selected parameters, " +
    'as posterior::as_draws_df reads them. CSV (text/csv) or JSON ({model, data_source, parameters, chains, draws_per_chain, warmup, columns, draws: [[…], …]}), ' +
    'streamed as an attachment; rate-limited with the exports (10 requests per client per minute). 404 NO_DRAWS when no fit with draws is stored; 400 for an unknown parameter. ' +
    'A CSV of a fit to GENERATED data says so in its file name and in the X-Data-Kind header. ' +
    "Columns are named for R's read.csv and pandas (beta_gdp) unless names=stan asks for the model names (beta[gdp]).",
  querystring: DrawsQuery,
  produces: producesFormats('json', 'csv'),
  // Documentation of the JSON form; the body is streamed, not serialised through this schema.
  response: { 200: DrawsBody },
};

const Effect = Nullable(Type.Union([Type.Literal('centred'), Type.Literal('non-centred')]));
const FitLabelText = 'A kept fit’s label (letters, digits, dots, dashes, underscores), as /api/democracy/models/ lists them.';

const KeptFit = Type.Object({
  label: Type.String({
    description: 'The name the fit is kept under (`pdi fit retraction --label`, default <family>-<parameterisation>).',
  }),
  model: Type.String(),
  family: Type.String(),
  country_effects: Effect,
  year_effects: Effect,
  parameterisation_switched: Nullable(Type.Boolean()),
  stored_at: Type.String(),
  panel_data_version: Type.String(),
  describes_current_panel: Type.Boolean(),
  panel_generated: Type.Boolean(),
  seed: Type.String(),
  divergences: NullableInteger,
  elpd_loo: NullableNumber,
  elpd_loo_se: NullableNumber,
  p_loo: NullableNumber,
  looic: NullableNumber,
  pareto_k_above_0_7: NullableInteger,
});

export const modelsSchema = {
  summary: 'The fits kept side by side',
  description:
    'Every fit `pdi fit retraction` has kept, one per label (a new fit of a label replaces the old): family, parameterisation of the effects, the panel it was fitted to, divergences and PSIS-LOO. ' +
    'The served model (statistical-results and the others) is the latest fit; these are for comparison (/api/democracy/model-comparison/) and their pointwise log-likelihood (/api/democracy/log-lik/).',
  response: { 200: Type.Object({ models: Type.Array(KeptFit), data_source: DataSource }) },
};

export const modelComparisonSchema = {
  summary: 'Paired model comparison of the kept fits (loo_compare)',
  description:
    'The kept fits of the current panel ordered by elpd_loo, each with elpd_diff and se_diff against the best, computed from the pointwise PSIS-LOO terms as loo::loo_compare does: ' +
    'elpd_diff = Σ_i (elpd_loo_i − elpd_loo_i of the best), se_diff = √n · sd of the pointwise differences. The best fit has 0 and 0. Fits of another panel or without LOO are listed under excluded.',
  response: {
    200: Type.Object({
      panel_data_version: NullableString,
      observations: NullableInteger,
      method: Type.String(),
      models: Type.Array(
        Type.Object({
          label: Type.String(),
          model: Type.String(),
          family: Type.String(),
          country_effects: Effect,
          year_effects: Effect,
          elpd_diff: Type.Number({ description: 'elpd_loo of this fit minus that of the best (≤ 0).' }),
          se_diff: Type.Number({ description: 'Standard error of elpd_diff from the paired pointwise differences.' }),
          elpd_loo: Num,
          elpd_loo_se: Num,
          p_loo: NullableNumber,
          looic: NullableNumber,
          pareto_k_above_0_7: NullableInteger,
          divergences: NullableInteger,
          stored_at: Type.String(),
          log_lik: Type.String({ description: 'URL of its pointwise log-likelihood (CSV).' }),
        }),
      ),
      excluded: Type.Array(Type.Object({ label: Type.String(), reason: Type.String() })),
      kfold: Nullable(
        Type.Object(
          {
            folds: Type.Integer(),
            method: Type.String(),
            models: Type.Array(
              Type.Object({
                label: Type.String(),
                elpd_diff: Num,
                se_diff: Num,
                elpd_kfold_pointwise: Num,
                elpd_kfold_pointwise_se: Num,
              }),
            ),
            without_kfold: Type.Array(Type.String(), { description: 'Compared fits without k-fold on these folds.' }),
          },
          { description: 'loo_compare on the k-fold pointwise elpd of the fits run with k-fold on the same folds; null when none was.' },
        ),
      ),
      data_source: DataSource,
    }),
  },
};

const LogLikQuery = Type.Object({
  model: Type.String({ pattern: '^[A-Za-z0-9._-]{1,40}$', description: FitLabelText, examples: ['negbinomial2-centred'] }),
  names: Type.Optional(
    oneOf(COLUMN_NAMINGS, NAMES_DESCRIPTION.replace('beta_gdp for beta[gdp]', 'log_lik_Chile_2010 for log_lik[Chile,2010]')),
  ),
});

export const logLikSchema = {
  summary: 'Pointwise log-likelihood of a kept fit (CSV, streamed)',
  description:
    'The log_lik matrix loo::loo() takes: one row per posterior draw (.chain, .iteration, .draw, as posterior::as_draws_df), one column per country-year of the panel, ' +
    'log p(y_i | θ_s) under the fit’s family, recomputed from its stored draws. Columns log_lik_<country>_<year> (names=stan: log_lik[<country>,<year>]). ' +
    'In R: ll <- as.matrix(read.csv(url)[, -(1:3)]); loo::loo(ll, r_eff = loo::relative_eff(exp(ll), chain_id = read.csv(url)$.chain)). ' +
    'Rate-limited with the exports. 404 NO_FIT for an unknown label; 409 PANEL_CHANGED when the panel was re-imported since the fit.',
  querystring: LogLikQuery,
  produces: producesFormats('csv'),
};
