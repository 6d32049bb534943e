// GET /api/search/: one search over recommendations, guidelines and systematic reviews, ranked, with facets.
import { Type } from 'typebox';
import { choiceParam, limitParam, pageParam, textParam, withError } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../sources/index.ts';
import type { Vocabulary } from '../sources/index.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, VocabularyRef, countryParam, envelope } from './common.ts';

/**
 * A vocabulary filter whose document lists the values it takes: each entry's id or slug, any case. (Slugs are
 * [a-z0-9-]; a hyphen is written bare, as a `u`-flag pattern does not allow it escaped outside a class.)
 */
const vocabularyChoice = (vocabulary: Vocabulary, what: string) => {
  const slugs = vocabulary.entries.map((e) => e.slug);
  const spell = (slug: string) => [...slug].map((c) => (/[a-z]/.test(c) ? `[${c.toUpperCase()}${c}]` : c)).join('');
  const choices = [...slugs.map(spell), ...vocabulary.entries.map((e) => String(e.id))].join('|');
  return withError(
    Type.String({ pattern: `^\\s*(?:${choices})?\\s*$`, maxLength: 100, description: `${what} id or slug, as listed by /api/metadata/.` }),
    `must be an id or slug listed by /api/metadata/ (${slugs.join(', ')})`,
  );
};

export const DOCUMENT_KINDS = ['recommendation', 'guideline', 'review'] as const;
export const CERTAINTIES = ['high', 'moderate', 'low', 'very_low'] as const;
/** Which rule placed a result (the ranking's first key, best first). */
export const MATCH_KINDS = ['phrase_in_title', 'phrase_in_text', 'words_in_title', 'words_in_text', 'all'] as const;

export const EvidenceSearchQuery = Type.Object({
  q: Type.Optional(
    textParam(
      'Words searched in every kind of document (case and accents ignored; each word may be part of a longer one).',
      200,
      'fluoride varnish',
    ),
  ),
  kind: Type.Optional(choiceParam(DOCUMENT_KINDS, 'Only documents of this kind.', { blank: true })),
  country: Type.Optional(countryParam),
  topic: Type.Optional(vocabularyChoice(TOPICS, 'Topic')),
  year: Type.Optional(
    Type.Integer({ minimum: 1900, maximum: 2100, description: 'Publication year (a review: of its summary of findings).' }),
  ),
  strength: Type.Optional(vocabularyChoice(STRENGTHS, 'Strength of a recommendation')),
  evidence_quality: Type.Optional(vocabularyChoice(EVIDENCE_QUALITIES, 'Evidence quality of a recommendation')),
  certainty: Type.Optional(choiceParam(CERTAINTIES, 'Reviews with at least one outcome of this GRADE certainty.', { blank: true })),
  page: pageParam(),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
});

export const EvidenceHit = Type.Object({
  kind: Type.Union([Type.Literal('recommendation'), Type.Literal('guideline'), Type.Literal('review')], {
    description: 'recommendation, guideline or review.',
  }),
  id: Type.Integer({ description: "The document's id among its kind (a review: its row id; `review_id` names it)." }),
  review_id: Nullable(Type.String({ description: 'Reviews: the Cochrane id (CD000979).' })),
  title: Type.String(),
  excerpt: Type.String({ description: 'The start of the text, or the passage around the first match of `q` outside the title.' }),
  path: Type.String({ description: "The document's page on this service." }),
  match: Type.Union(
    [
      Type.Literal('phrase_in_title'),
      Type.Literal('phrase_in_text'),
      Type.Literal('words_in_title'),
      Type.Literal('words_in_text'),
      Type.Literal('all'),
    ],
    {
      description:
        'Why it ranks where it does: the phrase in the title, the phrase in the text, every word in the title, every word anywhere; `all` without `q`.',
    },
  ),
  year: Nullable(Type.Integer()),
  country: Nullable(Type.String({ description: 'Country code (guidelines and recommendations).' })),
  guideline: Nullable(Type.Object({ id: Type.Integer(), title: Type.String() }, { description: "A recommendation's guideline." })),
  topics: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() })),
  strength: Nullable(VocabularyRef),
  evidence_quality: Nullable(VocabularyRef),
  certainty_summary: Nullable(
    Type.Object(
      { high: Type.Integer(), moderate: Type.Integer(), low: Type.Integer(), very_low: Type.Integer() },
      { description: "A review's outcomes by GRADE certainty." },
    ),
  ),
  is_demo: Type.Boolean(),
});

const FacetValue = Type.Object({ value: Type.String(), label: Type.String(), count: Type.Integer() });
export const FACETS = ['kind', 'country', 'topic', 'year', 'strength', 'evidence_quality', 'certainty'] as const;

const SEARCH_FILTERS = ['query', ...FACETS] as const;

export const searchEvidenceSchema = {
  summary: 'Search recommendations, guidelines and reviews at once',
  description:
    'One ranked search over the three kinds of document. Ranking, best first: the whole of `q` as a phrase in the title; the phrase ' +
    'in the text; every word of `q` in the title; every word anywhere (title and text together); within each, a match with the ' +
    'accents as written before one found only by folding them, then the newest year (unknown last), then recommendations, ' +
    'guidelines, reviews, then id. Documents missing a word are not found. Without `q` every document matches (order: year, kind, id). ' +
    "The text searched: a recommendation's text and keywords, a guideline's description and organization, a review's id, " +
    'description and abstract. `facets` counts, for each filter, the documents matching `q` and every other filter, by value ' +
    '(values with no document omitted unless chosen): choosing a value gives its count as `total_results`. A filter that a kind ' +
    'does not have (strength on a review) leaves out the documents of that kind.',
  querystring: EvidenceSearchQuery,
  response: {
    200: Type.Object({
      ...envelope(EvidenceHit, [...SEARCH_FILTERS]).properties,
      facets: Type.Object(Object.fromEntries(FACETS.map((f) => [f, Type.Array(FacetValue)]))),
    }),
  },
};
