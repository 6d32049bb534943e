// Service D's endpoints (spec §4.4, contract d-draws.md). Read-only: every number comes from the rows and
// aggregates stored at import; the routes only select and shape them.
import type { FastifyReply } from 'fastify';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { badRequest, notFound } from '../../core/http/errors.ts';
import { parseDate } from '../../core/http/params.ts';
import { asOfIsFixed, msUntilNextTorontoDay, resolveAsOf } from './as-of.ts';
import type { HorizonMetrics } from './forecast/backtest.ts';
import type { Prediction } from './forecast/forecast-category.ts';
import { FORECAST_METHOD, MODEL_CATALOGUE } from './forecast/model-catalogue.ts';
import { readForecasts, refreshForecastsIfStale } from './forecasts.ts';
import {
  countRows,
  dataSource,
  findCategory,
  latestDrawTimes,
  listCategories,
  listDraws,
  listPredictions,
  readStatistics,
  recentWindow,
} from './repository.ts';
import type { CategoryRow, DataSource } from './repository.ts';
import * as S from './schemas.ts';
import { categoryStatistics } from './summary.ts';

export const API_VERSION = '1.0';
const RECENT_DRAWS_PER_CATEGORY = 5;
const STATS_RECENT_DRAWS = 10;

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

function categoryId(raw: string, name: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw badRequest(`${name} must be a positive whole number`);
  return id;
}

