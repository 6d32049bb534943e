// IRCC's Express Entry rounds feed (ee_rounds_123_en.json): {"rounds":[…]}, newest first, every value a
// string. parseRoundsFeed reads it leniently, because the feed is typed by hand and a deployment that
// refreshes from IRCC must never freeze on one odd value:
// - a primary field (drawNumber, drawDate, drawName, drawSize, drawCRS) that cannot be read skips its round,
//   with the reason; the importer keeps a stored copy of that round;
// - a secondary field (drawDateTime, drawCutOff, drawText2, drawDistributionAsOn, dd1…dd18, drawNumberURL)
//   that cannot be read is null, with a warning naming the round, the field and the raw value;
// - only a document that is not the feed (not JSON, no "rounds" array, no rounds) is refused, and a JSON
//   document cut short is refused as truncated (TruncatedSourceError, naming the line).
import { ImportRefusedError, TruncatedSourceError } from '../../../core/import.ts';
import { parseSourceJson } from '../../../core/source-text.ts';
import { dayNumber, isValidIsoDate, parseIrccDate, parseIrccTimestamp } from './ircc-dates.ts';
import { buildPoolDistribution, POOL_BANDS, type PoolDistribution } from './pool-distribution.ts';

/** The official address of the feed. */
export const IRCC_ROUNDS_FEED_URL = 'https://www.canada.ca/content/dam/ircc/documents/json/ee_rounds_123_en.json';
/** The French feed, beside it: the same format, its texts (drawName, drawText2, drawDateFull) in French. */
export const IRCC_ROUNDS_FEED_FR_URL = 'https://www.canada.ca/content/dam/ircc/documents/json/ee_rounds_123_fr.json';

/** Public site the feed's relative links are resolved against. */
const CANADA_CA = 'https://www.canada.ca';

export interface ParsedRound {
  /** drawNumber as published: "388", "91a". */
  roundNumber: string;
  /** Integer that orders rounds: number × 100 + letter position ("91" → 9100, "91a" → 9101, "91b" → 9102). */
  roundSortKey: number;
  /** drawDate (or, when it cannot be read, drawDateFull), YYYY-MM-DD. */
  date: string;
  /** drawName exactly as published. */
  drawName: string;
  /** drawSize as a number ("4,000" → 4000). */
  invitations: number;
  /** drawCRS: the lowest score invited. */
  crs: number;
  /** drawText2: the programs the round covered, as published; null when missing. */
  programs: string | null;
  /** drawDateTime as ISO 8601 UTC; null when it cannot be read. */
  drawnAt: string | null;
  /** drawCutOff (the tie-breaking rule's profile submission time) as ISO 8601 UTC; null where the feed leaves it empty (rounds before late 2017) or it cannot be read. */
  tieBreakAt: string | null;
  /** drawDistributionAsOn with dd1…dd18, labelled; null when a count cannot be read. */
  poolDistribution: PoolDistribution | null;
  /** The round's public page, from drawNumberURL; null if the feed gives no link. */
  url: string | null;
}

/** The secondary fields: stored as null, with a warning, when they cannot be read. */
export const SECONDARY_FIELDS = [
  'drawDateTime',
  'drawCutOff',
  'drawText2',
  'drawDistributionAsOn',
  ...POOL_BANDS.map((b) => b.field),
  'drawNumberURL',
] as const;

interface SkippedRound {
  /** drawNumber, or "#<index>" when the round has none. */
  round: string;
  /** The readable round number, if any: the importer keeps the stored copy of that round. */
  roundNumber: string | null;
  field: string;
  /** Counted in the import report: free of round-specific text ("unreadable drawCRS"). */
  reason: string;
  /** What was wrong, with the raw value. */
  message: string;
  /** A second copy of a round already read, identical to it: not an error of the data. */
  duplicate: boolean;
}

interface FeedWarning {
  round: string;
  field: string;
  /** "round 388: drawCutOff: not a timestamp …: \"TBD\" …; stored as null" */
  message: string;
}

