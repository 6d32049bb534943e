// The row-inclusion model: "would the authors put this row in their key resources table?" A logistic model
// (logistic.ts) over what is known of an extracted row when it is extracted: the extractor's own features of the
// candidate (origin, type, identifiers, vendor, mentions, sections, gazetteer, name shape; features.ts), its
// calibrated confidence, and where it stands in its paper (how many rows the paper gives, the row's rank). It is
// fitted on rows labelled by the benchmark's one-to-one matching against their own paper's author table
// (evaluation.ts), rows that an extractor not trained on that paper gave. The served table keeps the rows from the
// model's threshold, and always the paper's best row; the others stay listed as further mentions.

import { matchRows, paperFolds } from '../evaluation.ts';
import type { KrtRow } from '../krt-row.ts';
import { logisticScore, trainLogistic, type LogisticModel } from './logistic.ts';

export interface InclusionRow {
  row: KrtRow;
  /** The extractor's features of the candidate (features.ts). */
  features: readonly string[];
  /** The extractor's calibrated confidence. */
  confidence: number;
}

export interface InclusionPaper {
  doi: string;
  rows: readonly InclusionRow[];
  /** Per row: whether it matched a row of the paper's own author table. */
  labels: readonly boolean[];
}

interface InclusionModel {
  logistic: LogisticModel;
  /** Rows are served when their probability is at least this. */
  threshold: number;
  rule: string;
}

/** The name and version of the row-inclusion model. */
export const INCLUSION_MODEL = 'krt-inclusion-1';

/** The shipped model (krt-inclusion-1.model.json, built by build-model.ts with inclusion-training.ts). */
export interface InclusionModelFile {
  format: 'krt-inclusion-model';
  version: 1;
  model: string;
  logistic: LogisticModel;
  threshold: number;
  trainedOn: {
    papers: number;
    rows: number;
    positives: number;
    heldOut: string;
    folds: number;
    seed: number;
    /** The text extractor whose rows it was fitted on, and the SHA-256 of that extractor's shipped model file. */
    extractor: string;
    extractorSha256: string;
    rule: string;
  };
}

const bucket = (n: number, edges: readonly number[]) => {
  let i = 0;
  while (i < edges.length && n >= edges[i]) i++;
  return i;
};

/** Features of each row of one paper's extracted table (same order). */
function inclusionFeatures(rows: readonly InclusionRow[]): string[][] {
  const order = rows.map((_, i) => i).sort((a, b) => rows[b].confidence - rows[a].confidence || a - b);
  const rank = new Array<number>(rows.length);
  order.forEach((i, r) => (rank[i] = r));
  const size = `p:n${bucket(rows.length, [10, 20, 40, 80, 160])}`;
  return rows.map((r, i) => {
    const type = r.row['RESOURCE TYPE'];
    const confidence = `conf:${Math.min(9, Math.floor(r.confidence * 10))}`;
    const rankBucket = `rank:${bucket(rank[i], [3, 10, 20, 40, 80])}`;
    const share = `rank:q${Math.min(4, Math.floor((5 * rank[i]) / rows.length))}`;
    return [
      ...r.features.map((f) => `x:${f}`),
      confidence,
      size,
      rankBucket,
      share,
      `${size}|${share}`,
      `t:${type}|${confidence}`,
      `t:${type}|${share}`,
    ];
  });
}

/** Per predicted row: whether the benchmark's one-to-one matching pairs it with a row of the authors' table. */
export function inclusionLabels(predicted: readonly KrtRow[], gold: readonly KrtRow[]): boolean[] {
  const labels = predicted.map(() => false);
  for (const m of matchRows(predicted, gold)) labels[m.predicted] = true;
  return labels;
}

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

function fitLogistic(papers: readonly InclusionPaper[]): LogisticModel {
  const examples = papers.flatMap((p) => {
    const features = inclusionFeatures(p.rows);
    return p.rows.map((_, i) => ({ features: features[i], label: p.labels[i] }));
  });
  return trainLogistic(examples, { epochs: 20, learningRate: 0.1, l2: 1e-3, seed: 15 });
}

