// `import grants <csv>`: the federal "Proactive Publication – Grants and Contributions" CSV, streamed into one
// transaction (core runImport), one row per agreement (owner_org, reference) holding its highest amendment,
// idempotent (agreements keep their ids; unchanged agreements are counted as such; agreements the file no
// longer has are deleted), with every aggregate of the API recomputed in the same transaction.
//
// How the 1.3-million-row file stays fast and small:
//  - rows are written as multi-row upserts (one statement text per batch size, prepared once and reused),
//    whose conflict clause applies the amendment rule (`supersedes`) in the database, so memory holds one
//    batch, never the file;
//  - the table has no secondary index to maintain (searches are answered in memory: memory-search.ts);
//  - on SQLite (and on an empty PostgreSQL table) the text dictionary's substring index is dropped for the
//    load and rebuilt once at the end, inside the transaction; readers keep the old snapshot. A PostgreSQL
//    dictionary that holds data keeps its index (dropping it would lock readers out until commit).
import fs from 'node:fs';
import path from 'node:path';
import { hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { CompiledQuery, sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import { dbBool, dialectOf, num } from '../../core/db/dialect.ts';
import type { DialectName } from '../../core/db/dialect.ts';
import { putAggregate } from '../../core/db/datasets.ts';
import { resumeSubstringIndex, suspendSubstringIndex } from '../../core/db/search-index.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { amendmentKey, supersedes, NOTABLE_RULES_VERSION } from './source/index.ts';
import { readGrantsCsvThreaded } from './source/reader-thread.ts';
import type { GrantRecord, NotableMatcher } from './source/index.ts';
import { computeAggregates, AGGREGATE_NAMES } from './statistics.ts';
import type { DataSource } from './statistics.ts';
import {
  DATA_COLUMNS,
  GRANTS_SEARCH,
  GRANTS_TABLE,
  GRANTS_TEXTS_TABLE,
  SEARCHED_COLUMNS,
  TEXT_ID_COLUMNS,
} from './tables.ts';
import type { DataColumn } from './tables.ts';

export const GRANTS_DATASET = 'agreements';

/** Rows a file row is merged into when a later amendment of the same agreement is current. */
export const SUPERSEDED_REASON = 'superseded by a later amendment of the same agreement';

/** Rows per upsert statement: 32 parameters a row stays below both databases' parameter limits. */
const BATCH_ROWS = 500;

// Every stored data column is the GrantRecord field of the same name (checked by the compiler here).
const RECORD_FIELDS: readonly (DataColumn & keyof GrantRecord)[] = DATA_COLUMNS;

export interface GrantsImportOptions {
  isDemo?: boolean;
  /** Label of the source in reports (default: the path, or "stream"). */
  sourceLabel?: string;
  /** Show a progress bar (default: when stderr is a terminal). */
  progress?: boolean;
  notable?: NotableMatcher;
  /** Called with a line of text for each stage (index rebuild, aggregates) of a long import. */
  log?: (message: string) => void;
  /** The calculator's current fiscal year (start year); default the last year of the data with a revenue figure. */
  currentYear?: number;
}

/** The conditional upsert of `rows` agreements: the later row wins where `supersedes` says so. */
function upsertStatement(dialect: DialectName, rows: number): string {
  const stored = [...DATA_COLUMNS, ...TEXT_ID_COLUMNS];
  const columns = [...stored, 'content_hash', 'previous_hash', 'import_version'];
  const perRow = stored.length + 2; // previous_hash is a literal NULL
  let p = 0;
  const placeholder = dialect === 'sqlite' ? () => '?' : () => `$${++p}`;
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < perRow; c++) cells.push(placeholder());
    cells.splice(stored.length + 1, 0, 'NULL');
    tuples.push(`(${cells.join(',')})`);
  }
  const t = GRANTS_TABLE;
  const set = stored.map((c) => `${c} = excluded.${c}`);
  set.push(
    'content_hash = excluded.content_hash',
    // the values before this import touched the row: what "unchanged" is measured against
    `previous_hash = CASE WHEN ${t}.import_version <> excluded.import_version THEN ${t}.content_hash ELSE ${t}.previous_hash END`,
    'import_version = excluded.import_version',
  );
  // The first row of this import for an agreement replaces what an earlier import stored; later rows of the
  // same import replace it when they supersede it (higher amendment_number; equal: later amendment_date,
  // a date beats none; still equal: the later row). '' sorts before every date, so coalesce says "no date".
  const wins =
    `${t}.import_version <> excluded.import_version` +
    ` OR excluded.amendment_number > ${t}.amendment_number` +
    ` OR (excluded.amendment_number = ${t}.amendment_number AND coalesce(excluded.amendment_date, '') >= coalesce(${t}.amendment_date, ''))`;
  return (
    `INSERT INTO ${t} (${columns.join(', ')}) VALUES ${tuples.join(',')} ` +
    `ON CONFLICT (owner_org, reference_number) DO UPDATE SET ${set.join(', ')} WHERE ${wins}`
  );
}

