// The JSON bodies of the democracy model's endpoints: summaries, effects, diagnostics, predictive checks and
// methodology in the API's snake_case shape, with the notes that document them (schemas/democracy.ts).
import type {
  Diagnostics,
  FitResult,
  GroupEffectSummary,
  KFoldSummary,
  ParameterSummary,
  PosteriorPredictiveCheck,
  PredictiveStatistic,
  PredictorSummary,
  SummaryMcse,
} from './bayes/types.ts';

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

const KFOLD_DEFINITIONS = {
  elpd_kfold:
    'elpd_kfold_joint: the sum over countries of log p(y_c | data without the fold of c), the rows of each left-out country predicted jointly as a new country ' +
    '(one new country effect, integrated out, shared by its rows). It may be above or below the pointwise figure: compare models on the same figure.',
  elpd_kfold_pointwise:
    'elpd_kfold_pointwise, as brms::kfold reports it with folds grouped by country: the sum over left-out country-years of log (1/S) Σ_s p(y_i | θ_s), ' +
    "θ_s the draws of the fit without the row's fold, each row predicted alone with the new country effect integrated out per draw " +
    '(brms samples one per draw, an estimate of the same integral). Comparable with brms::kfold and loo::loo_compare on kfold objects.',
} as const;

/** PSIS-LOO in the API's shape, with the k-fold command to run when Pareto k flags observations and k-fold has not run. */
function looBody(d: Diagnostics) {
  if (!d.loo) return null;
  const flagged = d.loo.flaggedCount ?? 0;
  return {
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
  };
}

function kfoldBody(kfold: KFoldSummary | null) {
  if (!kfold) return null;
  return {
    folds: kfold.folds,
    elpd_kfold: kfold.elpdKfold,
    elpd_kfold_se: kfold.elpdKfoldSe,
    kfoldic: kfold.kfoldic,
    p_kfold: kfold.pKfold,
    elpd_kfold_pointwise: kfold.elpdKfoldPointwise ?? null,
    elpd_kfold_pointwise_se: kfold.elpdKfoldPointwiseSe ?? null,
    kfoldic_pointwise: kfold.elpdKfoldPointwise === undefined ? null : -2 * kfold.elpdKfoldPointwise,
    definitions: KFOLD_DEFINITIONS,
    per_observation: kfold.perObservation ?? [],
    countries: kfold.countries,
    observations: kfold.observations,
    fold_countries: kfold.foldCountries,
    per_country: kfold.perCountry,
    refit_rhat_max: kfold.refitRhatMax,
    refit_ess_bulk_min: kfold.refitEssBulkMin,
    refit_divergences: kfold.refitDivergences,
    wall_seconds: kfold.wallSeconds,
    cpu_seconds: kfold.cpuSeconds,
    method: kfold.method,
  };
}

/** The fit's wall-clock and CPU times, with the machine's load around sampling (CLOCK_NOTE says how to read them). */
function timingBody(timing: FitResult['timing']) {
  if (!timing) return null;
  return {
    clock: CLOCK_NOTE,
    started_at: timing.startedAt,
    finished_at: timing.finishedAt,
    total_seconds: timing.totalSeconds,
    sampler_seconds: timing.samplerSeconds,
    warmup_seconds_per_chain: timing.warmupSecondsPerChain,
    sampling_seconds_per_chain: timing.samplingSecondsPerChain,
    postprocess_seconds: timing.postprocessSeconds,
    cpu: {
      sampler_seconds: timing.samplerCpuSeconds ?? null,
      warmup_seconds_per_chain: timing.warmupCpuSecondsPerChain ?? null,
      sampling_seconds_per_chain: timing.samplingCpuSecondsPerChain ?? null,
      postprocess_seconds: timing.postprocessCpuSeconds ?? null,
    },
    machine: {
      worker_threads: timing.workers ?? null,
      available_cores: timing.availableCores ?? null,
      load_average_before: timing.loadAverageBefore ?? null,
      load_average_after: timing.loadAverageAfter ?? null,
    },
  };
}

export function diagnosticsBody(fit: FitResult) {
  const d = fit.diagnostics;
  const check = (value: number | null, ok: (v: number) => boolean) => (value === null ? null : ok(value));
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
    loo: looBody(d),
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
    kfold: kfoldBody(d.kfold),
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
    timing: timingBody(fit.timing),
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
