// Service B routes: one small plugin per endpoint group, each in its own rate-limit group(s) per client and
// minute (spec §8; the two addresses of a route share their group's counter). Base = host/api: every route is
// served at the specification's address (base + path, e.g. /api/check-doi-local/, /api/api/krt/{id}/) and at the
// old host-root address (/check-doi-local/, /api/krt/{id}/), which existing clients call. Registration order is
// the order of the OpenAPI document.
import type { ServiceApp, ServiceRoutes, ServingContext } from '../../../core/service.ts';
import type { KrtState } from '../state.ts';
import { doiRoutes } from './doi.ts';
import { tableRoutes } from './tables.ts';
import { exportRoutes } from './export.ts';
import { aiRoutes } from './ai.ts';
import { chatRoutes } from './chat.ts';
import { browserRoutes } from './browser.ts';
import { extractionRoutes } from './extraction.ts';
import { fetchRoutes } from './fetch.ts';
import { statisticsRoutes } from './statistics.ts';

export { RATE_LIMITS } from './common.ts';

const PLUGINS: readonly ServiceRoutes<KrtState>[] = [
  doiRoutes,
  tableRoutes,
  exportRoutes,
  aiRoutes,
  chatRoutes,
  browserRoutes,
  extractionRoutes,
  fetchRoutes,
  statisticsRoutes,
];

export async function krtRoutes(app: ServiceApp, ctx: ServingContext<KrtState>): Promise<void> {
  for (const plugin of PLUGINS) await plugin(app, ctx);
}
