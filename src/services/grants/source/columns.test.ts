import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PRE_2025_COLUMNS, SCHEMA_2025_COLUMNS, resolveColumns } from './columns.ts';
import type { ColumnMapping } from './columns.ts';
import { mapRow } from './record.ts';
import type { GrantRecord } from './record.ts';

function mappingOf(header: readonly string[]): ColumnMapping {
  const r = resolveColumns(header);
  if (!r.ok) throw new Error(r.error);
  return r.mapping;
}

/** One agreement as cells by column name, written into any header order. */
const SAMPLE: Record<string, string> = {
  ref_number: '005-2019-2020-Q2-00042',
  agreement_number: '005-2019-2020-Q2-00042',
  amendment_number: '2',
  amendment_date: '2020-06-30',
  agreement_type: 'C',
  recipient_type: 'N',
  recipient_legal_name: 'Halifax Food Bank Society|Société de la banque alimentaire de Halifax',
  recipient_operating_name: '',
  recipient_country: 'CA',
  recipient_province: 'NS',
  recipient_city: 'Halifax',
  recipient_postal_code: 'b3h4r2',
  prog_name_en: 'Local Food Infrastructure',
  prog_purpose_en: 'Improves access to food.',
  agreement_title_en: 'A regional food hub',
  agreement_value: '1,000,000.01',
  agreement_start_date: '2019-08-15',
  agreement_end_date: '2022-03-31',
  description_en: 'Refrigeration, shelving, and a delivery van.',
  naics_identifier: '624210',
  expected_results_en: 'Better access to food.',
  owner_org: 'AAFC-AAC',
  owner_org_title: 'Agriculture and Agri-Food Canada | Agriculture et Agroalimentaire Canada',
};

function rowFor(header: readonly string[], values: Record<string, string> = SAMPLE): string[] {
  return header.map(
    (h) =>
      values[
        h
          .replace(/^\uFEFF/, '')
          .trim()
          .toLowerCase()
      ] ?? '',
  );
}

test('the pre-2025 header resolves to the pre-2025 schema, keyed by ref_number', () => {
  const m = mappingOf(PRE_2025_COLUMNS);
  assert.equal(m.schema, 'pre2025');
  assert.equal(m.referenceColumn, 'ref_number');
  assert.equal(m.index.reference, PRE_2025_COLUMNS.indexOf('ref_number'));
  assert.equal(m.index.agreement_value, PRE_2025_COLUMNS.indexOf('agreement_value'));
  assert.ok(m.ignoredColumns.includes('agreement_number'), 'agreement_number is only informative in this schema');
});

test('the December 2025 header resolves to the 2025 schema, keyed by agreement_number', () => {
  const m = mappingOf(SCHEMA_2025_COLUMNS);
  assert.equal(m.schema, '2025');
  assert.equal(m.referenceColumn, 'agreement_number');
  assert.equal(m.index.reference, SCHEMA_2025_COLUMNS.indexOf('agreement_number'));
  assert.ok(m.ignoredColumns.includes('agreement_termination_date'));
});

test('both schemas map the same agreement to the same record', () => {
  const a = mapRow(rowFor(PRE_2025_COLUMNS), mappingOf(PRE_2025_COLUMNS));
  const b = mapRow(rowFor(SCHEMA_2025_COLUMNS), mappingOf(SCHEMA_2025_COLUMNS));
  assert.ok(a.ok && b.ok);
  assert.deepEqual(a.record, b.record);
  const r: GrantRecord = a.record;
  assert.equal(r.reference_number, '005-2019-2020-Q2-00042');
  assert.equal(r.owner_org, 'aafc-aac');
  assert.equal(r.owner_org_title, 'Agriculture and Agri-Food Canada');
  assert.equal(r.recipient_legal_name, 'Halifax Food Bank Society');
  assert.equal(r.recipient_city_en, 'Halifax');
  assert.equal(r.recipient_postal_code, 'B3H 4R2');
  assert.equal(r.agreement_value_cents, 100_000_001);
  assert.equal(r.is_major_funding, true);
  assert.equal(r.fiscal_year, '2019-20');
  assert.equal(r.fiscal_year_source, 'reference');
  assert.equal(r.naics_sector_en, 'Health care and social assistance');
  assert.equal(r.amendment_number, 2);
  assert.equal(r.amendment_date, '2020-06-30');
  assert.equal(r.program_name_en, 'Local Food Infrastructure');
});

test('columns are found by name in any order, with unknown extra columns and a byte order mark', () => {
  const shuffled = [...PRE_2025_COLUMNS].reverse();
  shuffled.splice(3, 0, 'some_future_column');
  shuffled[0] = `\uFEFF${shuffled[0]}`;
  const m = mappingOf(shuffled);
  const cells = rowFor(shuffled);
  const mapped = mapRow(cells, m);
  const reference = mapRow(rowFor(PRE_2025_COLUMNS), mappingOf(PRE_2025_COLUMNS));
  assert.ok(mapped.ok && reference.ok);
  assert.deepEqual(mapped.record, reference.record);
  assert.ok(m.ignoredColumns.includes('some_future_column'));
  // the last header (owner_org_title reversed to first) carried the BOM and still resolved
  assert.equal(m.index.owner_org_title, 0);
});

