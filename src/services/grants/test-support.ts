// Shared by Service C's database tests: small CSV files written by hand (exact amendment cases) or by the
// generator (a few thousand rows), and an independent reading of what the importer should have stored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dbBool, dialectOf, num } from '../../core/db/dialect.ts';
import { substringMatch } from '../../core/db/search-index.ts';
import { writeGrantsCsv } from './generator/index.ts';
import { SORT_ORDERS, agreementsWithTexts, grantsByIds, textOf } from './repository.ts';
import type { SearchFilters, SearchOrder, SearchResult } from './repository.ts';
import { GRANTS_SEARCH, GRANTS_TABLE, GRANTS_TEXTS_TABLE, SEARCHED_COLUMNS } from './tables.ts';
import { AmendmentResolver, MAJOR_FUNDING_THRESHOLD_CENTS, PRE_2025_COLUMNS, readGrantsCsv } from './source/index.ts';
import type { GrantRecord } from './source/index.ts';

export function tempDir(prefix = 'pdi-grants-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV in the pre-2025 schema from partial rows (missing cells are empty); `columns` overrides the header. */
export function handCsv(rows: Array<Record<string, string>>, columns: readonly string[] = PRE_2025_COLUMNS): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A complete valid row of the pre-2025 schema; `overrides` replace cells. */
export function handRow(overrides: Record<string, string>): Record<string, string> {
  return {
    ref_number: '001-2020-2021-Q1-00001',
    amendment_number: '0',
    agreement_type: 'G',
    recipient_type: 'N',
    recipient_legal_name: 'Test Society',
    recipient_country: 'CA',
    recipient_province: 'ON',
    recipient_city: 'Ottawa',
    prog_name_en: 'Test Program',
    agreement_title_en: 'Test agreement',
    agreement_value: '1000.00',
    agreement_start_date: '2020-06-01',
    agreement_end_date: '2021-05-31',
    description_en: 'A test description.',
    owner_org: 'test-org',
    owner_org_title: 'Test Department | Ministère de test',
    ...overrides,
  };
}

export async function writeGenerated(dir: string, rows: number, seed: string, name = 'grants.csv'): Promise<string> {
  const file = path.join(dir, name);
  await writeGrantsCsv(file, { rows, seed });
  return file;
}

/** The agreements a file resolves to, in memory (the domain's AmendmentResolver): what the database must hold. */
export async function expectedAgreements(file: string): Promise<Map<string, GrantRecord>> {
  const resolver = new AmendmentResolver();
  await readGrantsCsv(file, (r) => resolver.add(r));
  const byKey = new Map<string, GrantRecord>();
  for (const r of resolver.values()) byKey.set(`${r.owner_org}|${r.reference_number}`, r);
  return byKey;
}

/** Code-point order (SQLite's BINARY collation and PostgreSQL's C.UTF-8 agree with it). */
export function compareText(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * A search as one SQL query over the table (a scan: the table has no secondary index): the reference the
 * in-memory search is compared with.
 */
export async function searchGrantsInSql(
  db: Kysely<any>,
  filters: SearchFilters,
  order: SearchOrder,
  page: { limit: number; offset: number },
): Promise<SearchResult> {
  // (the recipient and program orders are the order of their texts, which the dictionary holds)
  let base = agreementsWithTexts(db, ['recipient_legal_name', 'program_name_en']).query;
  if (filters.text !== undefined) {
    // the agreements one of whose searched columns is a dictionary text containing the string
    const texts = db
      .selectFrom(GRANTS_TEXTS_TABLE)
      .select('id')
      .where(substringMatch(db, GRANTS_SEARCH, filters.text));
    base = base.where((eb) => eb.or(SEARCHED_COLUMNS.map((c) => eb(`g.${c.textId}`, 'in', texts))));
  }
  if (filters.province !== undefined) base = base.where('g.recipient_province', '=', filters.province);
  if (filters.fiscalYear !== undefined) base = base.where('g.fiscal_year', '=', filters.fiscalYear);
  if (filters.recipientType !== undefined) base = base.where('g.recipient_type', '=', filters.recipientType);
  if (filters.minCents !== undefined) base = base.where('g.agreement_value_cents', '>=', filters.minCents);
  if (filters.maxCents !== undefined) base = base.where('g.agreement_value_cents', '<=', filters.maxCents);
  if (filters.isMajor !== undefined)
    base = base.where('g.agreement_value_cents', filters.isMajor ? '>' : '<=', MAJOR_FUNDING_THRESHOLD_CENTS);
  if (filters.isNotable !== undefined) base = base.where('g.is_notable', '=', dbBool(db, filters.isNotable));

  const count = num((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const direction = order.descending ? 'desc' : 'asc';
  let query = base.select('g.id');
  for (const column of SORT_ORDERS[order.field].columns) {
    // NULLs (end dates only) sort as the lowest value on both databases, as SQLite does by itself.
    const nulls =
      column === 'agreement_end_date' && dialectOf(db) === 'postgres' ? (order.descending ? ' nulls last' : ' nulls first') : '';
    const ref = column === 'recipient_legal_name' || column === 'program_name_en' ? textOf(column) : sql.ref(`g.${column}`);
    query = query.orderBy(sql`${ref} ${sql.raw(`${direction}${nulls}`)}`);
  }
  const ids = await query.orderBy('g.id', direction).limit(page.limit).offset(page.offset).execute();
  return {
    count,
    rows: await grantsByIds(
      db,
      ids.map((r) => Number(r.id)),
    ),
  };
}
