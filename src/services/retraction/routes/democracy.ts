// GET /api/democracy/… (rate-limit group "analytics"): the country-year panel, its descriptive charts and the
// Bayesian model's results, effects, diagnostics, posterior predictive checks and methodology; and
// GET /api/democracy/draws/ (rate-limit group "export"): the posterior draws, streamed.
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import type { RetractionDb } from '../tables.ts';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { attachmentDisposition, csvReadable, EXPORT_CONTENT_TYPES, jsonReadable } from '../../../core/export/index.ts';
import { selectParameters, syntacticNames } from '../bayes/draws.ts';
import { clampLimit, cleanText } from '../../../core/http/params.ts';
import { getAggregate } from '../../../core/db/datasets.ts';
import { PANEL_AGGREGATES } from '../democracy.ts';
import type { DemocracyVisualizations, PanelSummary } from '../democracy.ts';
import {
  DRAW_INDEX_COLUMNS,
  EFFECTS_NOTE,
  MCSE_NOTE,
  PANEL_DATASETS,
  PREDICTIVE_NOTE,
  SCALE_NOTE,
  diagnosticsBody,
  drawRows,
  effectBody,
  methodologyBody,
  parameterBody,
  predictiveBody,
  predictorBody,
  servedModel,
  storedDraws,
} from '../democracy-model.ts';
import { dataSource, panelRows } from '../repository.ts';
import { compareStoredFits, fitLogLik, listStoredFits } from '../democracy-comparison.ts';
import {
  RAW_DATA_MAX_LIMIT,
  drawsSchema,
  effectsSchema,
  logLikSchema,
  modelComparisonSchema,
  modelsSchema,
  methodologySchema,
  modelDiagnosticsSchema,
  overviewSchema,
  posteriorPredictiveSchema,
  rawDataSchema,
  statisticalResultsSchema,
  visualizationsSchema,
} from '../schemas/democracy.ts';

const modelConfig = (operation: string) => ({ operation, responseCache: true });

export function democracyRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  panelRoutes(scope, ctx.state.db);
  modelRoutes(scope, ctx.state.db);
}

/** The overview, and the country-year panel as imported: its rows and its descriptive charts. */
function panelRoutes(scope: ServiceApp, db: RetractionDb): void {
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
        effects: '/api/democracy/effects/',
        model_diagnostics: '/api/democracy/model-diagnostics/',
        posterior_predictive: '/api/democracy/posterior-predictive/',
        methodology: '/api/democracy/methodology/',
        draws: '/api/democracy/draws/',
        models: '/api/democracy/models/',
        model_comparison: '/api/democracy/model-comparison/',
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
}

/** The model's results of the fit a request chooses (`source`), and the kept fits compared. */
function modelRoutes(scope: ServiceApp, db: RetractionDb): void {
  scope.get(
    '/api/democracy/statistical-results/',
    { schema: statisticalResultsSchema, config: modelConfig('statistical results') },
    async (request) => {
      const model = await servedModel(db, request.query.source);
      return {
        model: model.info,
        scale: SCALE_NOTE,
        uncertainty: MCSE_NOTE,
        predictors: model.fit ? model.fit.summaries.map(predictorBody) : [],
        hyperparameters: model.fit ? model.fit.hyperparameters.map(parameterBody) : [],
        effects: '/api/democracy/effects/',
        data_source: await dataSource(db, model.datasets),
      };
    },
  );

  scope.get('/api/democracy/effects/', { schema: effectsSchema, config: modelConfig('model effects') }, async (request) => {
    const model = await servedModel(db, request.query.source);
    const effects = model.fit?.effects ?? null;
    const group = request.query.group;
    return {
      model: model.info,
      description:
        effects || !model.fit ? EFFECTS_NOTE : `${EFFECTS_NOTE} This model does not report its effects (an imported published fit).`,
      country_effects: effects && group !== 'year' ? effects.country.map(effectBody) : [],
      year_effects: effects && group !== 'country' ? effects.year.map(effectBody) : [],
      data_source: await dataSource(db, model.datasets),
    };
  });

  scope.get(
    '/api/democracy/model-diagnostics/',
    { schema: modelDiagnosticsSchema, config: modelConfig('model diagnostics') },
    async (request) => {
      const model = await servedModel(db, request.query.source);
      const data_source = await dataSource(db, model.datasets);
      if (!model.fit)
        return {
          model: model.info,
          parameterisation: null,
          convergence: null,
          sampler: null,
          loo: null,
          waic: null,
          kfold: null,
          posterior_predictive: null,
          data: null,
          checks: null,
          timing: null,
          data_source,
        };
      return { model: model.info, ...diagnosticsBody(model.fit), data_source };
    },
  );

  scope.get(
    '/api/democracy/posterior-predictive/',
    { schema: posteriorPredictiveSchema, config: modelConfig('posterior predictive checks') },
    async (request) => {
      const model = await servedModel(db, request.query.source);
      const ppc = model.fit?.posteriorPredictive ?? null;
      return {
        model: model.info,
        description:
          model.fit && !ppc
            ? `${PREDICTIVE_NOTE} This model has no posterior predictive check (an imported fit has no draws).`
            : PREDICTIVE_NOTE,
        check: ppc ? predictiveBody(ppc) : null,
        data_source: await dataSource(db, model.datasets),
      };
    },
  );

  const FITS_DATASETS = [...PANEL_DATASETS, 'democracy-model-fit'];
  scope.get('/api/democracy/models/', { schema: modelsSchema, config: modelConfig('kept fits') }, async () => ({
    models: await listStoredFits(db),
    data_source: await dataSource(db, FITS_DATASETS),
  }));

  scope.get('/api/democracy/model-comparison/', { schema: modelComparisonSchema, config: modelConfig('model comparison') }, async () => ({
    ...(await compareStoredFits(db)),
    data_source: await dataSource(db, FITS_DATASETS),
  }));

  scope.get('/api/democracy/methodology/', { schema: methodologySchema, config: modelConfig('methodology') }, async (request) => {
    const model = await servedModel(db, request.query.source);
    return {
      model: model.info,
      data_source: await dataSource(db, model.datasets),
      methodology: model.fit ? methodologyBody(model.fit) : null,
    };
  });
}

