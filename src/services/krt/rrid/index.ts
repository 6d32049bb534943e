// Public API of the RRID layer.
export { RRID_REGISTRIES, parseRrid, normalizeRrid, registryOf, resolverUrl, type ParsedRrid, type RridRegistry } from './registry.ts';
export {
  RridKnowledgeBase,
  isCurrentSnapshot,
  observationsOfRow,
  cleanResourceName,
  type KbEntry,
  type KbObservation,
  type KbPaper,
  type KbSnapshot,
} from './knowledge-base.ts';
export { suggestRrids, scoreCandidates, type RridQuery, type RridSuggestion } from './suggest.ts';
export {
  calibrate,
  leaveOnePaperOut,
  crossCheckCalibration,
  calibratedProbability,
  fitIsotonic,
  top1Rate,
  type Calibration,
  type CalibrationBin,
  type LopoQuery,
} from './calibration.ts';
export { rridsWrittenIn } from './attestation.ts';
export { validateRrid, ValidationCache, type RridValidation, type RridStatus } from './validate.ts';
export { recommendAlternatives, type Recommendation, type RecommendQuery, type RecommendationType } from './recommend.ts';
