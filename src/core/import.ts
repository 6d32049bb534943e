// The import runner every importer uses: one transaction (readers see the old data or the new, never a
// mix; a failure leaves the old data), a new data version recorded with the data, counts with reasons
// for every skipped row, and a log row in import_runs for every attempt.
import type { Kysely } from 'kysely';
import type { Db } from './db/database.ts';
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
  skipped: number;
  skip_reasons: Record<string, number>;
  duration_ms: number;
}

export class ImportTally {
  rowsRead = 0;
  insertedCount = 0;
  updatedCount = 0;
  unchangedCount = 0;
  deletedCount = 0;
  readonly skipReasons = new Map<string, number>();

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
  /** A row not imported, with the reason (reasons are counted, so keep them free of row-specific text). */
  skip(reason: string, n = 1): void {
    this.skipReasons.set(reason, (this.skipReasons.get(reason) ?? 0) + n);
  }
  get skipped(): number {
    let total = 0;
    for (const n of this.skipReasons.values()) total += n;
    return total;
  }
}

export interface ImportContext {
  tally: ImportTally;
  progress: Progress;
  /** The version this import will record; store it with precomputed aggregates. */
  dataVersion: string;
}

export interface ImportOptions {
  service: string;
  importer: string;
  /** What the data replaces: one service can hold several datasets (e.g. papers and citations). */
  dataset: string;
  source: string;
  isDemo?: boolean;
  progress?: Omit<ProgressOptions, 'label'> & { label?: string };
}

export async function runImport(
  db: Db,
  options: ImportOptions,
  work: (trx: Kysely<any>, ctx: ImportContext) => Promise<void>,
): Promise<ImportReport> {
  const started = new Date();
  const run = await db.kysely
    .insertInto('import_runs')
    .values({
      service: options.service,
      importer: options.importer,
      source: options.source,
      status: 'running',
      started_at: started.toISOString(),
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
    duration_ms: Date.now() - started.getTime(),
  });
  try {
    await db.kysely.transaction().execute(async (trx) => {
      // One import of a service at a time: two at once could each take the tables for what they were before
      // the other committed (on PostgreSQL the second failed on a unique key, or kept the first file's rows).
      await lockForTransaction(trx, `import:${options.service}`);
      await work(trx, { tally, progress, dataVersion });
      await recordDataVersion(trx, {
        service: options.service,
        dataset: options.dataset,
        version: dataVersion,
        source: options.source,
        isDemo: options.isDemo ?? false,
        report: report(),
      });
    });
  } catch (error) {
    progress.stop();
    await db.kysely
      .updateTable('import_runs')
      .set({
        status: 'failed',
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
  const final = report();
  await db.kysely
    .updateTable('import_runs')
    .set({ status: 'succeeded', finished_at: new Date().toISOString(), report: dbJson(db.kysely, final) })
    .where('id', '=', run.id)
    .execute();
  return final;
}

/** One line per import for the terminal. */
export function formatImportReport(r: ImportReport): string {
  const reasons = Object.entries(r.skip_reasons)
    .map(([reason, n]) => `${n} ${reason}`)
    .join('; ');
  return (
    `${r.service}/${r.dataset} from ${r.source}: read ${r.rows_read}, inserted ${r.inserted}, updated ${r.updated}, ` +
    `unchanged ${r.unchanged}, deleted ${r.deleted}, skipped ${r.skipped}${reasons ? ` (${reasons})` : ''} ` +
    `in ${(r.duration_ms / 1000).toFixed(1)} s; data version ${r.data_version}`
  );
}
