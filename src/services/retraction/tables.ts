// Service E's tables as Kysely sees them (`RetractionTables`), beside migrations.ts which creates them. Row types
// elsewhere are derived from these (`Selectable<PapersTable>`, `Insertable<CitationsTable>`), never restated.
import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import type { CoreTables, DbBoolean, DbId, DbInteger, DbJson } from '../../core/db/tables.ts';
import type { Nature, NatureFilter } from './nature.ts';
import type { PaperFieldColumns } from './paper-fields.ts';

/**
 * One Retraction Watch record: its fields as paper-fields.ts declares them (multi-valued ones joined with "; ", their
 * parts also child rows), and the columns derived from them.
 */
type PapersTable = PaperFieldColumns & {
  id: DbId;
  /** Lower-cased (Unicode) copies used to rank autocomplete matches. */
  title_fold: string;
  author_fold: string;
  /** retraction_date or '' so that "newest first" keyset pages need no NULL handling. */
  retraction_sort: string;
  /** The original paper's DOI as citations name it (lower case, no URL prefix). */
  doi_key: string | null;
  /** retraction_nature read as one of five kinds (nature.ts): only `retraction` is a retracted paper. */
  nature: ColumnType<Nature, Nature | undefined, Nature>;
  is_demo: DbBoolean;
  content_hash: string;
  imported_at: string;
};

export interface PaperSubjectsTable {
  paper_id: DbInteger;
  subject: string;
  /** The subject's Retraction Watch code, e.g. BLS. */
  code: string | null;
}

export interface PaperCountriesTable {
  paper_id: DbInteger;
  country: string;
}

/** One citation of a paper by a citing work (keyed by paper and citing work). */
export interface CitationsTable {
  paper_id: DbInteger;
  citing_key: string;
  citing_doi: string | null;
  /** YYYY-MM-DD; a month- or year-only date stands for the first day of its period. */
  citing_date: string | null;
  /** day, month or year: how much of citing_date the source gave. */
  citing_precision: string | null;
  citing_year: number | null;
  /** YYYY-MM, null for a year-only date. */
  citing_month: string | null;
  /** citing date − retraction date in days (> 0: post-retraction; 0: same day); null when either is unknown. */
  days_after: number | null;
  /** What the row says, to tell a changed citation from an unchanged one on re-import. */
  fingerprint: string;
}

/** Where a citations import stages its set before merging (rows tagged with the import's data version). */
interface CitationStagingTable extends CitationsTable {
  import_id: string;
}

/**
 * A temporary table of one papers import: the new values of changed papers, applied with one UPDATE … FROM
 * per batch (store.ts).
 */
export interface PaperChangesTable extends Omit<PapersTable, 'id' | 'record_id' | 'nature'> {
  nature: Nature;
  id: number;
}

/** Per-paper citation counts, refreshed after every import that changes papers or citations. */
interface PaperCountsTable {
  paper_id: DbInteger;
  total: number;
  pre: number;
  same_day: number;
  post: number;
  undated: number;
}

/** A citation of a paper a later papers import no longer had, kept by the cited DOI until the paper returns. */
export interface CitationsSetAsideTable {
  doi_key: string;
  citing_key: string;
  citing_doi: string | null;
  citing_date: string | null;
  citing_precision: string | null;
  citing_year: number | null;
  citing_month: string | null;
}

/** What is counted per paper and time window: citations, post-retraction ones, and the four timing buckets. */
export type WindowMeasure = 'total' | 'post' | 'd30' | 'd365' | 'd730' | 'dover';

/** Per paper with citations, per time window (`total_all`, `post_1y`, `d30_5y`, …), computed at import. */
/** The citing-date windows of the analytics (all time, the last 1, 3 and 5 years): stored columns carry their names. */
export const TIME_FILTERS = ['all', '1y', '3y', '5y'] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];

type PaperWindowsTable = { paper_id: DbInteger } & { [K in `${WindowMeasure}_${TimeFilter}`]: number };

/** Post-retraction citations per paper and citing month (the trend months only), per time window. */
type PaperMonthsTable = { paper_id: DbInteger; month: string } & { [K in `post_${TimeFilter}`]: number };

/**
 * The CSV export's finished lines in export order, BLOCK_LINES per block (export-lines.ts), one series per
 * `nature=` value; rewritten by every import.
 */
export interface ExportBlocksTable {
  series: NatureFilter;
  block: number;
  lines: number;
  /** The block's CSV records, CRLF-terminated, concatenated. */
  bytes: Buffer;
  /** The end offset of each line in `bytes`, little-endian 32-bit integers. */
  ends: Buffer;
}

/** The analytics index of a data version in binary form (analytics-index.ts), stored by the importers. */
interface AnalyticsSnapshotsTable {
  name: string;
  data_version: string;
  bytes: Buffer;
}

/** One country-year of the democracy panel. */
export interface PanelTable {
  id: DbId;
  country: string;
  country_fold: string;
  iso3: string | null;
  region: string | null;
  year: number;
  democracy_index: number | null;
  publications: number | null;
  retractions: number | null;
  /** Covariate name → value (null when the file's cell was empty or unreadable). */
  covariates: DbJson;
  is_demo: DbBoolean;
  content_hash: string;
}

// A type alias, not an interface: Kysely's `withTables` needs it.
export type RetractionTables = {
  retraction_papers: PapersTable;
  retraction_paper_subjects: PaperSubjectsTable;
  retraction_paper_countries: PaperCountriesTable;
  retraction_citations: CitationsTable;
  retraction_citation_staging: CitationStagingTable;
  retraction_paper_changes: PaperChangesTable;
  retraction_paper_counts: PaperCountsTable;
  retraction_citations_set_aside: CitationsSetAsideTable;
  retraction_paper_windows: PaperWindowsTable;
  retraction_paper_months: PaperMonthsTable;
  retraction_export_blocks: ExportBlocksTable;
  retraction_analytics_snapshots: AnalyticsSnapshotsTable;
  retraction_panel: PanelTable;
};

type RetractionDatabase = CoreTables & RetractionTables;
/** What every read and write of Service E takes: the service's database or a transaction on it. */
export type RetractionDb = Kysely<RetractionDatabase>;

export type PaperRow = Selectable<PapersTable>;

/** Service E's view of a pdi database. */
export function retractionDb(db: Db): RetractionDb {
  return db.kysely.withTables<RetractionTables>();
}
