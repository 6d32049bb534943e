// Service D: (1) the rolling-origin benchmark of the forecasts: every draw from 2023-01-01 to the end
// of the real snapshot is an origin, the served forecasts are made the day before it from what was known then,
// and compared with the naive forecast and the window mean, per category and pooled, h = 1…3, with the coverage
// and widths of the served 95% intervals and the targets; (2) importing the snapshot against a baseline
// of the same domain work in memory; (3) GET /api/predict/, /api/draws/ and /api/stats/ served from the response
// cache against the same requests computed each time. Prints what it measured and the ratios.
//   npm run bench -- draws [--requests n] [--only forecasts|import]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import type { ServiceContext } from '../src/core/service.ts';
import { categoriseRounds } from '../src/services/draws/feed/categories.ts';
import { parseRoundsFeed } from '../src/services/draws/feed/rounds-feed.ts';
import { computeForecasts } from '../src/services/draws/aggregates.ts';
import { benchmarkTable, checkTargets, rollingOriginRecords } from '../src/services/draws/forecast/rolling-origin.ts';
import type { BenchmarkRow } from '../src/services/draws/forecast/rolling-origin.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../src/services/draws/feed/reference-snapshot.ts';
import { importRounds } from '../src/services/draws/import.ts';
import { drawsService } from '../src/services/draws/service.ts';
import type { DrawsTables } from '../src/services/draws/tables.ts';

const args = process.argv.slice(2);
const requestsAt = args.indexOf('--requests');
const REQUESTS = requestsAt >= 0 ? Number(args[requestsAt + 1]) : 500;
const onlyAt = args.indexOf('--only');
const ONLY = onlyAt >= 0 ? args[onlyAt + 1] : null;
const REPEATS = 3;
const feedFile = path.join(loadConfig().sharedDataDir, 'draws', SNAPSHOT_NAME);
if (!fs.existsSync(feedFile)) {
  console.error(`the real snapshot is needed: ${feedFile}`);
  process.exit(1);
}

