// The reported evaluation of the text extractors (evaluation.ts defines the scores and the split): cross-validation
// by paper on the held-out author-table papers. The held-out papers are split into folds; each fold is extracted by
// a model trained on every other paper (the development papers and the other held-out folds), with the author
// table removed from the input. The rule extractor (krt-text-1) needs no training and is scored on the same
// papers. Also measured: how well the extracted rows' confidences are calibrated on those held-out papers.

import { reliability, type Reliability } from '../../rrid/calibration-map.ts';
import { heldOutSplit, paperFolds, report, scorePaper, type PaperScore, type Report } from '../evaluation.ts';
import { identifierKeys } from '../identifier.ts';
import { extractFromText } from '../text-extractor.ts';
import { matchTokens } from '../evaluation.ts';
import { LearnedExtractor, namesGoldRow, trainExtractor, type TrainingPaper } from './model.ts';
import type { XmlElement } from '../../jats/tree.ts';

export interface EvaluationPaper extends TrainingPaper {
  /** The article with its author table, for the rule extractor (which is told to skip that table). */
  article: XmlElement;
  authorTables: ReadonlySet<XmlElement>;
}

export interface HeldOutEvaluation {
  papers: number;
  folds: number;
  learned: Report;
  rules: Report;
  learnedScores: PaperScore[];
  rulesScores: PaperScore[];
  /** Confidence of every kept row and whether it names a row of its paper's table. */
  confidence: Reliability;
  thresholds: number[];
}

export interface EvaluateOptions {
  folds?: number;
  innerFolds?: number;
  seed?: number;
  /** Evaluate on these papers instead of the held-out set (e.g. the development set, for diagnostics). */
  on?: 'held-out' | 'development';
  onFold?: (fold: number, seconds: number) => void;
}

export function evaluateHeldOut(papers: readonly EvaluationPaper[], options: EvaluateOptions = {}): HeldOutEvaluation {
  const folds = options.folds ?? 4;
  const split = heldOutSplit(papers.map((p) => p.doi));
  const scored = new Set(options.on === 'development' ? split.development : split.heldOut);
  const evaluated = papers.filter((p) => scored.has(p.doi));
  const fold = paperFolds(
    evaluated.map((p) => p.doi),
    folds,
    options.seed ?? 15,
  );
  const learnedScores: PaperScore[] = [];
  const rulesScores: PaperScore[] = [];
  const predictions: { p: number; right: boolean }[] = [];
  const thresholds: number[] = [];
  for (let k = 0; k < folds; k++) {
    const started = performance.now();
    const test = evaluated.filter((p) => fold.get(p.doi) === k);
    if (test.length === 0) continue;
    const train = papers.filter((p) => !(scored.has(p.doi) && fold.get(p.doi) === k));
    const model = trainExtractor(train, options.innerFolds ?? 4, options.seed ?? 15);
    thresholds.push(model.threshold);
    const extractor = new LearnedExtractor(model);
    for (const p of test) {
      const rows = extractor.extract(p.text, p.base);
      learnedScores.push(
        scorePaper(
          p.doi,
          rows.map((r) => r.row),
          p.gold,
        ),
      );
      const goldTokens = p.gold.map(matchTokens);
      const goldKeys = p.gold.map((r) => identifierKeys(r.IDENTIFIER, { source: r.SOURCE }));
      for (const r of rows) predictions.push({ p: r.confidence, right: namesGoldRow(r.row, p.gold, goldTokens, goldKeys) });
      rulesScores.push(scorePaper(p.doi, extractFromText(p.article, { skipTables: p.authorTables }), p.gold));
    }
    options.onFold?.(k, (performance.now() - started) / 1000);
  }
  return {
    papers: evaluated.length,
    folds,
    learned: report(learnedScores),
    rules: report(rulesScores),
    learnedScores,
    rulesScores,
    confidence: reliability(predictions),
    thresholds,
  };
}
