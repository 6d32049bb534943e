// npm run bench -- grants [--rows 1300000] [--seed 1] [--database sqlite|postgres] [--import-runs 3] [--import-only] [--reps 200] [--rounds 3] [--fresh-csv] [--keep]
//   (--import-only: the import against the parse, then stop)
// npm run bench -- grants --url sqlite:/tmp/c13m/db.sqlite [--rounds 3] [--before /tmp/old-checkout]   (only the HTTP search,
//   on a database built before; with --before, that checkout's src/ measured first in the same run)
// npm run bench -- grants --url sqlite:/tmp/c13m/db.sqlite --memory [--before /tmp/old-checkout] [--searches 2000] [--rounds 3]
//   (only the memory of a process serving C alone, at rest and after distinct searches; with --before, the same
//   measurement of another checkout's src/ in the same run, interleaved)
// Service C at scale, measured in one run on one generated file (rows in the real federal schema; by default
// the file of `generate grants --size 1300000 --seed 1`, on which the figures below were taken):
//  - import: wall time and rows/s of `importGrantsCsv` beside the time to merely parse the same file
//    (ratio; target ≤ 4×; on SQLite the median of three parse-then-import pairs), and the importing
//    process's peak RSS (target ≤ 600 MB); each in a child process;
//  - search over HTTP (`q=health&limit=100`, p50 ≤ 10 ms and p95 ≤ 20, filters no slower): C served
//    by a child process (one worker, response cache off), 20 warm-up requests by `fetch` (their p50 printed: what a
//    client that decompresses and parses sees) then --reps requests per URL timed to the last byte of the answer
//    (compression accepted, the bytes not decoded), p50/p95, the server's CPU time per request (load-independent)
//    and the ratio to the target, in --rounds rounds with the load average beside each; and the first request of
//    strings not searched before, right after the start and again after the rounds;
//  - search: p50/p95 of five representative queries through the HTTP app (response cache off) beside the
//    same queries answered by a plain scan (LIKE for text, no index for the filters) on the same database;
//  - stats, recipients, comprehensive-stats and calculate: latency through the HTTP app beside computing
//    the aggregates per request (what the import-time precomputation saves).
// The CSV is cached in bench/out/ (regenerated with --fresh-csv); the database is removed unless --keep.
import { fork } from 'node:child_process';
import type { ServeMemory, ServeMessage } from './_grants-child.ts';
import { workerExecArgv } from '../src/core/cluster.ts';
import { Random } from '../src/core/random.ts';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CompiledQuery, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { dialectOf } from '../src/core/db/dialect.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import type { ServiceContext } from '../src/core/service.ts';
import type { ImportReport } from '../src/core/import.ts';
import { grantsService } from '../src/services/grants/service.ts';
import { writeGrantsCsv } from '../src/services/grants/generator/index.ts';
import { computeAggregates } from '../src/services/grants/aggregates.ts';
import type { DataSource } from '../src/services/grants/aggregates.ts';
import { MemorySearch } from '../src/services/grants/search/memory-search.ts';
import { searchGrants } from '../src/services/grants/search/grants-search.ts';
import { GRANTS_TABLE, GRANTS_TEXTS_TABLE, SEARCHED_COLUMNS } from '../src/services/grants/tables.ts';
import type { GrantsDatabase, GrantsTables } from '../src/services/grants/tables.ts';
import pino from 'pino';
import { PROVINCE_CODES } from '../src/services/grants/source/provinces.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1300000' },
    seed: { type: 'string', default: '1' },
    database: { type: 'string', default: 'sqlite' },
    // p95 of 40 requests is their second slowest, which one pause of the machine can move: 200 estimate it
    reps: { type: 'string', default: '200' },
    'baseline-reps': { type: 'string', default: '3' },
    'fresh-csv': { type: 'boolean', default: false },
    'import-runs': { type: 'string' },
    'import-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    url: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    memory: { type: 'boolean', default: false },
    before: { type: 'string' },
    searches: { type: 'string', default: '2000' },
  },
});
const rows = Number(values.rows);
const reps = Number(values.reps);
const baselineReps = Number(values['baseline-reps']);
const database = values.database;
if (!['sqlite', 'postgres'].includes(database!)) throw new Error('--database must be sqlite or postgres');
// (PostgreSQL: one run, into the database made for it)
const importRuns = Number(values['import-runs'] ?? (database === 'sqlite' ? 3 : 1));
if (!(Number.isInteger(importRuns) && importRuns >= 1) || (database !== 'sqlite' && importRuns !== 1))
  throw new Error('--import-runs: a whole number ≥ 1 (1 on PostgreSQL)');

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
console.log(
  `Service C (grants) at ${rows.toLocaleString('en-CA')} rows on ${database}; Node ${process.version}, ${os.cpus().length} CPUs; load average ${load()}`,
);

