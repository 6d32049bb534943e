// Service A's tables as Kysely sees them (created by migrations.ts). Repositories and the store take
// `Kysely<OralDatabase>`; row types elsewhere are derived from these (Selectable / Insertable), never restated.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Db } from '../../core/db/database.ts';
import type { CoreTables, DbBoolean, DbId, DbInteger, DbJson } from '../../core/db/tables.ts';

interface OrganizationsTable {
  id: DbId;
  name: string;
  website: string | null;
  country: string;
}

interface GuidelinesTable {
  id: DbId;
  /** Natural key across imports (`england-dboh-2021`, `sign-138`, `demo:…`). */
  source_key: string;
  /** Which import owns the row (toolkit, sign138, bundle, demo): a dataset's import replaces only its own rows. */
  dataset: string;
  title: string;
  description: string;
  organization_id: DbInteger;
  organization_name: string;
  country: string;
  region: string | null;
  publication_year: number | null;
  url: string | null;
  is_active: DbBoolean;
  is_demo: DbBoolean;
  recommendation_count: number;
  content_hash: string;
  created_at: string;
}

interface RecommendationsTable {
  id: DbId;
  guideline_id: DbInteger;
  source_key: string;
  title: string;
  text: string;
  /** string[] */
  keywords: DbJson;
  /** The keywords joined by spaces, for the substring index. */
  keywords_text: string;
  target_population: string | null;
  clinical_context: string | null;
  source_url: string | null;
  page_number: number | null;
  strength_id: number | null;
  evidence_quality_id: number | null;
  grade: string | null;
  recommendation_number: string | null;
  /** ReferenceInput[] */
  references: DbJson;
  /** Copied from the guideline so that filtering and ordering need no join. */
  country: string;
  publication_year: number | null;
  content_hash: string;
  created_at: string;
}

interface RecommendationTopicsTable {
  recommendation_id: DbInteger;
  topic_id: number;
}

interface ReviewsTable {
  id: DbId;
  review_id: string;
  dataset: string;
  version: number;
  /** What is shown as the title: `listed_title` when the review's rows confirm it (`title_verified`), else `description`. */
  title: string;
  /** The title as the source lists it (null when it lists none), whether or not it matches. */
  listed_title: string | null;
  /** Built from the review's own rows: "<population>: <interventions> vs <comparisons>". */
  description: string;
  title_verified: DbBoolean;
  url: string | null;
  doi: string | null;
  publication_date: string | null;
  authors: string | null;
  abstract: string | null;
  is_demo: DbBoolean;
  outcome_count: number;
  certainty_high: number;
  certainty_moderate: number;
  certainty_low: number;
  certainty_very_low: number;
  content_hash: string;
  created_at: string;
}

interface OutcomesTable {
  id: DbId;
  review_pk: DbInteger;
  position: number;
  population: string | null;
  intervention: string | null;
  comparison: string | null;
  outcome: string | null;
  measure: string | null;
  effect: number | null;
  ci_lower: number | null;
  ci_upper: number | null;
  significant: DbBoolean | null;
  participants: number | null;
  studies: number | null;
  certainty: string | null;
  certainty_raw: string | null;
  reasons: string | null;
  /** DowngradesInput */
  downgrades: DbJson;
}

// A type alias, not an interface: Kysely's `withTables` needs an object type with an implicit index signature.
export type OralTables = {
  oral_organizations: OrganizationsTable;
  oral_guidelines: GuidelinesTable;
  oral_recommendations: RecommendationsTable;
  oral_recommendation_topics: RecommendationTopicsTable;
  oral_reviews: ReviewsTable;
  oral_outcomes: OutcomesTable;
};

export type OralDatabase = CoreTables & OralTables;

export type NewRecommendation = Insertable<RecommendationsTable>;
export type ReviewRow = Selectable<ReviewsTable>;

/** Service A's view of a pdi database (every pdi database holds Service A's tables: one schema for all services). */
export function oralDatabase(db: Db): Kysely<OralDatabase> {
  return db.kysely.withTables<OralTables>();
}
