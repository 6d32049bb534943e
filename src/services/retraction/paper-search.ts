// The search of Retraction Watch records with filters: a text query (title, authors, DOI, ranked as the
// autocomplete ranks), journal, subject, country and reason (parts of the text, accents and case folded as the
// autocomplete folds them), the kind of notice, and date ranges of the notice and of the original paper. One page of
// results with facets for the API and the page; the same rows, streamed, for the export of a search. Framework-free.
import { sql } from 'kysely';
import type { Expression, RawBuilder, SqlBool } from 'kysely';
import { containsText, foldAccents, num, textPosition } from '../../core/db/dialect.ts';
import { accentExactRank, substringMatch } from '../../core/db/search-index.ts';
import { badRequest } from '../../core/http/errors.ts';
import { parseDate } from '../../core/http/params.ts';
import { EXPORT_CONTENT_TYPES, csvReadable, jsonReadable } from '../../core/export/index.ts';
import { PAPER_SEARCH } from './search.ts';
import { EXPORT_COLUMNS, dataSource, doiQuery, exportPaperColumns, exportPaperOf, matchRank } from './repository.ts';
import type { ExportPaper } from './repository.ts';
import { NATURES } from './nature.ts';
import type { Nature, NatureFilter } from './nature.ts';
import type { RetractionDb } from './tables.ts';
import { PAPER_DATASETS, excelDownload } from './answers.ts';
import type { Download, ExportFormat } from './answers.ts';

import { FACET_SIZE, SEARCH_MIN_QUERY, SEARCH_ORDER } from './search-limits.ts';
export { SEARCH_MAX_LIMIT, SEARCH_MIN_QUERY } from './search-limits.ts';

export const TEXT_FILTERS = ['journal', 'subject', 'country', 'reason'] as const;
type TextFilter = (typeof TEXT_FILTERS)[number];
export const DATE_FILTERS = ['retracted_from', 'retracted_to', 'published_from', 'published_to'] as const;
type DateFilter = (typeof DATE_FILTERS)[number];

export type SearchFilters = { q?: string; nature: NatureFilter } & { [K in TextFilter]?: string } & { [K in DateFilter]?: string };

/** The query parameters as they came (absent or blank: no filter). */
export type RawFilters = { q?: string; nature?: NatureFilter } & { [K in TextFilter | DateFilter]?: string };

/** Trimmed filters, checked: q of at least 3 characters, real dates, ranges that do not end before they start (else 400). */
export function checkFilters(raw: RawFilters): SearchFilters {
  const clean = (v: string | undefined) => {
    const t = v?.normalize('NFC').trim();
    return t ? t : undefined;
  };
  const filters: SearchFilters = { nature: raw.nature ?? 'all' };
  const q = clean(raw.q);
  if (q !== undefined) {
    const length = [...q].length;
    if (length < SEARCH_MIN_QUERY)
      throw badRequest(`q must be at least ${SEARCH_MIN_QUERY} characters long after trimming spaces (got ${length})`);
    filters.q = q;
  }
  for (const name of TEXT_FILTERS) {
    const value = clean(raw[name]);
    if (value !== undefined) filters[name] = value;
  }
  for (const name of DATE_FILTERS) {
    const value = clean(raw[name]);
    if (value === undefined) continue;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw badRequest(`${name} must be a date in the form YYYY-MM-DD`);
    filters[name] = parseDate(value, name);
  }
  for (const [from, to] of [
    ['retracted_from', 'retracted_to'],
    ['published_from', 'published_to'],
  ] as const) {
    const a = filters[from];
    const b = filters[to];
    if (a && b && a > b) throw badRequest(`${from} (${a}) must not be after ${to} (${b})`);
  }
  return filters;
}

/** The filters that are set, as query parameters (for links and the echo of the API). */
export function filterParams(filters: SearchFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (filters.q) out.q = filters.q;
  for (const name of TEXT_FILTERS) if (filters[name]) out[name] = filters[name];
  if (filters.nature !== 'all') out.nature = filters.nature;
  for (const name of DATE_FILTERS) if (filters[name]) out[name] = filters[name];
  return out;
}

const TEXT_COLUMNS: Record<TextFilter, string> = { journal: 'p.journal', subject: 'p.subject', country: 'p.country', reason: 'p.reason' };

/** Above this many matching values a filter is matched row by row instead of through an IN list. */
const MAX_LISTED_VALUES = 2000;

/**
 * The distinct values of a short-vocabulary column that contain the text (accents and case folded in JavaScript, once
 * per value), so that the filter is an indexed IN list instead of a fold of every row; null when too many match.
 */
