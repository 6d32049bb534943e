// Federal fiscal years run April 1 to March 31. A fiscal year is identified by the calendar year it starts
// in (2018 = April 1, 2018 – March 31, 2019) and labelled "2018-19" (the data's and the API's label); French
// text writes it in full, "2018-2019", as the Government of Canada's French publications do (exercice 2018-2019).

/** The controlled reference format of the proactive-disclosure guidelines: DDD-YYYY-YYYY-Qn-NNNNN. */
const REFERENCE_PATTERN = /^\s*\d{3}-(\d{4})-(\d{4})-[Qq][1-4]-/;

export function fiscalYearLabel(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

/** The fiscal year starting in `startYear` written in full: "2018-2019". */
export function fiscalYearInFull(startYear: number): string {
  return `${startYear}-${startYear + 1}`;
}

/** "2018-19" or "2018-2019" → 2018; anything else → null. */
export function parseFiscalYearLabel(label: string): number | null {
  const m = /^\s*(\d{4})-(\d{2}|\d{4})\s*$/.exec(label);
  if (!m) return null;
  const start = Number(m[1]);
  const end = Number(m[2]);
  const expected = m[2].length === 2 ? (start + 1) % 100 : start + 1;
  return end === expected ? start : null;
}

/** The fiscal year named by a reference number in the DDD-YYYY-YYYY-Qn-… pattern, or null. */
export function fiscalYearFromReference(reference: string): number | null {
  const m = REFERENCE_PATTERN.exec(reference);
  if (!m) return null;
  const first = Number(m[1]);
  const second = Number(m[2]);
  return second === first + 1 ? first : null;
}

/** A valid calendar date "YYYY-MM-DD" between 1900 and 2999 (a trailing time is ignored; "/" separators accepted), else null. */
/** Dates outside these years are data errors (e.g. 0000-01-01), not agreements. */
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by `count` decimal digits of `text` from `at` (NaN when one is not a digit): no slices. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return NaN;
    value = value * 10 + d;
  }
  return value;
}

export function parseIsoDate(text: string | null | undefined): string | null {
  if (!text) return null;
  // fast path for the common exact form YYYY-MM-DD (millions of rows): digits read as code units, no slices
  if (text.length === 10 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45) {
    const y = digitsAt(text, 0, 4);
    const mo = digitsAt(text, 5, 2);
    const d = digitsAt(text, 8, 2);
    if (!Number.isNaN(y + mo + d)) {
      if (y < MIN_YEAR || y > MAX_YEAR || mo < 1 || mo > 12 || d < 1) return null;
      const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
      const max = mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1];
      return d <= max ? text : null;
    }
  }
  const m = /^\s*(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:$|[T\s])/.exec(text);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < MIN_YEAR || y > MAX_YEAR || mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  return `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Fiscal year (start year) containing an ISO date: April 1 starts a new fiscal year. */
export function fiscalYearOfDate(isoDate: string): number {
  const year = digitsAt(isoDate, 0, 4);
  const month = digitsAt(isoDate, 5, 2);
  return month >= 4 ? year : year - 1;
}

export interface DerivedFiscalYear {
  startYear: number;
  label: string;
  source: 'reference' | 'start_date';
}

/** fiscal_year from the reference's DDD-YYYY-YYYY-Qn pattern, else from the agreement start date. */
export function deriveFiscalYear(reference: string, startDate: string): DerivedFiscalYear {
  const fromReference = fiscalYearFromReference(reference);
  if (fromReference !== null) return { startYear: fromReference, label: fiscalYearLabel(fromReference), source: 'reference' };
  const fromDate = fiscalYearOfDate(startDate);
  return { startYear: fromDate, label: fiscalYearLabel(fromDate), source: 'start_date' };
}
