// Fits kept side by side for model comparison. Every `pdi fit retraction` also keeps its fit under a label
// (`--label`, default <family>-<parameterisation>): the headline figures, the pointwise PSIS-LOO terms and the
// posterior draws. The comparison pairs the pointwise terms of the fits of the current panel (loo_compare);
// the pointwise log-likelihood download recomputes log p(y_i | θ_s) from a fit's draws and the panel it used.
import { getAggregate, listDataVersions, putAggregate } from '../../core/db/datasets.ts';
import type { AnyDatabase } from '../../core/db/tables.ts';
import { HttpError, notFound } from '../../core/http/errors.ts';
import { looCompare } from './bayes/compare.ts';
import { buildDesign } from './bayes/design.ts';
import { decodeDraws, type DrawsTable, type StoredDraws } from './bayes/draws.ts';
import type { LooPointwise } from './bayes/fit.ts';
import { PointwiseLogLik } from './bayes/model.ts';
import { panelData } from './bayes/posterior.ts';
import type { CountFamily, FitResult } from './bayes/types.ts';
import { PANEL_AGGREGATES, modelPanel, readPanel, type PanelSummary } from './democracy.ts';
import type { RetractionDb } from './tables.ts';

const FITS_INDEX = 'democracy_model_fits';
const entryName = (label: string) => `democracy_model_fit:${label}`;
const drawsName = (label: string) => `democracy_model_fit_draws:${label}`;

export interface StoredFitEntry {
  label: string;
  model: FitResult['model'];
  family: CountFamily;
  country_effects: 'centred' | 'non-centred' | null;
  year_effects: 'centred' | 'non-centred' | null;
  parameterisation_switched: boolean | null;
  stored_at: string;
  panel_data_version: string;
  panel_is_demo: boolean;
  predictors: string[];
  seed: string;
  divergences: number | null;
  elpd_loo: number | null;
  elpd_loo_se: number | null;
  p_loo: number | null;
  looic: number | null;
  pareto_k_above_0_7: number | null;
  pointwise: LooPointwise | null;
  /** The k-fold pointwise terms (brms::kfold's), by country then year; absent or null without k-fold. */
  kfold?: { folds: number; fold_countries: string[][]; country: string[]; year: number[]; elpd: number[] } | null;
}

/** <family>-<parameterisation>: negbinomial2-centred, poisson-non-centred, negbinomial2-year-non-centred. */
export function defaultFitLabel(fit: FitResult): string {
  const family = fit.model === 'poisson-country-year' ? 'poisson' : 'negbinomial2';
  const p = fit.diagnostics.parameterisation;
  const form = !p
    ? 'centred'
    : p.countryEffects === p.yearEffects
      ? p.countryEffects
      : `${p.yearEffects === 'non-centred' ? 'year' : 'country'}-non-centred`;
  return `${family}-${form}`;
}

export function fitEntry(
  label: string,
  fit: FitResult,
  looPointwise: LooPointwise | null,
  panel: { version: string; isDemo: boolean },
): StoredFitEntry {
  const d = fit.diagnostics;
  return {
    label,
    model: fit.model,
    family: fit.model === 'poisson-country-year' ? 'poisson' : 'negbinomial2',
    country_effects: d.parameterisation?.countryEffects ?? null,
    year_effects: d.parameterisation?.yearEffects ?? null,
    parameterisation_switched: d.parameterisation?.switched ?? null,
    stored_at: new Date().toISOString(),
    panel_data_version: panel.version,
    panel_is_demo: panel.isDemo,
    predictors: [...fit.predictors],
    seed: String(fit.config?.sampler.seed ?? ''),
    divergences: d.divergences,
    elpd_loo: d.loo?.elpdLoo ?? null,
    elpd_loo_se: d.loo?.elpdLooSe ?? null,
    p_loo: d.loo?.pLoo ?? null,
    looic: d.loo?.looic ?? null,
    pareto_k_above_0_7: d.loo?.flaggedCount ?? null,
    pointwise: looPointwise,
    kfold: d.kfold?.perObservation
      ? {
          folds: d.kfold.folds,
          fold_countries: d.kfold.foldCountries,
          country: d.kfold.perObservation.map((o) => o.country),
          year: d.kfold.perObservation.map((o) => o.year),
          elpd: d.kfold.perObservation.map((o) => o.elpd),
        }
      : null,
  };
}

