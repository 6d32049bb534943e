// GET /api/post-retraction-analytics/, /api/analytics-data/ and /api/analytics-realtime/ (rate-limit group
// "analytics", shared with the democracy endpoints).
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import { badRequest } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { EXPORT_CONTENT_TYPES } from '../../../core/export/index.ts';
import { analyticsDataCsv, analyticsDataReport, postRetractionReport, realtimeReport } from '../answers.ts';
import { REALTIME_CACHE_SECONDS, analyticsDataSchema, postRetractionSchema, realtimeSchema } from '../schemas/analytics.ts';

export function analyticsRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  const { db } = ctx.state;

  scope.get(
    '/api/post-retraction-analytics/',
    { schema: postRetractionSchema, config: { operation: 'post-retraction analytics', responseCache: true } },
    async (request) =>
      postRetractionReport(ctx.state, {
        timeFilter: request.query.time_filter ?? 'all',
        nature: request.query.nature ?? 'retraction',
        journal: cleanText(request.query.journal),
        subject: cleanText(request.query.subject),
      }),
  );

  scope.get(
    '/api/analytics-data/',
    { schema: analyticsDataSchema, config: { operation: 'analytics data', responseCache: true } },
    async (request, reply) => {
      const { type, chart } = request.query;
      if (type && chart && type !== chart)
        throw badRequest(`type and chart (its old name) disagree: "${type}" and "${chart}"; send one of them`);
      const which = type ?? chart ?? 'overview';
      const nature = request.query.nature ?? 'retraction';
      if (request.query.format !== 'csv') return analyticsDataReport(db, which, nature);
      const csv = await analyticsDataCsv(db, which, nature);
      reply
        .header('content-type', EXPORT_CONTENT_TYPES.csv)
        .header('content-disposition', `inline; filename="retraction-analytics-${which}.csv"`);
      return reply.send(csv as never); // bytes are sent as they are, not serialised
    },
  );

  scope.get(
    '/api/analytics-realtime/',
    { schema: realtimeSchema, config: { operation: 'realtime analytics', cacheSeconds: REALTIME_CACHE_SECONDS } },
    async () => realtimeReport(db),
  );
}
