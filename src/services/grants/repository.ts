// Every read of Service C but the search's (search/): grants by id, with their texts in a language, and the
// aggregates stored at import. Framework-free: routes, benchmarks and tests share it.
import { sql } from 'kysely';
import type { Kysely, RawBuilder } from 'kysely';
import { getAggregate } from '../../core/db/datasets.ts';
import type { StoredAggregate } from '../../core/db/datasets.ts';
import type { AggregateName, GrantsAggregates, StoredCalculator } from './aggregates.ts';
import type { FrenchTexts } from './calculator/index.ts';
import { calculatorIds } from './import/tracker.ts';
import { inLanguage, notableInLanguage, sectorInLanguage } from './language.ts';
import type { GrantsLanguage } from './language.ts';
import { GrantRecord } from './schemas/grant.ts';
import type { Grant } from './schemas/grant.ts';
import { STORED_COLUMNS } from './tables.ts';
import type { GrantsDatabase, SearchedColumn, StoredAgreement } from './tables.ts';

/** The alias of each searched text's dictionary row in `agreementsWithTexts`. */
const TEXT_ALIASES = {
  agreement_title_en: 'title',
  recipient_legal_name: 'recipient',
  description_en: 'description',
  program_name_en: 'program',
  agreement_title_fr: 'title_fr',
  recipient_legal_name_fr: 'recipient_fr',
  description_fr: 'description_fr',
  program_name_fr: 'program_fr',
} as const satisfies Record<SearchedColumn, string>;

/**
 * The agreements table (as `g`) with the dictionary's text of each searched column joined by its id (as
 * title, recipient, description and program): select a text with `textOf`. A join whose text is not used
 * costs nothing (SQLite and PostgreSQL drop a LEFT JOIN on a unique key that nothing reads).
 */
export function agreementsWithTexts(db: Kysely<GrantsDatabase>) {
  return db
    .selectFrom('grants_agreements as g')
    .leftJoin('grants_texts as title', 'title.id', 'g.title_text_id')
    .leftJoin('grants_texts as recipient', 'recipient.id', 'g.recipient_text_id')
    .leftJoin('grants_texts as description', 'description.id', 'g.description_text_id')
    .leftJoin('grants_texts as program', 'program.id', 'g.program_text_id')
    .leftJoin('grants_texts as title_fr', 'title_fr.id', 'g.title_fr_text_id')
    .leftJoin('grants_texts as recipient_fr', 'recipient_fr.id', 'g.recipient_fr_text_id')
    .leftJoin('grants_texts as description_fr', 'description_fr.id', 'g.description_fr_text_id')
    .leftJoin('grants_texts as program_fr', 'program_fr.id', 'g.program_fr_text_id');
}

/** The text of `column` in a query of agreementsWithTexts ('' for a missing text): select it `.as(column)`, or order by it. */
export function textOf(column: SearchedColumn): RawBuilder<string> {
  return sql<string>`coalesce(${sql.ref(`${TEXT_ALIASES[column]}.text`)}, '')`;
}

/** The searched texts of a query of agreementsWithTexts, each named after its column. */
export function textsOf<C extends SearchedColumn>(columns: readonly C[]) {
  return columns.map((column) => textOf(column).as(column));
}

/** A grant's fields that the agreements table holds as they are served (derived from the response schema). */
type PlainField = Exclude<keyof Grant & keyof StoredAgreement, 'is_major_funding' | 'is_notable'>;
const PLAIN_COLUMNS = new Set<string>(['id', ...STORED_COLUMNS]);
PLAIN_COLUMNS.delete('is_major_funding');
PLAIN_COLUMNS.delete('is_notable');
const isPlainField = (field: string): field is PlainField => PLAIN_COLUMNS.has(field);
const PLAIN_FIELDS = Object.keys(GrantRecord.properties).filter(isPlainField);
/** The grant's fields held by the dictionary. */
const TEXT_FIELDS = Object.keys(TEXT_ALIASES) as SearchedColumn[]; // (Object.keys is typed string[])