async function valuesContaining(db: RetractionDb, filter: 'journal' | 'subject' | 'country', text: string): Promise<string[] | null> {
  const needle = foldAccents(text);
  const rows =
    filter === 'journal'
      ? await db.selectFrom('retraction_papers').select('journal as value').distinct().where('journal', 'is not', null).execute()
      : filter === 'subject'
        ? await db.selectFrom('retraction_paper_subjects').select('subject as value').distinct().execute()
        : await db.selectFrom('retraction_paper_countries').select('country as value').distinct().execute();
  const found = rows.map((r) => r.value as string).filter((v) => foldAccents(v).includes(needle));
  return found.length > MAX_LISTED_VALUES ? null : found;
}

/** The filters as conditions on `retraction_papers as p`. */
async function conditions(db: RetractionDb, f: SearchFilters): Promise<RawBuilder<SqlBool>[]> {
  const out: RawBuilder<SqlBool>[] = [];
  if (f.q) {
    const doi = doiQuery(f.q);
    out.push(
      doi
        ? sql<SqlBool>`${textPosition(db, sql.ref('p.doi_key'), doi)} > 0`
        : substringMatch(db, PAPER_SEARCH, foldAccents(f.q.trim()), 'p'),
    );
  }
  for (const name of TEXT_FILTERS) {
    const value = f[name];
    if (!value) continue;
    const listed = name === 'reason' ? null : await valuesContaining(db, name, value);
    if (listed === null) out.push(containsText(db, sql.ref(TEXT_COLUMNS[name]), value, 'fold'));
    else if (listed.length === 0) out.push(sql<SqlBool>`1 = 0`);
    else if (name === 'journal') out.push(sql<SqlBool>`p.journal IN (${sql.join(listed)})`);
    else {
      // A subject or country of the record (its child rows, indexed by value), not a part of the joined text.
      const child = name === 'subject' ? sql`retraction_paper_subjects` : sql`retraction_paper_countries`;
      out.push(sql<SqlBool>`p.id IN (SELECT c.paper_id FROM ${child} c WHERE c.${sql.ref(name)} IN (${sql.join(listed)}))`);
    }
  }
  if (f.nature !== 'all') out.push(sql<SqlBool>`p.nature = ${f.nature}`);
  // Stored dates are YYYY-MM-DD, so string order is date order; a record without the date is outside any range.
  if (f.retracted_from) out.push(sql<SqlBool>`p.retraction_date >= ${f.retracted_from}`);
  if (f.retracted_to) out.push(sql<SqlBool>`p.retraction_date <= ${f.retracted_to}`);
  if (f.published_from) out.push(sql<SqlBool>`p.original_paper_date >= ${f.published_from}`);
  if (f.published_to) out.push(sql<SqlBool>`p.original_paper_date <= ${f.published_to}`);
  return out;
}

