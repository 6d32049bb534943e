// IRCC's Express Entry rounds feed (ee_rounds_123_en.json): {"rounds":[…]}, newest first, every value a
// string. parseRoundsFeed turns it into typed rounds, keeping every round and every raw name; a value that
// cannot be read is an error naming the round and the field, never a silently dropped round.
import { dayNumber, isValidIsoDate, parseIrccDate, parseIrccTimestamp } from './ircc-dates.ts';
import { buildPoolDistribution, POOL_BANDS, type PoolDistribution } from './pool-distribution.ts';
import { parseSourceJson } from '../../../core/source-text.ts';

/** The official address of the feed. */
export const IRCC_ROUNDS_FEED_URL = 'https://www.canada.ca/content/dam/ircc/documents/json/ee_rounds_123_en.json';

/** Public site the feed's relative links are resolved against. */
const CANADA_CA = 'https://www.canada.ca';

export interface ParsedRound {
  /** drawNumber as published: "388", "91a". */
  roundNumber: string;
  /** Integer that orders rounds: number × 100 + letter position ("91" → 9100, "91a" → 9101, "91b" → 9102). */
  roundSortKey: number;
  /** drawDate, YYYY-MM-DD. */
  date: string;
  /** drawName exactly as published. */
  drawName: string;
  /** drawSize as a number ("4,000" → 4000). */
  invitations: number;
  /** drawCRS: the lowest score invited. */
  crs: number;
  /** drawText2: the programs the round covered, as published. */
  programs: string;
  /** drawDateTime as ISO 8601 UTC. */
  drawnAt: string;
  /** drawCutOff (the tie-breaking rule's profile submission time) as ISO 8601 UTC; null where the feed leaves it empty (rounds before late 2017). */
  tieBreakAt: string | null;
  /** drawDistributionAsOn with dd1…dd18, labelled. */
  poolDistribution: PoolDistribution;
  /** The round's public page, from drawNumberURL; null if the feed gives no link. */
  url: string | null;
}

export interface FeedProblem {
  /** drawNumber, or "#<index>" when the round has none. */
  round: string;
  field: string;
  message: string;
}

export class RoundsFeedError extends Error {
  readonly problems: FeedProblem[];
  constructor(problems: FeedProblem[]) {
    const shown = problems.slice(0, 5).map((p) => `round ${p.round}, field ${p.field}: ${p.message}`);
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    super(`Rounds feed is not usable: ${shown.join('; ')}${more}`);
    this.name = 'RoundsFeedError';
    this.problems = problems;
  }
}

const INTEGER_WITH_COMMAS = /^(?:\d{1,3}(?:,\d{3})+|\d+)$/;

