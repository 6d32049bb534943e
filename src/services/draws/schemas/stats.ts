// GET /api/stats/.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { DataSourceSchema, DrawSchema, ForecastBasisProperties, PredictionSchema, timestamp } from './common.ts';

const NextPredictionSchema = Type.Object({
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
  ...ForecastBasisProperties,
  data_source: DataSourceSchema,
});

export const statsRoute = {
  summary: 'Overall statistics',
  description: 'Totals over every draw, the last ten draws and the next predicted draw of each category.',
  response: { 200: StatsResponse },
};
