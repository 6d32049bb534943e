// What Service E computes when papers or citations are imported and stores with the data version
// (`recomputeAggregates`, called inside both importers' transactions): the per-paper window figures
// (windows.ts), the post-retraction analytics of every time filter and kind of notice, and the analytics-data
// tables of every kind of notice. Requests with a journal or subject filter are answered from the in-memory
// index of the same figures (analytics-index.ts).
//
// Retractions are retractions: "retracted papers" are the notices of nature Retraction (nature.ts). Every
// table is computed per kind of notice (`nature`, default retraction) and reports the other kinds beside it.
// A citation is post-retraction when the citing work's date is after the notice's date (days_after > 0); same
// day (0) is not post. Partial citing dates stand for the first day of their period.
import { sql } from 'kysely';
import { num, lockForTransaction } from '../../core/db/dialect.ts';
import { getAggregate, listDataVersions, putAggregate } from '../../core/db/datasets.ts';
import { AnalyticsIndex, INDEX_AGGREGATE, storeIndexSnapshot } from './analytics-index.ts';
import type { IndexMeta, PostRetractionAnalytics } from './analytics-index.ts';
import { rate } from './analytics-index.ts';
import { NATURES, NATURE_FILTERS } from './nature.ts';
import type { Nature, NatureFilter } from './nature.ts';
import type { RetractionDb } from './tables.ts';
import { TIME_FILTERS, citationsAsOf, refreshPaperWindows, zeroTiming } from './windows.ts';
import type { TimeFilter, TimingBucket } from './windows.ts';

interface NatureTotals {
  nature: Nature;
  papers: number;
  total_citations: number;
  post_retraction_citations: number;
}

interface Overview {
  /** The kind of notice the figures below count (`all`: every record). */
  nature: NatureFilter;
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
  /** Citations of papers a later papers import no longer had: kept aside, not counted above. */
  citations_set_aside: number;
  /** Every kind of notice, whatever `nature` is. */
  by_nature: NatureTotals[];
  /** The RetractionNature cells as written, every record. */
  by_retraction_nature: { retraction_nature: string; papers: number }[];
}

/** Notices per year of the notice, one column per kind (`retractions`: nature Retraction only). */
interface TrendRow {
  year: number;
  retractions: number;
  expressions_of_concern: number;
  corrections: number;
  reinstatements: number;
  other_notices: number;
}
const TREND_COLUMN: Record<Nature, Exclude<keyof TrendRow, 'year'>> = {
  retraction: 'retractions',
  expression_of_concern: 'expressions_of_concern',
  correction: 'corrections',
  reinstatement: 'reinstatements',
  other: 'other_notices',
};

interface CitationYearRow {
  year: number;
  total: number;
  pre_retraction: number;
  same_day: number;
  post_retraction: number;
}
interface GroupRow {
  papers: number;
  total_citations: number;
  post_retraction_citations: number;
}

export interface AnalyticsTables {
  overview: Overview;
  trends: TrendRow[];
  citations: CitationYearRow[];
  subjects: ({ subject: string } & GroupRow)[];
  geographic: ({ country: string } & GroupRow)[];
}

export const ANALYTICS_TYPES = ['overview', 'trends', 'citations', 'subjects', 'geographic'] as const;
export type AnalyticsType = (typeof ANALYTICS_TYPES)[number];

/** The flat CSV columns of each analytics-data type (documented in the API description). */
export const ANALYTICS_CSV_COLUMNS: Record<AnalyticsType, string[]> = {
  overview: ['metric', 'value'],
  trends: ['year', 'retractions', 'expressions_of_concern', 'corrections', 'reinstatements', 'other_notices'],
  citations: ['year', 'total', 'pre_retraction', 'same_day', 'post_retraction'],
  subjects: ['subject', 'papers', 'total_citations', 'post_retraction_citations'],
  geographic: ['country', 'papers', 'total_citations', 'post_retraction_citations'],
};

