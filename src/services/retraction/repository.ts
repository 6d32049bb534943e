// Every read of Service E that is not a precomputed aggregate: the autocomplete, one paper's citations, the
// export's keyset pages, the democracy raw data, recent imports and the data-source label. Framework-free.
import { sql } from 'kysely';
import type { SqlBool } from 'kysely';
import type { Static } from 'typebox';
import path from 'node:path';
import { dialectOf, escapeLike, foldAccents, foldCase, num, readJson, textPosition } from '../../core/db/dialect.ts';
import { listDataVersions } from '../../core/db/datasets.ts';
import { accentExactRank, substringMatch } from '../../core/db/search-index.ts';
import { PAPER_SEARCH } from './search.ts';
import { doiKey } from './sources/fields.ts';
import type { Nature, NatureFilter } from './nature.ts';
import { zeroTiming } from './windows.ts';
import type { TimingBucket } from './windows.ts';
import type { PaperRow, RetractionDb } from './tables.ts';
import type { Suggestion as SuggestionSchema } from './schemas/search.ts';
import type { PaperCitationsBody } from './schemas/papers.ts';

// ---------------------------------------------------------------- autocomplete

const AUTOCOMPLETE_LIMIT = 10;

export type Suggestion = Static<typeof SuggestionSchema>;

/** A query written as a DOI (or a DOI's beginning): `10.` and a registrant code, with any URL or `doi:` prefix removed. */
export function doiQuery(q: string): string | null {
  const bare = q.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '');
  return /^10\.\d{4,9}(?:\/|$)/.test(bare) ? doiKey(bare) : null;
}

const SUGGESTION_COLUMNS = ['p.record_id', 'p.title', 'p.journal', 'p.author', 'p.retraction_date'] as const;
type SuggestionRow = Omit<Suggestion, 'post_retraction_citations'> & { post: number | string | bigint };

function suggestion(r: SuggestionRow): Suggestion {
  return {
    record_id: r.record_id,
    title: r.title,
    journal: r.journal,
    author: r.author,
    retraction_date: r.retraction_date,
    post_retraction_citations: num(r.post),
  };
}

/**
 * Papers whose title, authors or DOI contain `q` (case-insensitive, through the substring index), best match
 * first. "Best" is the first rule that holds, in this order:
 *   0 the DOI is q;  1 the title is q;  2 the title starts with q;  3 a word of the title starts with q;
 *   4 the title contains q;  5 an author's name (or a part of it) starts with q;  6 the authors contain q;
 *   7 the DOI contains q.
 * Within a rule: more post-retraction citations first, then the more recent retraction, then the row id.
 * A q written as a DOI or the start of one (10.NNNN…, also as a doi.org URL or doi:…) is looked up among DOIs
 * only: the DOI equal to q, then DOIs starting with q in alphabetical order (an index range), then DOIs
 * containing q — so that a common prefix such as "10.1016/j." does not rank thousands of papers.
 */
export async function autocomplete(db: RetractionDb, q: string, limit = AUTOCOMPLETE_LIMIT): Promise<Suggestion[]> {
  const doi = doiQuery(q);
  if (doi) return doiSuggestions(db, doi, limit);
  const rows = await db
    .selectFrom('retraction_papers as p')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
    .select([...SUGGESTION_COLUMNS, sql<number>`coalesce(k.post, 0)`.as('post'), matchRank(db, q).as('rank')])
    .where(substringMatch(db, PAPER_SEARCH, foldAccents(q.trim()), 'p'))
    .orderBy('rank')
    .orderBy(accentExactRank(db, PAPER_SEARCH, q, 'p'))
    .orderBy('post', 'desc')
    .orderBy('p.retraction_sort', 'desc')
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.map(suggestion);
}

/** The rule (0–7, see autocomplete) by which a paper aliased `p` matches a text query; the search ranks by it too. */
export function matchRank(db: RetractionDb, q: string) {
  const needle = foldAccents(q.trim());
  const length = [...needle].length;
  const titleFold = sql.ref('p.title_fold');
  const authorFold = sql.ref('p.author_fold');
  const rank = sql<number>`CASE
    WHEN p.doi_key = ${needle} THEN 0
    WHEN p.title_fold = ${needle} THEN 1
    WHEN substr(p.title_fold, 1, ${length}) = ${needle} THEN 2
    WHEN ${textPosition(db, titleFold, ' ' + needle)} > 0 THEN 3
    WHEN ${textPosition(db, titleFold, needle)} > 0 THEN 4
    WHEN substr(p.author_fold, 1, ${length}) = ${needle} OR ${textPosition(db, authorFold, ' ' + needle)} > 0 THEN 5
    WHEN ${textPosition(db, authorFold, needle)} > 0 THEN 6
    ELSE 7 END`;
  return rank;
}

