// The Bayesian model of democracy against retractions, as the service stores and serves it. Fits run on
// command (`pdi fit retraction`, ServiceModule.fit) through the engine in bayes/, never per request; a
// published fit (democracy_model_results.json) can be imported and is served as-is, marked as imported.
// Both are stored as aggregates with the data version of the run that stored them.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import { getAggregate, listDataVersions, putAggregate } from '../../core/db/datasets.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import { fitDemocracyModel } from './bayes/fit.ts';
import { DEFAULT_CONFIG } from './bayes/config.ts';
import { createProgress } from '../../core/progress.ts';
import { parsePublishedFit } from './bayes/imported.ts';
import type { DeepPartial, DemocracyModelConfig, FitResult, ParameterSummary, PredictorSummary } from './bayes/types.ts';
import { DEMOCRACY_PREDICTOR, PANEL_AGGREGATES, modelPanel, readPanel } from './democracy.ts';
import type { PanelSummary } from './democracy.ts';
import { readFile } from 'node:fs/promises';
import { parseSourceJson } from '../../core/source-text.ts';

export const MODEL_SOURCES = ['fitted', 'imported'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];
export const PANEL_DATASET = 'democracy-panel';

const aggregateName = (source: ModelSource) => `democracy_model:${source}`;

export interface StoredModel {
  fit: FitResult;
  provenance: {
    source: ModelSource;
    stored_at: string;
    /** Fitted: the panel's data version the fit used. */
    panel_data_version: string | null;
    panel_is_demo: boolean | null;
    /** Imported: the file's name. */
    imported_from: string | null;
  };
}

export interface FitOptions {
  seed?: number | string;
  warmup?: number;
  draws?: number;
  chains?: number;
  parallelism?: 'workers' | 'single';
  maxWorkers?: number | null;
  loo?: boolean;
}

async function panelVersion(db: Kysely<any>) {
  return (await listDataVersions(db, 'retraction')).find((v) => v.dataset === PANEL_DATASET) ?? null;
}

/** Fits the model to the imported panel and stores the result with a new data version. */
export async function fitStoredPanel(db: Db, options: FitOptions = {}): Promise<{ report: ImportReport; fit: FitResult }> {
  const version = await panelVersion(db.kysely);
  const summary = await getAggregate<PanelSummary>(db.kysely, 'retraction', PANEL_AGGREGATES.summary);
  if (!version || !summary)
    throw new Error('no democracy panel imported yet: import one first (pdi import retraction <panel.csv> --kind panel)');
  const { rows, predictors } = modelPanel(await readPanel(db.kysely), summary.value.covariates);
  const source = version.source ? path.basename(version.source) : 'democracy panel';
  const overrides: DeepPartial<DemocracyModelConfig> = {
    predictors,
    sampler: {
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.warmup !== undefined ? { warmup: options.warmup } : {}),
      ...(options.draws !== undefined ? { draws: options.draws } : {}),
      ...(options.chains !== undefined ? { chains: options.chains } : {}),
      ...(options.parallelism !== undefined ? { parallelism: options.parallelism } : {}),
      ...(options.maxWorkers !== undefined ? { maxWorkers: options.maxWorkers } : {}),
    },
    ...(options.loo !== undefined ? { loo: options.loo } : {}),
    variables: {
      [DEMOCRACY_PREDICTOR]: {
        label: 'democracy index',
        definition: 'Democracy index of the country-year as supplied in the panel (column democracy_index).',
        source,
      },
      ...Object.fromEntries(predictors.slice(1).map((p) => [p, { definition: `Covariate ${p} as supplied in the panel.`, source }])),
      retractions: { source },
      publications: { source },
    },
    dataSources: [
      {
        name: source,
        description: version.is_demo
          ? 'GENERATED demo panel (simulated from the model; not real data)'
          : 'democracy country-year panel imported from CSV',
      },
    ],
  };
  // A progress bar on a terminal: iterations done over all chains.
  const progress = createProgress({ label: 'retraction fit (MCMC iterations)', unit: 'iterations' });
  const perChain = new Map<number, number>();
  let fit: FitResult;
  try {
    fit = await fitDemocracyModel(rows, overrides, {
      onProgress: ({ chain, completed, total }) => {
        if (perChain.size === 0) progress.setTotal(total * (options.chains ?? DEFAULT_CONFIG.sampler.chains));
        perChain.set(chain, completed);
        progress.update([...perChain.values()].reduce((a, b) => a + b, 0));
      },
    });
  } finally {
    progress.stop();
  }
  const report = await runImport(
    db,
    {
      service: 'retraction',
      importer: 'fit',
      dataset: 'democracy-model-fit',
      source: `fit of ${source} (seed ${String(fit.config?.sampler.seed)})`,
      isDemo: version.is_demo,
    },
    async (trx, { tally, dataVersion }) => {
      tally.read(rows.length);
      tally.inserted(1);
      const stored: StoredModel = {
        fit,
        provenance: {
          source: 'fitted',
          stored_at: new Date().toISOString(),
          panel_data_version: version.version,
          panel_is_demo: version.is_demo,
          imported_from: null,
        },
      };
      await putAggregate(trx, 'retraction', aggregateName('fitted'), dataVersion, stored);
    },
  );
  return { report, fit };
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** True when the JSON text is a published fit (it has negbin_multivariate_* entries). */
export function looksLikePublishedFit(json: unknown): boolean {
  return json !== null && typeof json === 'object' && Object.keys(json).some((k) => k.startsWith('negbin_multivariate_'));
}

