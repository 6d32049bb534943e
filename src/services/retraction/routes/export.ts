// GET /api/export/ (rate-limit group "export"): a streamed download.
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { retractionDb } from '../tables.ts';
import { clampLimit } from '../../../core/http/params.ts';
import { attachmentDisposition } from '../../../core/export/index.ts';
import { exportDownload } from '../reports.ts';
import { EXPORT_MAX_LIMIT, exportSchema } from '../schemas/export.ts';

export function exportRoutes(scope: ServiceApp, ctx: ServiceContext): void {
  const db = retractionDb(ctx.db);
  scope.get('/api/export/', { schema: exportSchema, config: { operation: 'export' } }, async (request, reply) => {
    const download = await exportDownload(
      db,
      {
        format: request.query.format ?? 'json',
        limit: clampLimit(request.query.limit, EXPORT_MAX_LIMIT),
        nature: request.query.nature ?? 'all',
      },
      new Date(),
      await ctx.dataVersion.current(),
    );
    reply
      .header('content-type', download.contentType)
      .header('content-disposition', attachmentDisposition(download.filename))
      .header('cache-control', 'no-store');
    return reply.send(download.body as never); // a stream is piped as it is, not serialised by the response schema
  });
}
