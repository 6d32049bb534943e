// Public API of the extraction layer.
export {
  RESOURCE_TYPES,
  KRT_COLUMNS,
  isResourceType,
  resourceTypeFromText,
  isNewSource,
  makeRow,
  summarizeRows,
  type KrtRow,
  type ResourceType,
  type NewReuse,
} from './krt-row.ts';
export {
  extractArticle,
  extractFile,
  TABLE_EXTRACTOR_MODEL,
  TEXT_EXTRACTOR_MODEL,
  type RowEvidence,
  type PaperExtraction,
  type FileExtraction,
  type ExtractionMode,
  type ExtractionProvider,
  type AuthorTableInfo,
} from './extract-article.ts';
export { extractMany, type ExtractManyOptions, type ManyResult } from './extract-many.ts';
export {
  extractAuthorTables,
  genericTableRows,
  listTableWraps,
  type AuthorTableResult,
  type AuthorTablePart,
  type TableLayout,
} from './author-table.ts';
export { extractFromText, mergeRows, TEXT_EXTRACTOR_MODEL as RULE_TEXT_EXTRACTOR_MODEL } from './text-extractor.ts';
export { LearnedExtractor, trainExtractor, LEARNED_EXTRACTOR_MODEL, type ExtractorModel, type ScoredRow } from './learned/model.ts';
export { shippedExtractor } from './learned/shipped.ts';
export {
  parseIdentifierText,
  formatIdentifier,
  normalizeIdentifier,
  identifierKeys,
  catalogKey,
  type IdentifierPart,
} from './identifier.ts';
export { findAccessions, type FoundAccession } from './accessions.ts';
export { findVendor, canonicalVendor, vendorKey, VENDORS } from './vendors.ts';
export { typeOfCategory, typeByContent } from './classify.ts';
