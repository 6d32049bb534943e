// Service B importer and extraction runs.
//
// `import krt <dir>`: a store laid out as <dir>/<year>/<doi-suffix>.xml (or <dir>/*.xml); the DOI of a file is
// 10.1101/<file name>. Every file is hashed; files that are new or changed are extracted (author table first, else
// the text extractor) in worker threads with a progress bar, before the transaction opens. Then, in one
// transaction: articles upserted by DOI, one built-in session per article with a stable id (session-id.ts), the
// store's articles whose files are gone deleted, and the RRID knowledge base rebuilt and calibrated. Counts are
// of article files. Re-importing the same directory extracts nothing and changes nothing but the data version.
//
// `extract` (CLI) and POST /api/krt/extract/: new sessions for stored articles, with the built-in extractor and,
// when configured, the language-model provider (llm.ts), whose failures are recorded on its session.
import fs from 'node:fs';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { Kysely } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import { dbBool } from '../../core/db/dialect.ts';
import { ImportRefusedError, importGuard, runImport } from '../../core/import.ts';
import type { ImportGuard, ImportReport } from '../../core/import.ts';
import { createProgress } from '../../core/progress.ts';
import type { ServiceContext } from '../../core/service.ts';
import { doiOfStorePath, normalizeDoi } from './jats/index.ts';
import { extractMany, LEARNED_EXTRACTOR_MODEL, splitTable, TABLE_EXTRACTOR_MODEL, TEXT_EXTRACTOR_MODEL } from './extract/index.ts';
import type { FileExtraction, KrtRow, ManyResult } from './extract/index.ts';
import { shippedInclusion } from './extract/learned/shipped.ts';
import { contentHashOf, sessionIdOf } from './session-id.ts';
import { DEMO_DATASET, STORE_DATASET, deleteArticlesNotIn, deleteDemoArticles, storeSession, upsertArticle } from './store.ts';
import type { ArticleInput, Change, SessionWrite } from './store.ts';
import { countArticlesOf, countRealArticles, getArticle, listArticles, BUILTIN_PROVIDERS } from './repository.ts';
import type { ArticleRecord } from './repository.ts';
import { carryKnowledgeBase, rebuildKnowledgeBase, updateKnowledgeBasePaper } from './aggregates.ts';
import { LLM_PROVIDER, LlmError, extractWithLlm, llmConfigFrom } from './llm.ts';
import type { LlmConfig } from './llm.ts';
import type { KrtDatabase, KrtTables, SessionStatus } from './tables.ts';

/**
 * What `generate krt` and the demo data write into every generated article (a JATS custom-meta): the importer
 * reads it, so generated files are demo data however they are imported.
 */
export const GENERATED_MARKER = '<custom-meta><meta-name>generated</meta-name><meta-value>pdi demo data</meta-value></custom-meta>';

function isGeneratedArticle(xml: Buffer | string): boolean {
  return xml.includes(GENERATED_MARKER);
}

const CURRENT_MODELS: Record<string, string> = { 'jats-table': TABLE_EXTRACTOR_MODEL, 'text-pattern': TEXT_EXTRACTOR_MODEL };

/** The store's XML files: <dir>/*.xml and <dir>/<sub>/*.xml (symbolic links followed), sorted by path. */
export function listStoreFiles(dir: string): string[] {
  const files: string[] = [];
  const kind = (full: string, entry: fs.Dirent) => (entry.isSymbolicLink() ? fs.statSync(full, { throwIfNoEntry: false }) : entry);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const what = kind(full, entry);
    if (what?.isFile() && entry.name.toLowerCase().endsWith('.xml')) files.push(full);
    else if (what?.isDirectory()) {
      for (const inner of fs.readdirSync(full, { withFileTypes: true })) {
        const innerFull = path.join(full, inner.name);
        if (kind(innerFull, inner)?.isFile() && inner.name.toLowerCase().endsWith('.xml')) files.push(innerFull);
      }
    }
  }
  return files.sort();
}

