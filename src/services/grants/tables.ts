// The grants table in one place: its stored columns, its secondary indexes and its substring index. The
// migration creates them from these lists and the importer drops and rebuilds the same secondary indexes
// around a bulk load, so the two can never drift apart.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dialectOf } from '../../core/db/dialect.ts';
import type { SubstringIndex } from '../../core/db/search-index.ts';

export const GRANTS_TABLE = 'grants_agreements';

/** Data columns written by the importer, in statement order (the table adds id and bookkeeping). */
export const DATA_COLUMNS = [
  'owner_org',
  'reference_number',
  'amendment_number',
  'amendment_date',
  'owner_org_title',
  'agreement_type',
  'recipient_type',
  'recipient_legal_name',
  'recipient_operating_name',
  'recipient_country',
  'recipient_province',
  'recipient_city_en',
  'recipient_postal_code',
  'program_name_en',
  'program_purpose_en',
  'agreement_title_en',
  'agreement_value_cents',
  'agreement_start_date',
  'agreement_end_date',
  'description_en',
  'naics_identifier',
  'naics_sector_en',
  'expected_results_en',
  'fiscal_year',
  'fiscal_year_start',
  'is_major_funding',
  'is_notable',
  'notable_reason',
  'notable_category',
  'notable_keyword',
] as const;
export type DataColumn = (typeof DATA_COLUMNS)[number];

/**
 * Secondary indexes: one per sort field, ending in id (the final tie-break of every order), and one per
 * equality filter that serves the default order (-agreement_value) directly. Sorting by fiscal year or province
 * orders by (field, agreement value, id), so the filter indexes serve those orders too. `is_major` needs no
 * index of its own: it is exactly agreement_value > $1,000,000, a range of the value index.
 */
export interface SecondaryIndex {
  name: string;
  columns: string[];
  /**
   * A nullable first column sorts its NULLs as the lowest value on both databases (SQLite's own rule); on
   * PostgreSQL the index says NULLS FIRST so that it still serves both directions of the order.
   */
  nullsFirst?: boolean;
}

export const SECONDARY_INDEXES: readonly SecondaryIndex[] = [
  { name: 'grants_agreements_value', columns: ['agreement_value_cents', 'id'] },
  { name: 'grants_agreements_start', columns: ['agreement_start_date', 'id'] },
  { name: 'grants_agreements_end', columns: ['agreement_end_date', 'id'], nullsFirst: true },
  { name: 'grants_agreements_recipient', columns: ['recipient_legal_name', 'id'] },
  { name: 'grants_agreements_program', columns: ['program_name_en', 'id'] },
  { name: 'grants_agreements_year_value', columns: ['fiscal_year', 'agreement_value_cents', 'id'] },
  { name: 'grants_agreements_province_value', columns: ['recipient_province', 'agreement_value_cents', 'id'] },
  { name: 'grants_agreements_type_value', columns: ['recipient_type', 'agreement_value_cents', 'id'] },
  { name: 'grants_agreements_notable_value', columns: ['is_notable', 'agreement_value_cents', 'id'] },
];

/** Indexes of earlier migrations that later designs made unnecessary. */
export const RETIRED_INDEXES: readonly string[] = ['grants_agreements_year', 'grants_agreements_province', 'grants_agreements_id_value'];

/**
 * `search` looks in four columns. Their distinct values are kept once each in a text dictionary
 * (grants_texts), which carries the substring index; each agreement holds the dictionary id of each of its
 * four values. The federal file repeats these texts heavily (program names, recipients, boilerplate
 * descriptions): on the generated 1.3-million-row file the dictionary holds 335,000 texts, 63 MB, against
 * 329 MB in the rows, so the index is five times smaller and faster to build, and a match is checked once per
 * distinct text instead of once per agreement.
 */
export const GRANTS_TEXTS_TABLE = 'grants_texts';

export const SEARCHED_COLUMNS = [
  { column: 'agreement_title_en', textId: 'title_text_id' },
  { column: 'recipient_legal_name', textId: 'recipient_text_id' },
  { column: 'description_en', textId: 'description_text_id' },
  { column: 'program_name_en', textId: 'program_text_id' },
] as const satisfies ReadonlyArray<{ column: DataColumn; textId: string }>;
export const TEXT_ID_COLUMNS = SEARCHED_COLUMNS.map((c) => c.textId);

/** `search`: a case-insensitive substring of one text of the dictionary. */
export const GRANTS_SEARCH: SubstringIndex = {
  name: 'grants_texts_search',
  table: GRANTS_TEXTS_TABLE,
  idColumn: 'id',
  columns: ['text'],
};

/** The per-row substring index of migrations 1–3, replaced by the dictionary's. */
export const RETIRED_SEARCH: SubstringIndex = {
  name: 'grants_agreements_text',
  table: GRANTS_TABLE,
  idColumn: 'id',
  columns: ['agreement_title_en', 'recipient_legal_name', 'description_en', 'program_name_en'],
};

export async function createSecondaryIndex(db: Kysely<any>, index: SecondaryIndex): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  const columns = index.columns.map((c, i) => (i === 0 && index.nullsFirst && pg ? `${c} NULLS FIRST` : c));
  await sql.raw(`CREATE INDEX IF NOT EXISTS ${index.name} ON ${GRANTS_TABLE} (${columns.join(', ')})`).execute(db);
}

export async function dropSecondaryIndex(db: Kysely<any>, index: SecondaryIndex): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS ${index.name}`).execute(db);
}
