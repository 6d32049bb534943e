// Service E routes: the five endpoints of the specification and the seven further ones of the contract, in
// three rate-limit groups (general 100, export 10, analytics 50 requests per client per minute).
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { badRequest, notFound } from '../../core/http/errors.ts';
import { clampLimit, cleanText } from '../../core/http/params.ts';
import { rateLimitedGroup } from '../../core/http/rate-limit.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import {
  EXPORT_CONTENT_TYPES,
  attachmentDisposition,
  csvReadable,
  csvChunks,
  jsonReadable,
  xlsxReadable,
} from '../../core/export/index.ts';
import { AGGREGATES, ANALYTICS_CSV_COLUMNS, analyticsCsvRows, postRetractionAnalytics, rate } from './analytics.ts';
import type { AnalyticsTables, AnalyticsType, PostRetractionAnalytics, TimeFilter } from './analytics.ts';
import { PANEL_AGGREGATES } from './democracy.ts';
import type { DemocracyVisualizations, PanelSummary } from './democracy.ts';
import {
  PANEL_DATASET,
  SCALE_NOTE,
  diagnosticsBody,
  methodologyBody,
  parameterBody,
  predictorBody,
  servedModel,
} from './democracy-model.ts';
import type { ModelSource } from './democracy-model.ts';
import {
  EXPORT_COLUMNS,
  EXPORT_ORDER,
  autocomplete,
  countPapers,
  dataSource,
  exportPapers,
  panelRows,
  paperCitations,
  recentImports,
} from './repository.ts';
import type { ExportPaper } from './repository.ts';
import * as S from './schemas.ts';

export const RATE_LIMITS = { general: 100, export: 10, analytics: 50 } as const;
export const MIN_QUERY_LENGTH = 3;
const REALTIME_CACHE_SECONDS = 60;
const PAPER_DATASETS = ['papers', 'citations'];
const PANEL_DATASETS = [PANEL_DATASET];

async function stored<T>(db: Kysely<any>, name: string): Promise<{ value: T; data_version: string; computed_at: string }> {
  const found = await getAggregate<T>(db, 'retraction', name);
  if (!found) throw notFound('no data imported yet: import the Retraction Watch CSV first', 'NO_DATA');
  return found;
}

function sendDownload(reply: FastifyReply, type: string, filename: string, body: unknown) {
  reply.header('content-type', type).header('content-disposition', attachmentDisposition(filename)).header('cache-control', 'no-store');
  return reply.send(body);
}

