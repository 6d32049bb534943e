// The "Proactive Publication – Grants and Contributions" CSV (open.canada.ca dataset
// 432527ab-7aac-45b5-81d6-7597107a7013), read by header name. Two schemas exist:
//  - pre-2025: key ref_number + amendment_number (agreement_number is an optional departmental number);
//  - December 2025 (template version 3): key agreement_number + amendment_number; ref_number is gone
//    (old reference numbers live on as agreement_number or alternate_agreement_number).
// The published CSV appends owner_org and owner_org_title to the template columns.

export type GrantsSchema = 'pre2025' | '2025';

/** Column order of the published pre-2025 file (as written by the generator). */
export const PRE_2025_COLUMNS: readonly string[] = [
  'ref_number',
  'amendment_number',
  'amendment_date',
  'agreement_type',
  'recipient_type',
  'recipient_business_number',
  'recipient_legal_name',
  'recipient_operating_name',
  'research_organization_name',
  'recipient_country',
  'recipient_province',
  'recipient_city',
  'recipient_postal_code',
  'federal_riding_name_en',
  'federal_riding_name_fr',
  'federal_riding_number',
  'prog_name_en',
  'prog_name_fr',
  'prog_purpose_en',
  'prog_purpose_fr',
  'agreement_title_en',
  'agreement_title_fr',
  'agreement_number',
  'agreement_value',
  'foreign_currency_type',
  'foreign_currency_value',
  'agreement_start_date',
  'agreement_end_date',
  'coverage',
  'description_en',
  'description_fr',
  'naics_identifier',
  'expected_results_en',
  'expected_results_fr',
  'additional_information_en',
  'additional_information_fr',
  'owner_org',
  'owner_org_title',
];

/** Column order of the December 2025 template (plus owner_org, owner_org_title). */
export const SCHEMA_2025_COLUMNS: readonly string[] = [
  'agreement_number',
  'amendment_number',
  'amendment_date',
  'agreement_type',
  'agreement_title_en',
  'agreement_title_fr',
  'recipient_type',
  'recipient_business_number',
  'recipient_legal_name',
  'recipient_operating_name',
  'research_organization_name',
  'recipient_country',
  'recipient_province',
  'recipient_city',
  'recipient_postal_code',
  'federal_riding_name_en',
  'federal_riding_name_fr',
  'federal_riding_number',
  'prog_name_en',
  'prog_name_fr',
  'prog_purpose_en',
  'prog_purpose_fr',
  'alternate_agreement_number',
  'agreement_value',
  'foreign_currency_type',
  'foreign_currency_value',
  'agreement_start_date',
  'agreement_end_date',
  'agreement_termination_date',
  'coverage',
  'description_en',
  'description_fr',
  'naics_identifier',
  'expected_results_en',
  'expected_results_fr',
  'additional_information_en',
  'additional_information_fr',
  'owner_org',
  'owner_org_title',
];

/**
 * The column `generate grants` appends to the schema's columns (its cells are empty): a CSV has no place for
 * a file-level field, and a header cell survives what users do to a CSV (filtering and re-saving rows,
 * renaming or moving the file). The importer labels the data of a file with this column generated demo data.
 */
export const GENERATED_MARKER_COLUMN = 'pdi_generated';

/** Whether a header row (cells as read) is a generated file's. */
export function isGeneratedHeader(header: readonly string[]): boolean {
  return header.some((cell) => normaliseHeader(cell) === GENERATED_MARKER_COLUMN);
}

export function columnsOf(schema: GrantsSchema): readonly string[] {
  return schema === 'pre2025' ? PRE_2025_COLUMNS : SCHEMA_2025_COLUMNS;
}

/** The logical fields the service reads; `reference` is ref_number or agreement_number by schema. */
const SOURCE_FIELDS = [
  'reference',
  'amendment_number',
  'amendment_date',
  'agreement_type',
  'recipient_type',
  'recipient_legal_name',
  'recipient_operating_name',
  'recipient_country',
  'recipient_province',
  'recipient_city',
  'recipient_postal_code',
  'prog_name_en',
  'prog_purpose_en',
  'agreement_title_en',
  'agreement_value',
  'agreement_start_date',
  'agreement_end_date',
  'description_en',
  'naics_identifier',
  'expected_results_en',
  'owner_org',
  'owner_org_title',
  'prog_name_fr',
  'prog_purpose_fr',
  'agreement_title_fr',
  'description_fr',
  'expected_results_fr',
] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