/** DOI-shaped queries: exact and prefix matches by index range, then other DOIs containing q. */
async function doiSuggestions(db: RetractionDb, doi: string, limit: number): Promise<Suggestion[]> {
  const sqlite = dialectOf(db) === 'sqlite';
  // SQLite: a range on the (binary-collated) index; PostgreSQL: LIKE 'prefix%' on its text_pattern_ops index.
  const prefix = sqlite
    ? sql<SqlBool>`p.doi_key >= ${doi} AND p.doi_key < ${doi + '\u{10FFFF}'}`
    : sql<SqlBool>`p.doi_key LIKE ${escapeLike(doi) + '%'} ESCAPE '\\'`;
  const order = sqlite ? sql`p.doi_key` : sql`p.doi_key COLLATE "C"`;
  const head = await db
    .selectFrom('retraction_papers as p')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
    .select([...SUGGESTION_COLUMNS, sql<number>`coalesce(k.post, 0)`.as('post')])
    .where(prefix)
    .orderBy(order)
    .orderBy('p.id')
    .limit(limit)
    .execute();
  if (head.length >= limit || [...doi].length < 3) return head.map(suggestion);
  const tail = await db
    .selectFrom('retraction_papers as p')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
    .select([...SUGGESTION_COLUMNS, sql<number>`coalesce(k.post, 0)`.as('post')])
    .where(substringMatch(db, PAPER_SEARCH, doi, 'p'))
    .where(sql<SqlBool>`${textPosition(db, sql.ref('p.doi_key'), doi)} > 1`)
    .orderBy('post', 'desc')
    .orderBy('p.retraction_sort', 'desc')
    .orderBy('p.id')
    .limit(limit - head.length)
    .execute();
  return [...head, ...tail].map(suggestion);
}

