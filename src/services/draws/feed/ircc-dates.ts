// Dates and timestamps as IRCC writes them in the rounds feed ("August 24, 2025 at 23:43:05 UTC"). The feed
// is typed by hand, so one value appears in many spellings: a missing or doubled comma, "." for ",", no "at",
// "at12:48:30", an ISO date repeated inside, a stray AM/PM on a 24-hour time, no "UTC", no year, ordinal days
// ("July 3rd"), abbreviated months ("Sept.", "Jan"), non-breaking or doubled spaces, a time zone word.
// They are read by words, in any order: a month (a name or its first three or more letters), a day, a year, an
// ISO date, a time with an optional a.m./p.m., and a zone. A word that is none of these makes the value
// unreadable: an error, never a guess.

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

/** 1–12 for a month name or an abbreviation of at least three letters ("sept", "jun"); 0 otherwise. */
function monthNumber(word: string): number {
  if (word.length < 3) return 0;
  const i = MONTHS.findIndex((m) => m.startsWith(word));
  return i + 1;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function isoDate(year: number, month: number, day: number, source: string): string {
  if (!isValidCalendarDate(year, month, day)) throw new RangeError(`no such date in ${JSON.stringify(source)}`);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** Minutes to add to a local time to get UTC, by zone word; "eastern" is resolved per date (standard or daylight). */
const FIXED_ZONES: Record<string, number> = { utc: 0, gmt: 0, z: 0, ut: 0, est: 300, edt: 240, cst: 360, cdt: 300, pst: 480, pdt: 420 };
const EASTERN_WORDS = new Set(['et', 'eastern']);
/** Words that only complete a zone name ("Eastern Standard Time", "Coordinated Universal Time"). */
const ZONE_FILLERS = new Set(['time', 'standard', 'daylight', 'coordinated', 'universal']);
/** Weekday names say nothing the date does not. */
const WEEKDAYS = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day|nesday|sday|urday)?\.?$/;

/** Minutes to add to a local time to get UTC, from "+05:30", "-0500", "utc-5" (sign as written: local = UTC + offset). */
function numericOffset(sign: string, hours: string, minutes: string | undefined): number {
  const total = Number(hours) * 60 + Number(minutes ?? 0);
  return sign === '-' ? total : -total;
}

const easternParts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Toronto',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Offset in minutes (UTC − local) of Eastern time (America/Toronto) at a UTC instant. */
function easternOffsetAt(utcMillis: number): number {
  const p = Object.fromEntries(easternParts.formatToParts(new Date(utcMillis)).map((x) => [x.type, x.value]));
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((utcMillis - local) / 60_000);
}

interface DateParts {
  year: number | null;
  month: number;
  day: number;
  /** An ISO date written inside the value, to check against the words. */
  iso: string | null;
  time: { hour: number; minute: number; second: number; meridiem: 'am' | 'pm' | null } | null;
  zone: { offsetMinutes: number } | 'eastern' | null;
}

/** Spaces of every kind as one space; ordinal suffixes, "at", commas and periods (outside a.m./p.m.) as separators. */
function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g, ' ')
    .replace(/\b([ap])\.\s?m\.?(?=\s|$|[,;)])/g, '$1m')
    .replace(/(\d{4}-\d{2}-\d{2})t(?=\d)/g, '$1 ')
    .replace(/(\d)(st|nd|rd|th)\b/g, '$1')
    .replace(/(^|[\s,.])at(?=\d|[\s,.]|$)/g, '$1 ')
    .replace(/(\d)(am|pm)\b/g, '$1 $2')
    .replace(/(\d)z$/g, '$1 z')
    .replace(/(\d)([+-]\d{2}:?\d{2})$/g, '$1 $2')
    .replace(/[(),;]/g, ' ')
    .replace(/\.(?=\s|$)/g, ' ')
    .split(' ')
    .filter((w) => w !== '' && w !== '.');
}

