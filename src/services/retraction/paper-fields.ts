// The fields of a Retraction Watch record, each declared once: the CSV column it is read from, the papers column
// that stores it, the field and export header it is served under (search results, JSON, CSV and xlsx exports) with
// its schema, and, for a plain cell, how the cell is read. The reader (sources/retraction-watch.ts), the store, the
// papers table's type, the search results and the exports all derive from this list, so a new column of the file is
// one entry here (and a migration adding its column).
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { DbBoolean } from '../../core/db/tables.ts';
import { Nullable } from '../../core/http/schema.ts';
import { cleanDoi, cleanPubMedId, parseYesNo, splitMulti } from './sources/fields.ts';

/** How a stored value is typed: text (`string | null` unless required) or a yes/no flag. */
type Kind = 'text' | 'required text' | 'flag';
const SCHEMAS = { text: Nullable(Type.String()), 'required text': Type.String(), flag: Nullable(Type.Boolean()) } as const;
type ValueOf<K extends Kind> = Static<(typeof SCHEMAS)[K]>;

interface FieldSpec<Csv extends string, Column extends string, Api extends string | null, K extends Kind> {
  /** The Retraction Watch CSV column (found by name, any case, spaces ignored). */
  csv: Csv;
  /** The retraction_papers column that stores the value. */
  column: Column;
  /** The field of the search results and the exports (and the exports' column header); null: stored, not served. */
  api: Api;
  kind: K;
}

/** A field whose cell becomes its stored value through `read` alone. */
interface PlainField<Csv extends string, Column extends string, Api extends string | null, K extends Kind> extends FieldSpec<
  Csv,
  Column,
  Api,
  K
> {
  read: (cell: string | undefined) => ValueOf<K>;
}

/** A field the reader reads itself (parseRwRow): a key, a required value, a date, a list with child rows. */
type OwnField<Csv extends string, Column extends string, Api extends string | null, K extends Kind> = FieldSpec<Csv, Column, Api, K> & {
  read?: undefined;
};

const plain = <const Csv extends string, const Column extends string, const Api extends string | null, const K extends Kind>(
  field: PlainField<Csv, Column, Api, K>,
) => field;
const own = <const Csv extends string, const Column extends string, const Api extends string | null, const K extends Kind>(
  field: OwnField<Csv, Column, Api, K>,
) => field;

const text = (cell: string | undefined): string | null => {
  const t = (cell ?? '').trim();
  return t === '' ? null : t;
};
/** A `;`-separated cell: its distinct values joined with "; ", or null when it has none. */
const list = (cell: string | undefined, clean: (value: string) => string = (value) => value): string | null => {
  const values = [...new Set(splitMulti(cell).map(clean))].filter((v) => v !== '');
  return values.length > 0 ? values.join(LIST_JOIN) : null;
};

/** How multi-valued cells are stored (their parts are also child rows where the service groups by them). */
export const LIST_JOIN = '; ';

/**
 * Every column of the file, in the order the exports serve them (then the counts, EXPORT_COUNTS), the fields stored
 * but not served last. The order of the file's own columns does not matter: the reader finds them by name.
 */
const PAPER_FIELDS = [
  own({ csv: 'Record ID', column: 'record_id', api: 'record_id', kind: 'required text' }),
  own({ csv: 'Title', column: 'title', api: 'title', kind: 'required text' }),
  own({ csv: 'Author', column: 'author', api: 'authors', kind: 'required text' }),
  plain({ csv: 'Journal', column: 'journal', api: 'journal', kind: 'text', read: text }),
  plain({ csv: 'Publisher', column: 'publisher', api: 'publisher', kind: 'text', read: text }),
  own({ csv: 'Country', column: 'country', api: 'country', kind: 'required text' }),
  own({ csv: 'Subject', column: 'subject', api: 'subject', kind: 'required text' }),
  plain({ csv: 'ArticleType', column: 'article_type', api: 'article_type', kind: 'text', read: (cell) => list(cell) }),
  own({ csv: 'OriginalPaperDate', column: 'original_paper_date', api: 'original_paper_date', kind: 'text' }),
  own({ csv: 'RetractionDate', column: 'retraction_date', api: 'retraction_date', kind: 'text' }),
  plain({ csv: 'RetractionNature', column: 'retraction_nature', api: 'retraction_nature', kind: 'text', read: text }),
  // Reasons carry a leading `+` in the file.
  plain({ csv: 'Reason', column: 'reason', api: 'reason', kind: 'text', read: (cell) => list(cell, (r) => r.replace(/^\+\s*/, '')) }),
  plain({ csv: 'OriginalPaperDOI', column: 'original_paper_doi', api: 'doi', kind: 'text', read: cleanDoi }),
  plain({ csv: 'Institution', column: 'institution', api: null, kind: 'text', read: (cell) => list(cell) }),
  plain({ csv: 'URLS', column: 'urls', api: null, kind: 'text', read: (cell) => list(cell) }),
  plain({ csv: 'RetractionDOI', column: 'retraction_doi', api: null, kind: 'text', read: cleanDoi }),
  plain({ csv: 'RetractionPubMedID', column: 'retraction_pubmed_id', api: null, kind: 'text', read: cleanPubMedId }),
  plain({ csv: 'OriginalPaperPubMedID', column: 'original_paper_pubmed_id', api: null, kind: 'text', read: cleanPubMedId }),
  plain({ csv: 'Paywalled', column: 'paywalled', api: null, kind: 'flag', read: parseYesNo }),
  plain({ csv: 'Notes', column: 'notes', api: null, kind: 'text', read: text }),
] as const;

