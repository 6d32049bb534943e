// Child process of bench/grants.ts, so that each measured job has a process (and a peak RSS) of its own:
//   parse <csv>            only decode and parse the CSV (the baseline of the import)
//   import <db-url> <csv>  the real importer, as `pdi import grants` runs it
//   serve <db-url> [tree]  Service C over HTTP on a free port, as `serve grants` with one worker and the response
//                          cache off; answers 'cpu' with its CPU time so far and 'memory' with its RSS and, after a
//                          full garbage collection (run with --expose-gc), its heap used and memory outside the heap,
//                          'french' with 1 when C's search holds the French texts in memory (else 0); exits on 'stop'. `tree`: another checkout's root whose src/ is served (the same measurement
//                          of an older commit, in the same run)
// parse and import answer the parent with one message: wall time, CPU time, peak RSS and, for an import, its report.
import path from 'node:path';
import pino from 'pino';
import type * as Config from '../src/core/config.ts';
import type * as Database from '../src/core/db/database.ts';
import type * as ServiceApp from '../src/core/http/service-app.ts';
import type * as CoreService from '../src/core/service.ts';
import type { ServiceContext } from '../src/core/service.ts';
import type * as GrantsService from '../src/services/grants/service.ts';

/** What `serve` sends: first its port, then an answer to each 'cpu' or 'memory' message. */
export type ServeMessage = { port: number } | { cpuMs: number } | { holdsFrench: number } | ServeMemory;
export interface ServeMemory {
  rssMb: number;
  /** After a full garbage collection (0 when the child runs without --expose-gc). */
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
async function memory(): Promise<ServeMemory> {
  // twice, a second apart: buffers are freed by a background thread, and `external` counts them until then
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  gc?.();
  const m = process.memoryUsage();
  const mb = (x: number) => x / 2 ** 20;
  return { rssMb: mb(m.rss), heapUsedMb: gc ? mb(m.heapUsed) : 0, externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) };
}

const [mode, ...args] = process.argv.slice(2);
const stages: Array<{ stage: string; seconds: number; rssMb: number }> = [];
const started = performance.now();
const cpu0 = process.cpuUsage();
let result: unknown;
if (mode === 'serve') {
  // modules imported from the served tree (this checkout's by default), so that an older commit's code runs whole
  const root = path.resolve(args[1] ?? path.join(import.meta.dirname, '..'));
  const from = <T>(file: string): Promise<T> => import(path.join(root, 'src', file)) as Promise<T>;
  const { loadConfig } = await from<typeof Config>('core/config.ts');
  const { openDatabase } = await from<typeof Database>('core/db/database.ts');
  const { buildServiceApp } = await from<typeof ServiceApp>('core/http/service-app.ts');
  const { DataVersionWatcher } = await from<typeof CoreService>('core/service.ts');
  const { grantsService } = await from<typeof GrantsService>('services/grants/service.ts');
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
  // the state kept, to tell whether the search holds the French texts (an older checkout's may have no such state)
  let state: { search?: { memory?: { holdsFrench?: boolean } } } | undefined;
  const service: typeof grantsService = {
    ...grantsService,
    createState: async (c) => {
      const made = await grantsService.createState!(c);
      state = made as typeof state;
      return made;
    },
  };
  const app = await buildServiceApp(service, ctx, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const send = (m: ServeMessage) => process.send!(m);
  process.on('message', (m) => {
    if (m === 'cpu') {
      const c = process.cpuUsage();
      send({ cpuMs: (c.user + c.system) / 1000 });
    } else if (m === 'memory') void memory().then(send);
    else if (m === 'french') send({ holdsFrench: state?.search?.memory?.holdsFrench === true ? 1 : 0 });
    else if (m === 'stop') void app.close().then(() => db.close().then(() => process.exit(0)));
  });
  send({ port: address.port });
} else {
  if (mode === 'parse') {
    const { parseOnly } = await import('../src/services/grants/source/index.ts');
    result = await parseOnly(args[0]);
  } else if (mode === 'import') {
    const [url, file] = args;
    const { openDatabase } = await import('../src/core/db/database.ts');
    const { migrateToLatest } = await import('../src/core/db/migrations.ts');
    const { importGrantsCsv } = await import('../src/services/grants/import/importer.ts');
    const { grantsService } = await import('../src/services/grants/service.ts');
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
