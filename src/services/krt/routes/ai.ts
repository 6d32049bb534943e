// RRID suggestion, validation and recommendation (POST /api/ai/suggest-rrid/, /api/ai/validate-rrid/,
// /api/ai/recommend/), each in its own rate-limit group.
import { clampLimit, cleanText } from '../../../core/http/params.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { RECOMMENDATIONS_DEFAULT, RECOMMENDATIONS_MAX, recommendSchema, suggestSchema, validateSchema } from '../schemas/ai.ts';
import { ADDRESSES, RATE_LIMITS, required, suggestionQuery } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

export const aiRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'ai-suggestions', max: RATE_LIMITS['ai-suggestions'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post('/api/ai/suggest-rrid/', { schema: suggestSchema, config: { operation: 'RRID suggestion' } }, async (request) =>
        answers.suggest(suggestionQuery(request.body)),
      );
    }),
  );

  await rateLimitedGroup(app, ctx, { name: 'ai-validation', max: RATE_LIMITS['ai-validation'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post('/api/ai/validate-rrid/', { schema: validateSchema, config: { operation: 'RRID validation' } }, async (request) => ({
        success: true as const,
        validation: await answers.validate(required(request.body.rrid, 'rrid')),
      }));
    }),
  );

  await rateLimitedGroup(app, ctx, { name: 'ai-recommendations', max: RATE_LIMITS['ai-recommendations'] }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.post('/api/ai/recommend/', { schema: recommendSchema, config: { operation: 'recommendation' } }, async (request) =>
        answers.recommend({
          resourceName: required(request.body.resource_name, 'resource_name'),
          resourceType: cleanText(request.body.resource_type),
          context: request.body.context,
          limit: clampLimit(request.body.limit ?? RECOMMENDATIONS_DEFAULT, RECOMMENDATIONS_MAX),
        }),
      );
    }),
  );
};
