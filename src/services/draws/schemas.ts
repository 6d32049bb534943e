// TypeBox schemas of Service D: they validate requests, serialise responses and make the OpenAPI document.
// Response schemas are complete (the serialiser drops properties a schema does not name).
import { Type } from 'typebox';
import { dateParam, integerPathParam, withError } from '../../core/http/params.ts';
import { Nullable } from '../../core/http/schema.ts';

const isoDate = (description: string) => Type.String({ description: `${description} (YYYY-MM-DD).` });
const timestamp = (description: string) => Type.String({ description: `${description} (ISO 8601 UTC).` });

export const CategoryIdParams = Type.Object({ category_id: integerPathParam('Category id (see /api/categories/).') });
export const IdParams = Type.Object({ id: integerPathParam('Category id (see /api/categories/).') });

export const DrawsQuery = Type.Object({
  category: Type.Optional(
    withError(
      Type.String({ pattern: '^[0-9]{1,15}$', description: 'Only draws of this category id.' }),
      'must be a category id (a positive whole number)',
    ),
  ),
  start_date: Type.Optional(dateParam('Only draws after this date (exclusive).')),
  end_date: Type.Optional(dateParam('Only draws before this date (exclusive).')),
});

export const DataSourceSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('ircc'), Type.Literal('demo'), Type.Literal('none')], {
      description: '"demo" marks generated data that is not real.',
    }),
    description: Type.String(),
    source: Nullable(Type.String()),
    imported_at: Nullable(timestamp('When the draws were imported')),
    data_version: Nullable(Type.String()),
    as_of: isoDate('The date "recent" and the forecasts are measured from: PDI_DRAWS_AS_OF, else today in America/Toronto'),
    forecasts_as_of: Nullable(isoDate('The as-of date of the stored forecasts')),
  },
  { description: 'Where the data comes from; generated demo data says so here.' },
);

export const DrawSchema = Type.Object({
  id: Type.Integer(),
  round_number: Type.String({ description: 'Round number as IRCC publishes it ("388", "91a").' }),
  date: isoDate('Date of the round'),
  category_id: Type.Integer(),
  category_name: Type.String({ description: 'Canonical category name.' }),
  draw_name: Type.String({ description: "The round's name exactly as IRCC publishes it." }),
  invitations_issued: Type.Integer(),
  lowest_crs_score: Type.Integer({ description: 'CRS score of the lowest-ranked candidate invited.' }),
  tie_break_at: Nullable(timestamp("The tie-breaking rule's profile submission cut-off")),
  days_since_last_draw: Nullable(
    Type.Integer({ minimum: 0, description: 'Days since the previous draw of the same category (0: same day); null for its first draw.' }),
  ),
  url: Nullable(Type.String({ description: "The round's page on canada.ca." })),
});

export const PredictionSchema = Type.Object({
  rank: Type.Integer({ description: 'h: 1 is the next draw.' }),
  predicted_date: isoDate('Predicted draw date'),
  predicted_crs_score: Type.Number(),
  predicted_invitations: Type.Integer(),
  confidence_score: Type.Number({
    description: 'Backtest hit rate (|error| ≤ 10 points) of the chosen model at this horizon, smoothed; 0–100. See /api/models/.',
  }),
  model_used: Type.String(),
  uncertainty_range: Type.Object(
    {
      min: Type.Number(),
      max: Type.Number(),
      confidence_level: Type.Number({ description: 'Always 95.' }),
      margin_of_error: Type.Number(),
    },
    { description: '95% prediction interval of the cut-off score.' },
  ),
  date_range: Type.Object(
    { earliest: isoDate('Earliest plausible date'), latest: isoDate('Latest plausible date') },
    { description: 'Central 95% range of the draw date.' },
  ),
});

export const PredictEntrySchema = Type.Object({
  category_id: Type.Integer(),
  category_name: Type.String(),
  category_description: Nullable(Type.String()),
  last_updated: Nullable(timestamp("Time of the category's latest draw (drawDateTime)")),
  recent_draws: Type.Array(Type.Object({ date: isoDate('Draw date'), crs_score: Type.Number(), invitations: Type.Integer() }), {
    description: 'The last five draws, newest first.',
  }),
  predictions: Type.Array(PredictionSchema),
});

export const PredictResponse = Type.Object({
  success: Type.Boolean(),
  total_categories: Type.Integer(),
  generated_at: timestamp('When the forecasts were computed'),
  data: Type.Array(PredictEntrySchema),
  data_source: DataSourceSchema,
});

export const CategorySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  is_active: Type.Boolean(),
  created_at: timestamp('When the category was first seen'),
  total_draws: Type.Integer(),
  avg_crs_score: Nullable(Type.Number()),
  latest_draw_date: Nullable(isoDate('Latest draw')),
});

