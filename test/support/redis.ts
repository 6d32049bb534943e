// Whether the test Redis answers: the problem to report (a suite skips outside CI, fails in CI), or null.
import { Redis } from 'ioredis';
import { REDIS_URL } from './databases.ts';

export async function redisProblem(): Promise<string | null> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return `Redis not reachable at ${REDIS_URL} (${(error as Error).message})`;
  } finally {
    client.disconnect();
  }
}