export async function importPublishedFit(db: Db, file: string, options: { isDemo?: boolean } = {}): Promise<ImportReport> {
  const raw = parseSourceJson(await readFile(file, 'utf8'), file);
  let fit: FitResult;
  try {
    fit = parsePublishedFit(raw);
  } catch (error) {
    // its messages name what is missing; the operator also needs to know which file
    if (error instanceof TypeError) throw new TypeError(`${file}: ${error.message}`);
    throw error;
  }
  return runImport(
    db,
    { service: 'retraction', importer: 'published-fit', dataset: 'democracy-published-fit', source: file, isDemo: options.isDemo },
    async (trx, { tally, dataVersion }) => {
      tally.read(fit.summaries.length);
      const previous = await getAggregate<StoredModel>(trx, 'retraction', aggregateName('imported'));
      // Compared in a canonical form: PostgreSQL's jsonb does not keep key order.
      const same =
        previous !== null &&
        canonicalJson(previous.value.fit) === canonicalJson(fit) &&
        previous.value.provenance.imported_from === path.basename(file);
      if (same) tally.unchanged(fit.summaries.length);
      else if (previous) tally.updated(fit.summaries.length);
      else tally.inserted(fit.summaries.length);
      const stored: StoredModel = {
        fit,
        provenance: {
          source: 'imported',
          stored_at: same ? previous.value.provenance.stored_at : new Date().toISOString(),
          panel_data_version: null,
          panel_is_demo: null,
          imported_from: path.basename(file),
        },
      };
      await putAggregate(trx, 'retraction', aggregateName('imported'), dataVersion, stored);
    },
  );
}

// ---------------------------------------------------------------- serving

export interface ModelInfo {
  status: 'fitted' | 'imported' | 'not_fitted';
  source: ModelSource | null;
  model: string | null;
  stored_at: string | null;
  data_version: string | null;
  panel_data_version: string | null;
  /** True only for a fit of the panel currently served by /api/democracy/raw-data/. */
  describes_current_panel: boolean;
  imported_from: string | null;
  available_sources: ModelSource[];
  note: string;
}

export interface ServedModel {
  info: ModelInfo;
  fit: FitResult | null;
}

