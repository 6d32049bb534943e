// Service D's endpoints (spec §4.4, contract d-draws.md), one plugin per group. Read-only: every number comes
// from the rows and aggregates stored at import; the routes only select and shape them.
import type { ServiceApp, ServiceRoutes, ServingContext } from '../../../core/service.ts';
import { keepForecastsCurrent } from '../fit.ts';
import type { DrawsState } from '../state.ts';
import { categoryRoutes } from './categories.ts';
import { drawRoutes } from './draws.ts';
import { healthRoutes } from './health.ts';
import { modelRoutes } from './models.ts';
import { predictRoutes } from './predict.ts';
import { statsRoutes } from './stats.ts';
import { trackRecordRoutes } from './track-record.ts';

/** In the order of the OpenAPI document. */
const GROUPS: readonly ServiceRoutes<DrawsState>[] = [
  healthRoutes,
  predictRoutes,
  categoryRoutes,
  drawRoutes,
  statsRoutes,
  modelRoutes,
  trackRecordRoutes,
];

export async function drawsRoutes(app: ServiceApp, ctx: ServingContext<DrawsState>): Promise<void> {
  keepForecastsCurrent(app, ctx);
  for (const group of GROUPS) await app.register(async (scope) => group(scope, ctx));
}
