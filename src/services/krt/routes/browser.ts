// The browser extension's routes (POST /api/browser/suggest-rrid/, /api/browser/validate-rrid/, and the GET
// /api/suggest-rrid/ the shipped extension calls), group "browser", with CORS for any origin.
import type { FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { ServiceApp } from '../../../core/service.ts';
import { notFound } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { browserSuggestQuerySchema, browserSuggestSchema, browserValidateSchema } from '../schemas/browser.ts';
import { ADDRESSES, RATE_LIMITS, required, suggestionQuery } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

/** Paths (after the base or at the host root) that answer CORS preflights. */
const CORS_PATHS = ['/api/browser/suggest-rrid', '/api/browser/validate-rrid', '/api/suggest-rrid'];
const CORS_OPTIONS = { origin: '*', methods: 'GET, POST, OPTIONS', allowedHeaders: 'Content-Type', maxAge: 86400, strictPreflight: false };

export const browserRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  // @fastify/cors lives in this encapsulated scope only; it answers preflights through an OPTIONS catch-all route,
  // which this hook limits to the browser paths (any other OPTIONS is the JSON 404 of an unknown route).
  await app.register(async (corsScope) => {
    const corsPaths = new Set(CORS_PATHS.flatMap((p) => [p, `/api${p}`]));
    corsScope.addHook('onRequest', async (request: FastifyRequest) => {
      if (request.method !== 'OPTIONS' || !request.routeOptions.url?.endsWith('*')) return;
      const pathOnly = request.url
        .split('?')[0]
        .replace(/\/+$/, '')
        .replace(/\/{2,}/g, '/');
      if (!corsPaths.has(pathOnly)) throw notFound(`no such endpoint: OPTIONS ${request.url.split('?')[0]}`);
    });
    await corsScope.register(cors, CORS_OPTIONS);
    // The scope's type provider is the plain one after registering a plugin; the service's app type is what it is.
    await rateLimitedGroup(corsScope as unknown as ServiceApp, ctx, { name: 'browser', max: RATE_LIMITS.browser }, (group) =>
      withAliases(group, ADDRESSES, (scope) => {
        scope.post(
          '/api/browser/suggest-rrid/',
          { schema: browserSuggestSchema, config: { operation: 'RRID suggestion', cors: true } },
          async (request) => answers.browserSuggest(suggestionQuery(request.body)),
        );
        scope.post(
          '/api/browser/validate-rrid/',
          { schema: browserValidateSchema, config: { operation: 'RRID validation', cors: true } },
          async (request) => ({
            success: true as const,
            status: 'success' as const,
            validation: await answers.validate(required(request.body.rrid, 'rrid')),
          }),
        );
        scope.get(
          '/api/suggest-rrid/',
          { schema: browserSuggestQuerySchema, config: { operation: 'RRID suggestion', cors: true, cacheSeconds: 0 } },
          async (request) => answers.browserSuggest(suggestionQuery(request.query)),
        );
      }),
    );
  });
};