/** Keeps the fit under its label (replacing an earlier fit of that label), in the caller's transaction. */
export async function storeFitEntry(trx: AnyDatabase, dataVersion: string, entry: StoredFitEntry, draws: StoredDraws): Promise<void> {
  const index = await getAggregate<{ labels: string[] }>(trx, 'retraction', FITS_INDEX);
  const labels = [...new Set([...(index?.value.labels ?? []), entry.label])].sort();
  await putAggregate(trx, 'retraction', entryName(entry.label), dataVersion, entry);
  await putAggregate(trx, 'retraction', drawsName(entry.label), dataVersion, draws);
  await putAggregate(trx, 'retraction', FITS_INDEX, dataVersion, { labels });
}

async function storedFitEntries(db: RetractionDb): Promise<StoredFitEntry[]> {
  const index = await getAggregate<{ labels: string[] }>(db, 'retraction', FITS_INDEX);
  const out: StoredFitEntry[] = [];
  for (const label of index?.value.labels ?? []) {
    const found = await getAggregate<StoredFitEntry>(db, 'retraction', entryName(label));
    if (found) out.push(found.value);
  }
  return out;
}

async function currentPanelVersion(db: RetractionDb): Promise<string | null> {
  return (await listDataVersions(db, 'retraction')).find((v) => v.dataset === 'democracy-panel')?.version ?? null;
}

const sameObservations = (a: LooPointwise, b: LooPointwise) =>
  a.country.length === b.country.length && a.country.every((c, i) => c === b.country[i] && a.year[i] === b.year[i]);

const COMPARISON_METHOD =
  'Paired comparison by PSIS-LOO, as loo::loo_compare: the fits of the current panel ordered by elpd_loo; elpd_diff = Σ_i (elpd_loo_i of the fit − elpd_loo_i of the best), ' +
  'se_diff = √n · sd_i of those pointwise differences (the fits predict the same country-years, so the difference is judged on the pairs, not on the two elpd_loo SEs). ' +
  'A difference of a few se_diff or more is a clear preference; below about 4 (elpd units) the fits predict alike (Sivula, Magnusson & Vehtari 2020). ' +
  'Fits of an earlier panel, or without LOO, are listed under excluded. Pareto k > 0.7 makes a fit’s elpd_loo unreliable; then compare k-fold figures.';

export async function compareStoredFits(db: RetractionDb) {
  const current = await currentPanelVersion(db);
  const entries = await storedFitEntries(db);
  const excluded: { label: string; reason: string }[] = [];
  const eligible: (StoredFitEntry & { pointwise: LooPointwise })[] = [];
  for (const e of entries) {
    if (e.panel_data_version !== current)
      excluded.push({ label: e.label, reason: `fitted to an earlier panel (data version ${e.panel_data_version})` });
    else if (!e.pointwise) excluded.push({ label: e.label, reason: 'fitted without PSIS-LOO' });
    else if (eligible.length > 0 && !sameObservations(eligible[0].pointwise, e.pointwise))
      excluded.push({ label: e.label, reason: `predicts other country-years than ${eligible[0].label}` });
    else eligible.push({ ...e, pointwise: e.pointwise });
  }
  const byLabel = new Map(eligible.map((e) => [e.label, e]));
  const rows = looCompare(eligible.map((e) => ({ label: e.label, pointwise: e.pointwise.elpdLoo })));
  // The same pairing on brms::kfold's pointwise terms, for the fits run with the same folds.
  const withKfold = eligible.filter((e) => e.kfold);
  const reference = withKfold[0]?.kfold;
  const sameFolds = withKfold.filter(
    (e) =>
      JSON.stringify(e.kfold!.fold_countries) === JSON.stringify(reference!.fold_countries) &&
      e.kfold!.country.every((c, i) => c === reference!.country[i] && e.kfold!.year[i] === reference!.year[i]),
  );
  const kfoldRows = sameFolds.length > 0 ? looCompare(sameFolds.map((e) => ({ label: e.label, pointwise: e.kfold!.elpd }))) : [];
  return {
    panel_data_version: current,
    observations: eligible[0]?.pointwise.elpdLoo.length ?? null,
    method: COMPARISON_METHOD,
    models: rows.map((r) => {
      const e = byLabel.get(r.label)!;
      return {
        label: r.label,
        model: e.model,
        family: e.family,
        country_effects: e.country_effects,
        year_effects: e.year_effects,
        elpd_diff: r.elpdDiff,
        se_diff: r.seDiff,
        elpd_loo: r.elpdLoo,
        elpd_loo_se: r.elpdLooSe,
        p_loo: e.p_loo,
        looic: e.looic,
        pareto_k_above_0_7: e.pareto_k_above_0_7,
        divergences: e.divergences,
        stored_at: e.stored_at,
        log_lik: `/api/democracy/log-lik/?model=${encodeURIComponent(r.label)}`,
      };
    }),
    excluded,
    kfold:
      kfoldRows.length > 0
        ? {
            folds: reference!.folds,
            method: KFOLD_COMPARISON_METHOD,
            models: kfoldRows.map((r) => ({
              label: r.label,
              elpd_diff: r.elpdDiff,
              se_diff: r.seDiff,
              elpd_kfold_pointwise: r.elpdLoo,
              elpd_kfold_pointwise_se: r.elpdLooSe,
            })),
            without_kfold: eligible.filter((e) => !sameFolds.includes(e)).map((e) => e.label),
          }
        : null,
  };
}

