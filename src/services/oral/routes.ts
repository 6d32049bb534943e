// Service A routes: the four endpoints of the specification, the review detail and metadata additions,
// and /api/cochrane/ as the old address of /api/reviews/.
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { badRequest, notFound } from '../../core/http/errors.ts';
import { clampLimit, cleanText } from '../../core/http/params.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import {
  CERTAINTIES,
  COUNTRIES,
  COUNTRY_CODES,
  EVIDENCE_QUALITIES,
  STRENGTHS,
  TOPICS,
  countryFilterLabel,
  findCountry,
} from './sources/index.ts';
import type { Country, Vocabulary, VocabularyEntry } from './sources/index.ts';
import { dataSources, getReview, listGuidelines, listRecommendations, listReviews } from './repository.ts';
import type { OralStats, Page, PageOf } from './repository.ts';
import * as S from './schemas.ts';

const STATS_CACHE_SECONDS = 1800;

function parseCountry(value: string | undefined): Country | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const country = findCountry(value);
  if (!country || country.code.toLowerCase() !== value.trim().toLowerCase()) {
    throw badRequest(`country must be one of ${COUNTRY_CODES.join(', ')} (any case), got "${value}"`);
  }
  return country;
}

function parseVocabulary(vocabulary: Vocabulary, name: string, value: string | undefined): VocabularyEntry | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const entry = vocabulary.resolve(value);
  if (!entry)
    throw badRequest(
      `${name} must be an id or slug listed by /api/metadata/ (${vocabulary.entries.map((e) => e.slug).join(', ')}), got "${value}"`,
    );
  return entry;
}

function envelope<T>(result: PageOf<T>, page: Page, filters: Record<string, string>) {
  const totalPages = Math.max(1, Math.ceil(result.total / page.limit));
  return {
    success: true as const,
    data: result.rows,
    pagination: {
      page: page.page,
      limit: page.limit,
      total_pages: totalPages,
      total_results: result.total,
      has_next: page.page < totalPages,
      has_previous: page.page > 1,
    },
    filters_applied: filters,
  };
}

