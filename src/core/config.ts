// Process configuration, read once from the environment. Every variable is listed in the README.
import path from 'node:path';

export const SERVICE_NAMES = ['oral', 'krt', 'grants', 'draws', 'retraction'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

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
  /** Fastify's trustProxy: false, true, a hop count or a list of addresses. */
  trustProxy: boolean | number | string;
  logLevel: string;
  /** Server-side response cache entries per service (0 disables it). */
  responseCacheEntries: number;
  env: NodeJS.ProcessEnv;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.PDI_DATA_DIR ?? 'data');
  const ports = { ...DEFAULT_PORTS };
  for (const name of SERVICE_NAMES) {
    const raw = env[`PDI_PORT_${name.toUpperCase()}`];
    if (raw !== undefined) ports[name] = parsePort(raw, `PDI_PORT_${name.toUpperCase()}`);
  }
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
    env,
  };
}

export function parsePort(raw: string, name: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number (0–65535), got "${raw}"`);
  return port;
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw; // comma-separated addresses or CIDRs
}
