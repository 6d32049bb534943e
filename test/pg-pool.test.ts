// The PostgreSQL pool when a connection is lost (src/core/db/pg-pool.ts), on the shared server: only this test's
// own backends are terminated, found by a marker in their last statement. A read outside a transaction runs again
// on another connection; a write, or anything in a transaction, fails (whether it took effect is unknown); a client
// checked out by a transaction whose backend dies between statements must not crash the process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { isConnectionLoss } from '../src/core/db/pg-pool.ts';
import { PG_URL, skipUnlessAvailable } from './support/databases.ts';

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return null;
  } catch (error) {
    return `PostgreSQL not reachable at ${PG_URL} (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}
const gate = skipUnlessAvailable(await probePostgres());
/** What a promise settled with, caught at once (a rejection while the test is busy elsewhere is not unhandled). */
const settle = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// SQLite is a file in the process: it has no connection to lose.
describe('a lost PostgreSQL connection [postgres]', gate.skip ? { skip: gate.skip } : {}, () => {
  let admin: pg.Client;
  let db: Db;
  const schema = `t_pool_${process.pid}_${randomBytes(4).toString('hex')}`;
  const table = 'pool_test';
  before(async () => {
    if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
    admin = new pg.Client({ connectionString: PG_URL });
    admin.on('error', () => {});
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    db = openDatabase(`${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`);
    await sql`create table ${sql.raw(table)} (v integer)`.execute(db.kysely);
  });
  after(async () => {
    await db?.close();
    await admin?.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    await admin?.end().catch(() => {});
  });

  /** Terminates, once it shows up, the backend whose last statement holds `marker`; resolves how many were. */
  async function terminateWhenSeen(marker: string): Promise<number> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const { rows } = await admin.query<{ killed: boolean }>(
        `select pg_terminate_backend(pid) as killed from pg_stat_activity where query like $1 and pid <> pg_backend_pid()`,
        [`%${marker}%`],
      );
      if (rows.length > 0) return rows.filter((r) => r.killed).length;
      await sleep(20);
    }
    return 0;
  }

  it('runs a read again on another connection', async () => {
    const marker = `m_${randomBytes(4).toString('hex')}`;
    const read = settle(sql<{ one: number }>`select 1 as one, ${sql.lit(marker)} as marker, pg_sleep(0.4)`.execute(db.kysely));
    assert.equal(await terminateWhenSeen(marker), 1);
    const result = await read;
    assert.ok('value' in result, `the read failed: ${String('error' in result && result.error)}`);
    assert.equal(Number((result.value as { rows: Array<{ one: number }> }).rows[0].one), 1);
  });

  it('does not repeat a write: it fails, and it took effect at most once', async () => {
    const marker = `m_${randomBytes(4).toString('hex')}`;
    const write = settle(
      sql`insert into ${sql.raw(table)} (v) select 1 from pg_sleep(0.4) where ${sql.lit(marker)} <> ''`.execute(db.kysely),
    );
    assert.equal(await terminateWhenSeen(marker), 1);
    const result = await write;
    assert.ok('error' in result && isConnectionLoss(result.error), 'the write fails with the lost connection');
    const count = await sql<{ n: number }>`select count(*) as n from ${sql.raw(table)}`.execute(db.kysely);
    assert.equal(Number(count.rows[0].n), 0);
  });

  it('does not repeat a read inside a transaction, and survives a backend lost between two statements', async () => {
    const marker = `m_${randomBytes(4).toString('hex')}`;
    const transaction = settle(
      db.kysely.transaction().execute(async (trx) => {
        await sql`select ${sql.lit(marker)} as marker`.execute(trx);
        // The backend is terminated while this client is checked out and idle: pg emits 'error' on the client with
        // no query to fail (before the fix: an uncaught exception that ended the process).
        await sleep(600);
        await sql`select 1`.execute(trx);
      }),
    );
    assert.equal(await terminateWhenSeen(marker), 1);
    assert.ok('error' in (await transaction), 'the transaction fails');
    // The pool recovers: the next read succeeds on a new connection.
    const after = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    assert.equal(Number(after.rows[0].one), 1);
  });
});

describe('isConnectionLoss', () => {
  const cases: [unknown, boolean][] = [
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, true],
    [{ code: '08006' }, true],
    [{ code: 'ECONNRESET' }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('Client has encountered a connection error and is not queryable'), true],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, false],
    [{ code: '42P01', message: 'relation "x" does not exist' }, false],
    [null, false],
  ];
  for (const [error, expected] of cases)
    it(`${JSON.stringify(error instanceof Error ? error.message : error)} → ${expected}`, () =>
      assert.equal(isConnectionLoss(error), expected));
});
