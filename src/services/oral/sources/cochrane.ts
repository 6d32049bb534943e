// Cochrane summary-of-findings CSVs (cochrane_sof/<review>/<review>.PUB<n>.csv) → one ReviewInput per
// review, from the latest version (highest PUB number, compared as numbers: PUB10 > PUB9; a file without
// a PUB number is the first version).
//
// Files are decoded by core/text-decoding.ts (UTF-8, else Windows-1252). Cells "NA", "NR", "None reported",
// "Not measured", "Not reported…" and empty cells are null. Numbers are parsed; booleans are TRUE/FALSE; a
// value that cannot be read is null and listed in the outcome's `unreadable` (the store warns and keeps a
// stored value).
// GRADE labels are normalised by normalizeCertainty. Header names are matched after folding case and
// punctuation, with the aliases in COLUMN_ALIASES; the variants seen in the 201 files are the standard
// 18 columns, the same plus "incoherence" (a network meta-analysis), and the same plus "accuracy"
// (diagnostic test accuracy reviews: Sensitivity or Specificity, folded into `measure` as
// "Sensitivity (Proportion)"). Titles come from cochrane_titles.csv as they are (checked against the outcomes
// at import, review-title.ts). Authors, abstract and publication date are not in these files and stay null.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { decodeText, type TextEncodingUsed } from '../../../core/text-decoding.ts';
import type { Certainty, DowngradesInput, OutcomeInput, ReviewInput, SourceIssue, UnreadableField, UnreadableValue } from './types.ts';
import { storableText } from '../../../core/source-text.ts';
import { TruncatedSourceError } from '../../../core/import.ts';
import { csvTruncation } from './truncation.ts';

const CERTAINTY_RANK: Record<Certainty, number> = { very_low: 1, low: 2, moderate: 3, high: 4 };
const CERTAINTY_BY_FILLED_SYMBOLS: Record<number, Certainty> = { 1: 'very_low', 2: 'low', 3: 'moderate', 4: 'high' };

// Cell values that mean "no value".
const MISSING = new Set([
  '',
  'na',
  'n/a',
  'nr',
  'none reported',
  'not reported',
  'not reported in any studies',
  'not measured',
  'not estimable',
  '-',
]);

export function isMissing(cell: string | null | undefined): boolean {
  return cell == null || MISSING.has(cell.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase());
}

const LEVEL_PATTERNS: readonly (readonly [RegExp, Certainty])[] = [
  // Not followed by a letter, so "lower" is no level but "moderate1" (from "Moderate¹") is.
  [/^very[\s_-]*low(?!\p{L})/u, 'very_low'],
  [/^high(?!\p{L})/u, 'high'],
  [/^moderate(?!\p{L})/u, 'moderate'],
  [/^low(?!\p{L})/u, 'low'],
];

function leadingLevel(text: string): { level: Certainty; rest: string } | null {
  for (const [pattern, level] of LEVEL_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { level, rest: text.slice(match[0].length) };
  }
  return null;
}

const FILLED_SYMBOLS = /[\u2295\u2A01]/gu; // ⊕ ⨁
const EMPTY_SYMBOLS = /[\u229D\u2296\u25EF\u25CB]/gu; // ⊝ ⊖ ◯ ○

/**
 * A GRADE certainty label → high | moderate | low | very_low, or null when the label says there is none
 * ("NA", "Not measured") or is not recognised.
 * - case and spacing: "VERY LOW", "Very Low", " very low", "very-low" → very_low;
 * - trailing notes are ignored: "Low (downgraded twice)", "Moderate¹", "LOW a" → low / moderate;
 * - a range "X to Y" (as in "Low to very low") is read as the lower of the two, the conservative reading;
 * - symbols: the count of ⊕ among four symbols ("⊕⊕⊝⊝" → low); a word next to them wins.
 */
