// The citing works of one paper, a page at a time, each placed before, on the day of, or after the paper's notice.
// What a work carries is what the citation sources hold: its citing identifier, DOI and date (OpenCitations'
// `citing, creation`; OpenAlex's `id, doi, publication_date`); neither source, as imported, names the work's title or
// journal. Framework-free.
import { num } from '../../core/db/dialect.ts';
import type { RetractionDb } from './tables.ts';

export const CITING_WHEN = ['all', 'before', 'same_day', 'after', 'undated'] as const;
export type CitingWhen = (typeof CITING_WHEN)[number];
type CitingTiming = Exclude<CitingWhen, 'all'>;

export const CITING_DEFAULT_LIMIT = 50;
export const CITING_MAX_LIMIT = 500;
export const CITING_ORDER = 'citing date, oldest first (undated works last), then by citing identifier';

interface CitingWork {
  citing_id: string;
  doi: string | null;
  date: string | null;
  date_precision: string | null;
  year: number | null;
  days_after_notice: number | null;
  timing: CitingTiming;
}

export interface CitingWorksPage {
  record_id: string;
  retraction_date: string | null;
  when: CitingWhen;
  page: number;
  limit: number;
  total: number;
  total_pages: number;
  counts: Record<CitingTiming, number>;
  works: CitingWork[];
}

function timingOf(days: number | null): CitingTiming {
  if (days === null) return 'undated';
  return days < 0 ? 'before' : days === 0 ? 'same_day' : 'after';
}

/** One page of a paper's citing works (null: no such paper). A page past the last is empty, not an error. */
export async function citingWorks(
  db: RetractionDb,
  recordId: string,
  options: { when: CitingWhen; page: number; limit: number },
): Promise<CitingWorksPage | null> {
  const paper = await db
    .selectFrom('retraction_papers')
    .select(['id', 'record_id', 'retraction_date'])
    .where('record_id', '=', recordId)
    .executeTakeFirst();
  if (!paper) return null;
  const counts: Record<CitingTiming, number> = { before: 0, same_day: 0, after: 0, undated: 0 };
  const groups = await db
    .selectFrom('retraction_citations')
    .select((eb) => [
      eb
        .case()
        .when('days_after', 'is', null)
        .then('undated')
        .when('days_after', '<', 0)
        .then('before')
        .when('days_after', '=', 0)
        .then('same_day')
        .else('after')
        .end()
        .as('timing'),
      eb.fn.countAll().as('n'),
    ])
    .where('paper_id', '=', paper.id)
    .groupBy('timing')
    .execute();
  for (const g of groups) counts[g.timing as CitingTiming] = num(g.n);
  const total = options.when === 'all' ? counts.before + counts.same_day + counts.after + counts.undated : counts[options.when];
  let query = db
    .selectFrom('retraction_citations')
    .select(['citing_key', 'citing_doi', 'citing_date', 'citing_precision', 'citing_year', 'days_after'])
    .where('paper_id', '=', paper.id);
  if (options.when === 'undated') query = query.where('days_after', 'is', null);
  else if (options.when === 'before') query = query.where('days_after', '<', 0);
  else if (options.when === 'same_day') query = query.where('days_after', '=', 0);
  else if (options.when === 'after') query = query.where('days_after', '>', 0);
  const rows = await query
    // Undated last on both databases (SQLite sorts NULL first, PostgreSQL last).
    .orderBy((eb) => eb.case().when('citing_date', 'is', null).then(1).else(0).end())
    .orderBy('citing_date')
    .orderBy('citing_key')
    .limit(options.limit)
    .offset((options.page - 1) * options.limit)
    .execute();
  return {
    record_id: paper.record_id,
    retraction_date: paper.retraction_date,
    when: options.when,
    page: options.page,
    limit: options.limit,
    total,
    total_pages: Math.max(1, Math.ceil(total / options.limit)),
    counts,
    works: rows.map((r) => {
      const days = r.days_after === null ? null : num(r.days_after);
      return {
        citing_id: r.citing_key,
        doi: r.citing_doi,
        date: r.citing_date,
        date_precision: r.citing_precision,
        year: r.citing_year === null ? null : num(r.citing_year),
        days_after_notice: days,
        timing: timingOf(days),
      };
    }),
  };
}
