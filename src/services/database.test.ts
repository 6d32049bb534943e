import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest } from '../core/db/migrations.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { PDI_TABLES, TEMPORARY_TABLES } from './database.ts';
import { SERVICES } from './registry.ts';

// A substring index keeps its own tables beside the indexed one (FTS5 shadow tables on SQLite): not row types.
const SEARCH_INDEX_TABLE = /_search(_(config|data|docsize|idx))?$/;

describeEachDatabase('the composed database type', (t) => {
  it('names exactly the tables that the migrations of core and every service create', async () => {
    await migrateToLatest(t.db.kysely, Object.assign({}, ...SERVICES.map((s) => s.migrations)));
    // Our schema only (Kysely's introspection lists every schema of the server, where other suites run).
    const query =
      t.kind === 'postgres'
        ? sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`
        : sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
    const created = (await query.execute(t.db.kysely)).rows
      .map((table) => table.name)
      .filter((name) => !SEARCH_INDEX_TABLE.test(name) && !name.startsWith('kysely_'))
      .sort();
    const typed = Object.keys(PDI_TABLES)
      .filter((name) => !(TEMPORARY_TABLES as readonly string[]).includes(name))
      .sort();
    assert.deepEqual(created, typed);
  });

  it('gives each service the tables of its own name', () => {
    for (const [table, owner] of Object.entries(PDI_TABLES)) {
      if (owner !== 'core') assert.ok(table.startsWith(`${owner}_`), `${table} belongs to ${owner}`);
    }
  });
});