type Count = number | string | bigint | null;
const byNatureKey = <T>(make: () => T) => new Map<NatureFilter, T>(NATURE_FILTERS.map((n) => [n, make()]));
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Adds a row counted for one kind to that kind's and to `all`'s accumulator. */
function addTo<T>(map: Map<NatureFilter, T>, nature: Nature, add: (target: T) => void): void {
  add(map.get(nature)!);
  add(map.get('all')!);
}

/** Per-kind sums of the papers and their per-paper counts (each kind's row also added to `all`'s). */
interface Sums {
  papers: number;
  cited: number;
  total: number;
  pre: number;
  same_day: number;
  post: number;
  undated: number;
  timing: Record<TimingBucket, number>;
  first: string | null;
  last: string | null;
}

async function paperSums(db: RetractionDb): Promise<Map<NatureFilter, Sums>> {
  const paperGroups = await db
    .selectFrom('retraction_papers as p')
    .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'p.id')
    .leftJoin('retraction_paper_windows as w', 'w.paper_id', 'p.id')
    .select((eb) => [
      'p.nature',
      eb.fn.countAll().as('papers'),
      eb.fn.count(sql`CASE WHEN k.total > 0 THEN 1 END`).as('cited'),
      eb.fn.sum('k.total').as('total'),
      eb.fn.sum('k.pre').as('pre'),
      eb.fn.sum('k.same_day').as('same_day'),
      eb.fn.sum('k.post').as('post'),
      eb.fn.sum('k.undated').as('undated'),
      eb.fn.sum('w.d30_all').as('d30'),
      eb.fn.sum('w.d365_all').as('d365'),
      eb.fn.sum('w.d730_all').as('d730'),
      eb.fn.sum('w.dover_all').as('dover'),
      eb.fn.min('p.retraction_date').as('first'),
      eb.fn.max('p.retraction_date').as('last'),
    ])
    .groupBy('p.nature')
    .execute();
  const sums = byNatureKey<Sums>(() => ({
    papers: 0,
    cited: 0,
    total: 0,
    pre: 0,
    same_day: 0,
    post: 0,
    undated: 0,
    timing: zeroTiming(),
    first: null,
    last: null,
  }));
  for (const g of paperGroups) {
    addTo(sums, g.nature, (s) => {
      for (const key of ['papers', 'cited', 'total', 'pre', 'same_day', 'post', 'undated'] as const) s[key] += num(g[key]);
      s.timing.within_30_days += num(g.d30);
      s.timing.within_1_year += num(g.d365);
      s.timing.within_2_years += num(g.d730);
      s.timing.after_2_years += num(g.dover);
      if (g.first !== null && (s.first === null || g.first < s.first)) s.first = g.first;
      if (g.last !== null && (s.last === null || g.last > s.last)) s.last = g.last;
    });
  }
  return sums;
}

type DistinctCounts = Record<'journals' | 'publishers' | 'countries' | 'subjects', Map<NatureFilter, number>>;

/**
 * Distinct journals, publishers, countries and subjects per kind of notice. A distinct count cannot be summed
 * over the kinds, so `all` has a query of its own.
 */
