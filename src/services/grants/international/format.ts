// Global Affairs Canada's Project Browser CSV, as its field definitions describe it (no published file was at hand:
// docs/grants.md says which columns are read and how). Columns are found by header name (case, spaces and a
// byte-order mark aside), never by position; unknown columns are ignored. Texts the source gives in both official
// languages are written "English|French" in one cell. A row is kept when its project number, title, start date and
// maximum contribution can be read; any other field that cannot be read is stored as null (or kept as stored) with a
// warning.
import { headerKey } from '../../../core/csv-rows.ts';
import { fiscalYearOfDate, parseIsoDate } from '../source/fiscal-year.ts';
import { parseMoneyToCents } from '../source/money.ts';
import type { ProjectTexts } from './tables.ts';

/** The columns read, by field, in the order the generator writes them. */
export const PROJECT_COLUMNS = {
  projectNumber: 'projectNumber',
  dateModified: 'dateModified',
  title: 'title',
  description: 'description',
  status: 'status',
  start: 'start',
  end: 'end',
  countries: 'countries',
  executingAgencyPartner: 'executingAgencyPartner',
  sectors: 'DACSectors',
  maximumContribution: 'maximumContribution',
  disbursements: 'disbursements',
  expectedResults: 'expectedResults',
  aidType: 'aidType',
  programName: 'programName',
} as const;
export type ProjectField = keyof typeof PROJECT_COLUMNS;

/** Without these a project cannot be kept: a file missing one of the columns is refused, naming it. */
const REQUIRED_FIELDS: readonly ProjectField[] = ['projectNumber', 'title', 'start', 'maximumContribution'];

/** A column a generated file carries (never the publisher's): its data is stored as demo data. */
export const GENERATED_MARKER = 'pdi_generated';

export type ColumnIndex = Partial<Record<ProjectField, number>>;

/** Where each field is in a header row; the required fields missing from it. */
export function resolveProjectColumns(header: readonly string[]): { index: ColumnIndex; missing: ProjectField[]; generated: boolean } {
  const keys = header.map(headerKey);
  const index: ColumnIndex = {};
  for (const field of Object.keys(PROJECT_COLUMNS) as ProjectField[]) {
    const at = keys.indexOf(headerKey(PROJECT_COLUMNS[field]));
    if (at >= 0) index[field] = at;
  }
  return {
    index,
    missing: REQUIRED_FIELDS.filter((f) => index[f] === undefined),
    generated: keys.includes(GENERATED_MARKER),
  };
}

/** "English|French" → both halves, trimmed; no bar: English only. */
function bilingual(cell: string): { en: string; fr: string } {
  const bar = cell.indexOf('|');
  return bar < 0 ? { en: cell.trim(), fr: '' } : { en: cell.slice(0, bar).trim(), fr: cell.slice(bar + 1).trim() };
}

/** One country or sector of a project: "Name|Nom (CODE): 60.00%". */
export interface Allocation {
  code: string;
  name_en: string;
  name_fr: string;
  share_hundredths: number;
}

const ALLOCATION = /^(.*?)\s*\(([^()]+)\)\s*:\s*(\d{1,3}(?:\.\d{1,2})?)\s*%$/;

/**
 * A list cell ("Ethiopia|Éthiopie (ET): 60.00%; Kenya|Kenya (KE): 40.00%") as allocations; `code` checks each code
 * (ISO 3166-1 alpha-2 for countries, five digits for DAC sectors). Entries that cannot be read are returned apart.
 */
export function parseAllocations(cell: string, code: RegExp): { entries: Allocation[]; unreadable: string[] } {
  const entries: Allocation[] = [];
  const unreadable: string[] = [];
  for (const raw of cell.split(';')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = ALLOCATION.exec(entry);
    const [whole = '0', fraction = ''] = m ? m[3].split('.') : [];
    const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, '0') || '0');
    if (!m || !code.test(m[2].trim()) || hundredths > 10_000) {
      unreadable.push(entry);
      continue;
    }
    const names = bilingual(m[1]);
    entries.push({ code: m[2].trim(), name_en: names.en, name_fr: names.fr, share_hundredths: hundredths });
  }
  return { entries, unreadable };
}

export const COUNTRY_CODE = /^[A-Z]{2}$/;
const SECTOR_CODE = /^\d{5}$/;

