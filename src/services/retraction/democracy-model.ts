// The Bayesian model of democracy against retractions, as the service stores and serves it. Fits run on
// command (`pdi fit retraction`, ServiceModule.fit) through the engine in bayes/, never per request; a
// published fit (democracy_model_results.json) can be imported and is served as-is, marked as imported.
// Both are stored as aggregates with the data version of the run that stored them.
import path from 'node:path';
import type { Db } from '../../core/db/database.ts';
import { getAggregate, listDataVersions, putAggregate } from '../../core/db/datasets.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import { fitWithDraws } from './bayes/fit.ts';
import { DEFAULT_CONFIG } from './bayes/config.ts';
import { decodeDraws, type DrawsTable, type StoredDraws } from './bayes/draws.ts';
import { createProgress } from '../../core/progress.ts';
import { parsePublishedFit } from './bayes/imported.ts';
import type {
  CountFamily,
  DeepPartial,
  DemocracyModelConfig,
  FitResult,
  GroupEffectSummary,
  ModelPriors,
  ParameterSummary,
  PosteriorPredictiveCheck,
  PredictiveStatistic,
  PredictorSummary,
  SummaryMcse,
} from './bayes/types.ts';
import { DEMOCRACY_PREDICTOR, PANEL_AGGREGATES, modelPanel, readPanel } from './democracy.ts';
import type { PanelSummary } from './democracy.ts';
import { readFile } from 'node:fs/promises';
import { parseSourceJson } from '../../core/source-text.ts';
import { retractionDb, type RetractionDb } from './tables.ts';
import { defaultFitLabel, fitEntry, storeFitEntry } from './democracy-comparison.ts';
import type { LooPointwise } from './bayes/fit.ts';

export const MODEL_SOURCES = ['fitted', 'imported'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];
export const PANEL_DATASET = 'democracy-panel';

const aggregateName = (source: ModelSource) => `democracy_model:${source}`;
/** The posterior draws of the service's own fit, stored with the same data version as the fit. */
export const DRAWS_AGGREGATE = 'democracy_model_draws:fitted';

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
    /** Fitted: the options `pdi fit retraction` was given (absent in fits stored before they were recorded). */
    options?: FitOptions;
  };
}

/** What `pdi fit retraction` may choose; everything else is the default configuration (bayes/config.ts). */
export interface FitOptions {
  seed?: number | string;
  warmup?: number;
  draws?: number;
  chains?: number;
  /** Dual-averaging target acceptance (Stan's adapt_delta). */
  adaptDelta?: number;
  maxTreeDepth?: number;
  family?: CountFamily;
  priors?: DeepPartial<ModelPriors>;
  /** K-fold cross-validation by country after the fit (0 or absent: not run). */
  kfold?: number;
  posteriorPredictiveReplicates?: number;
  parallelism?: 'workers' | 'single';
  maxWorkers?: number | null;
  loo?: boolean;
  /** auto (default): centred, non-centred when that diverges; centred: never switch; non-centred: both effects non-centred. */
  parameterisation?: ParameterisationChoice;
  /** The name the fit is kept under beside the others (model comparison); default <family>-<parameterisation used>. */
  label?: string;
}

export const PARAMETERISATION_CHOICES = ['auto', 'centred', 'non-centred'] as const;
export type ParameterisationChoice = (typeof PARAMETERISATION_CHOICES)[number];

/** A fit's label: what a URL query and a file name can carry unchanged. */
export const FIT_LABEL = /^[A-Za-z0-9._-]{1,40}$/;

/** Prior names the command line accepts, with the only distribution the model has for each. */
const PRIOR_SPECS = {
  alpha: { key: 'intercept', distribution: 'normal', parameters: ['mean', 'sd'] },
  beta: { key: 'coefficients', distribution: 'normal', parameters: ['mean', 'sd'] },
  sigma_country: { key: 'sigmaCountry', distribution: 'exponential', parameters: ['rate'] },
  sigma_year: { key: 'sigmaYear', distribution: 'exponential', parameters: ['rate'] },
  phi: { key: 'dispersion', distribution: 'gamma', parameters: ['shape', 'rate'] },
} as const;

