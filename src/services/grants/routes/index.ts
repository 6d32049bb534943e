// Service C routes: the five endpoints of the specification plus GET /api/grants/{id}/, served at the spec's
// address (host/api + /api/<x>/ = /api/api/<x>/) and at the old address /api/<x>/ that clients still call.
// One plugin per endpoint group, registered in the order the OpenAPI document lists them.
import { withAliases } from '../../../core/http/service-app.ts';
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { calculatorRoutes } from './calculator.ts';
import { comprehensiveStatsRoutes } from './comprehensive-stats.ts';
import { routeContext } from './context.ts';
import { grantRoutes } from './grants.ts';
import { internationalRoutes } from '../international/routes.ts';
import { recipientsRoutes } from './recipients.ts';
import { searchRoutes } from './search.ts';
import { statsRoutes } from './stats.ts';
import type { GrantsState } from '../state.ts';

/** C's endpoint groups, in the order of the OpenAPI document: a new endpoint joins the group of its topic. */
const GROUPS = [
  statsRoutes,
  searchRoutes,
  grantRoutes,
  recipientsRoutes,
  comprehensiveStatsRoutes,
  calculatorRoutes,
  internationalRoutes,
] as const;

export async function grantsRoutes(app: ServiceApp, ctx: ServingContext<GrantsState>): Promise<void> {
  const shared = routeContext(app, ctx, ctx.state);
  await withAliases(app, { spec: '/api/api', aliases: ['/api'] }, async (scope) => {
    for (const group of GROUPS) await scope.register(group, shared);
  });
}
