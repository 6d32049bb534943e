// Public surface of the grants source domain (CSV schema, row mapping, derived fields, streaming reader).
export { PRE_2025_COLUMNS, SCHEMA_2025_COLUMNS, GENERATED_MARKER_COLUMN, isGeneratedHeader } from './columns.ts';
export { RECIPIENT_TYPES, MAJOR_FUNDING_THRESHOLD_CENTS } from './record.ts';
export type { GrantRecord, SkipReason, UnreadableValue } from './record.ts';
export { amendmentKey, supersedes, AmendmentResolver } from './amendments.ts';
export { fiscalYearOfDate, fiscalYearInFull, fiscalYearLabel, parseFiscalYearLabel } from './fiscal-year.ts';
export { naicsSectorInFrench } from './naics.ts';
export { normaliseProvince, PROVINCE_CODES, PROVINCE_NAMES_EN } from './provinces.ts';
export { NotableMatcher, NOTABLE_RULES, NOTABLE_RULES_VERSION, notableCategoryLabel, notableReasonInFrench } from './notable.ts';
export { formatDollars, dollarsToCents } from './money.ts';
export { readGrantsCsv, parseOnly, GrantsCsvHeaderError } from './reader.ts';
export { peekHeader } from './header.ts';
export { GrantsCsvTruncatedError } from './truncation.ts';
export type { ReadProgress, ReadSummary, ReadGrantsOptions } from './reader.ts';