export interface StoreImportOptions {
  /** The files are generated demo data (loadDemo, `generate --import`); files carrying the marker are, anyway. */
  isDemo?: boolean;
  /** Limits on deletions and unreadable files (`importGuard(options)`; the runner's defaults when omitted). */
  guard?: ImportGuard;
  /** Told how many files were extracted and how long that took (it happens before the import transaction). */
  onExtracted?: (info: { files: number; extracted: number; seconds: number }) => void;
  /** Worker threads for extraction (default: available parallelism; 0 or 1 = this thread). */
  workers?: number;
  /** Show progress bars (default: on a terminal). */
  progress?: boolean;
}

interface StoreFile {
  file: string;
  relative: string;
  doi: string | null;
  hash: string;
  size: number;
  mtime: string;
  skip: string | null;
  /** A duplicate the store does not keep (excluded), rather than a file that cannot be read. */
  excluded: boolean;
  /** Carries the generated-data marker. */
  generated: boolean;
  extract: boolean;
}

const round = (seconds: number) => Number(seconds.toFixed(4));

function workerCount(requested: number | undefined, files: number): number {
  return Math.max(0, Math.min(requested ?? availableParallelism(), files));
}

/** Warns of each metadata field a file writes but that cannot be read (the store keeps its value). */
function warnUnreadable(tally: { warn(message: string): void }, doi: string, fields: readonly string[] = []): void {
  for (const field of fields) tally.warn(`${doi}: ${field} could not be read; a stored value is kept`);
}

function articleInput(extraction: FileExtraction, file: StoreFile, root: string, dataset: string, isDemo: boolean): ArticleInput {
  const m = extraction.metadata;
  return {
    doi: file.doi!,
    title: m.title,
    authors: m.authors,
    publication_date: m.publicationDate || null,
    journal: m.journal,
    is_preprint: m.isPreprint,
    version: m.version,
    store_root: root,
    file_path: file.relative.split(path.sep).join('/'),
    file_size: file.size,
    content_hash: file.hash,
    downloaded_at: file.mtime,
    dataset,
    is_demo: isDemo,
  };
}

/**
 * Whether a file need not be extracted again: its article is stored with this content and has a completed session
 * of a current built-in extractor.
 */
async function upToDateExtractions(k: Kysely<KrtDatabase>): Promise<(doi: string, hash: string) => boolean> {
  const storedHash = new Map(
    (await k.selectFrom('krt_articles').select(['doi', 'content_hash']).execute()).map((a) => [a.doi, a.content_hash]),
  );
  const current = new Set<string>();
  for (const s of await k
    .selectFrom('krt_sessions')
    .select(['doi', 'provider', 'model', 'content_hash'])
    .where('provider', 'in', [...BUILTIN_PROVIDERS])
    .where('status', '=', 'completed')
    .execute()) {
    if (CURRENT_MODELS[s.provider] === s.model) current.add(`${s.doi}\n${s.content_hash}`);
  }
  // Text sessions stored before rows kept their sentence and confidence (krt_0003), or their inclusion in the table
  // (krt_0005, when the row-inclusion model ships), are extracted once more, so that every row the learned extractor
  // found is served with its evidence and in its place (the rule extractor gives neither).
  const inclusion = shippedInclusion() !== null;
  if (TEXT_EXTRACTOR_MODEL === LEARNED_EXTRACTOR_MODEL)
    for (const s of await k
      .selectFrom('krt_sessions')
      .innerJoin('krt_session_rows', 'krt_session_rows.session_id', 'krt_sessions.session_id')
      .select(['krt_sessions.doi', 'krt_sessions.content_hash'])
      .where('krt_sessions.provider', '=', 'text-pattern')
      .where((eb) =>
        inclusion
          ? eb.or([eb('krt_session_rows.sentence', 'is', null), eb('krt_session_rows.inclusion_probability', 'is', null)])
          : eb('krt_session_rows.sentence', 'is', null),
      )
      .distinct()
      .execute())
      current.delete(`${s.doi}\n${s.content_hash}`);
  return (doi, hash) => storedHash.get(doi) === hash && current.has(`${doi}\n${hash}`);
}

