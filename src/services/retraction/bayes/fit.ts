// Entry point: fit the democracy model to a panel and return summaries, diagnostics, checks and methodology.
import { availableParallelism, loadavg } from 'node:os';
import type { ChainProgress } from './chains.ts';
import { configChoices, resolveConfig } from './config.ts';
import { buildDesign, summariseDesign, type PanelDesign } from './design.ts';
import { ebfmi } from './diagnostics.ts';
import { encodeDraws, type StoredDraws } from './draws.ts';
import { kfoldByCountry } from './kfold.ts';
import { buildMethodology } from './methodology.ts';
import { PointwiseLogLik } from './model.ts';
import { threadCpuSeconds, type ChainOutput } from './nuts.ts';
import { sampleWithParameterisationChoice } from './parameterisation.ts';
import type { PosteriorSample } from './posterior.ts';
import { posteriorPredictiveCheck } from './ppc.ts';
import { psisLoo } from './psis.ts';
import { finiteOrNull, summariseParameter, summarisePredictor } from './summary.ts';
import type {
  DeepPartial,
  DemocracyModelConfig,
  Diagnostics,
  FitResult,
  FlaggedObservation,
  GroupEffectSummary,
  KFoldSummary,
  LooSummary,
  PanelRow,
  ParameterSummary,
  PosteriorPredictiveCheck,
  WaicSummary,
} from './types.ts';

// The sampling helpers moved to posterior.ts; re-exported for the callers that import them from here.
export { panelData } from './posterior.ts';

/** At most this many flagged observations are listed (all are counted). */
const FLAGGED_LIMIT = 100;

function strongestCorrelation(design: PanelDesign): { a: string; b: string; r: number } | null {
  const { n, k, x } = design;
  if (k < 2 || n < 3) return null;
  const mean = new Float64Array(k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) mean[j] += x[i * k + j] / n;
  let best: { a: string; b: string; r: number } | null = null;
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      let sab = 0,
        saa = 0,
        sbb = 0;
      for (let i = 0; i < n; i++) {
        const da = x[i * k + a] - mean[a];
        const db = x[i * k + b] - mean[b];
        sab += da * db;
        saa += da * da;
        sbb += db * db;
      }
      const r = saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
      if (!best || Math.abs(r) > Math.abs(best.r)) best = { a: design.predictors[a], b: design.predictors[b], r };
    }
  }
  return best;
}

/** Run-time hooks of a fit; not part of the configuration (they do not change the result). */
export interface FitHooks {
  /** Per-chain progress, every few iterations (for a progress bar); k-fold refits' chains follow the fit's. */
  onProgress?: (progress: ChainProgress) => void;
  /** Called as each k-fold refit starts. */
  onFold?: (fold: number, folds: number) => void;
}

function groupEffects(design: PanelDesign, names: string[], byChain: Float64Array[][], first: number): GroupEffectSummary[][] {
  const rowsPerCountry = new Array<number>(design.nCountries).fill(0);
  const rowsPerYear = new Array<number>(design.nYears).fill(0);
  for (let i = 0; i < design.n; i++) {
    rowsPerCountry[design.country[i]]++;
    rowsPerYear[design.year[i]]++;
  }
  const country = design.countries.map((level, c) => ({
    ...summariseParameter(names[first + c], byChain[first + c]),
    group: 'country' as const,
    level,
    observations: rowsPerCountry[c],
  }));
  const yearFirst = first + design.nCountries;
  const year = design.years.map((level, t) => ({
    ...summariseParameter(names[yearFirst + t], byChain[yearFirst + t]),
    group: 'year' as const,
    level: String(level),
    observations: rowsPerYear[t],
  }));
  return [country, year];
}

const sumOrNull = (values: (number | null)[]) => (values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0));

/**
 * Fits retractions ~ NegBinomial2 (or Poisson) with exposure log(publications), standardised predictors and
 * country and year effects by NUTS; then summaries with Monte Carlo standard errors, convergence diagnostics,
 * PSIS-LOO and WAIC, posterior predictive checks and, when configured, k-fold cross-validation by country.
 * Throws RangeError for an unusable panel or configuration.
 */
