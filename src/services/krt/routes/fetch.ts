// Fetching a paper by DOI over HTTP (POST /api/krt/fetch/, admin only, as the extraction route), group "fetch":
// its JATS from bioRxiv/medRxiv or Europe PMC into the fetched-papers store, imported and extracted (sync.ts).
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { fetchSchema } from '../schemas/fetch.ts';
import { fetchForWaitingClient } from '../sync.ts';
import { ADDRESSES, RATE_LIMITS, parseDoi } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';
import { requireAdmin } from './extraction.ts';

export const fetchRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  // Each request may cost several upstream requests and an extraction: the extraction group's limit.
  await rateLimitedGroup(app, ctx, { name: 'fetch', max: RATE_LIMITS.extraction }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post(
        '/api/krt/fetch/',
        { schema: fetchSchema, config: { operation: 'fetch', errors: [401, 403, 409, 502] } },
        async (request) => {
          requireAdmin(request, ctx.config.env.PDI_KRT_ADMIN_TOKEN);
          const doi = parseDoi(request.body.doi);
          const run = await fetchForWaitingClient(ctx, doi);
          const failure = run.errors[0];
          if (failure) {
            if (failure.status === 404) throw notFound(failure.error);
            throw new HttpError(failure.status, failure.error, failure.status === 502 ? 'UPSTREAM_ERROR' : 'INVALID_PARAMETER');
          }
          const paper = run.papers[0];
          const report = run.report!;
          return {
            success: true as const,
            doi: paper.doi,
            source: paper.source,
            jats_url: paper.url,
            file_size: paper.bytes,
            sha256: paper.sha256,
            title: paper.title,
            session_id: paper.session_id,
            total_resources: paper.total_resources,
            import: { data_version: report.data_version, inserted: report.inserted, updated: report.updated, unchanged: report.unchanged },
          };
        },
      );
    }),
  );
};
