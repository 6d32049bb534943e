// Reads of the international projects: the search (SQL on both databases: a few thousand projects; text matched
// case and accents aside, as C's search does), one project with its allocations, and the stored statistics.
import type { Expression, Kysely, SqlBool } from 'kysely';
import { getAggregate, listDataVersions } from '../../../core/db/datasets.ts';
import { containsText, foldAccents } from '../../../core/db/dialect.ts';
import { ParameterError } from '../../../core/http/errors.ts';
import { apostropheForms } from '../search/query.ts';
import { fiscalYearLabel } from '../source/fiscal-year.ts';
import type { GrantsDatabase } from '../tables.ts';
import { INTERNATIONAL_DATASET } from './import.ts';
import { INTERNATIONAL_STATS } from './stats.ts';
import type { InternationalStats } from './stats.ts';
import type { ProjectTexts, StoredAllocation, StoredProject } from './tables.ts';

type Db = Kysely<GrantsDatabase>;

export const SORT_FIELDS = ['maximum_contribution', 'disbursements', 'start_date', 'end_date', 'project_number', 'title'] as const;
type SortField = (typeof SORT_FIELDS)[number];
const SORT_COLUMNS: Record<
  SortField,
  'maximum_contribution_cents' | 'disbursements_cents' | 'start_date' | 'end_date' | 'project_number' | 'title_en'
> = {
  maximum_contribution: 'maximum_contribution_cents',
  disbursements: 'disbursements_cents',
  start_date: 'start_date',
  end_date: 'end_date',
  project_number: 'project_number',
  title: 'title_en',
};
export const DEFAULT_SORT = '-maximum_contribution';

/** The texts `q` is looked for in. */
const SEARCHED = [
  'project_number',
  'title_en',
  'title_fr',
  'description_en',
  'description_fr',
  'executing_agency_en',
  'executing_agency_fr',
] as const;

export interface ProjectQuery {
  q?: string;
  country?: string;
  sector?: string;
  status?: string;
  start_from?: string;
  start_to?: string;
  min_value_cents?: number;
  max_value_cents?: number;
  sort: string;
  limit: number;
  offset: number;
}

export interface ProjectAllocation {
  code: string;
  name_en: string;
  name_fr: string;
  percentage: number;
  maximum_contribution: number;
  disbursements: number | null;
}

export interface Project extends ProjectTexts {
  id: number;
  fiscal_year: string;
  maximum_contribution: number;
  disbursements: number | null;
  countries: ProjectAllocation[];
  sectors: ProjectAllocation[];
}

function filtered(db: Db, query: ProjectQuery) {
  return db.selectFrom('grants_international_projects as p').where((eb) => {
    const all: Array<Expression<SqlBool>> = [];
    // (each form of q with its apostrophes written either way, as C's search of the agreements)
    if (query.q)
      all.push(eb.or(apostropheForms(query.q).flatMap((q) => SEARCHED.map((c) => containsText(db, eb.ref(`p.${c}`), q, 'fold')))));
    for (const [kind, code] of [
      ['country', query.country],
      ['sector', query.sector],
    ] as const) {
      if (!code) continue;
      all.push(
        eb.exists(
          eb
            .selectFrom('grants_international_allocations as a')
            .select('a.project_id')
            .whereRef('a.project_id', '=', 'p.id')
            .where('a.kind', '=', kind)
            .where('a.code', '=', code),
        ),
      );
    }
    if (query.status) all.push(eb('p.status', '=', query.status.toLowerCase()));
    if (query.start_from) all.push(eb('p.start_date', '>=', query.start_from));
    if (query.start_to) all.push(eb('p.start_date', '<=', query.start_to));
    if (query.min_value_cents !== undefined) all.push(eb('p.maximum_contribution_cents', '>=', query.min_value_cents));
    if (query.max_value_cents !== undefined) all.push(eb('p.maximum_contribution_cents', '<=', query.max_value_cents));
    return eb.and(all);
  });
}

const percentage = (hundredths: number) => hundredths / 100;

function allocationOf(a: StoredAllocation): ProjectAllocation {
  return {
    code: a.code,
    name_en: a.name_en,
    name_fr: a.name_fr,
    percentage: percentage(Number(a.share_hundredths)),
    maximum_contribution: Number(a.contribution_cents) / 100,
    disbursements: a.disbursements_cents === null ? null : Number(a.disbursements_cents) / 100,
  };
}

