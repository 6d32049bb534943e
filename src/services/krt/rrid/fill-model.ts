// The fill model: the probability that a proposed identifier (fill-proposals.ts) is one the authors' own key
// resources table lists for that row, from the proposal's features. A logistic regression over sparse binary
// features (extract/learned/logistic.ts), fitted on rows of papers whose authors' tables are known, with the
// knowledge base built without those papers (bench/_krt-cv.ts fits it by fold, so that every figure it reports
// comes from a model that never saw the scored paper). A row's cell is filled only from FILL_MODEL_FROM, the
// precision a served fill must have; with the corpus alone as knowledge no proposal reaches it out of sample (most
// proposals are for rows the authors' tables do not list), so no table is filled yet.

import { trainLogistic, type Example, type LogisticModel } from '../extract/learned/logistic.ts';
import { formatIdentifier, parseIdentifierText, type IdentifierPart } from '../extract/identifier.ts';
import type { KrtRow } from '../extract/krt-row.ts';
import type { FillProposal } from './fill-proposals.ts';

export type FillModel = LogisticModel;

export function trainFillModel(examples: readonly Example[], seed = 30): FillModel {
  return trainLogistic(examples, { epochs: 40, l2: 1e-3, seed });
}

export function fillProbability(model: FillModel, features: readonly string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

/** Proposals are written into their cells from this probability (see the file comment). */
export const FILL_MODEL_FROM = 0.7;

export interface AppliedFill {
  proposal: FillProposal;
  probability: number;
  filled: boolean;
}

/** The rows with these proposals written into their cells, after what the row already carries. */
export function writeFills(rows: readonly KrtRow[], proposals: readonly FillProposal[]): KrtRow[] {
  return rows.map((row, i) => {
    const mine = proposals.filter((p) => p.row === i);
    if (mine.length === 0) return row;
    const parts: IdentifierPart[] = parseIdentifierText(row.IDENTIFIER, { source: row.SOURCE }).filter((p) => p.kind !== 'none');
    for (const p of mine) parts.push({ kind: p.kind, value: p.value, label: '' });
    return { ...row, IDENTIFIER: formatIdentifier(parts) };
  });
}

/** Every proposal with its probability; those from `from` written into the rows. */
export function applyFills(
  rows: readonly KrtRow[],
  proposals: readonly FillProposal[],
  model: FillModel,
  from = FILL_MODEL_FROM,
): { rows: KrtRow[]; fills: AppliedFill[] } {
  const fills = proposals.map((proposal) => {
    const probability = fillProbability(model, proposal.features);
    return { proposal, probability, filled: probability >= from };
  });
  return {
    rows: writeFills(
      rows,
      fills.filter((f) => f.filled).map((f) => f.proposal),
    ),
    fills,
  };
}
