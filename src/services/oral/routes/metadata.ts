// GET /api/metadata/: the vocabularies the filters accept, the countries and the imported datasets.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { CERTAINTIES, COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../sources/index.ts';
import { dataSources } from '../repository.ts';
import { getMetadataSchema } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { STATS_CACHE_SECONDS } from './common.ts';

export function metadataRoutes(app: ServiceApp, ctx: ServingContext<OralState>): void {
  const { db } = ctx.state;
  app.get(
    '/api/metadata/',
    { schema: getMetadataSchema, config: { operation: 'metadata', cacheSeconds: STATS_CACHE_SECONDS, responseCache: true } },
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
