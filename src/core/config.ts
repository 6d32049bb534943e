// Process configuration, read once from the environment. Every variable is listed in the README.
import path from 'node:path';

export const SERVICE_NAMES = ['oral', 'krt', 'grants', 'draws', 'retraction'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** A service's name as a user typed it (any case), checked against the five. */
export function serviceNameOf(name: string): ServiceName {
  const found = SERVICE_NAMES.find((known) => known === name.toLowerCase());
  if (!found) throw new Error(`unknown service "${name}"; available: ${SERVICE_NAMES.join(', ')}`);
  return found;
}

export const DEFAULT_PORTS: Record<ServiceName, number> = {
  oral: 8001,
  krt: 8002,
  grants: 8003,
  draws: 8004,
  retraction: 8005,
};

export interface Config {
  /** `postgres://…` for PostgreSQL; unset means the embedded SQLite file. */
  databaseUrl: string;
  dataDir: string;
  sharedDataDir: string;
  redisUrl: string | null;
  host: string;
  ports: Record<ServiceName, number>;
  /**
   * Which proxies may tell the client's address (X-Forwarded-For): false (none: the peer is the client), true
   * (every hop: only behind a proxy that overwrites the header), a hop count, or addresses/CIDRs (comma-separated).
   */
  trustProxy: boolean | number | string[];
  logLevel: string;
  /** Server-side response cache entries per service (0 disables it); a second bound beside the bytes. */
  responseCacheEntries: number;
  /** Bytes each service's response cache may hold (0 disables it): PDI_RESPONSE_CACHE_BYTES[_<SERVICE>]. */
  responseCacheBytes: Record<ServiceName, number>;
  /** SQLite's page cache of the process's connection, in bytes: PDI_SQLITE_CACHE_BYTES. */
  sqliteCacheBytes: number;
  http: HttpLimits;
  redisLimits: RedisLimits;
  /**
   * The same bounds on the primary of `serve --workers n`, which holds the rate-limit counters when Redis does not:
   * PDI_RATE_LIMIT_PRIMARY_TIMEOUT_MS, and the Redis circuit's settings.
   */
  primaryLimits: RedisLimits;
  env: NodeJS.ProcessEnv;
}

/** How long the listener waits for slow clients, and for itself when it stops (milliseconds; 0: no limit). */
export interface HttpLimits {
  /** The whole request (headers and body) must arrive within this time; then 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** The request's headers must arrive within this time (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish before every connection is closed. */
  shutdownGraceMs: number;
}

/** Bounds on the shared Redis, so a Redis that hangs costs requests almost nothing. */
export interface RedisLimits {
  /** A rate-limit command that has not answered within this time counts as failed (the request is let through). */
  commandTimeoutMs: number;
  /** After this many failures in a row the circuit opens: Redis is not asked at all … */
  circuitFailures: number;
  /** … until this time has passed; then one request probes it again. */
  circuitRetryMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.PDI_DATA_DIR ?? 'data');
  const ports = { ...DEFAULT_PORTS };
  for (const name of SERVICE_NAMES) {
    const raw = env[`PDI_PORT_${name.toUpperCase()}`];
    if (raw !== undefined) ports[name] = parsePort(raw, `PDI_PORT_${name.toUpperCase()}`);
  }
  const requestTimeoutMs = milliseconds(env, 'PDI_REQUEST_TIMEOUT_MS', 30_000);
  const headersTimeoutMs = milliseconds(env, 'PDI_HEADERS_TIMEOUT_MS', 10_000);
  return {
    databaseUrl: env.PDI_DATABASE_URL || `sqlite:${path.join(dataDir, 'pdi.sqlite')}`,
    dataDir,
    sharedDataDir: path.resolve(env.PDI_SHARED_DATA ?? path.join(import.meta.dirname, '../../../shared/data')),
    redisUrl: env.PDI_REDIS_URL || null,
    host: env.PDI_HOST ?? '127.0.0.1',
    ports,
    trustProxy: parseTrustProxy(env.PDI_TRUST_PROXY),
    logLevel: env.PDI_LOG_LEVEL ?? 'info',
    responseCacheEntries: env.PDI_RESPONSE_CACHE_ENTRIES === undefined ? 2000 : Number(env.PDI_RESPONSE_CACHE_ENTRIES),
    responseCacheBytes: responseCacheBytes(env),
    sqliteCacheBytes: byteSize(env, 'PDI_SQLITE_CACHE_BYTES', DEFAULT_SQLITE_CACHE_BYTES),
    http: {
      requestTimeoutMs,
      headersTimeoutMs: requestTimeoutMs > 0 ? Math.min(headersTimeoutMs, requestTimeoutMs) : headersTimeoutMs,
      keepAliveTimeoutMs: milliseconds(env, 'PDI_KEEP_ALIVE_TIMEOUT_MS', 72_000),
      shutdownGraceMs: milliseconds(env, 'PDI_SHUTDOWN_GRACE_MS', 10_000),
    },
    redisLimits: {
      commandTimeoutMs: milliseconds(env, 'PDI_REDIS_COMMAND_TIMEOUT_MS', 50),
      circuitFailures: Math.max(1, milliseconds(env, 'PDI_REDIS_CIRCUIT_FAILURES', 3)),
      circuitRetryMs: milliseconds(env, 'PDI_REDIS_CIRCUIT_RETRY_MS', 5_000),
    },
    primaryLimits: {
      commandTimeoutMs: milliseconds(env, 'PDI_RATE_LIMIT_PRIMARY_TIMEOUT_MS', 100),
      circuitFailures: Math.max(1, milliseconds(env, 'PDI_REDIS_CIRCUIT_FAILURES', 3)),
      circuitRetryMs: milliseconds(env, 'PDI_REDIS_CIRCUIT_RETRY_MS', 5_000),
    },
    env,
  };
}

