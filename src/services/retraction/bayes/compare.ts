// Paired model comparison by PSIS-LOO, as loo::loo_compare gives it (Vehtari, Gelman & Gabry 2017, section 5):
// models ordered by elpd_loo, each model's difference from the best, elpd_diff = Σ_i (elpd_i,m − elpd_i,best),
// and its standard error from the paired pointwise differences, se_diff = √(n · var_i(elpd_i,m − elpd_i,best)).
// Pairing matters: the models predict the same observations, so the difference is far more certain than the
// two elpd_loo standard errors suggest.
import { sumAndSe } from './kfold.ts';

export interface ComparedModel {
  label: string;
  /** Pointwise elpd_loo, one per observation, in the same observation order for every model. */
  pointwise: readonly number[];
}

export interface ComparisonRow {
  label: string;
  elpdLoo: number;
  elpdLooSe: number;
  /** ≤ 0; 0 for the best model. */
  elpdDiff: number;
  /** 0 for the best model. */
  seDiff: number;
}

/** loo_compare: rows from the best elpd_loo down. Throws a RangeError when the models' observations differ in number. */
export function looCompare(models: readonly ComparedModel[]): ComparisonRow[] {
  if (models.length === 0) return [];
  const n = models[0].pointwise.length;
  for (const m of models)
    if (m.pointwise.length !== n) throw new RangeError(`model ${m.label} has ${m.pointwise.length} observations, ${models[0].label} ${n}`);
  const totals = models.map((m) => ({ model: m, ...sumAndSe(m.pointwise) }));
  // Stable order on ties: as given.
  const ordered = totals.map((t, i) => ({ ...t, i })).sort((a, b) => b.sum - a.sum || a.i - b.i);
  const best = ordered[0];
  return ordered.map((t) => {
    const paired = sumAndSe(t.model.pointwise.map((v, i) => v - best.model.pointwise[i]));
    return { label: t.model.label, elpdLoo: t.sum, elpdLooSe: t.se, elpdDiff: paired.sum, seDiff: paired.se };
  });
}
