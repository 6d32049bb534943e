// How current a service's data is, published: `GET /api/sync-status/` on every listener (registered by the kernel,
// hidden from the OpenAPI documents like /metrics) and the pdi_sync_* / pdi_data_* gauges of /metrics. The reading
// itself is status.ts (the pages read it too, and status.ts must not need the service contract).
import client from 'prom-client';
import type { ServiceApp, ServiceContext } from '../service.ts';
import { readSyncStatus } from './status.ts';
import type { NewestObservationReader, SyncStatus } from './status.ts';

/** `GET /api/sync-status/` of a service's listener (kernel). */
export function registerSyncStatus(app: ServiceApp, ctx: ServiceContext, newestObservation?: NewestObservationReader): void {
  app.get('/api/sync-status/', { schema: { hide: true }, config: { cacheSeconds: 0, operation: 'sync status' } }, async () =>
    readSyncStatus(ctx.db.kysely, ctx.name, ctx.config.env, new Date(), newestObservation),
  );
}

const seconds = (iso: string | null | undefined) => (iso ? Date.parse(iso) / 1000 : null);

/** The sync and staleness gauges of /metrics, read from the database at each scrape (absent when unknown). */
export function registerSyncMetrics(registry: client.Registry, ctx: ServiceContext, newestObservation?: NewestObservationReader): void {
  // One read per scrape, shared by the gauges (each collects on its own), bounded so a slow database cannot hold /metrics.
  let pending: { at: number; value: Promise<SyncStatus | null> } | null = null;
  const load = (): Promise<SyncStatus | null> => {
    if (pending && Date.now() - pending.at < 1000) return pending.value;
    const value = Promise.race([
      readSyncStatus(ctx.db.kysely, ctx.name, ctx.config.env, new Date(), newestObservation),
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
  gauge('pdi_sync_last_warnings', 'Optional files (a translation) the last sync could not bring; the others stand', (s) =>
    s.sync.state === 'never' ? null : s.sync.last_warnings.length,
  );
  gauge('pdi_sync_running', '1 while a sync of the service runs on some instance', (s) => (s.sync.state === 'running' ? 1 : 0));
  gauge('pdi_data_age_seconds', 'Seconds since the data was last known to match its source', (s) => s.data.age_seconds);
  gauge(
    'pdi_data_stale',
    '1 when the data is older than PDI_SYNC_STALE_AFTER or its newest observation older than the service allows',
    (s) => (s.data.stale === null ? null : s.data.stale ? 1 : 0),
  );
  gauge(
    'pdi_data_newest_observation_age_days',
    "Days from the newest observation (a draw) to the service's today",
    (s) => s.data.newest_observation?.age_days ?? null,
  );
  gauge('pdi_data_newest_observation_stale', "1 when the newest observation is older than the service's limit", (s) =>
    s.data.newest_observation?.stale == null ? null : s.data.newest_observation.stale ? 1 : 0,
  );
}