export const CategoriesResponse = Type.Array(CategorySchema);

export const CategoryStatisticsResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({
    category_id: Type.Integer(),
    category_name: Type.String(),
    total_draws: Type.Integer(),
    avg_crs_score: Nullable(Type.Number()),
    median_crs_score: Nullable(Type.Number()),
    min_crs_score: Nullable(Type.Number()),
    max_crs_score: Nullable(Type.Number()),
    total_invitations: Type.Integer(),
    avg_invitations: Nullable(Type.Number()),
    first_draw_date: Nullable(Type.String()),
    latest_draw_date: Nullable(Type.String()),
    avg_days_between_draws: Nullable(Type.Number({ description: 'Mean gap in days between consecutive draw dates of the category.' })),
    median_days_between_draws: Nullable(Type.Number()),
    latest_draw: Nullable(DrawSchema),
  }),
  data_source: DataSourceSchema,
});

export const CategoryPredictionsResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ category_id: Type.Integer(), category_name: Type.String(), predictions: Type.Array(PredictionSchema) }),
  data_source: DataSourceSchema,
});

export const DrawsResponse = Type.Object({
  success: Type.Boolean(),
  count: Type.Integer(),
  data: Type.Array(DrawSchema),
  data_source: DataSourceSchema,
});

export const NextPredictionSchema = Type.Object({
  category_id: Type.Integer(),
  category_name: Type.String(),
  ...PredictionSchema.properties,
});

export const StatsResponse = Type.Object({
  success: Type.Boolean(),
  total_draws: Type.Integer(),
  categories_count: Type.Integer(),
  total_predictions: Type.Integer(),
  avg_crs_score: Nullable(Type.Number()),
  avg_invitations: Nullable(Type.Number()),
  min_crs_score: Nullable(Type.Number()),
  max_crs_score: Nullable(Type.Number()),
  recent_draws: Type.Array(DrawSchema, { description: 'The last 10 draws up to the as-of date, newest first.' }),
  next_predictions: Type.Array(NextPredictionSchema, {
    description: 'The next predicted draw (rank 1) of each predicted category, by date.',
  }),
  last_updated: Nullable(timestamp('When the draws were imported')),
  data_source: DataSourceSchema,
});

const HorizonSchema = Type.Object({
  h: Type.Integer(),
  n: Type.Integer({ description: 'Backtest errors at this horizon.' }),
  mae: Nullable(Type.Number()),
  rmse: Nullable(Type.Number()),
  mase: Nullable(Type.Number()),
  bias: Nullable(Type.Number({ description: 'Mean of actual − forecast.' })),
  coverage_95: Nullable(Type.Number({ description: 'Share of actuals inside the 95% interval served at each origin.' })),
});

export const ModelSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  parameters: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  selected_for: Type.Array(Type.Integer(), { description: 'Ids of the predicted categories whose CRS forecasts use this model.' }),
  performance: Type.Object({
    method: Type.String({ description: '"rolling-origin backtest": expanding window, horizons 1–5.' }),
    by_horizon: Type.Array(HorizonSchema, {
      description: 'Errors of CRS cut-off forecasts, pooled over every category with enough history.',
    }),
  }),
  confidence_definition: Type.String(),
});

export const CategoryForecastSchema = Type.Object({
  category_id: Type.Integer(),
  category_name: Type.String(),
  status: Type.String({ description: 'predicted, dormant or insufficient_history.' }),
  reason: Type.String(),
  crs_model: Nullable(Type.String()),
  selection_reason: Nullable(Type.String()),
  compared_on: Nullable(Type.Integer({ description: 'h = 1 targets common to all candidates, on which the choice was made.' })),
  mae_h1: Type.Record(Type.String(), Type.Number(), { description: 'h = 1 MAE of each candidate on those common targets.' }),
  invitations_model: Nullable(Type.String()),
});

export const ModelsResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(ModelSchema),
  methodology: Type.Object({
    selection: Type.String(),
    interval: Type.String(),
    confidence: Type.String(),
    dates: Type.String(),
    dormant: Type.String(),
    backtest: Type.String(),
  }),
  categories: Type.Array(CategoryForecastSchema, { description: 'How each category is forecast, and why.' }),
  data_source: DataSourceSchema,
});

export const HealthResponse = Type.Object({
  status: Type.String(),
  timestamp: timestamp('Time of the check'),
  version: Type.String(),
  database: Type.Object({
    connected: Type.Boolean(),
    draws_count: Nullable(Type.Integer()),
    categories_count: Nullable(Type.Integer()),
    predictions_count: Nullable(Type.Integer()),
  }),
  endpoints: Type.Object({
    predictions: Type.String(),
    categories: Type.String(),
    draws: Type.String(),
    statistics: Type.String(),
    documentation: Type.String(),
  }),
});
