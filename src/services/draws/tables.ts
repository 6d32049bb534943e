// Service D's tables as Kysely sees them (created by migrations.ts). Every row type of the service is derived
// from these: a column renamed here and not in a query fails the type check.
import type { Insertable, Selectable } from 'kysely';
import type { CoreTables, DbBoolean, DbId, DbJson } from '../../core/db/tables.ts';

export interface CategoriesTable {
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

export interface DrawsTable {
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
  /** PoolDistribution as JSON; null when a count cannot be read. */
  pool_distribution: DbJson | null;
  url: string | null;
  days_since_last_draw: number | null;
}

export interface PredictionsTable {
  category_id: number;
  rank: number;
  predicted_date: string;
  predicted_crs_score: number;
  predicted_invitations: number;
  confidence_score: number;
  model_used: string;
  range_min: number;
  range_max: number;
  margin_of_error: number;
  /** 95% interval of the invitations (migration 0003; null in rows stored before it). */
  invitations_min: number | null;
  invitations_max: number | null;
  date_earliest: string;
  date_latest: string;
  as_of: string;
}

// A type alias, not an interface: Kysely's `withTables` needs an implicit index signature.
export type DrawsTables = {
  draws_categories: CategoriesTable;
  draws_draws: DrawsTable;
  draws_predictions: PredictionsTable;
};

/** What repositories and stores take (`Kysely<DrawsDatabase>`, also satisfied by a transaction). */
export type DrawsDatabase = CoreTables & DrawsTables;

export type CategoryRow = Selectable<CategoriesTable>;
export type DrawRow = Selectable<DrawsTable>;
export type PredictionRow = Selectable<PredictionsTable>;
export type NewPrediction = Insertable<PredictionsTable>;
