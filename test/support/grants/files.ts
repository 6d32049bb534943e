// Shared by Service C's database tests: small CSV files written by hand (exact amendment cases) or by the
// generator (a few thousand rows), and an independent reading of what the importer should have stored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { writeGrantsCsv } from '../../../src/services/grants/generator/index.ts';
import { AmendmentResolver, GENERATED_MARKER_COLUMN, PRE_2025_COLUMNS, readGrantsCsv } from '../../../src/services/grants/source/index.ts';
import type { GrantRecord } from '../../../src/services/grants/source/index.ts';
import type { Db } from '../../../src/core/db/database.ts';
import { importGrantsCsv } from '../../../src/services/grants/import/importer.ts';
import { grantsService } from '../../../src/services/grants/service.ts';
import type { ServiceApp } from '../../../src/core/service.ts';
import { buildTestApp } from '../app.ts';

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

/** Hand rows numbered in order (`${prefix}1`, `${prefix}2`, …), each the cells given over handRow's complete row. */
export function numberedHandCsv(cells: Array<Record<string, string>>, prefix = '001-2020-2021-Q1-0000'): string {
  return handCsv(cells.map((c, i) => handRow({ ref_number: `${prefix}${i + 1}`, ...c })));
}

/** Imports numbered hand rows from a CSV in a new temporary folder; the folder is returned, for the caller to remove. */
async function importHandRows(db: Db, cells: Array<Record<string, string>>): Promise<string> {
  const dir = tempDir();
  const file = path.join(dir, 'hand.csv');
  fs.writeFileSync(file, numberedHandCsv(cells));
  await importGrantsCsv(db, file);
  return dir;
}

/** C's app over hand-written rows imported into `db`; `close` stops it and removes the rows' file. */
export async function serveHandRows(
  db: Db,
  cells: Array<Record<string, string>>,
): Promise<{ app: ServiceApp; close: () => Promise<void> }> {
  const dir = await importHandRows(db, cells);
  const app = await buildTestApp(grantsService, db);
  return {
    app,
    close: async () => {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A generated file without its generated-data marker column: a stand-in for a real file (imported, its data
 * is labelled imported, not demo). `writeGrantsCsv` itself gives the marked file `generate grants` writes.
 */
export async function writeGenerated(dir: string, rows: number, seed: string, name = 'grants.csv'): Promise<string> {
  const file = path.join(dir, name);
  await writeGrantsCsv(file, { rows, seed });
  removeGeneratedMarker(file);
  return file;
}

/** Rewrites a generated CSV without its marker column (the last one; its cells are empty). */
export function removeGeneratedMarker(file: string): void {
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
  const marker = rows[0].indexOf(GENERATED_MARKER_COLUMN);
  if (marker < 0) throw new Error(`${file} has no ${GENERATED_MARKER_COLUMN} column`);
  const kept = rows.map((row) => row.filter((_, i) => i !== marker));
  fs.writeFileSync(file, `\uFEFF${Papa.unparse(kept, { newline: '\r\n' })}\r\n`);
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
