// Is a DOI in the local store (GET and POST /check-doi-local/, group "doi-checks"), and DOI suggestions
// (GET /doi-suggestions/, group "suggestions").
import { clampLimit, cleanText } from '../../../core/http/params.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { SUGGESTIONS_MAX_LIMIT, checkDoiGetSchema, checkDoiPostSchema, doiSuggestionsSchema } from '../schemas/doi.ts';
import { ADDRESSES, RATE_LIMITS, parseDoi } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

export const doiRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'doi-checks', max: RATE_LIMITS['doi-checks'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get('/check-doi-local/', { schema: checkDoiGetSchema, config: { operation: 'DOI check', cacheSeconds: 0 } }, async (request) =>
        answers.checkDoi(parseDoi(request.query.doi)),
      );
      scope.post('/check-doi-local/', { schema: checkDoiPostSchema, config: { operation: 'DOI check' } }, async (request) =>
        answers.checkDoi(parseDoi(request.body.doi)),
      );
    }),
  );

  await rateLimitedGroup(app, ctx, { name: 'suggestions', max: RATE_LIMITS.suggestions }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/doi-suggestions/',
        { schema: doiSuggestionsSchema, config: { operation: 'DOI suggestions', responseCache: true } },
        async (request) => answers.doiSuggestions(cleanText(request.query.q), clampLimit(request.query.limit, SUGGESTIONS_MAX_LIMIT)),
      );
    }),
  );
};
