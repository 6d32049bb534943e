// Entry point: fit the democracy model to a panel and return summaries, diagnostics and methodology.
import { sampleChains, type ChainProgress, type ChainsResult } from './chains.ts';
import { resolveConfig } from './config.ts';
import { buildDesign, summariseDesign, type PanelDesign } from './design.ts';
import { diagnoseQuantity, ebfmi } from './diagnostics.ts';
import { buildMethodology } from './methodology.ts';
import { constrainedNames, NegBinPanelTarget, parameterLayout, PointwiseLogLik, type NegBinPanelData } from './model.ts';
import type { NutsSettings } from './nuts.ts';
import { psisLoo } from './psis.ts';
import { finiteOrNull, summariseParameter, summarisePredictor } from './summary.ts';
import type { DeepPartial, DemocracyModelConfig, Diagnostics, FitResult, LooSummary, PanelRow } from './types.ts';

export function panelData(design: PanelDesign): NegBinPanelData {
  return {
    n: design.n,
    k: design.k,
    nCountries: design.nCountries,
    nYears: design.nYears,
    y: design.y,
    logExposure: design.logExposure,
    x: design.x,
    country: design.country,
    year: design.year,
  };
}

export function nutsSettings(config: DemocracyModelConfig): NutsSettings {
  const s = config.sampler;
  return {
    warmup: s.warmup,
    draws: s.draws,
    maxTreeDepth: s.maxTreeDepth,
    targetAcceptance: s.targetAcceptance,
    maxEnergyError: s.maxEnergyError,
    initRadius: s.initRadius,
    initialMetric: s.initialMetric,
    adaptation: { ...s.adaptation },
  };
}

/** Constrained draws per quantity: one array of all draws (chain-major) and a view per chain. */
export interface ConstrainedDraws {
  names: string[];
  all: Float64Array[];
  byChain: Float64Array[][];
}

export function constrainDraws(design: PanelDesign, target: NegBinPanelTarget, result: ChainsResult): ConstrainedDraws {
  const names = constrainedNames(design.predictors, design.countries, design.years);
  const layout = target.layout;
  const chains = result.chains;
  const perChain = chains[0].draws;
  const total = perChain * chains.length;
  const all = names.map(() => new Float64Array(total));
  const row = new Float64Array(layout.dim);
  chains.forEach((chain, c) => {
    for (let s = 0; s < chain.draws; s++) {
      target.constrain(chain.samples.subarray(s * layout.dim, (s + 1) * layout.dim), row);
      const at = c * perChain + s;
      for (let q = 0; q < names.length; q++) all[q][at] = row[q];
    }
  });
  const byChain = all.map((a) => chains.map((_, c) => a.subarray(c * perChain, (c + 1) * perChain)));
  return { names, all, byChain };
}

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
  /** Per-chain progress, every few iterations (for a progress bar). */
  onProgress?: (progress: ChainProgress) => void;
}

/**
 * Fits retractions ~ NegBinomial2 with exposure log(publications), standardised predictors and country and
 * year effects by NUTS. Throws RangeError for an unusable panel or configuration.
 */
