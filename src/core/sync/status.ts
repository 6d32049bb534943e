// How current a service's data is, for people and for monitoring: `GET /api/sync-status/` on every listener
// (registered by the kernel, hidden from the OpenAPI documents like /metrics) and the pdi_sync_* / pdi_data_*
// gauges of /metrics. The data's age runs from the last moment it was known to match its source: the last real
// import, or the last sync that found the source unchanged (304, same checksum) or imported it. Older than
// PDI_SYNC_STALE_AFTER(_<SERVICE>) (default 7 days) is stale.
import client from 'prom-client';
import type { ServiceApp, ServiceContext } from '../service.ts';
import type { AnyDatabase } from '../db/tables.ts';
import { listDataVersions } from '../db/datasets.ts';
import { readSyncFiles, readSyncState } from './state.ts';
import { staleAfterMs } from './source.ts';

export interface SyncStatus {
  service: string;
  data: {
    /** Every dataset held is generated demo data (or there is none). */
    is_demo: boolean;
    /** The newest import of real data. */
    last_import_at: string | null;
    /** When the data was last known to match its source (last real import or successful sync). */
    confirmed_at: string | null;
    age_seconds: number | null;
    stale_after_seconds: number | null;
    /** null when there is no real data or the flag is off. */
    stale: boolean | null;
    datasets: Array<{ dataset: string; version: string; imported_at: string; is_demo: boolean }>;
  };
  sync: {
    state: 'never' | 'idle' | 'running';
    last_attempt_at: string | null;
    last_result: string | null;
    last_error: string | null;
    last_success_at: string | null;
    last_change_at: string | null;
    next_run_at: string | null;
    every_seconds: number | null;
    consecutive_failures: number;
    running_since: string | null;
    sources: Array<{
      name: string;
      url: string;
      etag: string | null;
      last_modified: string | null;
      content_type: string | null;
      sha256: string | null;
      bytes: number | null;
      checked_at: string | null;
      changed_at: string | null;
    }>;
  };
}

