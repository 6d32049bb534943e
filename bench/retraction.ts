// npm run bench -- retraction [--papers 60000] [--citations-per-paper 35.1] [--queries 200] [--analytics-queries 120]
//                               [--baseline-queries 5] [--seconds 10] [--database sqlite|postgres] [--repeat 1]
//                               [--only exports,autocomplete,analytics,throughput,fit]
// Service E at scale: generated Retraction Watch records (60,000 by default) and about 2 million citations,
// imported through the service's importers. Measures, in one run:
//  1. a 10,000-row export in each format (json, csv, excel) over HTTP — wall time and peak memory while the
//     body streams to a client that discards it — beside a baseline that loads the same 10,000 rows in one
//     query and builds the whole file in memory (JSON.stringify, csv-stringify, write-excel-file);
//  2. the autocomplete (ranked, through the substring index) at that size — p50/p95 over a fixed query set —
//     beside a plain unindexed scan (LIKE over title, author and DOI of the table), same queries, interleaved;
//  3. every analytics endpoint through HTTP (response cache off) — p50/p95 per filter kind of
//     post-retraction-analytics (none, journal, subject, both; random time filters and kinds of notice) —
//     beside the per-request computation from the citations (how filtered requests were answered before),
//     for the same filters, in the same run; analytics-data and analytics-realtime; the index's cold load;
//  4. CSV export throughput at 50 connections (autocannon, each request from its own X-Forwarded-For so that
//     the export rate limit does not answer) at 1,000 and 10,000 rows: the stored CSV lines beside the
//     previous pipeline (keyset pages of the joined rows through the core CSV writer), same app, same run;
//  5. the democracy model's fit: bulk ESS per CPU-second (bench/_retraction-fit.ts), beside the textbook
//     parameterisation in the same run. `--only fit` runs this section alone [--fit-countries 60] [--fit-years 18].
// `--repeat N` runs sections 3 and 4 N times on the same data (imported once) and ends with their spread and the load
// average after each run. `--only` names the sections to run (comma-separated).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { stringify } from 'csv-stringify/sync';
import writeXlsxFile from 'write-excel-file/node';
import { createLogger } from '../src/core/log.ts';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import { Random } from '../src/core/random.ts';
import { retractionService } from '../src/services/retraction/service.ts';
import { SCALE_DEFAULTS, writeGenerated } from '../src/services/retraction/demo.ts';
import { importCitations, importRetractionWatch } from '../src/services/retraction/import.ts';
import { EXPORT_COLUMNS, autocomplete, exportPapers, unindexedScan } from '../src/services/retraction/repository.ts';
import { retractionDb } from '../src/services/retraction/tables.ts';
import type { RetractionState } from '../src/services/retraction/state.ts';
import { AnalyticsIndex } from '../src/services/retraction/analytics-index.ts';
import { postRetractionAnalyticsByQuery } from '../test/support/retraction/analytics-query.ts';
import { ANALYTICS_TYPES } from '../src/services/retraction/aggregates.ts';
import { NATURE_FILTERS } from '../src/services/retraction/nature.ts';
import { TIME_FILTERS } from '../src/services/retraction/windows.ts';
import { rateLimitedGroup } from '../src/core/http/rate-limit.ts';
import { csvReadable } from '../src/core/export/index.ts';
import { num } from '../src/core/db/dialect.ts';
import type { ServiceModule } from '../src/core/service.ts';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { benchmarkFit } from './_retraction-fit.ts';

/** The part of autocannon's programmatic interface used here (the package ships no types). */
interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  setupRequest?: (request: { headers?: Record<string, string> } & Record<string, unknown>) => Record<string, unknown>;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: AutocannonRequest[];
}
interface Histogram {
  average: number;
  total: number;
  p50: number;
  p97_5: number;
}
interface AutocannonResult {
  requests: Histogram;
  latency: Histogram;
  throughput: Histogram;
  non2xx: number;
  errors: number;
  duration: number;
}

