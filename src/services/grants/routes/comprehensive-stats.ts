// GET /api/comprehensive-stats/: detailed statistics, as stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { COMPREHENSIVE_STATS_DOCS, ComprehensiveBody } from '../schemas/stats.ts';
import type { GrantsRoutes } from './context.ts';

export const comprehensiveStatsRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { aggregate }) => {
  app.get(
    '/comprehensive-stats/',
    {
      schema: { ...COMPREHENSIVE_STATS_DOCS, response: { 200: ComprehensiveBody } },
      config: { operation: 'comprehensive statistics', responseCache: true },
    },
    async () => aggregate('comprehensive'),
  );
};
