// npm run bench -- redis-string-prototype [--redis redis://127.0.0.1:6379] [--texts <file>] [--repeats 3]
//     [--csv <grants csv>] [--url sqlite:/tmp/c/db.sqlite [--reps 500] [--rounds 3]] [--before <older checkout>]
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

interface Served {
  cpuMs(): Promise<number>;
  timeToLastByte(query: string): Promise<number>;
  stop(): Promise<void>;
}

/** C served by a child process (the V8 flags of a worker of `serve`). */
async function serveC(tree: string, dbUrl: string, redis: string): Promise<Served> {
  const server = fork(child, ['serve', tree, dbUrl, redis], { stdio: 'inherit', execArgv: workerExecArgv(process.execArgv) });
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
  const timeToLastByte = (query: string) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = http.get(
        {
          host: '127.0.0.1',
          port: first.port,
          path: `/api/api/search/?${query}`,
          agent,
          headers: { 'accept-encoding': 'gzip, deflate, br' },
        },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`${query}: ${res.statusCode}`));
          res.on('data', () => {});
          res.on('end', () => resolve(performance.now() - started));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
  return {
    async cpuMs() {
      server.send('cpu');
      return ((await next()) as { cpuMs: number }).cpuMs;
    },
    timeToLastByte,
    async stop() {
      server.send('stop');
      agent.destroy();
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

const QUERIES = ['q=health&limit=100', 'q=health&limit=100&province=ON'];

async function searchPart(dbUrl: string): Promise<void> {
  const cases: Array<{ label: string; tree: string; redis: string }> = [
    { label: 'no Redis (baseline)', tree: here, redis: '-' },
    { label: 'Redis configured, this checkout', tree: here, redis: values.redis! },
  ];
  if (values.before) cases.push({ label: `Redis configured, ${values.before}`, tree: values.before, redis: values.redis! });
  const reps = Number(values.reps);
  const rounds = Number(values.rounds);
  // per case and query: one figure per process
  const cpu = cases.map(() => QUERIES.map(() => [] as number[]));
  const p50 = cases.map(() => QUERIES.map(() => [] as number[]));
  const p95 = cases.map(() => QUERIES.map(() => [] as number[]));
  for (let round = 0; round < rounds; round++) {
    for (const [k, c] of cases.entries()) {
      const served = await serveC(c.tree, dbUrl, c.redis);
      for (const [q, query] of QUERIES.entries()) {
        for (let i = 0; i < 50; i++) await served.timeToLastByte(query);
        const times: number[] = [];
        const cpu0 = await served.cpuMs();
        for (let i = 0; i < reps; i++) times.push(await served.timeToLastByte(query));
        cpu[k][q].push(((await served.cpuMs()) - cpu0) / reps);
        p50[k][q].push(quantile(times, 0.5));
        p95[k][q].push(quantile(times, 0.95));
      }
      await served.stop();
    }
    console.log(`search round ${round + 1}/${rounds} done; load average ${load()}`);
  }
  console.log(`\nsearch over HTTP (${dbUrl}): per process (${rounds} each), ${reps} requests after 50 of warm-up`);
  console.log(`${'case'.padEnd(44)} ${'query'.padEnd(34)} ${'server CPU ms/request'.padEnd(30)} ${'p50 ms'.padEnd(20)} p95 ms`);
  for (const [k, c] of cases.entries())
    for (const [q, query] of QUERIES.entries())
      console.log(
        `${c.label.padEnd(44)} ${query.padEnd(34)} ${`${fmt(median(cpu[k][q]))} (${cpu[k][q].map(fmt).join(', ')})`.padEnd(30)} ` +
          `${`${fmt(median(p50[k][q]))} (${range(p50[k][q])})`.padEnd(20)} ${fmt(median(p95[k][q]))} (${range(p95[k][q])})`,
      );
}

console.log(`Node ${process.version}, ${os.cpus().length} CPUs; load average ${load()}`);
await loopPart();
if (values.csv) await importPart(values.csv);
if (values.url) await searchPart(values.url);