export interface ParsedFeed {
  /** Readable rounds, in feed order (newest first). */
  rounds: ParsedRound[];
  skipped: SkippedRound[];
  warnings: FeedWarning[];
  /** Entries of the "rounds" array. */
  total: number;
}

/** A document that is not the rounds feed at all: refused, nothing is imported. */
export class RoundsFeedError extends ImportRefusedError {
  override name = 'RoundsFeedError';
}

const THOUSANDS = /^(?:\d{1,3}(?:[,\u00a0\u202f ]\d{3})+|\d+)$/;

/** "4,000", "4 000", " 4000 ", or the number 4000 itself. */
function parseCount(value: unknown): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a whole number: ${value}`);
    return value;
  }
  const t = String(value)
    .normalize('NFKC')
    .replace(/^[\s\u00a0\u202f]+|[\s\u00a0\u202f]+$/g, '');
  if (!THOUSANDS.test(t)) throw new RangeError(`not a whole number: ${JSON.stringify(value)}`);
  return Number(t.replace(/[^\d]/g, ''));
}

/** "91a" → 9101. */
export function roundSortKey(roundNumber: string): number {
  const m = /^(\d+)([a-z]?)$/i.exec(roundNumber.trim());
  if (!m) throw new RangeError(`not a round number like "388" or "91a": ${JSON.stringify(roundNumber)}`);
  const letter = m[2] ? m[2].toLowerCase().charCodeAt(0) - 96 : 0;
  return Number(m[1]) * 100 + letter;
}

function roundUrl(html: string): string | null {
  const m = /href\s*=\s*['"]([^'"]+)['"]/i.exec(html);
  if (!m) return null;
  const href = m[1].replace(/^\/content\/canadasite(?=\/)/, '');
  return href.startsWith('/') ? CANADA_CA + href : href;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

type Reading<T> = { ok: true; value: T } | { ok: false; missing: boolean; message: string };

/** One field of one round: absent/empty, or read by `parse` (which throws on what it cannot read). */
function readField<T>(record: Record<string, unknown>, field: string, parse: (value: string | number) => T): Reading<T> {
  const value = record[field];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    return { ok: false, missing: true, message: value === undefined ? 'missing' : 'empty' };
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    return { ok: false, missing: false, message: `${show(value)} is not text` };
  }
  try {
    return { ok: true, value: parse(value) };
  } catch (error) {
    const why = (error as Error).message;
    // Say the raw value once: most readers' messages quote it already.
    return { ok: false, missing: false, message: why.includes(JSON.stringify(value)) ? why : `${show(value)}: ${why}` };
  }
}

const text = (v: string | number) => String(v);

function readRoundNumber(v: string | number): string {
  const t = String(v).trim();
  roundSortKey(t);
  return t;
}

function readIsoDate(v: string | number): string {
  const t = String(v).trim();
  if (isValidIsoDate(t)) return t;
  return parseIrccDate(t);
}

function readInvitations(v: string | number): number {
  const n = parseCount(v);
  if (n < 1) throw new RangeError(`a round invites at least one candidate, got ${n}`);
  return n;
}

function readCrs(v: string | number): number {
  const n = parseCount(v);
  if (n > 1200) throw new RangeError(`CRS scores run from 0 to 1200, got ${n}`);
  return n;
}

/**
 * Reads the feed (the decoded JSON, or its text). Throws RoundsFeedError only when the document is not the
 * feed, and TruncatedSourceError when its text stops before the document closes; every other problem is a
 * skipped round or a warning (see the file comment).
 */
export function parseRoundsFeed(json: unknown, source = 'the rounds feed'): ParsedFeed {
  let document = json;
  if (typeof document === 'string') document = parseFeedText(document, source);
  const rounds = (document as { rounds?: unknown } | null)?.rounds;
  if (typeof document !== 'object' || document === null || !Array.isArray(rounds)) {
    throw new RoundsFeedError(`${source} is not the rounds feed: the document has no "rounds" array; nothing was imported`);
  }
  if (rounds.length === 0) throw new RoundsFeedError(`${source} is not the rounds feed: its "rounds" array is empty; nothing was imported`);
  const parsed: ParsedRound[] = [];
  const skipped: SkippedRound[] = [];
  const warnings: FeedWarning[] = [];
  const seen = new Map<string, { index: number; record: Record<string, unknown> }>();
  rounds.forEach((item: unknown, index: number) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      skipped.push({
        round: `#${index}`,
        roundNumber: null,
        field: '(round)',
        reason: 'not a round object',
        message: `${show(item)} is not an object`,
        duplicate: false,
      });
      return;
    }
    const record = item as Record<string, unknown>;
    const number = readField(record, 'drawNumber', readRoundNumber);
    const label = number.ok ? number.value : `#${index}`;
    const roundNumber = number.ok ? number.value : null;
    const skip = (field: string, reading: { missing: boolean; message: string }) => {
      skipped.push({
        round: label,
        roundNumber,
        field,
        reason: `${reading.missing ? 'missing' : 'unreadable'} ${field}`,
        message: `round ${label}, field ${field}: ${reading.message}`,
        duplicate: false,
      });
    };
    if (!number.ok) return skip('drawNumber', number);
    const earlier = seen.get(number.value);
    if (earlier !== undefined) {
      const same = JSON.stringify(earlier.record) === JSON.stringify(record);
      skipped.push({
        round: label,
        roundNumber: null, // the first copy is the one kept
        field: 'drawNumber',
        reason: same ? 'duplicate round (identical copy)' : 'duplicate round number (differing copy)',
        message: `round ${label} appears again at position ${index} (first at ${earlier.index})${same ? '' : ' with different values'}; the first is kept`,
        duplicate: same,
      });
      return;
    }
    seen.set(number.value, { index, record });

    const warn = (field: string, message: string) =>
      warnings.push({ round: label, field, message: `round ${label}: ${field}: ${message}` });
    // drawDate, else drawDateFull (the same day in words).
    let date = readField(record, 'drawDate', readIsoDate);
    if (!date.ok) {
      const full = readField(record, 'drawDateFull', (v) => parseIrccDate(String(v)));
      if (full.ok) {
        warn('drawDate', `${date.message}; the date is taken from drawDateFull (${show(record.drawDateFull)})`);
        date = full;
      }
    }
    if (!date.ok) return skip('drawDate', date);
    const name = readField(record, 'drawName', text);
    if (!name.ok) return skip('drawName', name);
    const invitations = readField(record, 'drawSize', readInvitations);
    if (!invitations.ok) return skip('drawSize', invitations);
    const crs = readField(record, 'drawCRS', readCrs);
    if (!crs.ok) return skip('drawCRS', crs);

    /** A secondary field: its value, or null with a warning (an empty optional field is null without one). */
    const secondary = <T>(field: string, parse: (v: string | number) => T, optional = false): T | null => {
      const reading = readField(record, field, parse);
      if (reading.ok) return reading.value;
      if (!(optional && reading.missing)) warn(field, `${reading.message}; stored as null`);
      return null;
    };
    const reference = date.value;
    const drawnAt = secondary('drawDateTime', (v) => parseIrccTimestamp(String(v), reference));
    const tieBreakAt = secondary('drawCutOff', (v) => parseIrccTimestamp(String(v), reference), true);
    const programs = secondary('drawText2', (v) => String(v).trim());
    const asOn = secondary('drawDistributionAsOn', (v) => parseIrccDate(String(v), reference));
    const counts = POOL_BANDS.map((band) => secondary(band.field, parseCount));
    const urlHtml = secondary('drawNumberURL', text, true);
    parsed.push({
      roundNumber: number.value,
      roundSortKey: roundSortKey(number.value),
      date: date.value,
      drawName: name.value,
      invitations: invitations.value,
      crs: crs.value,
      programs,
      drawnAt,
      tieBreakAt,
      poolDistribution: counts.every((c) => c !== null) ? buildPoolDistribution(asOn, counts as number[]) : null,
      url: urlHtml === null ? null : roundUrl(urlHtml),
    });
  });
  return { rounds: parsed, skipped, warnings, total: rounds.length };
}

