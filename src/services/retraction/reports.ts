// What the analytics and export endpoints answer, composed from the aggregates stored at import and the
// repository's reads. Framework-free: the routes parse the request, call one of these and return the result.
import type { RetractionDb } from './tables.ts';
import type { Readable } from 'node:stream';
import { notFound } from '../../core/http/errors.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { EXPORT_CONTENT_TYPES, csvChunks, csvReadable, jsonReadable, xlsxReadable } from '../../core/export/index.ts';
import { AGGREGATES, ANALYTICS_CSV_COLUMNS, analyticsCsvRows, postRetractionAnalytics, rate } from './aggregates.ts';
import type { AnalyticsTables, AnalyticsType, PostRetractionAnalytics, TimeFilter } from './aggregates.ts';
import { EXPORT_COLUMNS, EXPORT_ORDER, countPapers, dataSource, exportPapers, recentImports } from './repository.ts';
import type { ExportPaper } from './repository.ts';

/** The datasets behind the paper analytics and exports (the democracy panel is apart). */
export const PAPER_DATASETS = ['papers', 'citations'];

/** A stored aggregate of the current data version, or 404 NO_DATA before the first import. */
export async function storedAggregate<T>(db: RetractionDb, name: string): Promise<{ value: T; data_version: string; computed_at: string }> {
  const found = await getAggregate<T>(db, 'retraction', name);
  if (!found) throw notFound('no data imported yet: import the Retraction Watch CSV first', 'NO_DATA');
  return found;
}

export interface PostRetractionRequest {
  timeFilter: TimeFilter;
  journal?: string;
  subject?: string;
}

/** The unfiltered result is the one stored at import; a journal or subject filter is computed now. */
export async function postRetractionReport(db: RetractionDb, request: PostRetractionRequest) {
  const { timeFilter, journal, subject } = request;
  const precomputed = await storedAggregate<PostRetractionAnalytics>(db, AGGREGATES.postRetraction(timeFilter));
  let body = precomputed.value;
  let computedAt = precomputed.computed_at;
  if (journal || subject) {
    body = await postRetractionAnalytics(db, { timeFilter, journal, subject }, precomputed.value.filters.as_of);
    computedAt = new Date().toISOString();
  }
  return { ...body, computed_at: computedAt, data_source: await dataSource(db, PAPER_DATASETS) };
}

export async function analyticsDataReport(db: RetractionDb, type: AnalyticsType) {
  const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables);
  return {
    type,
    columns: ANALYTICS_CSV_COLUMNS[type],
    data: tables.value[type],
    computed_at: tables.computed_at,
    data_version: tables.data_version,
    data_source: await dataSource(db, PAPER_DATASETS),
  };
}

/** The flat CSV of one analytics-data type, whole (the tables are small). */
export async function analyticsDataCsv(db: RetractionDb, type: AnalyticsType): Promise<Buffer> {
  const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables);
  const chunks: Buffer[] = [];
  for await (const chunk of csvChunks(analyticsCsvRows(tables.value, type), { columns: ANALYTICS_CSV_COLUMNS[type] })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export async function realtimeReport(db: RetractionDb, now = new Date()) {
  const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables);
  const o = tables.value.overview;
  const runs = await recentImports(db, new Date(now.getTime() - 24 * 3600 * 1000).toISOString());
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
}

export const EXPORT_FORMATS = ['json', 'csv', 'excel'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface Download {
  contentType: string;
  filename: string;
  body: Readable;
}

/** The export as a stream: papers read in keyset pages while the client downloads. */
export async function exportDownload(db: RetractionDb, format: ExportFormat, limit: number, day = new Date()): Promise<Download> {
  const base = `retracted-papers-${day.toISOString().slice(0, 10)}-${limit}`;
  if (format === 'csv')
    return {
      contentType: EXPORT_CONTENT_TYPES.csv,
      filename: `${base}.csv`,
      body: csvReadable(exportPapers(db, limit), { columns: [...EXPORT_COLUMNS] }),
    };
  if (format === 'excel') {
    return {
      contentType: EXPORT_CONTENT_TYPES.xlsx,
      filename: `${base}.xlsx`,
      body: xlsxReadable(exportPapers(db, limit), {
        columns: EXPORT_COLUMNS.map((key) => ({ key, width: key === 'title' ? 60 : 18 })),
        sheetName: 'Retracted papers',
      }),
    };
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
  return {
    contentType: EXPORT_CONTENT_TYPES.json,
    filename: `${base}.json`,
    body: jsonReadable({
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
  };
}