/** Each file of the store read and hashed: its DOI, why it is skipped (if it is), whether it is to be extracted. */
function readStoreFiles(root: string, paths: readonly string[], upToDate: (doi: string, hash: string) => boolean): StoreFile[] {
  const seenDois = new Set<string>();
  return paths.map((file) => {
    const bytes = fs.readFileSync(file);
    const stat = fs.statSync(file);
    const doi = doiOfStorePath(file);
    const hash = contentHashOf(bytes);
    let skip: string | null = null;
    let excluded = false;
    if (!doi) skip = 'file name is not a DOI suffix (expected <doi-suffix>.xml)';
    else if (seenDois.has(doi)) [skip, excluded] = ['same DOI as an earlier file of the store', true];
    if (doi) seenDois.add(doi);
    const extract = !skip && !upToDate(doi!, hash);
    const generated = isGeneratedArticle(bytes);
    return {
      file,
      relative: path.relative(root, file),
      doi,
      hash,
      size: bytes.length,
      mtime: stat.mtime.toISOString(),
      skip,
      excluded,
      generated,
      extract,
    };
  });
}

/**
 * Why the import is refused, or null. Demo data never mixes with real data: generated files are demo data however
 * they are imported, a store of both kinds is refused, and demo data is not added to a store that holds real articles.
 */
function mixedDataRefusal(
  root: string,
  files: readonly StoreFile[],
  generated: number,
  isDemo: boolean,
  realArticles: number,
): string | null {
  if (generated > 0 && generated < files.length)
    return `${root}: refused: ${generated} of the ${files.length} files are generated demo articles (pdi generate); demo data is not mixed with real data, so nothing was imported. Import the two kinds from separate directories.`;
  if (isDemo && generated < files.length)
    return `${root}: refused: ${files.length - generated} of the ${files.length} files are not generated demo articles; only generated files are imported as demo data.`;
  if (realArticles > 0)
    return `${root}: refused: the store holds ${realArticles} real articles: generated demo data is not mixed with them (a real import replaces demo data, never the other way round).`;
  return null;
}

/** The built-in extractor's results by file, in worker threads, with a progress bar. */
async function extractFiles(files: readonly string[], options: { workers?: number; progress?: boolean }): Promise<Map<string, ManyResult>> {
  const extracted = new Map<string, ManyResult>();
  const bar = createProgress({ label: 'krt extract', total: files.length, unit: 'articles', enabled: options.progress });
  try {
    const results = await extractMany([...files], { workers: workerCount(options.workers, files.length), onProgress: () => bar.tick() });
    for (const r of results) extracted.set(r.file, r);
  } finally {
    bar.stop();
  }
  return extracted;
}

/** A built-in extraction stored: the article upserted from the file's metadata, and its session. */
async function storeBuiltinExtraction(
  trx: Kysely<KrtDatabase>,
  x: FileExtraction,
  f: StoreFile,
  root: string,
  dataset: string,
  isDemo: boolean,
  now: string,
): Promise<{ article: { id: number; change: Change }; sessionId: string; session: SessionWrite }> {
  const doi = f.doi!;
  const article = await upsertArticle(trx, articleInput(x, f, root, dataset, isDemo), now, x.metadata.unreadable);
  const sessionId = sessionIdOf(doi, x.provider, x.model, f.hash);
  const session = await storeSession(
    trx,
    article.id,
    {
      session_id: sessionId,
      doi,
      title: x.metadata.title,
      status: 'completed',
      provider: x.provider,
      model: x.model,
      content_hash: f.hash,
      processing_time: x.processingTime,
      error: null,
      rows: x.rows,
      evidence: x.evidence,
      is_demo: isDemo,
      deterministic: true,
    },
    now,
  );
  return { article, sessionId, session };
}