type Field = (typeof PAPER_FIELDS)[number];
type Plain = Extract<Field, { read: (cell: string | undefined) => unknown }>;
type Served = Extract<Field, { api: string }>;

/** The Retraction Watch CSV's columns. */
export const RW_COLUMNS: readonly RwColumn[] = PAPER_FIELDS.map((f) => f.csv);
export type RwColumn = Field['csv'];

/** The plain fields of a record, as the reader reads them and the store stores them. */
export type PlainValues = { [F in Plain as F['column']]: ValueOf<F['kind']> };

const PLAIN = PAPER_FIELDS.filter((f): f is Plain => f.read !== undefined);

/** The plain fields of a row, each read from its cell (`cell(column)`: the row's text of a CSV column). */
export function readPlainValues(cell: (column: RwColumn) => string | undefined): PlainValues {
  return Object.fromEntries(PLAIN.map((f) => [f.column, f.read(cell(f.csv))])) as PlainValues;
}

/** The papers columns of the fields, as the database types them (a flag is 0/1 on SQLite). */
export type PaperFieldColumns = { [F in Field as F['column']]: StoredAs<ValueOf<F['kind']>> };
type StoredAs<T> = T extends boolean ? DbBoolean : T;

/** The papers columns that hold a flag (stored with the dialect's boolean). */
export const FLAG_COLUMNS: ReadonlySet<string> = new Set(PAPER_FIELDS.filter((f) => f.kind === 'flag').map((f) => f.column));

/** The per-paper citation counts the exports add after the fields (computed from the counts table). */
const EXPORT_COUNTS = {
  total_citations: Type.Integer(),
  post_retraction_citations: Type.Integer(),
  post_retraction_percentage: Nullable(Type.Number()),
} as const;

const SERVED = PAPER_FIELDS.filter((f): f is Served => f.api !== null);

/** The columns and order of E's exports (and the fields of a search result, which adds `nature`). */
export const EXPORT_COLUMNS = [...SERVED.map((f) => f.api), ...(Object.keys(EXPORT_COUNTS) as (keyof typeof EXPORT_COUNTS)[])];

/** The schema of an exported paper: each served field's schema, then the counts. */
export const ExportPaperSchema = Type.Object({
  ...(Object.fromEntries(SERVED.map((f) => [f.api, SCHEMAS[f.kind]])) as { [F in Served as F['api']]: (typeof SCHEMAS)[F['kind']] }),
  ...EXPORT_COUNTS,
});
export type ExportPaper = Static<typeof ExportPaperSchema>;

/** The papers columns an exported paper is read from. */
export const SERVED_COLUMNS = SERVED.map((f) => f.column);
export type ServedColumn = Served['column'];

/** An exported paper from its served columns and its citation counts. */
export function exportPaperFrom(row: { [C in ServedColumn]: unknown }, total: number, post: number): ExportPaper {
  const paper: Record<string, unknown> = {};
  for (const f of SERVED) {
    const value = row[f.column];
    paper[f.api] = FLAG_COLUMNS.has(f.column) && value !== null ? Boolean(value) : value;
  }
  paper.total_citations = total;
  paper.post_retraction_citations = post;
  paper.post_retraction_percentage = total > 0 ? Math.round((10000 * post) / total) / 100 : null;
  return paper as ExportPaper;
}

export const EXPORT_ORDER = 'retraction date, newest first (papers without one last), then by row id';
