// GET /api/guidelines/: the query, the item and the route's documentation.
import { Type } from 'typebox';
import { limitParam, pageParam, textParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { CountryRef, DEFAULT_LIMIT, MAX_LIMIT, countryParam, envelope } from './common.ts';

const GuidelineQuery = Type.Object({
  q: Type.Optional(textParam('Text searched in title, description and organization name.', 200, 'caries')),
  country: Type.Optional(countryParam),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

export const Guideline = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  organization: Type.Object({ id: Type.Integer(), name: Type.String(), website: Nullable(Type.String()), country: CountryRef }),
  region: Nullable(Type.String()),
  publication_year: Nullable(Type.Integer()),
  url: Nullable(Type.String()),
  is_active: Type.Boolean(),
  is_demo: Type.Boolean(),
  recommendation_count: Type.Integer(),
  created_at: Type.String(),
});

export const listGuidelinesSchema = {
  summary: 'Search and filter clinical practice guidelines',
  description: 'Guidelines, newest first (publication year descending, then id). `q` matches title, description and organization name.',
  querystring: GuidelineQuery,
  response: { 200: envelope(Guideline, ['query', 'country']) },
};
