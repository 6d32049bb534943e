// npm run bench -- krt [--workers N] [--limit N] [--import] [--only timing,identifiers,accuracy,suggestions,cv,coldstart,doi] [--db URL]
//   [--held-out] [--no-fill] [--rows-cache FILE] [--dump FILE]
// Sections (all by default):
// timing — extraction of key resources tables from the shared corpus (../shared/data/krt/xml, 1,200 JATS files):
//   baseline  read + parse every file (safe JATS parse and metadata, no extraction), one thread;
//   1 thread  read + parse + extract (author table, else the text extractor), in this thread;
//   workers   the same in N worker threads (default: available parallelism), as `import krt` and `extract --all` run it.
// Prints wall times, the extraction/parse ratio, the speed-up of the workers, and the peak resident memory of each
// phase (sampled every 25 ms; worker threads live in this process, so their memory is included).
// --import also times `import krt` of the same files into a fresh SQLite database (extraction in workers, the
// transaction, the knowledge base and its calibration).
// identifiers — the knowledge base built from every paper's best table, as the importer builds it: its RRIDs that no
//   corpus document writes verbatim (up to "RRID:" and case) — must be 0 — and the broken mentions kept unresolved.
// accuracy — the learned text extractor (krt-text-5) beside the rule extractor (krt-text-1) by cross-validation by
//   paper on the held-out author-table papers (extract/evaluation.ts, extract/learned/cross-validation.ts), and the
//   calibration of the extracted rows' confidences on those papers.
// suggestions — RRID suggestions, leave-one-paper-out over that knowledge base with the calibration fitted by
//   5-fold cross-validation by paper: right first, shown, abstained, reliability table and ECE.
// cv — the tables built from text against the authors' key resources tables, by cross-validation by paper over every
//   paper with an author table (bench/_krt-cv.ts): identifier recall and precision beside the ceiling and the
//   knowledge-base ceiling, both split by how the identifier is written (bench/_krt-cv-ceiling.ts), name-only
//   suggestions, row precision, each with a 95% interval. --held-out scores the held-out papers instead (once, at the
//   end of tuning); --no-fill leaves the identifiers as the text gave them. With fills: the fill rule (thresholds by
//   class) and the table with and without it, the fills' precision and identifier recall at single thresholds (paired
//   differences), why the proposals of each class are right or wrong, and the identifier candidates served: the fill
//   model's out-of-fold calibration (reliability table, ECE and Brier with intervals) and how often the authors'
//   identifier is the first candidate or among them. --rows-cache FILE keeps each fold's text-built
//   tables (read when the file exists, so that a run about fills or suggestions does not train the extractors
//   again); --dump FILE writes the proposals and the name-only queries as JSON for a closer look. Last, the row-inclusion
//   model fitted out of fold: the key resources table served (the rows it keeps) beside every extracted row; and the
//   causes of the table served's wrong identifiers and of the ones it misses inside the ceiling (bench/_krt-cv-errors.ts).
// coldstart — `import krt` of the corpus into a fresh SQLite database, then, each on a fresh connection as after a
//   start: the first RRID suggestion and the median of 50 later ones, from the suggestion index stored at import
//   (what the routes do) beside the baseline, the knowledge base loaded into memory on the first request.
// doi — uncached DOI lookups over HTTP: `serve krt --workers 1` with the response cache off on the corpus
//   (imported into a fresh SQLite database, or the already imported database --db URL), then per endpoint
//   (`/api/doi-suggestions/?q=cell`, `/api/check-doi-local/?doi=<a stored DOI>`) three repetitions of a sequential
//   fetch loop (20 warm-up + 500 requests): req/s, p50/p95 latency, the server's CPU per request (/proc utime +
//   stime) and the load average beside each figure. Before that, in this process: the held snapshot's memory, and
//   each lookup through the SQL path (the baseline) beside the held one.
import fs from 'node:fs';
import os from 'node:os';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseJats } from '../src/services/krt/jats/index.ts';
import { extractMany, type ManyResult } from '../src/services/krt/extract/index.ts';
import { formatEstimate, formatReport, pooledEstimate } from '../src/services/krt/extract/evaluation.ts';
import { evaluateHeldOut } from '../src/services/krt/extract/learned/cross-validation.ts';
import { loadAuthorTablePapers } from '../src/services/krt/extract/learned/papers.ts';
import { LEARNED_EXTRACTOR_MODEL } from '../src/services/krt/extract/learned/model.ts';
import { parseXml, textOf } from '../src/services/krt/jats/tree.ts';
import {
  RridKnowledgeBase,
  crossValidateSuggestions,
  leaveOnePaperOut,
  rridsWrittenIn,
  suggestRrids,
  top1Rate,
  type Reliability,
} from '../src/services/krt/rrid/index.ts';
import { corpusFiles, corpusDir } from '../test/support/krt/corpus.ts';
import { crossValidateTables } from './_krt-cv.ts';
import { CV_FOLDS } from '../src/services/krt/extract/learned/inclusion-training.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { krtService } from '../src/services/krt/service.ts';
import { importStore } from '../src/services/krt/import.ts';
import { KrtAnswers } from '../src/services/krt/answers.ts';
import { testContext } from '../test/support/app.ts';
import type { KrtTables } from '../src/services/krt/tables.ts';
import { HeldArticles } from '../src/services/krt/held-articles.ts';
import { countSessions, getArticle, suggestArticles } from '../src/services/krt/repository.ts';
import { DataVersionWatcher } from '../src/core/service.ts';

