// GET /api/recommendations/: the query, the item and the route's documentation.
import { Type } from 'typebox';
import { limitParam, pageParam, textParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { CountryRef, DEFAULT_LIMIT, MAX_LIMIT, Reference, VocabularyRef, countryParam, envelope, vocabularyFilter } from './common.ts';

export const RecommendationQuery = Type.Object({
  q: Type.Optional(textParam('Text searched in title, text and keywords.', 200, 'fluoride')),
  country: Type.Optional(countryParam),
  topic: Type.Optional(vocabularyFilter('Topic')),
  strength: Type.Optional(vocabularyFilter('Strength')),
  evidence_quality: Type.Optional(vocabularyFilter('Evidence quality')),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

export const Recommendation = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  text: Type.String(),
  keywords: Type.Array(Type.String()),
  target_population: Nullable(Type.String()),
  clinical_context: Nullable(Type.String()),
  source_url: Nullable(Type.String()),
  page_number: Nullable(Type.Integer()),
  grade: Nullable(Type.String({ description: 'Grade as the source gives it (SIGN: A–D).' })),
  recommendation_number: Nullable(Type.String()),
  guideline: Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    organization: Type.String(),
    country: CountryRef,
    region: Nullable(Type.String({ description: 'UK nation or other region (England, Scotland, …).' })),
    publication_year: Nullable(Type.Integer()),
    url: Nullable(Type.String()),
    is_demo: Type.Boolean({ description: 'True for generated demo data.' }),
  }),
  topics: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() })),
  strength: Nullable(VocabularyRef),
  evidence_quality: Nullable(VocabularyRef),
  references: Type.Array(Reference),
  created_at: Type.String(),
});

const RECOMMENDATION_FILTERS = ['query', 'country', 'topic', 'strength', 'evidence_quality'] as const;

export const listRecommendationsSchema = {
  summary: 'Search and filter recommendations',
  description:
    'Recommendations of clinical guidelines, newest guideline first (publication year descending, then id). ' +
    '`q` matches title, text and keywords (case-insensitive substring). `topic`, `strength` and `evidence_quality` take the ids or slugs of /api/metadata/. ' +
    'A page past the last returns an empty `data` with the true totals.',
  querystring: RecommendationQuery,
  response: { 200: envelope(Recommendation, [...RECOMMENDATION_FILTERS]) },
};