export function normalizeCertainty(raw: string | null | undefined): Certainty | null {
  if (raw == null || isMissing(raw)) return null;
  const folded = raw.normalize('NFKC').toLowerCase();
  const filled = (folded.match(FILLED_SYMBOLS) ?? []).length;
  const empty = (folded.match(EMPTY_SYMBOLS) ?? []).length;
  const words = folded
    .replace(FILLED_SYMBOLS, ' ')
    .replace(EMPTY_SYMBOLS, ' ')
    .replace(/^[\s:;,.()\-–]+/u, '')
    .trim();
  const first = leadingLevel(words);
  if (first) {
    const range = /^\s*(?:to|-|–|—|\/)\s*/u.exec(first.rest);
    const second = range ? leadingLevel(first.rest.slice(range[0].length)) : null;
    if (second && CERTAINTY_RANK[second.level] < CERTAINTY_RANK[first.level]) return second.level;
    return first.level;
  }
  if (filled >= 1 && filled + empty === 4) return CERTAINTY_BY_FILLED_SYMBOLS[filled];
  return null;
}

type Column =
  | 'population'
  | 'intervention'
  | 'comparison'
  | 'outcome'
  | 'accuracy'
  | 'measure'
  | 'effect'
  | 'ci_lower'
  | 'ci_upper'
  | 'significant'
  | 'participants'
  | 'studies'
  | 'certainty'
  | 'reasons'
  | 'risk_of_bias'
  | 'imprecision'
  | 'inconsistency'
  | 'indirectness'
  | 'publication_bias'
  | 'incoherence';

/** Header names (folded: lower case, punctuation as spaces) accepted for each column. */
const COLUMN_ALIASES: Record<Column, readonly string[]> = {
  population: ['population', 'patient or population', 'participants population'],
  intervention: ['intervention', 'interventions'],
  comparison: ['comparison', 'comparator', 'control'],
  outcome: ['outcome', 'outcomes'],
  accuracy: ['accuracy', 'accuracy measure'],
  measure: ['measure', 'effect measure', 'measure of effect'],
  effect: ['effect', 'effect estimate', 'estimate', 'relative effect'],
  ci_lower: ['ci lower', 'lower ci', 'ci low', 'lower', '95 ci lower', 'lower 95 ci', 'lower limit'],
  ci_upper: ['ci upper', 'upper ci', 'ci high', 'upper', '95 ci upper', 'upper 95 ci', 'upper limit'],
  significant: ['significant', 'statistically significant', 'significance'],
  participants: ['number of participants', 'participants', 'no of participants', 'n participants', 'number of participants studies'],
  studies: ['number of studies', 'studies', 'no of studies', 'n studies'],
  certainty: [
    'certainty of the evidence grade',
    'certainty of the evidence',
    'certainty',
    'quality of the evidence grade',
    'quality of the evidence',
    'grade',
    'certainty grade',
  ],
  reasons: ['reasons for grade if not high', 'reasons for grade', 'reasons', 'grade reasons', 'comments'],
  risk_of_bias: ['risk of bias', 'rob', 'study limitations'],
  imprecision: ['imprecision'],
  inconsistency: ['inconsistency', 'heterogeneity'],
  indirectness: ['indirectness'],
  publication_bias: ['publication bias', 'reporting bias'],
  incoherence: ['incoherence', 'intransitivity'],
};

const ALIAS_TO_COLUMN = new Map<string, Column>();
for (const [column, aliases] of Object.entries(COLUMN_ALIASES) as [Column, readonly string[]][]) {
  for (const alias of aliases) ALIAS_TO_COLUMN.set(alias, column);
}

