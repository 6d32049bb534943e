// The democracy model's fit, for `npm run bench -- retraction` (section 5; `--only fit` runs it alone): bulk
// ESS per CPU-second of the sampling threads, for the default configuration and, as the baseline in the same
// run, the textbook parameterisation (non-centred country and year effects, unshifted coefficients, unit
// starting metric: what brms writes for this model), on the same simulated panel with the same seed and
// sampler lengths. CPU seconds are the threads' own (process.threadCpuUsage), so load from other processes
// inflates the wall clock but hardly the CPU time; both are printed, with the load average.
import os from 'node:os';
import { fitDemocracyModel } from '../src/services/retraction/bayes/fit.ts';
import { simulatePanel } from '../src/services/retraction/bayes/simulate.ts';
import type { DeepPartial, DemocracyModelConfig, FitResult } from '../src/services/retraction/bayes/types.ts';

export interface FitBenchOptions {
  countries: number;
  years: number;
  seed: string;
}

// The shape and truth of the demo panel (generate/generate.ts): five predictors, moderate overdispersion.
const PREDICTORS = ['democracy_index', 'gdp_per_capita_log', 'press_freedom', 'rnd_spending', 'english_proficiency'];
const TRUTH = {
  alpha: -6.6,
  beta: { democracy_index: -0.3, gdp_per_capita_log: -0.05, press_freedom: -0.05, rnd_spending: 0.08, english_proficiency: -0.05 },
  sigmaCountry: 0.8,
  sigmaYear: 0.15,
  phi: 6,
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function allBulkEss(fit: FitResult): number[] {
  const quantities = [...fit.summaries, ...fit.hyperparameters, ...(fit.effects?.country ?? []), ...(fit.effects?.year ?? [])];
  return quantities.map((q) => q.essBulk).filter((v): v is number => v !== null);
}

export async function benchmarkFit(options: FitBenchOptions): Promise<void> {
  const { rows } = simulatePanel({
    countries: options.countries,
    firstYear: 2006,
    years: options.years,
    predictors: PREDICTORS,
    truth: TRUTH,
    seed: options.seed,
  });
  // Each row measures its own parameterisation: no automatic non-centred refit on divergences.
  const common: DeepPartial<DemocracyModelConfig> = {
    loo: false,
    posteriorPredictive: { replicates: 0 },
    nonCentredOnDivergence: false,
    sampler: { seed: options.seed },
  };
  const configurations: [string, DeepPartial<DemocracyModelConfig>][] = [
    ['default (centred effects, shifted, curvature start)', common],
    [
      'baseline: textbook non-centred, unit start',
      {
        ...common,
        parameterisation: { countryEffects: 'non-centred', yearEffects: 'non-centred', shiftedCoefficients: false },
        sampler: { ...common.sampler, initialMetric: 'unit' },
      },
    ],
  ];
  console.log(
    `\n5. democracy model fit: ${options.countries} countries × ${options.years} years, ${PREDICTORS.length} predictors, NB2 with country and year effects; ` +
      `4 chains × (1000 warmup + 1000 draws) in worker threads; ${os.availableParallelism()} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    'configuration                                         wall s   CPU s   bulk ESS min (parameter)        ESS/CPU-s min   ESS/CPU-s median   ESS/wall-s min   R-hat max   divergences',
  );
  const perCpu: number[] = [];
  const perCpuMedian: number[] = [];
  for (const [label, overrides] of configurations) {
    const fit = await fitDemocracyModel(rows, overrides);
    const d = fit.diagnostics;
    const t = fit.timing!;
    const cpu = t.samplerCpuSeconds;
    const essMedian = median(allBulkEss(fit));
    perCpu.push(d.essPerCpuSecond ?? NaN);
    perCpuMedian.push(cpu ? essMedian / cpu : NaN);
    console.log(
      `${label.padEnd(52)} ${t.samplerSeconds.toFixed(1).padStart(7)} ${(cpu ?? NaN).toFixed(1).padStart(7)}   ` +
        `${`${d.essBulkMin!.toFixed(0)} (${d.essBulkMinParameter})`.padEnd(30)} ${(d.essPerCpuSecond ?? NaN).toFixed(1).padStart(14)} ` +
        `${(cpu ? essMedian / cpu : NaN).toFixed(1).padStart(18)} ${(d.essPerSecond ?? NaN).toFixed(1).padStart(16)} ${d.rhatMax!.toFixed(4).padStart(11)} ${String(d.divergences).padStart(13)}`,
    );
  }
  console.log(
    `ratio default / baseline: ESS per CPU-second ${(perCpu[0] / perCpu[1]).toFixed(2)}× (smallest bulk ESS), ${(perCpuMedian[0] / perCpuMedian[1]).toFixed(2)}× (median over all quantities)`,
  );
  console.log(
    '(one fit each, same panel and seed; CPU s: user + system time of the chain threads (process.threadCpuUsage), warmup included; wall s: first chain start to last chain end)',
  );
}