/**
 * GET /api/democracy/draws/: registered in the export rate-limit group (a draws file is an export). Streams the
 * stored draws of the service's own fit as CSV or JSON; never cached (the kernel's response cache is for JSON).
 */
export function democracyDrawsRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  const { db } = ctx.state;
  scope.get('/api/democracy/draws/', { schema: drawsSchema, config: { operation: 'democracy draws' } }, async (request, reply) => {
    const format = request.query.format ?? 'json';
    const requested = (request.query.parameters ?? 'population').split(',');
    const model = await servedModel(db, 'fitted');
    const stored = model.fit ? await storedDraws(db) : null;
    // The draws and the fit are stored in one transaction with one data version; anything else is an older fit.
    if (!stored || stored.data_version !== model.info.data_version) {
      throw notFound(
        model.fit
          ? 'the stored fit has no draws (it was stored before draws were kept): run `pdi fit retraction` again'
          : 'no fitted model: run `pdi fit retraction` to fit the model to the imported panel',
        'NO_DRAWS',
      );
    }
    let indices: number[];
    try {
      indices = selectParameters(stored.table.names, requested);
    } catch (error) {
      throw badRequest(`parameters: ${(error as Error).message}`);
    }
    if (indices.length === 0) throw badRequest('parameters: name at least one parameter or group');
    const names = indices.map((i) => stored.table.names[i]);
    // Named over all stored names, so that a column keeps its name (and its _2 suffix) whatever else is selected.
    const allColumns = request.query.names === 'stan' ? stored.table.names : syntacticNames(stored.table.names);
    const columnNames = indices.map((i) => allColumns[i]);
    const generated = model.info.panel_generated === true;
    const filename = `democracy-draws${generated ? '-generated' : ''}-${stored.data_version}.${format}`;
    reply
      .header('content-type', EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', attachmentDisposition(filename))
      .header('cache-control', 'no-store')
      .header('x-data-kind', generated ? 'generated' : 'imported');
    const rows = drawRows(stored.table, indices);
    if (format === 'csv') {
      const columns = [...DRAW_INDEX_COLUMNS, ...columnNames].map((header, j) => ({ key: header, value: (row: number[]) => row[j] }));
      return reply.send(csvReadable(rows, { columns }) as never); // piped as it is
    }
    return reply.send(
      jsonReadable({
        head: {
          model: model.info,
          data_source: await dataSource(db, model.datasets),
          parameters: names,
          chains: stored.table.chains,
          draws_per_chain: stored.table.drawsPerChain,
          warmup: stored.table.warmup,
          columns: [...DRAW_INDEX_COLUMNS, ...columnNames],
        },
        arrayKey: 'draws',
        rows,
      }) as never,
    );
  });
}

/** GET /api/democracy/log-lik/: a kept fit's pointwise log-likelihood, streamed as CSV (export rate-limit group). */
export function democracyLogLikRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  const { db } = ctx.state;
  scope.get(
    '/api/democracy/log-lik/',
    { schema: logLikSchema, config: { operation: 'democracy log-likelihood', errors: [409] } },
    async (request, reply) => {
      const label = request.query.model;
      const logLik = await fitLogLik(db, label);
      const stan = logLik.observations.map((o) => `log_lik[${o.country},${o.year}]`);
      const names =
        request.query.names === 'stan' ? stan : syntacticNames(logLik.observations.map((o) => `log_lik_${o.country}_${o.year}`));
      const generated = logLik.entry.panel_is_demo;
      reply
        .header('content-type', EXPORT_CONTENT_TYPES.csv)
        .header('content-disposition', attachmentDisposition(`democracy-log-lik-${label}${generated ? '-generated' : ''}.csv`))
        .header('cache-control', 'no-store')
        .header('x-data-kind', generated ? 'generated' : 'imported');
      const columns = [...DRAW_INDEX_COLUMNS, ...names].map((header, j) => ({ key: header, value: (row: number[]) => row[j] }));
      return reply.send(csvReadable(logLik.rows(), { columns }) as never); // piped as it is
    },
  );
}
