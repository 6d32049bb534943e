// Service D's tables as Kysely sees them (created by migrations.ts). Every row type of the service is derived
// from these: a column renamed here and not in a query fails the type check.
import type { Insertable, Selectable } from 'kysely';
import type { CoreTables, DbBoolean, DbId, DbJson } from '../../core/db/tables.ts';

interface CategoriesTable {
  /** Assigned by the importer: known families keep their listing position, new names get 101, 102, … */
  id: number;
  slug: string;
  name: string;
  description: string | null;
  /** True while the current feed has draws of this category. */
  is_active: DbBoolean;
  /** True for a family of the canonical table, false for a name first seen in the feed. */
  is_known: DbBoolean;
  sort_order: number;
  created_at: string;
}

interface DrawsTable {
  id: DbId;
  /** drawNumber as published ("388", "91a"). */
  round_number: string;
  /** number × 100 + letter position. */
  round_sort_key: number;
  date: string;
  category_id: number;
  /** drawName exactly as published. */
  draw_name: string;
  invitations: number;
  crs: number;
  /** drawDateTime as ISO 8601 UTC; null when it cannot be read. */
  drawn_at: string | null;
  /** drawCutOff as ISO 8601 UTC; null where the feed leaves it empty or it cannot be read. */
  tie_break_at: string | null;
  /** drawText2; null when missing. */
  programs: string | null;
  /** drawName of the French feed's copy of the round; null until a French feed that has it is imported. */
  draw_name_fr: string | null;
  /** drawText2 of the French feed's copy; null when it has none. */
  programs_fr: string | null;
  /** PoolDistribution as JSON; null when a count cannot be read. */
  pool_distribution: DbJson | null;
  url: string | null;
  days_since_last_draw: number | null;
}

interface PredictionsTable {
  category_id: number;
  rank: number;
  predicted_date: string;
  predicted_crs_score: number;
  predicted_invitations: number;
  confidence_score: number;
  /** The n of confidence_score (migration 0007; null in rows stored before it). */
  confidence_forecasts_scored: number | null;
  model_used: string;
  range_min: number;
  range_max: number;
  margin_of_error: number;
  /** 95% interval of the invitations (migration 0003; null in rows stored before it). */
  invitations_min: number | null;
  invitations_max: number | null;
  date_earliest: string;
  date_latest: string;
  /** The next draw's likely window and its probability (migration 0006; null for later ranks and in rows before it). */
  likely_earliest: string | null;
  likely_latest: string | null;
  likely_probability: number | null;
  as_of: string;
}

/**
 * A forecast as it was served, kept for good (append-only: rows are never updated but for the outcome, written once
 * when the draw it forecast is imported). One row per data version, category and horizon.
 */
interface TrackRecordTable {
  id: DbId;
  /** The data version the forecast was served under (as data_source.data_version said). */
  data_version: string;
  /** Made from generated demo data (removed when real data replaces it). */
  is_demo: DbBoolean;
  recorded_at: string;
  /** What recorded it: "import", "fit" or "request" (first served). */
  recorded_by: string;
  /** The forecast's origin: the as-of date it was made for. */
  origin: string;
  /** The newest draw in the data it was made from (any category). */
  newest_draw_date: string;
  category_id: number;
  /** h: 1 is the category's next draw after the origin. */
  horizon: number;
  /** The category's newest draw used: the forecast's base and the naive forecast (its last value). */
  base_round_number: string;
  base_round_sort_key: number;
  base_date: string;
  base_crs: number;
  base_invitations: number;
  model_used: string;
  predicted_date: string;
  date_earliest: string;
  date_latest: string;
  crs_point: number;
  crs_min: number;
  crs_max: number;
  invitations_point: number;
  invitations_min: number | null;
  invitations_max: number | null;
  /** The next draw's likely window and its probability as served (migration 0006; null for later ranks and in older rows). */
  likely_earliest: string | null;
  likely_latest: string | null;
  likely_probability: number | null;
  /** The draw that happened: the category's h-th draw after the base dated on or after the origin. */
  actual_round_number: string | null;
  actual_date: string | null;
  actual_crs: number | null;
  actual_invitations: number | null;
  scored_at: string | null;
}

// A type alias, not an interface: Kysely's `withTables` needs an implicit index signature.
export type DrawsTables = {
  draws_categories: CategoriesTable;
  draws_draws: DrawsTable;
  draws_predictions: PredictionsTable;
  draws_track_record: TrackRecordTable;
};

/** What repositories and stores take (`Kysely<DrawsDatabase>`, also satisfied by a transaction). */
export type DrawsDatabase = CoreTables & DrawsTables;

export type CategoryRow = Selectable<CategoriesTable>;
export type DrawRow = Selectable<DrawsTable>;
export type TrackRecordRow = Selectable<TrackRecordTable>;
export type NewTrackRecord = Insertable<TrackRecordTable>;
