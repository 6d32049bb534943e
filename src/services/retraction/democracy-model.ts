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
import type { CountFamily, DeepPartial, DemocracyModelConfig, FitResult, ModelPriors } from './bayes/types.ts';
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
const DRAWS_AGGREGATE = 'democracy_model_draws:fitted';

interface StoredModel {
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

const PARAMETERISATION_CHOICES = ['auto', 'centred', 'non-centred'] as const;
type ParameterisationChoice = (typeof PARAMETERISATION_CHOICES)[number];

/** A fit's label: what a URL query and a file name can carry unchanged. */
const FIT_LABEL = /^[A-Za-z0-9._-]{1,40}$/;

/** Prior names the command line accepts, with the only distribution the model has for each. */
const PRIOR_SPECS = {
  alpha: { key: 'intercept', distribution: 'normal', parameters: ['mean', 'sd'] },
  beta: { key: 'coefficients', distribution: 'normal', parameters: ['mean', 'sd'] },
  sigma_country: { key: 'sigmaCountry', distribution: 'exponential', parameters: ['rate'] },
  sigma_year: { key: 'sigmaYear', distribution: 'exponential', parameters: ['rate'] },
  phi: { key: 'dispersion', distribution: 'gamma', parameters: ['shape', 'rate'] },
} as const;

const PRIOR_SYNTAX =
  'alpha=normal(mean,sd), beta=normal(mean,sd), sigma_country=exponential(rate), sigma_year=exponential(rate), phi=gamma(shape,rate)';

/** Parses `name=distribution(a,b)` (as in `--prior beta=normal(0,0.5)`) into a priors override; RangeError if malformed. */
function parsePriorSpec(spec: string): DeepPartial<ModelPriors> {
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
function canonicalJson(value: unknown): string {
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

// The endpoints' bodies live in democracy-bodies.ts; re-exported for the callers that import them from here.
export * from './democracy-bodies.ts';
