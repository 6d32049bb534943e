// Opening everything a process needs for a set of services: the database (migrated), Redis when
// configured, and one context per service. Shared by the CLI, the tests and the benchmarks.
import v8 from 'node:v8';
import vm from 'node:vm';
import type { FastifyBaseLogger } from 'fastify';
import { createLogger } from './log.ts';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import type { Db } from './db/database.ts';
import { prepareDatabase } from './db/migrations.ts';
import { connectRedis } from './redis.ts';
import { DataVersionWatcher } from './service.ts';
import type { ServiceContext, ServiceModule } from './service.ts';

export interface Runtime {
  db: Db;
  redis: Redis | null;
  log: FastifyBaseLogger;
  contexts: Map<string, ServiceContext>;
  close(): Promise<void>;
}

export async function openRuntime(
  config: Config,
  services: readonly ServiceModule[],
  options: { log?: FastifyBaseLogger; db?: Db } = {},
): Promise<Runtime> {
  const log = options.log ?? createLogger(config.logLevel);
  const db = options.db ?? openDatabase(config.databaseUrl, { sqliteCacheBytes: config.sqliteCacheBytes });
  await prepareDatabase(db, Object.assign({}, ...services.map((s) => s.migrations)));
  const redis = config.redisUrl ? connectRedis(config.redisUrl, log, config.redisLimits) : null;
  const contexts = new Map<string, ServiceContext>();
  for (const service of services) {
    contexts.set(service.name, {
      name: service.name,
      db,
      config,
      log: log.child({ service: service.name }),
      redis,
      dataVersion: new DataVersionWatcher(db, service.name),
    });
  }
  return {
    db,
    redis,
    log,
    contexts,
    async close() {
      if (redis) redis.disconnect();
      await db.close();
    },
  };
}

/**
 * One full garbage collection once a server is up: starting (migrations, building in-memory indexes, compiling
 * schemas) leaves V8's heap three times the size of what stays alive, and V8 gives that back only under pressure; a
 * collection now returns it, so each worker's RSS at rest is what it holds. Node exposes `gc` only behind a flag,
 * which can be set at run time.
 */
export function collectStartupGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
