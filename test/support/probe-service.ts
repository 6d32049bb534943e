// A small service for the kernel's process-wide promises (client addresses, Redis, security headers): one plain
// route, one POST and one rate-limited group of three requests a minute.
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { ServiceModule } from '../../src/core/service.ts';
import { rateLimitedGroup } from '../../src/core/http/rate-limit.ts';

export const PROBE_LIMIT = 3;

export const probeService: ServiceModule = {
  name: 'oral',
  title: 'Probe service',
  description: 'A service used only by tests.',
  version: '1.0',
  cacheSeconds: 60,
  errorBody: ({ message, code }) => ({ success: false, error: message, code }),
  errorSchema: Type.Object({ success: Type.Literal(false), error: Type.String(), code: Type.String() }),
  migrations: {},
  importers: {},
  loadDemo: async () => [],
  generate: async () => [],
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
};
