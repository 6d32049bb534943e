// Sampling the panel model's posterior: the design's numbers to a target, chains (in worker threads or on
// this thread), and the draws mapped back to the model's parameters. Shared by the fit and by k-fold refits.
import { sampleChains, type ChainProgress, type ChainsResult } from './chains.ts';
import type { PanelDesign } from './design.ts';
import { constrainedNames, NegBinPanelTarget, type NegBinPanelData } from './model.ts';
import type { NutsSettings } from './nuts.ts';
import type { DemocracyModelConfig } from './types.ts';

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

function nutsSettings(config: DemocracyModelConfig): NutsSettings {
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

function constrainDraws(design: PanelDesign, target: NegBinPanelTarget, result: ChainsResult): ConstrainedDraws {
  const names = constrainedNames(design.predictors, design.countries, design.years, target.family);
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

export interface PosteriorSample {
  data: NegBinPanelData;
  target: NegBinPanelTarget;
  chains: ChainsResult;
  draws: ConstrainedDraws;
}

/** Runs the configured chains on the design and returns the constrained draws with the raw chain output. */
export async function samplePosterior(
  design: PanelDesign,
  config: DemocracyModelConfig,
  onProgress?: (progress: ChainProgress) => void,
): Promise<PosteriorSample> {
  const data = panelData(design);
  const sampler = config.sampler;
  const chains = await sampleChains(
    { kind: 'negbin-panel', data, priors: config.priors, parameterisation: config.parameterisation, family: config.family },
    {
      chains: sampler.chains,
      seed: sampler.seed,
      settings: nutsSettings(config),
      parallelism: sampler.parallelism,
      maxWorkers: sampler.maxWorkers,
      onProgress,
    },
  );
  const target = new NegBinPanelTarget(data, config.priors, config.parameterisation, config.family);
  return { data, target, chains, draws: constrainDraws(design, target, chains) };
}
