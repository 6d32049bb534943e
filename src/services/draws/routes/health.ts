// GET /api/health/: the spec's shape; 503 with status "unhealthy" (and the service's error fields) while the
// database is unreachable. Never cached.
import type { FastifyReply } from 'fastify';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { countRows } from '../repository.ts';
import { API_VERSION } from '../schemas/common.ts';
import { healthRoute } from '../schemas/health.ts';
import type { DrawsState } from '../state.ts';

const ENDPOINTS = {
  predictions: '/api/predict/',
  categories: '/api/categories/',
  draws: '/api/draws/',
  statistics: '/api/stats/',
  documentation: '/docs',
};

export async function healthRoutes(app: ServiceApp, ctx: ServingContext<DrawsState>): Promise<void> {
  const { db } = ctx.state;
  app.get(
    '/api/health/',
    { schema: healthRoute, config: { operation: 'health', cacheSeconds: 0 } },
    async (request, reply: FastifyReply) => {
      // reply is the untyped FastifyReply: the 503 body is not in the 200 schema, and is sent as it is.
      const timestamp = new Date().toISOString();
      try {
        await ctx.db.ping();
        const counts = await countRows(db);
        return {
          status: 'healthy',
          timestamp,
          version: API_VERSION,
          database: {
            connected: true,
            draws_count: counts.draws,
            categories_count: counts.categories,
            predictions_count: counts.predictions,
          },
          endpoints: ENDPOINTS,
        };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        reply.code(503).header('cache-control', 'no-store');
        // The health shape, and the service's error fields, so that clients checking `success` see the failure.
        return reply.send({
          success: false,
          error: 'database unreachable',
          data: [],
          status: 'unhealthy',
          timestamp,
          version: API_VERSION,
          database: { connected: false, draws_count: null, categories_count: null, predictions_count: null },
          endpoints: ENDPOINTS,
        });
      }
    },
  );
}
