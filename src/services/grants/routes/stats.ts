// GET /api/stats/: totals by province, fiscal year and program, as stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { STATS_DOCS, StatsBody } from '../schemas/stats.ts';
import type { GrantsRoutes } from './context.ts';

export const statsRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { aggregate }) => {
  app.get(
    '/stats/',
    { schema: { ...STATS_DOCS, response: { 200: StatsBody } }, config: { operation: 'statistics', responseCache: true } },
    async () => aggregate('stats'),
  );
};