const { values } = parseArgs({
  options: {
    workers: { type: 'string' },
    limit: { type: 'string' },
    import: { type: 'boolean', default: false },
    only: { type: 'string' },
    db: { type: 'string' },
    'held-out': { type: 'boolean', default: false },
    'no-fill': { type: 'boolean', default: false },
    'rows-cache': { type: 'string' },
    dump: { type: 'string' },
  },
});
const SECTIONS = ['timing', 'identifiers', 'accuracy', 'suggestions', 'cv', 'coldstart', 'doi'] as const;
const only = new Set((values.only ?? SECTIONS.join(',')).split(',').map((x) => x.trim()));
for (const name of only)
  if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`unknown section ${name} (${SECTIONS.join(', ')})`);
const workers = Number(values.workers ?? os.availableParallelism());
const all = corpusFiles();
if (all.length === 0) {
  console.error(`no corpus at ${corpusDir()} (set PDI_SHARED_DATA)`);
  process.exit(1);
}
const files = values.limit ? all.slice(0, Number(values.limit)) : all;
const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
const gc = (globalThis as { gc?: () => void }).gc;

async function phase<T>(label: string, work: () => Promise<T> | T): Promise<{ seconds: number; peakMiB: number; result: T }> {
  gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const start = performance.now();
  try {
    const result = await work();
    const seconds = (performance.now() - start) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    const peakMiB = peak / 1024 / 1024;
    console.log(
      `${label.padEnd(34)} ${seconds.toFixed(2).padStart(8)} s   ${((1000 * seconds) / files.length).toFixed(1).padStart(6)} ms/file   peak RSS ${peakMiB.toFixed(0)} MiB`,
    );
    return { seconds, peakMiB, result };
  } finally {
    clearInterval(timer);
  }
}