export const PRIOR_SYNTAX =
  'alpha=normal(mean,sd), beta=normal(mean,sd), sigma_country=exponential(rate), sigma_year=exponential(rate), phi=gamma(shape,rate)';

/** Parses `name=distribution(a,b)` (as in `--prior beta=normal(0,0.5)`) into a priors override; RangeError if malformed. */
export function parsePriorSpec(spec: string): DeepPartial<ModelPriors> {
  const match = /^\s*([a-z_]+)\s*=\s*([a-z]+)\s*\(([^)]*)\)\s*$/i.exec(spec);
  if (!match) throw new RangeError(`--prior ${JSON.stringify(spec)}: expected name=distribution(parameters), one of ${PRIOR_SYNTAX}`);
  const [, rawName, rawDistribution, rawArgs] = match;
  const name = rawName.toLowerCase();
  if (!Object.hasOwn(PRIOR_SPECS, name))
    throw new RangeError(`--prior: unknown parameter ${JSON.stringify(rawName)}; one of ${PRIOR_SYNTAX}`);
  const prior = PRIOR_SPECS[name as keyof typeof PRIOR_SPECS];
  if (rawDistribution.toLowerCase() !== prior.distribution)
    throw new RangeError(
      `--prior ${name}: the model's prior for ${name} is ${prior.distribution}(${prior.parameters.join(', ')}), not ${rawDistribution}`,
    );
  const values = rawArgs.split(',').map((v) => Number(v.trim()));
  if (values.length !== prior.parameters.length || values.some((v) => !Number.isFinite(v) || rawArgs.trim() === ''))
    throw new RangeError(
      `--prior ${name}: ${prior.distribution} takes ${prior.parameters.length} number(s): ${prior.parameters.join(', ')}`,
    );
  return { [prior.key]: Object.fromEntries(prior.parameters.map((p, i) => [p, values[i]])) };
}

/**
 * The fit options from `pdi fit retraction` flags (commander's camelCase keys): --seed, --iter (warmup + draws per
 * chain; warmup defaults to half, as in Stan), --warmup, --chains, --adapt-delta, --max-treedepth, --family,
 * --prior (repeatable), --kfold. Throws RangeError naming a flag with an unusable value.
 */
export function fitOptionsFromCli(options: Record<string, unknown>): FitOptions {
  const count = (flag: string, key: string, min: number): number | undefined => {
    const value = options[key];
    if (value === undefined) return undefined;
    const n = typeof value === 'string' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min) throw new RangeError(`--${flag} must be a whole number ≥ ${min}`);
    return n;
  };
  const out: FitOptions = {};
  if (options.seed !== undefined) {
    const seed = options.seed;
    if (typeof seed === 'number' && !Number.isInteger(seed)) throw new RangeError('--seed must be a whole number');
    if (typeof seed !== 'number' && typeof seed !== 'string') throw new RangeError('--seed must be a whole number');
    out.seed = seed;
  }
  const iter = count('iter', 'iter', 2);
  const warmup = count('warmup', 'warmup', 0);
  const draws = count('draws', 'draws', 1);
  if (iter !== undefined) {
    const w = warmup ?? Math.floor(iter / 2);
    if (w >= iter) throw new RangeError(`--warmup (${w}) must be less than --iter (${iter})`);
    out.warmup = w;
    out.draws = iter - w;
  } else {
    if (warmup !== undefined) out.warmup = warmup;
    if (draws !== undefined) out.draws = draws;
  }
  const chains = count('chains', 'chains', 1);
  if (chains !== undefined) out.chains = chains;
  const depth = count('max-treedepth', 'maxTreedepth', 1);
  if (depth !== undefined) out.maxTreeDepth = depth;
  const kfold = count('kfold', 'kfold', 0);
  if (kfold !== undefined) out.kfold = kfold;
  if (options.adaptDelta !== undefined) {
    const a = Number(options.adaptDelta);
    if (!(a > 0 && a < 1)) throw new RangeError('--adapt-delta must be a number between 0 and 1 (exclusive), e.g. 0.95');
    out.adaptDelta = a;
  }
  if (options.family !== undefined) {
    if (options.family !== 'negbinomial2' && options.family !== 'poisson') throw new RangeError('--family must be negbinomial2 or poisson');
    out.family = options.family;
  }
  if (options.parameterisation !== undefined) {
    const p = options.parameterisation;
    if (!PARAMETERISATION_CHOICES.includes(p as ParameterisationChoice))
      throw new RangeError(`--parameterisation must be one of ${PARAMETERISATION_CHOICES.join(', ')}`);
    out.parameterisation = p as ParameterisationChoice;
  }
  if (options.label !== undefined) {
    const label = String(options.label);
    if (!FIT_LABEL.test(label)) throw new RangeError('--label must be 1–40 letters, digits, dots, dashes or underscores');
    out.label = label;
  }
  if (options.prior !== undefined) {
    const specs = Array.isArray(options.prior) ? options.prior : [options.prior];
    let priors: DeepPartial<ModelPriors> = {};
    for (const spec of specs) priors = { ...priors, ...parsePriorSpec(String(spec)) };
    out.priors = priors;
  }
  return out;
}

