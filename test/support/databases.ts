// Runs a suite once on SQLite and once on PostgreSQL, each in a fresh, private database (a temporary
// SQLite file; a PostgreSQL schema of its own), so test files can run in parallel. Outside CI a suite
// whose server is missing is skipped with the reason; with CI=true it fails instead.
import { after, before, describe } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Migration } from 'kysely/migration';
import { openDatabase } from '../../src/core/db/database.ts';
import type { Db } from '../../src/core/db/database.ts';
import { migrateToLatest } from '../../src/core/db/migrations.ts';

export type DbKind = 'sqlite' | 'postgres';
export const IN_CI = process.env.CI === 'true';
export const PG_URL = process.env.PDI_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.PDI_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 15000 }); // generous: on a loaded machine a short timeout skips whole suites
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return `PostgreSQL not reachable at ${PG_URL} (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

const postgresProblem = process.env.PDI_TEST_SKIP_PG ? 'PDI_TEST_SKIP_PG is set' : await probePostgres();

export interface TestDatabase {
  readonly kind: DbKind;
  /** Set in the suite's `before`; use it inside tests and hooks only. */
  readonly db: Db;
  readonly url: string;
}

/** A skip reason for node:test outside CI; in CI a missing prerequisite is a failure, not a skip. */
export function skipUnlessAvailable(problem: string | null): { skip?: string; problem: string | null } {
  if (!problem) return { problem: null };
  if (IN_CI) return { problem };
  return { skip: problem, problem };
}

export function describeEachDatabase(
  title: string,
  body: (t: TestDatabase) => void,
  options: { migrations?: Record<string, Migration> } = {},
): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const gate = skipUnlessAvailable(kind === 'postgres' ? postgresProblem : null);
    describe(`${title} [${kind}]`, gate.skip ? { skip: gate.skip } : {}, () => {
      const handle = new DatabaseHandle(kind);
      before(async () => {
        if (gate.problem) throw new Error(`required in CI: ${gate.problem}`);
        await handle.open(options.migrations ?? {});
      });
      after(async () => handle.close());
      body(handle);
    });
  }
}

class DatabaseHandle implements TestDatabase {
  readonly kind: DbKind;
  private current: Db | null = null;
  private cleanup: (() => Promise<void>) | null = null;
  url = '';

  constructor(kind: DbKind) {
    this.kind = kind;
  }

  get db(): Db {
    if (!this.current) throw new Error("the test database is opened in the suite's before hook");
    return this.current;
  }

  async open(migrations: Record<string, Migration>): Promise<void> {
    if (this.kind === 'sqlite') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-test-'));
      this.url = `sqlite:${path.join(dir, 'test.sqlite')}`;
      this.cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    } else {
      const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      this.url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
      this.cleanup = async () => {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      };
    }
    this.current = openDatabase(this.url);
    await migrateToLatest(this.current.kysely, migrations);
  }

  async close(): Promise<void> {
    await this.current?.close();
    this.current = null;
    await this.cleanup?.();
  }
}

/** The shared real data (`../shared/data` beside the checkout, or PDI_SHARED_DATA). */
export const SHARED_DATA = path.resolve(process.env.PDI_SHARED_DATA ?? path.join(import.meta.dirname, '../../../shared/data'));

export function sharedData(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}

/** Skip options for a suite that needs a file or folder of the shared data. */
export function needsSharedData(...parts: string[]): { skip?: string; problem: string | null } {
  const target = sharedData(...parts);
  return skipUnlessAvailable(fs.existsSync(target) ? null : `shared data missing: ${target}`);
}
