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

interface DataVersionsTable {
  service: string;
  dataset: string;
  version: string;
  source: string | null;
  is_demo: DbBoolean;
  imported_at: string;
  report: DbJson | null;
}

interface AggregatesTable {
  service: string;
  name: string;
  data_version: string;
  computed_at: string;
  value: DbJson;
}

interface ImportRunsTable {
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

/** A service's sync (src/core/sync): its last attempt and success, its schedule, and the lease of the instance running it. */
export interface SyncStateTable {
  service: string;
  last_attempt_at: string | null;
  /** imported | unchanged | not-modified | refused | failed */
  last_result: string | null;
  last_error: string | null;
  /** The last attempt that reached every source and left the data current (imported, unchanged or 304). */
  last_success_at: string | null;
  /** The last attempt that imported new data. */
  last_change_at: string | null;
  next_run_at: string | null;
  /** The schedule's period, as the instance that set next_run_at had it. */
  every_seconds: number | null;
  consecutive_failures: ColumnType<number, number | undefined, number>;
  /** The instance running a sync now ("host:pid:random"), and until when its lease holds unless renewed. */
  lease_holder: string | null;
  lease_since: string | null;
  lease_until: string | null;
}

/** One source file of a service's sync, as it was when last fetched. */
export interface SyncFilesTable {
  service: string;
  name: string;
  /** The address fetched, without credentials. */
  url: string;
  etag: string | null;
  last_modified: string | null;
  content_type: string | null;
  sha256: string | null;
  bytes: DbInteger | null;
  /** The data versions the file's import recorded ([{dataset, version}]): validators count only while these are current. */
  datasets: DbJson | null;
  checked_at: string | null;
  changed_at: string | null;
}

// A type alias, not an interface: Kysely's `withTables` needs an object type with an implicit index signature.
export type CoreTables = {
  data_versions: DataVersionsTable;
  aggregates: AggregatesTable;
  import_runs: ImportRunsTable;
  sync_state: SyncStateTable;
  sync_files: SyncFilesTable;
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
