// npm run bench -- memory [--database sqlite:/path/all.sqlite] [--workers 2] [--minutes 2] [--rest 60] [--connections 2]
// Resident memory of each `pdi serve` worker with real data loaded, at rest and under a load of
// distinct URLs. The database must already hold the data (this bench does not import; the README's issue-20
// section gives the commands: A, B and D from ../shared/data, C generated at 1.3 M rows, E at 60,000 papers).
// It copies nothing: the server opens the file as it is (the run only reads). Without --database, `serve` starts on
// a new SQLite file and fills it with the demo data, as `npm start` does.
//
// The load: every service at once, `--connections` keep-alive connections each (autocannon in this process),
// each request a URL drawn from a seeded generator, so that nearly every one is new to the server (response
// cache entries, prepared statements, C's orderings, whatever a cache keeps): A recommendations by word and
// page, B DOI suggestions by word, C searches of 100 rows by word, province, fiscal year and sort, D draws from a
// date, E autocomplete by word. B and E send each request from its own X-Forwarded-For address, so that their
// rate limits do not answer. RSS of the primary and each worker is read from /proc every 10 s; the end prints
// at rest and after the load, the maximum, and the 500 MB target.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { Random } from '../src/core/random.ts';
import { SERVICE_NAMES } from '../src/core/config.ts';
import type { ServiceName } from '../src/core/config.ts';
import { PROVINCE_CODES } from '../src/services/grants/source/provinces.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    workers: { type: 'string', default: '2' },
    minutes: { type: 'string', default: '2' },
    rest: { type: 'string', default: '60' },
    connections: { type: 'string', default: '2' },
    'cache-bytes': { type: 'string' },
  },
});
const ROOT = path.resolve(import.meta.dirname, '..');
const WORKERS = Number(values.workers);
const LOAD_MS = Number(values.minutes) * 60_000;
const REST_MS = Number(values.rest) * 1000;
const CONNECTIONS = Number(values.connections);
const TARGET_MB = 500;
const BASE_PORT = 18700;
const portOf = (service: ServiceName) => BASE_PORT + SERVICE_NAMES.indexOf(service);