/** The baseline the benchmark compares with: the same three columns scanned with LIKE, no index, no ranking. */
export async function unindexedScan(db: RetractionDb, q: string, limit = AUTOCOMPLETE_LIMIT): Promise<string[]> {
  const pattern = `%${foldCase(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: string) => sql<SqlBool>`lower(${sql.ref(column)}) LIKE ${pattern} ESCAPE '\\'`;
  const rows = await db
    .selectFrom('retraction_papers')
    .select('record_id')
    .where((eb) => eb.or([like('title'), like('author'), like('original_paper_doi')]))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.record_id);
}

// ---------------------------------------------------------------- one paper

export type PaperCitations = Static<typeof PaperCitationsBody>;

export async function paperCitations(db: RetractionDb, recordId: string): Promise<PaperCitations | null> {
  const paper = await db
    .selectFrom('retraction_papers')
    .select([
      'id',
      'record_id',
      'title',
      'journal',
      'retraction_date',
      'original_paper_date',
      'original_paper_doi',
      'retraction_nature',
      'nature',
      'is_demo',
    ])
    .where('record_id', '=', recordId)
    .executeTakeFirst();
  if (!paper) return null;
  const kind = sql<
    'undated' | 'pre' | 'same_day' | TimingBucket
  >`CASE WHEN days_after IS NULL THEN 'undated' WHEN days_after < 0 THEN 'pre' WHEN days_after = 0 THEN 'same_day'
    WHEN days_after <= 30 THEN 'within_30_days' WHEN days_after <= 365 THEN 'within_1_year' WHEN days_after <= 730 THEN 'within_2_years' ELSE 'after_2_years' END`;
  const groups = await db
    .selectFrom('retraction_citations')
    .select(['citing_year', kind.as('kind'), (eb) => eb.fn.countAll().as('n')])
    .where('paper_id', '=', paper.id)
    .groupBy(['citing_year', kind])
    .execute();
  const result: PaperCitations = {
    record_id: paper.record_id,
    total_citations: 0,
    post_retraction_count: 0,
    pre_retraction_count: 0,
    same_day_count: 0,
    undated_count: 0,
    citations_by_year: {},
    post_retraction_by_year: {},
    post_retraction_timing: zeroTiming(),
    paper: {
      title: paper.title,
      journal: paper.journal,
      retraction_date: paper.retraction_date,
      original_paper_date: paper.original_paper_date,
      doi: paper.original_paper_doi,
      retraction_nature: paper.retraction_nature,
      nature: paper.nature,
      is_demo: Boolean(paper.is_demo),
    },
  };
  const byYear = new Map<number, number>();
  const postByYear = new Map<number, number>();
  for (const g of groups) {
    const n = num(g.n);
    const k = g.kind;
    result.total_citations += n;
    if (g.citing_year !== null) byYear.set(Number(g.citing_year), (byYear.get(Number(g.citing_year)) ?? 0) + n);
    if (k === 'undated') result.undated_count += n;
    else if (k === 'pre') result.pre_retraction_count += n;
    else if (k === 'same_day') result.same_day_count += n;
    else {
      result.post_retraction_count += n;
      result.post_retraction_timing[k] += n;
      if (g.citing_year !== null) postByYear.set(Number(g.citing_year), (postByYear.get(Number(g.citing_year)) ?? 0) + n);
    }
  }
  const asObject = (m: Map<number, number>) =>
    Object.fromEntries([...m.entries()].sort((a, b) => a[0] - b[0]).map(([y, n]) => [String(y), n]));
  result.citations_by_year = asObject(byYear);
  result.post_retraction_by_year = asObject(postByYear);
  return result;
}

// ---------------------------------------------------------------- export

export { EXPORT_COLUMNS, EXPORT_ORDER } from './paper-fields.ts';
export type { ExportPaper } from './paper-fields.ts';
import { SERVED_COLUMNS, exportPaperFrom } from './paper-fields.ts';
import type { ExportPaper, ServedColumn } from './paper-fields.ts';

/** The columns of an exported paper (papers `p`, their counts `k`): the export and the record search read the same. */
export function exportPaperColumns() {
  return [
    'p.id',
    'p.retraction_sort',
    'p.nature',
    ...SERVED_COLUMNS.map((column) => `p.${column}` as const),
    sql<number>`coalesce(k.total, 0)`.as('total'),
    sql<number>`coalesce(k.post, 0)`.as('post'),
  ] as const;
}

/** A row of `exportPaperColumns()` as the exports write it. */
export function exportPaperOf(r: Pick<PaperRow, ServedColumn> & { total: unknown; post: unknown }): ExportPaper {
  return exportPaperFrom(r, num(r.total), num(r.post));
}

/** A paper in export order, with where it sits in that order (for keyset pages and the stored CSV lines). */
export interface ExportRow {
  id: number;
  sort: string;
  nature: Nature;
  paper: ExportPaper;
}

/**
 * Up to `limit` papers in export order, read in keyset pages of `pageSize` rows, so at most one page is in
 * memory whatever the limit; a slow consumer holds the next page back.
 */
export async function* exportRows(
  db: RetractionDb,
  limit: number,
  options: { pageSize?: number; nature?: NatureFilter } = {},
): AsyncGenerator<ExportRow, void, undefined> {
  const pageSize = options.pageSize ?? 500;
  const nature = options.nature ?? 'all';
  let after: { sort: string; id: number } | null = null;
  let remaining = limit;
  while (remaining > 0) {
    let query = db
      .selectFrom('retraction_papers as p')
      .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
      .select(exportPaperColumns())
      .orderBy('p.retraction_sort', 'desc')
      .orderBy('p.id')
      .limit(Math.min(pageSize, remaining));
    if (nature !== 'all') query = query.where('p.nature', '=', nature);
    if (after) {
      const { sort, id } = after;
      // sort ≤ last bounds an index range (the scan starts at the last page's end, not at the top); the rest
      // skips the rows of that same day already sent.
      query = query.where('p.retraction_sort', '<=', sort).where((eb) => eb.or([eb('p.retraction_sort', '<', sort), eb('p.id', '>', id)]));
    }
    const page = await query.execute();
    for (const r of page) {
      yield {
        id: Number(r.id),
        sort: r.retraction_sort,
        nature: r.nature,
        paper: exportPaperOf(r),
      };
    }
    remaining -= page.length;
    if (page.length === 0) return;
    const last = page[page.length - 1];
    after = { sort: last.retraction_sort, id: Number(last.id) };
  }
}

/** Up to `limit` papers in export order (see exportRows). */
export async function* exportPapers(
  db: RetractionDb,
  limit: number,
  options: { pageSize?: number; nature?: NatureFilter } = {},
): AsyncGenerator<ExportPaper, void, undefined> {
  for await (const row of exportRows(db, limit, options)) yield row.paper;
}

export async function countPapers(db: RetractionDb, nature: NatureFilter = 'all'): Promise<number> {
  let query = db.selectFrom('retraction_papers').select((eb) => eb.fn.countAll().as('n'));
  if (nature !== 'all') query = query.where('nature', '=', nature);
  return num((await query.executeTakeFirstOrThrow()).n);
}

// ---------------------------------------------------------------- democracy raw data

export interface PanelQuery {
  country?: string;
  year?: number;
  limit: number;
}

/** `country` matches an ISO3 code exactly or the country name as a case-insensitive substring. */
export async function panelRows(db: RetractionDb, query: PanelQuery) {
  let base = db.selectFrom('retraction_panel');
  if (query.country) {
    const folded = foldCase(query.country);
    const iso = query.country.toUpperCase();
    base = base.where((eb) => eb.or([eb('iso3', '=', iso), eb(textPosition(db, sql.ref('country_fold'), folded), '>', 0)]));
  }
  if (query.year !== undefined) base = base.where('year', '=', query.year);
  const total = num((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .select(['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions', 'covariates', 'is_demo'])
    .orderBy('country')
    .orderBy('year')
    .orderBy('id')
    .limit(query.limit)
    .execute();
  return {
    total,
    rows: rows.map((r) => {
      const publications = r.publications === null ? null : Number(r.publications);
      const retractions = r.retractions === null ? null : Number(r.retractions);
      return {
        country: r.country,
        iso3: r.iso3,
        region: r.region,
        year: Number(r.year),
        democracy_index: r.democracy_index === null ? null : Number(r.democracy_index),
        publications,
        retractions,
        retractions_per_1000_publications:
          publications && retractions !== null ? Math.round((1e7 * retractions) / publications) / 1e4 : null,
        covariates: readJson<Record<string, number | null>>(r.covariates),
        is_demo: Boolean(r.is_demo),
      };
    }),
  };
}

// ---------------------------------------------------------------- provenance and imports

export interface DataSourceLabel {
  /** generated: every dataset is generated demo data; imported: none is; mixed: some are; none: no data. */
  kind: 'generated' | 'imported' | 'mixed' | 'none';
  is_demo: boolean;
  description: string;
  datasets: { dataset: string; source: string | null; is_demo: boolean; imported_at: string; data_version: string }[];
}

export async function dataSource(db: RetractionDb, datasets?: readonly string[]): Promise<DataSourceLabel> {
  const versions = (await listDataVersions(db, 'retraction')).filter((v) => !datasets || datasets.includes(v.dataset));
  const list = versions.map((v) => ({
    dataset: v.dataset,
    // The file name only: server paths are nobody's business.
    source: v.source === null ? null : path.basename(v.source),
    is_demo: v.is_demo,
    imported_at: v.imported_at,
    data_version: v.version,
  }));
  const demo = list.filter((d) => d.is_demo).length;
  const kind = list.length === 0 ? 'none' : demo === list.length ? 'generated' : demo === 0 ? 'imported' : 'mixed';
  const description = {
    none: 'no data imported yet',
    generated: 'GENERATED demo data (self-written titles, names and counts; not real retractions or citations)',
    imported: 'imported data',
    mixed: 'partly GENERATED demo data: see is_demo of each dataset',
  }[kind];
  return { kind, is_demo: demo > 0, description, datasets: list };
}

export async function recentImports(db: RetractionDb, since: string) {
  const rows = await db
    .selectFrom('import_runs')
    .select(['importer', 'source', 'status', 'started_at', 'finished_at', 'report'])
    .where('service', '=', 'retraction')
    .where('started_at', '>=', since)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map((r) => {
    const report = r.report === null ? null : readJson<Record<string, unknown>>(r.report);
    const n = (key: string) => (report && typeof report[key] === 'number' ? (report[key] as number) : null);
    return {
      importer: r.importer,
      dataset: report && typeof report.dataset === 'string' ? report.dataset : null,
      source: r.source === null ? null : path.basename(r.source),
      status: r.status,
      started_at: r.started_at,
      finished_at: r.finished_at,
      rows_read: n('rows_read'),
      inserted: n('inserted'),
      updated: n('updated'),
      deleted: n('deleted'),
      skipped: n('skipped'),
    };
  });
}