function foldHeader(header: string): string {
  return header
    .normalize('NFKC')
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface HeaderMap {
  index: Partial<Record<Column, number>>;
  /** Headers that matched no column (ignored). */
  unknown: string[];
}

export function mapHeader(headers: readonly string[]): HeaderMap {
  const index: Partial<Record<Column, number>> = {};
  const unknown: string[] = [];
  headers.forEach((header, i) => {
    const column = ALIAS_TO_COLUMN.get(foldHeader(header));
    if (column === undefined || index[column] !== undefined) unknown.push(header);
    else index[column] = i;
  });
  return { index, unknown };
}

function cleanText(cell: string | undefined): string | null {
  if (cell === undefined || isMissing(cell)) return null;
  return cell.replace(/\s+/g, ' ').trim();
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** A decimal number ("-0.7", "1e-3", Unicode minus accepted), or null. */
export function parseNumber(cell: string | undefined): number | null {
  if (cell === undefined || isMissing(cell)) return null;
  const text = cell.trim().replace(/\u2212/g, '-');
  return NUMBER.test(text) ? Number(text) : null;
}

/**
 * A count: a whole number ("472", "1,248"), or the leading whole number of a count with its unit
 * ("143 participants", "190 participants; 256 teeth", "52 children (52 tooth pairs)" → the first count).
 */
export function parseCount(cell: string | undefined): number | null {
  if (cell === undefined || isMissing(cell)) return null;
  const match = /^\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.0+)?(?=\s*$|\s+[\p{L}(])/u.exec(cell);
  return match ? Number(match[1].replace(/,/g, '')) : null;
}

export function parseBoolean(cell: string | undefined): boolean | null {
  if (cell === undefined) return null;
  const folded = cell.trim().toLowerCase();
  if (folded === 'true' || folded === 'yes') return true;
  if (folded === 'false' || folded === 'no') return false;
  return null;
}

export interface SofParse {
  /** False when the file has none of the columns that make a summary of findings (its rows are unreadable). */
  readable: boolean;
  outcomes: OutcomeInput[];
  /** Data rows in the file (after the header), including skipped ones. */
  rowsRead: number;
  issues: SourceIssue[];
}

/** One summary-of-findings CSV (already decoded) → its outcomes. `location` names the file in issues. */
export function parseSofCsv(text: string, location: string): SofParse {
  const parsed = Papa.parse<string[]>(storableText(text), { header: false, skipEmptyLines: false, delimiter: ',' });
  const rows = parsed.data;
  const issues: SourceIssue[] = [];
  for (const error of parsed.errors) {
    issues.push({ kind: 'warning', location: `${location} row ${(error.row ?? 0) + 1}`, reason: `CSV: ${error.message}` });
  }
  if (rows.length === 0) {
    issues.push({ kind: 'unreadable', location, reason: 'empty file' });
    return { readable: false, outcomes: [], rowsRead: 0, issues };
  }
  const { index, unknown } = mapHeader(rows[0]);
  for (const header of unknown) issues.push({ kind: 'warning', location, reason: `column "${header}" not recognised; ignored` });
  if (index.outcome === undefined && index.population === undefined && index.intervention === undefined) {
    issues.push({ kind: 'unreadable', location, reason: 'no Population, Intervention or Outcome column' });
    return { readable: false, outcomes: [], rowsRead: rows.length - 1, issues };
  }

  const outcomes: OutcomeInput[] = [];
  let rowsRead = 0;
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r];
    // Papa gives a final [""] for a trailing newline; that is not a data row.
    if (r === rows.length - 1 && row.length === 1 && row[0] === '') continue;
    rowsRead++;
    const where = `${location} row ${r + 1}`;
    if (row.every((cell) => isMissing(cell))) {
      issues.push({ kind: 'excluded', location: where, reason: 'empty row' });
      continue;
    }
    if (row.length !== rows[0].length) {
      issues.push({ kind: 'warning', location: where, reason: `${row.length} cells for ${rows[0].length} columns` });
    }
    const cell = (column: Column): string | undefined => (index[column] === undefined ? undefined : row[index[column]]);
    // A value the row holds but cannot read is null here; the store warns, and keeps a stored value in its place.
    const unreadable: UnreadableValue[] = [];
    const unread = (field: UnreadableField, reason: string): void => {
      unreadable.push({ field, location: where, reason });
    };
    const number = (column: Column & UnreadableField, parse: (c: string | undefined) => number | null): number | null => {
      const value = parse(cell(column));
      if (value === null && !isMissing(cell(column))) unread(column, `${column} "${cell(column)}" is not a number`);
      return value;
    };
    const flag = (column: Column, field: UnreadableField): boolean | null => {
      const value = parseBoolean(cell(column));
      if (value === null && !isMissing(cell(column))) unread(field, `${column} "${cell(column)}" is not TRUE/FALSE`);
      return value;
    };
    const certaintyRaw = cleanText(cell('certainty'));
    const certainty = normalizeCertainty(certaintyRaw);
    if (certaintyRaw !== null && certainty === null) unread('certainty', `GRADE label "${certaintyRaw}" not recognised`);
    const measure = cleanText(cell('measure'));
    const accuracy = cleanText(cell('accuracy'));
    const downgrade = (key: keyof DowngradesInput): boolean | null => flag(key, `downgrades.${key}`);
    const downgrades: DowngradesInput = {
      risk_of_bias: downgrade('risk_of_bias'),
      imprecision: downgrade('imprecision'),
      inconsistency: downgrade('inconsistency'),
      indirectness: downgrade('indirectness'),
      publication_bias: downgrade('publication_bias'),
      incoherence: downgrade('incoherence'),
    };
    outcomes.push({
      population: cleanText(cell('population')),
      intervention: cleanText(cell('intervention')),
      comparison: cleanText(cell('comparison')),
      outcome: cleanText(cell('outcome')),
      measure: accuracy === null ? measure : measure === null ? accuracy : `${accuracy} (${measure})`,
      effect: number('effect', parseNumber),
      ci_lower: number('ci_lower', parseNumber),
      ci_upper: number('ci_upper', parseNumber),
      significant: flag('significant', 'significant'),
      participants: number('participants', parseCount),
      studies: number('studies', parseCount),
      certainty,
      certainty_raw: certaintyRaw,
      reasons: cleanText(cell('reasons')),
      downgrades,
      ...(unreadable.length > 0 ? { unreadable } : {}),
    });
  }
  return { readable: true, outcomes, rowsRead, issues };
}