/** A 32-bit finaliser: spreads every input bit over the whole word. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * Three 32-bit multiplicative hashes of a text's UTF-16 code units (distinct odd multipliers and seeds):
 * the first two make the 53-bit key, the third is the check.
 */
function fingerprint(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let c = 0x27d4eb2f;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ u, 0x5bd1e995);
    c = Math.imul(c ^ u, 0xcc9e2d51);
  }
  return [(mix32(b) & 0x1fffff) * 4294967296 + mix32(a), mix32(c ^ text.length)];
}

/** Rows per insert into the text dictionary (2 parameters a row). */
const TEXT_BATCH_ROWS = 2000;

/**
 * The text dictionary of this import: each distinct searched text gets an id the first time a stored
 * agreement uses it, and is written once. The dictionary is rebuilt by every import (it starts empty), so it
 * holds the texts of the file's current agreements only.
 *
 * Memory: holding the distinct texts as keys cost 86 MB of strings on the 1.3-million-row file (and the
 * heap's growth around them pushed the import past 600 MB), so a text is known by an 85-bit fingerprint
 * instead (a 53-bit hash as the key; a second, independent 32-bit hash and the length checked on every hit).
 * A hit whose check differs is a collision of the first hash: that text is then kept exactly, in a map of
 * its own. Two distinct texts agreeing on all 85 bits and the length is the only way to confuse them:
 * about 10⁻¹⁴ for a million texts.
 */
export class TextDictionary {
  private readonly trx: Kysely<any>;
  private readonly fingerprintOf: (text: string) => [number, number];
  private readonly dialect: DialectName;
  private readonly byHash = new Map<number, number>();
  /** Texts whose first hash collided with another text's. */
  private readonly exact = new Map<string, number>();
  private checks = new Uint32Array(1 << 16);
  private lengths = new Uint32Array(1 << 16);
  private count = 0;
  private pending: unknown[] = [];
  private readonly statements = new Map<number, string>();

  /** `fingerprintOf` is for tests (a colliding one); the default is `fingerprint`. */
  constructor(trx: Kysely<any>, fingerprintOf = fingerprint) {
    this.trx = trx;
    this.dialect = dialectOf(trx);
    this.fingerprintOf = fingerprintOf;
  }

  idOf(text: string): number {
    const [key, check] = this.fingerprintOf(text);
    const known = this.byHash.get(key);
    if (known !== undefined && this.checks[known] === check && this.lengths[known] === text.length) return known;
    if (known !== undefined) {
      const id = this.exact.get(text);
      if (id !== undefined) return id;
    }
    const id = this.add(text, check);
    if (known === undefined) this.byHash.set(key, id);
    else this.exact.set(Buffer.from(text).toString(), id); // a copy: see below
    return id;
  }

  private add(text: string, check: number): number {
    const id = ++this.count;
    if (id >= this.checks.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.checks = grow(this.checks);
      this.lengths = grow(this.lengths);
    }
    this.checks[id] = check;
    this.lengths[id] = text.length;
    // A parsed cell is a slice of the parser's whole input chunk, which holding it would keep alive until
    // the flush: a copy (through UTF-8, one byte a character for ASCII) frees the chunk at once.
    this.pending.push(id, Buffer.from(text).toString());
    return id;
  }

  get size(): number {
    return this.count;
  }

  /** Writes the texts seen since the last call. */
  async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const params = this.pending.splice(0, TEXT_BATCH_ROWS * 2);
      const n = params.length / 2;
      let text = this.statements.get(n);
      if (!text) {
        let p = 0;
        const placeholder = this.dialect === 'sqlite' ? () => '?' : () => `$${++p}`;
        const tuples = Array.from({ length: n }, () => `(${placeholder()},${placeholder()})`);
        text = `INSERT INTO ${GRANTS_TEXTS_TABLE} (id, text) VALUES ${tuples.join(',')}`;
        this.statements.set(n, text);
      }
      await this.trx.executeQuery(CompiledQuery.raw(text, params));
    }
  }
}

/**
 * Collects rows and writes them in statements of BATCH_ROWS agreements. Rows of an agreement already waiting
 * are merged by the amendment rule first (a statement may not touch a row twice on PostgreSQL), so statements
 * have one size (and one prepared statement) until the last. Only the winners' texts enter the dictionary.
 */