function selectGrants(db: Kysely<GrantsDatabase>) {
  return agreementsWithTexts(db).select([
    ...PLAIN_FIELDS.map((c) => `g.${c}` as const),
    'g.agreement_value_cents',
    'g.is_major_funding',
    'g.is_notable',
    ...textsOf(TEXT_FIELDS),
  ]);
}

type GrantSelection = Awaited<ReturnType<ReturnType<typeof selectGrants>['executeTakeFirstOrThrow']>>;

/** A stored agreement as served in `language`: the value in dollars, flags as booleans (SQLite stores 0/1). */
function toGrant(row: GrantSelection, language: GrantsLanguage): Grant {
  const { agreement_value_cents, is_major_funding, is_notable, ...plain } = row;
  const served = inLanguage(
    {
      ...plain,
      agreement_value: agreement_value_cents / 100,
      is_major_funding: Boolean(is_major_funding),
      is_notable: Boolean(is_notable),
    },
    language,
  );
  return sectorInLanguage(notableInLanguage(served, language), language);
}

export interface SearchResult {
  count: number;
  rows: Grant[];
}

/** Rows by id, in the order of `ids`, with their texts in `language`. */
export async function grantsByIds(db: Kysely<GrantsDatabase>, ids: number[], language: GrantsLanguage = 'en'): Promise<Grant[]> {
  if (ids.length === 0) return [];
  const rows = await selectGrants(db).where('g.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toGrant(row, language)] : []; // a row an import deleted after the count
  });
}

/** One agreement with its texts in `language`. */
export async function getGrant(db: Kysely<GrantsDatabase>, id: number, language: GrantsLanguage = 'en'): Promise<Grant | null> {
  const row = await selectGrants(db).where('g.id', '=', id).executeTakeFirst();
  return row ? toGrant(row, language) : null;
}

export async function readAggregate<N extends AggregateName>(
  db: Kysely<GrantsDatabase>,
  name: N,
): Promise<StoredAggregate<GrantsAggregates[N]> | null> {
  return getAggregate<GrantsAggregates[N]>(db, 'grants', name);
}

/** The calculator's stored aggregates and the French texts of the agreements its top lists name. */
export interface CalculatorData {
  data_version: string;
  stored: StoredCalculator;
  french: FrenchTexts;
}

const IDS_PER_QUERY = 500;

export async function readCalculator(db: Kysely<GrantsDatabase>): Promise<CalculatorData | null> {
  const stored = await readAggregate(db, 'calculator');
  if (!stored) return null;
  const ids = stored.value.ok ? calculatorIds(stored.value.aggregates) : [];
  const french = new Map<number, { title: string; recipient: string }>();
  const query = agreementsWithTexts(db).select(['g.id', ...textsOf(['agreement_title_fr', 'recipient_legal_name_fr'])]);
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    for (const r of await query.where('g.id', 'in', ids.slice(i, i + IDS_PER_QUERY)).execute())
      french.set(r.id, { title: r.agreement_title_fr, recipient: r.recipient_legal_name_fr });
  }
  return { data_version: stored.data_version, stored: stored.value, french };
}

/**
 * A recipient's French legal name by the rule of GET /api/recipients/ (aggregates.ts, FrenchNameSources): that of its
 * first agreement by id whose source gives one; '' where none does. `ids`: the recipient's agreements.
 */
export async function recipientFrenchName(db: Kysely<GrantsDatabase>, ids: readonly number[]): Promise<string> {
  const ascending = [...ids].sort((a, b) => a - b);
  const french = textOf('recipient_legal_name_fr');
  for (let i = 0; i < ascending.length; i += IDS_PER_QUERY) {
    const row = await agreementsWithTexts(db)
      .select(french.as('name'))
      .where('g.id', 'in', ascending.slice(i, i + IDS_PER_QUERY))
      .where(french, '<>', '')
      .orderBy('g.id')
      .limit(1)
      .executeTakeFirst();
    if (row) return row.name;
  }
  return '';
}