const whereAll = (conds: RawBuilder<SqlBool>[]): Expression<SqlBool> =>
  conds.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.join(conds, sql` AND `)}`;

export type SearchResult = ExportPaper & { nature: Nature };

/** The matching records in SEARCH_ORDER, `limit` from `offset`. */
async function searchRows(
  db: RetractionDb,
  f: SearchFilters,
  where: Expression<SqlBool>,
  offset: number,
  limit: number,
): Promise<SearchResult[]> {
  let query = db
    .selectFrom('retraction_papers as p')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
    .select(exportPaperColumns())
    .where(where);
  const doi = f.q ? doiQuery(f.q) : null;
  if (doi) query = query.orderBy(sql`CASE WHEN p.doi_key = ${doi} THEN 0 ELSE 1 END`).orderBy('p.doi_key');
  else if (f.q)
    query = query
      .orderBy(matchRank(db, f.q))
      .orderBy(accentExactRank(db, PAPER_SEARCH, f.q, 'p'))
      .orderBy('post', 'desc');
  const rows = await query.orderBy('p.retraction_sort', 'desc').orderBy('p.id').limit(limit).offset(offset).execute();
  return rows.map((r) => ({ ...exportPaperOf(r), nature: r.nature }));
}

/** The filters as one condition on `retraction_papers as p`. */
async function searchWhere(db: RetractionDb, f: SearchFilters): Promise<Expression<SqlBool>> {
  return whereAll(await conditions(db, f));
}

export async function countMatches(db: RetractionDb, f: SearchFilters, where?: Expression<SqlBool>): Promise<number> {
  const row = await db
    .selectFrom('retraction_papers as p')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(where ?? (await searchWhere(db, f)))
    .executeTakeFirstOrThrow();
  return num(row.n);
}

export interface FacetValue {
  value: string;
  count: number;
}
export interface Facets {
  nature: FacetValue[];
  journal: FacetValue[];
  subject: FacetValue[];
  country: FacetValue[];
}

/** The most frequent journals, subjects and countries of the matching records, and every kind of notice among them. */
async function facets(db: RetractionDb, where: Expression<SqlBool>): Promise<Facets> {
  const natureRows = await db
    .selectFrom('retraction_papers as p')
    .select(['p.nature as value', (eb) => eb.fn.countAll().as('n')])
    .where(where)
    .groupBy('p.nature')
    .execute();
  const journalRows = await db
    .selectFrom('retraction_papers as p')
    .select(['p.journal as value', (eb) => eb.fn.countAll().as('n')])
    .where(where)
    .where('p.journal', 'is not', null)
    .groupBy('p.journal')
    .orderBy('n', 'desc')
    .orderBy('p.journal')
    .limit(FACET_SIZE)
    .execute();
  const subjectRows = await db
    .selectFrom('retraction_paper_subjects as s')
    .innerJoin('retraction_papers as p', 'p.id', 's.paper_id')
    .select(['s.subject as value', (eb) => eb.fn.countAll().as('n')])
    .where(where)
    .groupBy('s.subject')
    .orderBy('n', 'desc')
    .orderBy('s.subject')
    .limit(FACET_SIZE)
    .execute();
  const countryRows = await db
    .selectFrom('retraction_paper_countries as c')
    .innerJoin('retraction_papers as p', 'p.id', 'c.paper_id')
    .select(['c.country as value', (eb) => eb.fn.countAll().as('n')])
    .where(where)
    .groupBy('c.country')
    .orderBy('n', 'desc')
    .orderBy('c.country')
    .limit(FACET_SIZE)
    .execute();
  const list = (rows: Array<{ value: string | null; n: unknown }>) =>
    rows.filter((r) => r.value !== null).map((r) => ({ value: r.value as string, count: num(r.n) }));
  const byNature = new Map(natureRows.map((r) => [r.value, num(r.n)]));
  return {
    nature: NATURES.map((n) => ({ value: n, count: byNature.get(n) ?? 0 })),
    journal: list(journalRows),
    subject: list(subjectRows),
    country: list(countryRows),
  };
}

export interface SearchPage {
  filters: Record<string, string>;
  order: string;
  page: number;
  limit: number;
  total: number;
  total_pages: number;
  results: SearchResult[];
  facets: Facets;
}

/** One page of the search. A page past the last is empty, not an error. */
export async function searchPapers(db: RetractionDb, f: SearchFilters, page: number, limit: number): Promise<SearchPage> {
  const where = await searchWhere(db, f);
  const total = await countMatches(db, f, where);
  return {
    filters: { ...filterParams(f), nature: f.nature },
    order: SEARCH_ORDER,
    page,
    limit,
    total,
    total_pages: Math.max(1, Math.ceil(total / limit)),
    results: total > (page - 1) * limit ? await searchRows(db, f, where, (page - 1) * limit, limit) : [],
    facets: await facets(db, where),
  };
}

/** Up to `limit` matching records in SEARCH_ORDER, read `pageSize` at a time while the client downloads. */
async function* searchExportRows(db: RetractionDb, f: SearchFilters, limit: number, pageSize = 500): AsyncGenerator<SearchResult> {
  const where = await searchWhere(db, f);
  for (let offset = 0; offset < limit; offset += pageSize) {
    const rows = await searchRows(db, f, where, offset, Math.min(pageSize, limit - offset));
    yield* rows;
    if (rows.length < Math.min(pageSize, limit - offset)) return;
  }
}

/** The columns of the search export: the export's, and the kind of notice in pdi's words. */
const SEARCH_EXPORT_COLUMNS = [...EXPORT_COLUMNS, 'nature'] as const;

/** A search result as a streamed download, in the formats and under the row cap of /api/export/. */
export async function searchDownload(
  db: RetractionDb,
  f: SearchFilters,
  format: ExportFormat,
  limit: number,
  day = new Date(),
): Promise<Download> {
  const base = `retraction-search-${day.toISOString().slice(0, 10)}-${limit}`;
  const rows = () => searchExportRows(db, f, limit);
  if (format === 'csv')
    return {
      contentType: EXPORT_CONTENT_TYPES.csv,
      filename: `${base}.csv`,
      body: csvReadable(rows(), { columns: SEARCH_EXPORT_COLUMNS }),
    };
  if (format === 'excel') return excelDownload(base, rows(), SEARCH_EXPORT_COLUMNS, 'Search results');
  const matching = await countMatches(db, f);
  const source = await dataSource(db, PAPER_DATASETS);
  return {
    contentType: EXPORT_CONTENT_TYPES.json,
    filename: `${base}.json`,
    body: jsonReadable({
      head: { filters: { ...filterParams(f), nature: f.nature } },
      arrayKey: 'papers',
      rows: rows(),
      tail: ({ rowCount }) => ({
        search: {
          exported_papers: rowCount,
          matching_papers: matching,
          limit,
          order: SEARCH_ORDER,
          generated_at: new Date().toISOString(),
          data_source: source,
        },
      }),
    }),
  };
}
