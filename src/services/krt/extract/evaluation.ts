// How extracted tables are scored against the authors' own key resources tables, fixed before any
// extractor was tuned:
//
// Identifier definition (the project's, as in text-extractor.test.ts): a paper's predicted and gold identifier keys
// (identifierKeys: catalog numbers, RRIDs, stock numbers, accessions, with the row's SOURCE) compared as sets.
//
// Resource definition: one-to-one matching of predicted rows to gold rows. A pair matches when the rows share an
// identifier key, or when their names match: the Dice coefficient of their distinctive name tokens (nameTokens of
// rrid/similarity.ts — synonym-aware, versions dropped — without words every resource of a kind carries, such as
// "antibody", "cells", "kit") is at least 0.5. Pairs are taken greedily: identifier matches first, then by
// decreasing Dice. Precision = matched predicted rows / predicted rows; recall = matched gold rows / gold rows;
// "typed" variants count a match only when the RESOURCE TYPE agrees.
//
// Papers are averaged (macro): precision over papers with a prediction, recall over papers with a gold row. 95%
// intervals by the percentile bootstrap over papers (seeded). Per resource type: recall over the gold rows of the
// type, precision over the predicted rows of the type, each macro-averaged over the papers that have such rows.
//
// The 84 author-table papers are split once (seed below) into a development set, on which extractors may be built
// and tuned (cross-validation inside it), and a held-out set, scored only by cross-validation by paper for the
// reported figures: each held-out paper is extracted by a model trained on the other papers, never on itself.

import { Random } from '../../../core/random.ts';
import { nameTokens } from '../rrid/similarity.ts';
import { identifierKeys } from './identifier.ts';
import { RESOURCE_TYPES, type KrtRow, type ResourceType } from './krt-row.ts';

// ---- the split -------------------------------------------------------------------------------------------------

/** Seed and size of the held-out set, chosen before the first extractor was written. */
const HELD_OUT_SEED = 2026_11_26;
const HELD_OUT_SHARE = 1 / 3;

/** The development / held-out split of the author-table papers (by DOI; deterministic for a given list). */
export function heldOutSplit(dois: readonly string[]): { development: string[]; heldOut: string[] } {
  const sorted = [...new Set(dois)].sort();
  new Random(HELD_OUT_SEED).shuffle(sorted);
  const cut = Math.round(sorted.length * HELD_OUT_SHARE);
  return { heldOut: sorted.slice(0, cut).sort(), development: sorted.slice(cut).sort() };
}

/** Papers in `folds` groups (seeded shuffle, round robin): fold index per DOI. */
export function paperFolds(dois: readonly string[], folds: number, seed: number): Map<string, number> {
  const sorted = [...new Set(dois)].sort();
  new Random(seed).shuffle(sorted);
  return new Map(sorted.map((doi, i) => [doi, i % folds]));
}

// ---- matching --------------------------------------------------------------------------------------------------

/** Words that say what kind of resource something is, not which one. */
const GENERIC = new Set([
  'antibody',
  'monoclonal',
  'polyclonal',
  'recombinant',
  'cell',
  'line',
  'kit',
  'assay',
  'plasmid',
  'vector',
  'primer',
  'software',
  'strain',
  'protein',
  'human',
  'reagent',
  'solution',
  'buffer',
  'system',
  'data',
  'dataset',
  'version',
]);

/** Distinctive tokens of a resource name (all tokens when every one is generic). */
export function matchTokens(row: KrtRow): Set<string> {
  const all = nameTokens(row['RESOURCE NAME'], { dropVersions: true });
  const distinctive = all.filter((t) => !GENERIC.has(t));
  return new Set(distinctive.length ? distinctive : all);
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return (2 * shared) / (a.size + b.size);
}

export const NAME_MATCH = 0.5;

export interface RowMatch {
  predicted: number;
  gold: number;
  by: 'identifier' | 'name';
  typeAgrees: boolean;
}

