// The import runner every importer uses: one transaction (readers see the old data or the new, never a
// mix; a failure leaves the old data), a new data version recorded with the data, counts with reasons
// for every skipped row, and a log row in import_runs for every attempt.
import os from 'node:os';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db } from './db/database.ts';
import type { CoreTables } from './db/tables.ts';
import { newDataVersion, recordDataVersion } from './db/datasets.ts';
import { dbJson, lockForTransaction } from './db/dialect.ts';
import { createProgress } from './progress.ts';
import type { Progress, ProgressOptions } from './progress.ts';

export interface ImportReport {
  service: string;
  importer: string;
  dataset: string;
  source: string;
  is_demo: boolean;
  data_version: string;
  rows_read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Every row not imported: unreadable ones and rows outside what the dataset keeps. */
  skipped: number;
  skip_reasons: Record<string, number>;
  /** The part of `skipped` that could not be read (the guard's skip share counts these). */
  unreadable: number;
  /** Records the dataset held before this import (the guard's shrink share is `deleted / stored_before`). */
  stored_before: number;
  /** Generated demo rows removed because real data came in (not counted as deleted). */
  demo_rows_removed: number;
  /** Secondary fields read as null and other things the import kept but could not read as written. */
  warnings: number;
  /** The first warnings, verbatim (where, what, the raw value). */
  warning_samples: string[];
  duration_ms: number;
}

/** What kind of row a skip is: one that could not be read, or one the dataset does not keep (a filter, a duplicate). */
export type SkipKind = 'unreadable' | 'excluded';

const WARNING_SAMPLES = 50;

export class ImportTally {
  rowsRead = 0;
  insertedCount = 0;
  updatedCount = 0;
  unchangedCount = 0;
  deletedCount = 0;
  demoRowsRemoved = 0;
  warningCount = 0;
  readonly warningSamples: string[] = [];
  /** Set by importers that know it; otherwise taken as unchanged + updated + deleted (every stored row kept or deleted). */
  storedBeforeCount: number | null = null;
  readonly skipReasons = new Map<string, number>();
  private unreadableCount = 0;

  read(n = 1): void {
    this.rowsRead += n;
  }
  inserted(n = 1): void {
    this.insertedCount += n;
  }
  updated(n = 1): void {
    this.updatedCount += n;
  }
  unchanged(n = 1): void {
    this.unchangedCount += n;
  }
  deleted(n = 1): void {
    this.deletedCount += n;
  }
  /** How many records the dataset held before the import, when the importer counts them itself. */
  storedBefore(n: number): void {
    this.storedBeforeCount = n;
  }
  /** Generated demo rows replaced by real data (reported apart; the shrink guard does not count them). */
  demoRemoved(n = 1): void {
    this.demoRowsRemoved += n;
  }
  /**
   * A row not imported, with the reason (reasons are counted, so keep them free of row-specific text).
   * `unreadable` rows count toward the guard's skip share; `excluded` rows (outside what the dataset keeps,
   * duplicates whose first copy was kept) do not.
   */
  skip(reason: string, n = 1, kind: SkipKind = 'unreadable'): void {
    this.skipReasons.set(reason, (this.skipReasons.get(reason) ?? 0) + n);
    if (kind === 'unreadable') this.unreadableCount += n;
  }
  /** A row the dataset does not keep (not an error of the file): `skip(reason, n, 'excluded')`. */
  exclude(reason: string, n = 1): void {
    this.skip(reason, n, 'excluded');
  }
  /** Something kept but not read as written (a secondary field stored as null): say where, what and the raw value. */
  warn(message: string): void {
    this.warningCount++;
    if (this.warningSamples.length < WARNING_SAMPLES) this.warningSamples.push(message);
  }
  get skipped(): number {
    let total = 0;
    for (const n of this.skipReasons.values()) total += n;
    return total;
  }
  get unreadable(): number {
    return this.unreadableCount;
  }
  get storedBeforeTotal(): number {
    return this.storedBeforeCount ?? this.unchangedCount + this.updatedCount + this.deletedCount;
  }
}

export interface ImportContext {
  tally: ImportTally;
  progress: Progress;
  /** The version this import will record; store it with precomputed aggregates. */
  dataVersion: string;
}

/**
 * What an import may do to stored data before it is refused. Defaults: at most 10% of the stored records
 * deleted (`PDI_IMPORT_MAX_SHRINK`), at most 5% of the rows read unreadable (`PDI_IMPORT_MAX_UNREADABLE`);
 * `allowShrink` / `allowSkips` (the CLI's `--allow-shrink` / `--allow-skips`) lift them.
 */