export async function fitDemocracyModel(
  panel: readonly PanelRow[],
  overrides: DeepPartial<DemocracyModelConfig> = {},
  hooks: FitHooks = {},
): Promise<FitResult> {
  return (await fitWithDraws(panel, overrides, hooks)).fit;
}

/** The PSIS-LOO terms of each observation (null when LOO is off), for paired model comparison. */
export interface LooPointwise {
  country: string[];
  year: number[];
  elpdLoo: number[];
  paretoK: number[];
}

type ConvergenceSummary = Pick<ParameterSummary, 'name' | 'rhat' | 'essBulk' | 'essTail'>;

/**
 * Convergence over every quantity, the country and year effects included: the largest R̂ and the smallest bulk and
 * tail ESS, each with its quantity. The summaries hold each quantity's R̂ and ESS (null where not finite, e.g. a
 * constant), so nothing is computed twice.
 */
function convergenceExtremes(names: readonly string[], quantities: readonly ConvergenceSummary[]) {
  let rhatMax = -Infinity,
    rhatArg = '';
  let bulkMin = Infinity,
    bulkArg = '';
  let tailMin = Infinity,
    tailArg = '';
  const byName = new Map(quantities.map((s) => [s.name, s]));
  for (const name of names) {
    const d = byName.get(name);
    if (!d) continue;
    if (d.rhat !== null && d.rhat > rhatMax) {
      rhatMax = d.rhat;
      rhatArg = name;
    }
    if (d.essBulk !== null && d.essBulk < bulkMin) {
      bulkMin = d.essBulk;
      bulkArg = name;
    }
    if (d.essTail !== null && d.essTail < tailMin) {
      tailMin = d.essTail;
      tailArg = name;
    }
  }
  return { rhatMax, rhatArg, bulkMin, bulkArg, tailMin, tailArg };
}

/** The sampler's behaviour over the post-warmup draws of every chain (and the warmup's divergences). */
function samplerTotals(chains: readonly ChainOutput[], maxTreeDepth: number) {
  let divergences = 0,
    saturated = 0,
    acceptSum = 0,
    depthSum = 0,
    warmupDivergences = 0;
  for (const chain of chains) {
    warmupDivergences += chain.warmupDivergences;
    for (let s = 0; s < chain.draws; s++) {
      divergences += chain.divergent[s];
      if (chain.treeDepth[s] >= maxTreeDepth) saturated++;
      acceptSum += chain.acceptStat[s];
      depthSum += chain.treeDepth[s];
    }
  }
  return { divergences, saturated, acceptSum, depthSum, warmupDivergences };
}

/** PSIS-LOO and WAIC of the fit, the observations whose Pareto k is above 0.7, and the pointwise LOO terms. */
function looAndWaic(
  design: PanelDesign,
  pointwise: PointwiseLogLik,
  totalDraws: number,
  chains: number,
): { loo: LooSummary; waic: WaicSummary; looPointwise: LooPointwise } {
  const result = psisLoo(design.n, totalDraws, chains, (i, out) => pointwise.compute(i, out));
  const looPointwise = {
    country: Array.from(design.country, (c) => design.countries[c]),
    year: Array.from(design.year, (t) => design.years[t]),
    elpdLoo: Array.from(result.pointwise.elpd),
    paretoK: Array.from(result.pointwise.paretoK),
  };
  const raw = result.summary;
  const flagged: FlaggedObservation[] = [];
  result.pointwise.paretoK.forEach((k, i) => {
    if (k > 0.7) {
      flagged.push({
        country: design.countries[design.country[i]],
        year: design.years[design.year[i]],
        retractions: design.y[i],
        publications: Math.round(Math.exp(design.logExposure[i])),
        paretoK: k,
        elpdLoo: result.pointwise.elpd[i],
      });
    }
  });
  flagged.sort((a, b) => b.paretoK - a.paretoK);
  const loo = {
    elpdLoo: finiteOrNull(raw.elpdLoo ?? NaN),
    elpdLooSe: finiteOrNull(raw.elpdLooSe ?? NaN),
    pLoo: finiteOrNull(raw.pLoo ?? NaN),
    pLooSe: finiteOrNull(raw.pLooSe ?? NaN),
    looic: finiteOrNull(raw.looic ?? NaN),
    looicSe: finiteOrNull(raw.looicSe ?? NaN),
    paretoK: raw.paretoK,
    maxParetoK: finiteOrNull(raw.maxParetoK ?? NaN),
    flagged: flagged.slice(0, FLAGGED_LIMIT),
    flaggedCount: flagged.length,
  };
  return { loo, waic: result.waic, looPointwise };
}

