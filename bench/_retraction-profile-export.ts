// Profiling aid for the CSV export: serves the retraction service from an existing benchmark
// database (`npm run bench -- retraction --db-file <file>` leaves one) and loads /api/export/ with autocannon, so
// that `node --cpu-prof bench/_retraction-profile-export.ts <file> [rows] [seconds]` profiles that path alone.
import os from 'node:os';
import { createRequire } from 'node:module';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import { retractionService } from '../src/services/retraction/service.ts';

const [file, rowsArg = '1000', secondsArg = '8'] = process.argv.slice(2);
if (!file) throw new Error('usage: _retraction-profile-export.ts <sqlite file> [rows] [seconds]');
const db = openDatabase(`sqlite:${file}`);
const config = { ...loadConfig({ ...process.env, PDI_DATABASE_URL: '' }), responseCacheEntries: 0, logLevel: 'silent', trustProxy: true };
const ctx = {
  name: 'retraction' as const,
  db,
  config,
  log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger, // pino's Logger type differs from Fastify's in generics only
  redis: null,
  dataVersion: new DataVersionWatcher(db, 'retraction'),
};
const app = await buildServiceApp(retractionService, ctx, { logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
/** The part of autocannon's result used here (the package ships no types). */
interface Result {
  requests: { total: number };
  latency: { p50: number };
  duration: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: Record<string, unknown>) => Promise<Result>;
let forwarded = 0;
const cpu0 = process.cpuUsage();
const result = await autocannon({
  url: address,
  connections: 50,
  duration: Number(secondsArg),
  timeout: 120,
  requests: [
    {
      method: 'GET',
      path: `/api/export/?format=csv&limit=${rowsArg}`,
      setupRequest: (request: { headers?: Record<string, string> }) => ({
        ...request,
        headers: { ...request.headers, 'x-forwarded-for': `10.${(forwarded >> 16) & 255}.${(forwarded >> 8) & 255}.${forwarded++ & 255}` },
      }),
    },
  ],
});
const cpu = process.cpuUsage(cpu0);
console.log(
  `${rowsArg} rows: ${(result.requests.total / result.duration).toFixed(1)} req/s, p50 ${result.latency.p50} ms, ${((cpu.user + cpu.system) / 1000 / result.requests.total).toFixed(2)} CPU ms/req, non-2xx ${result.non2xx}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await app.close();
await db.close();