function readParts(text: string, what: string): DateParts {
  const parts: DateParts = { year: null, month: 0, day: 0, iso: null, time: null, zone: null };
  // Typed as a whole so that calls to it narrow (TypeScript needs the annotation for a `never` function).
  const fail: (why: string) => never = (why) => {
    throw new RangeError(`not ${what}: ${JSON.stringify(text)} (${why})`);
  };
  for (const w of words(text)) {
    let m: RegExpExecArray | null;
    if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w))) {
      if (parts.iso !== null) fail('two ISO dates');
      parts.iso = isoDate(Number(m[1]), Number(m[2]), Number(m[3]), text);
    } else if ((m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(w))) {
      if (parts.time !== null) fail('two times');
      parts.time = { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0), meridiem: null };
    } else if (w === 'am' || w === 'pm') {
      if (parts.time === null || parts.time.meridiem !== null) fail(`"${w}" without a time`);
      parts.time.meridiem = w;
    } else if (/^\d{1,4}$/.test(w)) {
      if (w.length === 4) {
        if (parts.year !== null) fail('two years');
        parts.year = Number(w);
      } else {
        if (parts.day !== 0) fail('two days');
        parts.day = Number(w);
      }
    } else if (
      (m = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(w)) &&
      (w.startsWith('utc') || w.startsWith('gmt') || w.length >= 5)
    ) {
      if (parts.zone !== null) fail('two time zones');
      parts.zone = { offsetMinutes: numericOffset(m[1], m[2], m[3]) };
    } else if (WEEKDAYS.test(w)) {
      // "Thursday, July 3rd"
    } else if (w in FIXED_ZONES) {
      if (parts.zone !== null) fail('two time zones');
      parts.zone = { offsetMinutes: FIXED_ZONES[w] };
    } else if (EASTERN_WORDS.has(w)) {
      if (parts.zone !== null) fail('two time zones');
      parts.zone = 'eastern';
    } else if (ZONE_FILLERS.has(w) && parts.time !== null) {
      // part of a zone's name
    } else if (/^[a-z]+\.?$/.test(w) && monthNumber(w.replace(/\.$/, '')) > 0) {
      if (parts.month !== 0) fail('two months');
      parts.month = monthNumber(w.replace(/\.$/, ''));
    } else {
      fail(`unknown word "${w}"`);
    }
  }
  if (parts.month === 0 && parts.iso === null) fail('no month');
  if (parts.month !== 0 && parts.day === 0) fail('no day');
  if (parts.month === 0 && parts.day !== 0) fail('a day without a month');
  return parts;
}

/** The calendar date of the parts; a missing year is the latest that does not put the date after `referenceDate`. */
function calendarDate(parts: DateParts, text: string, referenceDate: string | undefined): string {
  if (parts.month === 0) return parts.iso!;
  let year: number;
  if (parts.year !== null) year = parts.year;
  else if (parts.iso !== null) year = Number(parts.iso.slice(0, 4));
  else {
    if (referenceDate === undefined) throw new RangeError(`a date without a year: ${JSON.stringify(text)}`);
    const ref = referenceDate.slice(0, 10);
    year = Number(ref.slice(0, 4));
    if (`${year}-${pad2(parts.month)}-${pad2(parts.day)}` > ref) year -= 1;
  }
  const date = isoDate(year, parts.month, parts.day, text);
  if (parts.iso !== null && parts.iso !== date) throw new RangeError(`names two different dates: ${JSON.stringify(text)}`);
  return date;
}

/**
 * "December 14, 2025" (and the lenient spellings above, or "2025-12-14") → "2025-12-14". A missing year is
 * taken from `referenceDate` as for timestamps; without one it is an error.
 */
export function parseIrccDate(text: string, referenceDate?: string): string {
  const parts = readParts(text, 'a date like "December 14, 2025"');
  if (parts.time !== null || parts.zone !== null) throw new RangeError(`a date with a time: ${JSON.stringify(text)}`);
  return calendarDate(parts, text, referenceDate);
}

/**
 * An IRCC timestamp → ISO 8601 UTC ("2025-08-24T23:43:05Z").
 * `referenceDate` (the round's date) supplies a missing year: the latest year that does not put the
 * timestamp after the reference date, because cut-offs and draw times never follow their round.
 * A time without a zone is read as UTC, like every other value in the feed; "EST", "EDT", "ET"/"Eastern"
 * (Toronto's clock that day), "GMT" and the like are converted. An AM/PM marker is applied to hours 1–12 and
 * ignored on hours 13–23, where the clock is plainly 24-hour ("20:19:59 PM").
 */
export function parseIrccTimestamp(text: string, referenceDate?: string): string {
  const parts = readParts(text, 'a timestamp like "August 24, 2025 at 23:43:05 UTC"');
  if (parts.time === null) throw new RangeError(`a timestamp without a time: ${JSON.stringify(text)}`);
  const date = calendarDate(parts, text, referenceDate);
  let { hour } = parts.time;
  const { minute, second, meridiem } = parts.time;
  if (meridiem !== null && hour >= 1 && hour <= 12) {
    if (meridiem === 'pm' && hour < 12) hour += 12;
    if (meridiem === 'am' && hour === 12) hour = 0;
  }
  if (hour > 23 || minute > 59 || second > 59) throw new RangeError(`no such time in ${JSON.stringify(text)}`);
  const [y, mo, d] = date.split('-').map(Number);
  const local = Date.UTC(y, mo - 1, d, hour, minute, second);
  let offset = 0;
  if (parts.zone === 'eastern') {
    // The offset at the instant the local time names: guess with the offset at local-as-UTC, then correct once.
    offset = easternOffsetAt(local + easternOffsetAt(local) * 60_000);
  } else if (parts.zone !== null) offset = parts.zone.offsetMinutes;
  return new Date(local + offset * 60_000).toISOString().replace(/\.000Z$/, 'Z');
}
