import { it, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from './database.ts';
import { prepareDatabase } from './migrations.ts';
import { PG_URL, skipUnlessAvailable } from '../../../test/support/databases.ts';

const pgProblem = await (async () => {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return null;
  } catch (error) {
    return `PostgreSQL not reachable at ${PG_URL} (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
})();
const gate = skipUnlessAvailable(pgProblem);

describe('PDI_DATABASE_URL with ?schema= [postgres]', gate.skip ? { skip: gate.skip } : {}, () => {
  it('creates the named schema and puts every table there, none in public', async () => {
    if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
    const schema = `pdi_schema_${randomBytes(4).toString('hex')}`;
    const url = new URL(PG_URL);
    url.searchParams.set('schema', schema);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const db = openDatabase(url.toString());
    try {
      const publicBefore = (await admin.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`))
        .rows[0].n;
      await prepareDatabase(db, {});
      const tables = await admin.query(`select table_name from information_schema.tables where table_schema = $1 order by 1`, [schema]);
      assert.ok(tables.rows.map((r) => r.table_name).includes('import_runs'));
      const publicAfter = (await admin.query(`select count(*)::int as n from information_schema.tables where table_schema = 'public'`))
        .rows[0].n;
      assert.equal(publicAfter, publicBefore);
    } finally {
      await db.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });

  it('migrates while other schemas are created and dropped on the same server (parallel suites)', async () => {
    if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
    // Kysely's migrator reads every schema's tables and columns; an object dropped during that read failed it with
    // "schema", "relation" or "column does not exist" (seen in CI). Three clients churn schemas of many tables, as
    // parallel suites do; without the retry about 2 in 100 migrations here fail.
    const churners = await Promise.all(
      [0, 1, 2].map(async () => {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        return client;
      }),
    );
    const columns = 'id serial primary key, a text, b text, c text, d integer, e text, f text';
    let churning = true;
    const churn = Promise.all(
      churners.map(async (client) => {
        while (churning) {
          const other = `pdi_churn_${randomBytes(4).toString('hex')}`;
          const tables = Array.from({ length: 60 }, (_, k) => `create table ${other}.t${k} (${columns});`).join('');
          await client.query(`create schema ${other}; ${tables}`);
          await client.query(`drop schema ${other} cascade`);
        }
      }),
    );
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      for (let i = 0; i < 120; i++) {
        const schema = `pdi_schema_${randomBytes(4).toString('hex')}`;
        const url = new URL(PG_URL);
        url.searchParams.set('schema', schema);
        const db = openDatabase(url.toString());
        try {
          await prepareDatabase(db, {});
        } finally {
          await db.close();
          await admin.query(`drop schema if exists ${schema} cascade`);
        }
      }
    } finally {
      churning = false;
      await churn;
      for (const client of churners) await client.end();
      await admin.end();
    }
  });

  it('refuses a schema name PostgreSQL would read differently', () => {
    assert.throws(() => openDatabase(`${PG_URL}?schema=Data`), /invalid schema name "Data".*lower-case/);
  });
});