/** The configuration overrides of a set of fit options (the data-derived parts are added by fitStoredPanel). */
export function fitOverrides(options: FitOptions): DeepPartial<DemocracyModelConfig> {
  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const p = options.parameterisation;
  return defined({
    family: options.family,
    nonCentredOnDivergence: p === undefined ? undefined : p === 'auto',
    parameterisation: p === 'non-centred' ? { countryEffects: 'non-centred' as const, yearEffects: 'non-centred' as const } : undefined,
    priors: options.priors,
    sampler: defined({
      seed: options.seed,
      warmup: options.warmup,
      draws: options.draws,
      chains: options.chains,
      targetAcceptance: options.adaptDelta,
      maxTreeDepth: options.maxTreeDepth,
      parallelism: options.parallelism,
      maxWorkers: options.maxWorkers,
    }),
    loo: options.loo,
    kfoldByCountry: options.kfold,
    posteriorPredictive:
      options.posteriorPredictiveReplicates === undefined ? undefined : { replicates: options.posteriorPredictiveReplicates },
  });
}

async function panelVersion(db: RetractionDb) {
  return (await listDataVersions(db, 'retraction')).find((v) => v.dataset === PANEL_DATASET) ?? null;
}

/**
 * Fits the model to the imported panel and stores the result, and its posterior draws, with a new data
 * version. The options given are recorded with the fit (provenance.options; the full configuration in fit.config).
 */
export async function fitStoredPanel(db: Db, options: FitOptions = {}): Promise<{ report: ImportReport; fit: FitResult; label: string }> {
  const rdb = retractionDb(db);
  const version = await panelVersion(rdb);
  const summary = await getAggregate<PanelSummary>(rdb, 'retraction', PANEL_AGGREGATES.summary);
  if (!version || !summary)
    throw new Error('no democracy panel imported yet: import one first (pdi import retraction <panel.csv> --kind panel)');
  const { rows, predictors } = modelPanel(await readPanel(rdb), summary.value.covariates);
  const source = version.source ? path.basename(version.source) : 'democracy panel';
  const overrides: DeepPartial<DemocracyModelConfig> = {
    ...fitOverrides(options),
    predictors,
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
  // A progress bar on a terminal: iterations done over all chains (then the k-fold refits, if asked for).
  const progress = createProgress({ label: 'retraction fit (MCMC iterations)', unit: 'iterations' });
  const perChain = new Map<number, number>();
  const chains = options.chains ?? DEFAULT_CONFIG.sampler.chains;
  let expected = 0;
  // Iterations of earlier attempts: a refit in another parameterisation (after divergences) starts its chains over.
  let earlier = 0;
  let result: { fit: FitResult; draws: StoredDraws; looPointwise: LooPointwise | null };
  try {
    result = await fitWithDraws(rows, overrides, {
      onProgress: ({ chain, completed, total }) => {
        if (expected === 0) progress.setTotal((expected = total * chains * (1 + (options.kfold ?? 0))));
        if (completed < (perChain.get(chain) ?? 0)) {
          earlier += [...perChain.values()].reduce((a, b) => a + b, 0);
          perChain.clear();
          progress.setTotal((expected += total * chains));
        }
        perChain.set(chain, completed);
        progress.update(earlier + [...perChain.values()].reduce((a, b) => a + b, 0));
      },
    });
  } finally {
    progress.stop();
  }
  const { fit, draws, looPointwise } = result;
  const label = options.label ?? defaultFitLabel(fit);
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
          options: structuredClone(options),
        },
      };
      await putAggregate(trx, 'retraction', aggregateName('fitted'), dataVersion, stored);
      await putAggregate(trx, 'retraction', DRAWS_AGGREGATE, dataVersion, draws);
      // Also kept under its label beside the other fits, for the paired comparison.
      const entry = fitEntry(label, fit, looPointwise, { version: version.version, isDemo: version.is_demo });
      await storeFitEntry(trx, dataVersion, entry, draws);
    },
  );
  return { report, fit, label };
}

