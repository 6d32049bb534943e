// GET /api/draws/ and /api/draws/recent/.
import { Type } from 'typebox';
import { choiceParam, dateParam, withError } from '../../../core/http/params.ts';
import { DataSourceSchema, DrawSchema } from './common.ts';

export const DrawsQuery = Type.Object({
  category: Type.Optional(
    withError(
      Type.String({ pattern: '^[0-9]{1,15}$', description: 'Only draws of this category id.' }),
      'must be a category id (a positive whole number)',
    ),
  ),
  start_date: Type.Optional(dateParam('Only draws after this date (exclusive).', '2025-01-01')),
  end_date: Type.Optional(dateParam('Only draws before this date (exclusive).')),
  lang: Type.Optional(drawsLangParam()),
});

/** `lang`: the language of the round and category names (then Accept-Language; English by default). */
function drawsLangParam() {
  return choiceParam(
    ['en', 'fr', 'both'],
    "Language of the round and category names: `en`, `fr` (from IRCC's French feed; English where it has none) or `both` " +
      '(`draw_name_fr` and `category_name_fr` beside the English names). Without it, the Accept-Language header decides.',
    { example: 'fr' },
  );
}

const RecentDrawsQuery = Type.Object({ lang: Type.Optional(drawsLangParam()) });

export const DrawsResponse = Type.Object({
  success: Type.Boolean(),
  count: Type.Integer(),
  data: Type.Array(DrawSchema),
  data_source: DataSourceSchema,
});

export const drawsRoute = {
  summary: 'Draws',
  description: 'Every draw, newest first, optionally of one category and strictly between start_date and end_date.',
  querystring: DrawsQuery,
  response: { 200: DrawsResponse },
};

export const recentDrawsRoute = {
  summary: 'Draws of the last 30 days',
  description:
    'Draws dated from 30 days before the as-of date through the as-of date (PDI_DRAWS_AS_OF, else today in America/Toronto), newest first.',
  querystring: RecentDrawsQuery,
  response: { 200: DrawsResponse },
};