/** Imports a store directory (see the file comment). */
export async function importStore(db: Db, dir: string, options: StoreImportOptions = {}): Promise<ImportReport> {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new Error(`${root} is not a directory`);
  const paths = listStoreFiles(root);
  if (paths.length === 0) throw new Error(`no .xml files under ${root} (expected <dir>/<year>/<doi-suffix>.xml)`);

  const k = db.kysely.withTables<KrtTables>();
  const files = readStoreFiles(root, paths, await upToDateExtractions(k));

  const generated = files.filter((f) => f.generated).length;
  const isDemo = options.isDemo === true || generated === files.length;
  const dataset = isDemo ? DEMO_DATASET : STORE_DATASET;
  const realArticles = isDemo ? await countRealArticles(k) : 0;
  const refusal = mixedDataRefusal(root, files, generated, isDemo, realArticles);
  const runOptions = {
    service: 'krt',
    importer: 'store',
    dataset,
    source: root,
    isDemo,
    // Generated data can be generated again: a smaller demo set may replace a larger one.
    guard: isDemo ? { ...options.guard, allowShrink: true } : options.guard,
    progress: { enabled: false },
  };
  if (refusal) {
    // Through the runner, so that the attempt is logged as refused in import_runs; nothing is read or changed.
    return runImport(db, runOptions, async () => {
      throw new ImportRefusedError(refusal);
    });
  }

  // Extracted before the transaction opens, so that it is not held open for the extraction's time.
  const toExtract = files.filter((f) => f.extract);
  const extractStart = performance.now();
  const extracted = toExtract.length
    ? await extractFiles(
        toExtract.map((f) => f.file),
        options,
      )
    : new Map<string, ManyResult>();
  options.onExtracted?.({ files: files.length, extracted: toExtract.length, seconds: (performance.now() - extractStart) / 1000 });

  return runImport(db, runOptions, async (core, { tally, dataVersion }) => {
    const trx = core.withTables<KrtTables>();
    const now = new Date().toISOString();
    tally.storedBefore(await countArticlesOf(trx, root));
    // A real import takes the place of the generated demo articles, in this transaction (not counted as deleted).
    if (!isDemo) tally.demoRemoved(await deleteDemoArticles(trx));
    const keep = new Set<string>();
    for (const f of files) {
      tally.read();
      if (f.skip) {
        if (f.excluded) tally.exclude(f.skip);
        else tally.skip(f.skip);
        continue;
      }
      const doi = f.doi!;
      keep.add(doi);
      if (!f.extract) {
        tally[await relocate(trx, doi, f, root, dataset, isDemo, now)]();
        continue;
      }
      const result = extracted.get(f.file)!;
      if (!result.ok) {
        tally.skip('not a well-formed JATS document');
        continue;
      }
      warnUnreadable(tally, doi, result.extraction.metadata.unreadable);
      const { article, session } = await storeBuiltinExtraction(trx, result.extraction, f, root, dataset, isDemo, now);
      tally[article.change === 'unchanged' && session.change !== 'unchanged' ? 'updated' : article.change]();
    }
    tally.deleted(await deleteArticlesNotIn(trx, root, keep));
    const changed = tally.insertedCount + tally.updatedCount + tally.deletedCount + tally.demoRowsRemoved > 0;
    // Rebuilt when the store changed, or when there is no base of the current version to carry over.
    if (changed || !(await carryKnowledgeBase(trx, dataVersion))) await rebuildKnowledgeBase(trx, dataVersion);
  });
}

