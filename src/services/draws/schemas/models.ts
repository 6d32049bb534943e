// GET /api/models/.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { DataSourceSchema } from './common.ts';

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

export const modelsRoute = {
  summary: 'Prediction models and their measured performance',
  description:
    'Each candidate model, where it is used, and its rolling-origin backtest errors of CRS cut-offs pooled over the categories, by horizon.',
  response: { 200: ModelsResponse },
};
