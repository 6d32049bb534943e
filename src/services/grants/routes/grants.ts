// GET /api/grants/{id}/: one agreement, as in search results.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../../core/http/errors.ts';
import { getGrant } from '../repository.ts';
import { GRANTS_LANGUAGES, requestLanguage } from '../language.ts';
import { GRANT_DOCS, GrantParams, GrantQuery, GrantRecord } from '../schemas/grant.ts';
import type { GrantsRoutes } from './context.ts';

export const grantRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { db }) => {
  app.get(
    '/grants/:id/',
    {
      schema: { ...GRANT_DOCS, params: GrantParams, querystring: GrantQuery, response: { 200: GrantRecord } },
      config: { operation: 'grant lookup', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => {
      const grant = await getGrant(db, Number(request.params.id), requestLanguage(request, request.query.lang));
      if (!grant) throw notFound('grant not found');
      return grant;
    },
  );
};