/** An unchanged file: only where it lives (root, path, size, time, dataset) may differ from the stored row. */
async function relocate(
  trx: Kysely<KrtDatabase>,
  doi: string,
  f: StoreFile,
  root: string,
  dataset: string,
  isDemo: boolean,
  now: string,
): Promise<Change> {
  const stored = await trx
    .selectFrom('krt_articles')
    .select(['id', 'store_root', 'file_path', 'file_size', 'downloaded_at', 'dataset', 'is_demo'])
    .where('doi', '=', doi)
    .executeTakeFirstOrThrow();
  const wanted = { store_root: root, file_path: f.relative.split(path.sep).join('/'), file_size: f.size, downloaded_at: f.mtime, dataset };
  const same =
    stored.store_root === wanted.store_root &&
    stored.file_path === wanted.file_path &&
    Number(stored.file_size) === wanted.file_size &&
    stored.downloaded_at === wanted.downloaded_at &&
    stored.dataset === dataset &&
    Boolean(stored.is_demo) === isDemo;
  if (same) return 'unchanged';
  await trx
    .updateTable('krt_articles')
    .set({ ...wanted, is_demo: dbBool(trx, isDemo), updated_at: now })
    .where('id', '=', stored.id)
    .execute();
  await trx
    .updateTable('krt_sessions')
    .set({ is_demo: dbBool(trx, isDemo) })
    .where('doi', '=', doi)
    .execute();
  return 'updated';
}

// ---- extraction runs (CLI `extract`, POST /api/krt/extract/) ------------------------------------------------------

export type ProviderChoice = 'all' | 'builtin' | 'llm';

export interface ExtractionRunOptions {
  all?: boolean;
  workers?: number;
  /** builtin: the JATS/text extractor; llm: the configured model only; all (default): both, the model when configured. */
  provider?: ProviderChoice;
  /** `cli` recalibrates the knowledge base; `api` updates the paper's observations only (see aggregates.ts). */
  source: 'cli' | 'api';
  progress?: boolean;
  llm?: LlmConfig | null;
  fetchImpl?: typeof fetch;
  /** Limits on unreadable articles (`importGuard(options)`; the runner's defaults when omitted). */
  guard?: ImportGuard;
}

interface ExtractedSession {
  doi: string;
  session_id: string;
  provider: string;
  model: string;
  status: SessionStatus;
  error: string | null;
  total_resources: number;
  processing_time: number;
  change: Change;
}

export interface ExtractionRun {
  requested: number;
  sessions: ExtractedSession[];
  /** DOIs that could not be extracted at all (not in the store, file missing). */
  errors: { doi: string; error: string }[];
  report: ImportReport | null;
}

interface Target {
  doi: string;
  article: ArticleRecord;
  file: string;
  /** SHA-1 of the file as it is now (part of the session id). */
  hash: string;
}

/** The stored articles to extract, once each, and why each other DOI asked for cannot be (`wanted`: every DOI asked for). */
async function extractionTargets(
  krt: Kysely<KrtDatabase>,
  dois: readonly string[],
  all: boolean,
): Promise<{ wanted: readonly string[]; targets: Target[]; errors: { doi: string; error: string }[] }> {
  const errors: { doi: string; error: string }[] = [];
  const targets: Target[] = [];
  const seen = new Set<string>();
  const articles = all ? await listArticles(krt) : [];
  const byDoi = new Map(articles.map((a) => [a.doi, a]));
  const wanted = all ? articles.map((a) => a.doi) : dois;
  for (const raw of wanted) {
    const doi = normalizeDoi(raw);
    if (!doi) {
      errors.push({ doi: raw, error: 'not a DOI' });
      continue;
    }
    const article = all ? byDoi.get(doi)! : await getArticle(krt, doi);
    if (!article) {
      errors.push({ doi, error: 'not in the local store (import it first: pdi import krt <dir>)' });
      continue;
    }
    const file = path.join(article.store_root, article.file_path);
    if (!fs.existsSync(file)) {
      errors.push({ doi, error: `the article's file is missing (${file})` });
      continue;
    }
    if (!seen.has(doi)) targets.push({ doi, article, file, hash: contentHashOf(fs.readFileSync(file)) });
    seen.add(doi);
  }
  return { wanted, targets, errors };
}

interface LlmOutcome {
  rows: KrtRow[];
  error: string | null;
  seconds: number;
}

