// Request and response schemas of Service A (they validate, serialise and document the API).
import { Type } from 'typebox';
export { Type };
import { limitParam, pageParam, textParam } from '../../core/http/params.ts';
import { Nullable } from '../../core/http/schema.ts';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

const country = Type.String({
  description: 'Country code: UK, US, CA, AU or NZ (any case). UK includes its nations (England, Scotland, …).',
});
const vocabularyFilter = (what: string) => Type.String({ maxLength: 100, description: `${what} id or slug, as listed by /api/metadata/.` });

export const RecommendationQuery = Type.Object({
  q: Type.Optional(textParam('Text searched in title, text and keywords.')),
  country: Type.Optional(country),
  topic: Type.Optional(vocabularyFilter('Topic')),
  strength: Type.Optional(vocabularyFilter('Strength')),
  evidence_quality: Type.Optional(vocabularyFilter('Evidence quality')),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

export const GuidelineQuery = Type.Object({
  q: Type.Optional(textParam('Text searched in title, description and organization name.')),
  country: Type.Optional(country),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

export const ReviewQuery = Type.Object({
  q: Type.Optional(textParam('Text searched in review id, title and abstract.')),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

export const ReviewParams = Type.Object({
  review_id: Type.String({ pattern: '^[A-Za-z0-9-]{1,40}$', description: 'Cochrane review number, e.g. CD000979.' }),
});

const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total_pages: Type.Integer({ description: 'At least 1.' }),
  total_results: Type.Integer(),
  has_next: Type.Boolean(),
  has_previous: Type.Boolean(),
});

const CountryRef = Type.Object({ code: Type.String(), name: Type.String(), flag_emoji: Type.String(), display_name: Type.String() });
const VocabularyRef = Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String() });
const Reference = Type.Object({
  text: Type.String(),
  url: Nullable(Type.String()),
  doi: Nullable(Type.String()),
  pmid: Nullable(Type.String()),
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

const CertaintySummary = Type.Object({ high: Type.Integer(), moderate: Type.Integer(), low: Type.Integer(), very_low: Type.Integer() });

export const Review = Type.Object({
  id: Type.Integer(),
  review_id: Type.String(),
  version: Type.Integer({ description: 'Cochrane PUB number of the version the outcomes come from.' }),
  title: Type.String(),
  url: Nullable(Type.String()),
  doi: Nullable(Type.String()),
  publication_date: Nullable(Type.String()),
  authors: Nullable(Type.String()),
  abstract: Nullable(Type.String()),
  is_demo: Type.Boolean(),
  outcome_count: Type.Integer(),
  certainty_summary: CertaintySummary,
});

const Outcome = Type.Object({
  population: Nullable(Type.String()),
  intervention: Nullable(Type.String()),
  comparison: Nullable(Type.String()),
  outcome: Nullable(Type.String()),
  measure: Nullable(Type.String()),
  effect: Nullable(Type.Number()),
  ci_lower: Nullable(Type.Number()),
  ci_upper: Nullable(Type.Number()),
  significant: Nullable(Type.Boolean()),
  participants: Nullable(Type.Integer()),
  studies: Nullable(Type.Integer()),
  certainty: Nullable(Type.String({ description: 'GRADE certainty, normalised: high, moderate, low, very_low.' })),
  certainty_raw: Nullable(Type.String({ description: 'The label as the source wrote it.' })),
  reasons: Nullable(Type.String()),
  downgrades: Type.Object({
    risk_of_bias: Nullable(Type.Boolean()),
    imprecision: Nullable(Type.Boolean()),
    inconsistency: Nullable(Type.Boolean()),
    indirectness: Nullable(Type.Boolean()),
    publication_bias: Nullable(Type.Boolean()),
    incoherence: Type.Optional(Nullable(Type.Boolean())),
  }),
});

export const ReviewDetail = Type.Object({ ...Review.properties, outcomes: Type.Array(Outcome) });

export function envelope<T extends Parameters<typeof Type.Array>[0]>(item: T, filters: string[]) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    pagination: Pagination,
    filters_applied: Type.Object(Object.fromEntries(filters.map((f) => [f, Type.String()]))),
  });
}

export const ErrorBody = Type.Object({ success: Type.Literal(false), error: Type.String() });

const Counted = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String(), count: Type.Integer() });
const CountryCount = Type.Object({ code: Type.String(), name: Type.String(), flag_emoji: Type.String(), count: Type.Integer() });

export const StatsBody = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    recommendations: Type.Object({
      total: Type.Integer(),
      by_country: Type.Array(CountryCount),
      by_topic: Type.Array(Counted, { description: 'Every topic, by count descending then name.' }),
      by_strength: Type.Array(Counted),
      by_evidence_quality: Type.Array(Counted),
      without_strength: Type.Integer(),
      without_evidence_quality: Type.Integer(),
    }),
    guidelines: Type.Object({ total: Type.Integer(), by_country: Type.Array(CountryCount) }),
    reviews: Type.Object({
      total: Type.Integer(),
      total_outcomes: Type.Integer(),
      by_certainty: Type.Array(Type.Object({ certainty: Type.String(), count: Type.Integer() })),
    }),
    generated_at: Type.String(),
    data_version: Type.String(),
  }),
});

const VocabularyEntry = Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String(), description: Type.String() });

export const MetadataBody = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    countries: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), flag_emoji: Type.String() })),
    topics: Type.Array(VocabularyEntry),
    strengths: Type.Array(VocabularyEntry),
    evidence_qualities: Type.Array(VocabularyEntry),
    certainties: Type.Array(Type.String()),
    data_sources: Type.Array(
      Type.Object({
        dataset: Type.String(),
        source: Nullable(Type.String()),
        is_demo: Type.Boolean(),
        imported_at: Type.String(),
        data_version: Type.String(),
      }),
      { description: 'Imported datasets; is_demo marks generated data.' },
    ),
  }),
});
