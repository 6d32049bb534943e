// One sync of a service: download each of its source files (conditionally), and import what changed through the
// service's own importer with the same guards as `pdi import` (a truncated or shrinking file is refused and the
// stored data stays as it was). One instance at a time per service, by the lease in sync_state; the import itself
// also holds the service's import lock (PostgreSQL advisory lock; SQLite has one writer).
//
// Files on disk, under <PDI_DATA_DIR>/sync/<service>/:
//   <file>.part                  the download in progress
//   versions/<time>/<file>       the copy the stored data came from (older copies are removed after an import)
//   refused/<file>               the last copy an import refused, for inspection
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServiceContext, ServiceModule } from '../service.ts';
import { ImportRefusedError } from '../import.ts';
import type { ImportReport } from '../import.ts';
import { listDataVersions } from '../db/datasets.ts';
import { DownloadError, download, redactUrl } from './download.ts';
import type { DownloadOptions } from './download.ts';
import { maxBytesOf, resolveSyncFiles, syncSettings } from './source.ts';
import type { ResolvedSyncFile, SyncDefinition } from './source.ts';
import {
  claimLease,
  fileDatasets,
  finishRun,
  newHolderId,
  readSyncFiles,
  readSyncState,
  recordFile,
  renewLease,
  touchFile,
  WARNING_PREFIX,
} from './state.ts';
import type { SyncFileRow } from './state.ts';

export type FileResult = 'imported' | 'unchanged' | 'not-modified' | 'refused' | 'failed';

export interface SyncFileReport {
  name: string;
  /** The address fetched, without credentials. */
  url: string;
  result: FileResult;
  /** What HTTP did (absent when the request never completed). */
  http: { attempts: number; bytes: number | null; sha256: string | null; etag: string | null; resumed_bytes: number } | null;
  reports: ImportReport[];
  error: string | null;
}

export interface SyncReport {
  service: string;
  trigger: 'manual' | 'schedule';
  /** The worst of the results of the files the data needs (every file but the optional ones). */
  result: FileResult;
  /** The optional files that failed ("name: why"): the others' imports stand. */
  warnings: string[];
  started_at: string;
  finished_at: string;
  files: SyncFileReport[];
}

export interface SyncRunOptions {
  /** `--source URL`: instead of PDI_SYNC_URL_<SERVICE> or the default. */
  source?: string;
  allowShrink?: boolean;
  allowSkips?: boolean;
  /** Download and import even when the source says (or the checksum shows) nothing changed. */
  force?: boolean;
  trigger?: 'manual' | 'schedule';
  /** Set by the scheduler, which took the lease already. */
  holder?: string;
  signal?: AbortSignal;
  /** `--deadline`: each file's download within this time, instead of PDI_SYNC_DEADLINE or its default. */
  deadlineMs?: number;
  /** Download settings (tests shorten the delays; the defaults come from syncSettings). */
  download?: Partial<
    Pick<DownloadOptions, 'headersMs' | 'idleMs' | 'deadlineMs' | 'retries' | 'baseDelayMs' | 'maxDelayMs' | 'random' | 'fetch'>
  >;
  leaseMs?: number;
  /** The command line prints its own lines: no log lines for the outcome (retries go to onRetry when given). */
  quiet?: boolean;
  onRetry?: (info: { file: string; attempt: number; delayMs: number; reason: string }) => void;
}

/** Another instance (or command) is running this service's sync. */
class SyncBusyError extends Error {
  override name = 'SyncBusyError';
}

const SEVERITY: readonly FileResult[] = ['not-modified', 'unchanged', 'imported', 'refused', 'failed'];

export function isSuccess(result: FileResult): boolean {
  return result === 'imported' || result === 'unchanged' || result === 'not-modified';
}

const USER_AGENT = 'pdi-sync/1.0 (public data mirror; conditional requests)';

