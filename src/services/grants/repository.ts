// Every read of Service C: the search with its filters and orders, one grant by id, and the aggregates
// stored at import. Framework-free: routes, benchmarks and tests share it.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dbBool, dialectOf, num } from '../../core/db/dialect.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import type { StoredAggregate } from '../../core/db/datasets.ts';
import { substringMatch } from '../../core/db/search-index.ts';
import { MAJOR_FUNDING_THRESHOLD_CENTS } from './source/index.ts';
import type { AggregateName, GrantsAggregates, FilterCounts } from './statistics.ts';
import { GRANTS_SEARCH, GRANTS_TABLE } from './tables.ts';

/** Sort fields of /api/search/ (each also with a leading "-" for descending) and the column each orders by. */
export const SORT_COLUMNS = {
  agreement_value: 'agreement_value_cents',
  agreement_start_date: 'agreement_start_date',
  agreement_end_date: 'agreement_end_date',
  recipient_legal_name: 'recipient_legal_name',
  fiscal_year: 'fiscal_year',
  recipient_province: 'recipient_province',
  program_name_en: 'program_name_en',
  id: 'id',
} as const;
export type SortField = keyof typeof SORT_COLUMNS;
export const SORT_FIELDS = Object.keys(SORT_COLUMNS) as SortField[];
export const DEFAULT_SORT = '-agreement_value';

export interface SearchOrder {
  field: SortField;
  descending: boolean;
}

/** "-agreement_value" → {agreement_value, descending}; null for an unknown field. */
export function parseSort(text: string): SearchOrder | null {
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  return field in SORT_COLUMNS ? { field: field as SortField, descending } : null;
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

const RECORD_COLUMNS = [
  'id', 'reference_number', 'owner_org', 'owner_org_title', 'amendment_number', 'amendment_date', 'agreement_type', 'recipient_type',
  'recipient_legal_name', 'recipient_operating_name', 'recipient_country', 'recipient_province', 'recipient_city_en', 'recipient_postal_code',
  'agreement_title_en', 'agreement_value_cents', 'description_en', 'agreement_start_date', 'agreement_end_date', 'program_name_en',
  'program_purpose_en', 'naics_identifier', 'naics_sector_en', 'expected_results_en', 'fiscal_year', 'is_major_funding', 'is_notable', 'notable_reason',
] as const;

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

/** The count of a search with at most one equality filter, from the counts stored at import; else null. */
export function storedCount(filters: SearchFilters, counts: FilterCounts | null): number | null {
  if (!counts || filters.text !== undefined || filters.minCents !== undefined || filters.maxCents !== undefined) return null;
  const set = [filters.province, filters.fiscalYear, filters.recipientType, filters.isMajor, filters.isNotable].filter((v) => v !== undefined);
  if (set.length > 1) return null;
  if (filters.province !== undefined) return counts.province[filters.province] ?? 0;
  if (filters.fiscalYear !== undefined) return counts.fiscal_year[filters.fiscalYear] ?? 0;
  if (filters.recipientType !== undefined) return counts.recipient_type[filters.recipientType] ?? 0;
  if (filters.isMajor !== undefined) return counts.is_major[filters.isMajor ? 'true' : 'false'];
  if (filters.isNotable !== undefined) return counts.is_notable[filters.isNotable ? 'true' : 'false'];
  return counts.total;
}

export interface SearchResult {
  count: number;
  rows: GrantRow[];
}

export async function searchGrants(
  db: Kysely<any>,
  filters: SearchFilters,
  order: SearchOrder,
  page: { limit: number; offset: number },
  counts: FilterCounts | null = null,
): Promise<SearchResult> {
  let base = db.selectFrom(`${GRANTS_TABLE} as g`);
  if (filters.text !== undefined) base = base.where(substringMatch(db, GRANTS_SEARCH, filters.text, 'g'));
  if (filters.province !== undefined) base = base.where('g.recipient_province', '=', filters.province);
  if (filters.fiscalYear !== undefined) base = base.where('g.fiscal_year', '=', filters.fiscalYear);
  if (filters.recipientType !== undefined) base = base.where('g.recipient_type', '=', filters.recipientType);
  if (filters.minCents !== undefined) base = base.where('g.agreement_value_cents', '>=', filters.minCents);
  if (filters.maxCents !== undefined) base = base.where('g.agreement_value_cents', '<=', filters.maxCents);
  // is_major_funding is exactly "value over $1,000,000": as a range it is served by the value index.
  if (filters.isMajor !== undefined) base = base.where('g.agreement_value_cents', filters.isMajor ? '>' : '<=', MAJOR_FUNDING_THRESHOLD_CENTS);
  if (filters.isNotable !== undefined) base = base.where('g.is_notable', '=', dbBool(db, filters.isNotable));

  const count = storedCount(filters, counts) ?? num((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  if (count === 0 || page.offset >= count) return { count, rows: [] };

  const column = SORT_COLUMNS[order.field];
  const direction = order.descending ? 'desc' : 'asc';
  let query = base.select(RECORD_COLUMNS.map((c) => `g.${c}` as const));
  if (column !== 'id') {
    // NULLs (end dates only) sort as the lowest value on both databases, as SQLite does by itself.
    const nulls = column === 'agreement_end_date' && dialectOf(db) === 'postgres' ? (order.descending ? ' nulls last' : ' nulls first') : '';
    query = query.orderBy(sql.raw(`g.${column} ${direction}${nulls}`));
  }
  const rows = await query.orderBy('g.id', direction).limit(page.limit).offset(page.offset).execute();
  return { count, rows: rows.map(grantRow) };
}

export async function getGrant(db: Kysely<any>, id: number): Promise<GrantRow | null> {
  const row = await db.selectFrom(GRANTS_TABLE).select([...RECORD_COLUMNS]).where('id', '=', id).executeTakeFirst();
  return row ? grantRow(row) : null;
}

export async function readAggregate<N extends AggregateName>(db: Kysely<any>, name: N): Promise<StoredAggregate<GrantsAggregates[N]> | null> {
  return getAggregate<GrantsAggregates[N]>(db, 'grants', name);
}
