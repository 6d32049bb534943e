// Service A importers: England's toolkit JSON, SIGN 138 JSON, the Cochrane summary-of-findings folder, a
// directory holding those (../shared/data/oral), and pdi's own bundle format (generated/demo data).
// Each runs in one transaction through the core import runner, under its guard (a file cut short, more than 10%
// of a dataset's records deleted or more than 5% of the rows unreadable is refused: nothing changes), and
// recomputes the statistics with the data. Real data replaces the demo data in the same transaction; generated
// data is never imported beside real data.
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import { ImportRefusedError, importGuard, runImport } from '../../core/import.ts';
import type { ImportContext, ImportGuard, ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { storeStats } from './aggregates.ts';
import {
  countDatasetRecords,
  deleteOtherGuidelines,
  deleteOtherReviews,
  holdsRealData,
  removeDemoRows,
  storeGuideline,
  storeReview,
} from './store.ts';
import { parseSourceJsonFile, readCochraneReviews, readCochraneTitles, readSign, readToolkit } from './sources/index.ts';
import type { GuidelineInput, GuidelineParse, ReviewInput, SourceIssue } from './sources/index.ts';
import type { OralDatabase, OralTables } from './tables.ts';

export const BUNDLE_FORMAT = 'pdi-oral-bundle';

/** pdi's own interchange file: normalised guidelines and reviews (what `generate oral` writes). */
export interface OralBundle {
  format: typeof BUNDLE_FORMAT;
  version: 1;
  generated: boolean;
  description: string;
  guidelines: GuidelineInput[];
  reviews: ReviewInput[];
}

export interface OralImportOptions {
  isDemo?: boolean;
  /** The limits of the import guard (default: `importGuard()`, the environment's thresholds, no flags). */
  guard?: ImportGuard;
}

function oralImport(
  db: Db,
  dataset: string,
  source: string,
  options: OralImportOptions,
  work: (trx: Kysely<OralDatabase>, ic: ImportContext) => Promise<void>,
): Promise<ImportReport> {
  const isDemo = options.isDemo ?? false;
  const guard = options.guard ?? importGuard();
  return runImport(db, { service: 'oral', importer: dataset, dataset, source, isDemo, guard }, async (coreTrx, ic) => {
    const trx = coreTrx.withTables<OralTables>();
    ic.tally.storedBefore(await countDatasetRecords(trx, dataset));
    if (isDemo) {
      if (await holdsRealData(trx))
        throw new ImportRefusedError(
          `${source}: refused: this is generated demo data and the oral service holds real data; demo data is never ` +
            'imported beside real data (nothing was changed). Import it into an empty database.',
        );
    } else await removeDemoRows(trx, ic.tally);
    await work(trx, ic);
    await storeStats(trx, ic.dataVersion);
  });
}

/** Issues of the source, into the tally: unreadable rows, excluded rows, warnings (where, what). */
function reportIssues(issues: readonly SourceIssue[], ic: ImportContext): void {
  for (const issue of issues) {
    if (issue.kind === 'unreadable') ic.tally.skip(issue.reason);
    else if (issue.kind === 'excluded') ic.tally.exclude(issue.reason);
    else ic.tally.warn(`${issue.location}: ${issue.reason}`);
  }
}

/** A guideline JSON file (toolkit or SIGN): the dataset is the guideline's own source. */
function importGuidelineFile(
  db: Db,
  file: string,
  dataset: string,
  read: (file: string) => Promise<GuidelineParse>,
  options: OralImportOptions,
): Promise<ImportReport> {
  return oralImport(db, dataset, file, options, async (trx, ic) => {
    const parsed = await read(file);
    ic.tally.read(parsed.rowsRead);
    reportIssues(parsed.issues, ic);
    await storeGuideline(trx, parsed.guideline, dataset, ic.tally);
    await deleteOtherGuidelines(trx, dataset, [parsed.guideline.source_key], ic.tally);
  });
}

export const importToolkit = (db: Db, file: string, options: OralImportOptions = {}) =>
  importGuidelineFile(db, file, 'toolkit', readToolkit, options);
export const importSign = (db: Db, file: string, options: OralImportOptions = {}) =>
  importGuidelineFile(db, file, 'sign138', readSign, options);

/**
 * The Cochrane folder: `cochrane_sof/<review>/<review>.PUBn.csv`, titles from `cochrane_titles.csv` beside it.
 * Rows read are the summary-of-findings rows; a file that is no such table makes its rows unreadable and keeps
 * the review's stored version.
 */
export async function importCochrane(db: Db, dir: string, options: OralImportOptions = {}): Promise<ImportReport> {
  const sofDir = fs.existsSync(path.join(dir, 'cochrane_sof')) ? path.join(dir, 'cochrane_sof') : dir;
  const titlesFile = path.join(path.dirname(sofDir), 'cochrane_titles.csv');
  return oralImport(db, 'cochrane', sofDir, options, async (trx, ic) => {
    const titles = fs.existsSync(titlesFile) ? await readCochraneTitles(titlesFile) : undefined;
    const folderIssues: SourceIssue[] = [];
    const keep: string[] = [];
    for await (const read of readCochraneReviews(sofDir, { titles, issues: folderIssues })) {
      keep.push(read.review.review_id);
      if (read.readable) {
        ic.tally.read(read.rowsRead);
        reportIssues(read.issues, ic);
        await storeReview(trx, read.review, 'cochrane', ic.tally);
      } else {
        // every row of a file that is no summary-of-findings table is unreadable (at least one: the file)
        const rows = Math.max(1, read.rowsRead);
        ic.tally.read(rows);
        for (const issue of read.issues) if (issue.kind === 'unreadable') ic.tally.skip(issue.reason, rows);
        reportIssues(
          read.issues.filter((i) => i.kind !== 'unreadable'),
          ic,
        );
      }
      ic.progress.tick();
    }
    reportIssues(folderIssues, ic);
    if (keep.length === 0) throw new Error(`no summary-of-findings files (<review>.PUBn.csv) under ${sofDir}`);
    await deleteOtherReviews(trx, 'cochrane', keep, ic.tally);
  });
}

/**
 * A bundle file: its guidelines and reviews replace the previous contents of the bundle's dataset. A generated
 * bundle (`generate oral`) is demo data, whoever imports it.
 */
export async function importBundle(db: Db, file: string, options: OralImportOptions = {}): Promise<ImportReport> {
  const bundle = parseSourceJsonFile(fs.readFileSync(file, 'utf8'), file) as OralBundle;
  if (bundle.format !== BUNDLE_FORMAT || !Array.isArray(bundle.guidelines) || !Array.isArray(bundle.reviews)) {
    throw new Error(`${file} is not a ${BUNDLE_FORMAT} file`);
  }
  const dataset = bundle.generated ? 'demo' : 'bundle';
  // The bundle's own mark decides for every record in it: one generated record would be demo data beside real data.
  const isDemo = bundle.generated || options.isDemo === true;
  const guidelines = bundle.guidelines.map((g) => ({ ...g, is_demo: isDemo }));
  const reviews = bundle.reviews.map((r) => ({ ...r, is_demo: isDemo }));
  return oralImport(db, dataset, file, { ...options, isDemo }, async (trx, ic) => {
    ic.tally.read(guidelines.reduce((n, g) => n + g.recommendations.length, 0) + reviews.length);
    for (const guideline of guidelines) await storeGuideline(trx, guideline, dataset, ic.tally);
    await deleteOtherGuidelines(
      trx,
      dataset,
      guidelines.map((g) => g.source_key),
      ic.tally,
    );
    for (const review of reviews) await storeReview(trx, review, dataset, ic.tally);
    await deleteOtherReviews(
      trx,
      dataset,
      reviews.map((r) => r.review_id),
      ic.tally,
    );
  });
}

const FILE_KINDS = ['toolkit', 'sign', 'bundle'] as const;

/**
 * A path as the CLI gets it: a directory laid out like ../shared/data/oral, or one file of a known kind.
 * `options` are the CLI's: `kind`, and `allowShrink` / `allowSkips` for the import guard.
 */
export async function importPath(ctx: ServiceContext, target: string, options: Record<string, unknown> = {}): Promise<ImportReport[]> {
  const importOptions: OralImportOptions = { guard: importGuard(options) };
  const kind = typeof options.kind === 'string' ? options.kind : undefined;
  const run = async (k: string, p: string): Promise<ImportReport> => {
    switch (k) {
      case 'toolkit':
        return importToolkit(ctx.db, p, importOptions);
      case 'sign':
        return importSign(ctx.db, p, importOptions);
      case 'cochrane':
        return importCochrane(ctx.db, p, importOptions);
      case 'bundle':
        return importBundle(ctx.db, p, importOptions);
      default:
        throw new Error(`unknown oral importer "${k}"; use toolkit, sign, cochrane or bundle`);
    }
  };
  const reports: ImportReport[] = [];
  if (kind && kind !== 'auto') {
    // the file kinds read one JSON file: a directory would fail with a bare EISDIR
    if ((FILE_KINDS as readonly string[]).includes(kind) && fs.statSync(target).isDirectory())
      throw new Error(`${target} is a directory; the ${kind} importer reads one JSON file`);
    reports.push(await run(kind, target));
  } else if (fs.statSync(target).isDirectory()) {
    const found: [string, string][] = [];
    for (const [name, k] of [
      ['uk_guidelines.json', 'toolkit'],
      ['sign138_recommendations.json', 'sign'],
      ['cochrane_sof', 'cochrane'],
    ] as const) {
      if (fs.existsSync(path.join(target, name))) found.push([k, k === 'cochrane' ? target : path.join(target, name)]);
    }
    for (const name of fs
      .readdirSync(target)
      .filter((f) => f.endsWith('.pdi-oral.json'))
      .sort())
      found.push(['bundle', path.join(target, name)]);
    if (found.length === 0)
      throw new Error(`${target} holds none of uk_guidelines.json, sign138_recommendations.json, cochrane_sof/ or *.pdi-oral.json`);
    for (const [k, p] of found) reports.push(await run(k, p));
  } else {
    const name = path.basename(target);
    const k = name.endsWith('.pdi-oral.json')
      ? 'bundle'
      : /sign/i.test(name)
        ? 'sign'
        : /toolkit|uk_guidelines/i.test(name)
          ? 'toolkit'
          : null;
    if (!k) throw new Error(`cannot tell the kind of ${name}; pass --kind toolkit|sign|cochrane|bundle`);
    reports.push(await run(k, target));
  }
  ctx.dataVersion.invalidate();
  return reports;
}
