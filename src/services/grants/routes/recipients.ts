// GET /api/recipients/: recipients by value, type and province, as stored at import.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RECIPIENTS_DOCS, RecipientsBody } from '../schemas/recipients.ts';
import type { GrantsRoutes } from './context.ts';

export const recipientsRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { aggregate }) => {
  app.get(
    '/recipients/',
    {
      schema: { ...RECIPIENTS_DOCS, response: { 200: RecipientsBody } },
      config: { operation: 'recipient statistics', responseCache: true },
    },
    async () => aggregate('recipients'),
  );
};
