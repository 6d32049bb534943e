// Service C's HTTP app over a generated file of a few thousand rows, for the route tests (routes/*.test.ts):
// the app, every stored agreement read back independently, and small request helpers.
import { after, before } from 'node:test';
import fs from 'node:fs';
import { sql } from 'kysely';
import type { TestDatabase } from '../databases.ts';
import { buildTestApp } from '../app.ts';
import { foldAccents } from '../../../src/core/db/dialect.ts';
import type { ServiceApp } from '../../../src/core/service.ts';
import { importGrantsCsv } from '../../../src/services/grants/import/importer.ts';
import { agreementsWithTexts, textsOf } from '../../../src/services/grants/repository.ts';
import { grantsService } from '../../../src/services/grants/service.ts';
import { SEARCHED_COLUMNS } from '../../../src/services/grants/tables.ts';
import type { GrantsTables } from '../../../src/services/grants/tables.ts';
import { tempDir, writeGenerated } from './files.ts';

/** The spec's address of the routes, and the old one clients still call. */
export const SPEC = '/api/api';
export const OLD = '/api';

/** A stored agreement with its texts, read without the service's code paths. */
export interface Row {
  id: number;
  owner_org: string;
  reference_number: string;
  recipient_legal_name: string;
  recipient_province: string;
  recipient_type: string;
  program_name_en: string;
  agreement_title_en: string;
  description_en: string;
  program_name_fr: string;
  agreement_title_fr: string;
  description_fr: string;
  recipient_legal_name_fr: string;
  naics_sector_en: string;
  fiscal_year: string;
  agreement_value_cents: number;
  agreement_start_date: string;
  agreement_end_date: string | null;
  is_major_funding: boolean;
  is_notable: boolean;
  notable_category: string;
}

export class GrantsHttp {
  app!: ServiceApp;
  dir!: string;
  /** The imported file. */
  file!: string;
  /** Every stored agreement, by id. */
  rows!: Row[];
  /** Whether the database orders text by code point (PostgreSQL's collation may not). */
  textCollationIsCodePoint = true;

  async setUp(t: TestDatabase, rows: number, seed: string): Promise<void> {
    this.dir = tempDir();
    this.file = await writeGenerated(this.dir, rows, seed);
    await importGrantsCsv(t.db, this.file);
    const db = t.db.kysely.withTables<GrantsTables>();
    const stored = await agreementsWithTexts(db)
      .selectAll('g')
      .select(textsOf(SEARCHED_COLUMNS.map((c) => c.column)))
      .orderBy('g.id')
      .execute();
    this.rows = stored.map((r) => ({
      ...r,
      agreement_value_cents: Number(r.agreement_value_cents),
      is_major_funding: Boolean(r.is_major_funding),
      is_notable: Boolean(r.is_notable),
    }));
    if (t.kind === 'postgres') {
      const { rows: c } = await sql<{
        collate: string;
      }>`select datcollate as collate from pg_database where datname = current_database()`.execute(db);
      this.textCollationIsCodePoint = /^(C|POSIX|C\.UTF-?8)$/i.test(c[0].collate);
    }
    this.app = await buildTestApp(grantsService, t.db);
  }

  async tearDown(): Promise<void> {
    await this.app?.close();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }

  // (arrow functions: a test takes them out of the fixture)

  /** A GET; the body as light-my-request parses it (tests read it field by field, as a client would). */
  get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await this.app.inject({ url, headers });
    return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
  };

  post = async (url: string, payload: unknown) => {
    const res = await this.app.inject({ method: 'POST', url, payload: payload as object });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  /** Every id a search returns, page after page. */
  allIds = async (query: string, pageSize = 1000): Promise<number[]> => {
    const ids: number[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const { body } = await this.get(`${SPEC}/search/?${query}&limit=${pageSize}&offset=${offset}`);
      ids.push(...body.results.map((r: { id: number }) => r.id));
      if (offset + pageSize >= body.count) return ids;
    }
  };
}

/** The fixture of a suite: set up in its `before` (a generated file of `rows` rows imported), closed in its `after`. */
export function grantsHttp(t: TestDatabase, rows = 3000, seed = 'routes-test'): GrantsHttp {
  const fixture = new GrantsHttp();
  before(() => fixture.setUp(t, rows, seed));
  after(() => fixture.tearDown());
  return fixture;
}

export const sumCents = (list: Row[]): number => list.reduce((s, r) => s + r.agreement_value_cents, 0);
export const dollars = (cents: number): number => cents / 100;
export const matchesText = (r: Row, q: string): boolean =>
  SEARCHED_COLUMNS.some(({ column }) => foldAccents(r[column]).includes(foldAccents(q)));
