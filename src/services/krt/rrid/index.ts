// Public API of the RRID layer.
export { parseRrid, resolverUrl } from './registry.ts';
export { RridKnowledgeBase, isCurrentSnapshot, cleanResourceName, type KbPaper, type KbSnapshot } from './knowledge-base.ts';
export { suggestRrids, answerRrids, ABSTAIN_BELOW, type RridSuggestion } from './suggest.ts';
export { reliability, type Reliability } from './calibration-map.ts';
export { calibrate, leaveOnePaperOut, crossValidateSuggestions, top1Rate } from './calibration.ts';
export { rridsWrittenIn } from './attestation.ts';
export { validateRrid, type RridValidation, type RridStatus } from './validate.ts';
export { recommendAlternatives, type Recommendation } from './recommend.ts';
export {
  suggestionIndexOf,
  answerFromIndex,
  type SuggestionIndexRows,
  type SuggestionIndexReader,
  type SuggestionIndexMeta,
  type StoredEntry,
  type StoredEntryDetail,
} from './suggestion-index.ts';
