// Public surface of the grants source domain (CSV schema, row mapping, derived fields, streaming reader).
export {
  PRE_2025_COLUMNS,
  SCHEMA_2025_COLUMNS,
  SOURCE_FIELDS,
  REQUIRED_FIELDS,
  GENERATED_MARKER_COLUMN,
  columnsOf,
  isGeneratedHeader,
  resolveColumns,
} from './columns.ts';
export type { ColumnMapping, ColumnResolution, GrantsSchema, SourceField } from './columns.ts';
export { mapRow, parseAmendmentNumber, RECIPIENT_TYPES, AGREEMENT_TYPES, MAJOR_FUNDING_THRESHOLD_CENTS, SKIP_REASONS } from './record.ts';
export type { GrantRecord, MappedRow, RecipientType, AgreementType, SkipReason, UnreadableValue } from './record.ts';
export { amendmentKey, supersedes, AmendmentResolver } from './amendments.ts';
export {
  deriveFiscalYear,
  fiscalYearFromReference,
  fiscalYearOfDate,
  fiscalYearLabel,
  parseFiscalYearLabel,
  parseIsoDate,
} from './fiscal-year.ts';
export { naicsSectorInFrench, naicsSectorOf, NAICS_SECTORS } from './naics.ts';
export type { NaicsSector } from './naics.ts';
export { normaliseProvince, PROVINCE_CODES, PROVINCE_NAMES_EN } from './provinces.ts';
export type { ProvinceCode } from './provinces.ts';
export { NotableMatcher, NOTABLE_RULES, NOTABLE_RULES_VERSION } from './notable.ts';
export type { NotableMatch, NotableRules, NotableCategory } from './notable.ts';
export { parseMoneyToCents, formatCents, formatDollars, dollarsToCents, centsToDollars } from './money.ts';
export { readGrantsCsv, parseOnly, GrantsCsvHeaderError } from './reader.ts';
export { peekHeader } from './header.ts';
export { GrantsCsvTruncatedError } from './truncation.ts';
export type { ReadProgress, ReadSummary, ReadGrantsOptions, GrantRowHandler, ParseSummary } from './reader.ts';
