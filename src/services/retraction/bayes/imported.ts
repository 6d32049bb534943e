// Reads a published fit (democracy_model_results.json: R output whose scalars are one-element arrays) into
// the FitResult shape, marked as imported. What the file reports is kept; what it does not is null.
import { readFile } from 'node:fs/promises';
import { MODEL_FAMILY, modelFormula } from './methodology.ts';
import { interpretPredictor } from './summary.ts';
import type { Diagnostics, FitResult, Methodology, PredictorSummary } from './types.ts';

const PREFIX = 'negbin_multivariate_';

/** R's jsonlite writes scalars as [x]; unwrap them recursively. */
export function unwrapScalars(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 1 ? unwrapScalars(value[0]) : value.map(unwrapScalars);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapScalars(v)]));
  }
  return value;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Predictor names of a published file, in file order. */
export function publishedPredictorNames(json: unknown): string[] {
  if (json === null || typeof json !== 'object') throw new TypeError('published fit must be a JSON object');
  return Object.keys(json)
    .filter((k) => k.startsWith(PREFIX))
    .map((k) => k.slice(PREFIX.length));
}

function parseYears(value: unknown): { first: number; last: number; count: number } | null {
  const text = str(value);
  const m = text?.match(/^\s*(\d{4})\s*[-–]\s*(\d{4})\s*$/);
  if (!m) return null;
  const first = Number(m[1]);
  const last = Number(m[2]);
  return { first, last, count: last - first + 1 };
}

/** One predictor's summary as the file reports it (entry `negbin_multivariate_<name>`). */
function publishedSummary(name: string, e: Record<string, unknown>): PredictorSummary {
  const mean = num(e.coefficient);
  const rateRatio = num(e.rate_ratio) ?? (mean !== null ? Math.exp(mean) : null);
  if (mean === null || rateRatio === null) throw new TypeError(`published fit: ${name} lacks a coefficient`);
  const rrLower = num(e.cri_lower);
  const rrUpper = num(e.cri_upper);
  const summary: PredictorSummary = {
    name,
    mean,
    sd: num(e.std_error),
    median: null,
    // The file gives the interval on the rate-ratio scale; exp is monotone, so its logs are the β quantiles
    // (to the file's four-decimal rounding).
    ciLower: rrLower !== null ? Math.log(rrLower) : null,
    ciUpper: rrUpper !== null ? Math.log(rrUpper) : null,
    rateRatio,
    rateRatioLower: rrLower,
    rateRatioUpper: rrUpper,
    probPositive: num(e.prob_positive),
    probNegative: num(e.prob_negative),
    rhat: null,
    essBulk: null,
    essTail: null,
    // No draws in the file: no Monte Carlo standard errors.
    mcse: null,
    interpretation: '',
  };
  summary.interpretation = interpretPredictor(summary);
  const original = str(e.interpretation);
  if (original !== null) summary.sourceInterpretation = original;
  return summary;
}

/** The file's model_diagnostics; what it does not report is null. */
function publishedDiagnostics(d: Record<string, unknown>): Diagnostics {
  const years = parseYears(d.years);
  const chains = num(d.chains);
  const iterations = num(d.iterations);
  const warmup = num(d.warmup);
  const looEstimate = num(d.loo_estimate);
  return {
    rhatMax: num(d.max_rhat),
    rhatMaxParameter: null,
    essBulkMin: null,
    essBulkMinParameter: null,
    essTailMin: null,
    essTailMinParameter: null,
    essRatioMin: num(d.min_ess_ratio),
    essPerSecond: null,
    essPerCpuSecond: null,
    divergences: null,
    warmupDivergences: null,
    treeDepthSaturation: null,
    meanAcceptStat: null,
    ebfmiMin: null,
    stepSizes: null,
    meanTreeDepth: null,
    chains,
    iterations,
    warmup,
    // The file does not say whether "iterations" includes warmup, so kept draws are not derived.
    draws: null,
    // "loo_estimate" is positive, so it is read as the LOO information criterion (−2·elpd); the file gives
    // nothing else of the LOO computation.
    loo:
      looEstimate === null
        ? null
        : { elpdLoo: null, elpdLooSe: null, pLoo: null, pLooSe: null, looic: looEstimate, looicSe: null, paretoK: null, maxParetoK: null },
    waic: null,
    kfold: null,
    sampleSize: num(d.sample_size),
    countries: num(d.countries),
    years,
    samplerSeconds: null,
    samplerCpuSeconds: null,
  };
}

/** The methodology of a published fit: what the file states, and what cannot be known without its draws. */
function publishedMethodology(names: string[], d: Record<string, unknown>, diagnostics: Diagnostics): Methodology {
  const { chains, iterations, warmup, years } = diagnostics;
  const missingDataMethod = str(d.missing_data_method);
  return {
    model: {
      family: str(d.model_family) ? `${str(d.model_family)} (as published)` : MODEL_FAMILY,
      formula: modelFormula(),
      parameterisation: null,
      description: `Published fit of the country-year negative-binomial model with ${names.length} predictors (${names.join(', ')}), imported as reported.`,
    },
    priors: null,
    priorsDescription: str(d.priors),
    sampler: {
      algorithm: 'not stated in the published file',
      chains,
      warmup,
      draws: null,
      iterations,
      maxTreeDepth: null,
      targetAcceptance: null,
      adaptation: null,
      seed: null,
      text: `As published: ${chains ?? '?'} chains, ${iterations ?? '?'} iterations, ${warmup ?? '?'} warmup.`,
    },
    variables: names.map((name) => ({
      name,
      role: 'predictor' as const,
      definition: 'Predictor of the published model; the file gives no definition.',
      source: null,
    })),
    dataSources: [],
    data: {
      observations: diagnostics.sampleSize,
      countries: diagnostics.countries,
      years,
      excludedRows: null,
      exclusionReasons: null,
      missingDataMethod: missingDataMethod ?? 'not stated in the published file',
    },
    diagnosticsUsed: ['as published: maximum R-hat, minimum ESS ratio, LOO estimate'],
    limitations: [
      'Imported as published: no posterior draws are available, so per-parameter R-hat and ESS, divergences, Pareto k counts and sampler timing cannot be computed here.',
      'Observational data: the coefficients are associations, not causal effects.',
      ...(missingDataMethod
        ? [`The published fit handled missing data by ${missingDataMethod}; the service's own fits use complete cases.`]
        : []),
    ],
  };
}

export function parsePublishedFit(json: unknown): FitResult {
  const names = publishedPredictorNames(json);
  if (names.length === 0) throw new TypeError(`published fit has no ${PREFIX}* entries`);
  const root = unwrapScalars(json) as Record<string, unknown>;
  const summaries = names.map((name) => publishedSummary(name, root[PREFIX + name] as Record<string, unknown>));
  const d = (root.model_diagnostics ?? {}) as Record<string, unknown>;
  const diagnostics = publishedDiagnostics(d);
  const methodology = publishedMethodology(names, d, diagnostics);

  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(root)) {
    if (!key.startsWith(PREFIX)) extras[key] = value;
  }
  return {
    source: 'imported',
    model: 'negbinomial2-country-year',
    predictors: names,
    summaries,
    hyperparameters: [],
    effects: null,
    posteriorPredictive: null,
    diagnostics,
    methodology,
    timing: null,
    data: null,
    config: null,
    choices: null,
    importedExtras: extras,
  };
}

export async function readPublishedFit(path: string | URL): Promise<FitResult> {
  const text = await readFile(path, 'utf8');
  return parsePublishedFit(JSON.parse(text));
}