/** 10.1002/14651858.CD000978.pub5; the first version of a review has no ".pub" suffix. */
export function cochraneDoi(reviewId: string, version: number): string {
  return `10.1002/14651858.${reviewId}${version > 1 ? `.pub${version}` : ''}`;
}

export function cochraneUrl(reviewId: string, version: number): string {
  return `https://www.cochranelibrary.com/cdsr/doi/${cochraneDoi(reviewId, version)}/full`;
}

// "<review>.PUB<n>.csv" is version n; a bare "<review>.csv" is the first version, which Cochrane publishes
// without a ".pub" suffix (its DOI ends in the review id).
const VERSION_FILE = /^(CD\d+)(?:\.PUB(\d+))?\.csv$/i;

export interface VersionFile {
  reviewId: string;
  version: number;
  /** Path relative to the summary-of-findings folder. */
  path: string;
}

/** Review id and PUB number of a file name ("CD000978.PUB5.csv" → 5, "CD012744.csv" → 1), or null. */
export function parseVersionFileName(name: string): { reviewId: string; version: number } | null {
  const match = VERSION_FILE.exec(name);
  return match ? { reviewId: match[1].toUpperCase(), version: match[2] === undefined ? 1 : Number(match[2]) } : null;
}

/** Per review, its latest version and the older ones, ordered by review id. PUB numbers compare as numbers. */
export function groupVersions(files: readonly VersionFile[]): { latest: VersionFile; older: VersionFile[] }[] {
  const byReview = new Map<string, VersionFile[]>();
  for (const file of files) {
    const list = byReview.get(file.reviewId) ?? [];
    list.push(file);
    byReview.set(file.reviewId, list);
  }
  return [...byReview.keys()].sort().map((reviewId) => {
    const versions = byReview.get(reviewId)!.sort((a, b) => b.version - a.version);
    return { latest: versions[0], older: versions.slice(1) };
  });
}

/**
 * Review id → title, from cochrane_titles.csv (columns review_code, title), titles kept as written (whether a
 * title matches its review is checked at import: review-title.ts). A file cut mid-record is refused.
 */
export async function readCochraneTitles(path: string): Promise<Map<string, string>> {
  const { text } = decodeText(await readFile(path));
  const truncated = csvTruncation(text);
  if (truncated) throw new TruncatedSourceError(path, truncated);
  const parsed = Papa.parse<Record<string, string>>(storableText(text), { header: true, skipEmptyLines: true, delimiter: ',' });
  const titles = new Map<string, string>();
  for (const row of parsed.data) {
    const id = row.review_code?.trim().toUpperCase();
    const title = row.title?.trim();
    if (id && title) titles.set(id, title);
  }
  return titles;
}