const fixed = (value: number | null | undefined, digits: number) => (value === null || value === undefined ? '–' : value.toFixed(digits));

/** What `pdi fit retraction` prints: the headline numbers, what the clocks measured, and what to look at. */
export function fitReport(fit: FitResult, report: ImportReport, label?: string): string {
  const d = fit.diagnostics;
  const t = fit.timing;
  const lines = [
    `fitted ${fit.model}, ${fit.predictors.length} predictors on ${d.sampleSize} country-years (${d.countries} countries); data version ${report.data_version}` +
      (label ? `; kept as ${label} (GET /api/democracy/model-comparison/)` : ''),
    d.parameterisation ? `parameterisation: ${d.parameterisation.reason}` : '',
    `settings: ${d.chains} chains × (${d.warmup} warmup + ${d.draws} draws), adapt delta ${fit.config?.sampler.targetAcceptance}, seed ${String(fit.config?.sampler.seed)}` +
      (fit.choices && fit.choices.length > 0
        ? `; changed from the defaults: ${fit.choices.map((c) => c.setting).join(', ')}`
        : '; all defaults'),
    `R-hat max ${fixed(d.rhatMax, 4)} (${d.rhatMaxParameter}), bulk ESS min ${fixed(d.essBulkMin, 0)}, tail ESS min ${fixed(d.essTailMin, 0)}, divergences ${d.divergences}`,
    t
      ? `clock: sampler ${t.samplerSeconds.toFixed(1)} s wall-clock, ${fixed(t.samplerCpuSeconds, 1)} CPU-seconds in ${t.workers || 1} thread(s) ` +
        `(${t.availableCores} cores, load average ${t.loadAverageBefore.toFixed(2)} → ${t.loadAverageAfter.toFixed(2)}); ` +
        `bulk ESS min per wall-clock second ${fixed(d.essPerSecond, 1)}, per CPU-second ${fixed(d.essPerCpuSecond, 1)}; whole fit ${t.totalSeconds.toFixed(1)} s wall-clock`
      : '',
    ...fit.summaries.map(
      (s) =>
        `  ${s.name.padEnd(28)} β ${s.mean.toFixed(4).padStart(8)} (MCSE ${fixed(s.mcse?.mean, 4)})  95% [${fixed(s.ciLower, 4)}, ${fixed(s.ciUpper, 4)}]  ` +
        `RR ${s.rateRatio.toFixed(4)}  P(β<0) ${fixed(s.probNegative, 3)}`,
    ),
  ];
  if (d.loo) {
    lines.push(
      `PSIS-LOO elpd ${fixed(d.loo.elpdLoo, 1)} (SE ${fixed(d.loo.elpdLooSe, 1)}), p_loo ${fixed(d.loo.pLoo, 1)}` +
        (d.waic ? `; WAIC elpd ${d.waic.elpdWaic.toFixed(1)} (SE ${d.waic.elpdWaicSe.toFixed(1)}), p_waic ${d.waic.pWaic.toFixed(1)}` : ''),
    );
    if (d.loo.flaggedCount) {
      const named = (d.loo.flagged ?? [])
        .slice(0, 5)
        .map((f) => `${f.country} ${f.year} (k ${f.paretoK.toFixed(2)})`)
        .join(', ');
      lines.push(
        `Pareto k > 0.7 for ${d.loo.flaggedCount} observation(s): ${named}${d.loo.flaggedCount > 5 ? ', …' : ''}` +
          (d.kfold ? '' : ' — PSIS-LOO is unreliable there; `pdi fit retraction --kfold 10` adds 10-fold cross-validation by country'),
      );
    }
  }
  if (d.kfold)
    lines.push(
      `${d.kfold.folds}-fold by country: elpd joint per country ${d.kfold.elpdKfold.toFixed(1)} (SE ${d.kfold.elpdKfoldSe.toFixed(1)}), ` +
        `pointwise as brms::kfold ${fixed(d.kfold.elpdKfoldPointwise, 1)} (SE ${fixed(d.kfold.elpdKfoldPointwiseSe, 1)}), ${d.kfold.wallSeconds.toFixed(0)} s`,
    );
  const ppc = fit.posteriorPredictive;
  if (ppc) {
    lines.push(
      `posterior predictive checks (${ppc.replicates} replicates): ` +
        ppc.statistics.map((s) => `${s.name} p ${s.pValue.toFixed(3)}`).join(', ') +
        (ppc.flagged.length ? `; extreme: ${ppc.flagged.join(', ')}` : '; none extreme'),
    );
  }
  return lines.filter((l) => l !== '').join('\n');
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
  /**
   * Fitted: true when the panel the fit used was GENERATED (demo or simulated) data, false when imported real
   * data; null for an imported published fit (not fitted to a panel here) or when nothing is stored.
   */
  panel_generated: boolean | null;
  imported_from: string | null;
  available_sources: ModelSource[];
  note: string;
}