export async function retractionRoutes(app: ServiceApp, ctx: ServiceContext): Promise<void> {
  const db = ctx.db.kysely;

  await rateLimitedGroup(app, ctx, { name: 'general', max: RATE_LIMITS.general }, (scope) => {
    scope.get(
      '/api/search-autocomplete/',
      {
        schema: {
          summary: 'Search suggestions for retracted papers',
          description:
            `\`q\` (trimmed, at least ${MIN_QUERY_LENGTH} characters) is looked for in titles, author names and DOIs, case-insensitively, through a substring index. ` +
            'At most 10 suggestions, best match first: exact DOI, exact title, title starting with q, a title word starting with q, title containing q, ' +
            'an author name starting with q, authors containing q, DOI containing q; ties by more post-retraction citations, then the more recent retraction. ' +
            'A DOI URL (https://doi.org/…) is searched as the bare DOI.',
          querystring: S.AutocompleteQuery,
          response: { 200: S.AutocompleteBody },
        },
        config: { operation: 'search autocomplete', responseCache: true },
      },
      async (request) => {
        const q = cleanText(request.query.q) ?? '';
        const length = [...q].length;
        if (length < MIN_QUERY_LENGTH)
          throw badRequest(`q must be at least ${MIN_QUERY_LENGTH} characters long after trimming spaces (got ${length})`);
        return { suggestions: await autocomplete(db, q) };
      },
    );

    scope.get(
      '/api/paper/:record_id/citations/',
      {
        schema: {
          summary: "A retracted paper's citations, before and after its retraction",
          description:
            "A citation is post-retraction when the citing work's date is after the retraction date; the same day is not post. Citing dates known only to the month or year " +
            'stand for the first day of that period, so post-retraction citations are never over-counted. Timing buckets (days after the retraction): within_30_days 1–30, ' +
            'within_1_year 31–365, within_2_years 366–730, after_2_years over 730. Unknown record → 404 PAPER_NOT_FOUND.',
          params: S.PaperParams,
          response: { 200: S.PaperCitationsBody },
        },
        config: { operation: 'paper citations', responseCache: true },
      },
      async (request) => {
        const result = await paperCitations(db, request.params.record_id.trim());
        if (!result) throw notFound(`paper ${request.params.record_id} not found`, 'PAPER_NOT_FOUND');
        return result;
      },
    );
  });

  await rateLimitedGroup(app, ctx, { name: 'export', max: RATE_LIMITS.export }, (scope) => {
    scope.get(
      '/api/export/',
      {
        schema: {
          summary: 'Download retracted papers with their citation counts',
          description:
            `Streamed download of up to \`limit\` papers (default ${S.EXPORT_DEFAULT_LIMIT}; values above ${S.EXPORT_MAX_LIMIT} are reduced to ${S.EXPORT_MAX_LIMIT}), ${EXPORT_ORDER}. ` +
            `json: {papers:[…], analytics:{…}}; csv and excel (.xlsx): one row per paper. Columns: ${EXPORT_COLUMNS.join(', ')}. ` +
            'post_retraction_percentage is 100 × post / total (empty when a paper has no citations). CSV cells that begin with =, +, -, @, tab or CR get a leading apostrophe.',
          querystring: S.ExportQuery,
          response: { 200: S.ExportBody },
        },
        config: { operation: 'export' },
      },
      async (request, reply) => {
        const format = request.query.format ?? 'json';
        const limit = clampLimit(request.query.limit, S.EXPORT_MAX_LIMIT);
        const day = new Date().toISOString().slice(0, 10);
        const base = `retracted-papers-${day}-${limit}`;
        if (format === 'csv')
          return sendDownload(
            reply,
            EXPORT_CONTENT_TYPES.csv,
            `${base}.csv`,
            csvReadable(exportPapers(db, limit), { columns: [...EXPORT_COLUMNS] }),
          );
        if (format === 'excel') {
          return sendDownload(
            reply,
            EXPORT_CONTENT_TYPES.xlsx,
            `${base}.xlsx`,
            xlsxReadable(exportPapers(db, limit), {
              columns: EXPORT_COLUMNS.map((key) => ({ key, width: key === 'title' ? 60 : 18 })),
              sheetName: 'Retracted papers',
            }),
          );
        }
        const totals = { total: 0, post: 0 };
        async function* counted(): AsyncGenerator<ExportPaper> {
          for await (const paper of exportPapers(db, limit)) {
            totals.total += paper.total_citations;
            totals.post += paper.post_retraction_citations;
            yield paper;
          }
        }
        const source = await dataSource(db, PAPER_DATASETS);
        const available = await countPapers(db);
        return sendDownload(
          reply,
          EXPORT_CONTENT_TYPES.json,
          `${base}.json`,
          jsonReadable({
            arrayKey: 'papers',
            rows: counted(),
            tail: ({ rowCount }) => ({
              analytics: {
                exported_papers: rowCount,
                limit,
                papers_available: available,
                order: EXPORT_ORDER,
                total_citations: totals.total,
                post_retraction_citations: totals.post,
                post_retraction_percentage: totals.total > 0 ? Math.round((10000 * totals.post) / totals.total) / 100 : null,
                generated_at: new Date().toISOString(),
                data_source: source,
              },
            }),
          }),
        );
      },
    );
  });

  await rateLimitedGroup(app, ctx, { name: 'analytics', max: RATE_LIMITS.analytics }, (scope) => {
    scope.get(
      '/api/post-retraction-analytics/',
      {
        schema: {
          summary: 'How retracted papers go on being cited',
          description:
            '`time_filter` keeps citations whose citing date lies within the last 1, 3 or 5 years up to as_of (the latest citing date in the data, capped at the import day); ' +
            '`journal` and `subject` keep papers whose journal or one of whose subjects contains the text (case-insensitive). Unfiltered results are computed at import.',
          querystring: S.PostRetractionQuery,
          response: { 200: S.PostRetractionBody },
        },
        config: { operation: 'post-retraction analytics', responseCache: true },
      },
      async (request) => {
        const timeFilter: TimeFilter = request.query.time_filter ?? 'all';
        const journal = cleanText(request.query.journal);
        const subject = cleanText(request.query.subject);
        const precomputed = await stored<PostRetractionAnalytics>(db, AGGREGATES.postRetraction(timeFilter));
        let body = precomputed.value;
        let computedAt = precomputed.computed_at;
        if (journal || subject) {
          body = await postRetractionAnalytics(db, { timeFilter, journal, subject }, precomputed.value.filters.as_of);
          computedAt = new Date().toISOString();
        }
        return { ...body, computed_at: computedAt, data_source: await dataSource(db, PAPER_DATASETS) };
      },
    );

    scope.get(
      '/api/analytics-data/',
      {
        schema: {
          summary: 'Analytics tables for charts, as JSON or CSV',
          description:
            'type overview: totals (CSV: metric,value); trends: retractions per year of retraction (year,retractions); citations: citations per citing year ' +
            '(year,total,pre_retraction,same_day,post_retraction); subjects: per subject (subject,papers,total_citations,post_retraction_citations); geographic: per country ' +
            '(country,papers,total_citations,post_retraction_citations). A paper with several subjects or countries counts in each. `chart` is the old name of `type`. Computed at import.',
          querystring: S.AnalyticsDataQuery,
          response: { 200: S.AnalyticsDataBody },
        },
        config: { operation: 'analytics data', responseCache: true },
      },
      async (request, reply) => {
        const { type, chart } = request.query;
        if (type && chart && type !== chart)
          throw badRequest(`type and chart (its old name) disagree: "${type}" and "${chart}"; send one of them`);
        const which: AnalyticsType = type ?? chart ?? 'overview';
        const tables = await stored<AnalyticsTables>(db, AGGREGATES.tables);
        if (request.query.format === 'csv') {
          const chunks: Buffer[] = [];
          for await (const chunk of csvChunks(analyticsCsvRows(tables.value, which), { columns: ANALYTICS_CSV_COLUMNS[which] }))
            chunks.push(chunk);
          reply
            .header('content-type', EXPORT_CONTENT_TYPES.csv)
            .header('content-disposition', `inline; filename="retraction-analytics-${which}.csv"`);
          return reply.send(Buffer.concat(chunks) as never); // bytes are sent as they are, not serialised
        }
        return {
          type: which,
          columns: ANALYTICS_CSV_COLUMNS[which],
          data: tables.value[which],
          computed_at: tables.computed_at,
          data_version: tables.data_version,
          data_source: await dataSource(db, PAPER_DATASETS),
        };
      },
    );

    scope.get(
      '/api/analytics-realtime/',
      {
        schema: {
          summary: 'Dashboard figures: totals, recent imports, citation timing',
          description:
            'Totals and the citation timing split (as of the last import), the import runs of the last 24 hours and when the data last changed. Cached for 60 seconds.',
          response: { 200: S.RealtimeBody },
        },
        config: { operation: 'realtime analytics', cacheSeconds: REALTIME_CACHE_SECONDS },
      },
      async () => {
        const tables = await stored<AnalyticsTables>(db, AGGREGATES.tables);
        const o = tables.value.overview;
        const runs = await recentImports(db, new Date(Date.now() - 24 * 3600 * 1000).toISOString());
        const source = await dataSource(db);
        const last =
          source.datasets
            .map((d) => d.imported_at)
            .sort()
            .pop() ?? null;
        return {
          totals: {
            papers: o.total_papers,
            citations: o.total_citations,
            post_retraction_citations: o.post_retraction_citations,
            post_retraction_rate: rate(o.post_retraction_citations, o.total_citations),
            journals: o.journals,
            countries: o.countries,
          },
          imports_last_24_hours: {
            count: runs.length,
            succeeded: runs.filter((r) => r.status === 'succeeded').length,
            failed: runs.filter((r) => r.status === 'failed').length,
            runs,
          },
          citation_timing: {
            pre_retraction: o.pre_retraction_citations,
            same_day: o.same_day_citations,
            post_retraction: o.post_retraction_citations,
            undated: o.undated_citations,
            post_retraction_by_delay: { ...o.post_retraction_timing },
          },
          last_updated: last,
          generated_at: new Date().toISOString(),
          data_source: source,
        };
      },
    );

    const modelConfig = (operation: string) => ({ operation, responseCache: true });

    scope.get(
      '/api/democracy/overview/',
      {
        schema: {
          summary: 'Democracy and retractions: the panel and the headline result',
          description:
            'The imported country-year panel in brief, which model is served (fitted by this service, imported, or not fitted yet) and its democracy coefficient.',
          response: { 200: S.OverviewBody },
        },
        config: modelConfig('democracy overview'),
      },
      async () => {
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
      },
    );

    scope.get(
      '/api/democracy/raw-data/',
      {
        schema: {
          summary: 'The democracy country-year panel',
          description: `Rows ordered by country, then year. \`country\`: an ISO3 code, or part of the country name (case-insensitive). \`limit\` default ${S.RAW_DATA_DEFAULT_LIMIT}, values above ${S.RAW_DATA_MAX_LIMIT} reduced to ${S.RAW_DATA_MAX_LIMIT}; \`total\` counts every matching row.`,
          querystring: S.RawDataQuery,
          response: { 200: S.RawDataBody },
        },
        config: modelConfig('democracy raw data'),
      },
      async (request) => {
        const country = cleanText(request.query.country);
        const limit = clampLimit(request.query.limit, S.RAW_DATA_MAX_LIMIT);
        const { rows, total } = await panelRows(db, { country, year: request.query.year, limit });
        return {
          count: rows.length,
          total,
          limit,
          filters: { country: country ?? null, year: request.query.year ?? null },
          data: rows,
          data_source: await dataSource(db, PANEL_DATASETS),
        };
      },
    );

    scope.get(
      '/api/democracy/visualizations/',
      {
        schema: {
          summary: 'Chart data: democracy against retraction rates',
          description:
            'scatter: one point per country (mean democracy index, retractions per 1,000 publications pooled over its years) with Pearson r (Fisher-z 95% interval) and Spearman rho; ' +
            'temporal_trends per year; regional_summary per region; world_map per ISO3 code (latest democracy index, totals). Descriptive, computed at import.',
          response: { 200: S.VisualizationsBody },
        },
        config: modelConfig('democracy visualizations'),
      },
      async () => {
        const found = await getAggregate<DemocracyVisualizations>(db, 'retraction', PANEL_AGGREGATES.visualizations);
        if (!found) throw notFound('no democracy panel imported yet', 'NO_DATA');
        return { ...found.value, computed_at: found.computed_at, data_source: await dataSource(db, PANEL_DATASETS) };
      },
    );

    scope.get(
      '/api/democracy/statistical-results/',
      {
        schema: {
          summary: 'Posterior summaries of the model coefficients',
          description: `Per predictor: posterior mean, sd, median, 95% credible interval, rate ratio with its interval, P(β>0), P(β<0) and a plain-language interpretation. ${SCALE_NOTE}`,
          querystring: S.ModelQuery,
          response: { 200: S.StatisticalResultsBody },
        },
        config: modelConfig('statistical results'),
      },
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
      {
        schema: {
          summary: 'Convergence and fit diagnostics of the model',
          description:
            'Rank-normalised split R-hat (max), bulk and tail ESS (min), ESS ratio, divergences, chains, iterations, warmup, PSIS-LOO (elpd, p_loo, looic, Pareto k counts), ' +
            'sample size, countries, years and sampler time, as numbers (null where an imported fit does not report them).',
          querystring: S.ModelQuery,
          response: { 200: S.DiagnosticsBody },
        },
        config: modelConfig('model diagnostics'),
      },
      async (request) => {
        const model = await servedModel(db, request.query.source as ModelSource | undefined);
        if (!model.fit) return { model: model.info, convergence: null, sampler: null, loo: null, data: null, checks: null, timing: null };
        return { model: model.info, ...diagnosticsBody(model.fit) };
      },
    );

    scope.get(
      '/api/democracy/methodology/',
      {
        schema: {
          summary: 'How the model is specified and fitted',
          description:
            'Model, priors, sampler settings, variables, data sources, data accounting, diagnostics and limitations, rendered from the configuration the stored fit used.',
          querystring: S.ModelQuery,
          response: { 200: S.MethodologyBody },
        },
        config: modelConfig('methodology'),
      },
      async (request) => {
        const model = await servedModel(db, request.query.source as ModelSource | undefined);
        return { model: model.info, methodology: model.fit ? methodologyBody(model.fit) : null };
      },
    );
  });
}
