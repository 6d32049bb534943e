// The grants tables in one place, as Kysely sees them (`GrantsTables`): the agreements, derived from the record
// the importer reads (source/record.ts), the text dictionary and its substring index.
import type { Selectable } from 'kysely';
import type { SubstringIndex } from '../../core/db/search-index.ts';
import type { CoreTables, DbBoolean, DbId, DbInteger } from '../../core/db/tables.ts';
import type { GrantRecord } from './source/index.ts';
import type { InternationalAllocationsTable, InternationalProjectsTable } from './international/tables.ts';

export const GRANTS_TABLE = 'grants_agreements';

/**
 * The record's fields the importer writes, in statement order (the table adds id and bookkeeping). The
 * content hash reads the values in this order: reordering it would count every stored agreement as updated.
 */
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
  'owner_org_title_fr',
  'recipient_legal_name_fr',
  'recipient_operating_name_fr',
  'recipient_city_fr',
  'program_name_fr',
  'program_purpose_fr',
  'agreement_title_fr',
  'description_fr',
  'expected_results_fr',
] as const satisfies ReadonlyArray<keyof GrantRecord>;
export type DataColumn = (typeof DATA_COLUMNS)[number];

/**
 * Secondary indexes of earlier migrations (the last of them had nine). Searches are answered in memory since
 * migration 5 (see memory-search.ts), so building them would only lengthen every import.
 */
export const RETIRED_INDEXES: readonly string[] = [
  'grants_agreements_year',
  'grants_agreements_province',
  'grants_agreements_id_value',
  'grants_agreements_value',
  'grants_agreements_start',
  'grants_agreements_end',
  'grants_agreements_recipient',
  'grants_agreements_program',
  'grants_agreements_year_value',
  'grants_agreements_province_value',
  'grants_agreements_type_value',
  'grants_agreements_notable_value',
];

/**
 * `search` looks in eight columns (four texts, each in English and French). Their distinct values are kept once each in a text dictionary
 * (grants_texts), which carries the substring index; each agreement holds the dictionary id of each of its
 * four values (and, since migration 6, the rows hold only the ids). The federal file repeats these texts
 * heavily (program names, recipients, boilerplate descriptions): the dictionary is a fraction of the texts the
 * rows would hold, so the index is that much smaller and faster to build, and a match is checked once per
 * distinct text instead of once per agreement.
 */
export const GRANTS_TEXTS_TABLE = 'grants_texts';

export const SEARCHED_COLUMNS = [
  { column: 'agreement_title_en', textId: 'title_text_id' },
  { column: 'recipient_legal_name', textId: 'recipient_text_id' },
  { column: 'description_en', textId: 'description_text_id' },
  { column: 'program_name_en', textId: 'program_text_id' },
  // (since migration 8: the French texts)
  { column: 'agreement_title_fr', textId: 'title_fr_text_id' },
  { column: 'recipient_legal_name_fr', textId: 'recipient_fr_text_id' },
  { column: 'description_fr', textId: 'description_fr_text_id' },
  { column: 'program_name_fr', textId: 'program_fr_text_id' },
] as const satisfies ReadonlyArray<{ column: DataColumn; textId: string }>;
export type SearchedColumn = (typeof SEARCHED_COLUMNS)[number]['column'];
export type TextIdColumn = (typeof SEARCHED_COLUMNS)[number]['textId'];
export const TEXT_ID_COLUMNS: readonly TextIdColumn[] = SEARCHED_COLUMNS.map((c) => c.textId);

/** The data columns the agreements table holds: all but the searched texts. */
export type StoredColumn = Exclude<DataColumn, SearchedColumn>;
const SEARCHED = new Set<DataColumn>(SEARCHED_COLUMNS.map((c) => c.column));
/**
 * The searched texts are held by the dictionary only (the rows keep their ids; migration 6): the database of
 * the generated 1.3-million-row file is 641 MB instead of 937 MB, and the importer's upserts bind and write
 * that much less.
 */
export const STORED_COLUMNS: readonly StoredColumn[] = DATA_COLUMNS.filter((c): c is StoredColumn => !SEARCHED.has(c));

/**
 * A record's value as stored: booleans as 0/1 on SQLite, codes as text (the column holds what any importer
 * wrote, not only today's codes), cents as an integer both databases return as a number.
 */
type StoredValue<T> = T extends boolean ? DbBoolean : T extends string ? string : T;

/**
 * One row per agreement (owner_org, reference_number), holding its current amendment. Bookkeeping columns
 * make the import idempotent and countable: content_hash (the stored values), previous_hash (the values
 * before the running import touched the row) and import_version (the data version of the last import that
 * saw the agreement).
 */
type AgreementsTable = { [C in StoredColumn]: C extends 'agreement_value_cents' ? DbInteger : StoredValue<GrantRecord[C]> } & {
  [C in TextIdColumn]: number | null;
} & {
  id: DbId;
  content_hash: string;
  previous_hash: string | null;
  import_version: string;
};

/** The text dictionary: each distinct searched text once. */
interface TextsTable {
  id: DbId;
  text: string;
}

// A type alias, not an interface: Kysely's `withTables` needs an object type with an implicit index signature.
export type GrantsTables = {
  grants_agreements: AgreementsTable;
  grants_texts: TextsTable;
  grants_international_projects: InternationalProjectsTable;
  grants_international_allocations: InternationalAllocationsTable;
};
export type GrantsDatabase = CoreTables & GrantsTables;

/** A stored agreement as read. */
export type StoredAgreement = Selectable<AgreementsTable>;

/** `search`: a substring of one text of the dictionary, case and accents aside. */
export const GRANTS_SEARCH: SubstringIndex = {
  name: 'grants_texts_search',
  table: GRANTS_TEXTS_TABLE,
  idColumn: 'id',
  columns: ['text'],
  accents: 'fold',
};

/** The per-row substring index of migrations 1–3, replaced by the dictionary's. */
export const RETIRED_SEARCH: SubstringIndex = {
  name: 'grants_agreements_text',
  table: GRANTS_TABLE,
  idColumn: 'id',
  columns: ['agreement_title_en', 'recipient_legal_name', 'description_en', 'program_name_en'],
};
