// What a service syncs from: each service declares its official source in `src/services/<service>/sync.ts` (the
// default address, the files and the importer that reads each); the deployment may point it elsewhere with
// PDI_SYNC_URL_<SERVICE> or the definition's own variable (a mirror) or `pdi sync <service> --source URL`.
import type { ServiceName } from '../config.ts';
import { parseDuration } from './duration.ts';
import { DEFAULT_DEADLINE_MS, redactUrl } from './download.ts';

interface SyncFileDefinition {
  /** Names the file in the sync state and the status answer ("rounds", "toolkit"). */
  name: string;
  /** The file's name on disk, as the importer sees it (it may tell the kind by it). */
  fileName: string;
  /** The service's importer that reads it (a key of ServiceModule.importers): the same importer and guards as `import`. */
  importer: string;
  /** Media types the publisher serves the file as (application/octet-stream and none are accepted too). */
  contentTypes: readonly string[];
  /**
   * A file the data does without (a translation beside the primary file): its failure is a warning of the sync, which
   * keeps the other files' imports and takes its result from them.
   */
  optional?: boolean;
  /** With `addressNamesFirstFile`: this file's address from the first file's (default: its fileName beside it). */
  besideFirst?: (first: URL) => string;
  /**
   * A file published elsewhere than the others: its address is this variable's, else `defaultUrl`; with neither,
   * the file is not synced (said in the definition's docs). The definition's address and `--source` do not move it.
   */
  ownAddress?: { variable: string; defaultUrl: string | null };
}

export interface SyncDefinition {
  service: ServiceName;
  /** What the source is, in a few words. */
  title: string;
  /**
   * The official address: of the file itself when there is one file, of the folder holding them when there are
   * several (each file is `fileName` under it). Null when the publisher has no machine-readable address.
   */
  defaultUrl: string | null;
  /** Said when there is no default address: what to set instead. */
  noDefault?: string;
  /** The publisher's page about the data and its terms. */
  publisherPage: string;
  files: readonly SyncFileDefinition[];
  /**
   * With several files, the address names the first file and the others are found beside it (`besideFirst`), not
   * their folder: for a source whose address named its one file before it had others. An address ending in "/" still
   * names the folder.
   */
  addressNamesFirstFile?: boolean;
  /** Largest file accepted, in bytes (PDI_SYNC_MAX_BYTES_<SERVICE> overrides). */
  maxBytes: number;
  /**
   * The environment variable that names a mirror of this definition (default PDI_SYNC_URL_<SERVICE>): its own name
   * when the service's variable already names another of its sources.
   */
  urlVariable?: string;
}

export interface ResolvedSyncFile extends SyncFileDefinition {
  url: string;
}

/** The environment variable that names a mirror of a definition's files. */
export function syncUrlVariable(definition: SyncDefinition): string {
  return definition.urlVariable ?? `PDI_SYNC_URL_${definition.service.toUpperCase()}`;
}

/** The address of every file of a definition: `--source`, else its URL variable (syncUrlVariable), else the default. */
export function resolveSyncFiles(definition: SyncDefinition, env: NodeJS.ProcessEnv, override?: string): ResolvedSyncFile[] {
  const elsewhere: ResolvedSyncFile[] = [];
  for (const file of definition.files) {
    if (!file.ownAddress) continue;
    const url = env[file.ownAddress.variable]?.trim() || file.ownAddress.defaultUrl;
    if (!url) continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${file.ownAddress.variable} must be an http(s) address, got "${redactUrl(url)}"`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error(`${file.ownAddress.variable} must be an http(s) address, got "${redactUrl(url)}"`);
    elsewhere.push({ ...file, url: parsed.toString() });
  }
  const files = definition.files.filter((f) => !f.ownAddress);
  return [...resolveSharedAddress({ ...definition, files }, env, override), ...elsewhere];
}

/** The files found at the definition's address (every file without an address of its own). */
function resolveSharedAddress(definition: SyncDefinition, env: NodeJS.ProcessEnv, override?: string): ResolvedSyncFile[] {
  const variable = syncUrlVariable(definition);
  const base = override?.trim() || env[variable]?.trim() || definition.defaultUrl;
  if (!base) {
    const why = definition.noDefault ? ` ${definition.noDefault}` : '';
    throw new Error(`${definition.service} has no default source address.${why} Set ${variable} or pass --source URL.`);
  }
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new Error(`${override ? '--source' : variable} must be an http(s) address, got "${redactUrl(base)}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${override ? '--source' : variable} must be an http(s) address, got "${redactUrl(base)}"`);
  }
  if (definition.files.length === 1) return [{ ...definition.files[0], url: parsed.toString() }];
  if (definition.addressNamesFirstFile && !parsed.pathname.endsWith('/')) {
    const [first, ...others] = definition.files;
    return [
      { ...first, url: parsed.toString() },
      ...others.map((f) => ({ ...f, url: f.besideFirst?.(parsed) ?? new URL(f.fileName, parsed).toString() })),
    ];
  }
  // Several files: the address names their folder.
  const folder = parsed.pathname.endsWith('/') ? parsed : new URL(`${parsed.pathname}/${parsed.search}`, parsed);
  return definition.files.map((f) => ({ ...f, url: new URL(f.fileName, folder).toString() }));
}

