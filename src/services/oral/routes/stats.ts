// GET /api/stats/: the statistics computed at import.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { notFound } from '../../../core/http/errors.ts';
import { readStats } from '../aggregates.ts';
import { getStatsSchema } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { STATS_CACHE_SECONDS } from './common.ts';

export function statsRoutes(app: ServiceApp, ctx: ServingContext<OralState>): void {
  const { db } = ctx.state;
  app.get(
    '/api/stats/',
    { schema: getStatsSchema, config: { operation: 'statistics', cacheSeconds: STATS_CACHE_SECONDS, responseCache: true } },
    async () => {
      const stored = await readStats(db);
      if (!stored) throw notFound('no data imported yet');
      return { success: true as const, data: stored.value };
    },
  );
}