/** The language model's rows for each target by DOI, one article at a time; a failure is kept as the outcome's error. */
async function extractWithModel(
  llm: LlmConfig,
  targets: readonly Target[],
  options: Pick<ExtractionRunOptions, 'progress' | 'fetchImpl'>,
): Promise<Map<string, LlmOutcome>> {
  const outcomes = new Map<string, LlmOutcome>();
  const bar = createProgress({ label: 'krt llm', total: targets.length, unit: 'articles', enabled: options.progress });
  for (const t of targets) {
    const started = performance.now();
    try {
      const out = await extractWithLlm(llm, fs.readFileSync(t.file, 'utf8'), options.fetchImpl);
      outcomes.set(t.doi, { rows: out.rows, error: null, seconds: out.seconds });
    } catch (error) {
      const message = error instanceof LlmError ? error.message : `unexpected failure (${(error as Error).message})`;
      outcomes.set(t.doi, { rows: [], error: `LLM provider error: ${message}`, seconds: (performance.now() - started) / 1000 });
    }
    bar.tick();
  }
  bar.stop();
  return outcomes;
}

/** A target's built-in extraction stored (its article updated from the file as it is now); its id and the session. */
async function storeTargetExtraction(
  trx: Kysely<KrtDatabase>,
  t: Target,
  x: FileExtraction,
  now: string,
): Promise<{ articleId: number; session: Omit<ExtractedSession, 'doi'> }> {
  const file: StoreFile = {
    file: t.file,
    relative: t.article.file_path,
    doi: t.doi,
    hash: t.hash,
    size: x.fileSize,
    mtime: fs.statSync(t.file).mtime.toISOString(),
    skip: null,
    excluded: false,
    generated: false,
    extract: true,
  };
  const { article, sessionId, session } = await storeBuiltinExtraction(
    trx,
    x,
    file,
    t.article.store_root,
    t.article.dataset,
    t.article.is_demo,
    now,
  );
  return {
    articleId: article.id,
    session: {
      session_id: sessionId,
      provider: x.provider,
      model: x.model,
      status: 'completed',
      error: null,
      // The key resources table's rows, as the session's summary counts them (further mentions apart).
      total_resources: splitTable(x.rows, x.evidence).rows.length,
      processing_time: round(x.processingTime),
      change: session.change,
    },
  };
}

/** A target's language-model session stored, failed or completed (a model's answer is rewritten on every run). */
async function storeModelSession(
  trx: Kysely<KrtDatabase>,
  t: Target,
  articleId: number,
  model: string,
  outcome: LlmOutcome,
  now: string,
): Promise<Omit<ExtractedSession, 'doi'>> {
  const id = sessionIdOf(t.doi, LLM_PROVIDER, model, t.hash);
  const status = outcome.error ? 'failed' : 'completed';
  const written = await storeSession(
    trx,
    articleId,
    {
      session_id: id,
      doi: t.doi,
      title: t.article.title,
      status,
      provider: LLM_PROVIDER,
      model,
      content_hash: t.hash,
      processing_time: outcome.seconds,
      error: outcome.error,
      rows: outcome.rows,
      is_demo: t.article.is_demo,
      deterministic: false,
    },
    now,
  );
  return {
    session_id: id,
    provider: LLM_PROVIDER,
    model,
    status,
    error: outcome.error,
    total_resources: outcome.rows.length,
    processing_time: round(outcome.seconds),
    change: written.change,
  };
}