/** One-to-one matching of predicted rows to gold rows (see the file comment). */
export function matchRows(predicted: readonly KrtRow[], gold: readonly KrtRow[]): RowMatch[] {
  const pKeys = predicted.map((r) => identifierKeys(r.IDENTIFIER, { source: r.SOURCE }));
  const gKeys = gold.map((r) => identifierKeys(r.IDENTIFIER, { source: r.SOURCE }));
  const pTokens = predicted.map(matchTokens);
  const gTokens = gold.map(matchTokens);
  const candidates: { p: number; g: number; score: number; by: 'identifier' | 'name' }[] = [];
  for (let p = 0; p < predicted.length; p++) {
    for (let g = 0; g < gold.length; g++) {
      let sharesKey = false;
      for (const k of pKeys[p])
        if (gKeys[g].has(k)) {
          sharesKey = true;
          break;
        }
      const d = dice(pTokens[p], gTokens[g]);
      if (sharesKey) candidates.push({ p, g, score: 2 + d, by: 'identifier' });
      else if (d >= NAME_MATCH) candidates.push({ p, g, score: d, by: 'name' });
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.p - b.p || a.g - b.g);
  const usedP = new Set<number>();
  const usedG = new Set<number>();
  const out: RowMatch[] = [];
  for (const c of candidates) {
    if (usedP.has(c.p) || usedG.has(c.g)) continue;
    usedP.add(c.p);
    usedG.add(c.g);
    out.push({ predicted: c.p, gold: c.g, by: c.by, typeAgrees: predicted[c.p]['RESOURCE TYPE'] === gold[c.g]['RESOURCE TYPE'] });
  }
  return out;
}

// ---- per-paper counts ------------------------------------------------------------------------------------------

export interface Counts {
  /** Predicted items that are right / predicted items; gold items found / gold items. */
  rightPredicted: number;
  predicted: number;
  foundGold: number;
  gold: number;
}

export interface PaperScore {
  doi: string;
  identifiers: Counts;
  resources: Counts;
  typedResources: Counts;
  /** Per resource type: predicted rows of the type that matched, gold rows of the type that were found. */
  byType: Partial<Record<ResourceType, Counts>>;
}

const zero = (): Counts => ({ rightPredicted: 0, predicted: 0, foundGold: 0, gold: 0 });

export function scorePaper(doi: string, predicted: readonly KrtRow[], gold: readonly KrtRow[]): PaperScore {
  const pk = new Set(predicted.flatMap((r) => [...identifierKeys(r.IDENTIFIER, { source: r.SOURCE })]));
  const gk = new Set(gold.flatMap((r) => [...identifierKeys(r.IDENTIFIER, { source: r.SOURCE })]));
  let shared = 0;
  for (const k of pk) if (gk.has(k)) shared++;
  const matches = matchRows(predicted, gold);
  const typed = matches.filter((m) => m.typeAgrees).length;
  const byType: Partial<Record<ResourceType, Counts>> = {};
  const of = (type: ResourceType) => (byType[type] ??= zero());
  for (const r of predicted) of(r['RESOURCE TYPE']).predicted++;
  for (const r of gold) of(r['RESOURCE TYPE']).gold++;
  for (const m of matches) {
    of(predicted[m.predicted]['RESOURCE TYPE']).rightPredicted++;
    of(gold[m.gold]['RESOURCE TYPE']).foundGold++;
  }
  return {
    doi,
    identifiers: { rightPredicted: shared, predicted: pk.size, foundGold: shared, gold: gk.size },
    resources: { rightPredicted: matches.length, predicted: predicted.length, foundGold: matches.length, gold: gold.length },
    typedResources: { rightPredicted: typed, predicted: predicted.length, foundGold: typed, gold: gold.length },
    byType,
  };
}

// ---- averages and intervals ------------------------------------------------------------------------------------

export interface Estimate {
  value: number;
  low: number;
  high: number;
  /** Papers the average is over. */
  papers: number;
}

function macro(counts: readonly Counts[], which: 'precision' | 'recall'): { value: number; n: number } {
  let sum = 0;
  let n = 0;
  for (const c of counts) {
    const denominator = which === 'precision' ? c.predicted : c.gold;
    if (denominator === 0) continue;
    sum += (which === 'precision' ? c.rightPredicted : c.foundGold) / denominator;
    n++;
  }
  return { value: n ? sum / n : Number.NaN, n };
}

/** Macro average with a percentile-bootstrap 95% interval (papers resampled with replacement). */
export function macroEstimate(counts: readonly Counts[], which: 'precision' | 'recall', reps = 2000, seed = 15): Estimate {
  const point = macro(counts, which);
  const random = new Random(seed);
  const values: number[] = [];
  for (let r = 0; r < reps; r++) {
    const sample: Counts[] = [];
    for (let i = 0; i < counts.length; i++) sample.push(counts[random.int(0, counts.length - 1)]);
    const m = macro(sample, which);
    if (!Number.isNaN(m.value)) values.push(m.value);
  }
  values.sort((a, b) => a - b);
  const at = (q: number) => (values.length ? values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))] : Number.NaN);
  return { value: point.value, low: at(0.025), high: at(0.975), papers: point.n };
}

