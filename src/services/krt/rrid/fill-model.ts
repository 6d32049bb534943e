// The fill model: the probability that a proposed identifier (fill-proposals.ts) is one the authors' own key
// resources table lists for that row, from the proposal's features. A logistic regression over sparse binary
// features (extract/learned/logistic.ts), fitted on rows of papers whose authors' tables are known, with the
// knowledge base built without those papers (bench/_krt-cv.ts fits it by fold, so that every figure it reports
// comes from a model that never saw the scored paper). A row's cell is filled only from its class's threshold (kind
// of identifier and kind of resource: fillClass), chosen where labelled proposals scored out of fold reach
// FILL_PRECISION; with the corpus alone as knowledge no class reaches it (most proposals are for rows the authors'
// tables do not list, and authors often give a software's URL rather than its RRID), so no table is filled yet.

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

/**
 * The class a proposal's threshold is chosen for: its kind and the row's kind of resource. Papers agree on a
 * software's or a cell line's RRID, and authors write some kinds' identifiers more often than others', so one
 * threshold for all would serve the classes unevenly.
 */
export function fillClass(proposal: Pick<FillProposal, 'kind' | 'features'>): string {
  const type = proposal.features.find((f) => f.startsWith('rowtype:'))?.slice('rowtype:'.length) ?? '';
  const group =
    type === 'Software/code'
      ? 'software'
      : type === 'Experimental model: Cell line'
        ? 'cell line'
        : type.startsWith('Experimental model')
          ? 'organism'
          : type === 'Antibody'
            ? 'antibody'
            : 'other';
  return `${proposal.kind}:${group}`;
}

/** Per fill class, the probability a proposal needs to be written (a class without one is never filled). */
export type FillThresholds = Readonly<Record<string, number>>;

/** What a served fill must reach, and on how many fills a class's precision is judged. */
export const FILL_PRECISION = 0.7;
export const FILL_MIN_FILLS = 10;

/**
 * Per class, the lowest probability from which the proposals of labelled papers (scored by a model that did not see
 * them) were right at least `precision` of the time, over at least `minFills` of them; a class where no threshold
 * does gets none.
 */
export function chooseFillThresholds(
  scored: readonly { proposal: Pick<FillProposal, 'kind' | 'features'>; probability: number; right: boolean }[],
  precision = FILL_PRECISION,
  minFills = FILL_MIN_FILLS,
): Record<string, number> {
  const byClass = new Map<string, { probability: number; right: boolean }[]>();
  for (const s of scored) {
    const c = fillClass(s.proposal);
    byClass.set(c, [...(byClass.get(c) ?? []), s]);
  }
  const out: Record<string, number> = {};
  for (const [c, items] of byClass) {
    items.sort((a, b) => b.probability - a.probability);
    let right = 0;
    for (let i = 0; i < items.length; i++) {
      right += items[i].right ? 1 : 0;
      // A threshold falls between distinct probabilities only.
      if (i + 1 < items.length && items[i + 1].probability === items[i].probability) continue;
      if (i + 1 >= minFills && right / (i + 1) >= precision) out[c] = items[i].probability;
    }
  }
  return out;
}

/** Whether a proposal with this probability is written under these thresholds. */
export function passesThreshold(
  thresholds: FillThresholds,
  proposal: Pick<FillProposal, 'kind' | 'features'>,
  probability: number,
): boolean {
  const from = thresholds[fillClass(proposal)];
  return from !== undefined && probability >= from;
}

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

/** Every proposal with its probability; those from their class's threshold written into the rows. */
export function applyFills(
  rows: readonly KrtRow[],
  proposals: readonly FillProposal[],
  model: FillModel,
  thresholds: FillThresholds,
): { rows: KrtRow[]; fills: AppliedFill[] } {
  const fills = proposals.map((proposal) => {
    const probability = fillProbability(model, proposal.features);
    return { proposal, probability, filled: passesThreshold(thresholds, proposal, probability) };
  });
  return {
    rows: writeFills(
      rows,
      fills.filter((f) => f.filled).map((f) => f.proposal),
    ),
    fills,
  };
}
