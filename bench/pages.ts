// npm run bench -- pages [--reps 100] [--database sqlite|postgres] [--rows 1300000] [--no-large] [--services oral,grants]
// The pages, rendered by the server (fastify inject, the response cache off so that every request
// renders; warm: each page is rendered once first, and that first render is printed as "first"):
//  - every page of each service's tour (test/support/<svc>/page-tour.ts) on its demo data (the default sizes of
//    `npm start`), A also on the real files of ../shared/data/oral, C also on a generated file of 1.3 million
//    rows imported as bench/grants.ts does (its CSV in bench/out/ is reused);
//  - p50 and p95 of the render time (wall clock, and the process's CPU time per request, which other processes'
//    load moves less), beside the API request the page is built on (same run; the ratio is the
//    price of the HTML, charts and layout), and the bytes a browser transfers for the page with its assets
//    (asked without Accept-Encoding, so uncompressed: the upper bound; headers included).
// Targets: p95 ≤ 50 ms per page on SQLite, ≤ 300 KB transferred.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import type { ServiceApp, ServiceContext, ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { importPath } from '../src/services/oral/import.ts';
import { writeGrantsCsv } from '../src/services/grants/generator/index.ts';

const { values } = parseArgs({
  options: {
    reps: { type: 'string', default: '100' },
    database: { type: 'string', default: 'sqlite' },
    rows: { type: 'string', default: '1300000' },
    'no-large': { type: 'boolean', default: false },
    services: { type: 'string' },
  },
});
const reps = Number(values.reps);
const database = values.database!;
if (!['sqlite', 'postgres'].includes(database)) throw new Error('--database must be sqlite or postgres');
const rows = Number(values.rows);
const only = values.services?.split(',').map((s) => s.trim());
const TARGET_P95_MS = 50;
const TARGET_KB = 300;

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
console.log(
  `Pages: server render time (inject, response cache off, ${reps} requests per page after one first render) on ${database}; ` +
    `Node ${process.version}, ${os.cpus().length} CPUs; load average ${load()}`,
);

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-pages-'));
const cleanups: Array<() => Promise<void>> = [];

/** A fresh database of the chosen kind, migrated for `service`. */
async function freshDatabase(label: string, service: ServiceModule): Promise<{ url: string; db: Db }> {
  let url: string;
  if (database === 'sqlite') url = `sqlite:${path.join(workDir, `${label}.sqlite`)}`;
  else {
    const base = process.env.PDI_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `pdi_bench_pages_${label.replace(/[^a-z0-9]/g, '_')}_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    });
  }
  const db = openDatabase(url);
  await migrateToLatest(db.kysely, service.migrations);
  return { url, db };
}

function contextOf(service: ServiceModule, db: Db): ServiceContext {
  const config = { ...loadConfig({ ...process.env, PDI_RESPONSE_CACHE_ENTRIES: '0' }), dataDir: workDir, logLevel: 'silent' };
  return {
    name: service.name,
    db,
    config,
    log: pino({ level: 'silent' }),
    redis: null,
    dataVersion: new DataVersionWatcher(db, service.name),
  };
}

interface Timing {
  first: number;
  p50: number;
  p95: number;
  /** CPU time of the process per request (all its threads), p50 and p95: less moved by other processes' load than the wall clock. */
  cpu50: number;
  cpu95: number;
}

async function time(requests: (i: number) => InjectOptions, app: ServiceApp, expectStatus = 200): Promise<Timing> {
  const cpu: number[] = [];
  const once = async (i: number) => {
    const c = process.cpuUsage();
    const t = performance.now();
    const res = await app.inject(requests(i));
    const ms = performance.now() - t;
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    if (res.statusCode !== expectStatus) throw new Error(`${requests(i).url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return ms;
  };
  const first = await once(0);
  cpu.length = 0;
  const list: number[] = [];
  for (let i = 1; i <= reps; i++) list.push(await once(i));
  const q = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  };
  return { first, p50: q(list, 0.5), p95: q(list, 0.95), cpu50: q(cpu, 0.5), cpu95: q(cpu, 0.95) };
}