/** A file without one of these cannot be imported (the amendment key, the money, the date, the recipient). */
const REQUIRED_FIELDS: readonly SourceField[] = [
  'reference',
  'amendment_number',
  'owner_org',
  'recipient_legal_name',
  'agreement_value',
  'agreement_start_date',
];

/** Header names accepted for each field other than `reference`, in order of preference. */
const FIELD_HEADERS: Readonly<Record<Exclude<SourceField, 'reference'>, readonly string[]>> = {
  amendment_number: ['amendment_number'],
  amendment_date: ['amendment_date'],
  agreement_type: ['agreement_type'],
  recipient_type: ['recipient_type'],
  recipient_legal_name: ['recipient_legal_name'],
  recipient_operating_name: ['recipient_operating_name'],
  recipient_country: ['recipient_country'],
  recipient_province: ['recipient_province'],
  recipient_city: ['recipient_city', 'recipient_city_en'],
  recipient_postal_code: ['recipient_postal_code'],
  prog_name_en: ['prog_name_en'],
  prog_purpose_en: ['prog_purpose_en'],
  agreement_title_en: ['agreement_title_en'],
  agreement_value: ['agreement_value'],
  agreement_start_date: ['agreement_start_date'],
  agreement_end_date: ['agreement_end_date'],
  description_en: ['description_en'],
  naics_identifier: ['naics_identifier'],
  expected_results_en: ['expected_results_en'],
  owner_org: ['owner_org'],
  owner_org_title: ['owner_org_title'],
  prog_name_fr: ['prog_name_fr'],
  prog_purpose_fr: ['prog_purpose_fr'],
  agreement_title_fr: ['agreement_title_fr'],
  description_fr: ['description_fr'],
  expected_results_fr: ['expected_results_fr'],
};

export interface ColumnMapping {
  schema: GrantsSchema;
  /** Header name the reference was read from. */
  referenceColumn: 'ref_number' | 'agreement_number';
  /** Cell index of each field in a row, or -1 when the optional column is absent. */
  index: Readonly<Record<SourceField, number>>;
  /** Header cells not used by the service (ignored, reported for information). */
  ignoredColumns: string[];
  columnCount: number;
}

export type ColumnResolution = { ok: true; mapping: ColumnMapping } | { ok: false; missing: string[]; error: string };

function normaliseHeader(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
}

/**
 * Maps a header row to cell indexes by name (never by position). A file with `ref_number` is the
 * pre-2025 schema; one with only `agreement_number` is the December 2025 schema. When a name occurs
 * twice the first occurrence is used. Unknown columns are ignored.
 */
export function resolveColumns(header: readonly string[]): ColumnResolution {
  const positions = new Map<string, number>();
  header.forEach((cell, i) => {
    const name = normaliseHeader(cell);
    if (name !== '' && !positions.has(name)) positions.set(name, i);
  });
  const index = {} as Record<SourceField, number>;
  const missing: string[] = [];

  let schema: GrantsSchema;
  let referenceColumn: 'ref_number' | 'agreement_number';
  if (positions.has('ref_number')) {
    schema = 'pre2025';
    referenceColumn = 'ref_number';
  } else {
    schema = '2025';
    referenceColumn = 'agreement_number';
  }
  const refIndex = positions.get(referenceColumn);
  if (refIndex === undefined) missing.push('ref_number or agreement_number');
  index.reference = refIndex ?? -1;

  for (const field of SOURCE_FIELDS) {
    if (field === 'reference') continue;
    let found = -1;
    for (const name of FIELD_HEADERS[field]) {
      const at = positions.get(name);
      if (at !== undefined) {
        found = at;
        break;
      }
    }
    index[field] = found;
    if (found === -1 && REQUIRED_FIELDS.includes(field)) missing.push(field);
  }

  if (missing.length > 0) {
    const error = missing.length === 1 ? `missing required column: ${missing[0]}` : `missing required columns: ${missing.join(', ')}`;
    return { ok: false, missing, error };
  }
  const used = new Set(Object.values(index).filter((i) => i >= 0));
  const ignoredColumns = header
    .filter((_, i) => !used.has(i))
    .map(normaliseHeader)
    .filter((n) => n !== '');
  return { ok: true, mapping: { schema, referenceColumn, index, ignoredColumns, columnCount: header.length } };
}
