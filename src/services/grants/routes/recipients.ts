// GET /api/recipients/: recipients by value, type and province, as stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RECIPIENTS_DOCS, RecipientsBody } from '../schemas/recipients.ts';
import { Type } from 'typebox';
import { recipientsIn } from '../aggregate-labels.ts';
import { GRANTS_LANGUAGES, langParam, requestLanguage } from '../language.ts';
import type { GrantsRoutes } from './context.ts';

export const recipientsRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { aggregate }) => {
  app.get(
    '/recipients/',
    {
      schema: {
        querystring: Type.Object({ lang: Type.Optional(langParam()) }),
        ...RECIPIENTS_DOCS,
        response: { 200: RecipientsBody },
      },
      config: { operation: 'recipient statistics', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => recipientsIn(await aggregate('recipients'), requestLanguage(request, request.query.lang)),
  );
};