interface AutocannonResult {
  requests: { total: number };
  non2xx: number;
  errors: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// ------------------------------------------------------------------------------------------- the server
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-memory-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PDI_DATA_DIR: dir,
  PDI_DATABASE_URL: values.database ?? `sqlite:${path.join(dir, 'demo.sqlite')}`,
  PDI_LOG_LEVEL: 'warn',
  PDI_WORKERS: String(WORKERS),
  PDI_TRUST_PROXY: 'loopback',
  ...(values['cache-bytes'] !== undefined ? { PDI_RESPONSE_CACHE_BYTES: values['cache-bytes'] } : {}),
};
for (const service of SERVICE_NAMES) env[`PDI_PORT_${service.toUpperCase()}`] = String(portOf(service));
const server = spawn(process.execPath, [path.join(ROOT, 'src/cli.ts'), 'serve', ...(values.database ? ['--no-demo'] : [])], {
  cwd: ROOT,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
const cleanUp = () => {
  if (server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}
function workerPids(): number[] {
  try {
    return fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
/** RSS in MiB: the primary, then each worker (one process when --workers 0). */
function readRss(): { primary: number; workers: number[] } {
  const kids = WORKERS > 0 ? workerPids() : [];
  return WORKERS > 0 ? { primary: rssOf(server.pid!), workers: kids.map(rssOf) } : { primary: NaN, workers: [rssOf(server.pid!)] };
}
const show = (r: { primary: number; workers: number[] }) =>
  `${Number.isNaN(r.primary) ? '' : `primary ${r.primary.toFixed(0)}, `}worker${r.workers.length > 1 ? 's' : ''} ${r.workers.map((w) => w.toFixed(0)).join(' / ')}`;

/** Anonymous and file-backed resident memory of a process, in MiB (smaps_rollup). */
function residentKinds(pid: number): string {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    return `anonymous ${(kib('Anonymous') / 1024).toFixed(0)}, file-backed ${((kib('Rss') - kib('Anonymous')) / 1024).toFixed(0)}`;
  } catch {
    return 'unreadable';
  }
}
/** One worker's own account (whichever answers /metrics): V8 heap used and held, memory outside the heap. */
async function heapAccount(): Promise<string> {
  const text = await fetch(`http://127.0.0.1:${portOf('oral')}/metrics`).then((r) => r.text());
  const spaces = [...text.matchAll(/^nodejs_heap_space_size_total_bytes\{[^}]*space="(\w+)"[^}]*\} (\S+)/gm)]
    .filter((m) => Number(m[2]) >= 2 ** 20)
    .map((m) => `${m[1]} ${(Number(m[2]) / 2 ** 20).toFixed(0)}`)
    .join(', ');
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return (
    `one worker: RSS ${value('process_resident_memory_bytes').toFixed(0)}, heap used ${value('nodejs_heap_size_used_bytes').toFixed(0)} ` +
    `of ${value('nodejs_heap_size_total_bytes').toFixed(0)} held (${spaces}), external ${value('nodejs_external_memory_bytes').toFixed(0)} MiB`
  );
}
const breakdown = async () => `${await heapAccount()}; ${(WORKERS > 0 ? workerPids() : [server.pid!]).map(residentKinds).join(' | ')}`;

const probes: Record<ServiceName, string> = {
  oral: '/api/recommendations/?limit=1',
  krt: '/api/doi-suggestions/?q=cell',
  grants: '/api/search/?limit=1',
  draws: '/api/draws/recent/',
  retraction: '/api/search-autocomplete/?q=cancer',
};
const started = performance.now();
for (const service of SERVICE_NAMES) {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`serve exited with ${server.exitCode}`);
    const status = await fetch(`http://127.0.0.1:${portOf(service)}${probes[service]}`).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => 0,
    );
    if (status === 200) break;
    if (status !== 0 && status !== 503) throw new Error(`${service} answers ${status} to ${probes[service]}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
console.log(
  `bench memory: ${values.database ?? 'demo data in a new SQLite file'}, ${WORKERS} worker(s), every service answering after ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
    `load average ${load()}; Node ${process.version}, ${os.availableParallelism()} cores`,
);
await new Promise((r) => setTimeout(r, REST_MS));
const atRest = readRss();
console.log(`at rest (${REST_MS / 1000} s after answering): ${show(atRest)} MiB; load average ${load()}`);
console.log(`  ${await breakdown()}`);

// ------------------------------------------------------------------------------------------- the load
// Words common in the five sources' texts (not read from the data: the URLs need only be many and plausible).
const WORDS = (
  'health care cancer cell cells protein brain mouse human gene dental oral caries fluoride children school research ' +
  'community program training support water energy climate student university hospital mental indigenous housing ' +
  'business innovation science art culture youth women safety food farm agriculture fish ocean transport digital ' +
  'network infection vaccine clinical trial review therapy treatment patient disease blood heart lung liver kidney ' +
  'antibody receptor signal neuron tumor stem virus bacteria plant soil model data analysis method study'
).split(' ');
const SORTS = ['agreement_value', 'agreement_start_date', 'recipient_legal_name', 'fiscal_year', 'recipient_province'];
const random = new Random('bench-memory');

function nextPath(service: ServiceName): string {
  const word = () => random.pick(WORDS);
  switch (service) {
    case 'oral':
      return `/api/recommendations/?q=${word()}&limit=20&offset=${20 * random.int(0, 4)}`;
    case 'krt':
      return `/api/doi-suggestions/?q=${word()}${random.bool() ? `%20${word()}` : ''}&limit=${random.int(1, 50)}`;
    case 'grants': {
      const year = 2005 + random.int(0, 19);
      const parts = [`q=${word()}`, `limit=100`, `offset=${100 * random.int(0, 9)}`];
      if (random.bool()) parts.push(`province=${random.pick(PROVINCE_CODES)}`);
      if (random.bool(0.3)) parts.push(`fiscal_year=${year}-${String((year + 1) % 100).padStart(2, '0')}`);
      if (random.bool(0.5)) parts.push(`sort=${random.pick(SORTS)}${random.bool() ? '&order=asc' : ''}`);
      return `/api/search/?${parts.join('&')}`;
    }
    case 'draws': {
      const day = new Date(Date.UTC(2015, 0, 1) + random.int(0, 3800) * 86_400_000).toISOString().slice(0, 10);
      return `/api/draws/?start_date=${day}`;
    }
    case 'retraction':
      return `/api/search-autocomplete/?q=${word().slice(0, random.int(3, 6))}${random.bool(0.3) ? `%20${word()}` : ''}`;
  }
}

let forwarded = 0;
const samples: string[] = [];
let maxWorker = 0;
const sampler = setInterval(() => {
  const r = readRss();
  maxWorker = Math.max(maxWorker, ...r.workers);
  samples.push(`${((performance.now() - loadStart) / 1000).toFixed(0).padStart(4)} s  ${show(r)}  (load ${load()})`);
}, 10_000);
const loadStart = performance.now();
const results = await Promise.all(
  SERVICE_NAMES.map((service) =>
    autocannon({
      url: `http://127.0.0.1:${portOf(service)}`,
      connections: CONNECTIONS,
      duration: LOAD_MS / 1000,
      timeout: 60,
      requests: [
        {
          method: 'GET',
          setupRequest: (request: { path: string; headers?: Record<string, string> }) => {
            const n = forwarded++;
            return {
              ...request,
              path: nextPath(service),
              headers: { ...request.headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
            };
          },
        },
      ],
    }).then((result) => ({ service, result })),
  ),
);
clearInterval(sampler);
const afterLoad = readRss();
maxWorker = Math.max(maxWorker, ...afterLoad.workers);
for (const line of samples) console.log(line);
for (const { service, result } of results) {
  const statuses = Object.entries(result.statusCodeStats)
    .map(([code, { count }]) => `${code}: ${count}`)
    .join(', ');
  console.log(`  ${service.padEnd(10)} ${result.requests.total} requests (${statuses}), ${result.errors} errors`);
}
console.log(`after ${LOAD_MS / 60_000} min of load: ${show(afterLoad)} MiB; the largest worker reading ${maxWorker.toFixed(0)} MiB`);
console.log(`  ${await breakdown()}`);
console.log(
  `target: ≤ ${TARGET_MB} MB per worker at rest and after the load: at rest ${Math.max(...atRest.workers).toFixed(0)}, ` +
    `after ${Math.max(...afterLoad.workers).toFixed(0)}, largest seen ${maxWorker.toFixed(0)} → ${maxWorker <= TARGET_MB ? 'met' : 'missed'}`,
);
await new Promise<void>((resolve) => {
  server.once('exit', () => resolve());
  server.kill('SIGTERM');
});
