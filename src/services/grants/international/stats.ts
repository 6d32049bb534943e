// The statistics of the international projects, computed at import from the stored rows and kept with the data
// version (GET /api/international/stats/ reads them as they are): totals, by status, by country, by sector and by
// fiscal year of the start date. A country's or sector's amounts are the projects' amounts × the share the
// source gives it (format.ts: allocateCents), so a project in two countries counts in each for its part; the
// project counts count each project once per country or sector.
import type { Kysely } from 'kysely';
import { fiscalYearLabel } from '../source/fiscal-year.ts';
import type { GrantsDatabase } from '../tables.ts';

export const INTERNATIONAL_STATS = 'international_stats';

export interface AllocationTotal {
  code: string;
  name_en: string;
  name_fr: string;
  projects: number;
  maximum_contribution: number;
  disbursements: number;
}

export interface InternationalStats {
  totals: {
    projects: number;
    maximum_contribution: number;
    disbursements: number;
    /** Projects that give their disbursements (the others count as none in every disbursement total). */
    projects_with_disbursements: number;
    countries: number;
    sectors: number;
    /** The part of the amounts not given to any country (shares under 100%, or no country named). */
    unallocated_to_countries: { maximum_contribution: number; disbursements: number };
  };
  by_status: Array<{ status: string; status_fr: string; projects: number; maximum_contribution: number; disbursements: number }>;
  by_country: AllocationTotal[];
  by_sector: AllocationTotal[];
  by_year: Array<{ year: number; fiscal_year: string; projects: number; maximum_contribution: number; disbursements: number }>;
}

const dollars = (cents: unknown) => Number(cents ?? 0) / 100;

async function byAllocation(db: Kysely<GrantsDatabase>, kind: 'country' | 'sector'): Promise<AllocationTotal[]> {
  const rows = await db
    .selectFrom('grants_international_allocations')
    .select((eb) => [
      'code',
      eb.fn.max('name_en').as('name_en'),
      eb.fn.max('name_fr').as('name_fr'),
      eb.fn.count<number>('project_id').distinct().as('projects'),
      eb.fn.sum<number>('contribution_cents').as('contribution'),
      eb.fn.sum<number>('disbursements_cents').as('disbursed'),
    ])
    .where('kind', '=', kind)
    .groupBy('code')
    .execute();
  return rows
    .map((r) => ({
      code: r.code,
      name_en: r.name_en ?? '',
      name_fr: r.name_fr ?? '',
      projects: Number(r.projects),
      maximum_contribution: dollars(r.contribution),
      disbursements: dollars(r.disbursed),
    }))
    .sort((a, b) => b.disbursements - a.disbursements || b.maximum_contribution - a.maximum_contribution || (a.code < b.code ? -1 : 1));
}

export async function computeInternationalStats(db: Kysely<GrantsDatabase>): Promise<InternationalStats> {
  const total = await db
    .selectFrom('grants_international_projects')
    .select((eb) => [
      eb.fn.countAll<number>().as('projects'),
      eb.fn.sum<number>('maximum_contribution_cents').as('contribution'),
      eb.fn.sum<number>('disbursements_cents').as('disbursed'),
      eb.fn.count<number>('disbursements_cents').as('with_disbursements'),
    ])
    .executeTakeFirstOrThrow();
  const allocated = await db
    .selectFrom('grants_international_allocations')
    .select((eb) => [eb.fn.sum<number>('contribution_cents').as('contribution'), eb.fn.sum<number>('disbursements_cents').as('disbursed')])
    .where('kind', '=', 'country')
    .executeTakeFirstOrThrow();
  const statuses = await db
    .selectFrom('grants_international_projects')
    .select((eb) => [
      'status',
      eb.fn.max('status_fr').as('status_fr'),
      eb.fn.countAll<number>().as('projects'),
      eb.fn.sum<number>('maximum_contribution_cents').as('contribution'),
      eb.fn.sum<number>('disbursements_cents').as('disbursed'),
    ])
    .groupBy('status')
    .orderBy('status')
    .execute();
  const years = await db
    .selectFrom('grants_international_projects')
    .select((eb) => [
      'start_year',
      eb.fn.countAll<number>().as('projects'),
      eb.fn.sum<number>('maximum_contribution_cents').as('contribution'),
      eb.fn.sum<number>('disbursements_cents').as('disbursed'),
    ])
    .groupBy('start_year')
    .orderBy('start_year')
    .execute();
  const byCountry = await byAllocation(db, 'country');
  const bySector = await byAllocation(db, 'sector');
  const totalContribution = Number(total.contribution ?? 0);
  const totalDisbursed = Number(total.disbursed ?? 0);
  return {
    totals: {
      projects: Number(total.projects),
      maximum_contribution: totalContribution / 100,
      disbursements: totalDisbursed / 100,
      projects_with_disbursements: Number(total.with_disbursements),
      countries: byCountry.length,
      sectors: bySector.length,
      unallocated_to_countries: {
        maximum_contribution: (totalContribution - Number(allocated.contribution ?? 0)) / 100,
        disbursements: (totalDisbursed - Number(allocated.disbursed ?? 0)) / 100,
      },
    },
    by_status: statuses.map((s) => ({
      status: s.status,
      status_fr: s.status_fr ?? '',
      projects: Number(s.projects),
      maximum_contribution: dollars(s.contribution),
      disbursements: dollars(s.disbursed),
    })),
    by_country: byCountry,
    by_sector: bySector,
    by_year: years.map((y) => ({
      year: Number(y.start_year),
      fiscal_year: fiscalYearLabel(Number(y.start_year)),
      projects: Number(y.projects),
      maximum_contribution: dollars(y.contribution),
      disbursements: dollars(y.disbursed),
    })),
  };
}