export async function runSync(
  ctx: ServiceContext,
  service: ServiceModule,
  definition: SyncDefinition,
  options: SyncRunOptions = {},
): Promise<SyncReport> {
  const env = ctx.config.env;
  const files = resolveSyncFiles(definition, env, options.source); // a bad address fails before anything is taken
  for (const f of files) {
    if (!service.importers[f.importer]) throw new Error(`${service.name} has no importer "${f.importer}" for ${f.name}`);
  }
  const settings = syncSettings(env);
  const leaseMs = options.leaseMs ?? settings.leaseMs;
  const trigger = options.trigger ?? 'manual';
  const started = new Date();
  let holder = options.holder;
  if (!holder) {
    holder = newHolderId();
    if (!(await claimLease(ctx.db.kysely, service.name, { holder, now: started, leaseMs }))) {
      const state = await readSyncState(ctx.db.kysely, service.name);
      throw new SyncBusyError(
        `a sync of ${service.name} is already running (${state?.lease_holder ?? 'another instance'} since ${state?.lease_since ?? '?'}); nothing was done`,
      );
    }
  }
  const lease = holder;
  // Renew the lease while the sync runs, so that only a crashed holder's lease runs out.
  const heartbeat = setInterval(
    () => {
      renewLease(ctx.db.kysely, service.name, lease, new Date(Date.now() + leaseMs)).catch((error: unknown) =>
        ctx.log.warn({ err: error }, 'sync: could not renew the lease'),
      );
    },
    Math.max(1000, leaseMs / 3),
  );
  heartbeat.unref();

  const reports: SyncFileReport[] = [];
  try {
    const stored = new Map((await readSyncFiles(ctx.db.kysely, service.name)).map((r) => [r.name, r]));
    for (const file of files) {
      reports.push(
        await syncFile(ctx, service, file, stored.get(file.name), { ...options, maxBytes: maxBytesOf(definition, env), settings }),
      );
    }
  } finally {
    clearInterval(heartbeat);
    const outcome = outcomeOf(files, reports);
    await finishRun(ctx.db.kysely, service.name, lease, {
      at: new Date(),
      result: outcome.finished ? outcome.result : 'failed',
      error:
        [...outcome.errors, ...outcome.warnings.map((w) => `${WARNING_PREFIX}${w}`)].join('\n') ||
        (outcome.finished ? null : 'the sync stopped before it finished'),
      success: outcome.finished && isSuccess(outcome.result),
      changed: reports.some((r) => r.result === 'imported'),
    });
  }
  const outcome = outcomeOf(files, reports);
  return {
    service: service.name,
    trigger,
    result: outcome.result,
    warnings: outcome.warnings,
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    files: reports,
  };
}

/** The result is the worst of the files the data needs; an optional file's failure is a warning only. */
function outcomeOf(
  files: readonly ResolvedSyncFile[],
  reports: readonly SyncFileReport[],
): { finished: boolean; result: FileResult; errors: string[]; warnings: string[] } {
  const optional = new Set(files.filter((f) => f.optional).map((f) => f.name));
  const required = reports.filter((r) => !optional.has(r.name));
  const failedOptional = reports.filter((r) => optional.has(r.name) && !isSuccess(r.result));
  return {
    finished: reports.length === files.length,
    result: worst(required.map((r) => r.result)),
    errors: required.filter((r) => r.error).map((r) => `${r.name}: ${r.error}`),
    warnings: failedOptional.map((r) => `${r.name}: ${r.error ?? r.result}`),
  };
}

function worst(results: FileResult[]): FileResult {
  return results.reduce<FileResult>((a, b) => (SEVERITY.indexOf(b) > SEVERITY.indexOf(a) ? b : a), 'not-modified');
}

interface FileOptions extends SyncRunOptions {
  maxBytes: number;
  settings: ReturnType<typeof syncSettings>;
}

