// Opening the database: the embedded SQLite file (default) or PostgreSQL, behind one Kysely instance.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { foldAccents, foldCase } from './dialect.ts';
import { resilientPool } from './pg-pool.ts';
import type { DialectName } from './dialect.ts';
import type { CoreTables } from './tables.ts';

export interface Db {
  /** Core's tables; a service adds its own with `kysely.withTables<ServiceTables>()`. */
  readonly kysely: Kysely<CoreTables>;
  readonly dialect: DialectName;
  /** PostgreSQL: the schema named by `?schema=` (created by `prepareDatabase`), else null. */
  readonly schema: string | null;
  /** Where the data lives, without credentials (for logs and health output). */
  readonly description: string;
  /** A cheap round trip; throws when the database is unreachable. */
  ping(): Promise<void>;
  /**
   * SQLite only: runs one statement once for each parameter row, synchronously, on the connection Kysely
   * uses (so inside the transaction it has open). For bulk loads: a statement through Kysely costs more than
   * the row it inserts, and SQLite runs a one-row statement per row faster than one statement of many rows.
   */
  runEach?(text: string, rows: readonly unknown[][]): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Ready-made pg pool settings to merge (tests set a private schema through `options`). */
  poolSize?: number;
  readonly?: boolean;
  /** SQLite's page cache in bytes (default 16 MiB; PDI_SQLITE_CACHE_BYTES through the runtime). */
  sqliteCacheBytes?: number;
}

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options);
  throw new Error(`PDI_DATABASE_URL must start with postgres://, postgresql:// or sqlite:, got "${redact(url)}"`);
}

function openSqlite(file: string, options: OpenOptions): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const raw = new BetterSqlite3(file, { readonly: options.readonly ?? false });
  // A new database gets 16 KiB pages (SQLite's default is 4 KiB): bulk imports of wide rows write faster.
  // Only an empty file takes the setting;
  // an existing database keeps its page size.
  if (!options.readonly) raw.pragma('page_size = 16384');
  raw.pragma('journal_mode = WAL'); // readers keep the old snapshot while an import writes
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 10000');
  raw.pragma(`cache_size = -${Math.max(1, Math.round((options.sqliteCacheBytes ?? 16 * 1024 * 1024) / 1024))}`); // in KiB when negative
  raw.pragma('temp_store = MEMORY');
  // Unicode-aware case folding for substring tests that the trigram index cannot serve (queries under 3 chars).
  raw.function('pdi_fold', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? foldCase(value) : value));
  raw.function('pdi_fold_accents', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? foldAccents(value) : value));
  // Kysely prepares every statement anew; keep the prepared ones (SQLite re-prepares them itself after a
  // schema change). Safe because Kysely runs one statement at a time on its single SQLite connection.
  const statements = new Map<string, BetterSqlite3.Statement>();
  const database = {
    close: () => raw.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = raw.prepare(text);
        if (statements.size >= 500) statements.delete(statements.keys().next().value as string);
        statements.set(text, statement);
      }
      return statement;
    },
  };
  const kysely = new Kysely<CoreTables>({ dialect: new SqliteDialect({ database }) });
  return {
    kysely,
    dialect: 'sqlite',
    schema: null,
    description: `sqlite:${file}`,
    async ping() {
      raw.prepare('select 1').get();
    },
    runEach(text: string, rows: readonly unknown[][]) {
      const statement = database.prepare(text);
      for (const row of rows) statement.run(...row); // spread: faster than an array (better-sqlite3 13)
    },
    async close() {
      await kysely.destroy();
    },
  };
}

// PostgreSQL returns int8 and numeric as strings; every count and cents value here fits in a double.
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_DATE = 1082;
const pgTypeParser = ((oid: number, format?: 'text' | 'binary') => {
  if (oid === PG_INT8 || oid === PG_NUMERIC) return (v: string) => (v === null ? null : Number(v));
  if (oid === PG_DATE) return (v: string) => v; // keep YYYY-MM-DD, never a local-time Date
  return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
}) as typeof pg.types.getTypeParser; // pg declares the parser by overloads a plain function cannot spell

function openPostgres(url: string, options: OpenOptions): Db {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    types: { getTypeParser: pgTypeParser },
    ...(schema ? { options: `-c search_path=${quoteIdent(schema)},public` } : {}),
  });
  // A lost connection never crashes the process, and a read it was running is answered by another (pg-pool.ts).
  const kysely = new Kysely<CoreTables>({ dialect: new PostgresDialect({ pool: resilientPool(pool) }) });
  return {
    kysely,
    dialect: 'postgres',
    schema,
    description: redact(url),
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      await kysely.destroy();
    },
  };
}

function quoteIdent(name: string): string {
  // Lower case only: PostgreSQL folds an unquoted search_path entry to lower case, so "Data" would name "data".
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`invalid schema name "${name}" in PDI_DATABASE_URL: use lower-case letters, digits and _ (at most 63)`);
  }
  return name;
}

export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
