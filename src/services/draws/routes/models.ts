// GET /api/models/: each model with its description, where it is used and its measured backtest errors,
// the rules behind every number a prediction carries, and how each category is forecast.
import type { ServiceApp } from '../../../core/service.ts';
import type { HorizonMetrics } from '../forecast/backtest.ts';
import { FORECAST_METHOD, MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { listCategories, readForecasts } from '../repository.ts';
import { modelsRoute } from '../schemas/models.ts';
import type { DrawsRouteContext } from './context.ts';

function round(x: number | null, digits: number): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function horizonRow(m: HorizonMetrics) {
  return {
    h: m.h,
    n: m.n,
    mae: round(m.mae, 3),
    rmse: round(m.rmse, 3),
    mase: round(m.mase, 3),
    bias: round(m.bias, 3),
    coverage_95: round(m.coverage_95, 4),
  };
}

export async function modelRoutes(app: ServiceApp, routes: DrawsRouteContext): Promise<void> {
  const { db } = routes;

  app.get('/api/models/', { schema: modelsRoute, config: { operation: 'models', responseCache: true } }, async () => {
    const [forecasts, categories] = await Promise.all([readForecasts(db), listCategories(db, { activeOnly: false })]);
    const names = new Map(categories.map((c) => [c.id, c.name]));
    const stored = forecasts?.value;
    const data = MODEL_CATALOGUE.map((model) => {
      const performance = stored?.models.find((m) => m.name === model.name);
      return {
        name: model.name,
        description: model.description,
        parameters: model.parameters,
        selected_for: performance?.selected_for ?? [],
        performance: { method: FORECAST_METHOD.backtest, by_horizon: (performance?.crs ?? []).map(horizonRow) },
        confidence_definition: model.confidence_definition,
      };
    });
    const categoryForecasts = (stored?.categories ?? []).map((c) => ({
      category_id: c.category_id,
      category_name: names.get(c.category_id) ?? c.slug,
      status: c.status,
      reason: c.status_reason,
      crs_model: c.crs?.model ?? null,
      selection_reason: c.crs?.selection.reason ?? null,
      compared_on: c.crs?.selection.comparedOn ?? null,
      mae_h1: Object.fromEntries(Object.entries(c.crs?.selection.maeH1 ?? {}).map(([k, v]) => [k, round(v, 3)!])),
      invitations_model: c.invitations?.model ?? null,
    }));
    return {
      success: true,
      data,
      methodology: { ...FORECAST_METHOD },
      categories: categoryForecasts,
      data_source: await routes.source(stored?.as_of ?? null),
    };
  });
}
