// Service A importers: England's toolkit JSON, SIGN 138 JSON, the Cochrane summary-of-findings folder, a
// directory holding those (../shared/data/oral), and pdi's own bundle format (generated/demo data).
// Each runs in one transaction through the core import runner and recomputes the statistics with the data.
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import { runImport } from '../../core/import.ts';
import type { ImportContext, ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { storeStats } from './aggregates.ts';
import type { OralDatabase, OralTables } from './tables.ts';
import { deleteOtherGuidelines, deleteOtherReviews, storeGuideline, storeReview } from './store.ts';
import { readCochraneReviews, readCochraneTitles, readSign, readToolkit } from './sources/index.ts';
import type { GuidelineInput, GuidelineParse, ReviewInput, SourceIssue } from './sources/index.ts';
import { parseSourceJson } from '../../core/source-text.ts';

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

interface Options {
  isDemo?: boolean;
  warn?: (issue: SourceIssue) => void;
}

function oralImport(
  db: Db,
  dataset: string,
  source: string,
  options: Options,
  work: (trx: Kysely<OralDatabase>, ic: ImportContext) => Promise<void>,
): Promise<ImportReport> {
  return runImport(db, { service: 'oral', importer: dataset, dataset, source, isDemo: options.isDemo }, async (coreTrx, ic) => {
    const trx = coreTrx.withTables<OralTables>();
    await work(trx, ic);
    await storeStats(trx, ic.dataVersion);
  });
}

function reportIssues(issues: SourceIssue[], ic: ImportContext, options: Options): void {
  for (const issue of issues) {
    if (issue.kind === 'skipped') ic.tally.skip(issue.reason);
    else options.warn?.(issue);
  }
}

/** A guideline JSON file (toolkit or SIGN): the dataset is the guideline's own source. */
async function importGuidelineFile(
  db: Db,
  file: string,
  dataset: string,
  read: (file: string) => Promise<GuidelineParse>,
  options: Options,
): Promise<ImportReport> {
  const parsed = await read(file);
  return oralImport(db, dataset, file, options, async (trx, ic) => {
    reportIssues(parsed.issues, ic, options);
    await storeGuideline(trx, parsed.guideline, dataset, ic.tally);
    await deleteOtherGuidelines(trx, dataset, [parsed.guideline.source_key], ic.tally);
  });
}

export const importToolkit = (db: Db, file: string, options: Options = {}) =>
  importGuidelineFile(db, file, 'toolkit', readToolkit, options);
export const importSign = (db: Db, file: string, options: Options = {}) => importGuidelineFile(db, file, 'sign138', readSign, options);

/** The Cochrane folder: `cochrane_sof/<review>/<review>.PUBn.csv`, titles from `cochrane_titles.csv` beside it. */
export async function importCochrane(db: Db, dir: string, options: Options = {}): Promise<ImportReport> {
  const sofDir = fs.existsSync(path.join(dir, 'cochrane_sof')) ? path.join(dir, 'cochrane_sof') : dir;
  const titlesFile = path.join(path.dirname(sofDir), 'cochrane_titles.csv');
  const titles = fs.existsSync(titlesFile) ? await readCochraneTitles(titlesFile) : undefined;
  return oralImport(db, 'cochrane', sofDir, options, async (trx, ic) => {
    const folderIssues: SourceIssue[] = [];
    const seen: string[] = [];
    for await (const read of readCochraneReviews(sofDir, { titles, issues: folderIssues })) {
      reportIssues(read.issues, ic, options);
      await storeReview(trx, read.review, 'cochrane', ic.tally);
      seen.push(read.review.review_id);
      ic.progress.tick();
    }
    reportIssues(folderIssues, ic, options);
    if (seen.length === 0) throw new Error(`no summary-of-findings files (<review>.PUBn.csv) under ${sofDir}`);
    await deleteOtherReviews(trx, 'cochrane', seen, ic.tally);
  });
}

/** A bundle file: its guidelines and reviews replace the previous contents of the bundle's dataset. */
export async function importBundle(db: Db, file: string, options: Options = {}): Promise<ImportReport> {
  const bundle = parseSourceJson(fs.readFileSync(file, 'utf8'), file) as OralBundle;
  if (bundle.format !== BUNDLE_FORMAT || !Array.isArray(bundle.guidelines) || !Array.isArray(bundle.reviews)) {
    throw new Error(`${file} is not a ${BUNDLE_FORMAT} file`);
  }
  const dataset = bundle.generated ? 'demo' : 'bundle';
  return oralImport(db, dataset, file, { ...options, isDemo: options.isDemo ?? bundle.generated }, async (trx, ic) => {
    for (const guideline of bundle.guidelines) await storeGuideline(trx, guideline, dataset, ic.tally);
    await deleteOtherGuidelines(
      trx,
      dataset,
      bundle.guidelines.map((g) => g.source_key),
      ic.tally,
    );
    for (const review of bundle.reviews) await storeReview(trx, review, dataset, ic.tally);
    await deleteOtherReviews(
      trx,
      dataset,
      bundle.reviews.map((r) => r.review_id),
      ic.tally,
    );
  });
}

/** A path as the CLI gets it: a directory laid out like ../shared/data/oral, or one file of a known kind. */
export async function importPath(ctx: ServiceContext, target: string, kind?: string): Promise<ImportReport[]> {
  const options: Options = { warn: (issue) => ctx.log.warn({ location: issue.location }, issue.reason) };
  const run = async (k: string, p: string): Promise<ImportReport> => {
    switch (k) {
      case 'toolkit':
        return importToolkit(ctx.db, p, options);
      case 'sign':
        return importSign(ctx.db, p, options);
      case 'cochrane':
        return importCochrane(ctx.db, p, options);
      case 'bundle':
        return importBundle(ctx.db, p, options);
      default:
        throw new Error(`unknown oral importer "${k}"; use toolkit, sign, cochrane or bundle`);
    }
  };
  const reports: ImportReport[] = [];
  if (kind && kind !== 'auto') {
    // the file kinds read one JSON file: a directory would fail with a bare EISDIR
    if ((kind === 'toolkit' || kind === 'sign' || kind === 'bundle') && fs.statSync(target).isDirectory())
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
