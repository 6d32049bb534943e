// Post-retraction analytics computed from the citations at request time: how every filtered request was
// answered before the per-paper figures were precomputed (src/services/retraction/analytics-index.ts answers it now). Kept as the
// reference the index is tested against, and as the baseline the benchmark measures beside it.
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';
import { containsText, num } from '../../../src/core/db/dialect.ts';
import { NATURES } from '../../../src/services/retraction/nature.ts';
import type { Nature } from '../../../src/services/retraction/nature.ts';
import type { AnalyticsFilters, PostRetractionAnalytics } from '../../../src/services/retraction/analytics-index.ts';
import { TOP_N, rate } from '../../../src/services/retraction/analytics-index.ts';
import type { PaperRow, RetractionDb } from '../../../src/services/retraction/tables.ts';
import { TIMING_BUCKETS, TREND_MONTHS, monthsEnding, timeWindow } from '../../../src/services/retraction/windows.ts';
import type { TimingBucket } from '../../../src/services/retraction/windows.ts';

export const BUCKET_SQL = sql<TimingBucket>`CASE WHEN c.days_after <= 30 THEN 'within_30_days' WHEN c.days_after <= 365 THEN 'within_1_year' WHEN c.days_after <= 730 THEN 'within_2_years' ELSE 'after_2_years' END`;

export async function postRetractionAnalyticsByQuery(
  db: RetractionDb,
  filters: AnalyticsFilters,
  asOf: string | null,
): Promise<PostRetractionAnalytics> {
  const window = timeWindow(filters.timeFilter, asOf);
  // Conditions on the papers (alias p); `withNature` false for the breakdown by nature.
  const paperFilter = (_alias: 'p', withNature = true): Expression<SqlBool>[] => {
    const out: Expression<SqlBool>[] = [];
    if (filters.journal) out.push(containsText(db, sql.ref('p.journal'), filters.journal, 'fold'));
    if (filters.subject) out.push(containsText(db, sql.ref('p.subject'), filters.subject, 'fold'));
    if (withNature && filters.nature !== 'all') out.push(sql<SqlBool>`p.nature = ${filters.nature}`);
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
  const natureCounts = new Map<Nature, { papers: number; citations: number; post: number }>(
    NATURES.map((n) => [n, { papers: 0, citations: 0, post: 0 }]),
  );
  let naturePapers = db
    .selectFrom('retraction_papers as p')
    .select(['p.nature', (eb) => eb.fn.countAll().as('n')])
    .groupBy('p.nature');
  for (const condition of paperFilter('p', false)) naturePapers = naturePapers.where(condition);
  for (const r of await naturePapers.execute()) natureCounts.get(r.nature)!.papers = num(r.n);
  let natureCitations = db
    .selectFrom('retraction_citations as c')
    .innerJoin('retraction_papers as p', 'p.id', 'c.paper_id')
    .select(['p.nature', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.count(sql`CASE WHEN c.days_after > 0 THEN 1 END`).as('post')])
    .groupBy('p.nature');
  for (const condition of paperFilter('p', false)) natureCitations = natureCitations.where(condition);
  if (window === 'empty') natureCitations = natureCitations.where(sql<SqlBool>`1 = 0`);
  else if (window) natureCitations = natureCitations.where('c.citing_date', '>', window.from).where('c.citing_date', '<=', window.to);
  for (const r of await natureCitations.execute()) {
    const counts = natureCounts.get(r.nature)!;
    counts.citations = num(r.n);
    counts.post = num(r.post);
  }
  return {
    filters: {
      time_filter: filters.timeFilter,
      nature: filters.nature,
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
    by_nature: NATURES.map((nature) => {
      const c = natureCounts.get(nature)!;
      return { nature, papers: c.papers, citations: c.citations, post_retraction_citations: c.post };
    }),
  };
}
