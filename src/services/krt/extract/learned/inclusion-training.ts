// The rows the row-inclusion model (inclusion.ts) is fitted on, shared by the shipped model's build
// (build-model.ts) and the benchmark (bench/_krt-cv.ts), so that both see the same rows:
// - papers: every corpus paper with an author table (any layout); the gold rows are all its author tables' rows;
// - held out: the papers whose lower-cased DOI's SHA-256 starts with 0, 1 or 2 never enter a fit;
// - the other papers are split into CV_FOLDS folds by paper (seeded); each fold's papers are extracted, their author
//   tables cut out of the text, by an extractor trained on the other folds' STAR/eLife papers only, so that every row
//   is one an extractor not trained on its paper gave, as the served extractor gives rows of a paper it never saw.

import fs from 'node:fs';
import { parseJats } from '../../jats/article.ts';
import { extractAuthorTables } from '../author-table.ts';
import { paperFolds } from '../evaluation.ts';
import type { KrtRow } from '../krt-row.ts';
import { baseMentions } from './candidates.ts';
import { fitInclusion, inclusionLabels, INCLUSION_MODEL, type InclusionModelFile } from './inclusion.ts';
import { LearnedExtractor, LEARNED_EXTRACTOR_MODEL, trainExtractor, type ExtractorModel, type TrainingPaper } from './model.ts';
import { isHeldOutPaper } from './papers.ts';
import { articleText } from './sentences.ts';

export const CV_FOLDS = 5;
export const CV_SEED = 30;
export const HELD_OUT_RULE = 'SHA-256 of the lower-cased DOI starts with 0, 1 or 2';

export interface AuthorTablePaper {
  doi: string;
  /** Every row of the paper's author tables (any layout). */
  gold: KrtRow[];
  /** Whether the authors' table is a STAR or eLife key resources table (else only single-kind resource tables). */
  krtLayout: boolean;
  /** The text without the author tables, and the STAR/eLife rows the extractor is trained on. */
  training: TrainingPaper;
}

/** A corpus file as a paper with an author table, or null when it has none. */
export function authorTablePaper(xml: string, file: string, doi: string): AuthorTablePaper | null {
  if (!xml.includes('<table-wrap')) return null;
  const { root } = parseJats(xml, file);
  const authored = extractAuthorTables(root);
  if (!authored || authored.rows.length === 0) return null;
  const text = articleText(root, new Set(authored.parts.map((p) => p.table.element)));
  return {
    doi,
    gold: authored.rows,
    krtLayout: authored.parts.some((p) => p.layout !== 'resource'),
    training: { doi, text, gold: authored.parts.filter((p) => p.layout !== 'resource').flatMap((p) => p.rows), base: baseMentions(text) },
  };
}

/** The extractor of a fold: trained on the STAR/eLife papers not in `out` (the fold's papers and the held-out ones). */
export function trainFoldExtractor(papers: readonly AuthorTablePaper[], out: ReadonlySet<string>): ExtractorModel {
  return trainExtractor(
    papers.filter((p) => !out.has(p.doi) && p.krtLayout).map((p) => p.training),
    4,
    CV_SEED,
  );
}

/** What the row-inclusion model sees of an extracted row. */
export type ExtractedRows = { row: KrtRow; confidence: number; features: readonly string[] }[];

/** Text-built tables by run (fold) and paper, kept between runs (a JSON file). */
export interface RowsCache {
  file?: string;
  runs: Map<number, Map<string, ExtractedRows>>;
  fresh: boolean;
}

export function readRowsCache(file: string | undefined): RowsCache {
  if (!file || !fs.existsSync(file)) return { file, runs: new Map(), fresh: true };
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as [number, [string, ExtractedRows][]][];
  return { file, runs: new Map(stored.map(([k, papers]) => [k, new Map(papers)])), fresh: false };
}

export function writeRowsCache(cache: RowsCache): void {
  if (!cache.file || !cache.fresh) return;
  fs.writeFileSync(cache.file, JSON.stringify([...cache.runs].map(([k, papers]) => [k, [...papers]])));
}

/** The fold's extraction of a paper (the extractor is trained only when the cache does not hold the fold's tables). */
export function foldExtractor(cache: RowsCache, run: number, train: () => ExtractorModel): (p: AuthorTablePaper) => ExtractedRows {
  let extractor: LearnedExtractor | null = null;
  if (!cache.runs.has(run)) cache.runs.set(run, new Map());
  const held = cache.runs.get(run)!;
  return (p) => {
    const known = held.get(p.doi);
    if (known) return known;
    extractor ??= new LearnedExtractor(train());
    const extracted = extractor
      .extract(p.training.text, p.training.base)
      .map((r) => ({ row: r.row, confidence: r.confidence, features: r.features }));
    held.set(p.doi, extracted);
    return extracted;
  };
}

/** The tuning papers (not held out) and their fold. */
export function tuningFolds(papers: readonly AuthorTablePaper[]): {
  tuning: AuthorTablePaper[];
  heldOut: Set<string>;
  fold: Map<string, number>;
} {
  const heldOut = new Set(papers.filter((p) => isHeldOutPaper(p.doi)).map((p) => p.doi));
  const tuning = papers.filter((p) => !heldOut.has(p.doi));
  return {
    tuning,
    heldOut,
    fold: paperFolds(
      tuning.map((p) => p.doi),
      CV_FOLDS,
      CV_SEED,
    ),
  };
}

/**
 * The shipped row-inclusion model: fitted (with its threshold, by inclusion.ts's rule) on every tuning paper's rows
 * from its fold's extractor, labelled against the paper's author tables. `extractorSha256`: the shipped extractor
 * model file it goes with (a rebuilt extractor needs a rebuilt inclusion model).
 */
export function buildInclusionModel(
  papers: readonly AuthorTablePaper[],
  extractorSha256: string,
  options: { rowsCache?: string; log?: (line: string) => void } = {},
): InclusionModelFile {
  const { tuning, heldOut, fold } = tuningFolds(papers);
  const cache = readRowsCache(options.rowsCache);
  const labelled: Parameters<typeof fitInclusion>[0][number][] = [];
  for (let k = 0; k < CV_FOLDS; k++) {
    const test = tuning.filter((p) => fold.get(p.doi) === k);
    const out = new Set([...test.map((p) => p.doi), ...heldOut]);
    const extract = foldExtractor(cache, k, () => trainFoldExtractor(papers, out));
    for (const p of test) {
      const rows = extract(p);
      labelled.push({
        doi: p.doi,
        rows,
        labels: inclusionLabels(
          rows.map((r) => r.row),
          p.gold,
        ),
        gold: p.gold.length,
      });
    }
    options.log?.(`fold ${k + 1}: ${test.length} papers extracted`);
  }
  writeRowsCache(cache);
  const model = fitInclusion(labelled);
  return {
    format: 'krt-inclusion-model',
    version: 1,
    model: INCLUSION_MODEL,
    logistic: model.logistic,
    threshold: model.threshold,
    trainedOn: {
      papers: labelled.length,
      rows: labelled.reduce((n, p) => n + p.rows.length, 0),
      positives: labelled.reduce((n, p) => n + p.labels.filter(Boolean).length, 0),
      heldOut: `${heldOut.size} papers held out: ${HELD_OUT_RULE}`,
      folds: CV_FOLDS,
      seed: CV_SEED,
      extractor: LEARNED_EXTRACTOR_MODEL,
      extractorSha256,
      rule: model.rule,
    },
  };
}
