// The whole pdi database as one type: core's tables and every service's, composed here (core never imports a
// service, and no service imports another). Each service still works on its own slice (`<Svc>Database`); this type
// is for what spans services — the CLI, operations scripts, and the test that every migration's table is typed.
import type { CoreTables } from '../core/db/tables.ts';
import type { DrawsTables } from './draws/tables.ts';
import type { GrantsTables } from './grants/tables.ts';
import type { KrtTables } from './krt/tables.ts';
import type { OralTables } from './oral/tables.ts';
import type { RetractionTables } from './retraction/tables.ts';

type Slices = [CoreTables, OralTables, KrtTables, GrantsTables, DrawsTables, RetractionTables];

/** A table name declared by two slices would merge two row types silently; this resolves to `never` then. */
type Disjoint<T extends readonly object[], Seen extends PropertyKey = never> = T extends readonly [
  infer Head extends object,
  ...infer Rest extends readonly object[],
]
  ? Extract<keyof Head, Seen> extends never
    ? Disjoint<Rest, Seen | keyof Head>
    : never
  : true;

const slicesAreDisjoint: Disjoint<Slices> = true;
void slicesAreDisjoint;

export type PdiDatabase = CoreTables & OralTables & KrtTables & GrantsTables & DrawsTables & RetractionTables;

/**
 * Every table of PdiDatabase, by name. `satisfies` makes a table typed but missing here, or listed but not typed,
 * fail the type check; database.test.ts checks the list against the tables the migrations create.
 */
export const PDI_TABLES = {
  data_versions: 'core',
  aggregates: 'core',
  import_runs: 'core',
  sync_state: 'core',
  sync_files: 'core',
  oral_organizations: 'oral',
  oral_guidelines: 'oral',
  oral_recommendations: 'oral',
  oral_recommendation_topics: 'oral',
  oral_reviews: 'oral',
  oral_outcomes: 'oral',
  krt_articles: 'krt',
  krt_sessions: 'krt',
  krt_session_rows: 'krt',
  krt_chat_sessions: 'krt',
  krt_validation_cache: 'krt',
  krt_rrid_entries: 'krt',
  krt_rrid_keys: 'krt',
  krt_rrid_token_stats: 'krt',
  krt_registry_entries: 'krt',
  krt_registry_keys: 'krt',
  grants_agreements: 'grants',
  grants_texts: 'grants',
  grants_international_projects: 'grants',
  grants_international_allocations: 'grants',
  draws_categories: 'draws',
  draws_draws: 'draws',
  draws_predictions: 'draws',
  draws_track_record: 'draws',
  retraction_papers: 'retraction',
  retraction_citations: 'retraction',
  retraction_citation_staging: 'retraction',
  retraction_citations_set_aside: 'retraction',
  retraction_paper_countries: 'retraction',
  retraction_paper_subjects: 'retraction',
  retraction_paper_counts: 'retraction',
  retraction_paper_months: 'retraction',
  retraction_paper_windows: 'retraction',
  retraction_panel: 'retraction',
  retraction_export_blocks: 'retraction',
  retraction_analytics_snapshots: 'retraction',
  retraction_paper_changes: 'retraction',
} as const satisfies { [Table in keyof PdiDatabase]: 'core' | 'oral' | 'krt' | 'grants' | 'draws' | 'retraction' };

/** Tables a store creates as temporary tables inside an import's transaction (no migration creates them). */
export const TEMPORARY_TABLES: readonly (keyof PdiDatabase)[] = ['retraction_paper_changes'];