/** The requested model, or by default the service's own fit when there is one, else the imported one. */
export async function servedModel(db: Kysely<any>, requested?: ModelSource): Promise<ServedModel> {
  const stored = new Map<ModelSource, { value: StoredModel; data_version: string }>();
  for (const source of MODEL_SOURCES) {
    const found = await getAggregate<StoredModel>(db, 'retraction', aggregateName(source));
    if (found) stored.set(source, found);
  }
  const available = MODEL_SOURCES.filter((s) => stored.has(s));
  const chosen = requested ?? available[0];
  const entry = chosen ? stored.get(chosen) : undefined;
  if (!entry) {
    const what = requested ? `no ${requested} model is stored` : 'the model has not been fitted yet';
    return {
      fit: null,
      info: {
        status: 'not_fitted',
        source: null,
        model: null,
        stored_at: null,
        data_version: null,
        panel_data_version: null,
        describes_current_panel: false,
        imported_from: null,
        available_sources: available,
        note: `${what}: run \`pdi fit retraction\` to fit it to the imported panel (MCMC, minutes), or import a published fit with \`pdi import retraction democracy_model_results.json --kind published-fit\`.`,
      },
    };
  }
  const current = await panelVersion(db);
  const p = entry.value.provenance;
  const describes = p.source === 'fitted' && current !== null && p.panel_data_version === current.version;
  let note: string;
  if (p.source === 'imported') {
    note = `Published fit imported as-is from ${p.imported_from}: its numbers are the publication's, not computed by this service, and it was not fitted to the panel served by /api/democracy/raw-data/. Fields the file does not report are null.`;
  } else if (describes) {
    note = `Fitted by this service to the current panel${p.panel_is_demo ? ' (GENERATED demo data: the estimates describe simulated data, not the real world)' : ''}.`;
  } else {
    note = 'Fitted by this service to an earlier version of the panel; run `pdi fit retraction` again to refit the current one.';
  }
  return {
    fit: entry.value.fit,
    info: {
      status: p.source,
      source: p.source,
      model: entry.value.fit.model,
      stored_at: p.stored_at,
      data_version: entry.data_version,
      panel_data_version: p.panel_data_version,
      describes_current_panel: describes,
      imported_from: p.imported_from,
      available_sources: available,
      note,
    },
  };
}

const interval = (lower: number | null, upper: number | null) => (lower === null || upper === null ? null : { lower, upper });

export function predictorBody(s: PredictorSummary) {
  return {
    predictor: s.name,
    posterior_mean: s.mean,
    posterior_sd: s.sd,
    posterior_median: s.median,
    credible_interval_95: interval(s.ciLower, s.ciUpper),
    rate_ratio: s.rateRatio,
    rate_ratio_interval_95: interval(s.rateRatioLower, s.rateRatioUpper),
    prob_positive: s.probPositive,
    prob_negative: s.probNegative,
    rhat: s.rhat,
    ess_bulk: s.essBulk,
    ess_tail: s.essTail,
    interpretation: s.interpretation,
    source_interpretation: s.sourceInterpretation ?? null,
  };
}

export function parameterBody(s: ParameterSummary) {
  return {
    parameter: s.name,
    posterior_mean: s.mean,
    posterior_sd: s.sd,
    posterior_median: s.median,
    credible_interval_95: interval(s.ciLower, s.ciUpper),
    rhat: s.rhat,
    ess_bulk: s.essBulk,
    ess_tail: s.essTail,
  };
}

export const SCALE_NOTE =
  'Coefficients are on the log scale of the retraction rate per publication, per one standard deviation of the predictor across countries within a year; rate ratios are exp(coefficient).';

/** Conventional thresholds the diagnostics are compared with (Vehtari et al. 2021). */
export const DIAGNOSTIC_THRESHOLDS = { rhat_max: 1.01, ess_bulk_min: 400, ess_tail_min: 400, pareto_k_ok: 0.7 } as const;

