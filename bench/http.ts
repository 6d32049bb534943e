// npm run bench -- http [--seconds 3] [--repeats 3] [--workers N] [--only oral,krt,…]
// Req/s, p50/p99 latency and server CPU per request of one endpoint per service, served by `pdi serve` (every service in each
// worker, the real command line) with the response cache on and off, with 1 and N workers, beside the ceiling: a bare
// Fastify route sending the same bytes as a Buffer, measured in the same run, interleaved with pdi's cells. Load from
// autocannon in this process at 1 and 8 keep-alive connections; three repetitions (median, and min–max as the
// spread), every other one in reverse order; a ratio to the ceiling is taken per repetition, from two cells measured
// seconds apart, and its median reported with its range; RSS of every process before and after the load.
// A's data is the real files (../shared/data/oral) when present, the other services' the generated demo data.
// BENCH_NODE_FLAGS (e.g. "--no-memory-reducer") adds V8 flags to pdi's servers, for experiments. The load generator shares the machine's cores with the
// servers (and with whatever else runs): the load average is printed beside each repetition.
import { spawn, spawnSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/core/config.ts';
import { openRuntime } from '../src/core/runtime.ts';
import { importPath } from '../src/services/oral/import.ts';
import { oralService } from '../src/services/oral/service.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    repeats: { type: 'string', default: '3' },
    workers: { type: 'string', default: String(os.availableParallelism()) },
    only: { type: 'string', default: '' },
  },
});
const SECONDS = Number(values.seconds);
const REPEATS = Number(values.repeats);
const WORKERS = Number(values.workers);
const ROOT = path.resolve(import.meta.dirname, '..');

const SERVICES = ['oral', 'krt', 'grants', 'draws', 'retraction'] as const;
type Service = (typeof SERVICES)[number];
interface Endpoint {
  service: Service;
  label: string;
  path: string;
  /** The route is in a rate-limited group: each request comes from its own X-Forwarded-For address. */
  limited: boolean;
}
const ENDPOINTS: Endpoint[] = [
  { service: 'oral', label: 'A recommendations', path: '/api/recommendations/?q=fluoride&limit=20', limited: false },
  { service: 'krt', label: 'B doi-suggestions', path: '/api/doi-suggestions/?q=cell', limited: true },
  { service: 'grants', label: 'C stats', path: '/api/stats/', limited: false },
  { service: 'draws', label: 'D predict', path: '/api/predict/', limited: false },
  { service: 'retraction', label: 'E post-retraction analytics', path: '/api/post-retraction-analytics/', limited: true },
].filter((e) => values.only === '' || values.only.split(',').includes(e.service)) as Endpoint[];

/** The part of autocannon's programmatic interface used here (the package ships no types). */
interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  duration: number;
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-http-'));
const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PDI_DATA_DIR: dir,
  PDI_DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
  PDI_LOG_LEVEL: 'warn',
  PDI_TRUST_PROXY: 'loopback', // the rate-limited groups count each X-Forwarded-For address on its own
};
// wrk, when installed (Debian's package `wrk`), measures the 8-connection cells a second time: see measureWrk.
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;
// Each request from its own address (the rate-limited groups count by X-Forwarded-For), as the autocannon cells do.
const WRK_FORWARDED_SCRIPT = path.join(dir, 'forwarded.lua');
fs.writeFileSync(
  WRK_FORWARDED_SCRIPT,
  `n = 0
request = function()
  n = n + 1
  local a, b, c = math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256
  return wrk.format(nil, nil, { ["X-Forwarded-For"] = "10." .. a .. "." .. b .. "." .. c })
end
`,
);
const children: ChildProcess[] = [];
const cleanUp = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `bench http: ${ENDPOINTS.length} endpoints, ${SECONDS} s per cell, ${REPEATS} repetitions, Node ${process.version}, ` +
    `${os.availableParallelism()} cores, load average ${load()} at the start`,
);

