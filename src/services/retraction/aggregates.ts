// Citation analytics of Service E, framework-free. The unfiltered results (every time filter, the
// analytics-data tables, the overview) are computed when data is imported and stored with the data version
// (`recomputeAggregates`); requests with a journal or subject filter run the same function on demand.
//
// Definitions (documented in the API description):
// - A citation is post-retraction when the citing work's date is after the retraction date (days_after > 0);
//   same day (0) is not post. Partial citing dates stand for the first day of their period.
// - Timing buckets of post-retraction citations, by days after the retraction: within_30_days 1–30,
//   within_1_year 31–365, within_2_years 366–730, after_2_years > 730 (disjoint; they sum to the post count).
// - time_filter keeps citations whose citing date lies in (as_of − N years, as_of]; as_of is the latest citing
//   date in the data, capped at the day of import, so a re-import of the same file gives the same windows.
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import { containsText, num } from '../../core/db/dialect.ts';
import { putAggregate } from '../../core/db/datasets.ts';
import { yearsBefore } from './sources/fields.ts';
import type { PaperRow, RetractionDb } from './tables.ts';

export const TIME_FILTERS = ['all', '1y', '3y', '5y'] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];
export const TIMING_BUCKETS = ['within_30_days', 'within_1_year', 'within_2_years', 'after_2_years'] as const;
export type TimingBucket = (typeof TIMING_BUCKETS)[number];
export const TREND_MONTHS = 24;

/** The timing buckets from counts by bucket (absent: 0). */
export function timingOf(counts: ReadonlyMap<TimingBucket, number>): Record<TimingBucket, number> {
  return {
    within_30_days: counts.get('within_30_days') ?? 0,
    within_1_year: counts.get('within_1_year') ?? 0,
    within_2_years: counts.get('within_2_years') ?? 0,
    after_2_years: counts.get('after_2_years') ?? 0,
  };
}

/** Every timing bucket at zero. */
export function zeroTiming(): Record<TimingBucket, number> {
  return { within_30_days: 0, within_1_year: 0, within_2_years: 0, after_2_years: 0 };
}
export const TOP_N = 10;

export interface AnalyticsFilters {
  timeFilter: TimeFilter;
  journal?: string;
  subject?: string;
}

const BUCKET_SQL = sql<TimingBucket>`CASE WHEN c.days_after <= 30 THEN 'within_30_days' WHEN c.days_after <= 365 THEN 'within_1_year' WHEN c.days_after <= 730 THEN 'within_2_years' ELSE 'after_2_years' END`;

/** The citing-date window of a time filter, or null for all time. */
export function timeWindow(filter: TimeFilter, asOf: string | null): { from: string; to: string } | null | 'empty' {
  if (filter === 'all') return null;
  if (asOf === null) return 'empty';
  return { from: yearsBefore(asOf, Number(filter.slice(0, -1))), to: asOf };
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

export interface TopPaper {
  record_id: string;
  title: string;
  journal: string | null;
  retraction_date: string | null;
  post_retraction_citations: number;
  total_citations: number;
}

export interface PostRetractionAnalytics {
  filters: {
    time_filter: TimeFilter;
    journal: string | null;
    subject: string | null;
    as_of: string | null;
    citing_date_from: string | null;
    citing_date_to: string | null;
  };
  totals: { papers: number; citations: number; post_retraction_citations: number; post_retraction_rate: number };
  timing_distribution: { bucket: TimingBucket; count: number }[];
  top_papers: TopPaper[];
  top_journals: { journal: string; papers: number; post_retraction_citations: number }[];
  top_subjects: { subject: string; papers: number; post_retraction_citations: number }[];
  monthly_trend: { month: string; count: number }[];
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

export const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10000) / 10000 : 0);