export interface ServedModel {
  info: ModelInfo;
  fit: FitResult | null;
  /** The datasets behind this model's numbers, for the response's data_source label. */
  datasets: string[];
}

export const PANEL_DATASETS = [PANEL_DATASET] as const;
const FIT_DATASETS: Record<ModelSource, string[]> = {
  fitted: [PANEL_DATASET, 'democracy-model-fit'],
  imported: ['democracy-published-fit'],
};

/** The requested model, or by default the service's own fit when there is one, else the imported one. */
export async function servedModel(db: RetractionDb, requested?: ModelSource): Promise<ServedModel> {
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
      datasets: [...PANEL_DATASETS],
      info: {
        status: 'not_fitted',
        source: null,
        model: null,
        stored_at: null,
        data_version: null,
        panel_data_version: null,
        describes_current_panel: false,
        panel_generated: null,
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
  } else {
    note = describes
      ? 'Fitted by this service to the current panel.'
      : 'Fitted by this service to an earlier version of the panel; run `pdi fit retraction` again to refit the current one.';
    if (p.panel_is_demo)
      note += ' The panel it was fitted to is GENERATED data: the estimates describe simulated data, not the real world.';
  }
  return {
    fit: entry.value.fit,
    datasets: FIT_DATASETS[p.source],
    info: {
      status: p.source,
      source: p.source,
      model: entry.value.fit.model,
      stored_at: p.stored_at,
      data_version: entry.data_version,
      panel_data_version: p.panel_data_version,
      describes_current_panel: describes,
      panel_generated: p.source === 'fitted' ? p.panel_is_demo : null,
      imported_from: p.imported_from,
      available_sources: available,
      note,
    },
  };
}

/** The stored draws of the service's own fit, or null when there is no fit (or it was stored before draws were). */
export async function storedDraws(db: RetractionDb): Promise<{ table: DrawsTable; data_version: string } | null> {
  const found = await getAggregate<StoredDraws>(db, 'retraction', DRAWS_AGGREGATE);
  return found ? { table: decodeDraws(found.value), data_version: found.data_version } : null;
}

