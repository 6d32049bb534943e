// What most pages read: the categories as /api/categories/ lists them, the stored statistics, predictions and
// forecasts, through the repository functions the API handlers call (no query of its own).
import type { StoredCategoryForecast, StoredForecasts, StoredStatistics } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { listCategories, listPredictions, readForecasts, readStatistics } from '../repository.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';

export interface ForecastView {
  /** The as-of date now (draws after it are not shown). */
  asOf: string;
  /** The date the stored forecasts were made for. */
  forecastsAsOf: string | null;
  /** Active categories with a draw on or before the as-of date, in listing order (as /api/categories/). */
  categories: CategoryRecord[];
  statistics: StoredStatistics | null;
  predictions: Map<number, Prediction[]>;
  forecasts: StoredForecasts | null;
  /** When the forecasts were computed (ISO time). */
  computedAt: string | null;
}

export async function readForecastView(routes: DrawsRouteContext): Promise<ForecastView> {
  const [categories, statistics, predictions, forecasts] = await Promise.all([
    listCategories(routes.db, { activeOnly: true }),
    readStatistics(routes.db),
    listPredictions(routes.db),
    readForecasts(routes.db),
  ]);
  return {
    asOf: routes.asOf(),
    forecastsAsOf: forecasts?.value.as_of ?? null,
    categories: statistics === null ? categories : categories.filter((c) => statistics.categories[String(c.id)] !== undefined),
    statistics,
    predictions,
    forecasts: forecasts?.value ?? null,
    computedAt: forecasts?.computed_at ?? null,
  };
}

export function forecastOf(view: Pick<ForecastView, 'forecasts'>, categoryId: number): StoredCategoryForecast | undefined {
  return view.forecasts?.categories.find((c) => c.category_id === categoryId);
}

/** The categories for the "my score" form: forecast ones first, each saying whether it is forecast. */
export function formCategories(view: ForecastView): { id: number; name: string; predicted: boolean }[] {
  const rows = view.categories.map((c) => ({ id: c.id, name: c.name, predicted: (view.predictions.get(c.id)?.length ?? 0) > 0 }));
  return [...rows.filter((r) => r.predicted), ...rows.filter((r) => !r.predicted)];
}
