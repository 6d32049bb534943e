// Service D's endpoints (spec §4.4, contract d-draws.md), one plugin per group. Read-only: every number comes
// from the rows and aggregates stored at import; the routes only select and shape them.
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { categoryRoutes } from './categories.ts';
import { drawsRouteContext } from './context.ts';
import type { DrawsRouteContext } from './context.ts';
import { drawRoutes } from './draws.ts';
import { staleAfterDays } from '../freshness.ts';
import { healthRoutes } from './health.ts';
import { modelRoutes } from './models.ts';
import { predictRoutes } from './predict.ts';
import { statsRoutes } from './stats.ts';
import { trackRecordRoutes } from './track-record.ts';

/** In the order of the OpenAPI document. */
const GROUPS: readonly ((app: ServiceApp, routes: DrawsRouteContext) => Promise<void>)[] = [
  healthRoutes,
  predictRoutes,
  categoryRoutes,
  drawRoutes,
  statsRoutes,
  modelRoutes,
  trackRecordRoutes,
];

export async function drawsRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const routes = drawsRouteContext(ctx);
  routes.asOf(); // a malformed PDI_DRAWS_AS_OF stops the start with its message instead of failing every request
  staleAfterDays(ctx.config.env); // and so does a malformed PDI_DRAWS_STALE_DAYS
  for (const group of GROUPS) await app.register(async (scope) => group(scope, routes));
}
