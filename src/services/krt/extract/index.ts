// Public API of the extraction layer.
export {
  RESOURCE_TYPES,
  KRT_COLUMNS,
  isResourceType,
  isNewSource,
  makeRow,
  summarizeRows,
  type KrtRow,
  type ResourceType,
  type NewReuse,
} from './krt-row.ts';
export { resourceTypeFromText } from './classify.ts';
export {
  extractArticle,
  TABLE_EXTRACTOR_MODEL,
  TEXT_EXTRACTOR_MODEL,
  splitTable,
  type RowEvidence,
  type FurtherMention,
  type PaperExtraction,
  type FileExtraction,
} from './extract-article.ts';
export { extractMany, type ManyResult } from './extract-many.ts';
export { LEARNED_EXTRACTOR_MODEL } from './learned/model.ts';
export { parseIdentifierText, formatIdentifier, normalizeIdentifier, type IdentifierPart } from './identifier.ts';
export { canonicalVendor } from './vendors.ts';
