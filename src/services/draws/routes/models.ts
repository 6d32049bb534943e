// GET /api/models/: each model with its description, where it is used and its measured backtest errors,
// the rules behind every number a prediction carries, and how each category is forecast.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { HorizonMetrics } from '../forecast/metrics.ts';
import { FORECAST_METHOD, MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { listCategories, readForecasts } from '../repository.ts';
import { modelsRoute } from '../schemas/models.ts';
import type { DrawsState } from '../state.ts';

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
    median_half_width: round(m.median_half_width, 3),
  };
}

const rounded = (weights: Record<string, number | undefined>) =>
  Object.fromEntries(Object.entries(weights).map(([k, v]) => [k, round(v ?? 0, 4) ?? 0]));

const WINDOW =
  'established categories: forecasts whose targets fell in the 730 days up to the as-of date; pooled_young: every young forecast ever scored';

export async function modelRoutes(app: ServiceApp, { state }: ServingContext<DrawsState>): Promise<void> {
  const { db } = state;

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
        performance: {
          method: FORECAST_METHOD.backtest,
          by_horizon: (performance?.crs ?? []).map(horizonRow),
          invitations_by_horizon: (performance?.invitations ?? []).map(horizonRow),
          window: WINDOW,
        },
        confidence_definition: model.confidence_definition,
      };
    });
    const categoryForecasts = (stored?.categories ?? []).map((c) => {
      const served = c.status === 'young' ? 'pooled_young' : c.crs === null ? null : 'combination';
      const h1 = { combination: c.backtest_h1.served, naive: c.backtest_h1.naive, window_mean: c.backtest_h1.window_mean };
      return {
        category_id: c.category_id,
        category_name: names.get(c.category_id) ?? c.slug,
        status: c.status,
        reason: c.status_reason,
        dormant_since: c.dormant_since,
        crs_model: served,
        selection_reason:
          served === 'combination'
            ? 'weights from recent backtest errors (see methodology.selection)'
            : served === 'pooled_young'
              ? 'young category: pooled model (see methodology.young)'
              : null,
        compared_on: c.backtest_h1.n,
        mae_h1: Object.fromEntries(Object.entries(h1).flatMap(([k, v]) => (v === null ? [] : [[k, round(v, 3)!]]))),
        invitations_model: served,
        crs_weights: rounded(c.crs?.weights ?? {}),
        invitations_weights: rounded(c.invitations?.weights ?? {}),
        reversion_phi: c.crs === null ? null : round(c.crs.phi.used, 4),
      };
    });
    const calibration = stored?.calibration;
    const intervalRows = (rows: HorizonMetrics[] | undefined) =>
      (rows ?? []).map((m) => ({ h: m.h, n: m.n, coverage_95: round(m.coverage_95, 4), median_half_width: round(m.median_half_width, 3) }));
    const intervals = {
      crs: intervalRows(calibration?.crs),
      invitations: intervalRows(calibration?.invitations),
      dates: (calibration?.dates ?? []).map((d) => ({ h: d.h, level: d.level, n: d.n, coverage_95: round(d.coverage, 4) })),
    };
    return {
      success: true,
      data,
      methodology: { ...FORECAST_METHOD },
      intervals,
      categories: categoryForecasts,
      data_source: await state.source(stored?.as_of ?? null),
    };
  });
}