export function diagnosticsBody(fit: FitResult) {
  const d = fit.diagnostics;
  const check = (value: number | null, ok: (v: number) => boolean) => (value === null ? null : ok(value));
  return {
    convergence: {
      rhat_max: d.rhatMax,
      rhat_max_parameter: d.rhatMaxParameter,
      ess_bulk_min: d.essBulkMin,
      ess_bulk_min_parameter: d.essBulkMinParameter,
      ess_tail_min: d.essTailMin,
      ess_tail_min_parameter: d.essTailMinParameter,
      ess_ratio_min: d.essRatioMin,
      ess_per_second: d.essPerSecond,
    },
    sampler: {
      chains: d.chains,
      iterations: d.iterations,
      warmup: d.warmup,
      draws: d.draws,
      divergences: d.divergences,
      warmup_divergences: d.warmupDivergences,
      tree_depth_saturation: d.treeDepthSaturation
        ? {
            count: d.treeDepthSaturation.count,
            fraction: d.treeDepthSaturation.fraction,
            max_tree_depth: d.treeDepthSaturation.maxTreeDepth,
          }
        : null,
      mean_accept_stat: d.meanAcceptStat,
      ebfmi_min: d.ebfmiMin,
      step_sizes: d.stepSizes,
      mean_tree_depth: d.meanTreeDepth,
      sampler_seconds: d.samplerSeconds,
    },
    loo: d.loo
      ? {
          elpd_loo: d.loo.elpdLoo,
          elpd_loo_se: d.loo.elpdLooSe,
          p_loo: d.loo.pLoo,
          p_loo_se: d.loo.pLooSe,
          looic: d.loo.looic,
          looic_se: d.loo.looicSe,
          pareto_k: d.loo.paretoK
            ? { good: d.loo.paretoK.good, ok: d.loo.paretoK.ok, bad: d.loo.paretoK.bad, very_bad: d.loo.paretoK.veryBad }
            : null,
          max_pareto_k: d.loo.maxParetoK,
        }
      : null,
    data: { sample_size: d.sampleSize, countries: d.countries, years: d.years },
    checks: {
      thresholds: DIAGNOSTIC_THRESHOLDS,
      rhat_below_threshold: check(d.rhatMax, (v) => v < DIAGNOSTIC_THRESHOLDS.rhat_max),
      ess_bulk_above_threshold: check(d.essBulkMin, (v) => v >= DIAGNOSTIC_THRESHOLDS.ess_bulk_min),
      ess_tail_above_threshold: check(d.essTailMin, (v) => v >= DIAGNOSTIC_THRESHOLDS.ess_tail_min),
      no_divergences: check(d.divergences, (v) => v === 0),
      pareto_k_all_ok: d.loo?.paretoK ? d.loo.paretoK.bad + d.loo.paretoK.veryBad === 0 : null,
    },
    timing: fit.timing
      ? {
          started_at: fit.timing.startedAt,
          finished_at: fit.timing.finishedAt,
          total_seconds: fit.timing.totalSeconds,
          sampler_seconds: fit.timing.samplerSeconds,
          warmup_seconds_per_chain: fit.timing.warmupSecondsPerChain,
          sampling_seconds_per_chain: fit.timing.samplingSecondsPerChain,
          postprocess_seconds: fit.timing.postprocessSeconds,
        }
      : null,
  };
}

export function methodologyBody(fit: FitResult) {
  const m = fit.methodology;
  return {
    model: {
      family: m.model.family,
      formula: m.model.formula,
      parameterisation: m.model.parameterisation,
      description: m.model.description,
    },
    priors: m.priors ? m.priors.map((p) => ({ parameter: p.parameter, distribution: p.distribution, text: p.text })) : null,
    priors_description: m.priorsDescription,
    sampler: {
      algorithm: m.sampler.algorithm,
      chains: m.sampler.chains,
      warmup: m.sampler.warmup,
      draws: m.sampler.draws,
      iterations: m.sampler.iterations,
      max_tree_depth: m.sampler.maxTreeDepth,
      target_acceptance: m.sampler.targetAcceptance,
      adaptation: m.sampler.adaptation,
      seed: m.sampler.seed,
      text: m.sampler.text,
    },
    variables: m.variables.map((v) => ({ name: v.name, role: v.role, definition: v.definition, source: v.source })),
    data_sources: m.dataSources.map((s) => ({ name: s.name, description: s.description ?? null, url: s.url ?? null })),
    data: {
      observations: m.data.observations,
      countries: m.data.countries,
      years: m.data.years,
      excluded_rows: m.data.excludedRows,
      exclusion_reasons: m.data.exclusionReasons,
      missing_data_method: m.data.missingDataMethod,
    },
    diagnostics_used: m.diagnosticsUsed,
    limitations: m.limitations,
    configuration: fit.config,
  };
}
