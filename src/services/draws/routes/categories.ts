// GET /api/categories/ (a bare array, as the spec says), /api/categories/{id}/statistics/ and
// /api/categories/{id}/predictions/.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { categoryStatistics } from '../aggregates.ts';
import { forecastBasis, listCategories, listDraws, listPredictions, readForecasts, readStatistics } from '../repository.ts';
import { categoriesRoute, categoryPredictionsRoute, categoryStatisticsRoute } from '../schemas/categories.ts';
import type { DrawsState } from '../state.ts';

export async function categoryRoutes(app: ServiceApp, { state }: ServingContext<DrawsState>): Promise<void> {
  const { db } = state;

  app.get('/api/categories/', { schema: categoriesRoute, config: { operation: 'categories', responseCache: true } }, async () => {
    const [categories, statistics] = await Promise.all([listCategories(db, { activeOnly: true }), readStatistics(db)]);
    // A category whose first draw is after the as-of date is not listed yet.
    const known = statistics === null ? categories : categories.filter((c) => statistics.categories[String(c.id)] !== undefined);
    return known.map((c) => {
      const s = statistics?.categories[String(c.id)] ?? categoryStatistics([]);
      return {
        id: c.id,
        name: c.name,
        description: c.description,
        is_active: c.is_active,
        created_at: c.created_at,
        total_draws: s.total_draws,
        avg_crs_score: s.avg_crs_score,
        latest_draw_date: s.latest_draw_date,
      };
    });
  });

  app.get(
    '/api/categories/:id/statistics/',
    { schema: categoryStatisticsRoute, config: { operation: 'statistics', responseCache: true } },
    async (request) => {
      const category = await state.requireCategory(request.params.id, 'id');
      const statistics = await readStatistics(db);
      const s = statistics?.categories[String(category.id)] ?? categoryStatistics([]);
      const [latest] = await listDraws(db, { categoryId: category.id, limit: 1, through: state.asOf() });
      const { latest_round_number: _, ...numbers } = s;
      return {
        success: true,
        data: { category_id: category.id, category_name: category.name, ...numbers, latest_draw: latest ?? null },
        data_source: await state.source(),
      };
    },
  );

  app.get(
    '/api/categories/:id/predictions/',
    { schema: categoryPredictionsRoute, config: { operation: 'predictions', responseCache: true } },
    async (request) => {
      const category = await state.requireCategory(request.params.id, 'id');
      await state.recordServed();
      const [predictions, forecasts] = await Promise.all([listPredictions(db, category.id), readForecasts(db)]);
      return {
        success: true,
        data: { category_id: category.id, category_name: category.name, predictions: predictions.get(category.id) ?? [] },
        ...(await forecastBasis(db, forecasts?.value.as_of ?? null)),
        data_source: await state.source(forecasts?.value.as_of ?? null),
      };
    },
  );
}
