// GET /api/draws/ (exclusive start_date and end_date, as the spec says) and /api/draws/recent/.
import { badRequest } from '../../../core/http/errors.ts';
import { parseDate } from '../../../core/http/params.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listDraws, recentWindow } from '../repository.ts';
import { drawsRoute, recentDrawsRoute } from '../schemas/draws.ts';
import type { DrawsRouteContext } from './context.ts';

export async function drawRoutes(app: ServiceApp, routes: DrawsRouteContext): Promise<void> {
  const { db } = routes;

  app.get('/api/draws/', { schema: drawsRoute, config: { operation: 'draws', responseCache: true } }, async (request) => {
    const q = request.query;
    const after = parseDate(q.start_date, 'start_date');
    const before = parseDate(q.end_date, 'end_date');
    if (after !== undefined && before !== undefined && before <= after) {
      throw badRequest(`end_date must be after start_date (both are exclusive), got start_date ${after} and end_date ${before}`);
    }
    const category = q.category === undefined ? undefined : await routes.requireCategory(q.category, 'category');
    const data = await listDraws(db, { categoryId: category?.id, after, before, through: routes.asOf() });
    return { success: true, count: data.length, data, data_source: await routes.source() };
  });

  app.get('/api/draws/recent/', { schema: recentDrawsRoute, config: { operation: 'draws', responseCache: true } }, async () => {
    const data = await listDraws(db, recentWindow(routes.asOf()));
    return { success: true, count: data.length, data, data_source: await routes.source() };
  });
}
