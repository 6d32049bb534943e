// The tables of Global Affairs Canada's international assistance projects (the Project Browser CSV): one row per
// project, keyed by its project number as the source writes it, with its English and French texts; and its
// allocations, one row per country or sector the project names, with the share of the project the source gives it.
import type { Selectable } from 'kysely';
import type { DbBoolean, DbId, DbInteger } from '../../../core/db/tables.ts';

export const PROJECTS_TABLE = 'grants_international_projects';
export const ALLOCATIONS_TABLE = 'grants_international_allocations';

/** A project's texts and dates, as the file writes them: the same fields in the row read, the table and the API. */
export interface ProjectTexts {
  project_number: string;
  date_modified: string | null;
  title_en: string;
  title_fr: string;
  description_en: string;
  description_fr: string;
  /** The English status as written, lower case (operational, terminating, closed). */
  status: string;
  status_fr: string;
  start_date: string;
  end_date: string | null;
  executing_agency_en: string;
  executing_agency_fr: string;
  expected_results_en: string;
  expected_results_fr: string;
  aid_type_en: string;
  aid_type_fr: string;
  program_name_en: string;
  program_name_fr: string;
}

export interface InternationalProjectsTable extends ProjectTexts {
  id: DbId;
  /** The fiscal year (April to March) of the start date, by its start year. */
  start_year: number;
  maximum_contribution_cents: DbInteger;
  disbursements_cents: DbInteger | null;
  is_demo: DbBoolean;
  content_hash: string;
  import_version: string;
}

export interface InternationalAllocationsTable {
  project_id: number;
  /** 'country' (code: ISO 3166-1 alpha-2 as the source writes it) or 'sector' (code: the OECD DAC purpose code). */
  kind: string;
  code: string;
  name_en: string;
  name_fr: string;
  /** The project's share given to this country or sector, in hundredths of a percent (60.00% = 6000). */
  share_hundredths: number;
  /** The maximum contribution × the share, in cents (half up). */
  contribution_cents: DbInteger;
  /** Disbursements × the share, in cents (half up); null when the project gives no disbursements. */
  disbursements_cents: DbInteger | null;
}

export type StoredProject = Selectable<InternationalProjectsTable>;
export type StoredAllocation = Selectable<InternationalAllocationsTable>;
