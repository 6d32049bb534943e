// The automatic choice of parameterisation. The centred forms (model.ts) mix best when the data pin each
// effect down; with weak or very noisy data (strong overdispersion, few rows per year) the posterior of the
// effects and their scale forms a funnel that the centred coordinates cannot follow, and NUTS reports
// divergent transitions. The non-centred forms remove the funnel. Every parameterisation has the same
// posterior, so switching changes how well it is explored, not what is estimated.
import type { ChainProgress } from './chains.ts';
import type { PanelDesign } from './design.ts';
import { samplePosterior, type PosteriorSample } from './posterior.ts';
import type { DemocracyModelConfig, ParameterisationAttempt, ParameterisationReport } from './types.ts';

function postWarmupDivergences(sample: PosteriorSample): number {
  let divergences = 0;
  for (const chain of sample.chains.chains) for (let s = 0; s < chain.draws; s++) divergences += chain.divergent[s];
  return divergences;
}

/** The refits to try after the configured one diverges: year effects non-centred, then the country effects too. */
export function fallbackParameterisations(config: DemocracyModelConfig): DemocracyModelConfig['parameterisation'][] {
  const p = config.parameterisation;
  const out: DemocracyModelConfig['parameterisation'][] = [];
  if (p.yearEffects === 'centred') out.push({ ...p, yearEffects: 'non-centred' });
  if (p.countryEffects === 'centred') out.push({ ...p, yearEffects: 'non-centred', countryEffects: 'non-centred' });
  return out;
}

const describe = (a: { countryEffects: string; yearEffects: string }) =>
  `year effects ${a.yearEffects}, country effects ${a.countryEffects}`;

/**
 * Samples in the configured parameterisation; when that has divergent transitions after warmup and
 * config.nonCentredOnDivergence is set, refits in the fallbacks in turn until one has none, and keeps the
 * fit with the fewest divergences (the earliest on a tie). Returns the kept sample, the configuration it
 * ran with and the report for the diagnostics.
 */
export async function sampleWithParameterisationChoice(
  design: PanelDesign,
  config: DemocracyModelConfig,
  onProgress?: (progress: ChainProgress) => void,
): Promise<{ sample: PosteriorSample; config: DemocracyModelConfig; report: ParameterisationReport }> {
  let best = { sample: await samplePosterior(design, config, onProgress), config };
  let bestDivergences = postWarmupDivergences(best.sample);
  const attempts: ParameterisationAttempt[] = [
    {
      countryEffects: config.parameterisation.countryEffects,
      yearEffects: config.parameterisation.yearEffects,
      divergences: bestDivergences,
    },
  ];
  if (config.nonCentredOnDivergence && bestDivergences > 0) {
    for (const parameterisation of fallbackParameterisations(config)) {
      const next = { ...config, parameterisation };
      const sample = await samplePosterior(design, next, onProgress);
      const divergences = postWarmupDivergences(sample);
      attempts.push({ countryEffects: parameterisation.countryEffects, yearEffects: parameterisation.yearEffects, divergences });
      if (divergences < bestDivergences) {
        best = { sample, config: next };
        bestDivergences = divergences;
      }
      if (divergences === 0) break;
    }
  }
  const used = best.config.parameterisation;
  const switched = used !== config.parameterisation;
  const first = attempts[0];
  let reason: string;
  if (first.divergences === 0) reason = `the configured parameterisation (${describe(first)}) had no divergent transitions after warmup`;
  else if (!config.nonCentredOnDivergence)
    reason = `the configured parameterisation (${describe(first)}) had ${first.divergences} divergent transition(s); the automatic switch is off`;
  else if (attempts.length === 1)
    reason = `the configured parameterisation (${describe(first)}) had ${first.divergences} divergent transition(s) and has no non-centred alternative`;
  else {
    const tried = attempts
      .slice(1)
      .map((a) => `${describe(a)}: ${a.divergences}`)
      .join('; ');
    reason = switched
      ? `the configured parameterisation (${describe(first)}) had ${first.divergences} divergent transition(s) after warmup, a sign of a funnel between the effects ` +
        `and their scale; refitted non-centred (${tried}) and kept ${describe(used)}, the fewest divergences`
      : `the configured parameterisation (${describe(first)}) had ${first.divergences} divergent transition(s); the non-centred refits did no better (${tried}), so it is kept`;
  }
  return {
    sample: best.sample,
    config: best.config,
    report: { countryEffects: used.countryEffects, yearEffects: used.yearEffects, switched, reason, attempts },
  };
}