/**
 * How well the fit predicts, each check as configured (null when off): PSIS-LOO and WAIC, the posterior predictive
 * checks, and k-fold cross-validation by country (refitted with `used`, the parameterisation the draws came from).
 */
async function predictiveChecks(
  panel: readonly PanelRow[],
  design: PanelDesign,
  sample: PosteriorSample,
  config: DemocracyModelConfig,
  used: DemocracyModelConfig,
  hooks: FitHooks,
) {
  const { data, draws } = sample;
  const sampler = config.sampler;
  const pointwise = new PointwiseLogLik(data, draws.all, config.family);
  const { loo, waic, looPointwise } = config.loo
    ? looAndWaic(design, pointwise, sampler.chains * sampler.draws, sampler.chains)
    : { loo: null, waic: null, looPointwise: null };

  let posteriorPredictive: PosteriorPredictiveCheck | null = null;
  if (config.posteriorPredictive.replicates > 0) {
    posteriorPredictive = posteriorPredictiveCheck({
      data,
      years: design.years,
      pointwise,
      chains: sampler.chains,
      replicates: config.posteriorPredictive.replicates,
      seed: sampler.seed,
    });
  }

  let kfold: KFoldSummary | null = null;
  if (config.kfoldByCountry > 0) {
    kfold = await kfoldByCountry(panel, used, config.kfoldByCountry, {
      full: { design, draws },
      onFold: hooks.onFold,
      onProgress: hooks.onProgress,
    });
  }
  return { loo, waic, looPointwise, posteriorPredictive, kfold };
}