console.log(
  `${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB; Node ${process.version}; ${os.cpus().length} CPUs; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

let extracted: ManyResult[] | null = null;
if (only.has('timing')) {
  const parse = await phase('baseline: read + parse, 1 thread', () => {
    let authors = 0;
    for (const file of files) authors += parseJats(fs.readFileSync(file, 'utf8'), file).metadata.authorList.length;
    return authors;
  });
  const single = await phase('extract, 1 thread', () => extractMany(files, { workers: 1 }));
  const parallel = await phase(`extract, ${workers} worker threads`, () => extractMany(files, { workers }));

  // Both runs must agree, or the timing compares different work.
  const failures = single.result.filter((r) => !r.ok).length;
  let rows = 0;
  let tables = 0;
  for (let i = 0; i < files.length; i++) {
    const a = single.result[i];
    const b = parallel.result[i];
    if (a.ok !== b.ok || (a.ok && b.ok && JSON.stringify(a.extraction.rows) !== JSON.stringify(b.extraction.rows)))
      throw new Error(`1-thread and worker results differ for ${files[i]}`);
    if (a.ok) {
      rows += a.extraction.rows.length;
      if (a.extraction.provider === 'jats-table') tables++;
    }
  }
  console.log(
    `extracted ${files.length - failures} papers (${failures} failures): ${tables} author tables, ${rows} rows; identical in 1 thread and ${workers} workers`,
  );
  console.log(
    `ratio extract/parse (1 thread): ${(single.seconds / parse.seconds).toFixed(2)}; speed-up of ${workers} workers over 1 thread: ${(single.seconds / parallel.seconds).toFixed(2)}`,
  );
  extracted = parallel.result;
}

if (values.import) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-krt-'));
  try {
    const store = path.join(dir, 'store');
    for (const file of files) {
      const target = path.join(store, path.relative(corpusDir(), file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(file, target);
    }
    const db = openDatabase(`sqlite:${path.join(dir, 'bench.sqlite')}`);
    await migrateToLatest(db.kysely, krtService.migrations);
    const first = await phase(`import krt (SQLite, ${workers} workers)`, () => importStore(db, store, { workers, progress: false }));
    const again = await phase('import krt again (nothing changed)', () => importStore(db, store, { workers, progress: false }));
    console.log(
      `import: ${first.result.inserted} inserted; re-import: ${again.result.unchanged} unchanged, ${again.result.inserted + again.result.updated + again.result.deleted} changed`,
    );
    await db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file's extraction (the timing section's when it ran). */
async function extractions(): Promise<ManyResult[]> {
  extracted ??= await extractMany(files, { workers });
  return extracted;
}

function printReliability(title: string, r: Reliability): void {
  console.log(`  ${title}: expected calibration error ${r.ece.toFixed(3)}, Brier ${r.brier.toFixed(3)}, ${r.n} predictions`);
  console.log('    predicted      n   mean predicted   observed');
  for (const row of r.rows)
    if (row.n)
      console.log(
        `    [${row.from.toFixed(1)}, ${row.to.toFixed(1)})  ${String(row.n).padStart(5)}   ${row.predicted.toFixed(3).padStart(14)}   ${row.observed.toFixed(3).padStart(8)}`,
      );
}

let base: { kb: RridKnowledgeBase; texts: Map<string, string> } | null = null;
/** The knowledge base as the importer builds it (every paper's best built-in table, with the RRIDs its text writes). */
async function knowledgeBase(): Promise<{ kb: RridKnowledgeBase; texts: Map<string, string> }> {
  if (base) return base;
  const kb = new RridKnowledgeBase();
  const texts = new Map<string, string>();
  const results = await extractions();
  results.forEach((r, i) => {
    if (!r.ok) return;
    const text = textOf(parseXml(fs.readFileSync(files[i], 'utf8')));
    texts.set(r.extraction.metadata.doi, text.toLowerCase());
    if (r.extraction.rows.length) kb.addPaper(r.extraction.metadata.doi, r.extraction.rows, r.extraction.provider, rridsWrittenIn(text));
  });
  base = { kb, texts };
  return base;
}

if (only.has('identifiers')) {
  console.log('\n== identifiers are facts ==');
  const { kb, texts } = await knowledgeBase();
  const all = [...texts.values()];
  const writes = (id: string) => {
    const needle = id.toLowerCase();
    return all.some((text) => {
      for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1))
        if (!/[a-z0-9_]/.test(text[i - 1] ?? ' ') && !/[a-z0-9_]/.test(text[i + needle.length] ?? ' ')) return true;
      return false;
    });
  };
  const served = [...kb.entries()].filter((e) => e.rrid);
  const unattested = served.filter((e) => !writes(e.rrid!));
  const repaired = served.filter((e) => e.repairedFrom.size > 0);
  let unresolved = 0;
  for (const doi of kb.papers())
    for (const o of kb.paper(doi)!.observations) if (o.written && !(o.repair && kb.isAttested(o.repair))) unresolved++;
  console.log(
    `knowledge base of ${kb.paperCount} papers: ${served.length} RRIDs, of which not written verbatim by any of the ${texts.size} corpus documents: ${unattested.length}` +
      `${unattested.length ? ` (${unattested.map((e) => e.rrid).join(', ')})` : ''}; ${repaired.length} also written broken and repaired with verbatim evidence; ${unresolved} broken mentions kept unresolved`,
  );
}

if (only.has('accuracy')) {
  console.log('\n== text extractors: cross-validation by paper on the held-out author-table papers ==');
  const started = performance.now();
  const papers = loadAuthorTablePapers(files);
  const evaluation = evaluateHeldOut(papers, {
    onFold: (k, s) => console.log(`  fold ${k + 1}: trained on the other papers and extracted in ${s.toFixed(1)} s`),
  });
  console.log(
    `${papers.length} author-table papers; ${evaluation.papers} held out in ${evaluation.folds} folds (author tables removed from the input); thresholds ${evaluation.thresholds.join(', ')}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const line of formatReport(`${LEARNED_EXTRACTOR_MODEL} (learned)`, evaluation.learned)) console.log(line);
  for (const line of formatReport('krt-text-1 (rules, the baseline)', evaluation.rules)) console.log(line);
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');
  console.log(
    `ratio learned/rules: recall ${ratio(evaluation.learned.resources.recall.value, evaluation.rules.resources.recall.value)}, precision ${ratio(evaluation.learned.resources.precision.value, evaluation.rules.resources.precision.value)}; targets recall >= 0.45 with precision >= 0.65`,
  );
  printReliability(
    "confidence of the rows the learned extractor kept (right = names a row of the paper's own table)",
    evaluation.confidence,
  );
}