// ------------------------------------------------------------------ search over HTTP
const SEARCH_TARGET = { p50: 10, p95: 20 };
const SEARCH_URLS = [
  'q=health&limit=100',
  'q=health&limit=100&province=ON',
  'q=health&limit=100&fiscal_year=2019-20',
  'q=health&limit=100&recipient_type=F',
  'q=health&limit=100&province=QC&fiscal_year=2019-20&recipient_type=F',
];
/** French strings searched from the first French search until the French texts are held (each once, then with pages). */
const FRENCH_WHILE_LOADING = ['santé', 'subventions', 'recherche', 'montreal', 'journaux communautaires', 'développement'];
/** Searches in French (the French texts too, stemmed), after the others. */
const FRENCH_URLS = ['q=sant%C3%A9&limit=100&lang=fr', 'q=subventions&limit=100&lang=fr', 'q=health&limit=100&lang=fr'];
/**
 * Strings no request searched before (the text ids of recent strings are kept): each one's first request is timed,
 * NEW_STRINGS right after the server's start (code not yet compiled by V8's optimising tiers), WARM_NEW_STRINGS after
 * the rounds of repeated searches.
 */
const NEW_STRINGS = [
  'healt',
  'mental',
  'hospital',
  'research',
  'communit',
  'universit',
  'program',
  'develop',
  'support',
  'indigenous',
  'housing',
  'training',
  'innovation',
  'youth',
  'climate',
  'agricultur',
  'science',
  'culture',
  'infrastructure',
  'employment',
];
const WARM_NEW_STRINGS = [
  'water',
  'energy',
  'student',
  'business',
  'women',
  'safety',
  'food',
  'farm',
  'fish',
  'ocean',
  'transport',
  'digital',
  'network',
  'capacity',
  'services',
  'project',
  'national',
  'regional',
  'economic',
  'heritage',
];