/** Bytes a browser receives for the page and every asset it links (status line and headers included). */
async function transferred(app: ServiceApp, request: InjectOptions): Promise<number> {
  const size = (res: { headers: Record<string, unknown>; rawPayload: Buffer }) =>
    res.rawPayload.length + Object.entries(res.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 20);
  const page = await app.inject(request);
  let bytes = size(page);
  for (const m of page.body.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)) bytes += size(await app.inject(m[1]));
  return bytes;
}

/** The API request a page is built on (its baseline), or null where the API has none. */
function apiOf(service: string, request: InjectOptions): InjectOptions | null {
  const url = new URL(String(request.url), 'http://x');
  const p = url.pathname;
  const q = url.searchParams;
  if (service === 'oral') {
    const list = (endpoint: string, keep: string[]) => {
      const api = new URLSearchParams({ limit: '20' });
      for (const k of keep) if (q.get(k)) api.set(k, q.get(k)!);
      if (q.get('page')) api.set('page', q.get('page')!);
      return { url: `${endpoint}?${api}` };
    };
    if (p === '/') return list('/api/recommendations/', ['q', 'country', 'topic', 'strength', 'evidence_quality']);
    if (p === '/guidelines') return list('/api/guidelines/', ['q', 'country']);
    if (p === '/reviews') return list('/api/reviews/', ['q']);
    if (p.startsWith('/reviews/')) return { url: `/api${p}/` };
    if (p === '/statistics') return { url: '/api/stats/' };
    return null;
  }
  if (service === 'grants') {
    if (p === '/') {
      const api = new URLSearchParams(q);
      const perPage = Number(q.get('per_page') || 25);
      api.delete('per_page');
      api.delete('page');
      api.set('limit', String(perPage));
      api.set('offset', String((Number(q.get('page') || 1) - 1) * perPage));
      return { url: `/api/api/search/?${api}` };
    }
    if (p.startsWith('/grants/')) return { url: `/api/api${p}/` };
    if (p === '/statistics') return { url: '/api/api/comprehensive-stats/' };
    if (p === '/recipients') return { url: '/api/api/recipients/' };
    if (p === '/calculator' && request.method === 'POST') {
      const form = new URLSearchParams(String(request.payload));
      return {
        method: 'POST',
        url: '/api/api/calculate/',
        payload: { annual_income: Number(form.get('annual_income')), gst_eligible_spending: Number(form.get('gst_eligible_spending')) },
      };
    }
    return null;
  }
  return null;
}

interface Row {
  service: string;
  data: string;
  page: string;
  timing: Timing;
  api: Timing | null;
  kb: number;
}
const results: Row[] = [];

async function benchPages(service: ServiceModule, data: string, app: ServiceApp): Promise<void> {
  const tour = path.join(import.meta.dirname, '../test/support', service.name, 'page-tour.ts');
  const { pageTour } = (await import(tour)) as { pageTour(app: ServiceApp): Promise<string[]> };
  const pages: Array<{ label: string; request: (i: number) => InjectOptions }> = (await pageTour(app)).map((url) => ({
    label: url.length > 46 ? `${url.slice(0, 45)}…` : url,
    request: () => ({ url }),
  }));
  if (service.name === 'grants')
    // a different income on every request: the answer and its charts are computed each time
    pages.push({
      label: 'POST /calculator (varied incomes)',
      request: (i) => ({
        method: 'POST',
        url: '/calculator',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `annual_income=${40000 + 1000 * i}&gst_eligible_spending=${10000 + 100 * i}&input_mode=annual`,
      }),
    });
  for (const { label, request } of pages) {
    const timing = await time(request, app);
    const apiRequest = apiOf(service.name, request(0));
    const api = apiRequest ? await time((i) => apiOf(service.name, request(i))!, app) : null;
    const kb = (await transferred(app, request(0))) / 1024;
    results.push({ service: service.name, data, page: label, timing, api, kb });
    console.log(
      `  ${label.padEnd(48)} first ${fmt(timing.first).padStart(6)}  p50 ${fmt(timing.p50).padStart(6)}  p95 ${fmt(timing.p95).padStart(6)} ms` +
        `  CPU p50 ${fmt(timing.cpu50).padStart(5)} p95 ${fmt(timing.cpu95).padStart(5)}` +
        `   API p50 ${api ? fmt(api.p50).padStart(6) : '     —'}${api ? ` (×${(timing.p50 / api.p50).toFixed(1)})` : ''}   ${kb.toFixed(0).padStart(4)} KB`,
    );
  }
}

