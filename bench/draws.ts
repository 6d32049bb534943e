// Service D: (1) importing the real IRCC snapshot (parse, upsert, statistics, forecasts, one transaction)
// against a baseline of the same domain work in memory; (2) GET /api/predict/ and /api/draws/ served from the
// response cache against the same requests computed each time. Prints what it measured and the ratios.
//   npm run bench -- draws [--requests n]
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
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../src/services/draws/feed/reference-snapshot.ts';
import { importRounds } from '../src/services/draws/import.ts';
import { drawsService } from '../src/services/draws/service.ts';
import type { DrawsTables } from '../src/services/draws/tables.ts';

const args = process.argv.slice(2);
const requestsAt = args.indexOf('--requests');
const REQUESTS = requestsAt >= 0 ? Number(args[requestsAt + 1]) : 500;
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

// (1) Import against the in-memory domain work it contains.
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

// (2) Requests with and without the response cache.
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