async function withAllocations(db: Db, rows: StoredProject[]): Promise<Project[]> {
  if (rows.length === 0) return [];
  const allocations = await db
    .selectFrom('grants_international_allocations')
    .selectAll()
    .where(
      'project_id',
      'in',
      rows.map((r) => Number(r.id)),
    )
    .orderBy('project_id')
    .orderBy('kind')
    .orderBy('share_hundredths', 'desc')
    .orderBy('code')
    .execute();
  const byProject = new Map<number, StoredAllocation[]>();
  for (const a of allocations) {
    const list = byProject.get(Number(a.project_id)) ?? [];
    list.push(a);
    byProject.set(Number(a.project_id), list);
  }
  return rows.map((r) => {
    const list = byProject.get(Number(r.id)) ?? [];
    const year = Number(r.start_year);
    return {
      id: Number(r.id),
      project_number: r.project_number,
      date_modified: r.date_modified,
      title_en: r.title_en,
      title_fr: r.title_fr,
      description_en: r.description_en,
      description_fr: r.description_fr,
      status: r.status,
      status_fr: r.status_fr,
      start_date: r.start_date,
      end_date: r.end_date,
      fiscal_year: fiscalYearLabel(year),
      executing_agency_en: r.executing_agency_en,
      executing_agency_fr: r.executing_agency_fr,
      maximum_contribution: Number(r.maximum_contribution_cents) / 100,
      disbursements: r.disbursements_cents === null ? null : Number(r.disbursements_cents) / 100,
      expected_results_en: r.expected_results_en,
      expected_results_fr: r.expected_results_fr,
      aid_type_en: r.aid_type_en,
      aid_type_fr: r.aid_type_fr,
      program_name_en: r.program_name_en,
      program_name_fr: r.program_name_fr,
      countries: list.filter((a) => a.kind === 'country').map(allocationOf),
      sectors: list.filter((a) => a.kind === 'sector').map(allocationOf),
    };
  });
}

/** A country's name written for comparison: case, accents and the apostrophe's form aside ("cote d'ivoire"). */
const countryKey = (name: string) => foldAccents(name.trim()).replace(/[’']/g, "'");

/**
 * The code of the country a search names: a two-letter code as it is (upper case), else the code of the country whose
 * English or French name, as the projects' allocations write it, is the one given, case, accents and apostrophe aside
 * ("haiti", "Haïti"); a 400 naming `country` when no country of the projects has that name.
 */
async function countryCode(db: Db, written: string): Promise<string> {
  if (/^[A-Za-z]{2}$/.test(written)) return written.toUpperCase();
  const key = countryKey(written);
  const names = await db
    .selectFrom('grants_international_allocations')
    .select(['code', 'name_en', 'name_fr'])
    .where('kind', '=', 'country')
    .distinct()
    .orderBy('code')
    .execute();
  const found = names.find((n) => countryKey(n.name_en) === key || (n.name_fr !== '' && countryKey(n.name_fr) === key));
  if (found) return found.code;
  throw new ParameterError(
    `country must be a two-letter ISO 3166-1 code or the English or French name of a country of the projects, got "${written}"`,
    'country',
    'country',
    { value: written },
  );
}

/** The query with its country as the code the allocations hold (a name resolved), so a page can show what it filters by. */
export async function withCountryCode(db: Db, asked: ProjectQuery): Promise<ProjectQuery> {
  return asked.country === undefined ? asked : { ...asked, country: await countryCode(db, asked.country) };
}

/** A page of matching projects (ordered by `sort`, then by id) and the number of all matches. */
export async function searchProjects(db: Db, asked: ProjectQuery): Promise<{ count: number; results: Project[] }> {
  const query = await withCountryCode(db, asked);
  const counted = await filtered(db, query)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const descending = query.sort.startsWith('-');
  const field = (descending ? query.sort.slice(1) : query.sort) as SortField;
  const direction = descending ? 'desc' : 'asc';
  const column = SORT_COLUMNS[field];
  const rows = await filtered(db, query)
    .selectAll('p')
    // a missing value (end date, disbursements) sorts as the lowest
    .orderBy((eb) => eb.case().when(`p.${column}`, 'is', null).then(0).else(1).end(), direction)
    .orderBy(`p.${column}`, direction)
    .orderBy('p.id', direction)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { count: Number(counted.n), results: await withAllocations(db, rows) };
}

/** One project by its project number as the source writes it. */
export async function getProject(db: Db, projectNumber: string): Promise<Project | null> {
  const row = await db
    .selectFrom('grants_international_projects')
    .selectAll()
    .where('project_number', '=', projectNumber)
    .executeTakeFirst();
  return row ? (await withAllocations(db, [row]))[0] : null;
}

export interface InternationalDataSource {
  kind: 'demo' | 'import';
  is_demo: boolean;
  source: string;
  data_version: string;
  imported_at: string;
}

/** The stored statistics and where the data came from; null before any import. */
export async function readInternationalStats(db: Db): Promise<{ stats: InternationalStats; data_source: InternationalDataSource } | null> {
  const stored = await getAggregate<InternationalStats>(db, 'grants', INTERNATIONAL_STATS);
  if (!stored) return null;
  const version = (await listDataVersions(db, 'grants')).find((v) => v.dataset === INTERNATIONAL_DATASET);
  return {
    stats: stored.value,
    data_source: {
      kind: version?.is_demo ? 'demo' : 'import',
      is_demo: version?.is_demo ?? false,
      source: version?.source ?? '',
      data_version: stored.data_version,
      imported_at: version?.imported_at ?? stored.computed_at,
    },
  };
}
