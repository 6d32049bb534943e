// Field-level parsing shared by the Retraction Watch, citation and panel readers: dates in the forms the
// sources use, DOIs, multi-valued cells and numbers. Pure functions, no I/O.

/** A real calendar date as YYYY-MM-DD, or null. */
function isoDate(y: number, m: number, d: number): string | null {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d) || y < 1000 || y > 9999) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Retraction Watch dates: `M/D/YYYY H:MM` (the CSV export), `M/D/YYYY`, or ISO 8601 (`YYYY-MM-DD`, with or
 * without a time). The time of day is dropped: every comparison in this service is by calendar day.
 * Empty text is null; text in no known form is `undefined` so callers can count it.
 */
export function parseRecordDate(text: string | undefined): string | null | undefined {
  const value = (text ?? '').trim();
  if (value === '') return null;
  let m = US_DATE.exec(value);
  if (m) return isoDate(Number(m[3]), Number(m[1]), Number(m[2])) ?? undefined;
  m = ISO_DATE.exec(value);
  if (m) return isoDate(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined;
  return undefined;
}

type DatePrecision = 'day' | 'month' | 'year';

export interface PartialDate {
  /** The first day of the period the source names (2019 → 2019-01-01, 2019-05 → 2019-05-01). */
  date: string;
  precision: DatePrecision;
}

/**
 * Publication dates of citing works: `YYYY-MM-DD`, `YYYY-MM` or `YYYY` (OpenCitations gives whatever
 * precision Crossref has), or any Retraction-Watch-style date. A partial date stands for the first day of
 * its period, so a citation is only counted as post-retraction when its whole period lies after the
 * retraction (never over-counted).
 */
export function parsePartialDate(text: string | undefined | null): PartialDate | null {
  const value = (text ?? '').trim();
  if (value === '') return null;
  let m = /^(\d{4})$/.exec(value);
  if (m) {
    const date = isoDate(Number(m[1]), 1, 1);
    return date ? { date, precision: 'year' } : null;
  }
  m = /^(\d{4})-(\d{2})$/.exec(value);
  if (m) {
    const date = isoDate(Number(m[1]), Number(m[2]), 1);
    return date ? { date, precision: 'month' } : null;
  }
  const full = parseRecordDate(value);
  return full ? { date: full, precision: 'day' } : null;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD): positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  const a = Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)) - 1, Number(from.slice(8, 10)));
  const b = Date.UTC(Number(to.slice(0, 4)), Number(to.slice(5, 7)) - 1, Number(to.slice(8, 10)));
  return Math.round((b - a) / 86_400_000);
}

/** The same calendar day `years` earlier (29 February falls back to 28 February). */
export function yearsBefore(date: string, years: number): string {
  const y = Number(date.slice(0, 4)) - years;
  const m = Number(date.slice(5, 7));
  let d = Number(date.slice(8, 10));
  while (isoDate(y, m, d) === null) d--;
  return isoDate(y, m, d)!;
}

/** `;`-separated values, trimmed, empty ones dropped (Retraction Watch ends most lists with `;`). */
export function splitMulti(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

const NO_VALUE = new Set(['', 'unavailable', 'not available', 'n/a', 'na', 'none', 'null', '0']);

/**
 * A DOI as found in a cell (`10.1000/x`, `doi:10.1000/x`, `https://doi.org/10.1000/x`), without prefix, or
 * null for placeholders such as "Unavailable". DOIs are case-insensitive; `doiKey` gives the comparison form.
 */
export function cleanDoi(text: string | undefined | null): string | null {
  let value = (text ?? '').trim();
  if (NO_VALUE.has(value.toLowerCase())) return null;
  value = value.replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, '');
  return /^10\.\d{3,9}\/\S+$/.test(value) ? value : null;
}

export function doiKey(doi: string): string {
  return doi.toLowerCase();
}

/** A PubMed id, or null for empty cells and Retraction Watch's "0". */
export function cleanPubMedId(text: string | undefined): string | null {
  const value = (text ?? '').trim();
  return /^[1-9]\d{0,9}$/.test(value) ? value : null;
}

/** Yes/No/True/False/1/0 (any case), or null. */
export function parseYesNo(text: string | undefined): boolean | null {
  const value = (text ?? '').trim().toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(value)) return true;
  if (['no', 'n', 'false', '0'].includes(value)) return false;
  return null;
}

const MISSING_NUMBER = new Set(['', 'na', 'n/a', 'nan', 'null', 'none', '.', '..', '-']);

/** A decimal number; null when missing; undefined when the cell holds text that is not a number. */
export function parseNumber(text: string | undefined): number | null | undefined {
  const value = (text ?? '').trim();
  if (MISSING_NUMBER.has(value.toLowerCase())) return null;
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
