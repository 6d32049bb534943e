// GET /api/search/: answered by C's search (search/grants-search.ts), which reads the query into filters, an order
// and a page (a 400 naming the parameter otherwise), counts and pages the matches in memory and reads the page's rows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GRANTS_LANGUAGES, requestLanguage } from '../language.ts';
import { SEARCH_DOCS, SearchBody, SearchQuery } from '../schemas/search.ts';
import type { GrantsRoutes } from './context.ts';

export const searchRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { search }) => {
  app.get(
    '/search/',
    {
      schema: { ...SEARCH_DOCS, querystring: SearchQuery, response: { 200: SearchBody } },
      config: { operation: 'search', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => search.answer(request.query, requestLanguage(request, request.query.lang)),
  );
};
