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
export {
  suggestRrids,
  answerRrids,
  scoreCandidates,
  ABSTAIN_BELOW,
  NAME_ONLY_ANSWER_FROM,
  type RridQuery,
  type RridSuggestion,
  type SuggestAnswer,
} from './suggest.ts';
export { nameConsensus, nameKeys, type ConsensusCandidate } from './consensus.ts';
export { fillProposals, type FillProposal, type ProposalKind } from './fill-proposals.ts';
export {
  applyFills,
  fillProbability,
  FILL_MODEL_FROM,
  trainFillModel,
  writeFills,
  type AppliedFill,
  type FillModel,
} from './fill-model.ts';
export {
  calibratedProbability,
  fitIsotonic,
  reliability,
  type Calibration,
  type CalibrationBin,
  type Reliability,
  type ReliabilityRow,
} from './calibration-map.ts';
export {
  calibrate,
  leaveOnePaperOut,
  crossCheckCalibration,
  crossValidateSuggestions,
  foldsByPaper,
  top1Rate,
  type LopoQuery,
  type HeldOutAnswer,
  type SuggestionCrossValidation,
} from './calibration.ts';
export { rridsWrittenIn } from './attestation.ts';
export { validateRrid, ValidationCache, MIN_ATTESTING_PAPERS, type RridValidation, type RridStatus } from './validate.ts';
export { RegistryKnowledge, type RegistryEntry, type RegistryEvidence } from './registry-knowledge.ts';
export { recommendAlternatives, type Recommendation, type RecommendQuery, type RecommendationType } from './recommend.ts';
export {
  suggestionIndexOf,
  suggestFromIndex,
  answerFromIndex,
  rowsReader,
  type SuggestionIndexRows,
  type SuggestionIndexReader,
  type SuggestionIndexMeta,
  type StoredEntry,
  type StoredEntryDetail,
  type IndexedSuggestion,
} from './suggestion-index.ts';