/** One row per draw: .chain, .iteration (post-warmup, from 1), .draw (from 1), then the selected parameters. */
export function* drawRows(table: DrawsTable, indices: readonly number[]): Generator<number[]> {
  const { chains, drawsPerChain, columns } = table;
  for (let c = 0; c < chains; c++) {
    for (let s = 0; s < drawsPerChain; s++) {
      const at = c * drawsPerChain + s;
      const row = new Array<number>(3 + indices.length);
      row[0] = c + 1;
      row[1] = s + 1;
      row[2] = at + 1;
      for (let j = 0; j < indices.length; j++) row[3 + j] = columns[indices[j]][at];
      yield row;
    }
  }
}

export const DRAW_INDEX_COLUMNS = ['.chain', '.iteration', '.draw'] as const;

const interval = (lower: number | null, upper: number | null) => (lower === null || upper === null ? null : { lower, upper });

function mcseBody(m: SummaryMcse | null) {
  if (!m) return null;
  return {
    posterior_mean: m.mean,
    posterior_sd: m.sd,
    posterior_median: m.median,
    credible_interval_95: interval(m.ciLower, m.ciUpper),
  };
}

export function predictorBody(s: PredictorSummary) {
  const signKnown = s.probNegative !== null && s.probPositive !== null;
  const negative = signKnown && s.probNegative! >= s.probPositive!;
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
    sign: {
      direction: signKnown ? (negative ? ('negative' as const) : ('positive' as const)) : null,
      probability: signKnown ? (negative ? s.probNegative : s.probPositive) : null,
      mcse: s.mcse?.probPositive ?? null,
    },
    rhat: s.rhat,
    ess_bulk: s.essBulk,
    ess_tail: s.essTail,
    mcse: s.mcse
      ? {
          ...mcseBody(s.mcse)!,
          rate_ratio: s.mcse.rateRatio,
          rate_ratio_interval_95: interval(s.mcse.rateRatioLower, s.mcse.rateRatioUpper),
          prob_positive: s.mcse.probPositive,
        }
      : null,
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
    mcse: mcseBody(s.mcse),
  };
}

export function effectBody(e: GroupEffectSummary) {
  return { group: e.group, level: e.level, observations: e.observations, ...parameterBody(e) };
}

export const SCALE_NOTE =
  'Coefficients are on the log scale of the retraction rate per publication, per one standard deviation of the predictor across countries within a year; rate ratios are exp(coefficient).';

export const MCSE_NOTE =
  'mcse: Monte Carlo standard error of each reported number (how much it could move if the sampler ran again with another seed; Vehtari et al. 2021), next to R-hat and ESS. ' +
  'sign: the posterior probability of the more probable sign of the coefficient, with its MCSE, reported instead of whether an interval excludes 0.';

export const EFFECTS_NOTE =
  'Country effects u[c] and year effects v[t] on the log retraction rate per publication (deviations from the intercept alpha), with 95% credible intervals, R-hat, ESS and MCSE; ' +
  'observations: the panel rows of the country or year the fit used.';

/** Conventional thresholds the diagnostics are compared with (Vehtari et al. 2021). */
export const DIAGNOSTIC_THRESHOLDS = { rhat_max: 1.01, ess_bulk_min: 400, ess_tail_min: 400, pareto_k_ok: 0.7 } as const;

export const CLOCK_NOTE =
  'Wall-clock seconds (sampler_seconds, *_seconds_per_chain, total_seconds, ess_per_second) are elapsed real time under whatever load the machine had, ' +
  'with chains overlapping when they run in parallel threads; CPU seconds (cpu.*, ess_per_cpu_second) are the CPU time (user + system) of the threads that ran the chains, ' +
  'which load on other processes does not inflate. The load average before and after sampling says how busy the machine was.';