export interface Report {
  papers: number;
  identifiers: { precision: Estimate; recall: Estimate };
  resources: { precision: Estimate; recall: Estimate };
  typedResources: { precision: Estimate; recall: Estimate };
  byType: { type: ResourceType; precision: Estimate; recall: Estimate }[];
}

/** Macro precision and recall with intervals, overall and per resource type. */
export function report(scores: readonly PaperScore[], seed = 15): Report {
  const pr = (counts: Counts[]) => ({
    precision: macroEstimate(counts, 'precision', 2000, seed),
    recall: macroEstimate(counts, 'recall', 2000, seed),
  });
  return {
    papers: scores.length,
    identifiers: pr(scores.map((s) => s.identifiers)),
    resources: pr(scores.map((s) => s.resources)),
    typedResources: pr(scores.map((s) => s.typedResources)),
    byType: RESOURCE_TYPES.map((type) => ({ type, ...pr(scores.map((s) => s.byType[type] ?? zero())) })).filter(
      (t) => t.precision.papers > 0 || t.recall.papers > 0,
    ),
  };
}

const pct = (e: Estimate) => formatEstimate(e);

/** Lines of a printed report (bench and diagnostics). */
export function formatReport(title: string, r: Report): string[] {
  const lines = [
    `${title}: ${r.papers} papers, macro-averaged, 95% bootstrap intervals`,
    `  resources (identifier or name match)  precision ${pct(r.resources.precision)}  recall ${pct(r.resources.recall)}`,
    `  resources, type must agree            precision ${pct(r.typedResources.precision)}  recall ${pct(r.typedResources.recall)}`,
    `  identifiers only (project's keys)     precision ${pct(r.identifiers.precision)}  recall ${pct(r.identifiers.recall)}`,
  ];
  for (const t of r.byType)
    lines.push(
      `    ${t.type.padEnd(42)} precision ${pct(t.precision)} (${t.precision.papers} papers)  recall ${pct(t.recall)} (${t.recall.papers} papers)`,
    );
  return lines;
}

/** A pooled share (hits / items) with a 95% interval from a bootstrap that resamples papers (clusters). */
export function pooledEstimate(items: readonly { paper: string; hit: boolean }[], reps = 2000, seed = 15): Estimate {
  const byPaper = new Map<string, [number, number]>();
  for (const item of items) {
    const c = byPaper.get(item.paper) ?? [0, 0];
    c[0] += item.hit ? 1 : 0;
    c[1]++;
    byPaper.set(item.paper, c);
  }
  const clusters = [...byPaper.values()];
  const share = (sample: readonly [number, number][]) => {
    let hits = 0;
    let n = 0;
    for (const [h, t] of sample) {
      hits += h;
      n += t;
    }
    return n ? hits / n : Number.NaN;
  };
  const random = new Random(seed);
  const values: number[] = [];
  for (let r = 0; r < reps && clusters.length; r++) {
    const sample: [number, number][] = [];
    for (let i = 0; i < clusters.length; i++) sample.push(clusters[random.int(0, clusters.length - 1)]);
    const v = share(sample);
    if (!Number.isNaN(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  const at = (q: number) => (values.length ? values[Math.min(values.length - 1, Math.floor(q * values.length))] : Number.NaN);
  return { value: share(clusters), low: at(0.025), high: at(0.975), papers: clusters.length };
}

/** "0.812 [0.750, 0.866]" */
export function formatEstimate(e: Estimate): string {
  return Number.isNaN(e.value) ? '–' : `${e.value.toFixed(3)} [${e.low.toFixed(3)}, ${e.high.toFixed(3)}]`;
}