export async function postRetractionAnalytics(
  db: RetractionDb,
  filters: AnalyticsFilters,
  asOf: string | null,
): Promise<PostRetractionAnalytics> {
  const window = timeWindow(filters.timeFilter, asOf);
  const paperFilter = (alias: string): Expression<SqlBool>[] => {
    const out: Expression<SqlBool>[] = [];
    if (filters.journal) out.push(containsText(db, sql.ref(`${alias}.journal`), filters.journal));
    if (filters.subject) out.push(containsText(db, sql.ref(`${alias}.subject`), filters.subject));
    return out;
  };
  const filtered = paperFilter('p').length > 0;
  // Citations of the filtered papers within the window; `post` restricts to post-retraction ones.
  const citations = (post: boolean) => {
    let q = db.selectFrom('retraction_citations as c');
    if (filtered) q = q.innerJoin('retraction_papers as p', 'p.id', 'c.paper_id');
    for (const condition of paperFilter('p')) q = q.where(condition);
    if (window === 'empty') q = q.where(sql<SqlBool>`1 = 0`);
    else if (window) q = q.where('c.citing_date', '>', window.from).where('c.citing_date', '<=', window.to);
    if (post) q = q.where('c.days_after', '>', 0);
    return q;
  };
  let papersQuery = db.selectFrom('retraction_papers as p').select((eb) => eb.fn.countAll().as('n'));
  for (const condition of paperFilter('p')) papersQuery = papersQuery.where(condition);
  const papers = num((await papersQuery.executeTakeFirstOrThrow()).n);

  const totalsRow = await citations(false)
    .select((eb) => [eb.fn.countAll().as('citations'), eb.fn.count(sql`CASE WHEN c.days_after > 0 THEN 1 END`).as('post')])
    .executeTakeFirstOrThrow();
  const totalCitations = num(totalsRow.citations);
  const post = num(totalsRow.post);

  const buckets = new Map<TimingBucket, number>();
  for (const row of await citations(true)
    .select([BUCKET_SQL.as('bucket'), (eb) => eb.fn.countAll().as('n')])
    .groupBy(BUCKET_SQL)
    .execute()) {
    buckets.set(row.bucket, num(row.n));
  }

  const topRows = await citations(false)
    .select([
      'c.paper_id',
      (eb) => eb.fn.countAll().as('total'),
      (eb) => eb.fn.count(sql`CASE WHEN c.days_after > 0 THEN 1 END`).as('post'),
    ])
    .groupBy('c.paper_id')
    .having(sql`count(CASE WHEN c.days_after > 0 THEN 1 END)`, '>', 0)
    .orderBy(sql`count(CASE WHEN c.days_after > 0 THEN 1 END)`, 'desc')
    .orderBy('c.paper_id')
    .limit(TOP_N)
    .execute();
  const details = new Map<number, Pick<PaperRow, 'record_id' | 'title' | 'journal' | 'retraction_date'>>();
  if (topRows.length) {
    for (const p of await db
      .selectFrom('retraction_papers')
      .select(['id', 'record_id', 'title', 'journal', 'retraction_date'])
      .where(
        'id',
        'in',
        topRows.map((r) => r.paper_id),
      )
      .execute()) {
      details.set(Number(p.id), p);
    }
  }
  const top_papers = topRows.map((r) => {
    const p = details.get(Number(r.paper_id))!;
    return {
      record_id: p.record_id,
      title: p.title,
      journal: p.journal,
      retraction_date: p.retraction_date,
      post_retraction_citations: num(r.post),
      total_citations: num(r.total),
    };
  });

  // Journals: post-retraction citations in the window, and the number of (filtered) papers of each journal.
  let journalPapers = db
    .selectFrom('retraction_papers as p')
    .select(['p.journal', (eb) => eb.fn.countAll().as('n')])
    .where('p.journal', 'is not', null)
    .groupBy('p.journal');
  for (const condition of paperFilter('p')) journalPapers = journalPapers.where(condition);
  const journalCounts = new Map((await journalPapers.execute()).map((r) => [r.journal, num(r.n)]));
  let journalPost = db
    .selectFrom('retraction_citations as c')
    .innerJoin('retraction_papers as p', 'p.id', 'c.paper_id')
    .select(['p.journal', (eb) => eb.fn.countAll().as('n')])
    .where('c.days_after', '>', 0)
    .where('p.journal', 'is not', null)
    .$narrowType<{ journal: string }>()
    .groupBy('p.journal');
  for (const condition of paperFilter('p')) journalPost = journalPost.where(condition);
  if (window === 'empty') journalPost = journalPost.where(sql<SqlBool>`1 = 0`);
  else if (window) journalPost = journalPost.where('c.citing_date', '>', window.from).where('c.citing_date', '<=', window.to);
  const top_journals = (await journalPost.execute())
    .map((r) => ({
      journal: r.journal,
      papers: journalCounts.get(r.journal) ?? 0,
      post_retraction_citations: num(r.n),
    }))
    .sort(
      (a, b) =>
        b.post_retraction_citations - a.post_retraction_citations ||
        b.papers - a.papers ||
        (a.journal < b.journal ? -1 : a.journal > b.journal ? 1 : 0),
    )
    .slice(0, TOP_N);

  let subjectPapers = db
    .selectFrom('retraction_paper_subjects as s')
    .innerJoin('retraction_papers as p', 'p.id', 's.paper_id')
    .select(['s.subject', (eb) => eb.fn.countAll().as('n')])
    .groupBy('s.subject');
  for (const condition of paperFilter('p')) subjectPapers = subjectPapers.where(condition);
  const subjectCounts = new Map((await subjectPapers.execute()).map((r) => [r.subject, num(r.n)]));
  let subjectPost = db
    .selectFrom('retraction_citations as c')
    .innerJoin('retraction_papers as p', 'p.id', 'c.paper_id')
    .innerJoin('retraction_paper_subjects as s', 's.paper_id', 'c.paper_id')
    .select(['s.subject', (eb) => eb.fn.countAll().as('n')])
    .where('c.days_after', '>', 0)
    .groupBy('s.subject');
  for (const condition of paperFilter('p')) subjectPost = subjectPost.where(condition);
  if (window === 'empty') subjectPost = subjectPost.where(sql<SqlBool>`1 = 0`);
  else if (window) subjectPost = subjectPost.where('c.citing_date', '>', window.from).where('c.citing_date', '<=', window.to);
  const top_subjects = (await subjectPost.execute())
    .map((r) => ({
      subject: r.subject,
      papers: subjectCounts.get(r.subject) ?? 0,
      post_retraction_citations: num(r.n),
    }))
    .sort(
      (a, b) =>
        b.post_retraction_citations - a.post_retraction_citations ||
        b.papers - a.papers ||
        (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0),
    )
    .slice(0, TOP_N);

  const months = asOf ? monthsEnding(asOf, TREND_MONTHS) : [];
  const perMonth = new Map<string, number>();
  if (months.length) {
    for (const row of await citations(true)
      .select(['c.citing_month', (eb) => eb.fn.countAll().as('n')])
      .where('c.citing_month', '>=', months[0])
      .where('c.citing_month', '<=', months[months.length - 1])
      .groupBy('c.citing_month')
      .execute()) {
      if (row.citing_month !== null) perMonth.set(row.citing_month, num(row.n));
    }
  }
  return {
    filters: {
      time_filter: filters.timeFilter,
      journal: filters.journal ?? null,
      subject: filters.subject ?? null,
      as_of: asOf,
      citing_date_from: window && window !== 'empty' ? window.from : null,
      citing_date_to: window && window !== 'empty' ? window.to : null,
    },
    totals: { papers, citations: totalCitations, post_retraction_citations: post, post_retraction_rate: rate(post, totalCitations) },
    timing_distribution: TIMING_BUCKETS.map((bucket) => ({ bucket, count: buckets.get(bucket) ?? 0 })),
    top_papers,
    top_journals,
    top_subjects,
    monthly_trend: months.map((month) => ({ month, count: perMonth.get(month) ?? 0 })),
  };
}

