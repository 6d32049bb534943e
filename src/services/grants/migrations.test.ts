// Upgrading a database that holds agreements from before the text dictionary (migrations 1–3) to the latest
// schema, on SQLite and PostgreSQL: every searched text lands in the dictionary, each agreement points at its
// own texts (which the table no longer holds), the dictionary's substring index finds them, and the secondary
// indexes are gone.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { migrateToLatest } from '../../core/db/migrations.ts';
import { substringMatch } from '../../core/db/search-index.ts';
import { untypedTables } from '../../core/db/tables.ts';
import { grantsMigrations } from './migrations.ts';
import { GRANTS_SEARCH, GRANTS_TABLE, RETIRED_INDEXES, SEARCHED_COLUMNS } from './tables.ts';
import type { GrantsTables } from './tables.ts';

describeEachDatabase(
  'grants migrations',
  (t) => {
    it('converts stored agreements to the text dictionary, drops their text columns and the secondary indexes', async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const early = Object.fromEntries(Object.entries(grantsMigrations).filter(([name]) => name < 'grants_0004'));
      await migrateToLatest(db, early);
      // a database that ran the earlier migrations before they stopped creating secondary indexes has them
      await sql.raw(`CREATE INDEX grants_agreements_value ON ${GRANTS_TABLE} (agreement_value_cents, id)`).execute(db);
      const row = (n: number, title: string, recipient: string) => ({
        owner_org: 'org',
        reference_number: `R-${n}`,
        amendment_number: 0,
        recipient_legal_name: recipient,
        program_name_en: 'Shared Program',
        agreement_title_en: title,
        agreement_value_cents: 100 * n,
        agreement_start_date: '2020-05-01',
        description_en: n === 1 ? 'Quokka habitat' : '',
        fiscal_year: '2020-21',
        fiscal_year_start: 2020,
        is_major_funding: t.kind === 'sqlite' ? 0 : false,
        is_notable: t.kind === 'sqlite' ? 0 : false,
        content_hash: `h${n}`,
        import_version: 'v0',
      });
      const sources = [row(1, 'Wetland survey', 'Society A'), row(2, 'Shared Program', 'Society A'), row(3, 'Trail repair', 'Society B')];
      // (the agreements as migrations 1–3 stored them: the columns of that time)
      await untypedTables(db).insertInto(GRANTS_TABLE).values(sources).execute();

      await migrateToLatest(db, grantsMigrations);

      const texts = await db.selectFrom('grants_texts').select(['id', 'text']).execute();
      const expected = new Set(['Wetland survey', 'Shared Program', 'Trail repair', 'Society A', 'Society B', 'Quokka habitat', '']);
      assert.deepEqual(new Set(texts.map((r) => r.text)), expected);
      assert.equal(texts.length, expected.size, 'each text once');
      const textOf = new Map(texts.map((r) => [Number(r.id), r.text]));
      const inserted = new Map(sources.map((r) => [r.reference_number, r as Record<string, unknown>]));
      const stored = await db.selectFrom('grants_agreements').selectAll().execute();
      assert.equal(stored.length, 3);
      for (const row of stored) {
        // the texts are the dictionary's only (migration 6): the row points at its own
        for (const { column, textId } of SEARCHED_COLUMNS) {
          assert.ok(!(column in row), `${column} is no longer a column`);
          assert.equal(textOf.get(Number(row[textId])), inserted.get(row.reference_number)![column], `${row.reference_number} ${column}`);
        }
      }
      const found = await db
        .selectFrom('grants_texts')
        .select('text')
        .where(substringMatch(db, GRANTS_SEARCH, 'quokka'))
        .execute();
      assert.deepEqual(
        found.map((r) => r.text),
        ['Quokka habitat'],
      );
      const indexes =
        t.kind === 'sqlite'
          ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db)).rows.map((r) => r.name)
          : (
              await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(db)
            ).rows.map((r) => r.name);
      assert.ok(indexes.length > 0);
      for (const name of RETIRED_INDEXES) assert.ok(!indexes.includes(name), name);
    });
  },
  { migrations: {} },
);
