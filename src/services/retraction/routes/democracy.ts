// GET /api/democracy/… (rate-limit group "analytics"): the country-year panel, its descriptive charts and the
// Bayesian model's results, diagnostics and methodology.
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { retractionDb } from '../tables.ts';
import { notFound } from '../../../core/http/errors.ts';
import { clampLimit, cleanText } from '../../../core/http/params.ts';
import { getAggregate } from '../../../core/db/datasets.ts';
import { PANEL_AGGREGATES } from '../democracy.ts';
import type { DemocracyVisualizations, PanelSummary } from '../democracy.ts';
import {
  PANEL_DATASET,
  SCALE_NOTE,
  diagnosticsBody,
  methodologyBody,
  parameterBody,
  predictorBody,
  servedModel,
} from '../democracy-model.ts';
import type { ModelSource } from '../democracy-model.ts';
import { dataSource, panelRows } from '../repository.ts';
import {
  RAW_DATA_MAX_LIMIT,
  methodologySchema,
  modelDiagnosticsSchema,
  overviewSchema,
  rawDataSchema,
  statisticalResultsSchema,
  visualizationsSchema,
} from '../schemas/democracy.ts';

const PANEL_DATASETS = [PANEL_DATASET];
const modelConfig = (operation: string) => ({ operation, responseCache: true });

export function democracyRoutes(scope: ServiceApp, ctx: ServiceContext): void {
  const db = retractionDb(ctx.db);

  scope.get('/api/democracy/overview/', { schema: overviewSchema, config: modelConfig('democracy overview') }, async () => {
    const summary = await getAggregate<PanelSummary>(db, 'retraction', PANEL_AGGREGATES.summary);
    const model = await servedModel(db);
    const democracy = model.fit?.summaries.find((s) => s.name === 'democracy_index' || s.name === 'democracy');
    return {
      panel: summary?.value ?? null,
      model: model.info,
      democracy_effect: democracy ? predictorBody(democracy) : null,
      endpoints: {
        raw_data: '/api/democracy/raw-data/',
        visualizations: '/api/democracy/visualizations/',
        statistical_results: '/api/democracy/statistical-results/',
        model_diagnostics: '/api/democracy/model-diagnostics/',
        methodology: '/api/democracy/methodology/',
      },
      data_source: await dataSource(db, [...PANEL_DATASETS, 'democracy-model-fit', 'democracy-published-fit']),
    };
  });

  scope.get('/api/democracy/raw-data/', { schema: rawDataSchema, config: modelConfig('democracy raw data') }, async (request) => {
    const country = cleanText(request.query.country);
    const limit = clampLimit(request.query.limit, RAW_DATA_MAX_LIMIT);
    const { rows, total } = await panelRows(db, { country, year: request.query.year, limit });
    return {
      count: rows.length,
      total,
      limit,
      filters: { country: country ?? null, year: request.query.year ?? null },
      data: rows,
      data_source: await dataSource(db, PANEL_DATASETS),
    };
  });

  scope.get(
    '/api/democracy/visualizations/',
    { schema: visualizationsSchema, config: modelConfig('democracy visualizations') },
    async () => {
      const found = await getAggregate<DemocracyVisualizations>(db, 'retraction', PANEL_AGGREGATES.visualizations);
      if (!found) throw notFound('no democracy panel imported yet', 'NO_DATA');
      return { ...found.value, computed_at: found.computed_at, data_source: await dataSource(db, PANEL_DATASETS) };
    },
  );

  scope.get(
    '/api/democracy/statistical-results/',
    { schema: statisticalResultsSchema, config: modelConfig('statistical results') },
    async (request) => {
      const model = await servedModel(db, request.query.source as ModelSource | undefined);
      return {
        model: model.info,
        scale: SCALE_NOTE,
        predictors: model.fit ? model.fit.summaries.map(predictorBody) : [],
        hyperparameters: model.fit ? model.fit.hyperparameters.map(parameterBody) : [],
      };
    },
  );

  scope.get(
    '/api/democracy/model-diagnostics/',
    { schema: modelDiagnosticsSchema, config: modelConfig('model diagnostics') },
    async (request) => {
      const model = await servedModel(db, request.query.source as ModelSource | undefined);
      if (!model.fit) return { model: model.info, convergence: null, sampler: null, loo: null, data: null, checks: null, timing: null };
      return { model: model.info, ...diagnosticsBody(model.fit) };
    },
  );

  scope.get('/api/democracy/methodology/', { schema: methodologySchema, config: modelConfig('methodology') }, async (request) => {
    const model = await servedModel(db, request.query.source as ModelSource | undefined);
    return { model: model.info, methodology: model.fit ? methodologyBody(model.fit) : null };
  });
}