class AgreementWriter {
  private readonly trx: Kysely<any>;
  private readonly dialect: DialectName;
  private readonly importVersion: string;
  private readonly statements = new Map<number, string>();
  private pending = new Map<string, GrantRecord>();
  private readonly trueValue: boolean | number;
  private readonly falseValue: boolean | number;
  readonly texts: TextDictionary;

  constructor(trx: Kysely<any>, importVersion: string) {
    this.trx = trx;
    this.dialect = dialectOf(trx);
    this.importVersion = importVersion;
    this.trueValue = dbBool(this.dialect, true);
    this.falseValue = dbBool(this.dialect, false);
    this.texts = new TextDictionary(trx);
  }

  /** Returns a promise only when a statement is written, so the reader pauses only then. */
  add(record: GrantRecord): Promise<void> | undefined {
    const key = amendmentKey(record);
    const current = this.pending.get(key);
    if (!current || supersedes(record, current)) this.pending.set(key, record);
    return this.pending.size >= BATCH_ROWS ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const winners = this.pending;
    this.pending = new Map();
    const params: unknown[] = [];
    for (const record of winners.values()) {
      const start = params.length;
      for (const column of RECORD_FIELDS) {
        const value = record[column];
        params.push(typeof value === 'boolean' ? (value ? this.trueValue : this.falseValue) : value);
      }
      // the hash covers the record's values, not the dictionary ids (which another file order would change)
      const contentHash = hash('sha1', params.slice(start).join('\u001f'), 'base64');
      for (const { column } of SEARCHED_COLUMNS) params.push(this.texts.idOf(record[column]));
      params.push(contentHash, this.importVersion);
    }
    await this.texts.flush();
    const n = winners.size;
    let text = this.statements.get(n);
    if (!text) {
      text = upsertStatement(this.dialect, n);
      this.statements.set(n, text);
    }
    await this.trx.executeQuery(CompiledQuery.raw(text, params));
  }
}

function describeSource(input: string | Readable, options: GrantsImportOptions): string {
  return options.sourceLabel ?? (typeof input === 'string' ? input : 'stream');
}

/**
 * Imports one grants CSV (a path, or a readable stream of its bytes). Rejects, leaving the stored data as it
 * was, when a required column is missing (the message names it), when the file has no valid row, or when
 * reading fails midway.
 */
export async function importGrantsCsv(db: Db, input: string | Readable, options: GrantsImportOptions = {}): Promise<ImportReport> {
  const source = describeSource(input, options);
  if (db.dialect !== 'sqlite') return importInTransaction(db, input, source, options);
  // Two SQLite settings wrap the import (neither can change inside a transaction):
  //  - temporary storage (sorts) spills to files instead of growing the process by hundreds of MB;
  //  - when no other connection has the database open, the import writes with a rollback journal instead of
  //    the WAL: new pages then need no journal at all, where the WAL writes every page twice (the upsert of
  //    300,000 rows: 8.8 µs a row against 14.0). SQLite refuses the switch while another connection has the
  //    file open (a running server, say); the import then writes through the WAL, and readers keep the old
  //    snapshot until it commits.
  const previousTemp = (await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(db.kysely)).rows[0]?.temp_store ?? 0;
  await sql`PRAGMA temp_store = FILE`.execute(db.kysely);
  const journalMode = async (set?: string): Promise<string> => {
    const rows = (await sql.raw(`PRAGMA journal_mode${set ? ` = ${set}` : ''}`).execute(db.kysely)).rows as Array<Record<string, unknown>>;
    return String(rows[0]?.journal_mode ?? '').toLowerCase();
  };
  let switched = false;
  if ((await journalMode()) === 'wal') {
    // another connection on the file makes the switch fail with "database is locked": at once, not after the
    // connection's busy timeout
    const timeout = Number((await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(db.kysely)).rows[0]?.timeout ?? 0);
    await sql`PRAGMA busy_timeout = 0`.execute(db.kysely);
    try {
      switched = (await journalMode('DELETE')) === 'delete';
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    } finally {
      await sql.raw(`PRAGMA busy_timeout = ${timeout}`).execute(db.kysely);
    }
  }
  try {
    return await importInTransaction(db, input, source, options);
  } finally {
    if (switched) await journalMode('WAL');
    await sql.raw(`PRAGMA temp_store = ${Number(previousTemp)}`).execute(db.kysely);
  }
}

