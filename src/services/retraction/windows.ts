// Time windows of the citation analytics and what is precomputed for them at import. A time filter keeps the
// citations whose citing date lies in (as_of − N years, as_of]; as_of is the latest citing date in the data,
// capped at the day of import, so a re-import of the same files gives the same windows. Per paper and window
// the importers store the citations, the post-retraction ones and their timing buckets
// (retraction_paper_windows), and per paper and trend month the post-retraction citations
// (retraction_paper_months): filtered analytics then never read the 2 million citations (analytics-index.ts).
//
// Timing buckets of post-retraction citations, by days after the retraction: within_30_days 1–30,
// within_1_year 31–365, within_2_years 366–730, after_2_years > 730 (disjoint; they sum to the post count).
import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import { yearsBefore } from './sources/fields.ts';
import { TIME_FILTERS } from './tables.ts';
import type { RetractionDb, TimeFilter, WindowMeasure } from './tables.ts';

// The time filters name stored columns, so they are declared with the tables (tables.ts), and used from here.
export { TIME_FILTERS } from './tables.ts';
export type { TimeFilter } from './tables.ts';
export const TIMING_BUCKETS = ['within_30_days', 'within_1_year', 'within_2_years', 'after_2_years'] as const;
export type TimingBucket = (typeof TIMING_BUCKETS)[number];
/** Every timing bucket at zero. */
export function zeroTiming(): Record<TimingBucket, number> {
  return { within_30_days: 0, within_1_year: 0, within_2_years: 0, after_2_years: 0 };
}
/** The stored measures in column order: total, post, then the timing buckets in TIMING_BUCKETS order. */
export const WINDOW_MEASURES = ['total', 'post', 'd30', 'd365', 'd730', 'dover'] as const satisfies readonly WindowMeasure[];
export const TREND_MONTHS = 24;

/** The citing-date window of a time filter, or null for all time; 'empty' when there is no citing date at all. */
export function timeWindow(filter: TimeFilter, asOf: string | null): { from: string; to: string } | null | 'empty' {
  if (filter === 'all') return null;
  if (asOf === null) return 'empty';
  return { from: yearsBefore(asOf, Number(filter.slice(0, -1))), to: asOf };
}

/** Months YYYY-MM ending with the month of `date`, oldest first. */
export function monthsEnding(date: string, count: number): string[] {
  let y = Number(date.slice(0, 4));
  let m = Number(date.slice(5, 7));
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m--;
    if (m === 0) {
      m = 12;
      y--;
    }
  }
  return out.reverse();
}

/** The reference day of the time filters: the latest citing date, capped at `today`. */
export async function citationsAsOf(db: RetractionDb, today = new Date().toISOString().slice(0, 10)): Promise<string | null> {
  const row = await db
    .selectFrom('retraction_citations')
    .select((eb) => eb.fn.max('citing_date').as('latest'))
    .where('citing_date', '<=', today)
    .executeTakeFirst();
  return row?.latest ?? null;
}

/** A citation (alias c) within the window of `filter`. */
function inWindow(filter: TimeFilter, asOf: string | null): RawBuilder<SqlBool> {
  const window = timeWindow(filter, asOf);
  if (window === null) return sql<SqlBool>`1 = 1`;
  if (window === 'empty') return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`(c.citing_date > ${window.from} AND c.citing_date <= ${window.to})`;
}

/** The condition of each measure on a citation (alias c) of the window. */
function measureCondition(measure: WindowMeasure): RawBuilder<SqlBool> {
  switch (measure) {
    case 'total':
      return sql<SqlBool>`1 = 1`;
    case 'post':
      return sql<SqlBool>`c.days_after > 0`;
    case 'd30':
      return sql<SqlBool>`c.days_after BETWEEN 1 AND 30`;
    case 'd365':
      return sql<SqlBool>`c.days_after BETWEEN 31 AND 365`;
    case 'd730':
      return sql<SqlBool>`c.days_after BETWEEN 366 AND 730`;
    case 'dover':
      return sql<SqlBool>`c.days_after > 730`;
  }
}

/**
 * Recomputes retraction_paper_windows and retraction_paper_months from the citations, in two grouped passes
 * (inside the importer's transaction). Returns the trend months.
 */
export async function refreshPaperWindows(trx: RetractionDb, asOf: string | null): Promise<string[]> {
  await trx.deleteFrom('retraction_paper_windows').execute();
  await trx.deleteFrom('retraction_paper_months').execute();
  const columns: string[] = [];
  const values: RawBuilder<unknown>[] = [];
  for (const filter of TIME_FILTERS) {
    for (const measure of WINDOW_MEASURES) {
      columns.push(`${measure}_${filter}`);
      values.push(sql`count(CASE WHEN ${inWindow(filter, asOf)} AND ${measureCondition(measure)} THEN 1 END)`);
    }
  }
  await sql`INSERT INTO retraction_paper_windows (paper_id, ${sql.join(columns.map((c) => sql.ref(c)))})
    SELECT c.paper_id, ${sql.join(values)} FROM retraction_citations c GROUP BY c.paper_id`.execute(trx);
  if (asOf === null) return [];
  const months = monthsEnding(asOf, TREND_MONTHS);
  await sql`INSERT INTO retraction_paper_months (paper_id, month, ${sql.join(TIME_FILTERS.map((f) => sql.ref(`post_${f}`)))})
    SELECT c.paper_id, c.citing_month, ${sql.join(TIME_FILTERS.map((f) => sql`count(CASE WHEN ${inWindow(f, asOf)} THEN 1 END)`))}
    FROM retraction_citations c
    WHERE c.days_after > 0 AND c.citing_month >= ${months[0]} AND c.citing_month <= ${months[months.length - 1]}
    GROUP BY c.paper_id, c.citing_month`.execute(trx);
  return months;
}
