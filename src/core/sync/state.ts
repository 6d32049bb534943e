// The sync's state in the database, shared by every instance on it: the schedule (next_run_at), the lease that
// lets one instance at a time run a service's sync, the outcome of the last attempt, and each source file's
// validators and checksum. A lease is taken by one conditional UPDATE (a row changes for one instance only, on
// SQLite as on PostgreSQL). A lease whose holder was a process of this host that no longer exists (kill -9) is
// taken over at once; a crashed holder elsewhere is only known by its lease running out.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { AnyDatabase, SyncFilesTable, SyncStateTable } from '../db/tables.ts';
import { coreTables } from '../db/tables.ts';
import { dbJson, readJson } from '../db/dialect.ts';
import { processAlive } from '../import.ts';

export type SyncStateRow = Selectable<SyncStateTable>;
export type SyncFileRow = Selectable<SyncFilesTable>;

/** A dataset version a file's import recorded. */
export interface DatasetVersion {
  dataset: string;
  version: string;
}

/** This process as a lease holder: host, pid and a random part (two runtimes in one process differ). */
export function newHolderId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** The process of this host a holder id names, or null when the id is another host's (or not one of ours). */
function localHolderPid(holder: string): number | null {
  const match = /^(.*):(\d+):[0-9a-f]+$/.exec(holder);
  return match && match[1] === os.hostname() ? Number(match[2]) : null;
}

/** A lease holder that was a process of this host and is gone: its lease need not run out. */
function holderIsDeadHere(holder: string | null): boolean {
  const pid = holder === null ? null : localHolderPid(holder);
  return pid !== null && !processAlive(pid);
}

export async function readSyncState(database: AnyDatabase, service: string): Promise<SyncStateRow | null> {
  return (await coreTables(database).selectFrom('sync_state').selectAll().where('service', '=', service).executeTakeFirst()) ?? null;
}

export async function readSyncFiles(database: AnyDatabase, service: string): Promise<SyncFileRow[]> {
  return coreTables(database).selectFrom('sync_files').selectAll().where('service', '=', service).orderBy('name').execute();
}

export function fileDatasets(row: SyncFileRow | undefined): DatasetVersion[] {
  return row?.datasets ? readJson<DatasetVersion[]>(row.datasets) : [];
}

async function ensureRow(database: AnyDatabase, service: string): Promise<void> {
  await coreTables(database)
    .insertInto('sync_state')
    .values({ service, consecutive_failures: 0 })
    .onConflict((oc) => oc.column('service').doNothing())
    .execute();
}

export interface LeaseRequest {
  holder: string;
  now: Date;
  leaseMs: number;
  /**
   * A scheduled run: taken only when the run is due (next_run_at empty or past), and the next run is set in the
   * same statement, so that every other instance sees it at once.
   */
  schedule?: { nextRunAt: Date; everySeconds: number };
}

/** Takes the service's lease when no live holder has it (and, for a scheduled run, the run is due). True when taken. */
export async function claimLease(database: AnyDatabase, service: string, request: LeaseRequest): Promise<boolean> {
  await ensureRow(database, service);
  if (await takeLease(database, service, request, null)) return true;
  const holder = (await readSyncState(database, service))?.lease_holder ?? null;
  // Taken from that holder only: if another instance took it over first, the statement changes nothing.
  return holder !== null && holderIsDeadHere(holder) && (await takeLease(database, service, request, holder));
}

/** One conditional UPDATE: the lease when it is free or run out (`from` null), or when `from` holds it. */
async function takeLease(database: AnyDatabase, service: string, request: LeaseRequest, from: string | null): Promise<boolean> {
  const now = request.now.toISOString();
  let update = coreTables(database)
    .updateTable('sync_state')
    .set({
      lease_holder: request.holder,
      lease_since: now,
      lease_until: new Date(request.now.getTime() + request.leaseMs).toISOString(),
      ...(request.schedule
        ? { next_run_at: request.schedule.nextRunAt.toISOString(), every_seconds: Math.round(request.schedule.everySeconds) }
        : {}),
    })
    .where('service', '=', service)
    .where((eb) => (from === null ? eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]) : eb('lease_holder', '=', from)));
  if (request.schedule) update = update.where((eb) => eb.or([eb('next_run_at', 'is', null), eb('next_run_at', '<=', now)]));
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Extends the lease while the sync runs; false when it is no longer this holder's. */
export async function renewLease(database: AnyDatabase, service: string, holder: string, until: Date): Promise<boolean> {
  const result = await coreTables(database)
    .updateTable('sync_state')
    .set({ lease_until: until.toISOString() })
    .where('service', '=', service)
    .where('lease_holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks, in sync_state.last_error, the lines of optional files that failed (the status answer tells them apart). */
export const WARNING_PREFIX = 'warning: ';

export interface RunOutcome {
  at: Date;
  result: string;
  error: string | null;
  /** Every source was reached and the data is current (imported, unchanged or 304). */
  success: boolean;
  /** New data was imported. */
  changed: boolean;
}

/** Records the attempt and lets the lease go. */
export async function finishRun(database: AnyDatabase, service: string, holder: string, outcome: RunOutcome): Promise<void> {
  const at = outcome.at.toISOString();
  await coreTables(database)
    .updateTable('sync_state')
    .set({
      last_attempt_at: at,
      last_result: outcome.result,
      last_error: outcome.error,
      ...(outcome.success
        ? { last_success_at: at, consecutive_failures: 0 }
        : { consecutive_failures: sql<number>`consecutive_failures + 1` }),
      ...(outcome.changed ? { last_change_at: at } : {}),
      lease_holder: null,
      lease_since: null,
      lease_until: null,
    })
    .where('service', '=', service)
    .where('lease_holder', '=', holder)
    .execute();
}

export interface FileRecord {
  service: string;
  name: string;
  url: string;
  etag: string | null;
  lastModified: string | null;
  contentType: string | null;
  sha256: string | null;
  bytes: number | null;
  datasets: DatasetVersion[];
  checkedAt: Date;
  /** Set when the file's data was imported now. */
  changedAt: Date | null;
}

export async function recordFile(database: AnyDatabase, file: FileRecord): Promise<void> {
  const db = coreTables(database);
  const values = {
    url: file.url,
    etag: file.etag,
    last_modified: file.lastModified,
    content_type: file.contentType,
    sha256: file.sha256,
    bytes: file.bytes,
    datasets: dbJson(db, file.datasets),
    checked_at: file.checkedAt.toISOString(),
    ...(file.changedAt ? { changed_at: file.changedAt.toISOString() } : {}),
  };
  await db
    .insertInto('sync_files')
    .values({ service: file.service, name: file.name, ...values, changed_at: file.changedAt?.toISOString() ?? null })
    .onConflict((oc) => oc.columns(['service', 'name']).doUpdateSet(values))
    .execute();
}

/** Only the time a file was last checked (a 304 or the same checksum: the stored data is still the source's). */
export async function touchFile(
  database: AnyDatabase,
  service: string,
  name: string,
  checkedAt: Date,
  validators: { etag?: string | null; lastModified?: string | null } = {},
): Promise<void> {
  await coreTables(database)
    .updateTable('sync_files')
    .set({
      checked_at: checkedAt.toISOString(),
      ...(validators.etag !== undefined ? { etag: validators.etag } : {}),
      ...(validators.lastModified !== undefined ? { last_modified: validators.lastModified } : {}),
    })
    .where('service', '=', service)
    .where('name', '=', name)
    .execute();
}
