// Public API of the Service A source parsers: plain, normalised records for the importer and the demo.
// toolkit.ts, sign.ts and cochrane.ts read the real files; demo.ts generates labelled demo data;
// vocabulary.ts holds the controlled vocabularies with their stable ids; review-title.ts checks listed review
// titles against the outcomes; truncation.ts tells a file cut short from a malformed one.

export type {
  Certainty,
  DowngradesInput,
  GuidelineInput,
  OrganizationInput,
  OutcomeInput,
  RecommendationInput,
  ReferenceInput,
  ReviewInput,
  SourceIssue,
  UnreadableField,
  UnreadableValue,
} from './types.ts';
export { CERTAINTIES } from './types.ts';
export {
  COUNTRIES,
  COUNTRY_CODES,
  countryDisplayName,
  countryFilterLabel,
  EVIDENCE_QUALITIES,
  findCountry,
  slugify,
  STRENGTHS,
  TOPICS,
  UK_NATIONS,
  type Country,
  type CountryCode,
  type Vocabulary,
  type VocabularyEntry,
} from './vocabulary.ts';
export type { GuidelineParse } from './guideline-source.ts';
export { parseToolkit, readToolkit } from './toolkit.ts';
export { parseSign, readSign } from './sign.ts';
export {
  cochraneDoi,
  cochraneUrl,
  normalizeCertainty,
  parseSofCsv,
  readCochraneFromDataDir,
  readCochraneReviews,
  readCochraneTitles,
  type CochraneReadOptions,
  type CochraneReviewRead,
} from './cochrane.ts';
export { decodeText, type DecodedText, type TextEncodingUsed } from '../../../core/text-decoding.ts';
export { DEMO_DEFAULTS, DEMO_KEY_PREFIX, generateDemo, type DemoData, type DemoOptions } from './demo.ts';
export { deriveKeywords, deriveTitle, splitReferences } from './text.ts';
export {
  checkReviewTitle,
  contentStems,
  reviewDescription,
  reviewTitles,
  TITLE_MATCH_THRESHOLD,
  titleSubject,
  type TitleCheck,
} from './review-title.ts';
export { csvTruncation, jsonTruncation, parseSourceJsonFile } from './truncation.ts';