/** Each row's probability of being in the authors' table. */
export function inclusionProbabilities(logistic: LogisticModel, rows: readonly InclusionRow[]): number[] {
  return inclusionFeatures(rows).map((f) => sigmoid(logisticScore(logistic, f)));
}

/** Which rows are served: probability from the threshold, and always the best row of a non-empty table. */
export function servedRows(probabilities: readonly number[], threshold: number): boolean[] {
  const served = probabilities.map((p) => p >= threshold);
  if (probabilities.length && !served.includes(true)) served[probabilities.indexOf(Math.max(...probabilities))] = true;
  return served;
}

/** Per row of one paper's extracted table: its inclusion probability and whether it is in the key resources table. */
export function includeRows(
  model: { logistic: LogisticModel; threshold: number },
  rows: readonly InclusionRow[],
): { probability: number; inTable: boolean }[] {
  const probabilities = inclusionProbabilities(model.logistic, rows);
  const served = servedRows(probabilities, model.threshold);
  return probabilities.map((probability, i) => ({ probability, inTable: served[i] }));
}

/** The row precision the threshold aims at (the target the product sets for rows from text). */
export const INCLUSION_TARGET_PRECISION = 0.6;
export const INCLUSION_THRESHOLDS = Array.from({ length: 19 }, (_, i) => (i + 1) / 20);

/** Macro precision and recall over papers of the served rows (precision over papers serving a row). */
function macroRows(
  papers: readonly { labels: readonly boolean[]; probabilities: readonly number[]; gold: number }[],
  threshold: number,
): { precision: number; recall: number } {
  let precision = 0;
  let withRows = 0;
  let recall = 0;
  let withGold = 0;
  for (const p of papers) {
    const served = servedRows(p.probabilities, threshold);
    const n = served.filter(Boolean).length;
    const right = p.labels.filter((label, i) => label && served[i]).length;
    if (n) {
      precision += right / n;
      withRows++;
    }
    if (p.gold) {
      recall += right / p.gold;
      withGold++;
    }
  }
  return { precision: withRows ? precision / withRows : 0, recall: withGold ? recall / withGold : 0 };
}

const RULE =
  `the lowest of 0.05..0.95 whose out-of-fold macro row precision (inner folds by paper) reaches ${INCLUSION_TARGET_PRECISION}, ` +
  'else the one with the highest macro F0.5';

/**
 * Fits the model on papers (their rows from an extractor not trained on them, labelled against their author
 * tables; `gold` is the number of author rows); the threshold by the rule above, from an inner cross-validation.
 */
export function fitInclusion(papers: readonly (InclusionPaper & { gold: number })[], innerFolds = 4, seed = 15): InclusionModel {
  const fold = paperFolds(
    papers.map((p) => p.doi),
    innerFolds,
    seed,
  );
  const outOfFold: { labels: readonly boolean[]; probabilities: number[]; gold: number }[] = [];
  for (let k = 0; k < innerFolds; k++) {
    const test = papers.filter((p) => fold.get(p.doi) === k);
    if (test.length === 0) continue;
    const logistic = fitLogistic(papers.filter((p) => fold.get(p.doi) !== k));
    for (const p of test) outOfFold.push({ labels: p.labels, probabilities: inclusionProbabilities(logistic, p.rows), gold: p.gold });
  }
  let threshold = INCLUSION_THRESHOLDS.find((t) => macroRows(outOfFold, t).precision >= INCLUSION_TARGET_PRECISION);
  if (threshold === undefined) {
    let best = -1;
    for (const t of INCLUSION_THRESHOLDS) {
      const { precision, recall } = macroRows(outOfFold, t);
      const f = precision + recall > 0 ? (1.25 * precision * recall) / (0.25 * precision + recall) : 0;
      if (f > best) [best, threshold] = [f, t];
    }
  }
  return { logistic: fitLogistic(papers), threshold: threshold ?? 0.5, rule: RULE };
}
