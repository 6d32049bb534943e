// The calibration experiment for RRID suggestions, so that confidence_score means "share of suggestions with this
// score that were right" — measured on papers the base did not contain.
//
// Leave-one-paper-out: for every paper and every RRID it writes, the paper is taken out of the base, the base is
// asked for suggestions given that paper's resource name, vendor, catalog number and type, and every returned
// suggestion (top 5) is labelled right (it is the RRID the paper wrote) or wrong. RRIDs that no other paper writes
// are asked about too: nothing can be right for them, which is what abstaining is for, and clients ask about such
// resources as well. Isotonic regression of right on the rank score (calibration-map.ts) gives the map the service
// uses. How well the map is calibrated is measured by cross-validation by paper (crossValidateSuggestions): the
// map is fitted on the other folds' papers and checked on the held-out fold's.

import { Random } from '../../../core/random.ts';
import { calibratedProbability, fitIsotonic, reliability, type Calibration, type Reliability, type ScorePair } from './calibration-map.ts';
import type { RridKnowledgeBase } from './knowledge-base.ts';
import { distinctiveName, nameConsensus } from './consensus.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { ABSTAIN_BELOW, candidatePool, planQuery, scoreCandidates } from './suggest.ts';

export type { Calibration, ScorePair } from './calibration-map.ts';
export interface LopoQuery {
  paper: string;
  rrid: string;
  name: string;
  vendor: string;
  catalog: string;
  /** Whether another paper of the base writes the RRID (else no suggestion can be right). */
  answerable: boolean;
  /** RRIDs returned, best first (top `limit`), with rank scores. */
  returned: { rrid: string; score: number }[];
  /** The consensus answer to the paper's resource name alone (consensus.ts), with its score and type; null when none. */
  consensus: { rrid: string; score: number; type: ResourceType } | null;
}

export interface LopoOptions {
  /** Minimum number of papers (including the one left out) that write the RRID. Default 1: every RRID. */
  minPapers?: number;
  /** Suggestions looked at per query. Default 5. */
  limit?: number;
  /** Only these papers are left out in turn (all by default). */
  papers?: ReadonlySet<string>;
}

/** The leave-one-paper-out experiment (see the file comment). The base is restored afterwards. */
export function leaveOnePaperOut(kb: RridKnowledgeBase, options: LopoOptions = {}): LopoQuery[] {
  const minPapers = options.minPapers ?? 1;
  const limit = options.limit ?? 5;
  const results: LopoQuery[] = [];
  for (const doi of [...kb.papers()].sort()) {
    if (options.papers && !options.papers.has(doi)) continue;
    const paper = kb.paper(doi)!;
    const seen = new Set<string>();
    const queries = paper.observations.filter((o) => {
      if (!o.rrid || seen.has(o.rrid)) return false;
      seen.add(o.rrid);
      return (kb.entryByRrid(o.rrid)?.papers.size ?? 0) >= minPapers;
    });
    if (queries.length === 0) continue;
    kb.removePaper(doi);
    try {
      for (const o of queries) {
        const scored = scoreCandidates(kb, { resourceName: o.name, vendor: o.vendor, catalogNumber: o.catalogs[0], resourceType: o.type });
        const agreed = nameConsensus(candidatePool(kb, planQuery({ resourceName: o.name })), o.name)[0];
        results.push({
          paper: doi,
          rrid: o.rrid!,
          name: o.name,
          vendor: o.vendor,
          catalog: o.catalogs[0] ?? '',
          answerable: kb.hasRrid(o.rrid!),
          returned: scored.slice(0, limit).map((c) => ({ rrid: c.entry.rrid!, score: c.rankScore })),
          consensus: agreed ? { rrid: agreed.entry.rrid!, score: agreed.score, type: agreed.entry.type } : null,
        });
      }
    } finally {
      kb.addObservations(doi, paper);
    }
  }
  return results;
}

function pairsOf(queries: readonly LopoQuery[]): ScorePair[] {
  return queries.flatMap((q) => q.returned.map((r) => ({ score: r.score, right: r.rrid === q.rrid })));
}

