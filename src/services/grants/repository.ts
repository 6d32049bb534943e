// Every read of Service C: the search with its filters and orders, one grant by id, and the aggregates
// stored at import. Framework-free: routes, benchmarks and tests share it.
import { sql } from 'kysely';
import type { AliasedRawBuilder, Kysely, RawBuilder, SelectQueryBuilder } from 'kysely';
import { num } from '../../core/db/dialect.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import type { StoredAggregate } from '../../core/db/datasets.ts';
import type { AggregateName, GrantsAggregates } from './statistics.ts';
import type { MemorySearch } from './memory-search.ts';
import { GRANTS_TABLE, GRANTS_TEXTS_TABLE, SEARCHED_COLUMNS } from './tables.ts';

/**
 * Sort fields of /api/search/ (each also with a leading "-" for descending): the columns each orders by, then
 * id in the same direction. Fiscal year and province order by value within a year or province.
 */
export const SORT_ORDERS = {
  agreement_value: { columns: ['agreement_value_cents'] },
  agreement_start_date: { columns: ['agreement_start_date'] },
  agreement_end_date: { columns: ['agreement_end_date'] },
  recipient_legal_name: { columns: ['recipient_legal_name'] },
  fiscal_year: { columns: ['fiscal_year', 'agreement_value_cents'] },
  recipient_province: { columns: ['recipient_province', 'agreement_value_cents'] },
  program_name_en: { columns: ['program_name_en'] },
  id: { columns: [] },
} as const satisfies Record<string, { columns: readonly string[] }>;
export type SortField = keyof typeof SORT_ORDERS;
export const SORT_FIELDS = Object.keys(SORT_ORDERS) as SortField[];
export const DEFAULT_SORT = '-agreement_value';

export interface SearchOrder {
  field: SortField;
  descending: boolean;
}

/** "-agreement_value" → {agreement_value, descending}; null for an unknown field. */
export function parseSort(text: string): SearchOrder | null {
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  return field in SORT_ORDERS ? { field: field as SortField, descending } : null;
}

export interface SearchFilters {
  /** Substring of title, recipient, description or program (case-insensitive). */
  text?: string;
  province?: string;
  fiscalYear?: string;
  /** Inclusive bounds in cents. */
  minCents?: number;
  maxCents?: number;
  recipientType?: string;
  isMajor?: boolean;
  isNotable?: boolean;
}

export interface GrantRow {
  id: number;
  reference_number: string;
  owner_org: string;
  owner_org_title: string;
  amendment_number: number;
  amendment_date: string | null;
  agreement_type: string;
  recipient_type: string;
  recipient_legal_name: string;
  recipient_operating_name: string;
  recipient_country: string;
  recipient_province: string;
  recipient_city_en: string;
  recipient_postal_code: string;
  agreement_title_en: string;
  agreement_value: number;
  description_en: string;
  agreement_start_date: string;
  agreement_end_date: string | null;
  program_name_en: string;
  program_purpose_en: string;
  naics_identifier: string;
  naics_sector_en: string;
  expected_results_en: string;
  fiscal_year: string;
  is_major_funding: boolean;
  is_notable: boolean;
  notable_reason: string;
}

export type SearchedColumn = (typeof SEARCHED_COLUMNS)[number]['column'];
const ALL_TEXTS = SEARCHED_COLUMNS.map((c) => c.column);

/**
 * The agreements table (as `g`) with the dictionary's texts of `columns` joined by their ids, and the select
 * expressions naming each text after its column ('' for a missing text).
 */
export function agreementsWithTexts(
  db: Kysely<any>,
  columns: readonly SearchedColumn[] = ALL_TEXTS,
): { query: SelectQueryBuilder<any, any, {}>; texts: Array<AliasedRawBuilder<string, SearchedColumn>> } {
  let query = db.selectFrom(`${GRANTS_TABLE} as g`) as SelectQueryBuilder<any, any, {}>;
  const texts = columns.map((column) => {
    const alias = textAlias(column);
    query = query.leftJoin(
      `${GRANTS_TEXTS_TABLE} as ${alias}`,
      `${alias}.id`,
      `g.${SEARCHED_COLUMNS.find((c) => c.column === column)!.textId}`,
    );
    return textOf(column).as(column);
  });
  return { query, texts };
}