export const KFOLD_DEFINITIONS = {
  elpd_kfold:
    'elpd_kfold_joint: the sum over countries of log p(y_c | data without the fold of c), the rows of each left-out country predicted jointly as a new country ' +
    '(one new country effect, integrated out, shared by its rows). Larger than the pointwise figure, as the rows of a country predict each other.',
  elpd_kfold_pointwise:
    'elpd_kfold_pointwise, as brms::kfold reports it with folds grouped by country: the sum over left-out country-years of log (1/S) Σ_s p(y_i | θ_s), ' +
    "θ_s the draws of the fit without the row's fold, each row predicted alone with the new country effect integrated out per draw " +
    '(brms samples one per draw, an estimate of the same integral). Comparable with brms::kfold and loo::loo_compare on kfold objects.',
} as const;

export function diagnosticsBody(fit: FitResult) {
  const d = fit.diagnostics;
  const check = (value: number | null, ok: (v: number) => boolean) => (value === null ? null : ok(value));
  const flagged = d.loo?.flaggedCount ?? 0;
  return {
    parameterisation: d.parameterisation
      ? {
          country_effects: d.parameterisation.countryEffects,
          year_effects: d.parameterisation.yearEffects,
          switched: d.parameterisation.switched,
          reason: d.parameterisation.reason,
          attempts: d.parameterisation.attempts.map((a) => ({
            country_effects: a.countryEffects,
            year_effects: a.yearEffects,
            divergences: a.divergences,
          })),
        }
      : null,
    convergence: {
      rhat_max: d.rhatMax,
      rhat_max_parameter: d.rhatMaxParameter,
      ess_bulk_min: d.essBulkMin,
      ess_bulk_min_parameter: d.essBulkMinParameter,
      ess_tail_min: d.essTailMin,
      ess_tail_min_parameter: d.essTailMinParameter,
      ess_ratio_min: d.essRatioMin,
      ess_per_second: d.essPerSecond,
      ess_per_cpu_second: d.essPerCpuSecond ?? null,
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
      sampler_cpu_seconds: d.samplerCpuSeconds ?? null,
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
          flagged_count: d.loo.flaggedCount ?? null,
          flagged_observations: (d.loo.flagged ?? []).map((f) => ({
            country: f.country,
            year: f.year,
            retractions: f.retractions,
            publications: f.publications,
            pareto_k: f.paretoK,
            elpd_loo: f.elpdLoo,
          })),
          alternative:
            flagged > 0 && !d.kfold
              ? `${flagged} observation(s) have Pareto k > 0.7, where PSIS-LOO is unreliable: run \`pdi fit retraction --kfold 10\` for 10-fold cross-validation by country (refits the model ten times), served under kfold.`
              : null,
        }
      : null,
    waic: d.waic
      ? {
          elpd_waic: d.waic.elpdWaic,
          elpd_waic_se: d.waic.elpdWaicSe,
          p_waic: d.waic.pWaic,
          p_waic_se: d.waic.pWaicSe,
          waic: d.waic.waic,
          waic_se: d.waic.waicSe,
          p_waic_above_0_4: d.waic.pWaicAbove04,
        }
      : null,
    kfold: d.kfold
      ? {
          folds: d.kfold.folds,
          elpd_kfold: d.kfold.elpdKfold,
          elpd_kfold_se: d.kfold.elpdKfoldSe,
          kfoldic: d.kfold.kfoldic,
          p_kfold: d.kfold.pKfold,
          elpd_kfold_pointwise: d.kfold.elpdKfoldPointwise ?? null,
          elpd_kfold_pointwise_se: d.kfold.elpdKfoldPointwiseSe ?? null,
          kfoldic_pointwise: d.kfold.elpdKfoldPointwise === undefined ? null : -2 * d.kfold.elpdKfoldPointwise,
          definitions: KFOLD_DEFINITIONS,
          per_observation: d.kfold.perObservation ?? [],
          countries: d.kfold.countries,
          observations: d.kfold.observations,
          fold_countries: d.kfold.foldCountries,
          per_country: d.kfold.perCountry,
          refit_rhat_max: d.kfold.refitRhatMax,
          refit_ess_bulk_min: d.kfold.refitEssBulkMin,
          refit_divergences: d.kfold.refitDivergences,
          wall_seconds: d.kfold.wallSeconds,
          cpu_seconds: d.kfold.cpuSeconds,
          method: d.kfold.method,
        }
      : null,
    posterior_predictive: fit.posteriorPredictive
      ? {
          replicates: fit.posteriorPredictive.replicates,
          flagged: fit.posteriorPredictive.flagged,
          details: '/api/democracy/posterior-predictive/',
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
      posterior_predictive_none_extreme: fit.posteriorPredictive ? fit.posteriorPredictive.flagged.length === 0 : null,
    },
    timing: fit.timing
      ? {
          clock: CLOCK_NOTE,
          started_at: fit.timing.startedAt,
          finished_at: fit.timing.finishedAt,
          total_seconds: fit.timing.totalSeconds,
          sampler_seconds: fit.timing.samplerSeconds,
          warmup_seconds_per_chain: fit.timing.warmupSecondsPerChain,
          sampling_seconds_per_chain: fit.timing.samplingSecondsPerChain,
          postprocess_seconds: fit.timing.postprocessSeconds,
          cpu: {
            sampler_seconds: fit.timing.samplerCpuSeconds ?? null,
            warmup_seconds_per_chain: fit.timing.warmupCpuSecondsPerChain ?? null,
            sampling_seconds_per_chain: fit.timing.samplingCpuSecondsPerChain ?? null,
            postprocess_seconds: fit.timing.postprocessCpuSeconds ?? null,
          },
          machine: {
            worker_threads: fit.timing.workers ?? null,
            available_cores: fit.timing.availableCores ?? null,
            load_average_before: fit.timing.loadAverageBefore ?? null,
            load_average_after: fit.timing.loadAverageAfter ?? null,
          },
        }
      : null,
  };
}

