// How current a service's data is: the data's age runs from the last moment it was known to match its source (the
// last real import, or the last sync that found the source unchanged — 304, same checksum — or imported it). Older
// than PDI_SYNC_STALE_AFTER(_<SERVICE>) (default 7 days) is stale. A service that knows the date of its newest
// observation (a draw) says so too: data freshly imported can still be old at its source, and is stale when that
// observation is older than the service's own limit. Read by /api/sync-status/ and /metrics (publish.ts) and by the
// pages' stale notice.
import type { AnyDatabase } from '../db/tables.ts';
import { listDataVersions } from '../db/datasets.ts';
import { WARNING_PREFIX, readSyncFiles, readSyncState } from './state.ts';
import { staleAfterMs } from './source.ts';

/** The age of a service's newest observation, as the service measures it. */
interface NewestObservation {
  /** What one observation is called ("draw"). */
  noun: string;
  /** Date (YYYY-MM-DD) of the newest observation held; null without any. */
  date: string | null;
  /** The service's today (YYYY-MM-DD) at the time asked: the date the age counts to. */
  today: string;
  /** Stale once the newest observation is more than this many days before today; null: never. */
  staleAfterDays: number | null;
}

/** A service's reading of its newest observation (ServiceModule.newestObservation). */
export type NewestObservationReader = (database: AnyDatabase, env: NodeJS.ProcessEnv, now: Date) => Promise<NewestObservation>;

/** Whole days from `from` to `to`, both YYYY-MM-DD. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

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
    /** The age since the last confirmation is over stale_after_seconds; null when there is no real data or the flag is off. */
    import_stale: boolean | null;
    /** Where the service knows it: its newest observation and whether it is older than the service's limit. */
    newest_observation: {
      noun: string;
      date: string | null;
      today: string;
      age_days: number | null;
      stale_after_days: number | null;
      /** null for demo data, without observations or with the limit off. */
      stale: boolean | null;
    } | null;
    /** import_stale or newest_observation.stale; null when neither is known. */
    stale: boolean | null;
    datasets: Array<{ dataset: string; version: string; imported_at: string; is_demo: boolean }>;
  };
  sync: {
    state: 'never' | 'idle' | 'running';
    last_attempt_at: string | null;
    last_result: string | null;
    last_error: string | null;
    /** The optional files the last sync could not bring ("name: why"); the other files' imports stand. */
    last_warnings: string[];
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
function withoutPaths(text: string | null): string | null {
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
  newestObservation?: NewestObservationReader,
): Promise<SyncStatus> {
  const [versions, state, files] = await Promise.all([
    listDataVersions(database, service),
    readSyncState(database, service),
    readSyncFiles(database, service),
  ]);
  const lines = state?.last_error ? state.last_error.split('\n') : [];
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
  const importStale = ageMs === null || staleMs === null ? null : ageMs > staleMs;
  const observed = newestObservation ? await newestObservation(database, env, now) : null;
  const observedAge = observed?.date ? Math.max(0, daysBetween(observed.date, observed.today)) : null;
  const observedStale =
    observed === null || real.length === 0 || observedAge === null || observed.staleAfterDays === null
      ? null
      : observedAge > observed.staleAfterDays;
  const running = !!state?.lease_holder && !!state.lease_until && state.lease_until > now.toISOString();
  return {
    service,
    data: {
      is_demo: real.length === 0,
      last_import_at: lastImport,
      confirmed_at: confirmed,
      age_seconds: ageMs === null ? null : Math.floor(ageMs / 1000),
      stale_after_seconds: staleMs === null ? null : staleMs / 1000,
      import_stale: importStale,
      newest_observation:
        observed === null
          ? null
          : {
              noun: observed.noun,
              date: observed.date,
              today: observed.today,
              age_days: observedAge,
              stale_after_days: observed.staleAfterDays,
              stale: observedStale,
            },
      stale: importStale === null && observedStale === null ? null : importStale === true || observedStale === true,
      datasets: versions.map((v) => ({ dataset: v.dataset, version: v.version, imported_at: v.imported_at, is_demo: v.is_demo })),
    },
    sync: {
      state: running ? 'running' : state?.last_attempt_at ? 'idle' : 'never',
      last_attempt_at: state?.last_attempt_at ?? null,
      last_result: state?.last_result ?? null,
      last_error: withoutPaths(lines.filter((l) => !l.startsWith(WARNING_PREFIX)).join('\n') || null),
      last_warnings: lines.filter((l) => l.startsWith(WARNING_PREFIX)).map((l) => withoutPaths(l.slice(WARNING_PREFIX.length))!),
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
