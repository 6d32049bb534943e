// The democracy endpoints (panel, visualisations, the model's results, diagnostics and methodology): queries,
// bodies and documentation.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { limitParam, withError } from '../../../core/http/params.ts';
import { MODEL_SOURCES, SCALE_NOTE } from '../democracy-model.ts';
import { DataSource, Num, NullableInteger, NullableNumber, NullableString, oneOf } from './common.ts';

export const RAW_DATA_DEFAULT_LIMIT = 100;
export const RAW_DATA_MAX_LIMIT = 1000;

const Interval = Nullable(Type.Object({ lower: Type.Number(), upper: Type.Number() }));
const YearsRange = Nullable(Type.Object({ first: Type.Integer(), last: Type.Integer(), count: Type.Integer() }));

export const RawDataQuery = Type.Object({
  country: Type.Optional(Type.String({ maxLength: 100, description: 'Country name (case-insensitive, partial) or ISO3 code.' })),
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

export const RawDataBody = Type.Object({
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

export const ModelInfo = Type.Object({
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
  imported_from: NullableString,
  available_sources: Type.Array(Type.String()),
  note: Type.String(),
});

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
  rhat: NullableNumber,
  ess_bulk: NullableNumber,
  ess_tail: NullableNumber,
  interpretation: Type.String(),
  source_interpretation: NullableString,
});
const ParameterResult = Type.Object({
  parameter: Type.String(),
  posterior_mean: NullableNumber,
  posterior_sd: NullableNumber,
  posterior_median: NullableNumber,
  credible_interval_95: Interval,
  rhat: NullableNumber,
  ess_bulk: NullableNumber,
  ess_tail: NullableNumber,
});

export const StatisticalResultsBody = Type.Object({
  model: ModelInfo,
  scale: Type.String(),
  predictors: Type.Array(PredictorResult),
  hyperparameters: Type.Array(ParameterResult),
});

export const DiagnosticsBody = Type.Object({
  model: ModelInfo,
  convergence: Nullable(
    Type.Object({
      rhat_max: NullableNumber,
      rhat_max_parameter: NullableString,
      ess_bulk_min: NullableNumber,
      ess_bulk_min_parameter: NullableString,
      ess_tail_min: NullableNumber,
      ess_tail_min_parameter: NullableString,
      ess_ratio_min: NullableNumber,
      ess_per_second: NullableNumber,
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
      sampler_seconds: NullableNumber,
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
    }),
  ),
  data: Nullable(Type.Object({ sample_size: NullableInteger, countries: NullableInteger, years: YearsRange })),
  checks: Nullable(
    Type.Object({
      thresholds: Type.Object({ rhat_max: Num, ess_bulk_min: Num, ess_tail_min: Num, pareto_k_ok: Num }),
      rhat_below_threshold: Nullable(Type.Boolean()),
      ess_bulk_above_threshold: Nullable(Type.Boolean()),
      ess_tail_above_threshold: Nullable(Type.Boolean()),
      no_divergences: Nullable(Type.Boolean()),
      pareto_k_all_ok: Nullable(Type.Boolean()),
    }),
  ),
  timing: Type.Any(),
});

export const MethodologyBody = Type.Object({
  model: ModelInfo,
  methodology: Type.Any({
    description:
      'Model, priors, sampler, variables, data sources, data accounting, diagnostics used, limitations and the configuration, generated from the configuration the fit ran with; null when no model is stored.',
  }),
});

export const OverviewBody = Type.Object({
  panel: Type.Any({
    description:
      'Rows, countries, regions, years, predictors, totals and the democracy index range of the imported panel; null when none is imported.',
  }),
  model: ModelInfo,
  democracy_effect: Nullable(PredictorResult),
  endpoints: Type.Record(Type.String(), Type.String()),
  data_source: DataSource,
});

export const VisualizationsBody = Type.Object({
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
  description: `Per predictor: posterior mean, sd, median, 95% credible interval, rate ratio with its interval, P(β>0), P(β<0) and a plain-language interpretation. ${SCALE_NOTE}`,
  querystring: ModelQuery,
  response: { 200: StatisticalResultsBody },
};

export const modelDiagnosticsSchema = {
  summary: 'Convergence and fit diagnostics of the model',
  description:
    'Rank-normalised split R-hat (max), bulk and tail ESS (min), ESS ratio, divergences, chains, iterations, warmup, PSIS-LOO (elpd, p_loo, looic, Pareto k counts), ' +
    'sample size, countries, years and sampler time, as numbers (null where an imported fit does not report them).',
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