/** fitDemocracyModel, the posterior draws of every quantity in their stored form, and the pointwise PSIS-LOO terms. */
export async function fitWithDraws(
  panel: readonly PanelRow[],
  overrides: DeepPartial<DemocracyModelConfig> = {},
  hooks: FitHooks = {},
): Promise<{ fit: FitResult; draws: StoredDraws; looPointwise: LooPointwise | null }> {
  const startedAt = new Date();
  const t0 = performance.now();
  const config = resolveConfig(overrides);
  const design = buildDesign(panel, config.predictors);
  if (design.n === 0) throw new RangeError('the panel has no complete rows to fit');
  if (config.kfoldByCountry > design.nCountries)
    throw new RangeError(`kfoldByCountry (${config.kfoldByCountry}) exceeds the number of countries (${design.nCountries})`);
  const sampler = config.sampler;
  const loadBefore = loadavg()[0];
  // The configured parameterisation, or a non-centred one when that diverged; `used` is what the draws came from.
  const { sample, config: used, report: parameterisation } = await sampleWithParameterisationChoice(design, config, hooks.onProgress);
  const loadAfter = loadavg()[0];
  const t1 = performance.now();
  const cpu1 = threadCpuSeconds();
  const { draws, target } = sample;
  const chainsResult = sample.chains;
  const layout = target.layout;

  const summaries = design.predictors.map((name, j) =>
    summarisePredictor(name, draws.byChain[layout.beta + j], config.variables[name]?.label),
  );
  const hyperparameters = [layout.alpha, layout.logSigmaCountry, layout.logSigmaYear, layout.logPhi]
    .filter((q) => q >= 0)
    .map((q) => summariseParameter(draws.names[q], draws.byChain[q]));
  const [countryEffects, yearEffects] = groupEffects(design, draws.names, draws.byChain, layout.countryBlock);
  const extremes = convergenceExtremes(draws.names, [...summaries, ...hyperparameters, ...countryEffects, ...yearEffects]);

  const chains = chainsResult.chains;
  const totalDraws = sampler.chains * sampler.draws;
  const totals = samplerTotals(chains, sampler.maxTreeDepth);

  const { loo, waic, looPointwise, posteriorPredictive, kfold } = await predictiveChecks(panel, design, sample, config, used, hooks);

  const dataSummary = summariseDesign(design);
  const samplerSeconds = chainsResult.wallSeconds;
  const warmupCpu = chains.map((c) => c.warmupCpuSeconds);
  const samplingCpu = chains.map((c) => c.samplingCpuSeconds);
  const samplerCpuSeconds = sumOrNull([...warmupCpu, ...samplingCpu]);
  const { bulkMin } = extremes;
  const diagnostics: Diagnostics = {
    parameterisation,
    rhatMax: finiteOrNull(extremes.rhatMax),
    rhatMaxParameter: extremes.rhatArg || null,
    essBulkMin: finiteOrNull(bulkMin),
    essBulkMinParameter: extremes.bulkArg || null,
    essTailMin: finiteOrNull(extremes.tailMin),
    essTailMinParameter: extremes.tailArg || null,
    essRatioMin: finiteOrNull(bulkMin / totalDraws),
    essPerSecond: finiteOrNull(bulkMin / samplerSeconds),
    essPerCpuSecond: samplerCpuSeconds === null ? null : finiteOrNull(bulkMin / samplerCpuSeconds),
    divergences: totals.divergences,
    warmupDivergences: totals.warmupDivergences,
    treeDepthSaturation: { count: totals.saturated, fraction: totals.saturated / totalDraws, maxTreeDepth: sampler.maxTreeDepth },
    meanAcceptStat: totals.acceptSum / totalDraws,
    ebfmiMin: finiteOrNull(Math.min(...chains.map((c) => ebfmi(c.energy)))),
    stepSizes: chains.map((c) => c.stepSize),
    meanTreeDepth: totals.depthSum / totalDraws,
    chains: sampler.chains,
    iterations: sampler.warmup + sampler.draws,
    warmup: sampler.warmup,
    draws: sampler.draws,
    loo,
    waic,
    kfold,
    sampleSize: design.n,
    countries: design.nCountries,
    years: dataSummary.years,
    samplerSeconds,
    samplerCpuSeconds,
  };

  const methodology = buildMethodology(used, {
    data: dataSummary,
    predictors: design.predictors,
    constantWithinYear: design.constantWithinYear,
    strongestCorrelation: strongestCorrelation(design),
  });
  const t2 = performance.now();
  const cpu2 = threadCpuSeconds();
  const fit: FitResult = {
    source: 'fitted',
    model: config.family === 'poisson' ? 'poisson-country-year' : 'negbinomial2-country-year',
    predictors: [...design.predictors],
    summaries,
    hyperparameters,
    effects: { country: countryEffects, year: yearEffects },
    posteriorPredictive,
    diagnostics,
    methodology,
    timing: {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      totalSeconds: (t2 - t0) / 1000,
      samplerSeconds,
      warmupSecondsPerChain: chains.map((c) => c.warmupSeconds),
      samplingSecondsPerChain: chains.map((c) => c.samplingSeconds),
      samplerCpuSeconds,
      warmupCpuSecondsPerChain: warmupCpu,
      samplingCpuSecondsPerChain: samplingCpu,
      // Post-processing excludes the k-fold refits, which report their own time.
      postprocessSeconds: (t2 - t1) / 1000 - (kfold?.wallSeconds ?? 0),
      // The k-fold refits' chains run in worker threads (their CPU is reported with them); their quadrature runs here.
      postprocessCpuSeconds: cpu1 === null || cpu2 === null ? null : cpu2 - cpu1,
      workers: chainsResult.workers,
      availableCores: availableParallelism(),
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
    },
    data: dataSummary,
    config,
    choices: configChoices(config),
  };
  return { fit, draws: encodeDraws(draws, sampler.chains, sampler.warmup), looPointwise };
}
