// npm run bench -- retraction [--papers 60000] [--citations-per-paper 5] [--queries 200] [--database sqlite|postgres]
// Service E at scale: generated Retraction Watch records (60,000 by default) and citations, imported through
// the service's importers. Measures, in one run:
//  1. a 10,000-row export in each format (json, csv, excel) over HTTP — wall time and peak memory while the
//     body streams to a client that discards it — beside a baseline that loads the same 10,000 rows in one
//     query and builds the whole file in memory (JSON.stringify, csv-stringify, write-excel-file);
//  2. the autocomplete (ranked, through the substring index) at that size — p50/p95 over a fixed query set —
//     beside a plain unindexed scan (LIKE over title, author and DOI of the table), same queries, interleaved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { stringify } from 'csv-stringify/sync';
import writeXlsxFile from 'write-excel-file/node';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import { Random } from '../src/core/random.ts';
import { retractionService } from '../src/services/retraction/service.ts';
import { writeGenerated } from '../src/services/retraction/demo.ts';
import { importCitations, importRetractionWatch } from '../src/services/retraction/import.ts';
import { EXPORT_COLUMNS, autocomplete, exportPapers, unindexedScan } from '../src/services/retraction/repository.ts';
import { retractionDb } from '../src/services/retraction/tables.ts';

const { values } = parseArgs({
  options: {
    papers: { type: 'string', default: '60000' },
    'citations-per-paper': { type: 'string', default: '5' },
    queries: { type: 'string', default: '200' },
    database: { type: 'string', default: 'sqlite' },
  },
});
const PAPERS = Number(values.papers);
const CITATIONS_PER_PAPER = Number(values['citations-per-paper']);
const QUERIES = Number(values.queries);
const EXPORT_ROWS = 10000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-retraction-'));
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
  db = openDatabase(`sqlite:${path.join(dir, 'bench.sqlite')}`);
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
  let t = performance.now();
  const files = await writeGenerated(path.join(dir, 'data'), { size: PAPERS, citationsPerPaper: CITATIONS_PER_PAPER, seed: 42 });
  console.log(
    `generated ${files.counts.papers} records and ${files.counts.citations} citations in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const papersReport = await importRetractionWatch(db, files.retractionWatch, { isDemo: true });
  const citationsReport = await importCitations(db, files.citations, { isDemo: true });
  console.log(
    `imported papers in ${(papersReport.duration_ms / 1000).toFixed(1)} s, citations (${citationsReport.inserted}) in ${(citationsReport.duration_ms / 1000).toFixed(1)} s`,
  );

  // ---------------------------------------------------------------- exports
  const config = { ...loadConfig({ ...process.env, PDI_DATABASE_URL: '' }), dataDir: dir, responseCacheEntries: 0, logLevel: 'silent' };
  const ctx = {
    name: 'retraction' as const,
    db,
    config,
    log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger, // pino's Logger type differs from Fastify's in generics only
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'retraction'),
  };
  const app = await buildServiceApp(retractionService, ctx, { logger: false });
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

  // ---------------------------------------------------------------- autocomplete
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
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: quantile(s, 0.5), p95: quantile(s, 0.95) };
  };
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
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await app.close();
} finally {
  await db.close();
  await dropSchema?.();
  fs.rmSync(dir, { recursive: true, force: true });
}