const textAlias = (column: SearchedColumn): string => `text_of_${column}`;

/** The text of `column` in a query of agreementsWithTexts that joined it (to order by, say). */
export function textOf(column: SearchedColumn): RawBuilder<string> {
  return sql<string>`coalesce(${sql.ref(`${textAlias(column)}.text`)}, '')`;
}

const RECORD_COLUMNS = [
  'id',
  'reference_number',
  'owner_org',
  'owner_org_title',
  'amendment_number',
  'amendment_date',
  'agreement_type',
  'recipient_type',
  'recipient_operating_name',
  'recipient_country',
  'recipient_province',
  'recipient_city_en',
  'recipient_postal_code',
  'agreement_value_cents',
  'agreement_start_date',
  'agreement_end_date',
  'program_purpose_en',
  'naics_identifier',
  'naics_sector_en',
  'expected_results_en',
  'fiscal_year',
  'is_major_funding',
  'is_notable',
  'notable_reason',
].map((c) => `g.${c}`);

function selectRecords(db: Kysely<any>): SelectQueryBuilder<any, any, Record<string, any>> {
  const { query, texts } = agreementsWithTexts(db);
  return query.select([...RECORD_COLUMNS, ...texts] as any);
}

function grantRow(r: Record<string, any>): GrantRow {
  return {
    id: Number(r.id),
    reference_number: r.reference_number,
    owner_org: r.owner_org,
    owner_org_title: r.owner_org_title,
    amendment_number: Number(r.amendment_number),
    amendment_date: r.amendment_date ?? null,
    agreement_type: r.agreement_type,
    recipient_type: r.recipient_type,
    recipient_legal_name: r.recipient_legal_name,
    recipient_operating_name: r.recipient_operating_name,
    recipient_country: r.recipient_country,
    recipient_province: r.recipient_province,
    recipient_city_en: r.recipient_city_en,
    recipient_postal_code: r.recipient_postal_code,
    agreement_title_en: r.agreement_title_en,
    agreement_value: num(r.agreement_value_cents) / 100,
    description_en: r.description_en,
    agreement_start_date: r.agreement_start_date,
    agreement_end_date: r.agreement_end_date ?? null,
    program_name_en: r.program_name_en,
    program_purpose_en: r.program_purpose_en,
    naics_identifier: r.naics_identifier,
    naics_sector_en: r.naics_sector_en,
    expected_results_en: r.expected_results_en,
    fiscal_year: r.fiscal_year,
    is_major_funding: Boolean(r.is_major_funding),
    is_notable: Boolean(r.is_notable),
    notable_reason: r.notable_reason,
  };
}

export interface SearchResult {
  count: number;
  rows: GrantRow[];
}

/** A search: counted and paged in memory (see memory-search.ts), then the page's rows read by id. */
export async function searchGrants(
  db: Kysely<any>,
  memory: MemorySearch,
  filters: SearchFilters,
  order: SearchOrder,
  page: { limit: number; offset: number },
): Promise<SearchResult> {
  const { count, ids } = await memory.search(filters, order, page);
  return { count, rows: await grantsByIds(db, ids) };
}

/** Rows by id, in the order of `ids`. */
export async function grantsByIds(db: Kysely<any>, ids: number[]): Promise<GrantRow[]> {
  if (ids.length === 0) return [];
  const rows = await selectRecords(db).where('g.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [grantRow(row)] : []; // a row an import deleted after the count
  });
}

export async function getGrant(db: Kysely<any>, id: number): Promise<GrantRow | null> {
  const row = await selectRecords(db).where('g.id', '=', id).executeTakeFirst();
  return row ? grantRow(row) : null;
}

export async function readAggregate<N extends AggregateName>(
  db: Kysely<any>,
  name: N,
): Promise<StoredAggregate<GrantsAggregates[N]> | null> {
  return getAggregate<GrantsAggregates[N]>(db, 'grants', name);
}
