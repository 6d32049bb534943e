// Service E routes: the five endpoints of the specification, the seven further ones of the contract, and the
// search with filters, its export and a paper's citing works; one small plugin per endpoint group, in three
// rate-limit groups (general 100, export 10, analytics 50 requests per client per minute; the democracy endpoints
// share the analytics budget). Registration order is the order of the OpenAPI document.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import { rateLimitedGroup } from '../../../core/http/rate-limit.ts';
import { searchRoutes } from './search.ts';
import { paperRoutes } from './papers.ts';
import { exportRoutes } from './export.ts';
import { analyticsRoutes } from './analytics.ts';
import { democracyDrawsRoutes, democracyLogLikRoutes, democracyRoutes } from './democracy.ts';

export const RATE_LIMITS = { general: 100, export: 10, analytics: 50 } as const;

export async function retractionRoutes(app: ServiceApp, ctx: ServingContext<RetractionState>): Promise<void> {
  await rateLimitedGroup(app, ctx, { name: 'general', max: RATE_LIMITS.general }, (scope) => {
    searchRoutes(scope, ctx);
    paperRoutes(scope, ctx);
  });
  await rateLimitedGroup(app, ctx, { name: 'export', max: RATE_LIMITS.export }, (scope) => {
    exportRoutes(scope, ctx);
    // The posterior draws are a download too: same budget as the exports.
    democracyDrawsRoutes(scope, ctx);
    democracyLogLikRoutes(scope, ctx);
  });
  await rateLimitedGroup(app, ctx, { name: 'analytics', max: RATE_LIMITS.analytics }, (scope) => {
    analyticsRoutes(scope, ctx);
    democracyRoutes(scope, ctx);
  });
}