async function distinctCounts(db: RetractionDb): Promise<DistinctCounts> {
  const distinctPerNature = await db
    .selectFrom('retraction_papers')
    .select((eb) => ['nature', eb.fn.count('journal').distinct().as('journals'), eb.fn.count('publisher').distinct().as('publishers')])
    .groupBy('nature')
    .execute();
  const distinctAll = await db
    .selectFrom('retraction_papers')
    .select((eb) => [eb.fn.count('journal').distinct().as('journals'), eb.fn.count('publisher').distinct().as('publishers')])
    .executeTakeFirstOrThrow();
  const countriesPerNature = await db
    .selectFrom('retraction_paper_countries as g')
    .innerJoin('retraction_papers as p', 'p.id', 'g.paper_id')
    .select((eb) => ['p.nature', eb.fn.count('g.country').distinct().as('n')])
    .groupBy('p.nature')
    .execute();
  const countriesAll = await db
    .selectFrom('retraction_paper_countries')
    .select((eb) => eb.fn.count('country').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const subjectsPerNature = await db
    .selectFrom('retraction_paper_subjects as g')
    .innerJoin('retraction_papers as p', 'p.id', 'g.paper_id')
    .select((eb) => ['p.nature', eb.fn.count('g.subject').distinct().as('n')])
    .groupBy('p.nature')
    .execute();
  const subjectsAll = await db
    .selectFrom('retraction_paper_subjects')
    .select((eb) => eb.fn.count('subject').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const distinct = (rows: { nature: Nature; n: Count }[], all: Count) => {
    const map = new Map<NatureFilter, number>(NATURE_FILTERS.map((n) => [n, 0]));
    for (const r of rows) map.set(r.nature, num(r.n));
    map.set('all', num(all));
    return map;
  };
  return {
    journals: distinct(
      distinctPerNature.map((r) => ({ nature: r.nature, n: r.journals })),
      distinctAll.journals,
    ),
    publishers: distinct(
      distinctPerNature.map((r) => ({ nature: r.nature, n: r.publishers })),
      distinctAll.publishers,
    ),
    countries: distinct(countriesPerNature, countriesAll.n),
    subjects: distinct(subjectsPerNature, subjectsAll.n),
  };
}

/** The RetractionNature cells as written, with their papers, most papers first. */
async function retractionNatureCells(db: RetractionDb): Promise<Overview['by_retraction_nature']> {
  const rawNatures = await db
    .selectFrom('retraction_papers')
    .select(['retraction_nature', (eb) => eb.fn.countAll().as('n')])
    .groupBy('retraction_nature')
    .execute();
  return rawNatures
    .map((r) => ({ retraction_nature: r.retraction_nature ?? 'not stated', papers: num(r.n) }))
    .sort((a, b) => b.papers - a.papers || compare(a.retraction_nature, b.retraction_nature));
}

/** Notices per year of the notice, one column per kind (the same table for every `nature`). */
async function noticeTrends(db: RetractionDb): Promise<TrendRow[]> {
  const year = sql<string>`substr(retraction_date, 1, 4)`;
  const trendRows = new Map<number, TrendRow>();
  for (const r of await db
    .selectFrom('retraction_papers')
    .select([year.as('year'), 'nature', (eb) => eb.fn.countAll().as('n')])
    .where('retraction_date', 'is not', null)
    .groupBy([year, 'nature'])
    .execute()) {
    const y = Number(r.year);
    const row = trendRows.get(y) ?? {
      year: y,
      retractions: 0,
      expressions_of_concern: 0,
      corrections: 0,
      reinstatements: 0,
      other_notices: 0,
    };
    row[TREND_COLUMN[r.nature]] += num(r.n);
    trendRows.set(y, row);
  }
  return [...trendRows.values()].sort((a, b) => a.year - b.year);
}

/** Citations per citing year: one pass over the citations, grouped by year and kind. */
async function citationsByYear(db: RetractionDb): Promise<Map<NatureFilter, Map<number, CitationYearRow>>> {
  const citationYears = byNatureKey(() => new Map<number, CitationYearRow>());
  for (const r of await db
    .selectFrom('retraction_citations as c')
    .innerJoin('retraction_papers as p', 'p.id', 'c.paper_id')
    .select([
      'c.citing_year',
      'p.nature',
      (eb) => eb.fn.countAll().as('total'),
      (eb) => eb.fn.count(sql`CASE WHEN c.days_after < 0 THEN 1 END`).as('pre'),
      (eb) => eb.fn.count(sql`CASE WHEN c.days_after = 0 THEN 1 END`).as('same_day'),
      (eb) => eb.fn.count(sql`CASE WHEN c.days_after > 0 THEN 1 END`).as('post'),
    ])
    .where('c.citing_year', 'is not', null)
    .groupBy(['c.citing_year', 'p.nature'])
    .execute()) {
    const y = Number(r.citing_year);
    addTo(citationYears, r.nature, (map) => {
      const row = map.get(y) ?? { year: y, total: 0, pre_retraction: 0, same_day: 0, post_retraction: 0 };
      row.total += num(r.total);
      row.pre_retraction += num(r.pre);
      row.same_day += num(r.same_day);
      row.post_retraction += num(r.post);
      map.set(y, row);
    });
  }
  return citationYears;
}

/** Papers and citations per subject or per country, by kind: a paper with several counts in each. */
async function groupTotals(db: RetractionDb, which: 'subjects' | 'countries'): Promise<Map<NatureFilter, Map<string, GroupRow>>> {
  const rows =
    which === 'subjects'
      ? await db
          .selectFrom('retraction_paper_subjects as g')
          .innerJoin('retraction_papers as p', 'p.id', 'g.paper_id')
          .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'g.paper_id')
          .select([
            'g.subject as name',
            'p.nature',
            (eb) => eb.fn.countAll().as('papers'),
            (eb) => eb.fn.sum('k.total').as('total'),
            (eb) => eb.fn.sum('k.post').as('post'),
          ])
          .groupBy(['g.subject', 'p.nature'])
          .execute()
      : await db
          .selectFrom('retraction_paper_countries as g')
          .innerJoin('retraction_papers as p', 'p.id', 'g.paper_id')
          .leftJoin('retraction_paper_counts as k', 'k.paper_id', 'g.paper_id')
          .select([
            'g.country as name',
            'p.nature',
            (eb) => eb.fn.countAll().as('papers'),
            (eb) => eb.fn.sum('k.total').as('total'),
            (eb) => eb.fn.sum('k.post').as('post'),
          ])
          .groupBy(['g.country', 'p.nature'])
          .execute();
  const out = byNatureKey(() => new Map<string, GroupRow>());
  for (const r of rows) {
    addTo(out, r.nature, (map) => {
      const row = map.get(r.name) ?? { papers: 0, total_citations: 0, post_retraction_citations: 0 };
      row.papers += num(r.papers);
      row.total_citations += num(r.total);
      row.post_retraction_citations += num(r.post);
      map.set(r.name, row);
    });
  }
  return out;
}

const ranked = (map: Map<string, GroupRow>) => [...map.entries()].sort((a, b) => b[1].papers - a[1].papers || compare(a[0], b[0]));

/** The analytics-data tables of every kind of notice (and of every record), from a few grouped queries. */
async function computeAnalyticsTables(db: RetractionDb, asOf: string | null): Promise<Record<NatureFilter, AnalyticsTables>> {
  const sums = await paperSums(db);
  const distinct = await distinctCounts(db);
  const byRetractionNature = await retractionNatureCells(db);
  const setAside = await db
    .selectFrom('retraction_citations_set_aside')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const byNature: NatureTotals[] = NATURES.map((nature) => {
    const s = sums.get(nature)!;
    return { nature, papers: s.papers, total_citations: s.total, post_retraction_citations: s.post };
  });
  const trends = await noticeTrends(db);
  const citationYears = await citationsByYear(db);
  const subjectGroups = await groupTotals(db, 'subjects');
  const countryGroups = await groupTotals(db, 'countries');

  const tablesOf = (nature: NatureFilter): AnalyticsTables => {
    const s = sums.get(nature)!;
    return {
      overview: {
        nature,
        total_papers: s.papers,
        papers_with_citations: s.cited,
        total_citations: s.total,
        pre_retraction_citations: s.pre,
        same_day_citations: s.same_day,
        post_retraction_citations: s.post,
        undated_citations: s.undated,
        post_retraction_rate: rate(s.post, s.total),
        post_retraction_timing: s.timing,
        journals: distinct.journals.get(nature)!,
        publishers: distinct.publishers.get(nature)!,
        countries: distinct.countries.get(nature)!,
        subjects: distinct.subjects.get(nature)!,
        first_retraction_date: s.first,
        last_retraction_date: s.last,
        citations_as_of: asOf,
        citations_set_aside: num(setAside.n),
        by_nature: byNature,
        by_retraction_nature: byRetractionNature,
      },
      trends,
      citations: [...citationYears.get(nature)!.values()].sort((a, b) => a.year - b.year),
      subjects: ranked(subjectGroups.get(nature)!).map(([subject, g]) => ({ subject, ...g })),
      geographic: ranked(countryGroups.get(nature)!).map(([country, g]) => ({ country, ...g })),
    };
  };
  return {
    retraction: tablesOf('retraction'),
    expression_of_concern: tablesOf('expression_of_concern'),
    correction: tablesOf('correction'),
    reinstatement: tablesOf('reinstatement'),
    other: tablesOf('other'),
    all: tablesOf('all'),
  };
}

/** Rows of the flat CSV form of one analytics-data type. */
export function analyticsCsvRows(tables: AnalyticsTables, type: AnalyticsType): object[] {
  if (type !== 'overview') return tables[type];
  const o = tables.overview;
  const rows: { metric: string; value: unknown }[] = [];
  for (const [metric, value] of Object.entries(o)) {
    if (value === null || typeof value !== 'object') rows.push({ metric, value });
  }
  for (const [bucket, value] of Object.entries(o.post_retraction_timing)) rows.push({ metric: `post_retraction_${bucket}`, value });
  for (const n of o.by_nature) {
    rows.push({ metric: `papers_nature:${n.nature}`, value: n.papers });
    rows.push({ metric: `total_citations_nature:${n.nature}`, value: n.total_citations });
    rows.push({ metric: `post_retraction_citations_nature:${n.nature}`, value: n.post_retraction_citations });
  }
  for (const n of o.by_retraction_nature) rows.push({ metric: `papers_retraction_nature:${n.retraction_nature}`, value: n.papers });
  return rows;
}

export const AGGREGATES = {
  tables: (nature: NatureFilter) => `analytics_tables:${nature}`,
  postRetraction: (filter: TimeFilter, nature: NatureFilter) => `post_retraction_analytics:${filter}:${nature}`,
} as const;

/** Everything derived from papers and citations, stored with the data version (called by both importers). */
export async function recomputeAggregates(trx: RetractionDb, dataVersion: string): Promise<void> {
  const asOf = await citationsAsOf(trx);
  const months = await refreshPaperWindows(trx, asOf);
  const meta: IndexMeta = { as_of: asOf, months };
  await putAggregate(trx, 'retraction', INDEX_AGGREGATE, dataVersion, meta);
  const tables = await computeAnalyticsTables(trx, asOf);
  for (const nature of NATURE_FILTERS) await putAggregate(trx, 'retraction', AGGREGATES.tables(nature), dataVersion, tables[nature]);
  const index = await AnalyticsIndex.load(trx);
  await storeIndexSnapshot(trx, index, dataVersion);
  for (const filter of TIME_FILTERS) {
    for (const nature of NATURE_FILTERS) {
      const value: PostRetractionAnalytics = await index.analytics(trx, { timeFilter: filter, nature });
      await putAggregate(trx, 'retraction', AGGREGATES.postRetraction(filter, nature), dataVersion, value);
    }
  }
}

/**
 * A database whose papers were imported before these aggregates existed (an older version of pdi) has data
 * but not them: compute them once, under the import lock, with the data version the data already has.
 * Returns false when there is no data.
 */
export async function ensureAggregates(db: RetractionDb): Promise<boolean> {
  if (await getAggregate(db, 'retraction', INDEX_AGGREGATE)) return true;
  const versions = (await listDataVersions(db, 'retraction')).filter((v) => v.dataset === 'papers' || v.dataset === 'citations');
  if (versions.length === 0) return false;
  const version = versions.map((v) => v.version).sort()[versions.length - 1];
  await db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, 'import:retraction');
    if (!(await getAggregate(trx, 'retraction', INDEX_AGGREGATE))) await recomputeAggregates(trx, version);
  });
  return true;
}
