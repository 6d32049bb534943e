// npm run bench -- redis-string-prototype [--redis redis://127.0.0.1:6379] [--texts <file>] [--repeats 3]
//     [--csv <grants csv>] [--url <C's database>] [--limited-url <E's database>] [--reps 500] [--rounds 3]
//     [--before <older checkout>]
// What loading ioredis does to the rest of the process, and that connectRedis undoes it (src/core/redis.ts):
//  - loop: C's text fingerprint (a charCodeAt loop) over the lines of --texts (by default a real file of
//    ../shared/data), timed in a fresh process before and after loading nothing (the baseline), ioredis bare, or
//    connectRedis (connected to --redis and answering); with --before, that checkout's connectRedis too. Each case in
//    --repeats processes, interleaved; the ratio after/before of each process, and their range.
//  - import (with --csv, e.g. the file of `generate grants --size 100000`): the CPU time of `pdi import grants` into
//    a new SQLite database without Redis and with Redis configured (this checkout, and --before's), --repeats
//    processes each, interleaved.
//  - search (with --url, a database C has imported, e.g. `generate grants --size 100000 --import`): C served over HTTP
//    by a child process as `serve grants` makes it (openRuntime; one worker's V8 flags; response cache off) without
//    Redis, and with Redis configured (this checkout, and --before's), --rounds processes each, interleaved; per
//    process the server's CPU time per request (load-independent) and the p50/p95 time to the last byte of --reps
//    requests of each query after 50 of warm-up.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { workerExecArgv } from '../src/core/cluster.ts';
import type { LoopResult, ServeAnswer } from './_redis-child.ts';

const { values } = parseArgs({
  options: {
    redis: { type: 'string', default: process.env.PDI_REDIS_URL ?? 'redis://127.0.0.1:6379' },
    csv: { type: 'string' },
    texts: {
      type: 'string',
      default: path.join(import.meta.dirname, '..', '..', 'shared', 'data', 'retraction', 'calibration_corpus.csv'),
    },
    repeats: { type: 'string', default: '3' },
    url: { type: 'string' },
    'limited-url': { type: 'string' },
    reps: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
    before: { type: 'string' },
  },
});
const here = path.join(import.meta.dirname, '..');
const child = path.join(import.meta.dirname, '_redis-child.ts');
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const fmt = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const range = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

function runLoop(tree: string, what: string): Promise<LoopResult> {
  return new Promise((resolve, reject) => {
    const proc = fork(child, ['loop', tree, what, values.texts!], { stdio: 'inherit' });
    let result: LoopResult | undefined;
    proc.on('message', (m) => (result = m as LoopResult));
    proc.on('error', reject);
    proc.on('exit', (code) => (result ? resolve(result) : reject(new Error(`loop ${what}: exit ${code}`))));
  });
}

async function loopPart(): Promise<void> {
  const cases: Array<{ label: string; tree: string; what: string }> = [
    { label: 'nothing loaded (baseline)', tree: here, what: 'nothing' },
    { label: "import('ioredis') alone", tree: here, what: 'ioredis' },
    { label: 'connectRedis, this checkout', tree: here, what: `connect:${values.redis}` },
  ];
  if (values.before) cases.push({ label: `connectRedis, ${values.before}`, tree: values.before, what: `connect:${values.redis}` });
  const repeats = Number(values.repeats);
  const seen = cases.map(() => [] as LoopResult[]);
  for (let r = 0; r < repeats; r++) for (const [k, c] of cases.entries()) seen[k].push(await runLoop(c.tree, c.what));
  console.log(`\nloop: C's fingerprint over ${values.texts} ×50, CPU ms per pass (median of 9) in ${repeats} fresh processes each`);
  console.log(`${'loaded between the two timings'.padEnd(52)} ${'before'.padStart(12)} ${'after'.padStart(12)}  after/before (range)`);
  for (const [k, c] of cases.entries()) {
    const ratios = seen[k].map((x) => x.afterMs / x.beforeMs);
    console.log(
      `${c.label.padEnd(52)} ${range(seen[k].map((x) => x.beforeMs)).padStart(12)} ${range(seen[k].map((x) => x.afterMs)).padStart(12)}  ` +
        `${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(', ')})`,
    );
  }
  console.log(`load average ${load()}`);
}

