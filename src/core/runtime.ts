// Opening everything a process needs for a set of services: the database (migrated), Redis when
// configured, and one context per service. Shared by the CLI, the tests and the benchmarks.
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
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, log, config.redisLimits) : null;
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