/**
 * Where a JSON text that fails to parse was cut short, or null when it is malformed instead: the parser
 * stopped at the very end of the text (V8: "Unexpected end of JSON input", or an error at the last position)
 * of a document that had begun ({ or [). Says the line and what was left open.
 */
export function jsonTruncation(body: string, error: Error): string | null {
  const trimmed = body.trimEnd();
  if (!/^\s*[[{]/.test(trimmed)) return null;
  const position = /at position (\d+)/.exec(error.message);
  const atEnd = /end of JSON input/i.test(error.message) || (position !== null && Number(position[1]) >= trimmed.length);
  if (!atEnd) return null;
  let open = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  for (const c of trimmed) {
    if (c === '\n') line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open++;
    else if (c === '}' || c === ']') open--;
  }
  const left = [inString ? 'inside a string' : '', open > 0 ? `with ${open} bracket${open === 1 ? '' : 's'} still open` : '']
    .filter(Boolean)
    .join(', ');
  return `line ${line.toLocaleString('en-US')}: the JSON document ends before it closes${left ? ` (${left})` : ''}`;
}

/** JSON text of the feed → its document; a text cut short is TruncatedSourceError, other bad JSON RoundsFeedError. */
export function parseFeedText(body: string, source: string): unknown {
  try {
    return parseSourceJson(body);
  } catch (error) {
    const truncated = error instanceof Error ? jsonTruncation(body, error) : null;
    if (truncated !== null) throw new TruncatedSourceError(source, truncated);
    throw new RoundsFeedError(`${source} is not the rounds feed: it is not JSON (${(error as Error).message}); nothing was imported`);
  }
}

/** Rounds oldest first (date, then round number): the order series and gaps are built in. */
export function sortRoundsChronologically<T extends { date: string; roundSortKey: number }>(rounds: readonly T[]): T[] {
  return [...rounds].sort((a, b) => dayNumber(a.date) - dayNumber(b.date) || a.roundSortKey - b.roundSortKey);
}

export class FeedFetchError extends Error {
  readonly url: string;
  constructor(message: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FeedFetchError';
    this.url = url;
  }
}

export interface FetchedRoundsFeed {
  url: string;
  /** When the response arrived, ISO 8601 UTC. */
  fetchedAt: string;
  /** The body as received, for hashing into a data version. */
  body: string;
  /** The decoded JSON. */
  document: unknown;
  feed: ParsedFeed;
}

/**
 * Downloads and parses the feed. Errors: FeedFetchError for a timeout, an unreachable host (offline), a
 * non-2xx status or a body that is not JSON; TruncatedSourceError for a body cut short; RoundsFeedError for
 * a JSON document that is not the feed.
 */
export async function fetchRoundsFeed(
  url: string = IRCC_ROUNDS_FEED_URL,
  options: { timeoutMs?: number } = {},
): Promise<FetchedRoundsFeed> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let body: string;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      throw new FeedFetchError(`The rounds feed at ${url} answered HTTP ${response.status} ${response.statusText}`.trim(), url);
    }
    body = await response.text();
  } catch (error) {
    if (error instanceof FeedFetchError) throw error;
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new FeedFetchError(`The rounds feed at ${url} did not answer within ${timeoutMs} ms`, url, { cause: error });
    }
    const detail = e.cause?.code ?? e.cause?.message ?? e.message;
    throw new FeedFetchError(
      `Could not reach the rounds feed at ${url} (${detail}); check the network connection, or import a saved copy of the file instead`,
      url,
      { cause: error },
    );
  }
  let document: unknown;
  try {
    document = parseFeedText(body, url);
  } catch (error) {
    if (error instanceof TruncatedSourceError) throw error;
    throw new FeedFetchError(`The rounds feed at ${url} is not JSON: ${(error as Error).message}`, url, { cause: error });
  }
  return { url, fetchedAt: new Date().toISOString(), body, document, feed: parseRoundsFeed(document, url) };
}