test('recipient_city_en is accepted in place of recipient_city; header case and spaces do not matter', () => {
  const header = PRE_2025_COLUMNS.map((h) => (h === 'recipient_city' ? ' Recipient_City_EN ' : h.toUpperCase()));
  const m = mappingOf(header);
  const values = { ...SAMPLE, recipient_city_en: 'Dartmouth' };
  const cells = header.map((h) => values[h.trim().toLowerCase() as keyof typeof values] ?? '');
  const r = mapRow(cells, m);
  assert.ok(r.ok);
  assert.equal(r.record.recipient_city_en, 'Dartmouth');
});

test('a missing required column is an error that names it', () => {
  const without = PRE_2025_COLUMNS.filter((h) => h !== 'agreement_value');
  const r = resolveColumns(without);
  assert.equal(r.ok, false);
  if (!r.ok) {
    assert.deepEqual(r.missing, ['agreement_value']);
    assert.equal(r.error, 'missing required column: agreement_value');
  }
  const two = resolveColumns(SCHEMA_2025_COLUMNS.filter((h) => h !== 'owner_org' && h !== 'agreement_start_date'));
  assert.equal(two.ok, false);
  if (!two.ok)
    assert.match(
      two.error,
      /missing required columns: .*agreement_start_date.*owner_org|missing required columns: .*owner_org.*agreement_start_date/,
    );
});

test('a header with neither ref_number nor agreement_number names both', () => {
  const r = resolveColumns(PRE_2025_COLUMNS.filter((h) => h !== 'ref_number' && h !== 'agreement_number'));
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.error, 'missing required column: ref_number or agreement_number');
});

test('optional columns may be absent: their fields are empty', () => {
  const minimal = ['owner_org', 'ref_number', 'amendment_number', 'recipient_legal_name', 'agreement_value', 'agreement_start_date'];
  const m = mappingOf(minimal);
  const r = mapRow(['tc', 'X-1', '0', 'Someone', '$50', '2010-01-02'], m);
  assert.ok(r.ok);
  assert.equal(r.record.description_en, '');
  assert.equal(r.record.agreement_end_date, null);
  assert.equal(r.record.naics_sector_en, '');
  assert.equal(r.record.recipient_province, '');
  assert.equal(
    r.record.fiscal_year,
    '2009-10',
    'no pattern in the reference: from the start date (January is in the previous fiscal year)',
  );
});

test('rows that cannot be imported are skipped with a fixed reason', () => {
  const m = mappingOf(PRE_2025_COLUMNS);
  const reasonOf = (changes: Record<string, string>): string => {
    const r = mapRow(rowFor(PRE_2025_COLUMNS, { ...SAMPLE, ...changes }), m);
    return r.ok ? 'ok' : r.reason;
  };
  assert.equal(reasonOf({ agreement_value: '' }), 'agreement_value is empty');
  assert.equal(reasonOf({ agreement_value: 'n/a' }), 'agreement_value is not a number');
  assert.equal(reasonOf({ agreement_start_date: '2019-02-30' }), 'agreement_start_date is missing or not a valid date');
  assert.equal(reasonOf({ ref_number: ' ' }), 'reference number is empty');
  assert.equal(reasonOf({ owner_org: '' }), 'owner_org is empty');
  assert.equal(reasonOf({ amendment_number: 'current' }), 'amendment_number is not a whole number');
  assert.equal(reasonOf({ amendment_number: '' }), 'ok', 'an empty amendment number is an original (0)');
  assert.equal(reasonOf({ agreement_value: '-2,500.00' }), 'ok', 'negative values are real (recoveries)');
});

test('recipient and agreement types keep the source codes; labels map to codes', () => {
  const m = mappingOf(PRE_2025_COLUMNS);
  const typeOf = (recipient_type: string, agreement_type = 'G'): [string, string] => {
    const r = mapRow(rowFor(PRE_2025_COLUMNS, { ...SAMPLE, recipient_type, agreement_type }), m);
    assert.ok(r.ok);
    return [r.record.recipient_type, r.record.agreement_type];
  };
  for (const code of ['A', 'F', 'G', 'I', 'N', 'O', 'P', 'S']) assert.equal(typeOf(code)[0], code);
  assert.equal(typeOf('f')[0], 'F');
  assert.equal(typeOf('For-profit organizations')[0], 'F');
  assert.equal(typeOf('Z')[0], '');
  assert.equal(typeOf('N', 'Contribution')[1], 'C');
  assert.equal(typeOf('N', 'o')[1], 'O');
});