// ---------------------------------------------------------------- analytics-data tables and the overview

export interface Overview {
  total_papers: number;
  papers_with_citations: number;
  total_citations: number;
  pre_retraction_citations: number;
  same_day_citations: number;
  post_retraction_citations: number;
  undated_citations: number;
  post_retraction_rate: number;
  post_retraction_timing: Record<TimingBucket, number>;
  journals: number;
  publishers: number;
  countries: number;
  subjects: number;
  first_retraction_date: string | null;
  last_retraction_date: string | null;
  citations_as_of: string | null;
  by_retraction_nature: { retraction_nature: string; papers: number }[];
}

export interface AnalyticsTables {
  overview: Overview;
  trends: { year: number; retractions: number }[];
  citations: { year: number; total: number; pre_retraction: number; same_day: number; post_retraction: number }[];
  subjects: { subject: string; papers: number; total_citations: number; post_retraction_citations: number }[];
  geographic: { country: string; papers: number; total_citations: number; post_retraction_citations: number }[];
}

export const ANALYTICS_TYPES = ['overview', 'trends', 'citations', 'subjects', 'geographic'] as const;
export type AnalyticsType = (typeof ANALYTICS_TYPES)[number];

/** The flat CSV columns of each analytics-data type (documented in the API description). */
export const ANALYTICS_CSV_COLUMNS: Record<AnalyticsType, string[]> = {
  overview: ['metric', 'value'],
  trends: ['year', 'retractions'],
  citations: ['year', 'total', 'pre_retraction', 'same_day', 'post_retraction'],
  subjects: ['subject', 'papers', 'total_citations', 'post_retraction_citations'],
  geographic: ['country', 'papers', 'total_citations', 'post_retraction_citations'],
};

