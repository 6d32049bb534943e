// Every difference between SQLite and PostgreSQL that query code must know about lives here:
// column types, booleans, case-insensitive matching, bulk inserts and upserts.
import { sql } from 'kysely';
import type {
  ColumnDefinitionBuilder,
  Expression,
  Insertable,
  Kysely,
  QueryExecutorProvider,
  RawBuilder,
  SqlBool,
  Transaction,
} from 'kysely';
import { untypedTables } from './tables.ts';

export type DialectName = 'sqlite' | 'postgres';

/** The dialect behind a Kysely instance or transaction. */
export function dialectOf(db: QueryExecutorProvider): DialectName {
  const adapter = db.getExecutor().adapter.constructor.name;
  if (adapter.startsWith('Sqlite')) return 'sqlite';
  if (adapter.startsWith('Postgres')) return 'postgres';
  throw new Error(`unsupported database adapter ${adapter}`);
}

/** Unicode case folding used on both sides of a case-insensitive comparison. */
export function foldCase(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/**
 * Case and accent folding for search: a Latin letter's combining diacritics (U+0300–U+036F after canonical
 * decomposition) are dropped, then foldCase: "Montréal" → "montreal", "Nguyễn" → "nguyen". Letters without a
 * decomposition ("ø", "ł", "æ") keep their form, as SQLite's FTS5 trigram tokenizer with `remove_diacritics 1` keeps
 * them, so that its candidates hold every row this folding matches (search-index.test.ts checks every letter of the
 * Basic Multilingual Plane: the tokenizer agrees except on "ǡ"/"Ǡ", which it leaves).
 */
export function foldAccents(text: string): string {
  return foldCase(text.normalize('NFD').replace(LATIN_DIACRITICS, '$1'));
}
const LATIN_DIACRITICS = /([A-Za-z])[\u0300-\u036f]+/g;

/**
 * PostgreSQL's `pdi_fold_accents(text)`, foldAccents in SQL (immutable, so that an expression index can hold it);
 * ASCII text, most of it, takes only lower(). Created in the current schema, beside the indexes using it.
 */
export async function ensureAccentFoldFunction(db: QueryExecutorProvider): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION pdi_fold_accents(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fold$ ` +
        `SELECT CASE WHEN octet_length($1) = char_length($1) THEN lower($1) ` +
        `ELSE lower(normalize(regexp_replace(normalize($1, NFD), '([A-Za-z])[\\u0300-\\u036f]+', '\\1', 'g'), NFC)) END $fold$`,
    )
    .execute(db);
}

/** Column types for migrations. Dates are `YYYY-MM-DD` text and timestamps ISO-8601 UTC text on both databases. */
export const columnType = {
  /** Auto-incrementing integer primary key: use with `idConstraint` (`.addColumn('id', columnType.id(d), idConstraint(d))`). */
  id: (d: DialectName) => (d === 'sqlite' ? 'integer' : 'bigserial') as 'integer',
  bigint: (_d: DialectName) => 'bigint' as const,
  boolean: (d: DialectName) => (d === 'sqlite' ? 'integer' : 'boolean') as 'integer',
  double: (d: DialectName) => (d === 'sqlite' ? 'real' : 'double precision') as 'real',
  json: (d: DialectName) => (d === 'sqlite' ? 'text' : 'jsonb') as 'text',
  blob: (d: DialectName) => (d === 'sqlite' ? 'blob' : 'bytea') as 'blob',
};

/** Primary key constraint for `columnType.id`: AUTOINCREMENT on SQLite (ids never reused); bigserial carries it on PostgreSQL. */
export function idConstraint(d: DialectName) {
  return (c: ColumnDefinitionBuilder) => (d === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey());
}

/** A boolean value as the column stores it (SQLite has no boolean type; better-sqlite3 binds no booleans). */
export function dbBool(db: QueryExecutorProvider | DialectName, value: boolean): boolean | number {
  const d = typeof db === 'string' ? db : dialectOf(db);
  return d === 'sqlite' ? (value ? 1 : 0) : value;
}

/** JSON to store in a `columnType.json` column. */
export function dbJson(db: QueryExecutorProvider | DialectName, value: unknown): string {
  void db; // both dialects accept JSON text (jsonb casts it on insert)
  return JSON.stringify(value);
}

/** JSON read back from a `columnType.json` column (text on SQLite, parsed already on PostgreSQL). */
export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** 1-based position of `needle` in `haystack` (0 when absent): SQLite's instr, PostgreSQL's strpos. */
export function textPosition(
  db: QueryExecutorProvider,
  haystack: Expression<unknown> | RawBuilder<unknown>,
  needle: Expression<unknown> | RawBuilder<unknown> | string,
): RawBuilder<number> {
  return dialectOf(db) === 'sqlite' ? sql<number>`instr(${haystack}, ${needle})` : sql<number>`strpos(${haystack}, ${needle})`;
}

/**
 * Case-insensitive, Unicode-aware "column contains text" without an index (small tables, short queries);
 * `accents: 'fold'` also ignores diacritics (foldAccents; PostgreSQL needs ensureAccentFoldFunction).
 */
export function containsText(
  db: QueryExecutorProvider,
  column: Expression<unknown> | RawBuilder<unknown>,
  text: string,
  accents: 'keep' | 'fold' = 'keep',
): RawBuilder<SqlBool> {
  const sqlite = dialectOf(db) === 'sqlite';
  if (accents === 'fold') {
    return sql<SqlBool>`${textPosition(db, sql`pdi_fold_accents(${column})`, foldAccents(text))} > 0`;
  }
  const haystack = sqlite ? sql`pdi_fold(${column})` : sql`lower(${column})`;
  return sql<SqlBool>`${textPosition(db, haystack, foldCase(text))} > 0`;
}

/** Whole days from one `YYYY-MM-DD` column to another. */
export function daysBetweenColumns(db: QueryExecutorProvider, from: string, to: string): RawBuilder<number> {
  return dialectOf(db) === 'sqlite'
    ? sql<number>`CAST(julianday(${sql.ref(to)}) - julianday(${sql.ref(from)}) AS INTEGER)`
    : sql<number>`(${sql.ref(to)}::date - ${sql.ref(from)}::date)`;
}

/** Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Most bound parameters one statement may carry (SQLite's default limit is 32766; PostgreSQL's 65535). */
const MAX_PARAMETERS = 30000;

/**
 * Inserts rows in multi-row statements sized to the parameter limit. `conflict` turns it into an upsert
 * on the given key columns (updating `update` columns, or doing nothing when `update` is empty).
 */
export async function insertMany<DB, T extends keyof DB & string>(
  db: Kysely<DB> | Transaction<DB>,
  table: T,
  rows: readonly Insertable<DB[T]>[],
  conflict?: { columns: readonly (keyof DB[T] & string)[]; update: readonly (keyof DB[T] & string)[] },
): Promise<void> {
  if (rows.length === 0) return;
  const width = Object.keys(rows[0] as object).length || 1;
  const chunk = Math.max(1, Math.floor(MAX_PARAMETERS / width));
  const untyped = untypedTables(db);
  for (let start = 0; start < rows.length; start += chunk) {
    let query = untyped.insertInto(table as string).values(rows.slice(start, start + chunk) as Record<string, unknown>[]);
    if (conflict) {
      query = query.onConflict((oc) => {
        const target = oc.columns(conflict.columns);
        if (conflict.update.length === 0) return target.doNothing();
        const excluded: Record<string, RawBuilder<unknown>> = {};
        for (const c of conflict.update) excluded[c] = sql.ref(`excluded.${c}`);
        return target.doUpdateSet(excluded);
      });
    }
    await query.execute();
  }
}

/** The first key of pdi's advisory locks ("pdi" in ASCII), so that other users of the database pick others. */
const PDI_LOCK_NAMESPACE = 0x706469;

/**
 * Makes the transaction `trx` the only one holding `name` until it ends: a second one asking waits here.
 * PostgreSQL: a transaction-level advisory lock (readers are not held). SQLite needs none: it has one writer
 * at a time, and a transaction whose snapshot went stale cannot write.
 */
export async function lockForTransaction(trx: QueryExecutorProvider, name: string): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  // Advisory locks belong to the whole database: the schema is part of the name, so that deployments (and
  // test suites) in other schemas of it do not wait for each other.
  const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(trx)).rows[0]?.s ?? '';
  const scoped = `${schema}:${name}`;
  // a stable 32-bit key of the name (FNV-1a), under a namespace of pdi's own
  let key = 0x811c9dc5;
  for (let i = 0; i < scoped.length; i++) key = Math.imul(key ^ scoped.charCodeAt(i), 0x01000193);
  await sql`SELECT pg_advisory_xact_lock(${PDI_LOCK_NAMESPACE}, ${key | 0})`.execute(trx);
}

/** Number from an aggregate (PostgreSQL's bigint/numeric arrive as numbers through our type parser). */
export function num(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : Number(value);
}
