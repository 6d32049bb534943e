// Public surface of Service E's Bayesian engine (framework-free): fit the democracy model, load a
// published fit, simulate panels. Lower-level pieces (sampler, diagnostics, PSIS) live in their modules.
export { DEFAULT_CONFIG, resolveConfig } from './config.ts';
export { buildDesign, summariseDesign, standardiseWithinYear, type PanelDesign } from './design.ts';
export type { ChainProgress } from './chains.ts';
export { fitDemocracyModel, fitWithDraws, type FitHooks } from './fit.ts';
export { decodeDraws, encodeDraws, PARAMETER_GROUPS, selectParameters, type DrawsTable, type StoredDraws } from './draws.ts';
export { kfoldByCountry } from './kfold.ts';
export { posteriorPredictiveCheck } from './ppc.ts';
export { parsePublishedFit, publishedPredictorNames, readPublishedFit } from './imported.ts';
export { buildMethodology, describePriors, describeSampler, modelFormula } from './methodology.ts';
export { describeParameterisation } from './model.ts';
export { simulatePanel, type PanelSimulationOptions, type SimulatedPanel, type SimulationTruth } from './simulate.ts';
export { interpretPredictor } from './summary.ts';
export type {
  CountFamily,
  DataSource,
  DataSummary,
  DeepPartial,
  DemocracyModelConfig,
  Diagnostics,
  FitResult,
  FlaggedObservation,
  GroupEffectSummary,
  KFoldSummary,
  LooSummary,
  ModelChoice,
  Methodology,
  ModelPriors,
  PanelRow,
  ParameterSummary,
  ParameterisationSettings,
  ParetoKCounts,
  PosteriorPredictiveCheck,
  PredictiveStatistic,
  PredictorSummary,
  RootogramBin,
  SamplerSettings,
  SummaryMcse,
  Timing,
  VariableDescription,
  WaicSummary,
} from './types.ts';