const { values } = parseArgs({
  options: {
    papers: { type: 'string', default: '60000' },
    'citations-per-paper': { type: 'string', default: String(SCALE_DEFAULTS.citationsPerPaper) },
    queries: { type: 'string', default: '200' },
    'analytics-queries': { type: 'string', default: '120' },
    'baseline-queries': { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    database: { type: 'string', default: 'sqlite' },
    only: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    before: { type: 'string' },
    'db-file': { type: 'string' },
    'fit-countries': { type: 'string', default: '60' },
    'fit-years': { type: 'string', default: '18' },
  },
});
const FIT_BENCH = { countries: Number(values['fit-countries']), years: Number(values['fit-years']), seed: 'bench-fit' };
const SECTIONS = ['exports', 'autocomplete', 'analytics', 'throughput', 'fit'] as const;
const sections = new Set<string>(values.only ? values.only.split(',') : SECTIONS);
for (const name of sections)
  if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only: unknown section "${name}" (${SECTIONS.join(', ')})`);
if (sections.size === 1 && sections.has('fit')) {
  await benchmarkFit(FIT_BENCH);
  process.exit(0);
}
const REPEATS = Math.max(1, Number(values.repeat));
const PAPERS = Number(values.papers);
const CITATIONS_PER_PAPER = Number(values['citations-per-paper']);
const QUERIES = Number(values.queries);
const ANALYTICS_QUERIES = Number(values['analytics-queries']);
const BASELINE_QUERIES = Number(values['baseline-queries']);
const LOAD_SECONDS = Number(values.seconds);
const EXPORT_ROWS = 10000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-retraction-'));
// `--db-file <path>` (SQLite): the database is kept after the run, and a later run with the same file measures the
// data it holds instead of generating and importing again.
const dbFile = values['db-file'] ? path.resolve(values['db-file']) : path.join(dir, 'bench.sqlite');
const reuse = values['db-file'] !== undefined && fs.existsSync(dbFile);
let db: Db;
let dropSchema: (() => Promise<void>) | null = null;
if (values.database === 'postgres') {
  const base = process.env.PDI_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  db = openDatabase(`${base}?schema=${schema}`);
  dropSchema = async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP SCHEMA ${schema} CASCADE`);
    await c.end();
  };
} else {
  db = openDatabase(`sqlite:${dbFile}`);
}

const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
const fmtMiB = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Live memory: heap plus array buffers right after a full collection (garbage excluded). */
function live(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Wall time of `work`, with the peak RSS growth sampled every 2 ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; peakRss: number; result: T }> {
  gc();
  gc();
  const startRss = process.memoryUsage.rss();
  let peakRss = startRss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 2);
  const t0 = performance.now();
  const result = await work();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return { ms, peakRss: peakRss - startRss, result };
}

/**
 * Peak live memory of `work` above the level before it: `work` calls `probe()` wherever it may hold the most
 * (after each streamed chunk; after building the whole file), and each probe collects garbage first.
 */
async function peakLive(work: (probe: () => void) => Promise<unknown>): Promise<number> {
  const before = live();
  let peak = before;
  await work(() => {
    peak = Math.max(peak, live());
  });
  return peak - before;
}