function context(db: Db, cacheEntries: number): ServiceContext {
  const config = loadConfig({
    ...process.env,
    PDI_DATABASE_URL: '',
    PDI_DRAWS_AS_OF: SNAPSHOT_AS_OF,
    PDI_RESPONSE_CACHE_ENTRIES: String(cacheEntries),
  });
  return {
    name: 'draws',
    db,
    config,
    log: pino({ level: 'silent' }),
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'draws'),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

// (1) The rolling-origin benchmark of the served forecasts.
if (ONLY === null || ONLY === 'forecasts') {
  const FROM = '2023-01-01';
  const { rounds } = parseRoundsFeed(fs.readFileSync(feedFile, 'utf8'));
  const categories = categoriseRounds(rounds).map((g, k) => ({
    id: k + 1,
    slug: g.category.slug,
    draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
  }));
  const t0 = performance.now();
  const records = rollingOriginRecords(categories, FROM);
  const elapsed = performance.now() - t0;
  const rows = benchmarkTable(records);
  const f = (x: number | null, d = 1) => (x === null ? '—' : x.toFixed(d));
  const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
  const origins = new Set(records.filter((r) => r.h === 1).map((r) => `${r.category}@${r.asOf}`)).size;
  console.log(
    `Rolling-origin benchmark of the served forecasts on ${SNAPSHOT_NAME}: ${origins} origins (each draw from ${FROM} on, ` +
      `forecast the day before from what was known then), ${records.length} (origin, horizon) targets; ${ms(elapsed)} on ${os.availableParallelism()} cores, load ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log('MAE columns compare served, naive (last value) and window mean (last six) on the origins where a forecast was served.');
  console.log(
    `${'group'.padEnd(12)}${'h'.padStart(2)}${'n'.padStart(5)}${'srv'.padStart(5)} | ${'CRS MAE srv'.padStart(11)}${'naive'.padStart(7)}${'wmean'.padStart(7)}${'srv/nv'.padStart(7)} | ` +
      `${'INV MAE srv'.padStart(11)}${'naive'.padStart(7)}${'wmean'.padStart(7)} | ${'cov CRS'.padStart(8)}${'INV'.padStart(7)}${'date'.padStart(7)} | ${'med ½CRS'.padStart(9)}${'INV ×÷'.padStart(7)}${'days'.padStart(6)}`,
  );
  const line = (r: BenchmarkRow) =>
    `${r.group.padEnd(12)}${String(r.h).padStart(2)}${String(r.n).padStart(5)}${String(r.served).padStart(5)} | ` +
    `${f(r.mae.crs.served, 2).padStart(11)}${f(r.mae.crs.naive, 2).padStart(7)}${f(r.mae.crs.windowMean, 2).padStart(7)}` +
    `${(r.mae.crs.served !== null && r.mae.crs.naive ? (r.mae.crs.served / r.mae.crs.naive).toFixed(3) : '—').padStart(7)} | ` +
    `${f(r.mae.invitations.served, 0).padStart(11)}${f(r.mae.invitations.naive, 0).padStart(7)}${f(r.mae.invitations.windowMean, 0).padStart(7)} | ` +
    `${pct(r.coverage.crs).padStart(8)}${pct(r.coverage.invitations).padStart(7)}${pct(r.coverage.date).padStart(7)} | ` +
    `${f(r.medianWidth.crsHalf).padStart(9)}${f(r.medianWidth.invitationsFactor, 2).padStart(7)}${f(r.medianWidth.dateDays, 0).padStart(6)}`;
  for (const r of rows) console.log(line(r));
  console.log('(INV ×÷: the median interval of invitations is the forecast ×÷ this factor; days: median latest − earliest of date_range.)');
  console.log('Targets:');
  for (const t of checkTargets(rows)) console.log(`  ${t.met === null ? 'n/a ' : t.met ? 'MET ' : 'MISS'} ${t.target}: ${t.figure}`);
}
if (ONLY === 'forecasts') process.exit(0);

// (2) Import against the in-memory domain work it contains.
const inMemory: number[] = [];
for (let i = 0; i < REPEATS; i++) {
  const t0 = performance.now();
  const { rounds } = parseRoundsFeed(fs.readFileSync(feedFile, 'utf8'));
  const groups = categoriseRounds(rounds);
  computeForecasts(
    groups.map((g, k) => ({
      id: k + 1,
      slug: g.category.slug,
      draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
    })),
    SNAPSHOT_AS_OF,
  );
  inMemory.push(performance.now() - t0);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-draws-'));
const db = openDatabase(`sqlite:${path.join(dir, 'bench.sqlite')}`);
await migrateToLatest(db.kysely, drawsService.migrations);
const first: number[] = [];
const again: number[] = [];
for (let i = 0; i < REPEATS; i++) {
  await db.kysely.withTables<DrawsTables>().deleteFrom('draws_predictions').execute();
  await db.kysely.withTables<DrawsTables>().deleteFrom('draws_draws').execute();
  let t0 = performance.now();
  await importRounds(context(db, 0), feedFile);
  first.push(performance.now() - t0);
  t0 = performance.now();
  await importRounds(context(db, 0), feedFile);
  again.push(performance.now() - t0);
}
console.log(`import of ${SNAPSHOT_NAME} (389 rounds) into SQLite, median of ${REPEATS}:`);
console.log(`  baseline, the same parsing, categorising and forecasting in memory: ${ms(median(inMemory))}`);
console.log(`  import into an empty database:   ${ms(median(first))}  (${(median(first) / median(inMemory)).toFixed(2)}× the baseline)`);
console.log(`  re-import, every round unchanged: ${ms(median(again))}  (${(median(again) / median(inMemory)).toFixed(2)}× the baseline)`);

// (3) Requests with and without the response cache.
async function timeRequests(cacheEntries: number, url: string): Promise<number> {
  const app = await buildServiceApp(drawsService, context(db, cacheEntries), { logger: false });
  await app.ready();
  await app.inject(url);
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await app.inject(url);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  }
  const elapsed = performance.now() - t0;
  await app.close();
  return elapsed / REQUESTS;
}
for (const url of ['/api/predict/', '/api/draws/', '/api/stats/']) {
  const computed = await timeRequests(0, url);
  const cached = await timeRequests(2000, url);
  console.log(
    `GET ${url} × ${REQUESTS}: computed each time ${computed.toFixed(3)} ms/request (baseline); from the response cache ${cached.toFixed(3)} ms/request; ${(computed / cached).toFixed(1)}× faster`,
  );
}
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
