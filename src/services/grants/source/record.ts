// One CSV row → one normalised grant record (or a skip reason). Pure and synchronous: the importer, the
// tests and the generator's round trip all use it.
import type { ColumnMapping, SourceField } from './columns.ts';
import { deriveFiscalYear, parseIsoDate } from './fiscal-year.ts';
import { parseMoneyToCents } from './money.ts';
import { naicsSectorOf } from './naics.ts';
import { NotableMatcher } from './notable.ts';
import { normaliseProvince } from './provinces.ts';

/** Source codes of recipient_type (the schema's controlled list), kept as codes. */
export const RECIPIENT_TYPES = {
  A: 'Indigenous recipients',
  F: 'For-profit organizations',
  G: 'Government',
  I: 'International (non-government)',
  N: 'Not-for-profit organizations and charities',
  O: 'Other',
  P: 'Individual or sole proprietorships',
  S: 'Academia',
} as const;
export type RecipientType = keyof typeof RECIPIENT_TYPES;

/** G grant, C contribution, O other transfer payment. */
type AgreementType = 'G' | 'C' | 'O';

/** Over $1,000,000 strictly. */
export const MAJOR_FUNDING_THRESHOLD_CENTS = 100_000_000;

export interface GrantRecord {
  owner_org: string;
  owner_org_title: string;
  reference_number: string;
  amendment_number: number;
  amendment_date: string | null;
  agreement_type: AgreementType | '';
  recipient_type: RecipientType | '';
  recipient_legal_name: string;
  recipient_operating_name: string;
  recipient_country: string;
  recipient_province: string; // 2-letter code or ''
  recipient_city_en: string;
  recipient_postal_code: string;
  program_name_en: string;
  program_purpose_en: string;
  agreement_title_en: string;
  /** Exact integer cents; the API's agreement_value is this / 100. */
  agreement_value_cents: number;
  agreement_start_date: string;
  agreement_end_date: string | null;
  description_en: string;
  naics_identifier: string;
  naics_sector_en: string; // '' when absent or unknown
  expected_results_en: string;
  fiscal_year: string; // "2018-19"
  fiscal_year_start: number; // 2018
  fiscal_year_source: 'reference' | 'start_date';
  is_major_funding: boolean;
  is_notable: boolean;
  notable_reason: string; // '' when not notable
  notable_category: string; // category id, '' when not notable
  notable_keyword: string;
  /** The French texts: the French half of a bilingual cell ("English|French") or a *_fr column; '' when none. */
  owner_org_title_fr: string;
  recipient_legal_name_fr: string;
  recipient_operating_name_fr: string;
  recipient_city_fr: string;
  program_name_fr: string;
  program_purpose_fr: string;
  agreement_title_fr: string;
  description_fr: string;
  expected_results_fr: string;
  /**
   * Secondary values the row holds but that could not be read (dates null, type codes '' here): the importer
   * warns and keeps a value already stored for the agreement. Absent when every such cell is empty or read.
   */
  unreadable?: UnreadableValue[];
}

/** A cell that is not empty but could not be read, with its text as the file has it. */
export interface UnreadableValue {
  field: 'amendment_date' | 'agreement_end_date' | 'agreement_type' | 'recipient_type';
  raw: string;
}

/** Fixed texts (counted by the import report, so free of row-specific detail). */
const SKIP_REASONS = {
  referenceEmpty: 'reference number is empty',
  ownerOrgEmpty: 'owner_org is empty',
  amendmentNumberInvalid: 'amendment_number is not a whole number',
  valueEmpty: 'agreement_value is empty',
  valueNotNumber: 'agreement_value is not a number',
  valueOutOfRange: 'agreement_value is out of range',
  startDateInvalid: 'agreement_start_date is missing or not a valid date',
} as const;
export type SkipReason = (typeof SKIP_REASONS)[keyof typeof SKIP_REASONS];

export type MappedRow = { ok: true; record: GrantRecord } | { ok: false; reason: SkipReason };

export interface MapRowOptions {
  notable?: NotableMatcher;
  /**
   * Turns a cell as parsed into its text, applied to the cells the record is made of (and only those): the
   * reader parses bytes as Latin-1 and decodes here (decodeByteCell), so the columns no record holds are never
   * decoded. Default: the cells are text already.
   */
  decodeCell?: (cell: string) => string;
}

