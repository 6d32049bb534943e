// GET /api/predict/ and /api/predict/{category_id}/.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { CategoryIdParams, DataSourceSchema, ForecastBasisProperties, isoDate, PredictionSchema, timestamp } from './common.ts';

const PredictEntrySchema = Type.Object({
  category_id: Type.Integer(),
  category_name: Type.String(),
  category_description: Nullable(Type.String()),
  status: Type.String({
    description:
      'predicted (five or more draws), young (1–4 draws: the pooled model, wider intervals), dormant (no predictions; see dormant_since and if_resumed) or insufficient_history.',
  }),
  status_reason: Type.String(),
  last_draw_date: Nullable(isoDate('Latest draw of the category on or before the as-of date')),
  dormant_since: Nullable(isoDate('First day the category counted as dormant (null unless dormant)')),
  if_resumed: Nullable(
    Type.Object(
      {
        pause_gaps: Type.Number({
          description: "Typical gaps the silence spans so far: days since the last draw ÷ the median of the category's last gaps.",
        }),
        crs: Type.Object({
          point: Type.Number({ description: 'The last cut-off' }),
          min: Type.Number(),
          max: Type.Number(),
          margin_of_error: Type.Number({ description: 'Half-width before the bounds' }),
          confidence_level: Type.Number({ description: 'Always 95.' }),
        }),
        invitations: Type.Object({
          point: Type.Integer({ description: 'The last size' }),
          min: Type.Integer(),
          max: Type.Integer(),
          confidence_level: Type.Number({ description: 'Always 95.' }),
        }),
      },
      {
        description:
          "A dormant category's next draw, should it come (its date is not forecast): its last values, with a next draw's 95% interval widened × √pause_gaps (a random walk over the pause), within the cut-offs the category has drawn ± a next draw's half-width and its sizes ×÷ e^0.35. Null unless dormant with two draws or more.",
      },
    ),
  ),
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
  ...ForecastBasisProperties,
  data: Type.Array(PredictEntrySchema),
  data_source: DataSourceSchema,
});

export const predictAllRoute = {
  summary: 'Next draws of every predicted category',
  description:
    'Five predictions per active, non-dormant category with enough history (see /api/models/ for the method), with its last five draws.',
  response: { 200: PredictResponse },
};

export const predictOneRoute = {
  summary: 'Next draws of one category',
  description:
    'The same envelope as /api/predict/ with one entry; its predictions are empty when the category is dormant or has too little history.',
  params: CategoryIdParams,
  response: { 200: PredictResponse },
};