function importInTransaction(db: Db, input: string | Readable, source: string, options: GrantsImportOptions): Promise<ImportReport> {
  const isDemo = options.isDemo ?? false;
  const log = options.log ?? (() => {});
  return runImport(
    db,
    { service: 'grants', importer: 'csv', dataset: GRANTS_DATASET, source, isDemo, progress: { unit: 'bytes', enabled: options.progress } },
    async (trx, { tally, progress, dataVersion }) => {
      const dialect = dialectOf(trx);
      const hadRows = (await trx.selectFrom(GRANTS_TABLE).select('id').limit(1).executeTakeFirst()) !== undefined;
      // Bulk mode: rebuild the substring index once instead of maintaining it row by row (see the file comment).
      const bulk = dialect === 'sqlite' || !hadRows;
      if (bulk) await suspendSubstringIndex(trx, GRANTS_SEARCH);
      // The dictionary is rebuilt from this file's agreements (every row gets its new text ids).
      await trx.deleteFrom(GRANTS_TEXTS_TABLE).execute();

      log('loading rows');
      const writer = new AgreementWriter(trx, dataVersion);
      let mapped = 0;
      const summary = await readGrantsCsvThreaded(
        input,
        (record) => {
          tally.read();
          mapped++;
          return writer.add(record);
        },
        {
          notable: options.notable,
          onSkip: (reason) => {
            tally.read();
            tally.skip(reason);
          },
          onProgress: (p) => {
            if (p.totalBytes !== null) progress.setTotal(p.totalBytes);
            progress.update(p.bytesRead);
          },
        },
      );
      await writer.flush();
      log('counting and deleting');
      if (mapped === 0) {
        throw new Error(`${source}: no valid grant rows (${summary.rowsRead} rows read, ${summary.skipped} skipped); the stored data is unchanged`);
      }

      const deleted = await trx.deleteFrom(GRANTS_TABLE).where('import_version', '<>', dataVersion).executeTakeFirst();
      tally.deleted(Number(deleted.numDeletedRows));
      const counts = await trx
        .selectFrom(GRANTS_TABLE)
        .select([
          (eb) => eb.fn.countAll().as('agreements'),
          sql<number>`sum(case when previous_hash is null then 1 else 0 end)`.as('inserted'),
          sql<number>`sum(case when previous_hash = content_hash then 1 else 0 end)`.as('unchanged'),
        ])
        .executeTakeFirstOrThrow();
      const agreements = num(counts.agreements);
      const inserted = num(counts.inserted);
      const unchanged = num(counts.unchanged);
      tally.inserted(inserted);
      tally.unchanged(unchanged);
      tally.updated(agreements - inserted - unchanged);
      if (mapped > agreements) tally.skip(SUPERSEDED_REASON, mapped - agreements);

      if (bulk) {
        log('building the substring index');
        await resumeSubstringIndex(trx, GRANTS_SEARCH);
      }
      // PostgreSQL plans by cost: give it statistics of the new data. (SQLite's searches choose their index
      // themselves from the match count; see repository.ts.)
      if (dialect === 'postgres') await sql.raw(`ANALYZE ${GRANTS_TABLE}`).execute(trx);
      log('computing aggregates');
      const dataSource: DataSource = {
        kind: isDemo ? 'demo' : 'import',
        is_demo: isDemo,
        description: isDemo
          ? 'Generated demo data (self-written vocabularies, not real agreements): pdi generate grants'
          : 'Proactive Publication – Grants and Contributions (open.canada.ca)',
        source: typeof input === 'string' ? path.basename(input) : source,
        schema: summary.schema,
        data_version: dataVersion,
        imported_at: new Date().toISOString(),
        notable_rules_version: NOTABLE_RULES_VERSION,
      };
      const aggregates = await computeAggregates(trx, dataSource, { currentYear: options.currentYear });
      for (const name of AGGREGATE_NAMES) await putAggregate(trx, 'grants', name, dataVersion, aggregates[name]);
    },
  );
}

/** A path as the CLI gets it: a CSV file, or a directory holding exactly one (generate writes grants.csv). */
export function resolveCsvPath(target: string): string {
  if (!fs.statSync(target).isDirectory()) return target;
  const preferred = path.join(target, 'grants.csv');
  if (fs.existsSync(preferred)) return preferred;
  const csvs = fs.readdirSync(target).filter((f) => f.toLowerCase().endsWith('.csv'));
  if (csvs.length !== 1) throw new Error(`${target}: expected one .csv file (or grants.csv), found ${csvs.length}`);
  return path.join(target, csvs[0]);
}

export async function importGrantsPath(ctx: ServiceContext, target: string, options: GrantsImportOptions = {}): Promise<ImportReport> {
  const file = resolveCsvPath(target);
  const report = await importGrantsCsv(ctx.db, file, { log: (m) => ctx.log.info(m), ...options });
  ctx.dataVersion.invalidate();
  return report;
}