export async function drawsRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const db = ctx.db.kysely;
  const asOf = () => resolveAsOf(ctx.config.env);
  asOf(); // a malformed PDI_DRAWS_AS_OF stops the start with its message instead of failing every request
  const source = async (forecastsAsOf?: string | null): Promise<DataSource> => dataSource(db, asOf(), forecastsAsOf);

  async function requireCategory(raw: string, name: string): Promise<CategoryRow> {
    const id = categoryId(raw, name);
    const category = await findCategory(db, id);
    if (!category) throw notFound(`category ${id} not found; see /api/categories/ for the ids`);
    return category;
  }

  async function predictEntry(category: CategoryRow, predictions: Prediction[], through: string) {
    const recent = await listDraws(db, { categoryId: category.id, through, limit: RECENT_DRAWS_PER_CATEGORY });
    const times = await latestDrawTimes(db, [category.id], through);
    return {
      category_id: category.id,
      category_name: category.name,
      category_description: category.description,
      last_updated: times.get(category.id) ?? null,
      recent_draws: recent.map((d) => ({ date: d.date, crs_score: d.lowest_crs_score, invitations: d.invitations_issued })),
      predictions,
    };
  }

  app.get(
    '/api/health/',
    {
      schema: {
        summary: 'Health check',
        description: 'Database reachability and row counts. 503 with status "unhealthy" while the database is unreachable.',
        response: { 200: S.HealthResponse },
      },
      config: { operation: 'health', cacheSeconds: 0 },
    },
    async (request, reply: FastifyReply) => {
      const endpoints = {
        predictions: '/api/predict/',
        categories: '/api/categories/',
        draws: '/api/draws/',
        statistics: '/api/stats/',
        documentation: '/docs',
      };
      const timestamp = new Date().toISOString();
      try {
        await ctx.db.ping();
        const counts = await countRows(db);
        return {
          status: 'healthy',
          timestamp,
          version: API_VERSION,
          database: {
            connected: true,
            draws_count: counts.draws,
            categories_count: counts.categories,
            predictions_count: counts.predictions,
          },
          endpoints,
        };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        reply.code(503).header('cache-control', 'no-store');
        // The health shape, and the service's error fields, so that clients checking `success` see the failure.
        return reply.send({
          success: false,
          error: 'database unreachable',
          data: [],
          status: 'unhealthy',
          timestamp,
          version: API_VERSION,
          database: { connected: false, draws_count: null, categories_count: null, predictions_count: null },
          endpoints,
        });
      }
    },
  );

  app.get(
    '/api/predict/',
    {
      schema: {
        summary: 'Next draws of every predicted category',
        description:
          'Five predictions per active, non-dormant category with enough history (see /api/models/ for the method), with its last five draws.',
        response: { 200: S.PredictResponse },
      },
      config: { operation: 'predictions', responseCache: true },
    },
    async () => {
      const [categories, predictions, forecasts] = await Promise.all([
        listCategories(db, { activeOnly: true }),
        listPredictions(db),
        readForecasts(db),
      ]);
      const through = forecasts?.value.as_of ?? asOf();
      const data = [];
      for (const category of categories) {
        const list = predictions.get(category.id);
        if (list && list.length > 0) data.push(await predictEntry(category, list, through));
      }
      return {
        success: true,
        total_categories: data.length,
        generated_at: forecasts?.computed_at ?? new Date().toISOString(),
        data,
        data_source: await source(forecasts?.value.as_of ?? null),
      };
    },
  );

  app.get(
    '/api/predict/:category_id/',
    {
      schema: {
        summary: 'Next draws of one category',
        description:
          'The same envelope as /api/predict/ with one entry; its predictions are empty when the category is dormant or has too little history.',
        params: S.CategoryIdParams,
        response: { 200: S.PredictResponse },
      },
      config: { operation: 'predictions', responseCache: true },
    },
    async (request) => {
      const category = await requireCategory(request.params.category_id, 'category_id');
      const [predictions, forecasts] = await Promise.all([listPredictions(db, category.id), readForecasts(db)]);
      const through = forecasts?.value.as_of ?? asOf();
      const entry = await predictEntry(category, predictions.get(category.id) ?? [], through);
      return {
        success: true,
        total_categories: 1,
        generated_at: forecasts?.computed_at ?? new Date().toISOString(),
        data: [entry],
        data_source: await source(forecasts?.value.as_of ?? null),
      };
    },
  );

  app.get(
    '/api/categories/',
    {
      schema: {
        summary: 'Active categories',
        description: 'A bare JSON array of every active category (one with draws in the current feed).',
        response: { 200: S.CategoriesResponse },
      },
      config: { operation: 'categories', responseCache: true },
    },
    async () => {
      const [categories, statistics] = await Promise.all([listCategories(db, { activeOnly: true }), readStatistics(db)]);
      return categories.map((c) => {
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
    },
  );

  app.get(
    '/api/categories/:id/statistics/',
    {
      schema: {
        summary: 'Statistics of one category',
        description: "Scores, invitations and gaps between draw dates over all of the category's draws.",
        params: S.IdParams,
        response: { 200: S.CategoryStatisticsResponse },
      },
      config: { operation: 'statistics', responseCache: true },
    },
    async (request) => {
      const category = await requireCategory(request.params.id, 'id');
      const statistics = await readStatistics(db);
      const s = statistics?.categories[String(category.id)] ?? categoryStatistics([]);
      const [latest] = await listDraws(db, { categoryId: category.id, limit: 1 });
      const { latest_round_number: _, ...numbers } = s;
      return {
        success: true,
        data: { category_id: category.id, category_name: category.name, ...numbers, latest_draw: latest ?? null },
        data_source: await source(),
      };
    },
  );

  app.get(
    '/api/categories/:id/predictions/',
    {
      schema: { summary: 'All predictions of one category', params: S.IdParams, response: { 200: S.CategoryPredictionsResponse } },
      config: { operation: 'predictions', responseCache: true },
    },
    async (request) => {
      const category = await requireCategory(request.params.id, 'id');
      const [predictions, forecasts] = await Promise.all([listPredictions(db, category.id), readForecasts(db)]);
      return {
        success: true,
        data: { category_id: category.id, category_name: category.name, predictions: predictions.get(category.id) ?? [] },
        data_source: await source(forecasts?.value.as_of ?? null),
      };
    },
  );

  app.get(
    '/api/draws/',
    {
      schema: {
        summary: 'Draws',
        description: 'Every draw, newest first, optionally of one category and strictly between start_date and end_date.',
        querystring: S.DrawsQuery,
        response: { 200: S.DrawsResponse },
      },
      config: { operation: 'draws', responseCache: true },
    },
    async (request) => {
      const q = request.query;
      const after = parseDate(q.start_date, 'start_date');
      const before = parseDate(q.end_date, 'end_date');
      if (after !== undefined && before !== undefined && before <= after) {
        throw badRequest(`end_date must be after start_date (both are exclusive), got start_date ${after} and end_date ${before}`);
      }
      const category = q.category === undefined ? undefined : await requireCategory(q.category, 'category');
      const data = await listDraws(db, { categoryId: category?.id, after, before });
      return { success: true, count: data.length, data, data_source: await source() };
    },
  );

  app.get(
    '/api/draws/recent/',
    {
      schema: {
        summary: 'Draws of the last 30 days',
        description:
          'Draws dated from 30 days before the as-of date through the as-of date (PDI_DRAWS_AS_OF, else today in America/Toronto), newest first.',
        response: { 200: S.DrawsResponse },
      },
      config: { operation: 'draws', responseCache: true },
    },
    async () => {
      const window = recentWindow(asOf());
      const data = await listDraws(db, window);
      return { success: true, count: data.length, data, data_source: await source() };
    },
  );

  app.get(
    '/api/stats/',
    {
      schema: {
        summary: 'Overall statistics',
        description: 'Totals over every draw, the last ten draws and the next predicted draw of each category.',
        response: { 200: S.StatsResponse },
      },
      config: { operation: 'statistics', responseCache: true },
    },
    async () => {
      const [counts, statistics, predictions, categories, forecasts] = await Promise.all([
        countRows(db),
        readStatistics(db),
        listPredictions(db),
        listCategories(db, { activeOnly: false }),
        readForecasts(db),
      ]);
      const names = new Map(categories.map((c) => [c.id, c.name]));
      const through = forecasts?.value.as_of ?? asOf();
      const recent = await listDraws(db, { through, limit: STATS_RECENT_DRAWS });
      const next = [...predictions.entries()]
        .filter(([, list]) => list.length > 0)
        .map(([id, list]) => ({ category_id: id, category_name: names.get(id) ?? '', ...list[0] }))
        .sort(
          (a, b) =>
            (a.predicted_date < b.predicted_date ? -1 : a.predicted_date > b.predicted_date ? 1 : 0) || a.category_id - b.category_id,
        );
      const overall = statistics?.overall;
      const ds = await source(forecasts?.value.as_of ?? null);
      return {
        success: true,
        total_draws: counts.draws,
        categories_count: counts.categories,
        total_predictions: counts.predictions,
        avg_crs_score: overall?.avg_crs_score ?? null,
        avg_invitations: overall?.avg_invitations ?? null,
        min_crs_score: overall?.min_crs_score ?? null,
        max_crs_score: overall?.max_crs_score ?? null,
        recent_draws: recent,
        next_predictions: next,
        last_updated: ds.imported_at,
        data_source: ds,
      };
    },
  );

  app.get(
    '/api/models/',
    {
      schema: {
        summary: 'Prediction models and their measured performance',
        description:
          'Each candidate model, where it is used, and its rolling-origin backtest errors of CRS cut-offs pooled over the categories, by horizon.',
        response: { 200: S.ModelsResponse },
      },
      config: { operation: 'models', responseCache: true },
    },
    async () => {
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
        mae_h1: Object.fromEntries(Object.entries(c.crs?.selection.maeH1 ?? {}).map(([k, v]) => [k, round(v as number, 3)!])),
        invitations_model: c.invitations?.model ?? null,
      }));
      return {
        success: true,
        data,
        methodology: { ...FORECAST_METHOD },
        categories: categoryForecasts,
        data_source: await source(stored?.as_of ?? null),
      };
    },
  );
}

/**
 * Keeps the stored forecasts made for the current as-of date: checked when the app starts and, unless
 * PDI_DRAWS_AS_OF fixes the date, again just after each midnight in Toronto. Requests never compute.
 */
export function keepForecastsCurrent(app: ServiceApp, ctx: ServiceContext): void {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const check = async (): Promise<void> => {
    try {
      if (await refreshForecastsIfStale(ctx))
        ctx.log.info({ as_of: resolveAsOf(ctx.config.env) }, 'forecasts recomputed for the new as-of date');
    } catch (error) {
      ctx.log.error({ err: error }, 'forecast refresh failed; retrying in five minutes');
      schedule(5 * 60_000);
      return;
    }
    if (!asOfIsFixed(ctx.config.env)) schedule(msUntilNextTorontoDay() + 60_000);
  };
  const schedule = (ms: number): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void check(), ms);
    timer.unref();
  };
  app.addHook('onReady', check);
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearTimeout(timer);
  });
}