/** The size limit of a definition's files: PDI_SYNC_MAX_BYTES_<SERVICE> (bytes, or with KB/MB/GB/KiB/MiB/GiB) or the default. */
export function maxBytesOf(definition: SyncDefinition, env: NodeJS.ProcessEnv): number {
  const variable = `PDI_SYNC_MAX_BYTES_${definition.service.toUpperCase()}`;
  const raw = env[variable]?.trim();
  if (!raw) return definition.maxBytes;
  return parseSize(raw, variable);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

function parseSize(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? SIZE_UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined || Number(match[1]) <= 0) throw new Error(`${what} must be a size such as 500MB or 8GiB, got "${text}"`);
  return Math.round(Number(match[1]) * unit);
}

/** How the sync behaves, from the environment (each listed in the README). */
export interface SyncSettings {
  /** Download timeouts: response headers, and the longest pause in a body (PDI_SYNC_TIMEOUT, default 60s). */
  timeoutMs: number;
  /** Retries of a download after a 5xx, a timeout or a network error (PDI_SYNC_RETRIES, default 4). */
  retries: number;
  /** The whole of one file's download, retries and waits included (PDI_SYNC_DEADLINE, default 1h). */
  deadlineMs: number;
  /** How long a running sync's lease lasts unless renewed (a crashed instance's lease ends after this). */
  leaseMs: number;
}

export function syncSettings(env: NodeJS.ProcessEnv): SyncSettings {
  const retries = env.PDI_SYNC_RETRIES?.trim();
  if (retries && !/^\d+$/.test(retries)) throw new Error(`PDI_SYNC_RETRIES must be a whole number, got "${retries}"`);
  return {
    timeoutMs: env.PDI_SYNC_TIMEOUT?.trim() ? parseDuration(env.PDI_SYNC_TIMEOUT, 'PDI_SYNC_TIMEOUT') : 60_000,
    retries: retries ? Number(retries) : 4,
    deadlineMs: env.PDI_SYNC_DEADLINE?.trim() ? parseDuration(env.PDI_SYNC_DEADLINE, 'PDI_SYNC_DEADLINE') : DEFAULT_DEADLINE_MS,
    leaseMs: 10 * 60_000,
  };
}

const DEFAULT_STALE_AFTER_MS = 7 * 86_400_000;

/**
 * How old a service's data may be before it is flagged stale: PDI_SYNC_STALE_AFTER_<SERVICE>, else
 * PDI_SYNC_STALE_AFTER, else 7 days; "off" turns the flag off (null).
 */
export function staleAfterMs(service: string, env: NodeJS.ProcessEnv): number | null {
  for (const variable of [`PDI_SYNC_STALE_AFTER_${service.toUpperCase()}`, 'PDI_SYNC_STALE_AFTER']) {
    const raw = env[variable]?.trim();
    if (!raw) continue;
    if (/^(off|never|none)$/i.test(raw)) return null;
    return parseDuration(raw, variable);
  }
  return DEFAULT_STALE_AFTER_MS;
}