/** `cents` × share (hundredths of a percent), half up, exactly (BigInt: cents × 10,000 passes 2^53). */
export function allocateCents(cents: number, shareHundredths: number): number {
  const product = BigInt(cents) * BigInt(shareHundredths);
  const sign = product < 0n ? -1n : 1n;
  const abs = product * sign;
  return Number(sign * ((abs + 5_000n) / 10_000n));
}

/** A project as read from one row, before it is stored. */
export interface ProjectRecord extends ProjectTexts {
  start_year: number;
  maximum_contribution_cents: number;
  disbursements_cents: number | null;
  countries: Allocation[];
  sectors: Allocation[];
}

/** Secondary fields that could not be read: stored as null for a new project, kept as stored otherwise. */
export type UnreadableField = 'dateModified' | 'end' | 'disbursements' | 'countries' | 'sectors';

export type ParsedRow =
  | { ok: true; record: ProjectRecord; unreadable: Array<{ field: UnreadableField; raw: string }> }
  | { ok: false; reason: string; projectNumber: string };

const SKIP = {
  noNumber: 'no projectNumber',
  noTitle: 'no title',
  badStart: 'start is not a date',
  badContribution: 'maximumContribution is not an amount',
} as const;

/** One data row of the file. */
export function parseProjectRow(cells: readonly string[], index: ColumnIndex): ParsedRow {
  const cell = (field: ProjectField) => {
    const at = index[field];
    return at === undefined ? '' : (cells[at] ?? '').trim();
  };
  const projectNumber = cell('projectNumber');
  if (projectNumber === '') return { ok: false, reason: SKIP.noNumber, projectNumber };
  const title = bilingual(cell('title'));
  if (title.en === '' && title.fr === '') return { ok: false, reason: SKIP.noTitle, projectNumber };
  const start = parseIsoDate(cell('start'));
  if (!start) return { ok: false, reason: SKIP.badStart, projectNumber };
  const contribution = parseMoneyToCents(cell('maximumContribution'));
  if (!contribution.ok) return { ok: false, reason: SKIP.badContribution, projectNumber };

  const unreadable: Array<{ field: UnreadableField; raw: string }> = [];
  const optionalDate = (field: 'end' | 'dateModified'): string | null => {
    const raw = cell(field);
    if (raw === '') return null;
    const date = parseIsoDate(raw);
    if (!date) unreadable.push({ field, raw });
    return date;
  };
  let end = optionalDate('end');
  if (end !== null && end < start) {
    unreadable.push({ field: 'end', raw: cell('end') });
    end = null;
  }
  const rawDisbursed = cell('disbursements');
  let disbursements: number | null = null;
  if (rawDisbursed !== '') {
    const parsed = parseMoneyToCents(rawDisbursed);
    if (parsed.ok) disbursements = parsed.cents;
    else unreadable.push({ field: 'disbursements', raw: rawDisbursed });
  }
  const countries = parseAllocations(cell('countries'), COUNTRY_CODE);
  if (countries.unreadable.length) unreadable.push({ field: 'countries', raw: countries.unreadable.join('; ') });
  const sectors = parseAllocations(cell('sectors'), SECTOR_CODE);
  if (sectors.unreadable.length) unreadable.push({ field: 'sectors', raw: sectors.unreadable.join('; ') });
  const status = bilingual(cell('status'));
  const description = bilingual(cell('description'));
  const agency = bilingual(cell('executingAgencyPartner'));
  const results = bilingual(cell('expectedResults'));
  const aid = bilingual(cell('aidType'));
  const program = bilingual(cell('programName'));
  return {
    ok: true,
    unreadable,
    record: {
      project_number: projectNumber,
      date_modified: optionalDate('dateModified'),
      title_en: title.en || title.fr,
      title_fr: title.fr,
      description_en: description.en,
      description_fr: description.fr,
      status: status.en.toLowerCase(),
      status_fr: status.fr,
      start_date: start,
      end_date: end,
      start_year: fiscalYearOfDate(start),
      executing_agency_en: agency.en,
      executing_agency_fr: agency.fr,
      maximum_contribution_cents: contribution.cents,
      disbursements_cents: disbursements,
      expected_results_en: results.en,
      expected_results_fr: results.fr,
      aid_type_en: aid.en,
      aid_type_fr: aid.fr,
      program_name_en: program.en,
      program_name_fr: program.fr,
      countries: countries.entries,
      sectors: sectors.entries,
    },
  };
}