const KFOLD_COMPARISON_METHOD =
  "The same paired comparison on brms::kfold's pointwise terms (elpd_kfold_pointwise: each country-year predicted by the fit without its fold, as a new country), " +
  'for the fits run with k-fold on the same folds (`pdi fit retraction --kfold K` with the same seed). Reliable where Pareto k flags PSIS-LOO.';

function fitListBody(entries: StoredFitEntry[], current: string | null) {
  return entries.map((e) => ({
    label: e.label,
    model: e.model,
    family: e.family,
    country_effects: e.country_effects,
    year_effects: e.year_effects,
    parameterisation_switched: e.parameterisation_switched,
    stored_at: e.stored_at,
    panel_data_version: e.panel_data_version,
    describes_current_panel: e.panel_data_version === current,
    panel_generated: e.panel_is_demo,
    seed: e.seed,
    divergences: e.divergences,
    elpd_loo: e.elpd_loo,
    elpd_loo_se: e.elpd_loo_se,
    p_loo: e.p_loo,
    looic: e.looic,
    pareto_k_above_0_7: e.pareto_k_above_0_7,
  }));
}

export async function listStoredFits(db: RetractionDb) {
  return fitListBody(await storedFitEntries(db), await currentPanelVersion(db));
}

/**
 * A kept fit's pointwise log-likelihood: log p(y_i | θ_s) for every draw s (rows) and panel row i (columns),
 * recomputed from its draws on the panel it was fitted to. 404 for an unknown label; 409 when the panel has
 * changed since (the rows the draws describe are gone).
 */
export async function fitLogLik(db: RetractionDb, label: string) {
  const found = await getAggregate<StoredFitEntry>(db, 'retraction', entryName(label));
  const stored = await getAggregate<StoredDraws>(db, 'retraction', drawsName(label));
  if (!found || !stored)
    throw notFound(`no fit is kept under the label ${JSON.stringify(label)}; /api/democracy/models/ lists them`, 'NO_FIT');
  const entry = found.value;
  const current = await currentPanelVersion(db);
  if (entry.panel_data_version !== current)
    throw new HttpError(
      409,
      `the fit ${label} describes an earlier panel (data version ${entry.panel_data_version}); run \`pdi fit retraction --label ${label}\` again`,
      'PANEL_CHANGED',
    );
  const summary = await getAggregate<PanelSummary>(db, 'retraction', PANEL_AGGREGATES.summary);
  const { rows } = modelPanel(await readPanel(db), summary?.value.covariates ?? []);
  const design = buildDesign(rows, entry.predictors);
  const table: DrawsTable = decodeDraws(stored.value);
  const pointwise = new PointwiseLogLik(panelData(design), table.columns, entry.family);
  const S = pointwise.draws;
  const matrix = new Float64Array(design.n * S);
  for (let i = 0; i < design.n; i++) pointwise.compute(i, matrix.subarray(i * S, (i + 1) * S));
  return {
    entry,
    table,
    observations: Array.from({ length: design.n }, (_, i) => ({
      country: design.countries[design.country[i]],
      year: design.years[design.year[i]],
    })),
    /** Row s: .chain, .iteration, .draw, then log p(y_i | θ_s) for every i. */
    *rows(): Generator<number[]> {
      const perChain = table.drawsPerChain;
      for (let s = 0; s < S; s++) {
        const row = new Array<number>(3 + design.n);
        row[0] = Math.floor(s / perChain) + 1;
        row[1] = (s % perChain) + 1;
        row[2] = s + 1;
        for (let i = 0; i < design.n; i++) row[3 + i] = matrix[i * S + s];
        yield row;
      }
    },
  };
}
