// The tables core owns, as Kysely sees them. Each service declares its own `<Service>Tables` beside its
// migrations and works on `Kysely<CoreTables & <Service>Tables>`, obtained from `db.kysely.withTables<…>()`;
// `src/services/database.ts` composes them all into the one database type.
import type { ColumnType, Generated, Kysely, QueryExecutorProvider } from 'kysely';

/** A boolean column: SQLite stores 0/1, PostgreSQL `boolean` (write it with `dbBool`, read it with `Boolean()`). */
export type DbBoolean = ColumnType<boolean | number, boolean | number, boolean | number>;
/** A `columnType.json` column: text on SQLite, parsed on PostgreSQL (read it with `readJson`, write it with `dbJson`). */
export type DbJson = ColumnType<unknown, string, string>;
/** An integer that PostgreSQL's bigint/numeric columns also return as a number (pdi's type parser). */
export type DbInteger = ColumnType<number, number, number>;
/** `columnType.id`: assigned by the database. */
export type DbId = Generated<number>;

export interface DataVersionsTable {
  service: string;
  dataset: string;
  version: string;
  source: string | null;
  is_demo: DbBoolean;
  imported_at: string;
  report: DbJson | null;
}

export interface AggregatesTable {
  service: string;
  name: string;
  data_version: string;
  computed_at: string;
  value: DbJson;
}

export interface ImportRunsTable {
  id: DbId;
  service: string;
  importer: string;
  source: string | null;
  status: string;
  started_at: string;
  finished_at: string | null;
  report: DbJson | null;
  error: string | null;
  /** The importing process (host name and pid): a later import marks the run aborted when it is gone. */
  holder_host: string | null;
  holder_pid: number | null;
  /** PostgreSQL: the backend holding the run's import lock. */
  backend_pid: number | null;
}

// A type alias, not an interface: Kysely's `withTables` needs an object type with an implicit index signature.
export type CoreTables = {
  data_versions: DataVersionsTable;
  aggregates: AggregatesTable;
  import_runs: ImportRunsTable;
};

/** A Kysely instance or transaction of any pdi database (every one holds core's tables). */
export type AnyDatabase = QueryExecutorProvider;

/**
 * The core tables of a service's database. Kysely's database parameter is invariant, although a database with
 * more tables can always be used as one with fewer: this is the one place that says so.
 */
export function coreTables(db: AnyDatabase): Kysely<CoreTables> {
  return db as Kysely<CoreTables>;
}

/** Tables whose names and columns are only known at run time (generic helpers over a caller's table). */
export type UntypedTables = Record<string, Record<string, unknown>>;

/** A view of `db` for generic helpers that name a caller's table at run time (Kysely cannot check a generic table name). */
export function untypedTables<DB>(db: Kysely<DB>): Kysely<UntypedTables> {
  return db as unknown as Kysely<UntypedTables>;
}