if (only.has('suggestions')) {
  console.log('\n== RRID suggestions: leave one paper out, calibration by 5-fold cross-validation by paper ==');
  const { kb } = await knowledgeBase();
  const started = performance.now();
  const queries = leaveOnePaperOut(kb);
  const cv = crossValidateSuggestions(queries, 5, 15);
  const answerable = cv.answers.filter((a) => a.answerable);
  const unanswerable = cv.answers.filter((a) => !a.answerable);
  const est = (items: { paper: string; hit: boolean }[]) => formatEstimate(pooledEstimate(items));
  console.log(
    `${queries.length} queries from ${new Set(queries.map((q) => q.paper)).size} papers (${answerable.length} whose RRID another paper writes); ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(`  answerable: right RRID first (no abstention)   ${est(answerable.map((a) => ({ paper: a.paper, hit: a.firstRight })))}`);
  console.log(`  answerable: a suggestion shown                 ${est(answerable.map((a) => ({ paper: a.paper, hit: a.answered })))}`);
  console.log(
    `  answerable: right when shown                   ${est(answerable.filter((a) => a.answered).map((a) => ({ paper: a.paper, hit: a.firstRight })))}`,
  );
  console.log(`  unanswerable: abstained (nothing shown)        ${est(unanswerable.map((a) => ({ paper: a.paper, hit: !a.answered })))}`);
  console.log(`  in-sample top-1 of the answerable, for comparison: ${top1Rate(queries.filter((q) => q.answerable)).toFixed(3)}`);
  printReliability("confidence of every returned candidate, fitted without its paper's fold", cv.reliability);
}

if (only.has('cv')) {
  const heldOut = values['held-out'] ?? false;
  const fill = !(values['no-fill'] ?? false);
  console.log(
    `\n== tables from text against the authors' tables: ${heldOut ? 'the held-out papers' : `cross-validation by paper, ${CV_FOLDS} folds`}, identifiers ${fill ? 'filled from the knowledge base' : 'from the text only'} ==`,
  );
  const started = performance.now();
  const result = crossValidateTables(files, await extractions(), {
    heldOut,
    fill,
    log: (line) => console.log(line),
    rowsCache: values['rows-cache'],
    dump: values.dump,
  });
  for (const line of result.lines) console.log(line);
  console.log(`${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (only.has('coldstart')) {
  console.log('\n== cold start of RRID suggestions ==');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-krt-cold-'));
  try {
    const store = path.join(dir, 'store');
    for (const file of files) {
      const target = path.join(store, path.relative(corpusDir(), file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(file, target);
    }
    const url = `sqlite:${path.join(dir, 'cold.sqlite')}`;
    const setup = openDatabase(url);
    await migrateToLatest(setup.kysely, krtService.migrations);
    const imported = await phase(`import krt (SQLite, ${workers} workers)`, () => importStore(setup, store, { workers, progress: false }));
    console.log(`imported ${imported.result.inserted} articles`);
    const answersOf = (db: ReturnType<typeof openDatabase>) => new KrtAnswers(testContext(krtService, db));
    // Queries as clients send them: names, vendors and catalog numbers of entries of the base.
    const probe = answersOf(setup);
    const loaded = await probe.knowledge.get();
    const queries = [...(loaded?.kb.entries() ?? [])]
      .filter((e) => e.rrid)
      .slice(0, 51)
      .map((e) => ({
        resourceName: [...e.names.keys()][0],
        vendor: [...e.vendors.keys()][0],
        catalogNumber: [...e.catalogs.keys()][0],
        limit: 5,
      }));
    await setup.close();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const time = async (work: () => Promise<unknown>) => {
      const start = performance.now();
      await work();
      return performance.now() - start;
    };
    // Baseline: the knowledge base loaded from its stored snapshot into memory by the first request.
    const dbA = openDatabase(url);
    const a = answersOf(dbA);
    const memoryFirst = await time(async () => {
      const kb = await a.knowledge.get();
      suggestRrids(kb!.kb, queries[0], { limit: 5 });
    });
    const memoryLater: number[] = [];
    for (const q of queries.slice(1))
      memoryLater.push(
        await time(async () => {
          const kb = await a.knowledge.get();
          suggestRrids(kb!.kb, q, { limit: 5 });
        }),
      );
    await dbA.close();
    // Now: the stored suggestion index, as the routes answer.
    const dbB = openDatabase(url);
    const b = answersOf(dbB);
    const indexFirst = await time(() => b.suggest(queries[0]));
    const indexLater: number[] = [];
    for (const q of queries.slice(1)) indexLater.push(await time(() => b.suggest(q)));
    await dbB.close();
    console.log(
      `baseline (base loaded into memory on first use): first ${memoryFirst.toFixed(1)} ms, later median ${median(memoryLater).toFixed(2)} ms, ratio ${(memoryFirst / median(memoryLater)).toFixed(1)}`,
    );
    console.log(
      `stored index (what the routes do):              first ${indexFirst.toFixed(1)} ms, later median ${median(indexLater).toFixed(2)} ms, ratio ${(indexFirst / median(indexLater)).toFixed(1)}`,
    );
    console.log(`first suggestion, baseline / stored index: ${(memoryFirst / indexFirst).toFixed(1)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (only.has('doi')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-krt-doi-'));
  let server: ReturnType<typeof spawn> | null = null;
  try {
    let url = values.db;
    if (!url) {
      const store = path.join(dir, 'store');
      for (const file of files) {
        const target = path.join(store, path.relative(corpusDir(), file));
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.symlinkSync(file, target);
      }
      url = `sqlite:${path.join(dir, 'doi.sqlite')}`;
      const setup = openDatabase(url);
      await migrateToLatest(setup.kysely, krtService.migrations);
      const imported = await phase(`import krt (SQLite, ${workers} workers)`, () =>
        importStore(setup, store, { workers, progress: false }),
      );
      console.log(`imported ${imported.result.inserted} articles`);
      await setup.close();
    }
    const probe = openDatabase(url);
    const krt = probe.kysely.withTables<KrtTables>();
    const stored = await krt.selectFrom('krt_articles').select(['doi']).orderBy('doi').execute();
    if (stored.length === 0) throw new Error(`${url} holds no articles`);
    // A stored DOI from the middle of the store (deterministic).
    const doi = stored[Math.floor(stored.length / 2)].doi;
    // In this process: the memory the held snapshot takes (heap after a load, less before, with --expose-gc) and
    // its own estimate; then each lookup through the SQL path (the baseline) and from memory, median of 500 calls.
    const held = new HeldArticles(krt, new DataVersionWatcher(probe, 'krt'));
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    await held.article(doi);
    gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    console.log(
      `doi: held snapshot of ${stored.length} articles: ${gc ? `${((heapAfter - heapBefore) / 1024).toFixed(0)} KiB of heap (measured), ` : ''}` +
        `${(held.bytes / 1024).toFixed(0)} KiB (its estimate)${gc ? '' : '; run with --expose-gc to measure the heap'}`,
    );
    const medianMicros = async (work: () => Promise<unknown>) => {
      for (let i = 0; i < 50; i++) await work();
      const times: number[] = [];
      for (let i = 0; i < 500; i++) {
        const start = performance.now();
        await work();
        times.push((performance.now() - start) * 1000);
      }
      return times.sort((a, b) => a - b)[250];
    };
    const lookups: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      ['suggestions q=cell', () => suggestArticles(krt, 'cell', 10), () => held.suggest('cell', 10)],
      ['suggestions, no q', () => suggestArticles(krt, undefined, 10), () => held.suggest(undefined, 10)],
      ['check (article + sessions)', async () => [await getArticle(krt, doi), await countSessions(krt, doi)], () => held.article(doi)],
    ];
    for (const [label, viaSql, fromMemory] of lookups) {
      const [a, b] = [await medianMicros(viaSql), await medianMicros(fromMemory)];
      console.log(
        `doi, in process: ${label.padEnd(28)} SQL ${a.toFixed(0).padStart(5)} µs, held ${b.toFixed(1).padStart(6)} µs, ratio ${(a / b).toFixed(1)}  load ${os
          .loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
    }
    await probe.close();
    const port = 20000 + (process.pid % 20000);
    server = spawn(process.execPath, [path.resolve(import.meta.dirname, '../src/cli.ts'), 'serve', 'krt', '--workers', '0', '--no-demo'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        PDI_DATA_DIR: dir,
        PDI_DATABASE_URL: url,
        PDI_PORT_KRT: String(port),
        PDI_WORKERS: '0',
        PDI_RESPONSE_CACHE_BYTES: '0',
        PDI_LOG_LEVEL: 'warn',
        PDI_TRUST_PROXY: 'loopback', // each request from its own X-Forwarded-For address: the rate limits count per client
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const pid = server.pid!;
    const base = `http://127.0.0.1:${port}`;
    for (const started = Date.now(); ;) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
      if (Date.now() - started > 120_000) throw new Error('the server did not start within 2 minutes');
      const ok = await fetch(`${base}/api/check-doi-local/?doi=${doi}`).then(
        (r) => r.arrayBuffer().then(() => r.ok),
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // utime + stime of the server process in clock ticks (USER_HZ, 100 on Linux).
    const cpuTicks = () => {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    let client = 0;
    const get = async (address: string) => {
      const n = client++;
      const res = await fetch(address, { headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${address}: ${res.status}`);
    };
    const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    const endpoints = [`/api/doi-suggestions/?q=cell`, `/api/check-doi-local/?doi=${encodeURIComponent(doi)}`];
    console.log(
      `doi: serve krt, 1 worker, response cache off, ${stored.length} articles; sequential fetch, 20 warm-up + 500 requests, 3 repetitions`,
    );
    for (const endpoint of endpoints) {
      for (let rep = 1; rep <= 3; rep++) {
        for (let i = 0; i < 20; i++) await get(base + endpoint);
        const times: number[] = [];
        const ticks = cpuTicks();
        const wall = performance.now();
        for (let i = 0; i < 500; i++) {
          const start = performance.now();
          await get(base + endpoint);
          times.push(performance.now() - start);
        }
        const seconds = (performance.now() - wall) / 1000;
        const cpuMs = ((cpuTicks() - ticks) * 10) / 500;
        times.sort((a, b) => a - b);
        console.log(
          `${endpoint.padEnd(60)} rep ${rep}: ${(500 / seconds).toFixed(0).padStart(5)} req/s  p50 ${quantile(times, 0.5).toFixed(2)} ms  ` +
            `p95 ${quantile(times, 0.95).toFixed(2)} ms  server CPU ${cpuMs.toFixed(2)} ms/request  load ${os
              .loadavg()
              .map((l) => l.toFixed(2))
              .join(' ')}`,
        );
      }
    }
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
