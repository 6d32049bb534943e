// GET /api/predict/ and /api/predict/{category_id}/: the stored predictions of each category with its
// last five draws up to the forecasts' as-of date.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { StoredForecasts } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { forecastBasis, latestDrawTimes, listCategories, listDraws, listPredictions, readForecasts } from '../repository.ts';
import type { CategoryRecord } from '../repository.ts';
import { predictAllRoute, predictOneRoute } from '../schemas/predict.ts';
import type { DrawsState } from '../state.ts';

const RECENT_DRAWS_PER_CATEGORY = 5;

export async function predictRoutes(app: ServiceApp, { state }: ServingContext<DrawsState>): Promise<void> {
  const { db } = state;

  async function predictEntry(category: CategoryRecord, predictions: Prediction[], through: string, stored: StoredForecasts | undefined) {
    const recent = await listDraws(db, { categoryId: category.id, through, limit: RECENT_DRAWS_PER_CATEGORY });
    const times = await latestDrawTimes(db, [category.id], through);
    const forecast = stored?.categories.find((c) => c.category_id === category.id);
    return {
      category_id: category.id,
      category_name: category.name,
      category_description: category.description,
      status: forecast?.status ?? 'insufficient_history',
      status_reason: forecast?.status_reason ?? 'no forecast is stored for this category',
      last_draw_date: forecast?.last_draw_date ?? null,
      dormant_since: forecast?.dormant_since ?? null,
      if_resumed: forecast?.if_resumed ?? null,
      last_updated: times.get(category.id) ?? null,
      recent_draws: recent.map((d) => ({ date: d.date, crs_score: d.lowest_crs_score, invitations: d.invitations_issued })),
      predictions,
    };
  }

  app.get('/api/predict/', { schema: predictAllRoute, config: { operation: 'predictions', responseCache: true } }, async () => {
    await state.recordServed();
    const [categories, predictions, forecasts] = await Promise.all([
      listCategories(db, { activeOnly: true }),
      listPredictions(db),
      readForecasts(db),
    ]);
    const through = forecasts?.value.as_of ?? state.asOf();
    const data = [];
    for (const category of categories) {
      const list = predictions.get(category.id);
      if (list && list.length > 0) data.push(await predictEntry(category, list, through, forecasts?.value));
    }
    return {
      success: true,
      total_categories: data.length,
      generated_at: forecasts?.computed_at ?? new Date().toISOString(),
      ...(await forecastBasis(db, forecasts?.value.as_of ?? null)),
      data,
      data_source: await state.source(forecasts?.value.as_of ?? null),
    };
  });

  app.get(
    '/api/predict/:category_id/',
    { schema: predictOneRoute, config: { operation: 'predictions', responseCache: true } },
    async (request) => {
      const category = await state.requireCategory(request.params.category_id, 'category_id');
      await state.recordServed();
      const [predictions, forecasts] = await Promise.all([listPredictions(db, category.id), readForecasts(db)]);
      const through = forecasts?.value.as_of ?? state.asOf();
      const entry = await predictEntry(category, predictions.get(category.id) ?? [], through, forecasts?.value);
      return {
        success: true,
        total_categories: 1,
        generated_at: forecasts?.computed_at ?? new Date().toISOString(),
        ...(await forecastBasis(db, forecasts?.value.as_of ?? null)),
        data: [entry],
        data_source: await state.source(forecasts?.value.as_of ?? null),
      };
    },
  );
}
