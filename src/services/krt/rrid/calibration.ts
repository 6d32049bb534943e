// Calibration of RRID suggestion scores, so that confidence_score means "share of suggestions with this score
// that were right".
//
// How: leave-one-paper-out on the knowledge base itself. For every paper and every RRID it writes that at least
// one other paper also writes, the paper is taken out of the base, the base is asked for suggestions given that
// paper's resource name, vendor, catalog number and type, and every returned suggestion (top 5) is labelled
// right (it is the RRID the paper wrote) or wrong. Isotonic regression (pool-adjacent-violators) of the label
// on the raw score gives a non-decreasing step function; each step's probability is its Laplace-smoothed share
// of right suggestions, (right + 1) / (n + 2), made monotone again by a weighted second pass. With no data the
// estimate is 1/2 everywhere: nothing is known.

import { Random } from '../../../core/random.ts';
import type { RridKnowledgeBase } from './knowledge-base.ts';
import { scoreCandidates } from './suggest.ts';

export interface CalibrationBin {
  /** Raw-score range of the step (inclusive). */
  from: number;
  to: number;
  right: number;
  total: number;
  /** Smoothed share of right suggestions in the step. */
  probability: number;
}

export interface Calibration {
  method: string;
  bins: CalibrationBin[];
  /** Leave-one-paper-out queries and (score, right) pairs the fit used. */
  queries: number;
  pairs: number;
  /** Share of queries whose first suggestion was the paper's RRID. */
  top1Rate: number;
}

export interface ScorePair {
  score: number;
  right: boolean;
}

interface Block {
  from: number;
  to: number;
  right: number;
  total: number;
}

/** Pool-adjacent-violators: merges neighbouring blocks until `value` is non-decreasing in the score. */
function pav(blocks: readonly Block[], value: (b: Block) => number): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    out.push({ ...b });
    while (out.length > 1 && value(out[out.length - 2]) > value(out[out.length - 1])) {
      const last = out.pop()!;
      const prev = out.pop()!;
      out.push({ from: prev.from, to: last.to, right: prev.right + last.right, total: prev.total + last.total });
    }
  }
  return out;
}

const share = (b: Block) => b.right / b.total;
const smoothedShare = (b: Block) => (b.right + 1) / (b.total + 2);

/** Isotonic (non-decreasing) fit of P(right | score), as steps with smoothed probabilities. */
export function fitIsotonic(pairs: readonly ScorePair[]): CalibrationBin[] {
  if (pairs.length === 0) return [];
  const sorted = [...pairs].sort((a, b) => a.score - b.score);
  // Equal scores form one initial block (ties must get one probability).
  const initial: Block[] = [];
  for (const p of sorted) {
    const last = initial[initial.length - 1];
    if (last && last.to === p.score) {
      last.total++;
      last.right += p.right ? 1 : 0;
    } else initial.push({ from: p.score, to: p.score, right: p.right ? 1 : 0, total: 1 });
  }
  // Fit on raw shares, then pool again wherever smoothing (which pulls small steps towards 1/2) breaks the order.
  const steps = pav(pav(initial, share), smoothedShare);
  return steps.map((b) => ({ from: b.from, to: b.to, right: b.right, total: b.total, probability: Number(smoothedShare(b).toFixed(4)) }));
}

/** Probability for a raw score: the step containing it, or the nearest step. 0.5 without calibration data. */
export function calibratedProbability(calibration: Calibration | null, raw: number): number {
  const bins = calibration?.bins ?? [];
  if (bins.length === 0) return 0.5;
  if (raw <= bins[0].to) return bins[0].probability;
  for (let i = 1; i < bins.length; i++) {
    // Between two steps the lower one applies until the next step's first observed score.
    if (raw < bins[i].from) return bins[i - 1].probability;
    if (raw <= bins[i].to) return bins[i].probability;
  }
  return bins[bins.length - 1].probability;
}

export interface LopoQuery {
  paper: string;
  rrid: string;
  name: string;
  vendor: string;
  catalog: string;
  /** RRIDs returned, best first (top `limit`), with raw scores. */
  returned: { rrid: string; score: number }[];
}

export interface LopoOptions {
  /** Minimum number of papers (including the one left out) that write the RRID. Default 2. */
  minPapers?: number;
  /** Suggestions looked at per query. Default 5. */
  limit?: number;
  /** Only these papers are left out in turn (all by default). */
  papers?: ReadonlySet<string>;
}

/** The leave-one-paper-out experiment (see the file comment). The base is restored afterwards. */
export function leaveOnePaperOut(kb: RridKnowledgeBase, options: LopoOptions = {}): LopoQuery[] {
  const minPapers = options.minPapers ?? 2;
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
        results.push({
          paper: doi,
          rrid: o.rrid!,
          name: o.name,
          vendor: o.vendor,
          catalog: o.catalogs[0] ?? '',
          returned: scored.slice(0, limit).map((c) => ({ rrid: c.entry.rrid!, score: c.raw })),
        });
      }
    } finally {
      kb.addObservations(doi, paper);
    }
  }
  return results;
}

export function pairsOf(queries: readonly LopoQuery[]): ScorePair[] {
  return queries.flatMap((q) => q.returned.map((r) => ({ score: r.score, right: r.rrid === q.rrid })));
}

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
      'isotonic regression (pool-adjacent-violators) of suggestion correctness on raw score, leave-one-paper-out, Laplace-smoothed steps',
    bins: fitIsotonic(pairs),
    queries: queries.length,
    pairs: pairs.length,
    top1Rate: Number(top1Rate(queries).toFixed(4)),
  };
  kb.calibration = calibration;
  return calibration;
}

export interface CalibrationCheck {
  /** Expected calibration error over 10 equal-width probability bins, and the Brier score, on held-out pairs. */
  ece: number;
  brier: number;
  trainPairs: number;
  testPairs: number;
}

/**
 * Honest check of the calibration: papers split in two halves (seeded), steps fitted on one half's queries,
 * measured on the other's.
 */
export function crossCheckCalibration(queries: readonly LopoQuery[], seed = 1): CalibrationCheck {
  const papers = [...new Set(queries.map((q) => q.paper))].sort();
  new Random(seed).shuffle(papers);
  const train = new Set(papers.slice(0, Math.ceil(papers.length / 2)));
  const trainPairs = pairsOf(queries.filter((q) => train.has(q.paper)));
  const testPairs = pairsOf(queries.filter((q) => !train.has(q.paper)));
  const fitted: Calibration = { method: 'cross-check', bins: fitIsotonic(trainPairs), queries: 0, pairs: trainPairs.length, top1Rate: 0 };
  let brier = 0;
  const bins = Array.from({ length: 10 }, () => ({ n: 0, p: 0, y: 0 }));
  for (const pair of testPairs) {
    const p = calibratedProbability(fitted, pair.score);
    const y = pair.right ? 1 : 0;
    brier += (p - y) ** 2;
    const b = bins[Math.min(9, Math.floor(p * 10))];
    b.n++;
    b.p += p;
    b.y += y;
  }
  const n = testPairs.length || 1;
  const ece = bins.reduce((sum, b) => sum + (b.n ? (b.n / n) * Math.abs(b.p / b.n - b.y / b.n) : 0), 0);
  return { ece, brier: brier / n, trainPairs: trainPairs.length, testPairs: testPairs.length };
}