let defaultMatcher: NotableMatcher | null = null;

const asText = (cell: string): string => cell;

/** A cell as parsed ('' for a column the file lacks). */
function rawCell(cells: readonly string[], mapping: ColumnMapping, field: SourceField): string {
  const i = mapping.index[field];
  return i < 0 ? '' : (cells[i] ?? '');
}

function cell(cells: readonly string[], mapping: ColumnMapping, field: SourceField, decode: (cell: string) => string): string {
  return decode(rawCell(cells, mapping, field)).trim();
}

/** "ACME Ltd.|ACME Ltée" → ["ACME Ltd.", "ACME Ltée"] (bilingual cells are written "English|French"); no bar: no French. */
function bilingualCell(
  cells: readonly string[],
  mapping: ColumnMapping,
  field: SourceField,
  decode: (cell: string) => string,
): [string, string] {
  const raw = rawCell(cells, mapping, field);
  const bar = raw.indexOf('|');
  return bar < 0 ? [decode(raw).trim(), ''] : [decode(raw.slice(0, bar)).trim(), decode(raw.slice(bar + 1)).trim()];
}

const RECIPIENT_TYPE_BY_LABEL = new Map<string, RecipientType>(
  (Object.entries(RECIPIENT_TYPES) as Array<[RecipientType, string]>).map(([code, label]) => [label.toLowerCase(), code]),
);
RECIPIENT_TYPE_BY_LABEL.set('aboriginal recipients', 'A'); // the label before 2025

function normaliseRecipientType(raw: string): RecipientType | '' {
  const upper = raw.toUpperCase();
  if (upper.length === 1 && upper in RECIPIENT_TYPES) return upper as RecipientType;
  return RECIPIENT_TYPE_BY_LABEL.get(raw.toLowerCase()) ?? '';
}

function normaliseAgreementType(raw: string): AgreementType | '' {
  const upper = raw.toUpperCase();
  if (upper === 'G' || upper === 'C' || upper === 'O') return upper;
  const lower = raw.toLowerCase();
  if (lower === 'grant' || lower === 'subvention') return 'G';
  if (lower === 'contribution') return 'C';
  if (lower.startsWith('other')) return 'O';
  return '';
}

function normaliseCountry(raw: string): string {
  const folded = raw.toUpperCase();
  if (/^[A-Z]{2}$/.test(folded)) return folded;
  if (folded === 'CANADA') return 'CA';
  return folded;
}

function normalisePostalCode(raw: string): string {
  const compact = raw.toUpperCase().replace(/\s+/g, '');
  if (/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(compact)) return `${compact.slice(0, 3)} ${compact.slice(3)}`;
  return raw.toUpperCase();
}