async function syncFile(
  ctx: ServiceContext,
  service: ServiceModule,
  file: ResolvedSyncFile,
  stored: SyncFileRow | undefined,
  options: FileOptions,
): Promise<SyncFileReport> {
  const url = redactUrl(file.url);
  const dir = path.join(ctx.config.dataDir, 'sync', service.name);
  const checkedAt = new Date();
  // The stored validators describe the stored data only while the datasets their import made are still the
  // current ones (an `import` by hand since, or a refused sync, makes them meaningless) and the address is the same.
  const current = new Map((await listDataVersions(ctx.db.kysely, service.name)).map((v) => [v.dataset, v.version]));
  const made = fileDatasets(stored);
  const stillCurrent = !options.force && stored?.url === url && made.length > 0 && made.every((d) => current.get(d.dataset) === d.version);
  const child = ctx.log.child({ sync: file.name, url });
  const log = options.quiet ? { info: () => {}, warn: () => {}, error: () => {} } : child;

  const part = path.join(dir, `${file.fileName}.part`);
  let fetched;
  try {
    fetched = await download({
      url: file.url,
      destination: part,
      validators: stillCurrent ? { etag: stored.etag, lastModified: stored.last_modified } : undefined,
      maxBytes: options.maxBytes,
      contentTypes: file.contentTypes,
      headersMs: options.settings.timeoutMs,
      idleMs: options.settings.timeoutMs,
      deadlineMs: options.deadlineMs ?? options.settings.deadlineMs,
      retries: options.settings.retries,
      signal: options.signal,
      headers: { 'user-agent': USER_AGENT, accept: [...file.contentTypes, '*/*;q=0.1'].join(', ') },
      onRetry: (info) => {
        if (options.onRetry) options.onRetry({ file: file.name, ...info });
        else child.warn(info, 'sync: download failed; retrying');
      },
      ...options.download,
    });
  } catch (error) {
    await fs.rm(part, { force: true });
    const message = error instanceof DownloadError ? error.message : `GET ${url}: ${(error as Error).message}`;
    log.error({ err: message }, 'sync: download failed');
    return { name: file.name, url, result: 'failed', http: null, reports: [], error: message };
  }

  if (fetched.status === 'not-modified') {
    await fs.rm(part, { force: true });
    await touchFile(ctx.db.kysely, service.name, file.name, checkedAt);
    log.info('sync: not modified (304): nothing to do');
    return {
      name: file.name,
      url,
      result: 'not-modified',
      http: { attempts: fetched.attempts, bytes: null, sha256: null, etag: stored?.etag ?? null, resumed_bytes: 0 },
      reports: [],
      error: null,
    };
  }
  const http = {
    attempts: fetched.attempts,
    bytes: fetched.bytes,
    sha256: fetched.sha256,
    etag: fetched.etag,
    resumed_bytes: fetched.resumedBytes,
  };

  // A server without validators sends the whole file every time: the same bytes need no import.
  if (stillCurrent && stored.sha256 === fetched.sha256) {
    await fs.rm(part, { force: true });
    await touchFile(ctx.db.kysely, service.name, file.name, checkedAt, { etag: fetched.etag, lastModified: fetched.lastModified });
    log.info('sync: same checksum as the stored copy: nothing to import');
    return { name: file.name, url, result: 'unchanged', http, reports: [], error: null };
  }

  const stamp = checkedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const copy = path.join(dir, 'versions', stamp, file.fileName);
  await fs.mkdir(path.dirname(copy), { recursive: true });
  await fs.rename(part, copy);
  try {
    const importReports = await service.importers[file.importer].run(ctx, copy, {
      allowShrink: options.allowShrink === true,
      allowSkips: options.allowSkips === true,
    });
    ctx.dataVersion.invalidate();
    await recordFile(ctx.db.kysely, {
      service: service.name,
      name: file.name,
      url,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      contentType: fetched.contentType,
      sha256: fetched.sha256,
      bytes: fetched.bytes,
      datasets: importReports.map((r) => ({ dataset: r.dataset, version: r.data_version })),
      checkedAt,
      changedAt: checkedAt,
    });
    await removeOlderCopies(path.join(dir, 'versions'), stamp, file.fileName);
    log.info({ reports: importReports.length }, 'sync: imported');
    return { name: file.name, url, result: 'imported', http, reports: importReports, error: null };
  } catch (error) {
    const refused = error instanceof ImportRefusedError;
    const kept = path.join(dir, 'refused', file.fileName);
    await fs.mkdir(path.dirname(kept), { recursive: true });
    await fs.rename(copy, kept).catch(() => {});
    await fs.rm(path.dirname(copy), { recursive: true, force: true });
    // The importer names the copy it read, which is gone now: name the copy kept for inspection instead.
    const message = ((error as Error).message ?? String(error)).split(copy).join(kept);
    log.error(
      { err: message, kept },
      refused ? 'sync: import refused; the stored data is unchanged' : 'sync: import failed; the stored data is unchanged',
    );
    return { name: file.name, url, result: refused ? 'refused' : 'failed', http, reports: [], error: message };
  }
}

async function removeOlderCopies(versions: string, keep: string, fileName: string): Promise<void> {
  for (const stamp of await fs.readdir(versions).catch(() => [] as string[])) {
    if (stamp === keep) continue;
    await fs.rm(path.join(versions, stamp, fileName), { force: true });
    await fs.rmdir(path.join(versions, stamp)).catch(() => {}); // still holds another file's copy
  }
}

/** A file read again (--force, a new checksum) whose records are all as they were. */
function noRecordChanged(file: SyncFileReport): boolean {
  return file.reports.length > 0 && file.reports.every((r) => r.inserted + r.updated + r.deleted + r.demo_rows_removed === 0);
}

/** One line per file, for the terminal. */
export function formatSyncReport(report: SyncReport): string[] {
  return report.files.map((f) => {
    const what: Record<FileResult, string> = {
      imported: `imported (${f.http?.bytes ?? '?'} bytes, sha256 ${f.http?.sha256?.slice(0, 12) ?? '?'}${f.http && f.http.attempts > 1 ? `, ${f.http.attempts} attempts` : ''})${noRecordChanged(f) ? ': no record changed' : ''}`,
      unchanged: 'unchanged (same checksum as the stored copy): nothing imported',
      'not-modified': 'not modified (304): nothing to do',
      refused: /\brefused\b/.test(f.error ?? '') ? (f.error ?? '') : `refused: ${f.error}`,
      failed: `failed: ${f.error}`,
    };
    const warning = !isSuccess(f.result) && report.warnings.some((w) => w.startsWith(`${f.name}: `));
    return `${report.service}/${f.name} from ${f.url}: ${warning ? 'warning: ' : ''}${what[f.result]}${warning ? ' (an optional file: the other files stand)' : ''}`;
  });
}