export async function oralRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const db = ctx.db.kysely;
  const listConfig = (operation: string) => ({ operation, responseCache: true });

  app.get(
    '/api/recommendations/',
    {
      schema: {
        summary: 'Search and filter recommendations',
        description:
          'Recommendations of clinical guidelines, newest guideline first (publication year descending, then id). ' +
          '`q` matches title, text and keywords (case-insensitive substring). `topic`, `strength` and `evidence_quality` take the ids or slugs of /api/metadata/. ' +
          'A page past the last returns an empty `data` with the true totals.',
        querystring: S.RecommendationQuery,
        response: { 200: S.envelope(S.Recommendation, ['query', 'country', 'topic', 'strength', 'evidence_quality']) },
      },
      config: listConfig('recommendation search'),
    },
    async (request) => {
      const q = request.query;
      const country = parseCountry(q.country);
      const topic = parseVocabulary(TOPICS, 'topic', q.topic);
      const strength = parseVocabulary(STRENGTHS, 'strength', q.strength);
      const quality = parseVocabulary(EVIDENCE_QUALITIES, 'evidence_quality', q.evidence_quality);
      const text = cleanText(q.q);
      const page = { page: q.page, limit: clampLimit(q.limit, S.MAX_LIMIT) };
      const result = await listRecommendations(
        db,
        { q: text, country: country?.code, topicId: topic?.id, strengthId: strength?.id, evidenceQualityId: quality?.id },
        page,
      );
      return envelope(result, page, {
        query: text ?? '',
        country: country ? countryFilterLabel(country) : '',
        topic: topic?.slug ?? '',
        strength: strength?.slug ?? '',
        evidence_quality: quality?.slug ?? '',
      });
    },
  );

  app.get(
    '/api/guidelines/',
    {
      schema: {
        summary: 'Search and filter clinical practice guidelines',
        description:
          'Guidelines, newest first (publication year descending, then id). `q` matches title, description and organization name.',
        querystring: S.GuidelineQuery,
        response: { 200: S.envelope(S.Guideline, ['query', 'country']) },
      },
      config: listConfig('guideline search'),
    },
    async (request) => {
      const q = request.query;
      const country = parseCountry(q.country);
      const text = cleanText(q.q);
      const page = { page: q.page, limit: clampLimit(q.limit, S.MAX_LIMIT) };
      const result = await listGuidelines(db, { q: text, country: country?.code }, page);
      return envelope(result, page, { query: text ?? '', country: country ? countryFilterLabel(country) : '' });
    },
  );

  const reviewList = {
    schema: {
      summary: 'Search systematic reviews',
      description:
        'Systematic reviews (Cochrane summary-of-findings tables), by review id. `q` matches review id, title and abstract. ' +
        '`certainty_summary` counts the outcomes by GRADE certainty. `/api/cochrane/` is the old address of this endpoint.',
      querystring: S.ReviewQuery,
      response: { 200: S.envelope(S.Review, ['query', 'country']) },
    },
    config: listConfig('review search'),
  };
  const reviewHandler = async (request: { query: { q?: string; page: number; limit: number } }) => {
    const q = request.query;
    const text = cleanText(q.q);
    const page = { page: q.page, limit: clampLimit(q.limit, S.MAX_LIMIT) };
    // Reviews have no country; the key is kept so that every list envelope has the same filters_applied shape.
    return envelope(await listReviews(db, { q: text }, page), page, { query: text ?? '', country: '' });
  };
  app.get('/api/reviews/', reviewList, reviewHandler);
  app.get('/api/cochrane/', { ...reviewList, schema: { ...reviewList.schema, hide: true } }, reviewHandler);

  app.get(
    '/api/reviews/:review_id/',
    {
      schema: {
        summary: 'One systematic review with its summary-of-findings outcomes',
        params: S.ReviewParams,
        response: { 200: S.Type.Object({ success: S.Type.Literal(true), data: S.ReviewDetail }) },
      },
      config: { operation: 'review lookup', responseCache: true },
    },
    async (request) => {
      const review = await getReview(db, request.params.review_id);
      if (!review) throw notFound(`review ${request.params.review_id} not found`);
      return { success: true as const, data: review };
    },
  );

  app.get(
    '/api/stats/',
    {
      schema: {
        summary: 'Database statistics',
        description:
          'Recommendation counts by country, topic, strength and evidence quality; guideline counts by country; review and outcome counts by certainty. Computed when data is imported.',
        response: { 200: S.StatsBody },
      },
      config: { operation: 'statistics', cacheSeconds: STATS_CACHE_SECONDS, responseCache: true },
    },
    async () => {
      const stored = await getAggregate<OralStats>(db, 'oral', 'stats');
      if (!stored) throw notFound('no data imported yet');
      return { success: true as const, data: stored.value };
    },
  );

  app.get(
    '/api/metadata/',
    {
      schema: {
        summary: 'Vocabularies and data sources',
        description:
          'The ids and slugs that the topic, strength and evidence_quality filters accept, the countries, and the imported datasets (is_demo marks generated data).',
        response: { 200: S.MetadataBody },
      },
      config: { operation: 'metadata', cacheSeconds: STATS_CACHE_SECONDS, responseCache: true },
    },
    async () => ({
      success: true as const,
      data: {
        countries: COUNTRIES.map((c) => ({ code: c.code, name: c.name, flag_emoji: c.flag_emoji })),
        topics: [...TOPICS.entries],
        strengths: [...STRENGTHS.entries],
        evidence_qualities: [...EVIDENCE_QUALITIES.entries],
        certainties: [...CERTAINTIES],
        data_sources: await dataSources(db),
      },
    }),
  );
}
