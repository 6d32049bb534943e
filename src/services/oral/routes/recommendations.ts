// GET /api/recommendations/: search and filter recommendations.
import type { ServiceApp } from '../../../core/service.ts';
import { cleanText } from '../../../core/http/params.ts';
import type { Kysely } from 'kysely';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS, countryFilterLabel } from '../sources/index.ts';
import { listRecommendations } from '../repository.ts';
import { listRecommendationsSchema } from '../schemas/index.ts';
import type { OralDatabase } from '../tables.ts';
import { listConfig, listEnvelope, pageOf, parseCountry, parseVocabulary } from './common.ts';

export function recommendationRoutes(app: ServiceApp, db: Kysely<OralDatabase>): void {
  app.get('/api/recommendations/', { schema: listRecommendationsSchema, config: listConfig('recommendation search') }, async (request) => {
    const q = request.query;
    const country = parseCountry(q.country);
    const topic = parseVocabulary(TOPICS, 'topic', q.topic);
    const strength = parseVocabulary(STRENGTHS, 'strength', q.strength);
    const quality = parseVocabulary(EVIDENCE_QUALITIES, 'evidence_quality', q.evidence_quality);
    const text = cleanText(q.q);
    const page = pageOf(q);
    const result = await listRecommendations(
      db,
      { q: text, country: country?.code, topicId: topic?.id, strengthId: strength?.id, evidenceQualityId: quality?.id },
      page,
    );
    return listEnvelope(result, page, {
      query: text ?? '',
      country: country ? countryFilterLabel(country) : '',
      topic: topic?.slug ?? '',
      strength: strength?.slug ?? '',
      evidence_quality: quality?.slug ?? '',
    });
  });
}