export async function fitDemocracyModel(
  panel: readonly PanelRow[],
  overrides: DeepPartial<DemocracyModelConfig> = {},
  hooks: FitHooks = {},
): Promise<FitResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const config = resolveConfig(overrides);
  const design = buildDesign(panel, config.predictors);
  if (design.n === 0) throw new RangeError('the panel has no complete rows to fit');
  const data = panelData(design);
  const sampler = config.sampler;
  const chainsResult = await sampleChains(
    { kind: 'negbin-panel', data, priors: config.priors, parameterisation: config.parameterisation },
    {
      chains: sampler.chains,
      seed: sampler.seed,
      settings: nutsSettings(config),
      parallelism: sampler.parallelism,
      maxWorkers: sampler.maxWorkers,
      onProgress: hooks.onProgress,
    },
  );
  const t1 = performance.now();

  const draws = constrainDraws(design, new NegBinPanelTarget(data, config.priors, config.parameterisation), chainsResult);
  const layout = parameterLayout(design.k, design.nCountries, design.nYears);
  const summaries = design.predictors.map((name, j) =>
    summarisePredictor(name, draws.byChain[layout.beta + j], config.variables[name]?.label),
  );
  const hyperparameters = [layout.alpha, layout.logSigmaCountry, layout.logSigmaYear, layout.logPhi].map((q) =>
    summariseParameter(draws.names[q], draws.byChain[q]),
  );

  // Convergence over every quantity, the country and year effects included.
  let rhatMax = -Infinity,
    rhatArg = '';
  let bulkMin = Infinity,
    bulkArg = '';
  let tailMin = Infinity,
    tailArg = '';
  draws.byChain.forEach((chains, q) => {
    const d = diagnoseQuantity(chains);
    if (d.rhat > rhatMax) {
      rhatMax = d.rhat;
      rhatArg = draws.names[q];
    }
    if (d.essBulk < bulkMin) {
      bulkMin = d.essBulk;
      bulkArg = draws.names[q];
    }
    if (d.essTail < tailMin) {
      tailMin = d.essTail;
      tailArg = draws.names[q];
    }
  });

  const chains = chainsResult.chains;
  const totalDraws = sampler.chains * sampler.draws;
  let divergences = 0,
    saturated = 0,
    acceptSum = 0,
    depthSum = 0,
    warmupDivergences = 0;
  for (const chain of chains) {
    warmupDivergences += chain.warmupDivergences;
    for (let s = 0; s < chain.draws; s++) {
      divergences += chain.divergent[s];
      if (chain.treeDepth[s] >= sampler.maxTreeDepth) saturated++;
      acceptSum += chain.acceptStat[s];
      depthSum += chain.treeDepth[s];
    }
  }

  let loo: LooSummary | null = null;
  if (config.loo) {
    const pointwise = new PointwiseLogLik(data, draws.all);
    const raw = psisLoo(design.n, totalDraws, sampler.chains, (i, out) => pointwise.compute(i, out)).summary;
    loo = {
      elpdLoo: finiteOrNull(raw.elpdLoo ?? NaN),
      elpdLooSe: finiteOrNull(raw.elpdLooSe ?? NaN),
      pLoo: finiteOrNull(raw.pLoo ?? NaN),
      pLooSe: finiteOrNull(raw.pLooSe ?? NaN),
      looic: finiteOrNull(raw.looic ?? NaN),
      looicSe: finiteOrNull(raw.looicSe ?? NaN),
      paretoK: raw.paretoK,
      maxParetoK: finiteOrNull(raw.maxParetoK ?? NaN),
    };
  }

  const dataSummary = summariseDesign(design);
  const samplerSeconds = chainsResult.wallSeconds;
  const diagnostics: Diagnostics = {
    rhatMax: finiteOrNull(rhatMax),
    rhatMaxParameter: rhatArg || null,
    essBulkMin: finiteOrNull(bulkMin),
    essBulkMinParameter: bulkArg || null,
    essTailMin: finiteOrNull(tailMin),
    essTailMinParameter: tailArg || null,
    essRatioMin: finiteOrNull(bulkMin / totalDraws),
    essPerSecond: finiteOrNull(bulkMin / samplerSeconds),
    divergences,
    warmupDivergences,
    treeDepthSaturation: { count: saturated, fraction: saturated / totalDraws, maxTreeDepth: sampler.maxTreeDepth },
    meanAcceptStat: acceptSum / totalDraws,
    ebfmiMin: finiteOrNull(Math.min(...chains.map((c) => ebfmi(c.energy)))),
    stepSizes: chains.map((c) => c.stepSize),
    meanTreeDepth: depthSum / totalDraws,
    chains: sampler.chains,
    iterations: sampler.warmup + sampler.draws,
    warmup: sampler.warmup,
    draws: sampler.draws,
    loo,
    sampleSize: design.n,
    countries: design.nCountries,
    years: dataSummary.years,
    samplerSeconds,
  };

  const methodology = buildMethodology(config, {
    data: dataSummary,
    predictors: design.predictors,
    constantWithinYear: design.constantWithinYear,
    strongestCorrelation: strongestCorrelation(design),
  });
  const t2 = performance.now();
  return {
    source: 'fitted',
    model: 'negbinomial2-country-year',
    predictors: [...design.predictors],
    summaries,
    hyperparameters,
    diagnostics,
    methodology,
    timing: {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      totalSeconds: (t2 - t0) / 1000,
      samplerSeconds,
      warmupSecondsPerChain: chains.map((c) => c.warmupSeconds),
      samplingSecondsPerChain: chains.map((c) => c.samplingSeconds),
      postprocessSeconds: (t2 - t1) / 1000,
    },
    data: dataSummary,
    config,
  };
}
