// Child process of bench/redis-string-prototype.ts: each measurement in a fresh process, since what it measures
// (whether String.prototype keeps fast properties) is a state of the whole process that nothing resets.
//   loop <tree> <load> <texts>       times C's text fingerprint (a loop over each text's characters with charCodeAt)
//                                    over the lines of <texts>, then loads <load> — nothing, ioredis bare
//                                    (`import('ioredis')`), or `connect:<redis-url>` (<tree>'s connectRedis, the
//                                    connection made and answering) — and times it again; answers both
//   import <tree> <csv> <db> <redis> `pdi import grants <csv>` into the new SQLite file <db> (<tree>'s importData, as
//                                    the command line runs it), Redis configured unless <redis> is '-'; answers the
//                                    process's CPU seconds during the import
//   serve <tree> <service> <db-url> <redis>
//                                    the service over HTTP on a free port as `serve <service>` makes it (openRuntime,
//                                    one worker's flags, response cache off, X-Forwarded-For from loopback believed),
//                                    with Redis configured unless <redis> is '-'; answers 'cpu' with its CPU time so
//                                    far; exits on 'stop'
// <tree>: the checkout whose src/ is loaded (this one, or an older one for the figures before a change).
import fs from 'node:fs';
import path from 'node:path';
import type * as Config from '../src/core/config.ts';
import type * as Redis from '../src/core/redis.ts';
import type * as Runtime from '../src/core/runtime.ts';
import type * as ServiceApp from '../src/core/http/service-app.ts';
import type * as Commands from '../src/commands.ts';
import type * as Registry from '../src/services/registry.ts';
import { fingerprint } from '../src/services/grants/import/hashing.ts';

/** What `loop` answers: CPU milliseconds per pass over the texts, before and after the load (median of `PASSES`). */
export interface LoopResult {
  beforeMs: number;
  afterMs: number;
}
export type ServeAnswer = { port: number } | { cpuMs: number };

const PASSES = 9;
const [mode, tree, ...args] = process.argv.slice(2);
const from = <T>(file: string): Promise<T> => import(path.join(path.resolve(tree), 'src', file)) as Promise<T>;
const silent = { warn() {}, info() {} };

/**
 * Median CPU milliseconds of this thread for one fingerprint pass over `texts`, after two passes of warm-up (CPU
 * time: what the loop costs, whatever else the shared machine runs meanwhile).
 */
function timePasses(texts: string[]): number {
  const out = new Uint32Array(3);
  const times: number[] = [];
  const cpuMs = () => {
    const c = process.threadCpuUsage();
    return (c.user + c.system) / 1000;
  };
  for (let pass = 0; pass < PASSES + 2; pass++) {
    const t0 = cpuMs();
    for (const text of texts) fingerprint(text, out);
    if (pass >= 2) times.push(cpuMs() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

if (mode === 'loop') {
  const [load, textsFile] = args;
  // The texts fifty times over (the passes then last long enough to time), each line a string of its own.
  const lines = fs.readFileSync(textsFile, 'utf8').split('\n');
  const texts = Array.from({ length: 50 }, (_, k) => lines.map((line) => `${line} ${k}`)).flat();
  const beforeMs = timePasses(texts);
  if (load === 'ioredis') await import('ioredis');
  else if (load.startsWith('connect:')) {
    const { connectRedis } = await from<typeof Redis>('core/redis.ts');
    const client = await connectRedis(load.slice('connect:'.length), silent);
    await new Promise((ready) => client.once('ready', ready));
    await client.ping();
    const afterMs = timePasses(texts);
    client.disconnect();
    process.send!({ beforeMs, afterMs } satisfies LoopResult);
    process.exit(0);
  } else if (load !== 'nothing') throw new Error(`unknown load ${load}`);
  process.send!({ beforeMs, afterMs: timePasses(texts) } satisfies LoopResult);
} else if (mode === 'import') {
  const [csv, dbFile, redisUrl] = args;
  process.env.PDI_DATABASE_URL = `sqlite:${dbFile}`;
  if (redisUrl === '-') delete process.env.PDI_REDIS_URL;
  else process.env.PDI_REDIS_URL = redisUrl;
  process.env.PDI_LOG_LEVEL = 'silent';
  const { importData } = await from<typeof Commands>('commands.ts');
  const cpu0 = process.cpuUsage();
  await importData('grants', csv, {});
  const cpu = process.cpuUsage(cpu0);
  process.send!({ cpuSeconds: (cpu.user + cpu.system) / 1e6 });
} else if (mode === 'serve') {
  const [serviceName, dbUrl, redisUrl] = args;
  const { loadConfig } = await from<typeof Config>('core/config.ts');
  const { openRuntime } = await from<typeof Runtime>('core/runtime.ts');
  const { buildServiceApp } = await from<typeof ServiceApp>('core/http/service-app.ts');
  const { SERVICES, findService } = await from<typeof Registry>('services/registry.ts');
  const service = findService(serviceName);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PDI_DATABASE_URL: dbUrl,
    PDI_RESPONSE_CACHE_BYTES: '0',
    PDI_RESPONSE_CACHE_ENTRIES: '0',
    PDI_TRUST_PROXY: 'loopback', // the bench sends each request as another client (X-Forwarded-For)
  };
  if (redisUrl === '-') delete env.PDI_REDIS_URL;
  else env.PDI_REDIS_URL = redisUrl;
  const runtime = await openRuntime({ ...loadConfig(env), logLevel: 'silent' }, SERVICES); // every service migrated: one schema
  const app = await buildServiceApp(service, runtime.contexts.get(service.name)!, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const send = (m: ServeAnswer) => process.send!(m);
  process.on('message', (m) => {
    if (m === 'cpu') {
      const c = process.cpuUsage();
      send({ cpuMs: (c.user + c.system) / 1000 });
    } else if (m === 'stop') void app.close().then(() => runtime.close().then(() => process.exit(0)));
  });
  send({ port: address.port });
} else {
  throw new Error(`unknown mode ${mode}`);
}