try {
  console.log(
    `Service E benchmark — ${PAPERS} papers, ~${CITATIONS_PER_PAPER} citations per paper, ${values.database}; Node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await migrateToLatest(db.kysely, retractionService.migrations);
  if (reuse) console.log(`measuring the data already in ${dbFile} (--db-file)`);
  else await generateAndImport();
  async function generateAndImport() {
    const t = performance.now();
    const files = await writeGenerated(path.join(dir, 'data'), { size: PAPERS, citationsPerPaper: CITATIONS_PER_PAPER, seed: 42 });
    console.log(
      `generated ${files.counts.papers} records and ${files.counts.citations} citations in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const papersReport = await importRetractionWatch(db, files.retractionWatch, { isDemo: true });
    const citationsReport = await importCitations(db, files.citations, { isDemo: true });
    console.log(
      `imported papers in ${(papersReport.duration_ms / 1000).toFixed(1)} s, citations (${citationsReport.inserted}) in ${(citationsReport.duration_ms / 1000).toFixed(1)} s`,
    );
  }

  // ---------------------------------------------------------------- exports
  // Response cache off (every request computes); client addresses from X-Forwarded-For (section 4).
  const config = {
    ...loadConfig({ ...process.env, PDI_DATABASE_URL: '' }),
    dataDir: dir,
    responseCacheEntries: 0,
    logLevel: 'silent',
    trustProxy: true,
  };
  const ctx = {
    name: 'retraction' as const,
    db,
    config,
    log: createLogger('silent'),
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'retraction'),
  };
  /** The export's rows as they were read before (keyset pages of 500 joined rows, the page condition as an OR). */
  async function* previousExportPapers(limit: number): AsyncGenerator<Record<string, unknown>> {
    let after: { sort: string; id: number } | null = null;
    let remaining = limit;
    while (remaining > 0) {
      let query = retractionDb(db)
        .selectFrom('retraction_papers as p')
        .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
        .select([
          'p.id',
          'p.record_id',
          'p.title',
          'p.author',
          'p.journal',
          'p.publisher',
          'p.country',
          'p.subject',
          'p.article_type',
          'p.original_paper_date',
          'p.retraction_date',
          'p.retraction_sort',
          'p.retraction_nature',
          'p.reason',
          'p.original_paper_doi',
          'k.total',
          'k.post',
        ])
        .orderBy('p.retraction_sort', 'desc')
        .orderBy('p.id')
        .limit(Math.min(500, remaining));
      if (after) {
        const { sort, id } = after;
        query = query.where((eb) =>
          eb.or([eb('p.retraction_sort', '<', sort), eb.and([eb('p.retraction_sort', '=', sort), eb('p.id', '>', id)])]),
        );
      }
      const page = await query.execute();
      for (const r of page) {
        const total = num(r.total);
        const post = num(r.post);
        yield {
          record_id: r.record_id,
          title: r.title,
          authors: r.author,
          journal: r.journal,
          publisher: r.publisher,
          country: r.country,
          subject: r.subject,
          article_type: r.article_type,
          original_paper_date: r.original_paper_date,
          retraction_date: r.retraction_date,
          retraction_nature: r.retraction_nature,
          reason: r.reason,
          doi: r.original_paper_doi,
          total_citations: total,
          post_retraction_citations: post,
          post_retraction_percentage: total > 0 ? Math.round((10000 * post) / total) / 100 : null,
        };
      }
      remaining -= page.length;
      if (page.length === 0) return;
      const last = page[page.length - 1];
      after = { sort: last.retraction_sort, id: Number(last.id) };
    }
  }
  // The service, plus the CSV export as it was streamed before the lines were stored (the baseline of section 4),
  // behind the same kernel and the same kind of rate-limited group.
  const benchService: ServiceModule<RetractionState> = {
    ...retractionService,
    async routes(scope, context) {
      await retractionService.routes(scope, context);
      await rateLimitedGroup(scope, context, { name: 'bench-baseline', max: 10 }, (group) => {
        group.get('/bench/export-baseline/', async (request, reply) => {
          const limit = Number((request.query as { limit?: string }).limit ?? 1000);
          reply.header('content-type', 'text/csv; charset=utf-8').header('cache-control', 'no-store');
          return reply.send(csvReadable(previousExportPapers(limit), { columns: [...EXPORT_COLUMNS] }));
        });
      });
    },
  };
  const app = await buildServiceApp(benchService, ctx, { logger: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const download = async (format: string, probe?: () => void) => {
    const res = await fetch(`${address}/api/export/?format=${format}&limit=${EXPORT_ROWS}`);
    if (res.status !== 200) throw new Error(`export ${format}: status ${res.status}`);
    let bytes = 0;
    let chunks = 0;
    // fetch's ReadableStream is async-iterable in Node, which the DOM typings omit.
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (probe && ++chunks % 4 === 0) probe();
    }
    return bytes;
  };
  const loadAll = async () => {
    const rows: Record<string, unknown>[] = [];
    for await (const row of exportPapers(retractionDb(db), EXPORT_ROWS, { pageSize: EXPORT_ROWS })) rows.push(row);
    return rows;
  };
  // The baseline holds every row and the whole file at once; `probe` is called while both are alive.
  let _held: unknown = null;
  const baselines: Record<string, (probe?: () => void) => Promise<number>> = {
    json: async (probe) => {
      const rows = await loadAll();
      const text = JSON.stringify({ papers: rows, analytics: {} });
      _held = [rows, text]; // alive through the probe whatever the optimiser thinks of the locals
      probe?.();
      _held = null;
      return Buffer.byteLength(text);
    },
    csv: async (probe) => {
      const rows = await loadAll();
      const text = stringify([[...EXPORT_COLUMNS], ...rows.map((r) => EXPORT_COLUMNS.map((c) => (r[c] === null ? '' : String(r[c]))))]);
      _held = [rows, text];
      probe?.();
      _held = null;
      return Buffer.byteLength(text);
    },
    excel: async (probe) => {
      const rows = await loadAll();
      const data = [
        EXPORT_COLUMNS.map((c) => ({ value: c, fontWeight: 'bold' as const })),
        ...rows.map((r) => EXPORT_COLUMNS.map((c) => ({ value: r[c] as string | number | null }))),
      ];
      const buffer = await writeXlsxFile(data as never).toBuffer(); // its overloads do not accept a computed sheet
      _held = [rows, data, buffer];
      probe?.();
      _held = null;
      return buffer.byteLength;
    },
  };
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: quantile(s, 0.5), p95: quantile(s, 0.95) };
  };
  if (sections.has('exports')) await measureExports();
  if (sections.has('autocomplete')) await measureAutocomplete();
  async function measureExports() {
    await download('csv'); // warm-up: statement caches, JIT
    console.log(
      `\n1. export of ${Math.min(EXPORT_ROWS, PAPERS)} rows: streamed over HTTP from keyset pages vs all rows in memory then the whole file built (baseline)`,
    );
    console.log(
      'format   streamed: time   live peak   rss peak       bytes | in memory: time   live peak   rss peak |  time ratio  live-memory ratio',
    );
    for (const format of ['json', 'csv', 'excel']) {
      const streamed = await timed(() => download(format));
      const baseline = await timed(() => baselines[format]());
      const streamedLive = await peakLive((probe) => download(format, probe));
      const baselineLive = await peakLive((probe) => baselines[format](probe));
      console.log(
        `${format.padEnd(7)} ${fmtMs(streamed.ms).padStart(15)} ${fmtMiB(streamedLive).padStart(11)} ${fmtMiB(streamed.peakRss).padStart(10)} ${String(streamed.result).padStart(11)} | ` +
          `${fmtMs(baseline.ms).padStart(15)} ${fmtMiB(baselineLive).padStart(11)} ${fmtMiB(baseline.peakRss).padStart(10)} | ` +
          `${(streamed.ms / baseline.ms).toFixed(2).padStart(11)} ${(streamedLive / Math.max(1, baselineLive)).toFixed(3).padStart(18)}`,
      );
    }
    console.log(
      '(live peak: heap + array buffers after a forced collection, the highest of the probes taken while the export runs (every 4th chunk for the',
    );
    console.log(
      ' stream; with all rows and the whole file alive for the baseline), above the level before; server and client share this process.',
    );
    console.log(
      ' rss peak: resident-set growth sampled every 2 ms in the timed run. Streamed time includes the HTTP transfer; the baseline only builds the file. 7 exports in all: the export limit is 10 a minute.)',
    );
  }
  // ---------------------------------------------------------------- autocomplete
  async function measureAutocomplete() {
    const rng = new Random(7);
    const sampleRows = await retractionDb(db)
      .selectFrom('retraction_papers')
      .select(['title', 'author', 'original_paper_doi'])
      .orderBy('id')
      .execute();
    const fragment = (text: string, min: number, max: number) => {
      const length = rng.int(min, Math.min(max, text.length));
      const start = rng.int(0, Math.max(0, text.length - length));
      return text.slice(start, start + length).trim();
    };
    const queries: { q: string; kind: string }[] = [];
    while (queries.length < QUERIES) {
      const row = sampleRows[rng.int(0, sampleRows.length - 1)];
      const pick = rng.next();
      let q: string;
      let kind: string;
      if (pick < 0.4) [q, kind] = [fragment(row.title, 4, 12), 'title'];
      else if (pick < 0.7) [q, kind] = [fragment(row.author.split('; ')[0], 4, 10), 'author'];
      else if (pick < 0.9 && row.original_paper_doi)
        [q, kind] = [row.original_paper_doi.slice(0, rng.int(10, row.original_paper_doi.length)), 'doi'];
      else [q, kind] = [`${rng.pick(['xq', 'zzv', 'qwj', 'vvk'])}${rng.int(100, 999)}`, 'absent'];
      if ([...q].length >= 3) queries.push({ q, kind });
    }
    const indexed: Record<string, number[]> = {};
    const scan: Record<string, number[]> = {};
    for (const { q } of queries.slice(0, 20)) {
      await autocomplete(retractionDb(db), q);
      await unindexedScan(retractionDb(db), q);
    }
    for (const { q, kind } of queries) {
      let t0 = performance.now();
      await autocomplete(retractionDb(db), q);
      (indexed[kind] ??= []).push(performance.now() - t0);
      t0 = performance.now();
      await unindexedScan(retractionDb(db), q);
      (scan[kind] ??= []).push(performance.now() - t0);
    }
    const http: number[] = [];
    let client = 0;
    for (const { q } of queries) {
      const t0 = performance.now();
      const res = await app.inject({
        url: `/api/search-autocomplete/?q=${encodeURIComponent(q)}`,
        remoteAddress: `10.9.${client >> 8}.${client++ & 255}`,
      });
      if (res.statusCode !== 200) throw new Error(`autocomplete ${q}: ${res.statusCode}`);
      http.push(performance.now() - t0);
    }
    console.log(
      `\n2. autocomplete over ${sampleRows.length} papers, ${queries.length} queries (title, author and DOI fragments, and absent strings)`,
    );
    console.log('queries        n   indexed+ranked p50 / p95        unindexed LIKE scan p50 / p95     p50 ratio (indexed/scan)');
    const kinds = ['title', 'author', 'doi', 'absent', 'all'];
    for (const kind of kinds) {
      const a = kind === 'all' ? Object.values(indexed).flat() : (indexed[kind] ?? []);
      const b = kind === 'all' ? Object.values(scan).flat() : (scan[kind] ?? []);
      if (a.length === 0) continue;
      const x = stats(a);
      const y = stats(b);
      console.log(
        `${kind.padEnd(10)} ${String(a.length).padStart(5)}   ${fmtMs(x.p50).padStart(9)} / ${fmtMs(x.p95).padStart(9)}         ${fmtMs(y.p50).padStart(9)} / ${fmtMs(y.p95).padStart(9)}          ${(x.p50 / y.p50).toFixed(2)}`,
      );
    }
    const h = stats(http);
    console.log(`through HTTP (inject, response cache off): p50 ${fmtMs(h.p50)}, p95 ${fmtMs(h.p95)}`);
    console.log(
      '(the scan stops at its first 10 matches in row order and does not rank; the indexed query ranks every match — common fragments favour the scan, rare ones the index)',
    );
  }
  // ---------------------------------------------------------------- analytics
  const loadAverage = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const range = (xs: number[], digits = 0) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length > 1 ? `${s[0].toFixed(digits)}–${s[s.length - 1].toFixed(digits)}` : (s[0]?.toFixed(digits) ?? '-');
  };
  const median = (xs: number[]) =>
    quantile(
      [...xs].sort((a, b) => a - b),
      0.5,
    );
  const rdb = retractionDb(db);
  const filterKinds = ['none', 'journal', 'subject', 'journal+subject'] as const;
  type Kind = (typeof filterKinds)[number];
  /** Per repeat: p50/p95 of each filter kind served and computed, of the other endpoints, and the load average after. */
  const analyticsRuns: {
    served: Record<string, { p50: number; p95: number; cpu95: number }>;
    computed: Record<string, { p50: number; p95: number }>;
    load: string;
  }[] = [];
  if (sections.has('analytics')) {
    const cold = performance.now();
    const index = await AnalyticsIndex.load(rdb);
    const indexLoadMs = performance.now() - cold;
    const journals = (
      await rdb.selectFrom('retraction_papers').select('journal').distinct().where('journal', 'is not', null).execute()
    ).map((r) => r.journal!);
    const subjects = (await rdb.selectFrom('retraction_paper_subjects').select('subject').distinct().execute()).map((r) => r.subject);
    const arng = new Random(19);
    const word = (text: string) => {
      const words = text.split(/[\s,;()-]+/).filter((w) => w.length >= 4);
      const w = words.length ? arng.pick(words) : text;
      return w.slice(0, arng.int(4, Math.max(4, w.length)));
    };
    // Every filter the contract allows: time_filter, nature, journal, subject (each request draws the first two).
    const filtersOf = (kind: Kind) => ({
      timeFilter: arng.pick(TIME_FILTERS),
      nature: arng.pick(['retraction', 'retraction', 'all', 'expression_of_concern', 'correction'] as const),
      journal: kind === 'journal' || kind === 'journal+subject' ? word(arng.pick(journals)) : undefined,
      subject: kind === 'subject' || kind === 'journal+subject' ? word(arng.pick(subjects)) : undefined,
    });
    const urlOf = (f: ReturnType<typeof filtersOf>) => {
      const q = new URLSearchParams({ time_filter: f.timeFilter, nature: f.nature });
      if (f.journal) q.set('journal', f.journal);
      if (f.subject) q.set('subject', f.subject);
      return `/api/post-retraction-analytics/?${q}`;
    };
    let analyticsClient = 0;
    /** Wall time of one request, and this process's CPU time for it (on a loaded machine the wall time includes waiting for a core). */
    const timedGet = async (url: string) => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await app.inject({ url, remoteAddress: `10.7.${(analyticsClient >> 8) & 255}.${analyticsClient++ & 255}` });
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
    };
    await timedGet('/api/post-retraction-analytics/?journal=a'); // first filtered request: loads the index in the app
    const citationCount = num(
      (
        await rdb
          .selectFrom('retraction_citations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (let run = 1; run <= REPEATS; run++) {
      const served: Record<string, number[]> = {};
      const servedCpu: Record<string, number[]> = {};
      const record = async (name: string, url: string) => {
        const { ms, cpuMs } = await timedGet(url);
        (served[name] ??= []).push(ms);
        (servedCpu[name] ??= []).push(cpuMs);
      };
      const computed: Record<string, number[]> = {};
      // Interleaved per kind: served requests, then the per-request computation of fresh filters of the same kind.
      for (const kind of filterKinds) {
        for (let i = 0; i < ANALYTICS_QUERIES; i++) await record(kind, urlOf(filtersOf(kind)));
        for (let i = 0; i < BASELINE_QUERIES; i++) {
          const f = filtersOf(kind);
          const t0 = performance.now();
          await postRetractionAnalyticsByQuery(rdb, f, index.asOf);
          (computed[kind] ??= []).push(performance.now() - t0);
        }
      }
      for (let i = 0; i < ANALYTICS_QUERIES; i++) {
        const type = arng.pick(ANALYTICS_TYPES);
        const nature = arng.pick(NATURE_FILTERS);
        await record('analytics-data json', `/api/analytics-data/?type=${type}&nature=${nature}`);
        await record('analytics-data csv', `/api/analytics-data/?type=${type}&nature=${nature}&format=csv`);
        await record('analytics-realtime', '/api/analytics-realtime/');
      }
      const load = loadAverage();
      console.log(
        `\n3. analytics over ${index.size} papers and ${citationCount} citations, through HTTP (inject, response cache off), run ${run} of ${REPEATS}, load average after ${load}; the index loads cold in ${fmtMs(indexLoadMs)}`,
      );
      console.log(
        'endpoint and filters               served: n   p50 / p95   CPU p95        per-request computation: n   p50 / p95        p50 ratio (computed/served)',
      );
      const summary: (typeof analyticsRuns)[number] = { served: {}, computed: {}, load };
      for (const [name, xs] of Object.entries(served)) {
        const a = stats(xs);
        const cpu95 = stats(servedCpu[name]).p95;
        summary.served[name] = { ...a, cpu95 };
        const label = filterKinds.includes(name as Kind) ? `post-retraction ${name}` : name;
        let line = `  ${label.padEnd(32)} ${String(xs.length).padStart(5)}   ${fmtMs(a.p50).padStart(8)} / ${fmtMs(a.p95).padStart(8)}  ${fmtMs(cpu95).padStart(8)}`;
        if (computed[name]) {
          const b = stats(computed[name]);
          summary.computed[name] = b;
          line += `   ${String(computed[name].length).padStart(24)}   ${fmtMs(b.p50).padStart(8)} / ${fmtMs(b.p95).padStart(8)}   ${(b.p50 / a.p50).toFixed(0).padStart(10)}`;
        }
        console.log(line);
      }
      analyticsRuns.push(summary);
    }
    console.log(
      '(filters: random time_filter (all, 1, 3, 5 years) and nature; journal and subject are 4+-letter pieces of real journal and subject names. "none" is',
    );
    console.log(
      ' stored at import; the others are summed from the per-paper figures of the in-memory index. The per-request computation is the previous code path,',
    );
    console.log(
      ' run directly on the database: test/support/retraction/analytics-query.ts, kept as the reference the index is tested against.)',
    );
  }

  // ---------------------------------------------------------------- export throughput
  /**
   * `--before <dir>`: a checkout of an earlier commit (`git worktree add <dir> d8065de^`, node_modules linked) whose own
   * kernel and service answer the CSV export from the same database file, on a second port of this process — the export
   * as the code of that commit streamed it, not a reconstruction. Its modules are loaded from the checkout; only
   * the few entry points used here are typed.
   */
  const startBefore = async (checkout: string): Promise<{ address: string; close: () => Promise<void> }> => {
    const load = (file: string) => import(pathToFileURL(path.join(path.resolve(checkout), file)).href) as Promise<Record<string, unknown>>;
    const [database, configModule, serviceModule, appModule, retraction] = await Promise.all([
      load('src/core/db/database.ts'),
      load('src/core/config.ts'),
      load('src/core/service.ts'),
      load('src/core/http/service-app.ts'),
      load('src/services/retraction/service.ts'),
    ]);
    const beforeDb = (database.openDatabase as (url: string) => { close(): Promise<void> })(`sqlite:${dbFile}`);
    const beforeConfig = {
      ...(configModule.loadConfig as (env: NodeJS.ProcessEnv) => Record<string, unknown>)({ ...process.env, PDI_DATABASE_URL: '' }),
      dataDir: dir,
      responseCacheEntries: 0,
      logLevel: 'silent',
      trustProxy: true,
    };
    const Watcher = serviceModule.DataVersionWatcher as new (db: unknown, service: string) => unknown;
    const beforeCtx = { ...ctx, db: beforeDb, config: beforeConfig, dataVersion: new Watcher(beforeDb, 'retraction') };
    const beforeApp = await (appModule.buildServiceApp as (s: unknown, c: unknown, o: unknown) => Promise<typeof app>)(
      retraction.retractionService,
      beforeCtx,
      { logger: false },
    );
    return {
      address: await beforeApp.listen({ port: 0, host: '127.0.0.1' }),
      close: async () => {
        await beforeApp.close();
        await beforeDb.close();
      },
    };
  };
  type LoadResult = { rps: number; p50: number; p97_5: number; mbps: number; cpuMs: number; answered: number; errors: number };
  const throughputRuns: { rows: number; now: LoadResult; before: LoadResult; commit: LoadResult | null; load: string }[] = [];
  if (sections.has('throughput')) {
    const autocannon: (options: AutocannonOptions) => Promise<AutocannonResult> = createRequire(import.meta.url)('autocannon');
    let forwarded = 0;
    /** Requests answered per second over the run, the latency, and this process's CPU time per request (server and client). */
    const load = async (path: string, seconds: number, base = address): Promise<LoadResult> => {
      const cpu0 = process.cpuUsage();
      const result = await autocannon({
        url: base,
        connections: 50,
        duration: seconds,
        // A loaded machine can take longer than autocannon's default 10 s for a 10,000-row answer.
        timeout: 120,
        requests: [
          {
            method: 'GET',
            path,
            setupRequest: (request) => ({
              ...request,
              headers: {
                ...request.headers,
                'x-forwarded-for': `10.${(forwarded >> 16) & 255}.${(forwarded >> 8) & 255}.${forwarded++ & 255}`,
              },
            }),
          },
        ],
      });
      const cpu = process.cpuUsage(cpu0);
      if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers`);
      const answered = result.requests.total;
      return {
        rps: answered / result.duration,
        p50: result.latency.p50,
        p97_5: result.latency.p97_5,
        mbps: result.throughput.total / 1048576 / result.duration,
        cpuMs: answered > 0 ? (cpu.user + cpu.system) / 1000 / answered : NaN,
        answered,
        errors: result.errors,
      };
    };
    const before = values.before ? await startBefore(values.before) : null;
    for (const rows of [1000, 10000]) {
      const seconds = rows > 1000 ? 3 * LOAD_SECONDS : LOAD_SECONDS;
      await load(`/api/export/?format=csv&limit=${rows}`, Math.min(seconds, 5)); // warm-up and JIT, not counted
      await load(`/bench/export-baseline/?limit=${rows}`, Math.min(seconds, 5));
      if (before) await load(`/api/export/?format=csv&limit=${rows}`, Math.min(seconds, 5), before.address);
    }
    for (let run = 1; run <= REPEATS; run++) {
      console.log(
        `\n4. CSV export throughput, 50 connections (autocannon in this process), ${LOAD_SECONDS} s per run at 1,000 rows, ${3 * LOAD_SECONDS} s at 10,000; run ${run} of ${REPEATS}`,
      );
      console.log(
        'rows     stored lines: req/s  p50 / p97.5 latency     MB/s  CPU ms/req |  previous pipeline: req/s  p50 / p97.5 latency     MB/s  CPU ms/req |  req/s ratio  CPU ratio  load average after',
      );
      for (const rows of [1000, 10000]) {
        const seconds = rows > 1000 ? 3 * LOAD_SECONDS : LOAD_SECONDS;
        const now = await load(`/api/export/?format=csv&limit=${rows}`, seconds);
        const previous = await load(`/bench/export-baseline/?limit=${rows}`, seconds);
        const commit = before ? await load(`/api/export/?format=csv&limit=${rows}`, seconds, before.address) : null;
        const loadAfter = loadAverage();
        throughputRuns.push({ rows, now, before: previous, commit, load: loadAfter });
        const row = (r: LoadResult) =>
          `${r.rps.toFixed(1).padStart(7)}  ${fmtMs(r.p50).padStart(8)} / ${fmtMs(r.p97_5).padStart(8)}  ${r.mbps.toFixed(1).padStart(7)}  ${r.cpuMs.toFixed(1).padStart(10)}`;
        console.log(
          `${String(rows).padEnd(6)} ${row(now)}          | ${row(previous)}          | ${(now.rps / previous.rps).toFixed(2).padStart(11)}  ${(previous.cpuMs / now.cpuMs).toFixed(2).padStart(9)}  ${loadAfter}`,
        );
        if (commit)
          console.log(
            `  ${values.before} (its own code): ${row(commit)} | req/s ratio stored/that commit ${(now.rps / commit.rps).toFixed(2)}, CPU ratio ${(commit.cpuMs / now.cpuMs).toFixed(2)}`,
          );
        if (now.errors || previous.errors || commit?.errors)
          console.log(
            `       (connection errors or timeouts: stored lines ${now.errors}, previous pipeline ${previous.errors}${commit ? `, ${values.before} ${commit.errors}` : ''})`,
          );
      }
    }
    console.log(
      '(req/s: answers over the run; CPU ms/req: this process, server and autocannon together, per answer — steadier than req/s on a shared machine.',
    );
    console.log(
      ' The previous pipeline: keyset pages of 500 joined rows (the page condition an OR, scanned from the top) through the core CSV writer.)',
    );
    await before?.close();
  }

  // ---------------------------------------------------------------- spread over the repeats
  if (REPEATS > 1 && (analyticsRuns.length > 0 || throughputRuns.length > 0)) {
    console.log(`\nSpread over ${REPEATS} runs (lowest–highest; median in brackets)`);
    if (analyticsRuns.length > 0) {
      console.log(
        '3. analytics                       served p95            CPU p95               computed p95 (per-request)   p50 ratio computed/served',
      );
      for (const name of Object.keys(analyticsRuns[0].served)) {
        const p95 = analyticsRuns.map((r) => r.served[name].p95);
        const cpu95 = analyticsRuns.map((r) => r.served[name].cpu95);
        let line = `  ${(filterKinds.includes(name as Kind) ? `post-retraction ${name}` : name).padEnd(32)} ${`${range(p95, 1)} ms (${median(p95).toFixed(1)})`.padEnd(22)}${`${range(cpu95, 1)} ms (${median(cpu95).toFixed(1)})`.padEnd(22)}`;
        if (analyticsRuns[0].computed[name]) {
          const c95 = analyticsRuns.map((r) => r.computed[name].p95);
          const ratio = analyticsRuns.map((r) => r.computed[name].p50 / r.served[name].p50);
          line += ` ${`${range(c95)} ms (${median(c95).toFixed(0)})`.padEnd(29)}${range(ratio)}`;
        }
        console.log(line);
      }
      console.log(`  load average after each run: ${analyticsRuns.map((r) => r.load).join(' | ')}`);
    }
    if (throughputRuns.length > 0) {
      console.log(
        '4. CSV export        stored req/s         stored p50            previous req/s       previous p50          req/s ratio   CPU ratio',
      );
      for (const rows of [1000, 10000]) {
        const runs = throughputRuns.filter((r) => r.rows === rows);
        const cell = (xs: number[], unit: string, digits: number) =>
          `${range(xs, digits)}${unit} (${median(xs).toFixed(digits)})`.padEnd(21);
        console.log(
          `  ${String(rows).padEnd(6)} rows      ${cell(
            runs.map((r) => r.now.rps),
            '',
            1,
          )}${cell(
            runs.map((r) => r.now.p50),
            ' ms',
            0,
          )}${cell(
            runs.map((r) => r.before.rps),
            '',
            1,
          )}${cell(
            runs.map((r) => r.before.p50),
            ' ms',
            0,
          )}${range(
            runs.map((r) => r.now.rps / r.before.rps),
            2,
          ).padEnd(14)}${range(
            runs.map((r) => r.before.cpuMs / r.now.cpuMs),
            2,
          )}`,
        );
        const commits = runs.flatMap((r) => (r.commit ? [{ now: r.now, commit: r.commit }] : []));
        if (commits.length > 0)
          console.log(
            `    ${values.before} (its own code): req/s ${cell(
              commits.map((r) => r.commit.rps),
              '',
              1,
            )} p50 ${cell(
              commits.map((r) => r.commit.p50),
              ' ms',
              0,
            )} req/s ratio stored/that commit ${range(
              commits.map((r) => r.now.rps / r.commit.rps),
              2,
            )}, CPU ratio ${range(
              commits.map((r) => r.commit.cpuMs / r.now.cpuMs),
              2,
            )}`,
          );
      }
      console.log(`  load average after each run: ${throughputRuns.map((r) => `${r.rows}: ${r.load}`).join(' | ')}`);
    }
  }
  console.log(`load average after: ${loadAverage()}`);
  await app.close();
  if (sections.has('fit')) await benchmarkFit(FIT_BENCH);
} finally {
  await db.close();
  await dropSchema?.();
  fs.rmSync(dir, { recursive: true, force: true });
}
