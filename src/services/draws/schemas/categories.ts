// GET /api/categories/, /api/categories/{id}/statistics/ and /api/categories/{id}/predictions/.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { DataSourceSchema, DrawSchema, ForecastBasisProperties, IdParams, isoDate, PredictionSchema, timestamp } from './common.ts';

const CategorySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  is_active: Type.Boolean({
    description:
      'True while the feed has the category (a category whose draws left the feed is inactive and not listed here); whether it still draws is `status` of /api/predict/ (`dormant`).',
  }),
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
  ...ForecastBasisProperties,
  data_source: DataSourceSchema,
});

export const categoriesRoute = {
  summary: 'Active categories',
  description: 'A bare JSON array of every active category (one with draws in the current feed).',
  response: { 200: CategoriesResponse },
};

export const categoryStatisticsRoute = {
  summary: 'Statistics of one category',
  description: "Scores, invitations and gaps between draw dates over all of the category's draws.",
  params: IdParams,
  response: { 200: CategoryStatisticsResponse },
};

export const categoryPredictionsRoute = {
  summary: 'All predictions of one category',
  params: IdParams,
  response: { 200: CategoryPredictionsResponse },
};
