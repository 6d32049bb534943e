// GET /api/comprehensive-stats/: detailed statistics, as stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { COMPREHENSIVE_STATS_DOCS, ComprehensiveBody } from '../schemas/stats.ts';
import { Type } from 'typebox';
import { comprehensiveIn } from '../aggregate-labels.ts';
import { GRANTS_LANGUAGES, langParam, requestLanguage } from '../language.ts';
import type { GrantsRoutes } from './context.ts';

export const comprehensiveStatsRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { aggregate }) => {
  app.get(
    '/comprehensive-stats/',
    {
      schema: {
        querystring: Type.Object({ lang: Type.Optional(langParam()) }),
        ...COMPREHENSIVE_STATS_DOCS,
        response: { 200: ComprehensiveBody },
      },
      config: { operation: 'comprehensive statistics', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => comprehensiveIn(await aggregate('comprehensive'), requestLanguage(request, request.query.lang)),
  );
};