function parseCount(text: string): number {
  const t = text.trim();
  if (!INTEGER_WITH_COMMAS.test(t)) throw new RangeError(`not a whole number: ${JSON.stringify(text)}`);
  return Number(t.replace(/,/g, ''));
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

/** Reads one round; throws RangeError/TypeError on the first bad field, tagged with the field's name. */
class FieldReader {
  readonly record: Record<string, unknown>;
  readonly problems: FeedProblem[] = [];
  readonly round: string;
  constructor(record: Record<string, unknown>, round: string) {
    this.record = record;
    this.round = round;
  }
  read<T>(field: string, parse: (text: string) => T, options: { optional?: boolean } = {}): T | null {
    const value = this.record[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      if (options.optional) return null;
      this.problems.push({ round: this.round, field, message: value === undefined ? 'missing' : 'empty' });
      return null;
    }
    if (typeof value !== 'string') {
      this.problems.push({ round: this.round, field, message: `expected a string, got ${typeof value}` });
      return null;
    }
    try {
      return parse(value);
    } catch (error) {
      this.problems.push({ round: this.round, field, message: (error as Error).message });
      return null;
    }
  }
}

/**
 * Parses the feed (the decoded JSON, or its text). Rounds come back in feed order (newest first).
 * Throws RoundsFeedError listing every unreadable field and every duplicate round number.
 */
export function parseRoundsFeed(json: unknown): ParsedRound[] {
  let document = json;
  if (typeof document === 'string') {
    try {
      document = parseSourceJson(document);
    } catch (error) {
      throw new RoundsFeedError([{ round: '-', field: '(document)', message: `not JSON: ${(error as Error).message}` }]);
    }
  }
  const rounds = (document as { rounds?: unknown } | null)?.rounds;
  if (typeof document !== 'object' || document === null || !Array.isArray(rounds)) {
    throw new RoundsFeedError([{ round: '-', field: 'rounds', message: 'the document has no "rounds" array' }]);
  }
  const problems: FeedProblem[] = [];
  const parsed: ParsedRound[] = [];
  const seen = new Map<string, number>();
  rounds.forEach((item: unknown, index: number) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ round: `#${index}`, field: '(round)', message: 'not an object' });
      return;
    }
    const record = item as Record<string, unknown>;
    const label = typeof record.drawNumber === 'string' && record.drawNumber.trim() ? record.drawNumber.trim() : `#${index}`;
    const r = new FieldReader(record, label);
    const roundNumber = r.read('drawNumber', (t) => {
      roundSortKey(t);
      return t.trim();
    });
    const date = r.read('drawDate', (t) => {
      if (!isValidIsoDate(t.trim())) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(t)}`);
      return t.trim();
    });
    const drawName = r.read('drawName', (t) => t);
    const invitations = r.read('drawSize', (t) => {
      const n = parseCount(t);
      if (n < 1) throw new RangeError(`a round invites at least one candidate, got ${n}`);
      return n;
    });
    const crs = r.read('drawCRS', (t) => {
      const n = parseCount(t);
      if (n > 1200) throw new RangeError(`CRS scores run from 0 to 1200, got ${n}`);
      return n;
    });
    const programs = r.read('drawText2', (t) => t.trim());
    const reference = date ?? undefined;
    const drawnAt = r.read('drawDateTime', (t) => parseIrccTimestamp(t, reference));
    const tieBreakAt = r.read('drawCutOff', (t) => parseIrccTimestamp(t, reference), { optional: true });
    const asOn = r.read('drawDistributionAsOn', parseIrccDate);
    const counts = POOL_BANDS.map((band) => r.read(band.field, parseCount));
    const urlHtml = r.read('drawNumberURL', (t) => t, { optional: true });
    if (roundNumber !== null) {
      const firstIndex = seen.get(roundNumber);
      if (firstIndex !== undefined) {
        r.problems.push({ round: label, field: 'drawNumber', message: `duplicate round number (also at position ${firstIndex})` });
      } else {
        seen.set(roundNumber, index);
      }
    }
    if (r.problems.length > 0) {
      problems.push(...r.problems);
      return;
    }
    parsed.push({
      roundNumber: roundNumber!,
      roundSortKey: roundSortKey(roundNumber!),
      date: date!,
      drawName: drawName!,
      invitations: invitations!,
      crs: crs!,
      programs: programs!,
      drawnAt: drawnAt!,
      tieBreakAt,
      poolDistribution: buildPoolDistribution(asOn!, counts as number[]),
      url: urlHtml === null ? null : roundUrl(urlHtml),
    });
  });
  if (problems.length > 0) throw new RoundsFeedError(problems);
  return parsed;
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
  rounds: ParsedRound[];
}

/**
 * Downloads and parses the feed. Errors: FeedFetchError for a timeout, an unreachable host (offline), a
 * non-2xx status or a body that is not JSON; RoundsFeedError for a feed with unreadable rounds.
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
  let json: unknown;
  try {
    json = parseSourceJson(body);
  } catch (error) {
    throw new FeedFetchError(`The rounds feed at ${url} is not JSON: ${(error as Error).message}`, url, { cause: error });
  }
  return { url, fetchedAt: new Date().toISOString(), body, rounds: parseRoundsFeed(json) };
}
