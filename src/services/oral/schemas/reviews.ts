// GET /api/reviews/ (and its old address /api/cochrane/) and GET /api/reviews/:review_id/: queries, items and
// the routes' documentation.
import { Type } from 'typebox';
import { limitParam, pageParam, textParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, envelope } from './common.ts';

export const ReviewQuery = Type.Object({
  q: Type.Optional(
    textParam(
      'Text searched in review id, title, description and abstract (not in a listed title the review does not confirm).',
      200,
      'gingivitis',
    ),
  ),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

const ReviewParams = Type.Object({
  review_id: Type.String({
    pattern: '^[A-Za-z0-9-]{1,40}$',
    description: 'Cochrane review number, e.g. CD000979.',
    examples: ['DEMO-001'],
  }),
});

const CertaintySummary = Type.Object({ high: Type.Integer(), moderate: Type.Integer(), low: Type.Integer(), very_low: Type.Integer() });

export const Review = Type.Object({
  id: Type.Integer(),
  review_id: Type.String(),
  version: Type.Integer({ description: 'Cochrane PUB number of the version the outcomes come from.' }),
  title: Type.String({
    description: 'The listed title where the review’s own outcomes confirm it (`title_verified`); otherwise the `description`.',
  }),
  listed_title: Nullable(
    Type.String({
      description: 'The title as the source’s titles file lists it (null when it lists none), kept even when it does not match.',
    }),
  ),
  title_verified: Type.Boolean({
    description:
      'True when more than half of the listed title’s content words, and of its subject (the part before "for"), occur in the ' +
      'review’s populations, interventions, comparisons and outcomes (after stemming and folding synonyms).',
  }),
  description: Type.String({
    description: 'Built from the review’s own summary-of-findings rows: "<population>: <interventions> vs <comparisons>".',
  }),
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

export const listReviewsSchema = {
  summary: 'Search systematic reviews',
  description:
    'Systematic reviews (Cochrane summary-of-findings tables), by review id. `q` matches review id, title, description and abstract. ' +
    '`certainty_summary` counts the outcomes by GRADE certainty. `/api/cochrane/` is the old address of this endpoint. ' +
    'The titles file names the wrong review for most ids: a listed title is the `title` only where the review’s own outcomes confirm it ' +
    '(`title_verified`); otherwise `title` is the `description` built from those outcomes and the listed title stays in `listed_title`.',
  querystring: ReviewQuery,
  // Reviews have no country; the key is kept so that every list envelope has the same filters_applied shape.
  response: { 200: envelope(Review, ['query', 'country']) },
};

export const getReviewSchema = {
  summary: 'One systematic review with its summary-of-findings outcomes',
  params: ReviewParams,
  response: { 200: Type.Object({ success: Type.Literal(true), data: ReviewDetail }) },
};