/** "0", "3", "2.0" → a whole number; "" → 0 (an original record); anything else → null. */
function parseAmendmentNumber(raw: string): number | null {
  const text = raw.trim();
  if (text === '') return 0;
  const m = /^(\d{1,9})(?:\.0+)?$/.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * Maps one data row (cells in file order) to a normalised record, or gives the reason it is skipped.
 * Empty optional cells become '' (dates: null); a date or type cell that cannot be read is null (a type: '') and listed in
 * `unreadable`.
 */
export function mapRow(cells: readonly string[], mapping: ColumnMapping, options: MapRowOptions = {}): MappedRow {
  const decode = options.decodeCell ?? asText;
  const reference = cell(cells, mapping, 'reference', decode);
  if (reference === '') return { ok: false, reason: SKIP_REASONS.referenceEmpty };
  const ownerOrg = cell(cells, mapping, 'owner_org', decode).toLowerCase();
  if (ownerOrg === '') return { ok: false, reason: SKIP_REASONS.ownerOrgEmpty };
  const amendmentNumber = parseAmendmentNumber(cell(cells, mapping, 'amendment_number', decode));
  if (amendmentNumber === null) return { ok: false, reason: SKIP_REASONS.amendmentNumberInvalid };
  const money = parseMoneyToCents(cell(cells, mapping, 'agreement_value', decode));
  if (!money.ok) {
    const reason =
      money.reason === 'empty'
        ? SKIP_REASONS.valueEmpty
        : money.reason === 'not_a_number'
          ? SKIP_REASONS.valueNotNumber
          : SKIP_REASONS.valueOutOfRange;
    return { ok: false, reason };
  }
  const startDate = parseIsoDate(cell(cells, mapping, 'agreement_start_date', decode));
  if (startDate === null) return { ok: false, reason: SKIP_REASONS.startDateInvalid };

  const title = cell(cells, mapping, 'agreement_title_en', decode);
  const description = cell(cells, mapping, 'description_en', decode);
  const program = cell(cells, mapping, 'prog_name_en', decode);
  const naics = cell(cells, mapping, 'naics_identifier', decode);
  const fiscal = deriveFiscalYear(reference, startDate);
  const matcher = options.notable ?? (defaultMatcher ??= new NotableMatcher());
  const notable = matcher.match({ title, description, program });
  const unreadable: UnreadableValue[] = [];
  const secondary = <T>(field: UnreadableValue['field'], read: (raw: string) => T, none: T): T => {
    const raw = cell(cells, mapping, field, decode);
    const value = read(raw);
    if (value === none && raw !== '') unreadable.push({ field, raw });
    return value;
  };
  const amendmentDate = secondary('amendment_date', parseIsoDate, null);
  const endDate = secondary('agreement_end_date', parseIsoDate, null);
  const agreementType = secondary('agreement_type', normaliseAgreementType, '');
  const recipientType = secondary('recipient_type', normaliseRecipientType, '');
  const [ownerOrgTitle, ownerOrgTitleFr] = bilingualCell(cells, mapping, 'owner_org_title', decode);
  const [legalName, legalNameFr] = bilingualCell(cells, mapping, 'recipient_legal_name', decode);
  const [operatingName, operatingNameFr] = bilingualCell(cells, mapping, 'recipient_operating_name', decode);
  const [city, cityFr] = bilingualCell(cells, mapping, 'recipient_city', decode);

  return {
    ok: true,
    record: {
      owner_org: ownerOrg,
      owner_org_title: ownerOrgTitle,
      reference_number: reference,
      amendment_number: amendmentNumber,
      amendment_date: amendmentDate,
      agreement_type: agreementType,
      recipient_type: recipientType,
      recipient_legal_name: legalName,
      recipient_operating_name: operatingName,
      recipient_country: normaliseCountry(cell(cells, mapping, 'recipient_country', decode)),
      recipient_province: normaliseProvince(cell(cells, mapping, 'recipient_province', decode)),
      recipient_city_en: city,
      recipient_postal_code: normalisePostalCode(cell(cells, mapping, 'recipient_postal_code', decode)),
      program_name_en: program,
      program_purpose_en: cell(cells, mapping, 'prog_purpose_en', decode),
      agreement_title_en: title,
      agreement_value_cents: money.cents,
      agreement_start_date: startDate,
      agreement_end_date: endDate,
      description_en: description,
      naics_identifier: naics,
      naics_sector_en: naicsSectorOf(naics)?.name ?? '',
      expected_results_en: cell(cells, mapping, 'expected_results_en', decode),
      fiscal_year: fiscal.label,
      fiscal_year_start: fiscal.startYear,
      fiscal_year_source: fiscal.source,
      is_major_funding: money.cents > MAJOR_FUNDING_THRESHOLD_CENTS,
      is_notable: notable !== null,
      notable_reason: notable?.reason ?? '',
      notable_category: notable?.categoryId ?? '',
      notable_keyword: notable?.keyword ?? '',
      owner_org_title_fr: ownerOrgTitleFr,
      recipient_legal_name_fr: legalNameFr,
      recipient_operating_name_fr: operatingNameFr,
      recipient_city_fr: cityFr,
      program_name_fr: cell(cells, mapping, 'prog_name_fr', decode),
      program_purpose_fr: cell(cells, mapping, 'prog_purpose_fr', decode),
      agreement_title_fr: cell(cells, mapping, 'agreement_title_fr', decode),
      description_fr: cell(cells, mapping, 'description_fr', decode),
      expected_results_fr: cell(cells, mapping, 'expected_results_fr', decode),
      ...(unreadable.length > 0 ? { unreadable } : {}),
    },
  };
}