// Real A data when it is there (a real import keeps demo data out); the serve command loads demo data for the rest.
{
  const config = loadConfig(baseEnv);
  const oralDir = path.join(config.sharedDataDir, 'oral');
  if (fs.existsSync(oralDir)) {
    const started = performance.now();
    const runtime = await openRuntime({ ...config, logLevel: 'silent' }, [oralService]);
    await importPath(runtime.contexts.get('oral')!, oralDir);
    await runtime.close();
    console.log(`A: imported the real files of ${oralDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } else console.log(`A: ${oralDir} is absent; demo data`);
}

interface Target {
  name: string;
  base: number;
  process: ChildProcess;
  kind: 'pdi' | 'ceiling';
}

function portOf(target: Target, service: Service): number {
  return target.kind === 'ceiling' ? target.base : target.base + SERVICES.indexOf(service);
}

async function startPdi(name: string, base: number, workers: number, extraEnv: Record<string, string>): Promise<Target> {
  const env: NodeJS.ProcessEnv = { ...baseEnv, ...extraEnv };
  SERVICES.forEach((service, i) => (env[`PDI_PORT_${service.toUpperCase()}`] = String(base + i)));
  // As `npm start` runs it (the bound on the young generation as package.json gives it); the workers, one or more,
  // start with workerExecArgv's flags.
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=16',
      ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      path.join(ROOT, 'src/cli.ts'),
      'serve',
      '--workers',
      String(workers),
    ],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  children.push(child);
  const target: Target = { name, base, process: child, kind: 'pdi' };
  const deadline = Date.now() + 15 * 60_000;
  for (const endpoint of ENDPOINTS) {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error(`${name} did not start in time`);
      const status = await fetch(`http://127.0.0.1:${portOf(target, endpoint.service)}${endpoint.path}`).then(
        (r) => r.arrayBuffer().then(() => r.status),
        () => 0,
      );
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return target;
}

async function startCeiling(base: number, manifestFile: string): Promise<Target> {
  const child = fork(path.join(import.meta.dirname, '_http-ceiling.ts'), [String(base), manifestFile], { env: baseEnv, stdio: 'inherit' });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the ceiling exited with ${code}`)));
  });
  return { name: 'ceiling', base, process: child, kind: 'ceiling' };
}

/** RSS in MB of a process and its children (a primary's workers), by pid. */
function rss(pid: number): Array<{ pid: number; mb: number }> {
  const read = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
    } catch {
      return NaN;
    }
  };
  let kids: number[] = [];
  try {
    kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    kids = [];
  }
  return [pid, ...kids].map((p) => ({ pid: p, mb: read(p) }));
}
const formatRss = (list: Array<{ pid: number; mb: number }>) =>
  list.length === 1
    ? `${list[0].mb.toFixed(0)}`
    : `primary ${list[0].mb.toFixed(0)}, workers ${list
        .slice(1)
        .map((x) => x.mb.toFixed(0))
        .join(' / ')}`;

/** CPU seconds (user + system) used so far by a process and its children (a primary's workers), from /proc. */
function cpuSeconds(pid: number): number {
  const ticks = (p: number) => {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (clock ticks, 100 Hz).
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  return rss(pid).reduce((sum, { pid: p }) => sum + ticks(p), 0) / 100;
}

let forwarded = 0;
type Generator = 'autocannon' | 'wrk';
interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** CPU µs per request of the server's processes. */
  cpuMicros: number;
  /** CPU µs per request of the load generator (autocannon: this process; wrk: its own process). */
  loadMicros: number;
}

async function measure(target: Target, endpoint: Endpoint, connections: number, seconds: number, generator: Generator = 'autocannon') {
  return generator === 'wrk'
    ? measureWrk(target, endpoint, connections, seconds)
    : measureAutocannon(target, endpoint, connections, seconds);
}

async function measureAutocannon(target: Target, endpoint: Endpoint, connections: number, seconds: number): Promise<Measurement> {
  const cpuBefore = cpuSeconds(target.process.pid!);
  const ownBefore = process.cpuUsage();
  const result = await autocannon({
    url: `http://127.0.0.1:${portOf(target, endpoint.service)}`,
    connections,
    duration: seconds,
    timeout: 60,
    requests: [
      {
        method: 'GET',
        path: endpoint.path,
        ...(endpoint.limited
          ? {
              setupRequest: (request: { headers?: Record<string, string> }) => ({
                ...request,
                headers: {
                  ...request.headers,
                  'x-forwarded-for': `10.${(forwarded >> 16) & 255}.${(forwarded >> 8) & 255}.${forwarded++ & 255}`,
                },
              }),
            }
          : {}),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.name} ${endpoint.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpuMicros = ((cpuSeconds(target.process.pid!) - cpuBefore) * 1e6) / result.requests.total;
  const own = process.cpuUsage(ownBefore);
  const loadMicros = (own.user + own.system) / result.requests.total;
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, cpuMicros, loadMicros };
}

/**
 * wrk (C, one thread, Debian's package) as a second load generator: autocannon, in this process, needs about a core
 * at these rates, which on 2 cores leaves a second worker little to use. Run under bash so that `times` reports its
 * CPU; the rate-limited routes get their own X-Forwarded-For per request from a Lua script, as autocannon's cells do.
 */
async function measureWrk(target: Target, endpoint: Endpoint, connections: number, seconds: number): Promise<Measurement> {
  const cpuBefore = cpuSeconds(target.process.pid!);
  const url = `http://127.0.0.1:${portOf(target, endpoint.service)}${endpoint.path}`;
  const script = endpoint.limited ? ['-s', WRK_FORWARDED_SCRIPT] : [];
  const command = ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...script, url].map((a) => `'${a}'`).join(' ');
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('bash', ['-c', `${command} && times`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
  });
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const elapsed = Number(/requests in ([\d.]+)s/.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (non2xx > 0 || (errors && errors.slice(1).some((n) => Number(n) > 0)))
    throw new Error(`${target.name} ${endpoint.path} (wrk): ${non2xx} non-2xx answers, ${errors?.[0] ?? 'no socket errors'}`);
  const ms = (label: string) => {
    const m = new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(out);
    return m ? Number(m[1]) * (m[2] === 'us' ? 1e-3 : m[2] === 's' ? 1e3 : 1) : NaN;
  };
  // `times`: the shell's own user and system time, then its children's (wrk's), as 0m1.234s 0m0.567s.
  const children = out
    .trim()
    .split('\n')
    .at(-1)!
    .split(' ')
    .map((t) => {
      const m = /(\d+)m([\d.]+)s/.exec(t);
      return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
    });
  const cpuMicros = ((cpuSeconds(target.process.pid!) - cpuBefore) * 1e6) / total;
  return { rps: total / elapsed, p50: ms('50'), p99: ms('99'), cpuMicros, loadMicros: ((children[0] + children[1]) * 1e6) / total };
}

// ------------------------------------------------------------------------------------------- servers
const startedAt = performance.now();
const pdiTargets: Target[] = [];
pdiTargets.push(await startPdi('1 worker, cache on', 18600, 1, {})); // loads the demo data
const rest = await Promise.all([
  startPdi('1 worker, cache off', 18610, 1, { PDI_RESPONSE_CACHE_BYTES: '0' }),
  ...(WORKERS > 1
    ? [
        startPdi(`${WORKERS} workers, cache on`, 18620, WORKERS, {}),
        startPdi(`${WORKERS} workers, cache off`, 18630, WORKERS, { PDI_RESPONSE_CACHE_BYTES: '0' }),
      ]
    : []),
]);
pdiTargets.push(...rest);

// The ceiling sends the exact bytes pdi sends (identity encoding; autocannon asks for no compression).
const manifest: Array<{ path: string; file: string; contentType: string }> = [];
for (const [i, endpoint] of ENDPOINTS.entries()) {
  const answers = await Promise.all(
    pdiTargets.map(async (t) => {
      const res = await fetch(`http://127.0.0.1:${portOf(t, endpoint.service)}${endpoint.path}`, {
        headers: { 'accept-encoding': 'identity' },
      });
      return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? 'application/json' };
    }),
  );
  for (const other of answers.slice(1))
    if (!other.bytes.equals(answers[0].bytes)) throw new Error(`${endpoint.path}: the servers answer different bytes`);
  const file = path.join(dir, `body-${i}`);
  fs.writeFileSync(file, answers[0].bytes);
  manifest.push({ path: endpoint.path, file, contentType: answers[0].contentType });
  console.log(`${endpoint.label.padEnd(28)} ${endpoint.path}: ${answers[0].bytes.length} bytes`);
}
fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
const ceiling = await startCeiling(18690, path.join(dir, 'manifest.json'));
console.log(`servers ready in ${((performance.now() - startedAt) / 1000).toFixed(0)} s; load average ${load()}`);
const rssBefore = new Map(pdiTargets.map((t) => [t.name, rss(t.process.pid!)]));

// ------------------------------------------------------------------------------------------- load
interface Cell {
  target: Target;
  endpoint: Endpoint;
  connections: number;
  generator: Generator;
}
const cells: Cell[] = [];
for (const endpoint of ENDPOINTS) {
  for (const connections of [1, 8]) {
    cells.push({ target: ceiling, endpoint, connections, generator: 'autocannon' });
    // One connection goes to one worker: N workers are measured at 8 connections only.
    for (const target of pdiTargets)
      if (connections === 8 || WORKERS === 1 || !target.name.startsWith(`${WORKERS} `))
        cells.push({ target, endpoint, connections, generator: 'autocannon' });
  }
  if (HAS_WRK) for (const target of [ceiling, ...pdiTargets]) cells.push({ target, endpoint, connections: 8, generator: 'wrk' });
}
// Warm-up (JIT, the caches of every worker): not counted.
for (const endpoint of ENDPOINTS) for (const target of [ceiling, ...pdiTargets]) await measure(target, endpoint, 8, 1);
if (!HAS_WRK) console.log('wrk is not installed (Debian: apt-get install wrk): the cells measured with it are left out');

const results = new Map<Cell, Measurement[]>(cells.map((c) => [c, []]));
const loads: string[] = [];
for (let repeat = 1; repeat <= REPEATS; repeat++) {
  const before = load();
  const t = performance.now();
  // Every other repetition in reverse order (ABBA): a server measured just after the ceiling in one is measured
  // just before it in the next, so a machine that slows down or speeds up over minutes favours neither.
  for (const cell of repeat % 2 === 1 ? cells : [...cells].reverse())
    results.get(cell)!.push(await measure(cell.target, cell.endpoint, cell.connections, SECONDS, cell.generator));
  loads.push(`repetition ${repeat}: load average ${before} → ${load()} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
  console.log(loads.at(-1));
}
const rssAfter = new Map(pdiTargets.map((t) => [t.name, rss(t.process.pid!)]));

// ------------------------------------------------------------------------------------------- report
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const cellOf = (label: string, name: string, connections: number, generator: Generator) =>
  cells.find((c) => c.endpoint.label === label && c.target.name === name && c.connections === connections && c.generator === generator);
const medianOf = (label: string, name: string, connections: number, generator: Generator, field: keyof Measurement) => {
  const cell = cellOf(label, name, connections, generator);
  return cell ? median(results.get(cell)!.map((r) => r[field])) : NaN;
};
/**
 * A server's ratio to the ceiling in each repetition, from the two cells measured seconds apart (the machine's speed
 * changes over minutes on this VM: a ratio of medians taken minutes apart mixes its states): req/s over the
 * ceiling's, or the ceiling's CPU µs per request over the server's.
 */
const pairedRatios = (label: string, name: string, connections: number, generator: Generator, field: 'rps' | 'cpuMicros') => {
  const cell = cellOf(label, name, connections, generator);
  const ceilingCell = cellOf(label, 'ceiling', connections, generator);
  if (!cell || !ceilingCell) return [NaN];
  const own = results.get(cell)!;
  const base = results.get(ceilingCell)!;
  return own.map((r, i) => (field === 'rps' ? r.rps / base[i].rps : base[i].cpuMicros / r.cpuMicros));
};
const ratioSpread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

console.log(
  `\nreq/s: median of ${REPEATS} (min–max); p50/p99 ms: medians; ratio: req/s over the ceiling's in the same repetition (the two\n` +
    `cells measured seconds apart), median (min–max) of the ${REPEATS} pairs; of medians: median req/s over the ceiling's median (the\n` +
    `estimate of earlier runs); server CPU µs per request (user + system of the server's processes, from /proc, 10 ms ticks): median;\n` +
    `CPU ratio: the ceiling's µs per request over this server's, paired as above, median (what the server alone costs, whatever the\n` +
    `load generator and the machine's other work); load µs: the load generator's own CPU per request (autocannon runs in the bench's\n` +
    `process; wrk, one thread, in its own)`,
);
console.log(
  `${'endpoint'.padEnd(28)} ${'server'.padEnd(22)} load       conn ${'req/s'.padStart(7)} ${'spread'.padStart(13)}   p50    p99   ratio  ${'(min–max)'.padEnd(9)}  of medians  CPU µs  CPU ratio  load µs`,
);
for (const cell of cells) {
  const runs = results.get(cell)!;
  const rps = median(runs.map((r) => r.rps));
  const ceilingRps = medianOf(cell.endpoint.label, 'ceiling', cell.connections, cell.generator, 'rps');
  const cpu = median(runs.map((r) => r.cpuMicros));
  const paired = pairedRatios(cell.endpoint.label, cell.target.name, cell.connections, cell.generator, 'rps');
  const pairedCpu = pairedRatios(cell.endpoint.label, cell.target.name, cell.connections, cell.generator, 'cpuMicros');
  const p50 = median(runs.map((r) => r.p50));
  const p99 = median(runs.map((r) => r.p99));
  console.log(
    `${cell.endpoint.label.padEnd(28)} ${cell.target.name.padEnd(22)} ${cell.generator.padEnd(10)} ${String(cell.connections).padStart(4)} ` +
      `${rps.toFixed(0).padStart(7)} ${spread(runs.map((r) => r.rps)).padStart(13)} ${p50.toFixed(1).padStart(5)} ${p99.toFixed(1).padStart(6)}  ` +
      `${median(paired).toFixed(2).padStart(5)}  ${ratioSpread(paired).padEnd(9)}  ${(rps / ceilingRps).toFixed(2).padStart(10)}  ` +
      `${cpu.toFixed(0).padStart(6)}  ${median(pairedCpu).toFixed(2).padStart(9)}  ${median(runs.map((r) => r.loadMicros))
        .toFixed(0)
        .padStart(7)}`,
  );
}
console.log('\nRSS MB (before the load → after):');
for (const t of pdiTargets)
  console.log(`  ${t.name.padEnd(22)} ${formatRss(rssBefore.get(t.name)!)} → ${formatRss(rssAfter.get(t.name)!)}`);

const generators: Generator[] = HAS_WRK ? ['autocannon', 'wrk'] : ['autocannon'];
/** A server's ratio to the ceiling: the median of the repetitions' paired ratios, with their range and the ratio of medians. */
const ratioTo = (label: string, name: string, connections: number, generator: Generator, field: 'rps' | 'cpuMicros') =>
  median(pairedRatios(label, name, connections, generator, field));
const describeRatio = (label: string, name: string, connections: number, generator: Generator) => {
  const paired = pairedRatios(label, name, connections, generator, 'rps');
  const ofMedians = medianOf(label, name, connections, generator, 'rps') / medianOf(label, 'ceiling', connections, generator, 'rps');
  return `${median(paired).toFixed(2)} (${ratioSpread(paired)}; of medians ${ofMedians.toFixed(2)})`;
};
console.log('\ntargets (ratios: median of the paired repetitions, their range, and the ratio of medians):');
for (const endpoint of ENDPOINTS) {
  const hits = [1, 8].map((c) => describeRatio(endpoint.label, '1 worker, cache on', c, 'autocannon'));
  const cpu = [1, 8].map((c) => ratioTo(endpoint.label, '1 worker, cache on', c, 'autocannon', 'cpuMicros'));
  const withWrk = HAS_WRK
    ? `; with wrk at 8: ${describeRatio(endpoint.label, '1 worker, cache on', 8, 'wrk')} (CPU ${ratioTo(endpoint.label, '1 worker, cache on', 8, 'wrk', 'cpuMicros').toFixed(2)})`
    : '';
  console.log(
    `  cache hit ≥ 0.7× ceiling: ${endpoint.label}: ${hits.join(' at 1, ')} at 8 connections ` +
      `(server CPU per request, ceiling's over pdi's: ${cpu.map((h) => h.toFixed(2)).join(' at 1, ')} at 8)${withWrk}`,
  );
}
for (const label of ['A recommendations', 'B doi-suggestions']) {
  if (!ENDPOINTS.some((e) => e.label === label)) continue;
  const ratios = [1, 8].map((c) => describeRatio(label, '1 worker, cache off', c, 'autocannon'));
  const withWrk = HAS_WRK ? `; with wrk at 8: ${describeRatio(label, '1 worker, cache off', 8, 'wrk')}` : '';
  console.log(`  uncached ≥ 0.15× ceiling: ${label}: ${ratios.join(' at 1, ')} at 8 connections${withWrk}`);
}
if (WORKERS > 1 && ENDPOINTS.some((e) => e.label === 'A recommendations')) {
  for (const generator of generators) {
    const one = medianOf('A recommendations', '1 worker, cache off', 8, generator, 'rps');
    const scale = medianOf('A recommendations', `${WORKERS} workers, cache off`, 8, generator, 'rps') / one;
    // Paired by repetition, as the ratios to the ceiling are.
    const many = results.get(cellOf('A recommendations', `${WORKERS} workers, cache off`, 8, generator)!)!;
    const single = results.get(cellOf('A recommendations', '1 worker, cache off', 8, generator)!)!;
    const paired = many.map((r, i) => r.rps / single[i].rps);
    const loadCores = (one * medianOf('A recommendations', '1 worker, cache off', 8, generator, 'loadMicros')) / 1e6;
    console.log(
      `  uncached A at 8 connections, ${WORKERS} workers over 1 ≥ 1.4, load from ${generator}: ${median(paired).toFixed(2)} ` +
        `(${ratioSpread(paired)}; of medians ${scale.toFixed(2)}) ` +
        `(${generator} used ${loadCores.toFixed(2)} of the ${os.availableParallelism()} cores against one worker)`,
    );
  }
}
for (const line of loads) console.log(`  ${line}`);

// Graceful stop of every server (SIGTERM: the primary asks its workers), then the ceiling.
await Promise.all(
  [...pdiTargets, ceiling].map(
    (t) =>
      new Promise<void>((resolve) => {
        if (t.process.exitCode !== null) return resolve();
        t.process.once('exit', () => resolve());
        t.process.kill('SIGTERM');
      }),
  ),
);
console.log(`stopped every server gracefully; ${((performance.now() - startedAt) / 1000).toFixed(0)} s in all`);
