// One set of migrations for both databases: the core tables below plus every service's own, each
// service's names prefixed with the service ("grants_0001_…") so that order within a service holds.
import { Migrator } from 'kysely/migration';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migration, MigrationResultSet } from 'kysely/migration';
import type { Db } from './database.ts';
import { columnType, dialectOf, idConstraint } from './dialect.ts';

const coreMigrations: Record<string, Migration> = {
  '0000_core_0001_datasets': {
    async up(db) {
      const d = dialectOf(db);
      // The version of each service's data: every cache, ETag and precomputed aggregate keys on it.
      await db.schema
        .createTable('data_versions')
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('dataset', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('source', 'text')
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('imported_at', 'text', (c) => c.notNull())
        .addColumn('report', columnType.json(d))
        .addPrimaryKeyConstraint('data_versions_pk', ['service', 'dataset'])
        .execute();
      // Results computed at import (statistics, analytics, forecasts, model fits), read per request.
      await db.schema
        .createTable('aggregates')
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('data_version', 'text', (c) => c.notNull())
        .addColumn('computed_at', 'text', (c) => c.notNull())
        .addColumn('value', columnType.json(d), (c) => c.notNull())
        .addPrimaryKeyConstraint('aggregates_pk', ['service', 'name'])
        .execute();
      // Every import attempt, successful or not, with its counts.
      await db.schema
        .createTable('import_runs')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('importer', 'text', (c) => c.notNull())
        .addColumn('source', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('report', columnType.json(d))
        .addColumn('error', 'text')
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('import_runs').execute();
      await db.schema.dropTable('aggregates').execute();
      await db.schema.dropTable('data_versions').execute();
    },
  },
  // Who runs an import, so that a run whose process died is marked aborted instead of "running" forever.
  '0000_core_0002_import_run_holders': {
    async up(db) {
      await db.schema.alterTable('import_runs').addColumn('holder_host', 'text').execute();
      await db.schema.alterTable('import_runs').addColumn('holder_pid', 'integer').execute();
      await db.schema.alterTable('import_runs').addColumn('backend_pid', 'integer').execute();
    },
    async down(db) {
      for (const column of ['backend_pid', 'holder_pid', 'holder_host'])
        await db.schema.alterTable('import_runs').dropColumn(column).execute();
    },
  },
  // Keeping data current: each service's sync schedule and lease, and what each source file was when
  // last fetched (validators for conditional requests, checksum, the data versions its import made).
  '0000_core_0003_sync_state': {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('sync_state')
        .addColumn('service', 'text', (c) => c.primaryKey())
        .addColumn('last_attempt_at', 'text')
        .addColumn('last_result', 'text')
        .addColumn('last_error', 'text')
        .addColumn('last_success_at', 'text')
        .addColumn('last_change_at', 'text')
        .addColumn('next_run_at', 'text')
        .addColumn('every_seconds', 'integer')
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_holder', 'text')
        .addColumn('lease_since', 'text')
        .addColumn('lease_until', 'text')
        .execute();
      await db.schema
        .createTable('sync_files')
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('content_type', 'text')
        .addColumn('sha256', 'text')
        .addColumn('bytes', columnType.bigint(d))
        .addColumn('datasets', columnType.json(d))
        .addColumn('checked_at', 'text')
        .addColumn('changed_at', 'text')
        .addPrimaryKeyConstraint('sync_files_pk', ['service', 'name'])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('sync_files').execute();
      await db.schema.dropTable('sync_state').execute();
    },
  },
};

/**
 * Makes the database ready to use: on PostgreSQL with `?schema=name`, creates the schema when it does not
 * exist and checks that it is where tables go (never `public` instead); then applies every migration.
 */
export async function prepareDatabase(db: Db, migrations: Record<string, Migration>): Promise<MigrationResultSet> {
  if (db.dialect === 'postgres' && db.schema) {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(db.schema)}`.execute(db.kysely);
    const current = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema;
    if (current !== db.schema) {
      throw new Error(`PDI_DATABASE_URL names schema "${db.schema}", but tables would go to "${current}"; nothing was written`);
    }
  }
  return migrateToLatest(db.kysely, migrations);
}

export async function migrateToLatest<DB>(db: Kysely<DB>, migrations: Record<string, Migration>): Promise<MigrationResultSet> {
  // Kysely looks for its bookkeeping tables in every schema it can see; name ours, or a second schema on the
  // same server (parallel test suites, several deployments) would make it skip creating them here.
  const schema =
    dialectOf(db) === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
      : undefined;
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: { getMigrations: async () => ({ ...coreMigrations, ...migrations }) },
    // Services add migrations independently; a later core or service migration may sort before an applied one.
    allowUnorderedMigrations: true,
  });
  let result = await migrator.migrateToLatest();
  // Kysely's PostgreSQL introspection reads every schema's tables and columns; an object another process drops
  // while it reads (parallel suites, another deployment's upgrade) fails the read with "schema", "relation" or
  // "column does not exist" although ours is untouched. No migration ran then (none is in the results): read again.
  for (let attempt = 1; attempt < 10 && schema && failedReadingCatalog(result); attempt++) {
    result = await migrator.migrateToLatest();
  }
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: result.error });
  }
  return result;
}

// invalid_schema_name, undefined_table, undefined_column, undefined_object: what a vanished catalog row reads as.
const VANISHED_OBJECT_CODES = new Set(['3F000', '42P01', '42703', '42704']);

/** A failure before any migration ran, of the kind a catalog read gives when another schema's objects are dropped. */
function failedReadingCatalog(result: MigrationResultSet): boolean {
  if (!result.error || result.results?.length) return false;
  const code = (result.error as { code?: unknown }).code;
  return typeof code === 'string' && VANISHED_OBJECT_CODES.has(code);
}
