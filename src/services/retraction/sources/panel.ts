// The democracy panel CSV: one row per country and year, `country, iso3, region, year, democracy_index,
// publications, retractions` (found by name, any case) and any number of further numeric columns, the
// covariates, kept in file order. Missing values (empty, NA, NaN) are null; the model drops incomplete rows.
// Text that is not a number is another matter: in democracy_index, publications or retractions it makes the row
// unreadable (the importer keeps that country-year's stored copy); in a covariate it is null with a warning, and
// never replaces a value already stored.
import { parseNumber } from './fields.ts';

const PANEL_FIXED_COLUMNS = ['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions'] as const;
const REQUIRED = ['country', 'year', 'democracy_index', 'publications', 'retractions'];

export interface PanelColumnMap {
  fixed: Record<string, number>;
  /** Covariate name → column index, in file order. */
  covariates: [string, number][];
}

const normalise = (cell: string) =>
  cell
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

export function mapPanelHeader(header: readonly string[]): PanelColumnMap {
  const fixed: Record<string, number> = {};
  const covariates: [string, number][] = [];
  const seen = new Set<string>();
  header.forEach((cell, i) => {
    const name = normalise(cell);
    // The generated-data marker (generated.ts) labels the file; it is not a covariate.
    if (name === '' || seen.has(name) || name === 'data_kind') return;
    seen.add(name);
    if ((PANEL_FIXED_COLUMNS as readonly string[]).includes(name)) fixed[name] = i;
    else covariates.push([name, i]);
  });
  const missing = REQUIRED.filter((c) => fixed[c] === undefined);
  if (missing.length) throw new Error(`not a democracy panel CSV: missing column(s) ${missing.join(', ')} (found: ${header.join(', ')})`);
  return { fixed, covariates };
}

export interface PanelRecord {
  country: string;
  iso3: string | null;
  region: string | null;
  year: number;
  democracy_index: number | null;
  publications: number | null;
  retractions: number | null;
  covariates: Record<string, number | null>;
  /** Covariates whose cell could not be read: null here, and the stored value, if any, is kept. */
  unreadable?: string[];
}

type PanelSkip =
  | 'missing country'
  | 'year not a whole number between 1800 and 2200'
  | 'unreadable democracy_index'
  | 'unreadable publications'
  | 'unreadable retractions';

export interface PanelRowResult {
  record?: PanelRecord;
  skip?: PanelSkip;
  /** Cells set to null because they held text that is not a number (counted per column). */
  nonNumeric: string[];
  /** The country and year of a skipped row that has them: its stored copy is kept. */
  key?: { country: string; year: number };
}

export function parsePanelRow(cells: readonly string[], map: PanelColumnMap): PanelRowResult {
  const nonNumeric: string[] = [];
  const cell = (name: string) => (map.fixed[name] === undefined ? undefined : cells[map.fixed[name]]);
  const country = (cell('country') ?? '').trim();
  if (country === '') return { skip: 'missing country', nonNumeric };
  const year = parseNumber(cell('year'));
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 1800 || year > 2200)
    return { skip: 'year not a whole number between 1800 and 2200', nonNumeric };
  const number = (name: string, text: string | undefined) => {
    const value = parseNumber(text);
    if (value === undefined) {
      nonNumeric.push(name);
      return null;
    }
    return value;
  };
  const count = (name: string) => {
    const value = number(name, cell(name));
    if (value === null) return null;
    if (!Number.isInteger(value) || value < 0) {
      nonNumeric.push(name);
      return null;
    }
    return value;
  };
  const democracyIndex = number('democracy_index', cell('democracy_index'));
  const publications = count('publications');
  const retractions = count('retractions');
  if (nonNumeric.length > 0) return { skip: `unreadable ${nonNumeric[0] as 'publications'}`, nonNumeric: [], key: { country, year } };
  const covariates: Record<string, number | null> = {};
  for (const [name, i] of map.covariates) covariates[name] = number(name, cells[i]);
  const text = (name: string) => {
    const t = (cell(name) ?? '').trim();
    return t === '' ? null : t;
  };
  return {
    nonNumeric,
    record: {
      country,
      iso3: text('iso3')?.toUpperCase() ?? null,
      region: text('region'),
      year,
      democracy_index: democracyIndex,
      publications,
      retractions,
      covariates,
      ...(nonNumeric.length > 0 ? { unreadable: nonNumeric } : {}),
    },
  };
}