export async function runExtraction(ctx: ServiceContext, dois: readonly string[], options: ExtractionRunOptions): Promise<ExtractionRun> {
  const db = ctx.db;
  const provider = options.provider ?? 'all';
  const llm = options.llm === undefined ? llmConfigFrom(ctx.config.env) : options.llm;
  if (provider === 'llm' && !llm) throw new LlmNotConfiguredError();
  const { wanted, targets, errors } = await extractionTargets(db.kysely.withTables<KrtTables>(), dois, options.all === true);
  if (targets.length === 0) return { requested: wanted.length, sessions: [], errors, report: null };

  // Both extractions run before the transaction opens.
  const builtin =
    provider !== 'llm'
      ? await extractFiles(
          targets.map((t) => t.file),
          options,
        )
      : new Map<string, ManyResult>();
  const modelResults = provider !== 'builtin' && llm ? await extractWithModel(llm, targets, options) : new Map<string, LlmOutcome>();

  const sessions: ExtractedSession[] = [];
  const report = await runImport(
    db,
    {
      service: 'krt',
      importer: 'extract',
      dataset: 'extractions',
      source: `${options.source}:${targets.length} article(s)`,
      guard: options.guard,
      progress: { enabled: false },
    },
    async (core, { tally, dataVersion }) => {
      const trx = core.withTables<KrtTables>();
      const now = new Date().toISOString();
      for (const t of targets) {
        let articleId = t.article.id;
        const record = (s: Omit<ExtractedSession, 'doi'>) => {
          sessions.push({ doi: t.doi, ...s });
          tally.read();
          tally[s.change]();
        };
        const result = builtin.get(t.file);
        if (result && !result.ok) {
          tally.read();
          tally.skip('not a well-formed JATS document');
          errors.push({ doi: t.doi, error: `the built-in extractor failed: ${result.error}` });
        } else if (result?.ok) {
          warnUnreadable(tally, t.doi, result.extraction.metadata.unreadable);
          const stored = await storeTargetExtraction(trx, t, result.extraction, now);
          articleId = stored.articleId;
          record(stored.session);
        }
        const model = modelResults.get(t.doi);
        if (model && llm) record(await storeModelSession(trx, t, articleId, llm.model, model, now));
      }
      if (options.source === 'cli') await rebuildKnowledgeBase(trx, dataVersion);
      else for (const t of targets) await updateKnowledgeBasePaper(trx, dataVersion, t.doi);
    },
  );
  ctx.dataVersion.invalidate();
  return { requested: wanted.length, sessions, errors, report };
}

export class LlmNotConfiguredError extends Error {
  constructor() {
    super('no language-model provider is configured (set PDI_KRT_LLM_BASE_URL and PDI_KRT_LLM_MODEL)');
    this.name = 'LlmNotConfiguredError';
  }
}

/** `import krt <dir>` as the CLI calls it; `generate krt --import` passes { generated: true }. */
export async function importPath(ctx: ServiceContext, source: string, options: Record<string, unknown> = {}): Promise<ImportReport[]> {
  const report = await importStore(ctx.db, source, {
    isDemo: options.generated === true || options.isDemo === true,
    guard: importGuard(options, ctx.config.env),
    workers: typeof options.workers === 'number' ? options.workers : undefined,
    onExtracted: ({ files, extracted, seconds }) =>
      ctx.log.info(
        `krt: ${files} files hashed, ${extracted} new or changed extracted in ${seconds.toFixed(1)} s (before the import transaction)`,
      ),
  });
  ctx.dataVersion.invalidate();
  return [report];
}

/** `extract` as the CLI calls it: a compact summary for many DOIs, every session for a few. */
export async function extractCommand(ctx: ServiceContext, dois: string[], options: Record<string, unknown>): Promise<unknown> {
  if (!options.all && dois.length === 0) throw new Error('name one or more DOIs, or pass --all');
  const run = await runExtraction(ctx, dois, {
    all: options.all === true,
    workers: typeof options.workers === 'number' ? options.workers : undefined,
    source: 'cli',
    guard: importGuard(options, ctx.config.env),
  });
  const byStatus: Record<string, number> = {};
  const byChange: Record<string, number> = {};
  for (const s of run.sessions) {
    byStatus[`${s.provider}/${s.status}`] = (byStatus[`${s.provider}/${s.status}`] ?? 0) + 1;
    byChange[s.change] = (byChange[s.change] ?? 0) + 1;
  }
  return {
    requested: run.requested,
    sessions_by_provider_and_status: byStatus,
    sessions_by_change: byChange,
    errors: run.errors.slice(0, 50),
    errors_total: run.errors.length,
    sessions: run.sessions.length <= 50 ? run.sessions : `${run.sessions.length} sessions (listed for at most 50 DOIs)`,
    data_version: run.report?.data_version ?? null,
  };
}