async function appOf(service: ServiceModule, db: Db): Promise<ServiceApp> {
  const app = await buildServiceApp(service, contextOf(service, db), { logger: false });
  await app.ready();
  return app;
}

try {
  const services = SERVICES.filter(
    (s) =>
      s.pages &&
      fs.existsSync(path.join(import.meta.dirname, '../test/support', s.name, 'page-tour.ts')) &&
      (!only || only.includes(s.name)),
  );
  const skipped = SERVICES.filter((s) => !services.includes(s)).map((s) => s.name);
  if (skipped.length) console.log(`(no pages or no page tour, or not asked for: ${skipped.join(', ')})`);

  for (const service of services) {
    const { db } = await freshDatabase(`${service.name}-demo`, service);
    const t0 = performance.now();
    await service.loadDemo(contextOf(service, db), {});
    console.log(`\n${service.name}, demo data (loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s):`);
    const app = await appOf(service, db);
    await benchPages(service, 'demo', app);
    await app.close();
    await db.close();
  }

  if (!values['no-large'] && services.some((s) => s.name === 'oral')) {
    const oral = services.find((s) => s.name === 'oral')!;
    const shared = path.join(loadConfig(process.env).sharedDataDir, 'oral');
    if (fs.existsSync(shared)) {
      const { db } = await freshDatabase('oral-real', oral);
      await importPath(contextOf(oral, db), shared);
      console.log(`\noral, the real files of ../shared/data/oral:`);
      const app = await appOf(oral, db);
      await benchPages(oral, 'real files', app);
      await app.close();
      await db.close();
    } else console.log(`\n(oral real files: ${shared} not found)`);
  }

  if (!values['no-large'] && services.some((s) => s.name === 'grants')) {
    const grants = services.find((s) => s.name === 'grants')!;
    const outDir = path.join(import.meta.dirname, 'out');
    fs.mkdirSync(outDir, { recursive: true });
    const csv = path.join(outDir, `grants-${rows}.csv`);
    if (!fs.existsSync(csv)) {
      const t = performance.now();
      await writeGrantsCsv(csv, { rows, seed: 'bench-grants' });
      console.log(`\ngenerated ${csv} in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    const { url, db } = await freshDatabase('grants-large', grants);
    await db.close();
    const t0 = performance.now();
    // the importer in a child process of its own, as bench/grants.ts runs it
    await new Promise<void>((resolve, reject) => {
      const child = fork(path.join(import.meta.dirname, '_grants-child.ts'), ['import', url, csv], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`import exited with ${code}`))));
    });
    console.log(
      `\ngrants, ${rows.toLocaleString('en-CA')} generated rows (imported in ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${load()}):`,
    );
    const large = openDatabase(url);
    const app = await appOf(grants, large);
    await benchPages(grants, `${(rows / 1e6).toFixed(1)} M rows`, app);
    await app.close();
    await large.close();
  }

  console.log(`\nload average at the end ${load()}`);
  const slow = results.filter((r) => r.timing.p95 > TARGET_P95_MS);
  const heavy = results.filter((r) => r.kb > TARGET_KB);
  const slowCpu = results.filter((r) => r.timing.cpu95 > TARGET_P95_MS);
  console.log(
    `pages measured: ${results.length}; p95 over ${TARGET_P95_MS} ms: ${slow.length}${slow
      .map((r) => `\n  ${r.service} (${r.data}) ${r.page}: p95 ${fmt(r.timing.p95)} ms (${fmt(r.timing.p95 - TARGET_P95_MS)} ms over)`)
      .join('')}`,
  );
  console.log(
    `pages whose CPU time per render has a p95 over ${TARGET_P95_MS} ms: ${slowCpu.length}${slowCpu
      .map((r) => `\n  ${r.service} (${r.data}) ${r.page}: CPU p95 ${fmt(r.timing.cpu95)} ms`)
      .join('')}`,
  );
  console.log(
    `transferred over ${TARGET_KB} KB: ${heavy.length}${heavy.map((r) => `\n  ${r.service} (${r.data}) ${r.page}: ${r.kb.toFixed(0)} KB`).join('')}`,
  );
  console.log(`largest page with its assets: ${Math.max(...results.map((r) => r.kb)).toFixed(0)} KB`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  fs.rmSync(workDir, { recursive: true, force: true });
}