interface ServedC {
  port: number;
  /** performance.now() when the process was started. */
  forkedAt: number;
  ask<K extends 'cpuMs' | 'rssMb' | 'holdsFrench'>(question: 'cpu' | 'memory' | 'french', key: K): Promise<number>;
  memory(): Promise<ServeMemory>;
  get(query: string): Promise<{ count: number }>;
  /** Milliseconds from sending the request to the last byte of the answer, read as it comes (not decoded). */
  timeToLastByte(query: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * C served alone by a child process (one worker's V8 flags, --expose-gc for the heap figures), from this checkout
 * or from `tree`'s src/.
 */
async function serveC(dbUrl: string, tree?: string): Promise<ServedC> {
  const args = ['serve', dbUrl, ...(tree === undefined ? [] : [tree])];
  const forkedAt = performance.now();
  const server = fork(path.join(import.meta.dirname, '_grants-child.ts'), args, {
    stdio: 'inherit',
    execArgv: workerExecArgv([...process.execArgv, '--expose-gc']),
  });
  const inbox: ServeMessage[] = [];
  let wake: (() => void) | null = null;
  server.on('message', (m) => {
    inbox.push(m as ServeMessage);
    wake?.();
  });
  const next = async (): Promise<ServeMessage> => {
    while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return inbox.shift()!;
  };
  const first = await next();
  if (!('port' in first)) throw new Error('the server sent no port');
  const ask = async <K extends 'cpuMs' | 'rssMb' | 'holdsFrench'>(question: 'cpu' | 'memory' | 'french', key: K): Promise<number> => {
    server.send(question);
    const m = (await next()) as Record<string, number>;
    return m[key];
  };
  const get = async (query: string): Promise<{ count: number }> => {
    const res = await fetch(`http://127.0.0.1:${first.port}/api/api/search/?${query}`);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { count: number };
  };
  // The timed requests: what a browser asks (compression accepted), on a kept-alive connection, the answer read as
  // bytes and neither decompressed nor parsed; that work is the client's, and fetch's share of it would be counted
  // as the server's (the client shares the cores with the server).
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
  const memory = async (): Promise<ServeMemory> => {
    server.send('memory');
    return (await next()) as ServeMemory;
  };
  const stop = async () => {
    server.send('stop');
    agent.destroy();
    await new Promise((resolve) => server.once('exit', resolve));
  };
  return { port: first.port, forkedAt, ask, memory, get, timeToLastByte, stop };
}

async function searchOverHttp(dbUrl: string, rounds: number, tree?: string): Promise<void> {
  if (tree !== undefined) console.log(`\n--- the checkout at ${tree}`);
  const { forkedAt, ask, get, timeToLastByte, stop } = await serveC(dbUrl, tree);
  const quantile = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))];
  try {
    // (timed from the process's start, with its CPU time since: the index may load before or after the port is known)
    await get('limit=1');
    console.log(
      `\nsearch over HTTP (served by a child process, one worker, response cache off): the first search answered ${((performance.now() - forkedAt) / 1000).toFixed(1)} s after the process started (server CPU ${((await ask('cpu', 'cpuMs')) / 1000).toFixed(1)} s); server RSS ${(await ask('memory', 'rssMb')).toFixed(0)} MiB; load average ${load()}`,
    );
    let t: number;
    // first requests of new strings, with a page of 100 and without filters
    const firstRequests = async (strings: string[], when: string) => {
      const firsts: number[] = [];
      const firstsCpu0 = await ask('cpu', 'cpuMs');
      for (const text of strings) firsts.push(await timeToLastByte(`q=${encodeURIComponent(text)}&limit=100`));
      const firstsCpu = ((await ask('cpu', 'cpuMs')) - firstsCpu0) / strings.length;
      console.log(
        `first request of ${strings.length} strings not searched before (limit=100), ${when}: p50 ${fmt(quantile(firsts, 0.5))} ms ` +
          `(${(quantile(firsts, 0.5) / SEARCH_TARGET.p50).toFixed(2)}× the target), p95 ${fmt(quantile(firsts, 0.95))} ms, ` +
          `max ${fmt(Math.max(...firsts))} ms, server CPU ${fmt(firstsCpu)} ms a request; load average ${load()}`,
      );
    };
    await firstRequests(NEW_STRINGS, 'after the start');
    const healthFirst = await timeToLastByte('q=health&limit=100');
    const health = await get('q=health&limit=100');
    console.log(`first request of q=health&limit=100: ${fmt(healthFirst)} ms (${health.count} matches)`);
    console.log(
      'p50, p95: time to the last byte, compression accepted; fetch p50: the same request by fetch, decompressed and parsed (20 warm-ups)',
    );
    console.log(
      `${'URL (/api/api/search/?…)'.padEnd(66)} ${'count'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'CPU ms'.padStart(7)}  p50/10, p95/20  fetch p50  load average`,
    );
    for (let round = 1; round <= rounds; round++) {
      console.log(`round ${round}/${rounds}`);
      for (const query of SEARCH_URLS) {
        let count = 0;
        const fetched: number[] = [];
        for (let i = 0; i < 20; i++) {
          t = performance.now();
          count = (await get(query)).count;
          fetched.push(performance.now() - t);
        }
        const times: number[] = [];
        const cpu0 = await ask('cpu', 'cpuMs');
        for (let i = 0; i < reps; i++) times.push(await timeToLastByte(query));
        const cpuPerRequest = ((await ask('cpu', 'cpuMs')) - cpu0) / reps;
        const p50 = quantile(times, 0.5);
        const p95 = quantile(times, 0.95);
        console.log(
          `${query.padEnd(66)} ${String(count).padStart(8)} ${fmt(p50).padStart(7)} ${fmt(p95).padStart(7)} ${fmt(cpuPerRequest).padStart(7)}  ` +
            `${(p50 / SEARCH_TARGET.p50).toFixed(2).padStart(6)}× ${(p95 / SEARCH_TARGET.p95).toFixed(2).padStart(6)}×  ${fmt(quantile(fetched, 0.5)).padStart(9)}  ${load()}`,
        );
      }
    }
    await firstRequests(WARM_NEW_STRINGS, 'after the rounds');
    console.log(`server RSS after the searches: ${(await ask('memory', 'rssMb')).toFixed(0)} MiB`);
    // then in French: the first such search starts reading the French texts in the background
    // (search/memory-search.ts), and the database answers the French searches until they are held
    // (search/french-in-database.ts): the first requests of French strings until then, and how long that took
    const frenchStart = performance.now();
    const during: number[] = [];
    for (let k = 0; k < 3 * FRENCH_WHILE_LOADING.length && (await ask('french', 'holdsFrench')) === 0; k++) {
      const text = FRENCH_WHILE_LOADING[k % FRENCH_WHILE_LOADING.length];
      const query = `q=${encodeURIComponent(text)}&limit=100&lang=fr${k < FRENCH_WHILE_LOADING.length ? '' : `&offset=${k}`}`;
      const cpu0 = await ask('cpu', 'cpuMs');
      t = performance.now();
      const { count } = await get(query);
      during.push(performance.now() - t);
      const cpuMs = (await ask('cpu', 'cpuMs')) - cpu0;
      console.log(
        `while the French texts load, at ${((performance.now() - frenchStart) / 1000).toFixed(1)} s: ${query.padEnd(50)} ${String(count).padStart(8)} ${fmt(during[k])} ms (server CPU ${fmt(cpuMs)} ms); load average ${load()}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000)); // a person's pace, not a flood
    }
    while ((await ask('french', 'holdsFrench')) === 0 && performance.now() - frenchStart < 900_000)
      await new Promise((resolve) => setTimeout(resolve, 1000));
    if (during.length > 0)
      console.log(
        `French texts held ${((performance.now() - frenchStart) / 1000).toFixed(1)} s after the first French search; ${during.length} French searches meanwhile: first ${fmt(during[0])} ms, p50 ${fmt(quantile(during, 0.5))} ms, max ${fmt(Math.max(...during))} ms`,
      );
    console.log(`server RSS with the French texts held: ${(await ask('memory', 'rssMb')).toFixed(0)} MiB`);
    for (const query of FRENCH_URLS) {
      t = performance.now();
      const { count } = await get(query);
      const first = performance.now() - t;
      const times: number[] = [];
      const cpu0 = await ask('cpu', 'cpuMs');
      for (let i = 0; i < reps; i++) times.push(await timeToLastByte(query));
      const cpuPerRequest = ((await ask('cpu', 'cpuMs')) - cpu0) / reps;
      console.log(
        `${query.padEnd(66)} ${String(count).padStart(8)} first ${fmt(first)} ms, then p50 ${fmt(quantile(times, 0.5))} ms, p95 ${fmt(quantile(times, 0.95))} ms, server CPU ${fmt(cpuPerRequest)} ms a request; load average ${load()}`,
      );
    }
    console.log(`server RSS after the French searches too: ${(await ask('memory', 'rssMb')).toFixed(0)} MiB`);
  } finally {
    await stop();
  }
}

// ------------------------------------------------------------------ memory of C alone
// Words common in grant texts (not read from the data: the strings need only be many and plausible), their
// prefixes of 3 to 7 letters, and pairs: distinct search strings, each with filters and a sort.
const WORDS = (
  'health care research community program training support water energy climate student university hospital mental ' +
  'indigenous housing business innovation science art culture youth women safety food farm agriculture fish ocean ' +
  'transport digital network infrastructure employment development capacity services project national regional ' +
  'economic international heritage sport environment skills canada federal northern rural urban children family'
).split(' ');
const SORT_NAMES = ['agreement_value', 'agreement_start_date', 'recipient_legal_name', 'fiscal_year', 'recipient_province'];
const REST_MS = 5_000;

/** `count` distinct search URLs from a seeded generator (the same in every run). */
function distinctSearches(count: number): string[] {
  const random = new Random('bench-grants-memory');
  const urls = new Set<string>();
  while (urls.size < count) {
    const word = random.pick(WORDS);
    const kind = random.int(0, 2);
    const text = kind === 0 ? word : kind === 1 ? word.slice(0, random.int(3, Math.min(7, word.length))) : `${word} ${random.pick(WORDS)}`;
    const parts = [`q=${encodeURIComponent(text)}`, 'limit=100'];
    if (random.bool(0.4)) parts.push(`province=${random.pick(PROVINCE_CODES)}`);
    if (random.bool(0.3)) {
      const year = 2005 + random.int(0, 19);
      parts.push(`fiscal_year=${year}-${String((year + 1) % 100).padStart(2, '0')}`);
    }
    if (random.bool(0.5)) parts.push(`sort=${random.bool() ? '-' : ''}${random.pick(SORT_NAMES)}`);
    urls.add(parts.join('&'));
  }
  return [...urls];
}

async function memoryOverHttp(
  dbUrl: string,
  trees: Array<{ name: string; tree?: string }>,
  rounds: number,
  searches: number,
): Promise<void> {
  const urls = distinctSearches(searches);
  const show = (m: ServeMemory) =>
    `RSS ${m.rssMb.toFixed(0)}, heap used ${m.heapUsedMb.toFixed(0)} + external ${m.externalMb.toFixed(0)} (array buffers ${m.arrayBuffersMb.toFixed(0)}) = ${(m.heapUsedMb + m.externalMb).toFixed(0)}`;
  console.log(
    `\nmemory of C served alone (one worker's V8 flags, response cache off; MiB; heap after a full GC), at rest ${REST_MS / 1000} s after the first search and after ${searches} distinct searches`,
  );
  const results = new Map<string, Array<{ load: number; rest: ServeMemory; after: ServeMemory }>>();
  for (let round = 1; round <= rounds; round++) {
    for (const { name, tree } of trees) {
      const t0 = performance.now();
      const served = await serveC(dbUrl, tree);
      try {
        await served.get('limit=1');
        const loadSeconds = (performance.now() - t0) / 1000;
        await new Promise((resolve) => setTimeout(resolve, REST_MS));
        const rest = await served.memory();
        console.log(
          `round ${round} ${name.padEnd(7)} search loaded ${loadSeconds.toFixed(1)} s after start; at rest: ${show(rest)}; load average ${load()}`,
        );
        const t1 = performance.now();
        for (const url of urls) await served.get(url);
        const after = await served.memory();
        console.log(
          `round ${round} ${name.padEnd(7)} after ${searches} searches (${((performance.now() - t1) / searches).toFixed(1)} ms each): ${show(after)}; load average ${load()}`,
        );
        results.set(name, [...(results.get(name) ?? []), { load: loadSeconds, rest, after }]);
      } finally {
        await served.stop();
      }
    }
  }
  const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
  console.log(
    `${'summary (min–max over rounds)'.padEnd(30)} ${'load s'.padStart(8)} ${'RSS rest'.padStart(10)} ${'RSS after'.padStart(10)} ${'heap+ext rest'.padStart(14)} ${'heap+ext after'.padStart(15)}`,
  );
  for (const [name, runs] of results) {
    console.log(
      `${name.padEnd(30)} ${range(
        runs.map((r) => r.load),
        1,
      ).padStart(8)} ${range(runs.map((r) => r.rest.rssMb)).padStart(10)} ${range(runs.map((r) => r.after.rssMb)).padStart(10)} ` +
        `${range(runs.map((r) => r.rest.heapUsedMb + r.rest.externalMb)).padStart(14)} ${range(runs.map((r) => r.after.heapUsedMb + r.after.externalMb)).padStart(15)}`,
    );
  }
}

if (values.url !== undefined && values.memory) {
  const trees = [...(values.before === undefined ? [] : [{ name: 'before', tree: values.before }]), { name: 'after' }];
  await memoryOverHttp(values.url, trees, Number(values.rounds), Number(values.searches));
  process.exit(0);
}
if (values.url !== undefined) {
  // with --before, that checkout first, then this one
  if (values.before !== undefined) await searchOverHttp(values.url, Number(values.rounds), values.before);
  if (values.before !== undefined) console.log('\n--- this checkout');
  await searchOverHttp(values.url, Number(values.rounds));
  process.exit(0);
}

// ------------------------------------------------------------------ the file
const outDir = path.join(import.meta.dirname, 'out');
fs.mkdirSync(outDir, { recursive: true });
const seed = /^\d+$/.test(values.seed!) ? Number(values.seed) : values.seed!; // (as the CLI's --seed: a number)
const csv = path.join(outDir, `grants-${rows}-seed-${seed}.csv`);
if (values['fresh-csv'] || !fs.existsSync(csv)) {
  const t = performance.now();
  const summary = await writeGrantsCsv(csv, { rows, seed });
  console.log(
    `generated ${csv}: ${(summary.bytesWritten / 2 ** 20).toFixed(0)} MiB, ${summary.agreements} agreements, ${summary.amendmentRows} amendment rows in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
} else {
  console.log(`reusing ${csv} (${(fs.statSync(csv).size / 2 ** 20).toFixed(0)} MiB; --fresh-csv to regenerate)`);
}

// ------------------------------------------------------------------ the database
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-grants-'));
let url: string;
let dropDatabase: () => Promise<void> = async () => {};
if (database === 'sqlite') {
  url = `sqlite:${path.join(workDir, 'bench.sqlite')}`;
} else {
  // A database of its own: schemas inside a shared database confuse other processes' migrators.
  const base = process.env.PDI_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `pdi_bench_grants_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  url = u.toString();
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name}`);
    await c.end();
  };
}

interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  stages: Array<{ stage: string; seconds: number; rssMb: number }>;
  result: unknown;
}

function child(args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = fork(path.join(import.meta.dirname, '_grants-child.ts'), args, { stdio: 'inherit' });
    let answer: ChildResult | null = null;
    proc.on('message', (m) => (answer = m as ChildResult));
    proc.on('error', reject);
    proc.on('exit', (code) => (code === 0 && answer ? resolve(answer) : reject(new Error(`child ${args[0]} exited with ${code}`))));
  });
}

try {
  // ---------------------------------------------------------------- import vs parse
  // This machine's speed drifts by tens of percent within minutes, and more for two busy threads (the import)
  // than for one (the parse): each import is measured right after a parse of its own, into an empty
  // database, and every pair is printed; the median pair's ratio is the result.
  const pairs: Array<{ parse: ChildResult; imported: ChildResult }> = [];
  for (let run = 1; run <= importRuns; run++) {
    const parse = await child(['parse', csv]);
    // every run imports into an empty database (the last one is kept for the queries)
    const target = run < importRuns ? `sqlite:${path.join(workDir, `run-${run}.sqlite`)}` : url;
    const imported = await child(['import', target, csv]);
    if (run < importRuns) for (const f of fs.readdirSync(workDir)) if (f.startsWith(`run-${run}.`)) fs.rmSync(path.join(workDir, f));
    pairs.push({ parse, imported });
    console.log(
      `${run === 1 ? '\n' : ''}run ${run}/${importRuns}: parse ${parse.seconds.toFixed(1)} s (${parse.cpuSeconds.toFixed(1)} s CPU), ` +
        `import ${imported.seconds.toFixed(1)} s (${imported.cpuSeconds.toFixed(1)} s CPU): ratio ${(imported.seconds / parse.seconds).toFixed(2)}; load average ${load()}`,
    );
  }
  const ratios = pairs.map((p) => p.imported.seconds / p.parse.seconds);
  const median = [...ratios].sort((a, b) => a - b)[(ratios.length - 1) >> 1];
  const { parse, imported } = pairs[ratios.indexOf(median)];
  console.log(
    `\nthe median run: parse only (baseline): ${parse.seconds.toFixed(1)} s wall, ${parse.cpuSeconds.toFixed(1)} s CPU, peak RSS ${parse.peakRssMb.toFixed(0)} MB`,
  );
  const report = imported.result as ImportReport;
  console.log(
    `import:                ${imported.seconds.toFixed(1)} s wall, ${imported.cpuSeconds.toFixed(1)} s CPU (this process; the database server's own time is not in it on PostgreSQL), ` +
      `${Math.round(report.rows_read / imported.seconds).toLocaleString('en-CA')} rows/s, peak RSS ${imported.peakRssMb.toFixed(0)} MB (target ≤ 600)`,
  );
  let previous = 0;
  for (const s of imported.stages) {
    console.log(
      `    ${s.stage.padEnd(36)} begins at ${s.seconds.toFixed(1).padStart(6)} s (previous stage ${(s.seconds - previous).toFixed(1)} s); RSS ${s.rssMb.toFixed(0)} MB`,
    );
    previous = s.seconds;
  }
  console.log(
    `    ${'end (committed)'.padEnd(36)}     at ${(report.duration_ms / 1000).toFixed(1).padStart(6)} s (previous stage ${(report.duration_ms / 1000 - previous).toFixed(1)} s)`,
  );
  console.log(
    `    read ${report.rows_read}, inserted ${report.inserted}, skipped ${report.skipped} (${Object.entries(report.skip_reasons)
      .map(([r, n]) => `${n} ${r}`)
      .join('; ')})`,
  );
  console.log(
    `ratio import/parse: ${median.toFixed(2)} wall (target ≤ 4), ${(imported.cpuSeconds / parse.cpuSeconds).toFixed(2)} CPU` +
      (pairs.length > 1
        ? `; median of ${pairs.length} runs (${ratios.map((r) => r.toFixed(2)).join(', ')}); peak RSS of any import ${Math.max(...pairs.map((p) => p.imported.peakRssMb)).toFixed(0)} MB`
        : ''),
  );

  if (values['import-only'] && !values.keep) {
    fs.rmSync(workDir, { recursive: true, force: true });
    await dropDatabase();
  }
  if (values['import-only']) process.exit(0);

  // ---------------------------------------------------------------- search over HTTP
  await searchOverHttp(url, Number(values.rounds));

  // ---------------------------------------------------------------- queries
  const db = openDatabase(url);
  const kysely = db.kysely.withTables<GrantsTables>();
  const config = { ...loadConfig({ ...process.env, PDI_RESPONSE_CACHE_ENTRIES: '0' }), logLevel: 'silent' };
  const ctx: ServiceContext = {
    name: 'grants',
    db,
    config,
    log: pino({ level: 'silent' }),
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'grants'),
  };
  // Searches are counted and ordered in memory (src/services/grants/search/memory-search.ts): what loading that costs, once per data
  // version, measured alone (the app's own copy then loads in the background when it is ready).
  {
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const memory = new MemorySearch(kysely, ctx.dataVersion);
    await memory.ready();
    const loaded = performance.now() - t0;
    await searchGrants(kysely, memory, { text: 'health' }, { field: 'agreement_value', descending: true }, { limit: 1, offset: 0 });
    console.log(
      `\nin-memory search: snapshot with the default order loaded in ${(loaded / 1000).toFixed(2)} s, then a first text search in ${((performance.now() - t0 - loaded) / 1000).toFixed(3)} s; ` +
        `${(memory.bytes / 2 ** 20).toFixed(0)} MiB of arrays (RSS +${((process.memoryUsage().rss - rss0) / 2 ** 20).toFixed(0)} MiB)`,
    );
  }

  const app = await buildServiceApp(grantsService, ctx, { logger: false });
  await app.ready();

  const quantiles = (list: number[]) => {
    const s = [...list].sort((a, b) => a - b);
    const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return { p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1] };
  };
  async function time(n: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number; p99: number; max: number }> {
    await fn(); // warm-up
    const list: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await fn();
      list.push(performance.now() - t);
    }
    return quantiles(list);
  }
  async function getJson(urlPath: string) {
    const res = await app.inject(urlPath);
    if (res.statusCode !== 200) throw new Error(`${urlPath}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  // The baseline: the same filters as a plain scan (LIKE for the text, no index for the rest).
  interface Query {
    label: string;
    url: string;
    text?: string;
    where: Array<[string, unknown]>;
    order: string;
  }
  const queries: Query[] = [
    {
      label: 'text "mental health"',
      url: 'search=mental%20health',
      text: 'mental health',
      where: [],
      order: 'agreement_value_cents desc, id desc',
    },
    { label: 'text "hospital" (rarer)', url: 'search=hospital', text: 'hospital', where: [], order: 'agreement_value_cents desc, id desc' },
    {
      label: 'text "university" + province QC',
      url: 'search=university&province=QC',
      text: 'university',
      where: [['recipient_province = ?', 'QC']],
      order: 'agreement_value_cents desc, id desc',
    },
    {
      label: 'value $100K–$500K, sort -start date',
      url: 'min_value=100000&max_value=500000&sort=-agreement_start_date',
      where: [
        ['agreement_value_cents >= ?', 10_000_000],
        ['agreement_value_cents <= ?', 50_000_000],
      ],
      order: 'agreement_start_date desc, id desc',
    },
    {
      label: 'fiscal year 2019-20',
      url: 'fiscal_year=2019-20',
      where: [['fiscal_year = ?', '2019-20']],
      order: 'agreement_value_cents desc, id desc',
    },
    {
      label: 'recipient type F',
      url: 'recipient_type=F',
      where: [['recipient_type = ?', 'F']],
      order: 'agreement_value_cents desc, id desc',
    },
  ];
  const pgDb = dialectOf(kysely) === 'postgres';
  async function scan(q: Query, trx: Kysely<GrantsDatabase>) {
    const parts: string[] = [];
    const params: unknown[] = [];
    let prefix = '';
    if (q.text) {
      // the searched texts are the dictionary's (each once): scanned once with LIKE, then the agreements that hold one
      const like = pgDb ? 'ILIKE' : 'LIKE';
      prefix = `WITH hits AS MATERIALIZED (SELECT id FROM ${GRANTS_TEXTS_TABLE} WHERE text ${like} ?) `;
      params.push(`%${q.text}%`);
      parts.push(`(${SEARCHED_COLUMNS.map(({ textId }) => `${textId} IN (SELECT id FROM hits)`).join(' OR ')})`);
    }
    for (const [clause, value] of q.where) {
      parts.push(clause);
      params.push(value);
    }
    const where = parts.length ? `WHERE ${parts.join(' AND ')}` : '';
    const from = pgDb ? GRANTS_TABLE : `${GRANTS_TABLE} NOT INDEXED`;
    let n = 0;
    const text = (s: string) => {
      n = 0;
      return pgDb ? s.replace(/\?/g, () => `$${++n}`) : s;
    };
    await trx.executeQuery(CompiledQuery.raw(text(`${prefix}SELECT count(*) AS n FROM ${from} ${where}`), params));
    // (the page's texts are not read: the baseline is, if anything, faster than a full answer)
    return trx.executeQuery(CompiledQuery.raw(text(`${prefix}SELECT * FROM ${from} ${where} ORDER BY ${q.order} LIMIT 100`), params));
  }
  async function baseline(q: Query) {
    if (!pgDb) return scan(q, kysely);
    return kysely.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      await sql`SET LOCAL enable_indexonlyscan = off`.execute(trx);
      return scan(q, trx);
    });
  }

  console.log(
    `\nsearch through the HTTP app, limit 100, response cache off (${reps} requests each) vs a plain scan (${baselineReps} each):`,
  );
  console.log(
    `${'query'.padEnd(40)} ${'count'.padStart(8)}  ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)}   ${'scan p50'.padStart(9)}  speed-up (p50)`,
  );
  let worstP95 = 0;
  for (const q of queries) {
    const body = await getJson(`/api/api/search/?${q.url}`);
    const ours = await time(reps, () => getJson(`/api/api/search/?${q.url}`));
    const theirs = await time(baselineReps, () => baseline(q));
    worstP95 = Math.max(worstP95, ours.p95);
    console.log(
      `${q.label.padEnd(40)} ${String(body.count).padStart(8)}  ${fmt(ours.p50).padStart(8)} ${fmt(ours.p95).padStart(8)} ${fmt(ours.p99).padStart(8)}   ${fmt(theirs.p50).padStart(9)}  ${(theirs.p50 / ours.p50).toFixed(1)}×`,
    );
  }
  console.log(`worst search p95: ${fmt(worstP95)} ms (target ≤ 50 on SQLite); load average ${load()}`);

  // Reads take well under a millisecond, so a garbage-collection pause of the process, many times longer,
  // decides the tail: 40 requests made p95 the second-slowest; 400 estimate it, and p99 and max still show the pauses.
  const aggregateReps = Math.max(reps, 400);
  console.log(`\naggregates through the HTTP app, response cache off (${aggregateReps} requests each):`);
  let worstAggregate = 0;
  const readLine = (label: string, t: { p50: number; p95: number; p99: number; max: number }) =>
    console.log(`${label.padEnd(40)} p50 ${fmt(t.p50)} ms, p95 ${fmt(t.p95)} ms, p99 ${fmt(t.p99)} ms, max ${fmt(t.max)} ms`);
  for (const name of ['stats', 'recipients', 'comprehensive-stats']) {
    const t = await time(aggregateReps, () => getJson(`/api/api/${name}/`));
    worstAggregate = Math.max(worstAggregate, t.p95);
    readLine(`GET /api/api/${name}/`, t);
  }
  const calc = await time(aggregateReps, async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/api/calculate/',
      payload: { annual_income: 75000, gst_eligible_spending: 25000 },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
  });
  readLine('POST /api/api/calculate/', calc);
  const source: DataSource = {
    kind: 'import',
    is_demo: false,
    description: 'bench',
    source: csv,
    schema: 'pre2025',
    data_version: 'bench',
    imported_at: '',
    notable_rules_version: '',
  };
  const perRequest = await time(1, () => kysely.transaction().execute((trx) => computeAggregates(trx, source)));
  console.log(
    `baseline: computing all the aggregates per request: ${fmt(perRequest.p50)} ms; ratio to the slowest stored read (p95 ${fmt(worstAggregate)} ms): ${(perRequest.p50 / worstAggregate).toFixed(0)}× (target ≤ 5 ms per read)`,
  );
  console.log(`load average at the end: ${load()}`);
  await app.close();
  await db.close();
} finally {
  if (values.keep) console.log(`kept ${url}`);
  else {
    fs.rmSync(workDir, { recursive: true, force: true });
    await dropDatabase();
  }
}
