// GET /api/stats/: the spec's keys; recent_draws are the last ten draws up to the forecasts' as-of date,
// next_predictions the rank-1 prediction of each predicted category, by date.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import { countRows, forecastBasis, listCategories, listDraws, listPredictions, readForecasts, readStatistics } from '../repository.ts';
import { statsRoute } from '../schemas/stats.ts';
import type { DrawsState } from '../state.ts';

const STATS_RECENT_DRAWS = 10;

export async function statsRoutes(app: ServiceApp, { state }: ServingContext<DrawsState>): Promise<void> {
  const { db } = state;

  app.get('/api/stats/', { schema: statsRoute, config: { operation: 'statistics', responseCache: true } }, async () => {
    await state.recordServed();
    const [counts, statistics, predictions, categories, forecasts] = await Promise.all([
      countRows(db),
      readStatistics(db),
      listPredictions(db),
      listCategories(db, { activeOnly: false }),
      readForecasts(db),
    ]);
    const names = new Map(categories.map((c) => [c.id, c.name]));
    const through = forecasts?.value.as_of ?? state.asOf();
    const recent = await listDraws(db, { through, limit: STATS_RECENT_DRAWS });
    const next = [...predictions.entries()]
      .filter(([, list]) => list.length > 0)
      .map(([id, list]) => ({ category_id: id, category_name: names.get(id) ?? '', ...list[0] }))
      .sort(
        (a, b) => (a.predicted_date < b.predicted_date ? -1 : a.predicted_date > b.predicted_date ? 1 : 0) || a.category_id - b.category_id,
      );
    const overall = statistics?.overall;
    const ds = await state.source(forecasts?.value.as_of ?? null);
    return {
      success: true,
      total_draws: overall?.total_draws ?? counts.draws,
      categories_count: counts.categories,
      total_predictions: counts.predictions,
      avg_crs_score: overall?.avg_crs_score ?? null,
      avg_invitations: overall?.avg_invitations ?? null,
      min_crs_score: overall?.min_crs_score ?? null,
      max_crs_score: overall?.max_crs_score ?? null,
      recent_draws: recent,
      next_predictions: next,
      last_updated: ds.imported_at,
      ...(await forecastBasis(db, forecasts?.value.as_of ?? null)),
      data_source: ds,
    };
  });
}
