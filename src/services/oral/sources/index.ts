// Public API of the Service A source parsers: plain, normalised records for the importer and the demo.
// toolkit.ts, sign.ts and cochrane.ts read the real files; demo.ts generates labelled demo data;
// vocabulary.ts holds the controlled vocabularies with their stable ids; review-title.ts checks listed review
// titles against the outcomes; truncation.ts tells a file cut short from a malformed one.

export type { DowngradesInput, GuidelineInput, OutcomeInput, RecommendationInput, ReviewInput, SourceIssue } from './types.ts';
export { CERTAINTIES } from './types.ts';
export {
  COUNTRIES,
  COUNTRY_CODES,
  countryDisplayName,
  countryFilterLabel,
  EVIDENCE_QUALITIES,
  findCountry,
  STRENGTHS,
  TOPICS,
  type Country,
  type CountryCode,
  type Vocabulary,
  type VocabularyEntry,
} from './vocabulary.ts';
export type { GuidelineParse } from './guideline-source.ts';
export { readToolkit } from './toolkit.ts';
export { readSign } from './sign.ts';
export { readCochraneReviews, readCochraneTitles } from './cochrane.ts';
export { DEMO_DEFAULTS, generateDemo } from './demo.ts';
export { reviewTitles } from './review-title.ts';
export { parseSourceJsonFile } from './truncation.ts';
