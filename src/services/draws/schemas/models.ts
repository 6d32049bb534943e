// GET /api/models/.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { DataSourceSchema } from './common.ts';

const HorizonSchema = Type.Object({
  h: Type.Integer(),
  n: Type.Integer({ description: 'Backtest errors at this horizon.' }),
  mae: Nullable(Type.Number()),
  rmse: Nullable(Type.Number()),
  mase: Nullable(
    Type.Number({ description: "Mean |error| / the category's scale (its mean absolute change) when the forecast was made." }),
  ),
  bias: Nullable(Type.Number({ description: 'Mean of actual − forecast.' })),
  coverage_95: Nullable(
    Type.Number({
      description: 'Share of actuals inside the 95% interval served at each origin (served models only; the members have no interval).',
    }),
  ),
  median_half_width: Nullable(Type.Number({ description: 'Median half-width of those intervals (CRS points; log invitations).' })),
});

const ModelSchema = Type.Object({
  name: Type.String(),
  description: Type.String({ description: 'What the model does, with its formula.' }),
  parameters: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()])),
  selected_for: Type.Array(Type.Integer(), {
    description:
      'Ids of the categories whose served forecasts use this model: served models (combination, pooled_young) by model_used; members by a weight in the combination.',
  }),
  performance: Type.Object({
    method: Type.String({ description: '"rolling-origin backtest": walk-forward with an expanding window, horizons 1–5.' }),
    by_horizon: Type.Array(HorizonSchema, { description: 'Errors of CRS cut-off forecasts over the report window, by horizon.' }),
    invitations_by_horizon: Type.Array(HorizonSchema, { description: 'The same for invitations, on the log scale.' }),
    window: Type.String({ description: 'Which forecasts the tables cover.' }),
  }),
  confidence_definition: Type.String(),
});

const Weights = Type.Record(Type.String(), Type.Number(), { description: 'Combination weights of the members (sum 1).' });

const CategoryForecastSchema = Type.Object({
  category_id: Type.Integer(),
  category_name: Type.String(),
  status: Type.String({ description: 'predicted, young, dormant or insufficient_history.' }),
  reason: Type.String(),
  dormant_since: Nullable(Type.String({ description: 'First day the category counted as dormant (YYYY-MM-DD).' })),
  crs_model: Nullable(Type.String({ description: 'The served model: combination or pooled_young.' })),
  selection_reason: Nullable(Type.String()),
  compared_on: Nullable(Type.Integer({ description: 'h = 1 backtest targets of this category in the report window.' })),
  mae_h1: Type.Record(Type.String(), Type.Number(), {
    description: 'h = 1 MAE of the served forecast (combination), naive and the window mean on those targets.',
  }),
  invitations_model: Nullable(Type.String()),
  crs_weights: Weights,
  invitations_weights: Weights,
  reversion_phi: Nullable(Type.Number({ description: "φ of the pooled reversion model for this category's CRS (after shrinkage)." })),
});

const IntervalRow = Type.Object({
  h: Type.Integer(),
  n: Type.Integer(),
  coverage_95: Nullable(Type.Number()),
  median_half_width: Nullable(Type.Number()),
});

export const ModelsResponse = Type.Object({
  success: Type.Boolean(),
  data: Type.Array(ModelSchema),
  methodology: Type.Object({
    selection: Type.String(),
    interval: Type.String(),
    confidence: Type.String(),
    dates: Type.String(),
    likely_window: Type.String({ description: 'How the next draw’s likely three weeks and their probability are found.' }),
    dormant: Type.String(),
    backtest: Type.String(),
    backtest_definition: Type.String(),
    young: Type.String(),
  }),
  intervals: Type.Object(
    {
      crs: Type.Array(IntervalRow),
      invitations: Type.Array(IntervalRow),
      dates: Type.Array(
        Type.Object({
          h: Type.Integer(),
          level: Type.Number({ description: 'The calibrated central level served at the as-of date.' }),
          n: Type.Integer(),
          coverage_95: Nullable(Type.Number()),
        }),
      ),
    },
    { description: 'Backtested coverage of each family of 95% intervals served (report window), by horizon.' },
  ),
  categories: Type.Array(CategoryForecastSchema, { description: 'How each category is forecast, and why.' }),
  data_source: DataSourceSchema,
});

export const modelsRoute = {
  summary: 'Prediction models and their measured performance',
  description:
    'Each model (the members, the served combination and the pooled model of young categories) with its formula, where it is used, and its rolling-origin backtest of CRS cut-offs and invitations by horizon; the coverage of every family of 95% intervals; how each category is forecast.',
  response: { 200: ModelsResponse },
};
