// GET /api/recommendations/: search and filter recommendations.
import type { Static } from 'typebox';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { cleanText } from '../../../core/http/params.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS, countryFilterLabel } from '../sources/index.ts';
import { listRecommendations } from '../repository.ts';
import type { Page, PageOf } from '../repository.ts';
import { Recommendation, listRecommendationsSchema } from '../schemas/index.ts';
import type { RecommendationQuery } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { heldListBytes, listConfig, pageOf, parseCountry, parseVocabulary } from './common.ts';

/** A search as the route reads its (validated) query: the page of held items, the page asked for and the echoed filters. */
export async function searchRecommendations(
  state: OralState,
  q: Static<typeof RecommendationQuery>,
): Promise<{ result: PageOf<Static<typeof Recommendation>>; page: Page; filters: Record<string, string> }> {
  const country = parseCountry(q.country);
  const topic = parseVocabulary(TOPICS, 'topic', q.topic);
  const strength = parseVocabulary(STRENGTHS, 'strength', q.strength);
  const quality = parseVocabulary(EVIDENCE_QUALITIES, 'evidence_quality', q.evidence_quality);
  const text = cleanText(q.q);
  const page = pageOf(q);
  const result = await listRecommendations(
    state,
    { q: text, country: country?.code, topicId: topic?.id, strengthId: strength?.id, evidenceQualityId: quality?.id },
    page,
  );
  const filters = {
    query: text ?? '',
    country: country ? countryFilterLabel(country) : '',
    topic: topic?.slug ?? '',
    strength: strength?.slug ?? '',
    evidence_quality: quality?.slug ?? '',
  };
  return { result, page, filters };
}

export function recommendationRoutes(app: ServiceApp, ctx: ServingContext<OralState>): void {
  const { state } = ctx;
  app.get(
    '/api/recommendations/',
    { schema: listRecommendationsSchema, config: listConfig('recommendation search') },
    async (request, reply) => {
      const { result, page, filters } = await searchRecommendations(state, request.query);
      // The held items' JSON, serialised once per data version, spliced into the envelope (the uncached path).
      return reply.send(heldListBytes(reply, Recommendation, result, page, filters) as never); // bytes sent as they are
    },
  );
}
