// Extraction of a stored article over HTTP (POST /api/krt/extract/, admin only), group "extraction".
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { extractSchema } from '../schemas/extraction.ts';
import { ADDRESSES, RATE_LIMITS, parseDoi } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

/** Enabled only with PDI_KRT_ADMIN_TOKEN: 404 without one on the server, 401 without one in the request, 403 when wrong. */
export function requireAdmin(request: FastifyRequest, configured: string | undefined): void {
  const token = configured?.trim();
  if (!token) throw notFound('extraction over HTTP is not enabled on this server (set PDI_KRT_ADMIN_TOKEN to enable it)', 'NOT_ENABLED');
  const auth = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!auth)
    throw new HttpError(401, 'an admin token is required: send Authorization: Bearer <token>', 'UNAUTHORIZED', {
      'www-authenticate': 'Bearer realm="krt"',
    });
  // Equal-length digests: the comparison takes the same time whatever the token sent.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  if (!timingSafeEqual(digest(auth[1]), digest(token))) throw new HttpError(403, 'the admin token is not valid', 'FORBIDDEN');
}

export const extractionRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'extraction', max: RATE_LIMITS.extraction }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/krt/extract/',
        { schema: extractSchema, config: { operation: 'extraction', errors: [401, 403, 409] } },
        async (request) => {
          requireAdmin(request, ctx.config.env.PDI_KRT_ADMIN_TOKEN);
          return answers.extract(parseDoi(request.body.doi), request.body.provider ?? 'all');
        },
      );
    }),
  );
};
