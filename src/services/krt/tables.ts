// Service B's tables as Kysely sees them (created by migrations.ts). The repository, the store, the importer and
// the aggregates take `Kysely<KrtDatabase>`; row types elsewhere are derived from these (Selectable / Insertable),
// never restated.
import type { ColumnType, Selectable } from 'kysely';
import type { CoreTables, DbBoolean, DbId, DbInteger, DbJson } from '../../core/db/tables.ts';

/** One stored article per DOI; the file stays where it was imported from (`store_root`/`file_path`). */
interface ArticlesTable {
  id: DbId;
  doi: string;
  title: string;
  authors: string;
  publication_date: string | null;
  journal: string;
  is_preprint: DbBoolean;
  version: number | null;
  /** The directory the file was imported from, and the file's path inside it. */
  store_root: string;
  file_path: string;
  file_size: DbInteger;
  content_hash: string;
  downloaded_at: string;
  imported_at: string;
  updated_at: string;
  /** `store` (a real import) or `demo` (generated articles). */
  dataset: string;
  is_demo: DbBoolean;
  /** DOI and title folded (search.ts) for the substring index of DOI suggestions. */
  search_text: string;
}

export type SessionStatus = 'completed' | 'failed';

/** An extraction session: one extractor's table of one version of an article (id: session-id.ts). */
interface SessionsTable {
  session_id: string;
  article_id: DbInteger;
  doi: string;
  title: string;
  status: SessionStatus;
  provider: string;
  model: string;
  content_hash: string;
  processing_time: number;
  created_at: string;
  error: string | null;
  total_resources: number;
  new_resources: number;
  is_demo: DbBoolean;
}

/** A row of a session's table, in table order (`position`). */
interface SessionRowsTable {
  session_id: string;
  position: number;
  resource_type: string;
  resource_name: string;
  source: string;
  identifier: string;
  new_reuse: string;
  additional_information: string;
  /** The sentence a text-extracted row came from, and its calibrated confidence (null for table and model rows). */
  sentence: string | null;
  confidence: number | null;
  /** The row-inclusion model's probability (krt_0005); null for table and model rows and rows stored before. */
  inclusion_probability: number | null;
  /** False: a further mention, not in the key resources table; null (stored before krt_0005) or true: in the table. */
  in_table: ColumnType<boolean | number | null, boolean | number | null, boolean | number | null>;
}

interface ChatSessionsTable {
  id: string;
  /** chat/ ChatState */
  state: DbJson;
  created_at: string;
  updated_at: string;
}

interface ValidationCacheTable {
  cache_key: string;
  /** The knowledge base the answer was computed from: a newer base makes the entry stale. */
  kb_version: string;
  /** rrid/ RridValidation */
  value: DbJson;
  checked_at: string;
}

/** An RRID of the knowledge base as suggestion reads it (rrid/suggestion-index.ts StoredEntry). */
interface RridEntriesTable {
  id: number;
  rrid: string;
  resource_type: string;
  papers: number;
  mentions: number;
  demo_only: DbBoolean;
  /** rrid/ StoredEntryDetail: names, vendors, catalog numbers, repaired spellings, with counts */
  detail: DbJson;
}

/** A key that retrieves an entry: `catalog` (normalised catalog number) or `token` (name token). */
interface RridKeysTable {
  kind: string;
  key: string;
  entry_id: number;
}

/** In how many knowledge-base entries a name token occurs (IDF weights of name similarity). */
interface RridTokenStatsTable {
  token: string;
  df: number;
}

/** An entry of a public registry's dump (registry/), its identifier as the registry writes it. */
interface RegistryEntriesTable {
  identifier: string;
  /** `cellosaurus` or `antibody-registry` (registry/records.ts RegistryName). */
  registry: string;
  resource_type: string;
  name: string;
  /** string[]: synonyms as the registry writes them */
  synonyms: DbJson;
  vendor: string | null;
  catalog: string | null;
  species: string | null;
  /** The registry's release the entry was read from ("49.0", or the export's date). */
  release: string;
  /** registry/ RegistryDetail: secondary accessions, other suppliers, category, target, clonality */
  detail: DbJson;
  /** What the entry's fields hash to: a second import of the same file changes nothing. */
  content_hash: string;
}

/** A key that finds a registry entry: `name` (folded name or synonym), `catalog` (catalog key), `accession` (secondary). */
interface RegistryKeysTable {
  kind: string;
  key: string;
  identifier: string;
}

// A type alias, not an interface: Kysely's `withTables` needs an object type with an implicit index signature.
export type KrtTables = {
  krt_articles: ArticlesTable;
  krt_sessions: SessionsTable;
  krt_session_rows: SessionRowsTable;
  krt_chat_sessions: ChatSessionsTable;
  krt_validation_cache: ValidationCacheTable;
  krt_rrid_entries: RridEntriesTable;
  krt_rrid_keys: RridKeysTable;
  krt_rrid_token_stats: RridTokenStatsTable;
  krt_registry_entries: RegistryEntriesTable;
  krt_registry_keys: RegistryKeysTable;
};

export type KrtDatabase = CoreTables & KrtTables;

/** Booleans as the code reads and writes them (SQLite stores 0/1: `dbBool` writes, `Boolean()` reads). */
export type WithBooleans<T, K extends keyof T> = Omit<T, K> & { [P in K]: boolean };

export type ArticleRow = Selectable<ArticlesTable>;
/** An article's own fields: what the importer writes (store.ts) and reads back (repository.ts), without the id and bookkeeping. */
export type ArticleFields = WithBooleans<Omit<ArticleRow, 'id' | 'imported_at' | 'updated_at' | 'search_text'>, 'is_preprint' | 'is_demo'>;
export type SessionRow = Selectable<SessionsTable>;
export type SessionRowRow = Selectable<SessionRowsTable>;
