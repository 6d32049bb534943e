// Downloads of a key resources table (GET /export/{session_id}/{format}/), group "exports".
import type { FastifyReply } from 'fastify';
import { badRequest } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { attachmentDisposition } from '../../../core/export/index.ts';
import { EXPORT_FORMATS, exportSchema } from '../schemas/export.ts';
import type { ExportFormat } from '../schemas/export.ts';
import type { ExportFile } from '../answers.ts';
import { ADDRESSES, RATE_LIMITS } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

function parseFormat(raw: string): ExportFormat {
  const format = raw.trim().toLowerCase();
  const known = EXPORT_FORMATS.find((f) => f === format);
  if (!known) throw badRequest(`format must be one of: ${EXPORT_FORMATS.join(', ')} (got "${raw.slice(0, 40)}")`);
  return known;
}

/** A streamed file; the 200 schema documents the JSON file's content (a reply of any schema may send a stream). */
function sendFile(reply: FastifyReply, file: ExportFile) {
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', attachmentDisposition(file.fileName))
    .header('cache-control', 'no-store');
  return reply.send(file.body);
}

export const exportRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'exports', max: RATE_LIMITS.exports }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/export/:session_id/:format/',
        { schema: exportSchema, config: { operation: 'export', errors: [409] } },
        async (request, reply) => {
          const format = parseFormat(request.params.format);
          return sendFile(reply, await answers.exportFile(request.params.session_id.trim(), format));
        },
      );
    }),
  );
};