export async function computeAnalyticsTables(db: RetractionDb, asOf: string | null): Promise<AnalyticsTables> {
  const counts = await db
    .selectFrom('retraction_paper_counts')
    .select((eb) => [
      eb.fn.sum('total').as('total'),
      eb.fn.sum('pre').as('pre'),
      eb.fn.sum('same_day').as('same_day'),
      eb.fn.sum('post').as('post'),
      eb.fn.sum('undated').as('undated'),
      eb.fn.count(sql`CASE WHEN total > 0 THEN 1 END`).as('cited'),
    ])
    .executeTakeFirstOrThrow();
  const papers = await db
    .selectFrom('retraction_papers')
    .select((eb) => [
      eb.fn.countAll().as('n'),
      eb.fn.count('journal').distinct().as('journals'),
      eb.fn.count('publisher').distinct().as('publishers'),
      eb.fn.min('retraction_date').as('first'),
      eb.fn.max('retraction_date').as('last'),
    ])
    .executeTakeFirstOrThrow();
  const countries = await db
    .selectFrom('retraction_paper_countries')
    .select((eb) => eb.fn.count('country').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const subjectCount = await db
    .selectFrom('retraction_paper_subjects')
    .select((eb) => eb.fn.count('subject').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const timing = new Map<TimingBucket, number>();
  for (const row of await db
    .selectFrom('retraction_citations as c')
    .select([BUCKET_SQL.as('bucket'), (eb) => eb.fn.countAll().as('n')])
    .where('c.days_after', '>', 0)
    .groupBy(BUCKET_SQL)
    .execute()) {
    timing.set(row.bucket, num(row.n));
  }
  const natures = await db
    .selectFrom('retraction_papers')
    .select(['retraction_nature', (eb) => eb.fn.countAll().as('n')])
    .groupBy('retraction_nature')
    .execute();
  const total = num(counts.total);
  const post = num(counts.post);
  const overview: Overview = {
    total_papers: num(papers.n),
    papers_with_citations: num(counts.cited),
    total_citations: total,
    pre_retraction_citations: num(counts.pre),
    same_day_citations: num(counts.same_day),
    post_retraction_citations: post,
    undated_citations: num(counts.undated),
    post_retraction_rate: rate(post, total),
    post_retraction_timing: timingOf(timing),
    journals: num(papers.journals),
    publishers: num(papers.publishers),
    countries: num(countries.n),
    subjects: num(subjectCount.n),
    first_retraction_date: papers.first ?? null,
    last_retraction_date: papers.last ?? null,
    citations_as_of: asOf,
    by_retraction_nature: natures
      .map((r) => ({ retraction_nature: r.retraction_nature ?? 'not stated', papers: num(r.n) }))
      .sort((a, b) => b.papers - a.papers || (a.retraction_nature < b.retraction_nature ? -1 : 1)),
  };

  const year = sql<string>`substr(retraction_date, 1, 4)`;
  const trends = (
    await db
      .selectFrom('retraction_papers')
      .select([year.as('year'), (eb) => eb.fn.countAll().as('n')])
      .where('retraction_date', 'is not', null)
      .groupBy(year)
      .orderBy(year)
      .execute()
  ).map((r) => ({
    year: Number(r.year),
    retractions: num(r.n),
  }));

  const citations = (
    await db
      .selectFrom('retraction_citations')
      .select([
        'citing_year',
        (eb) => eb.fn.countAll().as('total'),
        (eb) => eb.fn.count(sql`CASE WHEN days_after < 0 THEN 1 END`).as('pre'),
        (eb) => eb.fn.count(sql`CASE WHEN days_after = 0 THEN 1 END`).as('same_day'),
        (eb) => eb.fn.count(sql`CASE WHEN days_after > 0 THEN 1 END`).as('post'),
      ])
      .where('citing_year', 'is not', null)
      .groupBy('citing_year')
      .orderBy('citing_year')
      .execute()
  ).map((r) => ({
    year: Number(r.citing_year),
    total: num(r.total),
    pre_retraction: num(r.pre),
    same_day: num(r.same_day),
    post_retraction: num(r.post),
  }));

  type Group = {
    name: string;
    papers: number | string | bigint;
    total: number | string | bigint | null;
    post: number | string | bigint | null;
  };
  const ranked = (rows: Group[]) =>
    rows
      .map((r) => ({
        name: r.name,
        papers: num(r.papers),
        total_citations: num(r.total),
        post_retraction_citations: num(r.post),
      }))
      .sort((a, b) => b.papers - a.papers || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const subjectGroups = await db
    .selectFrom('retraction_paper_subjects as g')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'g.paper_id')
    .select([
      'g.subject as name',
      (eb) => eb.fn.countAll().as('papers'),
      (eb) => eb.fn.sum('k.total').as('total'),
      (eb) => eb.fn.sum('k.post').as('post'),
    ])
    .groupBy('g.subject')
    .execute();
  const countryGroups = await db
    .selectFrom('retraction_paper_countries as g')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'g.paper_id')
    .select([
      'g.country as name',
      (eb) => eb.fn.countAll().as('papers'),
      (eb) => eb.fn.sum('k.total').as('total'),
      (eb) => eb.fn.sum('k.post').as('post'),
    ])
    .groupBy('g.country')
    .execute();
  const subjects = ranked(subjectGroups).map(({ name, ...rest }) => ({ subject: name, ...rest }));
  const geographic = ranked(countryGroups).map(({ name, ...rest }) => ({ country: name, ...rest }));
  return { overview, trends, citations, subjects, geographic };
}

/** Rows of the flat CSV form of one analytics-data type. */
export function analyticsCsvRows(tables: AnalyticsTables, type: AnalyticsType): object[] {
  if (type !== 'overview') return tables[type];
  const o = tables.overview;
  const rows: Record<string, unknown>[] = [];
  for (const [metric, value] of Object.entries(o)) {
    if (value === null || typeof value !== 'object') rows.push({ metric, value });
  }
  for (const [bucket, value] of Object.entries(o.post_retraction_timing)) rows.push({ metric: `post_retraction_${bucket}`, value });
  for (const n of o.by_retraction_nature) rows.push({ metric: `papers_retraction_nature:${n.retraction_nature}`, value: n.papers });
  return rows;
}

export const AGGREGATES = {
  tables: 'analytics_tables',
  postRetraction: (filter: TimeFilter) => `post_retraction_analytics:${filter}`,
} as const;

/** Everything derived from papers and citations, stored with the data version (called by both importers). */
export async function recomputeAggregates(trx: RetractionDb, dataVersion: string): Promise<void> {
  const asOf = await citationsAsOf(trx);
  await putAggregate(trx, 'retraction', AGGREGATES.tables, dataVersion, await computeAnalyticsTables(trx, asOf));
  for (const filter of TIME_FILTERS) {
    await putAggregate(
      trx,
      'retraction',
      AGGREGATES.postRetraction(filter),
      dataVersion,
      await postRetractionAnalytics(trx, { timeFilter: filter }, asOf),
    );
  }
}