/** Server paths in messages become file names (a public answer does not show the server's directories); URLs stay. */
export function withoutPaths(text: string | null): string | null {
  if (text === null) return null;
  return text
    .split(/(\b[a-z][a-z0-9+.-]*:\/\/\S+)/i)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(?:[A-Za-z]:)?(?:[\\/][^\s\\/:'"`]+)+[\\/]([^\s\\/:'"`]+)/g, '$1')))
    .join('');
}

export async function readSyncStatus(
  database: AnyDatabase,
  service: string,
  env: NodeJS.ProcessEnv,
  now = new Date(),
): Promise<SyncStatus> {
  const [versions, state, files] = await Promise.all([
    listDataVersions(database, service),
    readSyncState(database, service),
    readSyncFiles(database, service),
  ]);
  const real = versions.filter((v) => !v.is_demo);
  const lastImport = real.length
    ? real
        .map((v) => v.imported_at)
        .sort()
        .at(-1)!
    : null;
  const confirmed =
    [lastImport, real.length ? state?.last_success_at : null]
      .filter((t): t is string => !!t)
      .sort()
      .at(-1) ?? null;
  const staleMs = staleAfterMs(service, env);
  const ageMs = confirmed ? Math.max(0, now.getTime() - Date.parse(confirmed)) : null;
  const running = !!state?.lease_holder && !!state.lease_until && state.lease_until > now.toISOString();
  return {
    service,
    data: {
      is_demo: real.length === 0,
      last_import_at: lastImport,
      confirmed_at: confirmed,
      age_seconds: ageMs === null ? null : Math.floor(ageMs / 1000),
      stale_after_seconds: staleMs === null ? null : staleMs / 1000,
      stale: ageMs === null || staleMs === null ? null : ageMs > staleMs,
      datasets: versions.map((v) => ({ dataset: v.dataset, version: v.version, imported_at: v.imported_at, is_demo: v.is_demo })),
    },
    sync: {
      state: running ? 'running' : state?.last_attempt_at ? 'idle' : 'never',
      last_attempt_at: state?.last_attempt_at ?? null,
      last_result: state?.last_result ?? null,
      last_error: withoutPaths(state?.last_error ?? null),
      last_success_at: state?.last_success_at ?? null,
      last_change_at: state?.last_change_at ?? null,
      next_run_at: state?.next_run_at ?? null,
      every_seconds: state?.every_seconds ?? null,
      consecutive_failures: Number(state?.consecutive_failures ?? 0),
      running_since: running ? state.lease_since : null,
      sources: files.map((f) => ({
        name: f.name,
        url: f.url,
        etag: f.etag,
        last_modified: f.last_modified,
        content_type: f.content_type,
        sha256: f.sha256,
        bytes: f.bytes === null ? null : Number(f.bytes),
        checked_at: f.checked_at,
        changed_at: f.changed_at,
      })),
    },
  };
}

/** `GET /api/sync-status/` of a service's listener (kernel). */
export function registerSyncStatus(app: ServiceApp, ctx: ServiceContext): void {
  app.get('/api/sync-status/', { schema: { hide: true }, config: { cacheSeconds: 0, operation: 'sync status' } }, async () =>
    readSyncStatus(ctx.db.kysely, ctx.name, ctx.config.env),
  );
}

const seconds = (iso: string | null | undefined) => (iso ? Date.parse(iso) / 1000 : null);

/** The sync and staleness gauges of /metrics, read from the database at each scrape (absent when unknown). */
export function registerSyncMetrics(registry: client.Registry, ctx: ServiceContext): void {
  // One read per scrape, shared by the gauges (each collects on its own), bounded so a slow database cannot hold /metrics.
  let pending: { at: number; value: Promise<SyncStatus | null> } | null = null;
  const load = (): Promise<SyncStatus | null> => {
    if (pending && Date.now() - pending.at < 1000) return pending.value;
    const value = Promise.race([
      readSyncStatus(ctx.db.kysely, ctx.name, ctx.config.env),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000).unref()),
    ]).catch(() => null);
    pending = { at: Date.now(), value };
    return value;
  };
  const gauge = (name: string, help: string, pick: (s: SyncStatus) => number | null) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const status = await load();
        const value = status ? pick(status) : null;
        if (value === null || !Number.isFinite(value)) this.remove();
        else this.set(value);
      },
    });
  gauge(
    'pdi_sync_last_success_timestamp_seconds',
    'When the last sync left the data current (imported, unchanged or 304), Unix time',
    (s) => seconds(s.sync.last_success_at),
  );
  gauge('pdi_sync_last_attempt_timestamp_seconds', 'When the last sync attempt ended, Unix time', (s) => seconds(s.sync.last_attempt_at));
  gauge('pdi_sync_last_change_timestamp_seconds', 'When a sync last imported new data, Unix time', (s) => seconds(s.sync.last_change_at));
  gauge('pdi_sync_next_run_timestamp_seconds', 'When the scheduled sync runs next, Unix time', (s) => seconds(s.sync.next_run_at));
  gauge('pdi_sync_last_attempt_success', '1 when the last sync attempt succeeded, 0 when it was refused or failed', (s) =>
    s.sync.last_result === null ? null : ['imported', 'unchanged', 'not-modified'].includes(s.sync.last_result) ? 1 : 0,
  );
  gauge('pdi_sync_consecutive_failures', 'Sync attempts refused or failed in a row', (s) =>
    s.sync.state === 'never' ? null : s.sync.consecutive_failures,
  );
  gauge('pdi_sync_running', '1 while a sync of the service runs on some instance', (s) => (s.sync.state === 'running' ? 1 : 0));
  gauge('pdi_data_age_seconds', 'Seconds since the data was last known to match its source', (s) => s.data.age_seconds);
  gauge('pdi_data_stale', '1 when the data is older than PDI_SYNC_STALE_AFTER', (s) =>
    s.data.stale === null ? null : s.data.stale ? 1 : 0,
  );
}
