// A small service for the kernel's process-wide promises (client addresses, Redis, security headers): one plain
// route, one POST and one rate-limited group of three requests a minute.
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { ServiceModule } from '../../src/core/service.ts';
import { rateLimitedGroup } from '../../src/core/http/rate-limit.ts';

export const PROBE_LIMIT = 3;

/** A service module for kernel tests: no data, no importers, the error body of the services; only its routes vary. */
export function testService(options: Pick<ServiceModule, 'title' | 'cacheSeconds' | 'routes'>): ServiceModule {
  return {
    name: 'oral',
    description: 'A service used only by tests.',
    version: '1.0',
    errorBody: ({ message, code }) => ({ success: false, error: message, code }),
    errorSchema: Type.Object({ success: Type.Literal(false), error: Type.String(), code: Type.String() }),
    migrations: {},
    importers: {},
    loadDemo: async () => [],
    generate: async () => [],
    ...options,
  };
}

export const probeService: ServiceModule = testService({
  title: 'Probe service',
  cacheSeconds: 60,
  async routes(app, ctx) {
    app.get('/api/one/', { schema: { response: { 200: Type.Object({ one: Type.Integer() }) } } }, async () => {
      const row = await sql<{ one: number }>`select 1 as one`.execute(ctx.db.kysely);
      return { one: Number(row.rows[0].one) };
    });
    app.post('/api/echo/', { schema: { body: Type.Object({ text: Type.String() }) } }, async (request) => ({ echoed: request.body.text }));
    await rateLimitedGroup(app, ctx, { name: 'limited', max: PROBE_LIMIT }, (scope) => {
      scope.get('/api/limited/', async (request) => ({ ip: request.ip }));
    });
  },
});
