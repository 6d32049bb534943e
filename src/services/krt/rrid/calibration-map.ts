// A calibration map: raw score → probability of being right, as a non-decreasing step function fitted by isotonic
// regression (pool-adjacent-violators) on (score, right?) pairs, each step Laplace-smoothed, (right + 1) / (n + 2),
// and made monotone again by a weighted second pass. With no data the estimate is 1/2 everywhere: nothing is known.
// Also how a map is checked on pairs it was not fitted on: a reliability table and the expected calibration error.
// Used for RRID suggestions (calibration.ts) and extracted rows (extract/). Imports nothing: it is the lookup both
// the serving code and the experiments share.

export interface CalibrationBin {
  /** Raw-score range of the step (inclusive). */
  from: number;
  to: number;
  right: number;
  total: number;
  /** Smoothed share of right answers in the step. */
  probability: number;
}

export interface Calibration {
  method: string;
  bins: CalibrationBin[];
  /** Queries and (score, right) pairs the fit used. */
  queries: number;
  pairs: number;
  /** Share of queries whose first answer was right (suggestions; 0 where it does not apply). */
  top1Rate: number;
  /** Name-only answers: the map of the consensus score (rrid/consensus.ts), fitted the same way. */
  consensus?: CalibrationBin[];
  /**
   * The same for answers whose resource has a name of its own (software, cell lines, strains: consensus.ts
   * `distinctiveName`), fitted on those answers only; `consensus` then holds the others'. Absent in older snapshots.
   */
  consensusDistinctive?: CalibrationBin[];
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

/** Probability for a raw score: the step containing it, or the nearest step below. 0.5 without calibration data. */
export function calibratedProbability(calibration: Pick<Calibration, 'bins'> | null, raw: number): number {
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

interface ReliabilityRow {
  /** Predicted-probability bin [from, to). */
  from: number;
  to: number;
  n: number;
  /** Mean predicted probability and observed share of right answers in the bin. */
  predicted: number;
  observed: number;
}

export interface Reliability {
  rows: ReliabilityRow[];
  /** Expected calibration error: Σ (n_b / n) |predicted_b − observed_b| over the bins. */
  ece: number;
  brier: number;
  n: number;
}

/** Reliability table over equal-width probability bins (default 10), ECE and Brier score of (p, right) pairs. */
export function reliability(predictions: readonly { p: number; right: boolean }[], binCount = 10): Reliability {
  const bins = Array.from({ length: binCount }, () => ({ n: 0, p: 0, y: 0 }));
  let brier = 0;
  for (const { p, right } of predictions) {
    const y = right ? 1 : 0;
    brier += (p - y) ** 2;
    const b = bins[Math.min(binCount - 1, Math.max(0, Math.floor(p * binCount)))];
    b.n++;
    b.p += p;
    b.y += y;
  }
  const n = predictions.length;
  const rows = bins.map((b, i) => ({
    from: i / binCount,
    to: (i + 1) / binCount,
    n: b.n,
    predicted: b.n ? b.p / b.n : 0,
    observed: b.n ? b.y / b.n : 0,
  }));
  const ece = n ? rows.reduce((sum, r) => sum + (r.n / n) * Math.abs(r.predicted - r.observed), 0) : 0;
  return { rows, ece, brier: n ? brier / n : 0, n };
}
