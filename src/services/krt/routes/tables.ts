// Key resources tables by extraction session (GET /api/krt/{session_id}/) and by DOI (GET /api/krt/doi/{doi}/),
// group "tables".
import { missingParameter } from '../../../core/http/errors.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { doiTableSchema, sessionTableSchema } from '../schemas/tables.ts';
import { ADDRESSES, RATE_LIMITS, parseDoi } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

export const tableRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'tables', max: RATE_LIMITS.tables }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/api/krt/:session_id/',
        { schema: sessionTableSchema, config: { operation: 'KRT lookup', responseCache: true } },
        async (request) => {
          const id = request.params.session_id.trim();
          // "/api/krt/doi/" without a DOI lands here (the DOI route needs something after doi/).
          if (id === 'doi') throw missingParameter('doi');
          return answers.sessionTable(id);
        },
      );
      scope.get(
        '/api/krt/doi/*',
        { schema: doiTableSchema, config: { operation: 'KRT lookup by DOI', responseCache: true, wildcard: 'doi' } },
        async (request) => answers.bestTable(parseDoi(request.params['*'].replace(/\/+$/, ''))),
      );
    }),
  );
};