export interface ImportGuard {
  allowShrink?: boolean;
  allowSkips?: boolean;
  maxShrink?: number;
  maxUnreadable?: number;
}

export const DEFAULT_MAX_SHRINK = 0.1;
export const DEFAULT_MAX_UNREADABLE = 0.05;

/** The guard an importer passes to runImport, from its CLI options and the environment. */
export function importGuard(options: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env): ImportGuard {
  return {
    allowShrink: options.allowShrink === true,
    allowSkips: options.allowSkips === true,
    maxShrink: fraction(env.PDI_IMPORT_MAX_SHRINK, 'PDI_IMPORT_MAX_SHRINK', DEFAULT_MAX_SHRINK),
    maxUnreadable: fraction(env.PDI_IMPORT_MAX_UNREADABLE, 'PDI_IMPORT_MAX_UNREADABLE', DEFAULT_MAX_UNREADABLE),
  };
}

function fraction(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${name} must be a fraction between 0 and 1, got "${raw}"`);
  return value;
}

/** An import refused by its guard or because its file is cut short: nothing was changed. */
export class ImportRefusedError extends Error {
  override name = 'ImportRefusedError';
}

/** A source file that ends before its last record does (unterminated quote, missing cells, an unclosed JSON document). */
export class TruncatedSourceError extends ImportRefusedError {
  override name = 'TruncatedSourceError';
  constructor(file: string, where: string) {
    super(`${file} is truncated: ${where}; nothing was imported (the stored data is unchanged)`);
  }
}

/** Throws ImportRefusedError when the import would delete or skip more than its guard allows. */
export function checkImportGuard(report: ImportReport, guard: ImportGuard = {}): void {
  const maxShrink = guard.maxShrink ?? DEFAULT_MAX_SHRINK;
  const maxUnreadable = guard.maxUnreadable ?? DEFAULT_MAX_UNREADABLE;
  const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
  if (!guard.allowShrink && report.stored_before > 0 && report.deleted / report.stored_before > maxShrink) {
    throw new ImportRefusedError(
      `${report.source}: refused: the import would delete ${report.deleted} of the ${report.stored_before} stored ` +
        `${report.service}/${report.dataset} records (${percent(report.deleted / report.stored_before)}; the limit is ` +
        `${percent(maxShrink)}); nothing was changed. Check the file; pass --allow-shrink if the deletion is intended.`,
    );
  }
  if (!guard.allowSkips && report.rows_read > 0 && report.unreadable / report.rows_read > maxUnreadable) {
    throw new ImportRefusedError(
      `${report.source}: refused: ${report.unreadable} of the ${report.rows_read} rows read could not be read ` +
        `(${percent(report.unreadable / report.rows_read)}; the limit is ${percent(maxUnreadable)}); nothing was changed. ` +
        `Check the file; pass --allow-skips to import the readable rows.`,
    );
  }
}

export interface ImportOptions {
  service: string;
  importer: string;
  /** What the data replaces: one service can hold several datasets (e.g. papers and citations). */
  dataset: string;
  source: string;
  isDemo?: boolean;
  /** Limits on deletions and unreadable rows (see ImportGuard); the defaults apply when omitted. */
  guard?: ImportGuard;
  progress?: Omit<ProgressOptions, 'label'> & { label?: string };
}

/** This process, as written in import_runs: a later import tells from it whether the run's holder is still alive. */
const HOLDER_HOST = os.hostname();

export async function runImport(
  db: Db,
  options: ImportOptions,
  work: (trx: Kysely<CoreTables>, ctx: ImportContext) => Promise<void>,
): Promise<ImportReport> {
  const started = new Date();
  await markAbandonedRuns(db);
  const run = await db.kysely
    .insertInto('import_runs')
    .values({
      service: options.service,
      importer: options.importer,
      source: options.source,
      status: 'running',
      started_at: started.toISOString(),
      holder_host: HOLDER_HOST,
      holder_pid: process.pid,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tally = new ImportTally();
  const progress = createProgress({ label: `${options.service} ${options.importer}`, ...options.progress });
  const dataVersion = newDataVersion(started);
  const report = (): ImportReport => ({
    service: options.service,
    importer: options.importer,
    dataset: options.dataset,
    source: options.source,
    is_demo: options.isDemo ?? false,
    data_version: dataVersion,
    rows_read: tally.rowsRead,
    inserted: tally.insertedCount,
    updated: tally.updatedCount,
    unchanged: tally.unchangedCount,
    deleted: tally.deletedCount,
    skipped: tally.skipped,
    skip_reasons: Object.fromEntries(tally.skipReasons),
    unreadable: tally.unreadable,
    stored_before: tally.storedBeforeTotal,
    demo_rows_removed: tally.demoRowsRemoved,
    warnings: tally.warningCount,
    warning_samples: [...tally.warningSamples],
    duration_ms: Date.now() - started.getTime(),
  });
  let final: ImportReport | null = null;
  try {
    await db.kysely.transaction().execute(async (trx) => {
      // One import of a service at a time: two at once could each take the tables for what they were before
      // the other committed (on PostgreSQL the second failed on a unique key, or kept the first file's rows).
      await lockForTransaction(trx, `import:${options.service}`);
      if (db.dialect === 'postgres') {
        // The connection that holds the lock: a later import asks PostgreSQL whether it is still there.
        const backend = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx)).rows[0].pid;
        await db.kysely.updateTable('import_runs').set({ backend_pid: backend }).where('id', '=', run.id).execute();
      }
      await work(trx, { tally, progress, dataVersion });
      const done = report();
      checkImportGuard(done, options.guard);
      await recordDataVersion(trx, {
        service: options.service,
        dataset: options.dataset,
        version: dataVersion,
        source: options.source,
        isDemo: options.isDemo ?? false,
        report: done,
      });
      // Marked succeeded in the same transaction as the data: no one can see the data without the status.
      await trx
        .updateTable('import_runs')
        .set({ status: 'succeeded', finished_at: new Date().toISOString(), report: dbJson(trx, done) })
        .where('id', '=', run.id)
        .execute();
      final = done;
    });
  } catch (error) {
    progress.stop();
    await db.kysely
      .updateTable('import_runs')
      .set({
        status: error instanceof ImportRefusedError ? 'refused' : 'failed',
        finished_at: new Date().toISOString(),
        report: dbJson(db.kysely, report()),
        error: error instanceof Error ? error.message : String(error),
      })
      .where('id', '=', run.id)
      .execute()
      .catch(() => {}); // the database itself may be what failed; the original error matters more
    throw error;
  }
  progress.stop();
  return final ?? report();
}

/**
 * Runs left "running" by a process that died (kill -9, power loss) are marked "aborted". A run is abandoned
 * when its process on this host no longer exists, or, on PostgreSQL, when the connection that held its
 * import lock is gone. Runs of other hosts that never reached the lock are left as they are.
 */
export async function markAbandonedRuns(db: Db): Promise<number> {
  const running = await db.kysely
    .selectFrom('import_runs')
    .select(['id', 'holder_host', 'holder_pid', 'backend_pid'])
    .where('status', '=', 'running')
    .execute();
  if (running.length === 0) return 0;
  let liveBackends: Set<number> | null = null;
  if (db.dialect === 'postgres' && running.some((r) => r.backend_pid !== null)) {
    const rows = (await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity`.execute(db.kysely)).rows;
    liveBackends = new Set(rows.map((r) => Number(r.pid)));
  }
  const abandoned: number[] = [];
  for (const r of running) {
    const processGone = r.holder_host === HOLDER_HOST && r.holder_pid !== null && !processAlive(r.holder_pid);
    const backendGone = liveBackends !== null && r.backend_pid !== null && !liveBackends.has(r.backend_pid);
    if (processGone || backendGone) abandoned.push(r.id);
  }
  if (abandoned.length === 0) return 0;
  await db.kysely
    .updateTable('import_runs')
    .set({
      status: 'aborted',
      finished_at: new Date().toISOString(),
      error: 'the importing process ended without finishing (killed or crashed); nothing it read was kept',
    })
    .where('id', 'in', abandoned)
    .where('status', '=', 'running')
    .execute();
  return abandoned.length;
}

/** Whether a process of this host with this id still exists. */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** One line per import for the terminal. */
export function formatImportReport(r: ImportReport): string {
  const reasons = Object.entries(r.skip_reasons)
    .map(([reason, n]) => `${n} ${reason}`)
    .join('; ');
  return (
    `${r.service}/${r.dataset} from ${r.source}: read ${r.rows_read}, inserted ${r.inserted}, updated ${r.updated}, ` +
    `unchanged ${r.unchanged}, deleted ${r.deleted}${r.demo_rows_removed ? ` (and ${r.demo_rows_removed} demo rows)` : ''}, ` +
    `skipped ${r.skipped}${reasons ? ` (${reasons})` : ''}${r.warnings ? `, ${r.warnings} warnings` : ''} ` +
    `in ${(r.duration_ms / 1000).toFixed(1)} s; data version ${r.data_version}`
  );
}
