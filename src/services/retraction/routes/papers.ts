// GET /api/paper/{record_id}/citations/ (rate-limit group "general").
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { retractionDb } from '../tables.ts';
import { notFound } from '../../../core/http/errors.ts';
import { paperCitations } from '../repository.ts';
import { paperCitationsSchema } from '../schemas/papers.ts';

export function paperRoutes(scope: ServiceApp, ctx: ServiceContext): void {
  const db = retractionDb(ctx.db);
  scope.get(
    '/api/paper/:record_id/citations/',
    { schema: paperCitationsSchema, config: { operation: 'paper citations', responseCache: true } },
    async (request) => {
      const result = await paperCitations(db, request.params.record_id.trim());
      if (!result) throw notFound(`paper ${request.params.record_id} not found`, 'PAPER_NOT_FOUND');
      return result;
    },
  );
}