function runImport(tree: string, csv: string, redis: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-redis-bench-'));
  return new Promise<number>((resolve, reject) => {
    const proc = fork(child, ['import', tree, csv, path.join(dir, 'db.sqlite'), redis], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let cpuSeconds: number | undefined;
    proc.on('message', (m) => (cpuSeconds = (m as { cpuSeconds: number }).cpuSeconds));
    proc.on('error', reject);
    proc.on('exit', (code) => (cpuSeconds === undefined ? reject(new Error(`import: exit ${code}`)) : resolve(cpuSeconds)));
  }).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}

async function importPart(csv: string): Promise<void> {
  const cases: Array<{ label: string; tree: string; redis: string }> = [
    { label: 'no Redis (baseline)', tree: here, redis: '-' },
    { label: 'Redis configured, this checkout', tree: here, redis: values.redis! },
  ];
  if (values.before) cases.push({ label: `Redis configured, ${values.before}`, tree: values.before, redis: values.redis! });
  const repeats = Number(values.repeats);
  const seen = cases.map(() => [] as number[]);
  for (let r = 0; r < repeats; r++) for (const [k, c] of cases.entries()) seen[k].push(await runImport(c.tree, csv, c.redis));
  console.log(`\nimport of ${csv} into a new SQLite database: CPU seconds, ${repeats} processes each`);
  for (const [k, c] of cases.entries()) console.log(`${c.label.padEnd(52)} ${fmt(median(seen[k]))} (${seen[k].map(fmt).join(', ')})`);
  console.log(`load average ${load()}`);
}

interface Answer {
  ms: number;
  status: number;
  /** Whether the answer carries the rate-limit headers (the request was counted). */
  counted: boolean;
}

interface Served {
  cpuMs(): Promise<number>;
  /** GET `url`, timed to the last byte of the answer (compression accepted, the bytes not decoded). */
  get(url: string, client?: string): Promise<Answer>;
  stop(): Promise<void>;
}

/** A service served by a child process (the V8 flags of a worker of `serve`). */
async function serve(tree: string, service: string, dbUrl: string, redis: string): Promise<Served> {
  const server = fork(child, ['serve', tree, service, dbUrl, redis], { stdio: 'inherit', execArgv: workerExecArgv(process.execArgv) });
  const inbox: ServeAnswer[] = [];
  let wake: (() => void) | null = null;
  server.on('message', (m) => {
    inbox.push(m as ServeAnswer);
    wake?.();
  });
  const next = async (): Promise<ServeAnswer> => {
    while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return inbox.shift()!;
  };
  const first = await next();
  if (!('port' in first)) throw new Error('the server sent no port');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (url: string, client?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const started = performance.now();
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
      if (client !== undefined) headers['x-forwarded-for'] = client;
      const req = http.get({ host: '127.0.0.1', port: first.port, path: url, agent, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () =>
          resolve({
            ms: performance.now() - started,
            status: res.statusCode ?? 0,
            counted: res.headers['x-ratelimit-remaining'] !== undefined,
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  return {
    async cpuMs() {
      server.send('cpu');
      return ((await next()) as { cpuMs: number }).cpuMs;
    },
    get,
    async stop() {
      server.send('stop');
      agent.destroy();
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

/** A run of requests: `warmUp` untimed, then `count` timed; `request(i)` gives the i-th (timed ones from 0). */
interface Stream {
  name: string;
  warmUp: number;
  count: number;
  request(i: number): { url: string; client?: string };
}

interface Case {
  label: string;
  tree: string;
  redis: string;
}

function casesWithRedis(): Case[] {
  const cases: Case[] = [
    { label: 'no Redis (baseline)', tree: here, redis: '-' },
    { label: 'Redis configured, this checkout', tree: here, redis: values.redis! },
  ];
  if (values.before) cases.push({ label: `Redis configured, ${values.before}`, tree: values.before, redis: values.redis! });
  return cases;
}

/**
 * Each case served by `rounds` processes (the cases interleaved); in each, the streams in order. Prints, per case and
 * stream, the server's CPU milliseconds per request of each process and the median and range of their p50 and p95;
 * and per case the CPU time each process took to answer its first request.
 */
async function measure(title: string, service: string, dbUrl: string, streams: Stream[]): Promise<void> {
  const cases = casesWithRedis();
  const rounds = Number(values.rounds);
  const cpu = cases.map(() => streams.map(() => [] as number[]));
  const p50 = cases.map(() => streams.map(() => [] as number[]));
  const p95 = cases.map(() => streams.map(() => [] as number[]));
  const statuses = cases.map(() => streams.map(() => new Map<string, number>()));
  const startCpu = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (const [k, c] of cases.entries()) {
      const served = await serve(c.tree, service, dbUrl, c.redis);
      // the process's CPU time until it has answered a first request (its start: modules, migrations, the state)
      await served.get(streams[0].request(-streams[0].warmUp).url, streams[0].request(-streams[0].warmUp).client);
      startCpu[k].push((await served.cpuMs()) / 1000);
      for (const [q, stream] of streams.entries()) {
        for (let i = -stream.warmUp; i < 0; i++) await served.get(stream.request(i).url, stream.request(i).client);
        const times: number[] = [];
        const cpu0 = await served.cpuMs();
        for (let i = 0; i < stream.count; i++) {
          const { url, client } = stream.request(i);
          const answer = await served.get(url, client);
          times.push(answer.ms);
          const key = `${answer.status}${answer.counted ? ' counted' : ''}`;
          statuses[k][q].set(key, (statuses[k][q].get(key) ?? 0) + 1);
        }
        cpu[k][q].push(((await served.cpuMs()) - cpu0) / stream.count);
        p50[k][q].push(quantile(times, 0.5));
        p95[k][q].push(quantile(times, 0.95));
      }
      await served.stop();
    }
    console.log(`${title}: round ${round + 1}/${rounds} done; load average ${load()}`);
  }
  console.log(`\n${title} (${dbUrl}), ${rounds} processes each`);
  console.log(
    `${'case'.padEnd(44)} ${'requests'.padEnd(52)} ${'server CPU ms/request'.padEnd(30)} ${'p50 ms'.padEnd(20)} ${'p95 ms'.padEnd(20)} answers`,
  );
  for (const [k, c] of cases.entries())
    for (const [q, stream] of streams.entries())
      console.log(
        `${c.label.padEnd(44)} ${stream.name.padEnd(52)} ${`${fmt(median(cpu[k][q]))} (${cpu[k][q].map(fmt).join(', ')})`.padEnd(30)} ` +
          `${`${fmt(median(p50[k][q]))} (${range(p50[k][q])})`.padEnd(20)} ${`${fmt(median(p95[k][q]))} (${range(p95[k][q])})`.padEnd(20)} ` +
          [...statuses[k][q]].map(([key, n]) => `${n} ${key}`).join(', '),
      );
  console.log('CPU seconds of each process until its first answer (its start):');
  for (const [k, c] of cases.entries())
    console.log(`${c.label.padEnd(44)} ${fmt(median(startCpu[k]))} (${startCpu[k].map(fmt).join(', ')})`);
}

/**
 * Distinct strings C has not searched before: the first four letters of the words of the texts file (in order of
 * appearance), short enough that many texts hold each, so that a first search scans texts.
 */
function distinctStrings(count: number): string[] {
  const strings = new Set<string>();
  for (const match of fs
    .readFileSync(values.texts!, 'utf8')
    .toLowerCase()
    .matchAll(/\b[a-z]{4,}/g)) {
    strings.add(match[0].slice(0, 4));
    if (strings.size === count) break;
  }
  if (strings.size < count) throw new Error(`${values.texts} gives ${strings.size} distinct strings, not ${count}`);
  return [...strings];
}

/** C's search: two repeated queries, and strings searched for the first time (what scans the texts). */
async function searchPart(dbUrl: string): Promise<void> {
  const reps = Number(values.reps);
  const repeated = (query: string): Stream => ({
    name: query,
    warmUp: 50,
    count: reps,
    request: () => ({ url: `/api/api/search/?${query}` }),
  });
  const strings = distinctStrings(350);
  await measure('C search over HTTP', 'grants', dbUrl, [
    repeated('q=health&limit=100'),
    repeated('q=health&limit=100&province=ON'),
    {
      name: 'q=<4 letters not searched before>&limit=100',
      warmUp: 50,
      count: 300,
      request: (i) => ({ url: `/api/api/search/?q=${encodeURIComponent(strings[i + 50])}&limit=100` }),
    },
  ]);
}

/** E's search, rate-limited (100 a minute per client): each request from another client, so that each is counted. */
async function limitedPart(dbUrl: string): Promise<void> {
  const count = Math.max(2000, Number(values.reps));
  const client = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  await measure('E search over HTTP, rate-limited', 'retraction', dbUrl, [
    {
      name: '/api/search/?q=cancer, each from another client',
      warmUp: 200,
      count,
      request: (i) => ({ url: '/api/search/?q=cancer', client: client(i + 200) }),
    },
  ]);
}

console.log(`Node ${process.version}, ${os.cpus().length} CPUs; load average ${load()}`);
await loopPart();
if (values.csv) await importPart(values.csv);
if (values.url) await searchPart(values.url);
if (values['limited-url']) await limitedPart(values['limited-url']);