/**
 * Default bound of each service's response cache: 8 MiB (five services: at most 40 MiB per process). With real
 * data and a load of distinct URLs the five 16 MiB caches of before filled, and each worker held 80 MiB of answers
 * (the 500 MB bound per worker).
 */
export const DEFAULT_RESPONSE_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Default size of SQLite's page cache: 16 MiB. The operating system caches the file as well (shared by every
 * worker, and not counted against any one process), so a page missing here costs a read from memory, not disk;
 * 64 MiB per worker was most of what a worker's resident memory grew by under load with real data.
 */
export const DEFAULT_SQLITE_CACHE_BYTES = 16 * 1024 * 1024;

/** The page cache of a command that runs once (import, fit, extract, sync) unless set: its writes touch many index pages. */
export const COMMAND_SQLITE_CACHE_BYTES = 64 * 1024 * 1024;

/** PDI_RESPONSE_CACHE_BYTES for every service (a number of bytes, or with a k/m/g suffix), PDI_RESPONSE_CACHE_BYTES_<SERVICE> for one. */
function responseCacheBytes(env: NodeJS.ProcessEnv): Record<ServiceName, number> {
  const all = byteSize(env, 'PDI_RESPONSE_CACHE_BYTES', DEFAULT_RESPONSE_CACHE_BYTES);
  return Object.fromEntries(
    SERVICE_NAMES.map((name) => [name, byteSize(env, `PDI_RESPONSE_CACHE_BYTES_${name.toUpperCase()}`, all)]),
  ) as Record<ServiceName, number>;
}

function byteSize(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)i?b?$/i.exec(raw);
  if (!match) throw new Error(`${name} must be a number of bytes (e.g. 16777216, 64k, 16m), got "${raw}"`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.floor(Number(match[1]) * unit);
}

/** A whole number ≥ 0 from the environment, or the default; anything else stops the process with a clear message. */
function milliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name} must be a whole number (milliseconds, or a count), got "${raw}"`);
  return Number(raw.trim());
}

export function parsePort(raw: string, name: string): number {
  // Number('') is 0, a random port: an empty or spaced value (`--port oral`) must be refused, not served somewhere.
  const port = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0–65535), got "${raw}"`);
  return port;
}

export function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  const text = (raw ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  // Addresses, CIDRs or proxy-addr's names (loopback, linklocal, uniquelocal), comma-separated.
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