/** (score, right) of the consensus answer to each query's name alone; only those of one class when `distinctive` is given. */
export function consensusPairsOf(queries: readonly LopoQuery[], distinctive?: boolean): ScorePair[] {
  return queries.flatMap((q) =>
    q.consensus && (distinctive === undefined || distinctiveName(q.consensus.type) === distinctive)
      ? [{ score: q.consensus.score, right: q.consensus.rrid === q.rrid }]
      : [],
  );
}

/** Share of queries whose first candidate is the paper's RRID (no abstention). */
export function top1Rate(queries: readonly LopoQuery[]): number {
  if (queries.length === 0) return 0;
  return queries.filter((q) => q.returned[0]?.rrid === q.rrid).length / queries.length;
}

/** Runs the experiment, fits the calibration, stores it in the base and returns it. */
export function calibrate(kb: RridKnowledgeBase, options: LopoOptions = {}): Calibration {
  const queries = leaveOnePaperOut(kb, options);
  const pairs = pairsOf(queries);
  const calibration: Calibration = {
    method:
      'isotonic regression (pool-adjacent-violators) of suggestion correctness on rank score, leave-one-paper-out over every RRID of every paper, Laplace-smoothed steps',
    bins: fitIsotonic(pairs),
    queries: queries.length,
    pairs: pairs.length,
    top1Rate: Number(top1Rate(queries.filter((q) => q.answerable)).toFixed(4)),
    consensus: fitIsotonic(consensusPairsOf(queries, false)),
    consensusDistinctive: fitIsotonic(consensusPairsOf(queries, true)),
  };
  kb.calibration = calibration;
  return calibration;
}

/** Papers split into `folds` groups (seeded shuffle, then round robin), each paper in exactly one. */
function foldsByPaper(papers: Iterable<string>, folds: number, seed: number): Map<string, number> {
  const list = [...new Set(papers)].sort();
  new Random(seed).shuffle(list);
  return new Map(list.map((paper, i) => [paper, i % folds]));
}

/** One query of the cross-validation, as the service would have answered it. */
interface HeldOutAnswer {
  paper: string;
  answerable: boolean;
  /** The first candidate was the paper's RRID. */
  firstRight: boolean;
  /** Calibrated probability of the first candidate (fitted without this paper's fold); null when there was none. */
  firstConfidence: number | null;
  /** The service would show a first suggestion (its confidence is at least ABSTAIN_BELOW). */
  answered: boolean;
}

export interface SuggestionCrossValidation {
  folds: number;
  answers: HeldOutAnswer[];
  /** Every returned candidate's held-out probability and whether it was right: for the reliability table. */
  predictions: { p: number; right: boolean; paper: string }[];
  reliability: Reliability;
}

/**
 * Cross-validation by paper of the calibration and of abstention: for each fold, the map is fitted on the other
 * folds' pairs and applied to this fold's queries.
 */
export function crossValidateSuggestions(queries: readonly LopoQuery[], folds = 5, seed = 15): SuggestionCrossValidation {
  const fold = foldsByPaper(
    queries.map((q) => q.paper),
    folds,
    seed,
  );
  const answers: HeldOutAnswer[] = [];
  const predictions: { p: number; right: boolean; paper: string }[] = [];
  for (let k = 0; k < folds; k++) {
    const map = { bins: fitIsotonic(pairsOf(queries.filter((q) => fold.get(q.paper) !== k))) };
    for (const q of queries) {
      if (fold.get(q.paper) !== k) continue;
      for (const r of q.returned) predictions.push({ p: calibratedProbability(map, r.score), right: r.rrid === q.rrid, paper: q.paper });
      const first = q.returned[0];
      const firstConfidence = first ? calibratedProbability(map, first.score) : null;
      answers.push({
        paper: q.paper,
        answerable: q.answerable,
        firstRight: first?.rrid === q.rrid,
        firstConfidence,
        answered: firstConfidence !== null && firstConfidence >= ABSTAIN_BELOW,
      });
    }
  }
  return { folds, answers, predictions, reliability: reliability(predictions) };
}