/** A review read from its latest file, with what the importer should report about it. */
export interface CochraneReviewRead {
  review: ReviewInput;
  /** The file the outcomes come from, relative to the summary-of-findings folder. */
  file: string;
  encoding: TextEncodingUsed;
  /** PUB numbers of the older files of the same review, which are not read. */
  olderVersions: number[];
  /** False when the file is no summary-of-findings table: the review is not stored (a stored version is kept). */
  readable: boolean;
  rowsRead: number;
  issues: SourceIssue[];
}

/** Every `<review>.PUB<n>.csv` in the folder and its subfolders (one level, as the data is laid out). */
async function listVersionFiles(sofDir: string, issues: SourceIssue[] = []): Promise<VersionFile[]> {
  const files: VersionFile[] = [];
  const consider = (relative: string, name: string, folder: string | null): void => {
    const parsed = parseVersionFileName(name);
    if (!parsed) {
      if (name.toLowerCase().endsWith('.csv'))
        issues.push({ kind: 'excluded', location: relative, reason: 'name is neither <review>.PUB<n>.csv nor <review>.csv' });
      return;
    }
    if (folder !== null && folder.toUpperCase() !== parsed.reviewId) {
      issues.push({
        kind: 'warning',
        location: relative,
        reason: `file of ${parsed.reviewId} in folder ${folder}; filed under ${parsed.reviewId}`,
      });
    }
    files.push({ ...parsed, path: relative });
  };
  for (const entry of await readdir(sofDir, { withFileTypes: true })) {
    if (entry.isFile()) consider(entry.name, entry.name, null);
    else if (entry.isDirectory()) {
      for (const inner of await readdir(join(sofDir, entry.name), { withFileTypes: true })) {
        if (inner.isFile()) consider(`${entry.name}/${inner.name}`, inner.name, entry.name);
      }
    }
  }
  return files;
}

export interface CochraneReadOptions {
  /** Review id → listed title; a review without one gets a null title and a warning. */
  titles?: Map<string, string>;
  /** Issues about the folder itself (unexpected file names) are added here. */
  issues?: SourceIssue[];
}

/**
 * Reads reviews one at a time, in review-id order, from the latest PUB file of each review, so memory holds
 * one review's outcomes at a time. A latest file cut mid-record stops the reading with a TruncatedSourceError.
 */
export async function* readCochraneReviews(sofDir: string, options: CochraneReadOptions = {}): AsyncGenerator<CochraneReviewRead> {
  const groups = groupVersions(await listVersionFiles(sofDir, options.issues));
  for (const { latest, older } of groups) {
    const { text, encoding } = decodeText(await readFile(join(sofDir, latest.path)));
    const truncated = csvTruncation(text);
    if (truncated) throw new TruncatedSourceError(join(sofDir, latest.path), truncated);
    const parsed = parseSofCsv(text, latest.path);
    const title = options.titles?.get(latest.reviewId) ?? null;
    if (title === null) parsed.issues.push({ kind: 'warning', location: latest.path, reason: 'no title in the titles file' });
    yield {
      review: {
        review_id: latest.reviewId,
        version: latest.version,
        title,
        url: cochraneUrl(latest.reviewId, latest.version),
        doi: cochraneDoi(latest.reviewId, latest.version),
        publication_date: null,
        authors: null,
        abstract: null,
        is_demo: false,
        outcomes: parsed.outcomes,
      },
      file: latest.path,
      encoding,
      olderVersions: older.map((file) => file.version),
      readable: parsed.readable,
      rowsRead: parsed.rowsRead,
      issues: parsed.issues,
    };
  }
}

/** The layout of ../shared/data/oral: the summary-of-findings folder and the titles file beside it. */
export async function* readCochraneFromDataDir(oralDataDir: string, issues: SourceIssue[] = []): AsyncGenerator<CochraneReviewRead> {
  const titles = await readCochraneTitles(join(oralDataDir, 'cochrane_titles.csv'));
  yield* readCochraneReviews(join(oralDataDir, 'cochrane_sof'), { titles, issues });
}
