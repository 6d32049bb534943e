// The shared Redis connection (rate limits and caches across instances). Commands fail fast while the
// server is unreachable so that callers can fail open instead of queueing requests behind a dead link.
import { Redis } from 'ioredis';

export function connectRedis(url: string, log: { warn(obj: unknown, msg?: string): void }): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2000,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
  let down = false;
  client.on('error', (error) => {
    if (!down) log.warn({ err: error.message }, 'redis unreachable: rate limits fall back to allowing requests');
    down = true;
  });
  client.on('ready', () => {
    down = false;
  });
  return client;
}
