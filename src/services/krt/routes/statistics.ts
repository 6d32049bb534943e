// Statistics of the store's key resources tables (GET /api/krt/statistics/), group "statistics".
import { clampLimit } from '../../../core/http/params.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { withAliases } from '../../../core/http/service-app.ts';
import { VENDORS_DEFAULT, VENDORS_MAX, statisticsSchema } from '../schemas/statistics.ts';
import { ADDRESSES, RATE_LIMITS } from './common.ts';
import type { ServiceRoutes } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';

export const statisticsRoutes: ServiceRoutes<KrtState> = async (app, ctx) => {
  const { answers } = ctx.state;
  await rateLimitedGroup(app, ctx, { name: 'statistics', max: RATE_LIMITS.statistics }, (group) =>
    withAliases(group, ADDRESSES, (scope) => {
      scope.get(
        '/api/krt/statistics/',
        { schema: statisticsSchema, config: { operation: 'statistics', responseCache: true } },
        async (request) => {
          const { vendors, ...statistics } = await answers.statistics();
          return {
            success: true as const,
            ...statistics,
            vendors: vendors.slice(0, clampLimit(request.query.vendors ?? VENDORS_DEFAULT, VENDORS_MAX)),
          };
        },
      );
    }),
  );
};
