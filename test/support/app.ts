// A service's real HTTP app on a test database, for fastify.inject.
import { createLogger } from '../../src/core/log.ts';
import { loadConfig } from '../../src/core/config.ts';
import type { Config } from '../../src/core/config.ts';
import type { Db } from '../../src/core/db/database.ts';
import { buildServiceApp } from '../../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../../src/core/service.ts';
import type { ServiceApp, ServiceContext, ServiceModule } from '../../src/core/service.ts';
import type { Redis } from 'ioredis';

export function testContext(service: ServiceModule, db: Db, overrides: Partial<Config> = {}, redis: Redis | null = null): ServiceContext {
  const config = { ...loadConfig({ ...process.env, PDI_DATABASE_URL: '' }), ...overrides };
  return {
    name: service.name,
    db,
    config,
    log: createLogger(process.env.PDI_TEST_LOG ?? 'silent'),
    redis,
    dataVersion: new DataVersionWatcher(db, service.name, 0),
  };
}

export async function buildTestApp(
  service: ServiceModule,
  ctxOrDb: ServiceContext | Db,
  overrides: Partial<Config> = {},
): Promise<ServiceApp> {
  const ctx = 'kysely' in ctxOrDb ? testContext(service, ctxOrDb, overrides) : ctxOrDb;
  const app = await buildServiceApp(service, ctx, { logger: false });
  await app.ready();
  return app;
}
