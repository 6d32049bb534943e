// What the analytics and export endpoints answer, composed from the aggregates stored at import and the
// repository's reads. Framework-free: the routes parse the request, call one of these and return the result.
import type { RetractionDb } from './tables.ts';
import { Readable } from 'node:stream';
import { notFound } from '../../core/http/errors.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { EXPORT_CONTENT_TYPES, csvChunks, jsonReadable, xlsxReadable } from '../../core/export/index.ts';
import { exportCsvChunks } from './export-lines.ts';
import { AGGREGATES, ANALYTICS_CSV_COLUMNS, analyticsCsvRows, ensureAggregates } from './aggregates.ts';
import type { AnalyticsTables, AnalyticsType } from './aggregates.ts';
import { INDEX_AGGREGATE, rate } from './analytics-index.ts';
import type { PostRetractionAnalytics } from './analytics-index.ts';
import { NATURES, natureOf } from './nature.ts';
import type { Nature, NatureFilter } from './nature.ts';
import type { TimeFilter } from './windows.ts';
import { EXPORT_COLUMNS, EXPORT_ORDER, countPapers, dataSource, exportPapers, recentImports } from './repository.ts';
import type { ExportPaper } from './repository.ts';
import type { RetractionState } from './state.ts';

/** The datasets behind the paper analytics and exports (the democracy panel is apart). */
export const PAPER_DATASETS = ['papers', 'citations'];

/**
 * A stored aggregate of the current data version, or 404 NO_DATA before the first import. Data imported by an
 * older pdi has its aggregates computed on first use.
 */
export async function storedAggregate<T>(db: RetractionDb, name: string): Promise<{ value: T; data_version: string; computed_at: string }> {
  const found =
    (await getAggregate<T>(db, 'retraction', name)) ??
    ((await ensureAggregates(db)) ? await getAggregate<T>(db, 'retraction', name) : null);
  if (!found) throw notFound('no data imported yet: import the Retraction Watch CSV first', 'NO_DATA');
  return found;
}

export interface PostRetractionRequest {
  timeFilter: TimeFilter;
  nature: NatureFilter;
  journal?: string;
  subject?: string;
}

/** Unfiltered results were stored at import; a journal or subject filter is answered from the in-memory index. */
export async function postRetractionReport(state: RetractionState, request: PostRetractionRequest) {
  const { db, analyticsIndex } = state;
  const { timeFilter, nature, journal, subject } = request;
  let body: PostRetractionAnalytics;
  let computedAt: string;
  if (journal || subject) {
    const meta = await storedAggregate<unknown>(db, INDEX_AGGREGATE);
    const index = await analyticsIndex.get(db, meta.data_version);
    body = await index.analytics(db, { timeFilter, nature, journal, subject });
    computedAt = new Date().toISOString();
  } else {
    const precomputed = await storedAggregate<PostRetractionAnalytics>(db, AGGREGATES.postRetraction(timeFilter, nature));
    body = precomputed.value;
    computedAt = precomputed.computed_at;
  }
  return { ...body, computed_at: computedAt, data_source: await dataSource(db, PAPER_DATASETS) };
}

export async function analyticsDataReport(db: RetractionDb, type: AnalyticsType, nature: NatureFilter) {
  const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables(nature));
  return {
    type,
    nature,
    columns: ANALYTICS_CSV_COLUMNS[type],
    data: tables.value[type],
    computed_at: tables.computed_at,
    data_version: tables.data_version,
    data_source: await dataSource(db, PAPER_DATASETS),
  };
}

/** The flat CSV of one analytics-data type, whole (the tables are small). */
export async function analyticsDataCsv(db: RetractionDb, type: AnalyticsType, nature: NatureFilter): Promise<Buffer> {
  const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables(nature));
  const chunks: Buffer[] = [];
  for await (const chunk of csvChunks(analyticsCsvRows(tables.value, type), { columns: ANALYTICS_CSV_COLUMNS[type] })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Totals count retracted papers (nature Retraction) and their citations; by_nature gives every kind. */
export async function realtimeReport(db: RetractionDb, now = new Date()) {
  const tables = await storedAggregate<AnalyticsTables>(db, AGGREGATES.tables('retraction'));
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
    by_nature: o.by_nature,
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

export type ExportFormat = 'json' | 'csv' | 'excel';

export interface Download {
  contentType: string;
  filename: string;
  body: Readable;
}

export interface ExportRequest {
  format: ExportFormat;
  limit: number;
  /** Which kind of notice (`all`: every record, each with its retraction_nature). */
  nature: NatureFilter;
}

/** A download of papers as an Excel sheet, one column per key (titles wide, the rest narrow). */
export function excelDownload<Row extends object>(
  base: string,
  rows: AsyncIterable<Row>,
  columns: readonly (keyof Row & string)[],
  sheetName: string,
): Download {
  return {
    contentType: EXPORT_CONTENT_TYPES.xlsx,
    filename: `${base}.xlsx`,
    body: xlsxReadable(rows, { columns: columns.map((key) => ({ key, width: key === 'title' ? 60 : 18 })), sheetName }),
  };
}

/** The export as a stream: papers read in keyset pages while the client downloads. */
export async function exportDownload(
  state: RetractionState,
  request: ExportRequest,
  day = new Date(),
  dataVersion: string | null = null,
): Promise<Download> {
  const { format, limit, nature } = request;
  const { db, exportLines } = state;
  const base = `retracted-papers-${day.toISOString().slice(0, 10)}${nature === 'all' ? '' : `-${nature}`}-${limit}`;
  const papers = () => exportPapers(db, limit, { nature });
  if (format === 'csv') {
    await exportLines.ensure(db);
    return {
      contentType: EXPORT_CONTENT_TYPES.csv,
      filename: `${base}.csv`,
      body: Readable.from(exportCsvChunks(db, limit, { nature, held: exportLines, dataVersion }), { objectMode: false }),
    };
  }
  if (format === 'excel') return excelDownload(base, papers(), EXPORT_COLUMNS, 'Retracted papers');
  const totals = { total: 0, post: 0 };
  const perNature = new Map<Nature, { papers: number; total: number; post: number }>(
    NATURES.map((n) => [n, { papers: 0, total: 0, post: 0 }]),
  );
  async function* counted(): AsyncGenerator<ExportPaper> {
    for await (const paper of papers()) {
      totals.total += paper.total_citations;
      totals.post += paper.post_retraction_citations;
      const kind = perNature.get(natureOf(paper.retraction_nature))!;
      kind.papers++;
      kind.total += paper.total_citations;
      kind.post += paper.post_retraction_citations;
      yield paper;
    }
  }
  const source = await dataSource(db, PAPER_DATASETS);
  const available = await countPapers(db, nature);
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
          nature,
          papers_available: available,
          order: EXPORT_ORDER,
          total_citations: totals.total,
          post_retraction_citations: totals.post,
          post_retraction_percentage: totals.total > 0 ? Math.round((10000 * totals.post) / totals.total) / 100 : null,
          by_nature: NATURES.map((n) => {
            const k = perNature.get(n)!;
            return { nature: n, papers: k.papers, total_citations: k.total, post_retraction_citations: k.post };
          }),
          generated_at: new Date().toISOString(),
          data_source: source,
        },
      }),
    }),
  };
}
