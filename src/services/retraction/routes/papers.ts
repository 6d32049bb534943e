// GET /api/paper/{record_id}/citations/ and GET /api/papers/{record_id}/citing-works/ (rate-limit group "general").
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import { notFound } from '../../../core/http/errors.ts';
import { clampLimit } from '../../../core/http/params.ts';
import { paperCitations } from '../repository.ts';
import { CITING_MAX_LIMIT, citingWorks } from '../citing-works.ts';
import { citingWorksSchema, paperCitationsSchema } from '../schemas/papers.ts';

export function paperRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  const { db } = ctx.state;
  scope.get(
    '/api/paper/:record_id/citations/',
    { schema: paperCitationsSchema, config: { operation: 'paper citations', responseCache: true } },
    async (request) => {
      const result = await paperCitations(db, request.params.record_id.trim());
      if (!result) throw notFound(`paper ${request.params.record_id} not found`, 'PAPER_NOT_FOUND');
      return result;
    },
  );
  scope.get(
    '/api/papers/:record_id/citing-works/',
    { schema: citingWorksSchema, config: { operation: 'citing works', responseCache: true } },
    async (request) => {
      const { when = 'all', page, limit } = request.query;
      const result = await citingWorks(db, request.params.record_id.trim(), { when, page, limit: clampLimit(limit, CITING_MAX_LIMIT) });
      if (!result) throw notFound(`paper ${request.params.record_id} not found`, 'PAPER_NOT_FOUND');
      return result;
    },
  );
}
