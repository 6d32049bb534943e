// Child process of bench/grants.ts, so that each measured job has a process (and a peak RSS) of its own:
//   parse <csv>            only decode and parse the CSV (the baseline of the import)
//   import <db-url> <csv>  the real importer, as `pdi import grants` runs it
//   serve <db-url>         Service C over HTTP on a free port, as `serve grants` with one worker and the response
//                          cache off; answers 'cpu' with its CPU time so far and 'memory' with its RSS, exits on 'stop'
// parse and import answer the parent with one message: wall time, CPU time, peak RSS and, for an import, its report.
import pino from 'pino';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import type { ServiceContext } from '../src/core/service.ts';
import { importGrantsCsv } from '../src/services/grants/import/importer.ts';
import { grantsService } from '../src/services/grants/service.ts';
import { parseOnly } from '../src/services/grants/source/index.ts';

/** What `serve` sends: first its port, then an answer to each 'cpu' or 'memory' message. */
export type ServeMessage = { port: number } | { cpuMs: number } | { rssMb: number };

const [mode, ...args] = process.argv.slice(2);
const stages: Array<{ stage: string; seconds: number; rssMb: number }> = [];
const started = performance.now();
const cpu0 = process.cpuUsage();
let result: unknown;
if (mode === 'serve') {
  const db = openDatabase(args[0]);
  const env = { ...process.env, PDI_RESPONSE_CACHE_BYTES: '0', PDI_RESPONSE_CACHE_ENTRIES: '0' };
  const ctx: ServiceContext = {
    name: 'grants',
    db,
    config: { ...loadConfig(env), logLevel: 'silent' },
    log: pino({ level: 'silent' }),
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'grants'),
  };
  const app = await buildServiceApp(grantsService, ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const send = (m: ServeMessage) => process.send!(m);
  process.on('message', (m) => {
    if (m === 'cpu') {
      const c = process.cpuUsage();
      send({ cpuMs: (c.user + c.system) / 1000 });
    } else if (m === 'memory') send({ rssMb: process.memoryUsage().rss / 2 ** 20 });
    else if (m === 'stop') void app.close().then(() => db.close().then(() => process.exit(0)));
  });
  send({ port: address.port });
} else {
  if (mode === 'parse') {
    result = await parseOnly(args[0]);
  } else if (mode === 'import') {
    const [url, file] = args;
    const db = openDatabase(url);
    await migrateToLatest(db.kysely, grantsService.migrations);
    const t0 = performance.now();
    result = await importGrantsCsv(db, file, {
      progress: false,
      log: (stage) => stages.push({ stage, seconds: (performance.now() - t0) / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 }),
    });
    await db.close();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const cpu = process.cpuUsage(cpu0);
  process.send!({
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    stages,
    result,
  });
}
