// GET /api/stats/: totals by province, fiscal year and program, as stored at import (the programs' names in the
// requested language).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { statsIn } from '../aggregate-labels.ts';
import { GRANTS_LANGUAGES, langParam, requestLanguage } from '../language.ts';
import { STATS_DOCS, StatsBody } from '../schemas/stats.ts';
import type { GrantsRoutes } from './context.ts';

export const statsRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { aggregate }) => {
  app.get(
    '/stats/',
    {
      schema: { querystring: Type.Object({ lang: Type.Optional(langParam()) }), ...STATS_DOCS, response: { 200: StatsBody } },
      config: { operation: 'statistics', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => statsIn(await aggregate('stats'), requestLanguage(request, request.query.lang)),
  );
};
