import { DEFAULT_PARAMETERISATION } from './model.ts';
import type { DeepPartial, DemocracyModelConfig, ModelChoice, SamplerSettings } from './types.ts';

/** The model's priors as the contract states them (e-retraction.md, "The Bayesian analysis"). */
export const DEFAULT_CONFIG: DemocracyModelConfig = {
  predictors: null,
  family: 'negbinomial2',
  priors: {
    intercept: { mean: 0, sd: 3 },
    coefficients: { mean: 0, sd: 1 },
    sigmaCountry: { rate: 1 },
    sigmaYear: { rate: 1 },
    dispersion: { shape: 2, rate: 0.1 },
  },
  parameterisation: { ...DEFAULT_PARAMETERISATION },
  nonCentredOnDivergence: true,
  sampler: {
    algorithm: 'nuts',
    chains: 4,
    warmup: 1000,
    draws: 1000,
    maxTreeDepth: 10,
    targetAcceptance: 0.8,
    maxEnergyError: 1000,
    initRadius: 1,
    initialMetric: 'curvature',
    adaptation: { initBuffer: 75, termBuffer: 50, baseWindow: 25 },
    seed: 'democracy-retractions',
    parallelism: 'workers',
    maxWorkers: null,
  },
  loo: true,
  posteriorPredictive: { replicates: 1000 },
  kfoldByCountry: 0,
  variables: {},
  dataSources: [],
};

/** Dotted paths of the settings of `config` that differ from DEFAULT_CONFIG (the model choices made). */
export function configChoices(config: DemocracyModelConfig): ModelChoice[] {
  const choices: ModelChoice[] = [];
  // Data-derived parts (which predictors, their descriptions, the sources) are not modelling choices.
  const skip = new Set(['predictors', 'variables', 'dataSources']);
  const walk = (path: string, value: unknown, base: unknown) => {
    if (isPlainObject(value) && isPlainObject(base)) {
      for (const key of Object.keys(value)) walk(path ? `${path}.${key}` : key, value[key], base[key]);
      return;
    }
    if (JSON.stringify(value) !== JSON.stringify(base))
      choices.push({ setting: path, value: structuredClone(value), default: structuredClone(base) ?? null });
  };
  for (const key of Object.keys(config) as (keyof DemocracyModelConfig)[]) {
    if (!skip.has(key)) walk(key, config[key], DEFAULT_CONFIG[key]);
  }
  return choices;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge<T>(base: T, override: unknown): T {
  if (override === undefined) return structuredClone(base);
  if (!isPlainObject(base) || !isPlainObject(override)) return structuredClone(override) as T;
  const out: Record<string, unknown> = { ...structuredClone(base) };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    out[key] = key in out ? merge(out[key], value) : structuredClone(value);
  }
  return out as T;
}

/** Full configuration from defaults and overrides; throws a RangeError naming a setting that is out of range. */
export function resolveConfig(overrides: DeepPartial<DemocracyModelConfig> = {}): DemocracyModelConfig {
  const config = merge(DEFAULT_CONFIG, overrides);
  validateSampler(config.sampler);
  const p = config.priors;
  const positive: [string, number][] = [
    ['priors.intercept.sd', p.intercept.sd],
    ['priors.coefficients.sd', p.coefficients.sd],
    ['priors.sigmaCountry.rate', p.sigmaCountry.rate],
    ['priors.sigmaYear.rate', p.sigmaYear.rate],
    ['priors.dispersion.shape', p.dispersion.shape],
    ['priors.dispersion.rate', p.dispersion.rate],
  ];
  for (const [name, value] of positive) {
    if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${name} must be a positive number`);
  }
  const effects = ['centred', 'non-centred'];
  if (!effects.includes(config.parameterisation.countryEffects) || !effects.includes(config.parameterisation.yearEffects)) {
    throw new RangeError("parameterisation.countryEffects and yearEffects must be 'centred' or 'non-centred'");
  }
  if (typeof config.nonCentredOnDivergence !== 'boolean') throw new RangeError('nonCentredOnDivergence must be a boolean');
  if (typeof config.parameterisation.shiftedCoefficients !== 'boolean')
    throw new RangeError('parameterisation.shiftedCoefficients must be a boolean');
  if (!Number.isFinite(p.intercept.mean) || !Number.isFinite(p.coefficients.mean)) {
    throw new RangeError('prior means must be finite numbers');
  }
  if (config.family !== 'negbinomial2' && config.family !== 'poisson') throw new RangeError("family must be 'negbinomial2' or 'poisson'");
  const replicates = config.posteriorPredictive.replicates;
  if (!Number.isInteger(replicates) || replicates < 0) throw new RangeError('posteriorPredictive.replicates must be an integer ≥ 0');
  const folds = config.kfoldByCountry;
  if (!Number.isInteger(folds) || folds < 0 || folds === 1) throw new RangeError('kfoldByCountry must be 0 (off) or an integer ≥ 2');
  return config;
}

function validateSampler(s: SamplerSettings): void {
  const checkInt = (name: string, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min) throw new RangeError(`sampler.${name} must be an integer ≥ ${min}`);
  };
  checkInt('chains', s.chains, 1);
  checkInt('warmup', s.warmup, 0);
  checkInt('draws', s.draws, 1);
  checkInt('maxTreeDepth', s.maxTreeDepth, 1);
  if (s.maxTreeDepth > 20) throw new RangeError('sampler.maxTreeDepth must be ≤ 20');
  checkInt('adaptation.initBuffer', s.adaptation.initBuffer, 0);
  checkInt('adaptation.termBuffer', s.adaptation.termBuffer, 0);
  checkInt('adaptation.baseWindow', s.adaptation.baseWindow, 1);
  if (!(s.targetAcceptance > 0 && s.targetAcceptance < 1)) throw new RangeError('sampler.targetAcceptance must be in (0, 1)');
  if (!(s.maxEnergyError > 0)) throw new RangeError('sampler.maxEnergyError must be positive');
  if (!(s.initRadius >= 0)) throw new RangeError('sampler.initRadius must be ≥ 0');
  if (s.initialMetric !== 'unit' && s.initialMetric !== 'curvature')
    throw new RangeError("sampler.initialMetric must be 'unit' or 'curvature'");
  if (s.parallelism !== 'workers' && s.parallelism !== 'single') throw new RangeError("sampler.parallelism must be 'workers' or 'single'");
  if (s.maxWorkers !== null) checkInt('maxWorkers', s.maxWorkers, 1);
}