function statisticBody(s: PredictiveStatistic) {
  return {
    name: s.name,
    description: s.description,
    observed: s.observed,
    replicated_mean: s.replicatedMean,
    replicated_sd: s.replicatedSd,
    replicated_interval_95: { lower: s.replicatedLower, upper: s.replicatedUpper },
    p_value: s.pValue,
    p_value_mid: s.pValueMid,
    mcse_p_value: s.mcsePValue,
    extreme: s.extreme,
  };
}

export const PREDICTIVE_NOTE =
  'Posterior predictive checks: replicated panels drawn from the model at evenly spaced posterior draws; for each statistic T, p_value = P(T(y_rep) ≥ T(y)) ' +
  '(Gelman, Meng & Stern 1996) and p_value_mid = P(T(y_rep) > T(y)) + ½P(T(y_rep) = T(y)), which splits ties of discrete statistics. extreme: p_value_mid below 0.025 or above 0.975 ' +
  '(the data lie outside the central 95% of what the model replicates). With many statistics (every year total) one in twenty is expected to be flagged by chance. ' +
  'rootogram: per count bin, observed and expected (mean over replicates) numbers of country-years with the 2.5–97.5% range of the replicated numbers, and their square roots; ' +
  'in a hanging rootogram each observed bar √observed hangs from √expected, so its bottom sits at hanging_bottom = √expected − √observed (0 for a perfect fit).';

export function predictiveBody(ppc: PosteriorPredictiveCheck) {
  return {
    replicates: ppc.replicates,
    seed: ppc.seed,
    statistics: ppc.statistics.map(statisticBody),
    year_totals: ppc.yearTotals.map((s) => ({ year: s.year, ...statisticBody(s) })),
    rootogram: ppc.rootogram.map((b) => ({
      label: b.label,
      lower: b.lower,
      upper: b.upper,
      observed: b.observed,
      expected: b.expected,
      expected_interval_95: { lower: b.expectedLower, upper: b.expectedUpper },
      sqrt_observed: b.sqrtObserved,
      sqrt_expected: b.sqrtExpected,
      hanging_bottom: b.hangingBottom,
    })),
    flagged: ppc.flagged,
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
    // The settings that differ from the defaults, and the whole configuration the fit ran with.
    choices: fit.choices ?? null,
    configuration: fit.config,
  };
}
