// GET /api/export/ and GET /api/export-search/ (rate-limit group "export"): streamed downloads.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import { clampLimit } from '../../../core/http/params.ts';
import { attachmentDisposition } from '../../../core/export/index.ts';
import { exportDownload } from '../answers.ts';
import type { Download } from '../answers.ts';
import { checkFilters, searchDownload } from '../paper-search.ts';
import { EXPORT_MAX_LIMIT, exportSchema } from '../schemas/export.ts';
import { exportSearchSchema } from '../schemas/search.ts';
import type { FastifyReply } from 'fastify';

function sendDownload(reply: FastifyReply, download: Download) {
  reply
    .header('content-type', download.contentType)
    .header('content-disposition', attachmentDisposition(download.filename))
    .header('cache-control', 'no-store');
  return reply.send(download.body as never); // a stream is piped as it is, not serialised by the response schema
}

export function exportRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  const { db } = ctx.state;
  scope.get('/api/export/', { schema: exportSchema, config: { operation: 'export' } }, async (request, reply) => {
    const download = await exportDownload(
      ctx.state,
      {
        format: request.query.format ?? 'json',
        limit: clampLimit(request.query.limit, EXPORT_MAX_LIMIT),
        nature: request.query.nature ?? 'all',
      },
      new Date(),
      await ctx.dataVersion.current(),
    );
    return sendDownload(reply, download);
  });
  scope.get('/api/export-search/', { schema: exportSearchSchema, config: { operation: 'export search' } }, async (request, reply) => {
    const { format = 'json', limit, ...raw } = request.query;
    return sendDownload(reply, await searchDownload(db, checkFilters(raw), format, clampLimit(limit, EXPORT_MAX_LIMIT)));
  });
}
