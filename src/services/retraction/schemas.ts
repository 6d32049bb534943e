// Request and response schemas of Service E (they validate, serialise and document the API).
import { Type } from 'typebox';
import { Nullable } from '../../core/http/schema.ts';
import { limitParam, withError } from '../../core/http/params.ts';
import { ANALYTICS_TYPES, TIME_FILTERS } from './analytics.ts';
import { MODEL_SOURCES } from './democracy-model.ts';
import { EXPORT_COLUMNS } from './repository.ts';
export { Type };

export const EXPORT_DEFAULT_LIMIT = 1000;
export const EXPORT_MAX_LIMIT = 10000;
export const RAW_DATA_DEFAULT_LIMIT = 100;
export const RAW_DATA_MAX_LIMIT = 1000;

/** A string from a fixed list (a plain JSON-schema enum, so the 400 message lists the allowed values). */
const oneOf = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
const Num = Type.Number();
const NullableNumber = Nullable(Type.Number());
const NullableString = Nullable(Type.String());
const NullableInteger = Nullable(Type.Integer());
const Interval = Nullable(Type.Object({ lower: Type.Number(), upper: Type.Number() }));
const YearsRange = Nullable(Type.Object({ first: Type.Integer(), last: Type.Integer(), count: Type.Integer() }));

export const DataSource = Type.Object(
  {
    kind: oneOf(
      ['generated', 'imported', 'mixed', 'none'] as const,
      'generated: every dataset is generated demo data (not real); imported: real imported data; mixed: some of each.',
    ),
    is_demo: Type.Boolean(),
    description: Type.String(),
    datasets: Type.Array(
      Type.Object({
        dataset: Type.String(),
        source: NullableString,
        is_demo: Type.Boolean(),
        imported_at: Type.String(),
        data_version: Type.String(),
      }),
    ),
  },
  { description: 'Where the data behind this response comes from; generated demo data is labelled as such.' },
);

// ---------------------------------------------------------------- autocomplete and papers

export const AutocompleteQuery = Type.Object({
  q: withError(
    Type.String({
      maxLength: 200,
      description: 'Text to look for in titles, author names and DOIs (case-insensitive); at least 3 characters after trimming.',
    }),
    'must be at most 200 characters long',
  ),
});

export const Suggestion = Type.Object({
  record_id: Type.String(),
  title: Type.String(),
  journal: NullableString,
  author: Type.String({ description: 'Authors, separated by "; ".' }),
  retraction_date: NullableString,
  post_retraction_citations: Type.Integer(),
});
export const AutocompleteBody = Type.Object({ suggestions: Type.Array(Suggestion, { maxItems: 10 }) });

export const PaperParams = Type.Object({
  record_id: Type.String({ minLength: 1, maxLength: 64, description: 'Retraction Watch Record ID (a string).' }),
});

const Timing = Type.Object({
  within_30_days: Type.Integer(),
  within_1_year: Type.Integer(),
  within_2_years: Type.Integer(),
  after_2_years: Type.Integer(),
});
const YearCounts = Type.Record(Type.String({ pattern: '^\\d{4}$' }), Type.Integer());

export const PaperCitationsBody = Type.Object({
  record_id: Type.String(),
  total_citations: Type.Integer({ description: 'All citations of the paper: pre + same_day + post + undated.' }),
  post_retraction_count: Type.Integer({ description: 'Citing date after the retraction date.' }),
  pre_retraction_count: Type.Integer(),
  same_day_count: Type.Integer({ description: 'Citing date equal to the retraction date (not post-retraction).' }),
  undated_count: Type.Integer({ description: 'Citing date or retraction date unknown: counted in the total only.' }),
  citations_by_year: YearCounts,
  post_retraction_by_year: YearCounts,
  post_retraction_timing: Timing,
  paper: Type.Object({
    title: Type.String(),
    journal: NullableString,
    retraction_date: NullableString,
    original_paper_date: NullableString,
    doi: NullableString,
    is_demo: Type.Boolean(),
  }),
});

// ---------------------------------------------------------------- analytics

export const PostRetractionQuery = Type.Object({
  time_filter: Type.Optional(oneOf(TIME_FILTERS, 'Citing-date window: all (default), or the last 1, 3 or 5 years up to as_of.')),
  journal: Type.Optional(Type.String({ maxLength: 200, description: 'Journal name contains this text (case-insensitive).' })),
  subject: Type.Optional(Type.String({ maxLength: 200, description: 'A subject contains this text (case-insensitive).' })),
});

