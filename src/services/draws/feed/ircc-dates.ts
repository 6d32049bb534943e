// Dates and timestamps as IRCC writes them in the rounds feed ("August 24, 2025 at 23:43:05 UTC").
// The feed is typed by hand, so the same value appears in a dozen spellings (see the tests): a missing
// or doubled comma, "." for ",", no "at", "at12:48:30", an ISO date repeated inside, a stray AM/PM on a
// 24-hour time, no "UTC", no year. Each spelling seen is accepted; anything else is an error.

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/** Days since 1970-01-01 of an ISO calendar date; the project's unit for date arithmetic. */
export function dayNumber(isoDate: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(isoDate)}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (!isValidCalendarDate(year, month, day)) throw new RangeError(`no such date: ${isoDate}`);
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

export function isoFromDayNumber(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

export function isValidIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return m !== null && isValidCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isValidCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function monthIndex(name: string): number {
  const i = MONTHS.indexOf(name.toLowerCase() as (typeof MONTHS)[number]);
  if (i < 0) throw new RangeError(`unknown month ${JSON.stringify(name)}`);
  return i + 1;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** "December 14, 2025" (also "December 14 2025", "December 14. 2025") → "2025-12-14". */
export function parseIrccDate(text: string): string {
  const m = /^([A-Za-z]+)\s+(\d{1,2})\s*[,.]?\s*(\d{4})$/.exec(text.trim());
  if (!m) throw new RangeError(`not a date like "December 14, 2025": ${JSON.stringify(text)}`);
  return isoDate(Number(m[3]), monthIndex(m[1]), Number(m[2]), text);
}

function isoDate(year: number, month: number, day: number, source: string): string {
  if (!isValidCalendarDate(year, month, day)) throw new RangeError(`no such date in ${JSON.stringify(source)}`);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

// Month day[,.] [year][,] [at] [YYYY-MM-DD] H:MM:SS [AM|PM] [UTC]
const TIMESTAMP = new RegExp(
  '^([A-Za-z]+)\\s+(\\d{1,2})\\s*[,.]?\\s*(\\d{4})?\\s*,?\\s*(?:at)?\\s*' +
    '(?:(\\d{4})-(\\d{2})-(\\d{2})\\s+)?(\\d{1,2}):(\\d{2}):(\\d{2})\\s*(AM|PM)?\\s*(UTC)?$',
  'i',
);

/**
 * An IRCC timestamp → ISO 8601 UTC ("2025-08-24T23:43:05Z").
 * `referenceDate` (the round's date) supplies a missing year: the latest year that does not put the
 * timestamp after the reference date, because cut-offs and draw times never follow their round.
 * A time without "UTC" is read as UTC, like every other value in the feed. An AM/PM marker is applied to
 * hours 1–12 and ignored on hours 13–23, where the clock is plainly 24-hour ("20:19:59 PM").
 */
export function parseIrccTimestamp(text: string, referenceDate?: string): string {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) throw new RangeError(`not a timestamp like "August 24, 2025 at 23:43:05 UTC": ${JSON.stringify(text)}`);
  const month = monthIndex(m[1]);
  const day = Number(m[2]);
  let year: number;
  if (m[3] !== undefined) {
    year = Number(m[3]);
  } else if (m[4] !== undefined) {
    year = Number(m[4]);
  } else {
    if (referenceDate === undefined) throw new RangeError(`timestamp without a year: ${JSON.stringify(text)}`);
    const ref = referenceDate.slice(0, 10);
    year = Number(ref.slice(0, 4));
    if (`${year}-${pad2(month)}-${pad2(day)}` > ref) year -= 1;
  }
  const date = isoDate(year, month, day, text);
  if (m[4] !== undefined && `${m[4]}-${m[5]}-${m[6]}` !== date) {
    throw new RangeError(`timestamp names two different dates: ${JSON.stringify(text)}`);
  }
  let hour = Number(m[7]);
  const minute = Number(m[8]);
  const second = Number(m[9]);
  const meridiem = m[10]?.toUpperCase();
  if (meridiem !== undefined && hour >= 1 && hour <= 12) {
    if (meridiem === 'PM' && hour < 12) hour += 12;
    if (meridiem === 'AM' && hour === 12) hour = 0;
  }
  if (hour > 23 || minute > 59 || second > 59) throw new RangeError(`no such time in ${JSON.stringify(text)}`);
  return `${date}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}Z`;
}
