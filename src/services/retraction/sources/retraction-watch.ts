// The Retraction Watch database CSV: its columns (paper-fields.ts) found by name (any order, any case, spaces ignored), one
// record per row. Multi-valued cells are `;`-separated; subjects carry a `(XXX) ` code prefix; reasons a
// leading `+`; dates are `M/D/YYYY H:MM` or ISO. A row becomes a RetractionRecord or a skip reason. RetractionDate
// is required (every analysis of the service is by it): a row whose date cannot be read is unreadable, and the
// importer keeps that paper's stored copy. An unreadable OriginalPaperDate is null with a warning, and never
// replaces a date already stored.
import { readPlainValues, RW_COLUMNS } from '../paper-fields.ts';
import type { PlainValues, RwColumn } from '../paper-fields.ts';
import { parseRecordDate, splitMulti } from './fields.ts';

export { RW_COLUMNS };
export type { RwColumn };

const REQUIRED: RwColumn[] = ['Record ID', 'Title'];

export interface Subject {
  /** The Retraction Watch code, e.g. "BLS", or null when the cell had none. */
  code: string | null;
  name: string;
}

/** A record: the fields the reader reads itself, and the plain ones (paper-fields.ts) as their cells read. */
export type RetractionRecord = PlainValues & {
  record_id: string;
  title: string;
  subjects: Subject[];
  countries: string[];
  authors: string[];
  retraction_date: string | null;
  original_paper_date: string | null;
  /** Secondary fields whose cell could not be read: null here, and the stored value, if any, is kept. */
  unreadable?: readonly UnreadableField[];
};

/** The fields a row may leave unread without being skipped. */
type UnreadableField = 'original_paper_date';

const compact = (name: string) =>
  name
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export interface RwColumnMap {
  index: Partial<Record<RwColumn, number>>;
  missing: RwColumn[];
  ignored: string[];
}

/** Finds the columns by name; throws when Record ID or Title is absent. */
export function mapRwHeader(header: readonly string[]): RwColumnMap {
  const byName = new Map<string, number>();
  header.forEach((cell, i) => {
    const key = compact(cell);
    if (!byName.has(key)) byName.set(key, i);
  });
  const index: Partial<Record<RwColumn, number>> = {};
  const missing: RwColumn[] = [];
  for (const column of RW_COLUMNS) {
    const i = byName.get(compact(column));
    if (i === undefined) missing.push(column);
    else index[column] = i;
  }
  const absent = REQUIRED.filter((c) => index[c] === undefined);
  if (absent.length) {
    throw new Error(`not a Retraction Watch CSV: no ${absent.join(' or ')} column (found: ${header.slice(0, 25).join(', ')})`);
  }
  const known = new Set(Object.values(index));
  return { index, missing, ignored: header.filter((_, i) => !known.has(i)) };
}

const SUBJECT = /^\(([^)]{1,12})\)\s*(.*)$/;

export function parseSubjects(text: string | undefined): Subject[] {
  const out: Subject[] = [];
  const seen = new Set<string>();
  for (const item of splitMulti(text)) {
    const m = SUBJECT.exec(item);
    const subject = m ? { code: m[1].trim(), name: m[2].trim() } : { code: null, name: item };
    if (subject.name === '' || seen.has(subject.name)) continue;
    seen.add(subject.name);
    out.push(subject);
  }
  return out;
}

const unique = (values: string[]) => [...new Set(values)];

/** Why a row was not imported (counted, so free of row-specific text). */
type RwSkipReason = 'missing Record ID' | 'missing title' | 'unreadable RetractionDate';

export interface RwRowResult {
  record?: RetractionRecord;
  skip?: RwSkipReason;
  /** Cells kept as null because their text was in no known form (e.g. an unreadable date). */
  problems: string[];
  /** The columns of those cells. */
  unreadable: RwColumn[];
  /** The Record ID of a skipped row that has one: its stored copy is kept. */
  recordId?: string;
}

export function parseRwRow(cells: readonly string[], map: RwColumnMap): RwRowResult {
  const cell = (column: RwColumn) => {
    const i = map.index[column];
    return i === undefined ? undefined : cells[i];
  };
  const problems: string[] = [];
  const unreadable: RwColumn[] = [];
  const recordId = (cell('Record ID') ?? '').trim();
  if (recordId === '') return { skip: 'missing Record ID', problems, unreadable };
  const title = (cell('Title') ?? '').trim();
  if (title === '') return { skip: 'missing title', problems, unreadable, recordId };
  const date = (column: RwColumn) => {
    const value = parseRecordDate(cell(column));
    if (value === undefined) {
      problems.push(`unreadable ${column}`);
      unreadable.push(column);
      return null;
    }
    return value;
  };
  const retractionDate = date('RetractionDate');
  if (unreadable.length > 0) return { skip: 'unreadable RetractionDate', problems: [], unreadable, recordId };
  const originalPaperDate = date('OriginalPaperDate');
  return {
    problems,
    unreadable,
    record: {
      ...readPlainValues(cell),
      record_id: recordId,
      title,
      subjects: parseSubjects(cell('Subject')),
      countries: unique(splitMulti(cell('Country'))),
      authors: splitMulti(cell('Author')),
      retraction_date: retractionDate,
      original_paper_date: originalPaperDate,
      ...(originalPaperDate === null && unreadable.length > 0 ? { unreadable: ['original_paper_date'] as const } : {}),
    },
  };
}
