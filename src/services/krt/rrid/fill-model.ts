// The fill model: the probability that an identifier proposed for a row (fill-proposals.ts) is the identifier of that
// resource, from the proposal's features. A logistic regression over sparse binary features
// (extract/learned/logistic.ts), fitted on the proposals for rows that match a row of their paper's own key resources
// table carrying an identifier of the proposal's kind (an RRID for an RRID, a catalog number for a catalog number),
// labelled by whether that row's identifiers include the proposed one (extract/learned/fill-training.ts), its output
// calibrated by isotonic regression on out-of-fold scores (fitCalibratedFillModel). So the
// probability answers "when the authors give this kind of identifier for this resource, is it this one?", not "will
// the authors' table list it" (which also counts rows the authors leave out and tools they cite by URL). The knowledge
// base of every fitted proposal was built without its paper (the benchmark's folds), so the probabilities and their
// calibration (bench/_krt-cv.ts) are out of sample.
//
// Served: each empty identifier cell of a text-built table lists its candidates (identifierCandidates) with that
// probability. Filling a cell is a separate rule: a class's threshold (kind of identifier and kind of resource:
// fillClass) chosen where the proposals of other folds, scored out of fold, reach FILL_PRECISION against the
// authors' tables as the benchmark scores them; with the corpus alone as knowledge no class reaches it, so no cell is
// filled (docs/krt.md).

import { trainLogistic, type Example, type LogisticModel } from '../extract/learned/logistic.ts';
import { formatIdentifier, parseIdentifierText, type IdentifierPart } from '../extract/identifier.ts';
import type { KrtRow } from '../extract/krt-row.ts';
import { fillProposals, type FillProposal } from './fill-proposals.ts';
import type { RridKnowledgeBase } from './knowledge-base.ts';
import { fitIsotonic, type CalibrationBin, type ScorePair } from './calibration-map.ts';

export type FillModel = LogisticModel;

export const FILL_MODEL = 'krt-fill-1';

/** The shipped fill model (extract/learned/krt-fill-1.model.json, built by build-model.ts --only fill). */
export interface FillModelFile {
  format: 'krt-fill-model';
  version: 1;
  model: string;
  logistic: LogisticModel;
  /** The isotonic map of the logistic output to the share of right candidates, fitted out of fold. */
  calibration: CalibrationBin[];
  trainedOn: {
    papers: number;
    /** Every proposal made for the papers' rows, and those fitted on (the rows matching an authors' row with one). */
    proposals: number;
    fitted: number;
    right: number;
    perKind: number;
    heldOut: string;
    folds: number;
    seed: number;
    /** The text extractor whose rows were proposed for, and the SHA-256 of its shipped model file. */
    extractor: string;
    extractorSha256: string;
    label: string;
  };
}

export function trainFillModel(examples: readonly Example[], seed = 30): FillModel {
  return trainLogistic(examples, { epochs: 40, l2: 1e-3, seed });
}

export function fillProbability(model: FillModel, features: readonly string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

/** The logistic model and the isotonic map of its output to the share of right candidates. */
export interface CalibratedFillModel {
  logistic: FillModel;
  calibration: CalibrationBin[];
}

/**
 * A fill model fitted on examples grouped by paper folds: the logistic model on all of them, its calibration by
 * isotonic regression on each group's examples scored by a model fitted on the other groups (out of fold).
 */
export function fitCalibratedFillModel(groups: readonly (readonly Example[])[]): CalibratedFillModel {
  const pairs: ScorePair[] = [];
  groups.forEach((held, g) => {
    const model = trainFillModel(groups.filter((_, h) => h !== g).flat());
    for (const e of held) pairs.push({ score: fillProbability(model, e.features), right: e.label });
  });
  return { logistic: trainFillModel(groups.flat()), calibration: fitIsotonic(pairs) };
}

/**
 * The calibrated probability of a proposal's features: the isotonic step its logistic output falls in, a gap between
 * two steps split at its middle (the model fitted on every fold scores a little apart from the out-of-fold scores the
 * steps were fitted on, so a score just below a step's first one belongs to that step as much as to the one below).
 */
export function calibratedFillProbability(model: CalibratedFillModel, features: readonly string[]): number {
  const bins = model.calibration;
  if (bins.length === 0) return 0.5;
  const raw = fillProbability(model.logistic, features);
  let i = 0;
  while (i + 1 < bins.length && raw >= (bins[i].to + bins[i + 1].from) / 2) i++;
  return bins[i].probability;
}

/** Identifiers of each kind a row lists as candidates at most (the proposals' ranks 0 and 1). */
export const CANDIDATES_PER_KIND = 2;
/**
 * Candidates the model gives less than this are not listed: fewer than one in ten of them is the authors' identifier
 * even where the authors give one, so they would crowd out the evidence that counts.
 */
export const CANDIDATE_FLOOR = 0.1;
/** DOIs listed per candidate (paper_count counts them all). */
const CANDIDATE_PAPERS = 10;

/** What a row with an empty identifier cell lists: an identifier other papers wrote for the same resource. */
export interface IdentifierCandidate {
  kind: 'rrid' | 'catalog';
  /** As the papers wrote it: an RRID with its "RRID:" label ("RRID:SCR_002285"), a catalog number as written. */
  identifier: string;
  /** The supplier the papers name with a catalog number ("" for an RRID or when none). */
  vendor: string;
  /** The fill model's calibrated probability that it is this resource's identifier (see the file comment), 3 decimals. */
  probability: number;
  /** DOIs of the papers that write it for this resource (the first CANDIDATE_PAPERS, in DOI order). */
  papers: string[];
  paper_count: number;
  /** Mentions of the row's name with this identifier, and with any identifier of its kind. */
  agreeing: number;
  total: number;
}

/**
 * Per row, the candidates for its empty identifier cells (none for a kind the row already carries), from the
 * knowledge base's proposals scored by the fill model: at least CANDIDATE_FLOOR, most probable first. `paper`: the
 * paper the rows come from. Its own mentions are left out of every candidate (its votes, counts and `papers`): the
 * probability is fitted on what other papers wrote (each paper's rows were proposed for by a base without it), and
 * a paper citing itself is no evidence for its own cell.
 */
export function identifierCandidates(
  kb: RridKnowledgeBase,
  model: CalibratedFillModel,
  rows: readonly KrtRow[],
  rowConfidence?: readonly number[],
  paper?: string,
): IdentifierCandidate[][] {
  const out: IdentifierCandidate[][] = rows.map(() => []);
  for (const p of fillProposals(kb, rows, rowConfidence, CANDIDATES_PER_KIND, paper)) {
    const probability = calibratedFillProbability(model, p.features);
    if (probability < CANDIDATE_FLOOR || p.evidence.length === 0) continue;
    out[p.row].push({
      kind: p.kind,
      identifier: p.kind === 'rrid' ? `RRID:${p.value}` : p.value,
      vendor: p.vendor,
      probability: Number(probability.toFixed(3)),
      papers: p.evidence.slice(0, CANDIDATE_PAPERS),
      paper_count: p.evidence.length,
      agreeing: p.agreeing,
      total: p.total,
    });
  }
  for (const list of out) list.sort((a, b) => b.probability - a.probability || (a.kind < b.kind ? 1 : a.kind > b.kind ? -1 : 0));
  return out;
}

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