const TopPaper = Type.Object({
  record_id: Type.String(),
  title: Type.String(),
  journal: NullableString,
  retraction_date: NullableString,
  post_retraction_citations: Type.Integer(),
  total_citations: Type.Integer(),
});

export const PostRetractionBody = Type.Object({
  filters: Type.Object({
    time_filter: Type.String(),
    journal: NullableString,
    subject: NullableString,
    as_of: Nullable(Type.String({ description: 'Reference day of the windows: the latest citing date, capped at the import day.' })),
    citing_date_from: Nullable(Type.String({ description: 'Window start (exclusive).' })),
    citing_date_to: Nullable(Type.String({ description: 'Window end (inclusive).' })),
  }),
  totals: Type.Object({
    papers: Type.Integer({ description: 'Papers matching journal and subject.' }),
    citations: Type.Integer({ description: 'Their citations within the window.' }),
    post_retraction_citations: Type.Integer(),
    post_retraction_rate: Type.Number({ description: 'post_retraction_citations / citations (0 when there are none), a fraction.' }),
  }),
  timing_distribution: Type.Array(Type.Object({ bucket: Type.String(), count: Type.Integer() }), {
    description: 'Post-retraction citations by days after the retraction: 1–30, 31–365, 366–730, over 730.',
  }),
  top_papers: Type.Array(TopPaper, { maxItems: 10 }),
  top_journals: Type.Array(Type.Object({ journal: Type.String(), papers: Type.Integer(), post_retraction_citations: Type.Integer() }), {
    maxItems: 10,
  }),
  top_subjects: Type.Array(Type.Object({ subject: Type.String(), papers: Type.Integer(), post_retraction_citations: Type.Integer() }), {
    maxItems: 10,
  }),
  monthly_trend: Type.Array(Type.Object({ month: Type.String(), count: Type.Integer() }), {
    description: 'Post-retraction citations per citing month, the 24 months ending with as_of (zeros included; year-only dates excluded).',
  }),
  computed_at: Type.String(),
  data_source: DataSource,
});

export const AnalyticsDataQuery = Type.Object({
  type: Type.Optional(oneOf(ANALYTICS_TYPES, 'Which table (default overview).')),
  chart: Type.Optional(oneOf(ANALYTICS_TYPES, 'Old name of `type`, still accepted.')),
  format: Type.Optional(oneOf(['json', 'csv'] as const, 'json (default) or a flat CSV.')),
});

export const AnalyticsDataBody = Type.Object({
  type: Type.String(),
  columns: Type.Array(Type.String(), { description: 'The columns of the CSV form of this type.' }),
  data: Type.Any({ description: 'overview: an object of totals; the other types: an array of rows with the columns listed.' }),
  computed_at: Type.String(),
  data_version: Type.String(),
  data_source: DataSource,
});

export const RealtimeBody = Type.Object({
  totals: Type.Object({
    papers: Type.Integer(),
    citations: Type.Integer(),
    post_retraction_citations: Type.Integer(),
    post_retraction_rate: Num,
    journals: Type.Integer(),
    countries: Type.Integer(),
  }),
  imports_last_24_hours: Type.Object({
    count: Type.Integer(),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    runs: Type.Array(
      Type.Object({
        importer: Type.String(),
        dataset: NullableString,
        source: NullableString,
        status: Type.String(),
        started_at: Type.String(),
        finished_at: NullableString,
        rows_read: NullableInteger,
        inserted: NullableInteger,
        updated: NullableInteger,
        deleted: NullableInteger,
        skipped: NullableInteger,
      }),
    ),
  }),
  citation_timing: Type.Object({
    pre_retraction: Type.Integer(),
    same_day: Type.Integer(),
    post_retraction: Type.Integer(),
    undated: Type.Integer(),
    post_retraction_by_delay: Timing,
  }),
  last_updated: NullableString,
  generated_at: Type.String(),
  data_source: DataSource,
});

export const ExportQuery = Type.Object({
  format: Type.Optional(oneOf(['json', 'csv', 'excel'] as const, 'json (default), csv or excel (.xlsx).')),
  limit: limitParam(EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT, 'papers'),
});

export const ExportBody = Type.Object(
  {
    papers: Type.Array(Type.Object(Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, Type.Any()])))),
    analytics: Type.Any(),
  },
  { description: 'json format; csv and excel carry the same columns as the papers here.' },
);

// ---------------------------------------------------------------- democracy

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
