// The post-retraction analytics of any filter combination, answered from a compact in-memory index of the
// per-paper figures the importers precompute (windows.ts): one typed-array slot per paper (its journal, the
// text of its subjects, its subjects, its kind of notice, and per time window its citation counts and trend
// months). A request matches the journal and subject texts against the few thousand distinct strings once,
// then sums over the papers: a few milliseconds at 60,000 papers and 2 million citations, where the same
// answer computed from the citations took seconds. The index is loaded once per data version and process.
//
// It answers exactly what `postRetractionAnalyticsByQuery` (aggregates.ts) computes from the citations
// (tested on both databases): journal and subject filters are substring matches of the paper's journal and of
// its subject text with accents and case ignored, as containsText(…, 'fold') does in SQL and the autocomplete does.
import v8 from 'node:v8';
import { foldAccents, num } from '../../core/db/dialect.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { NATURES } from './nature.ts';
import type { Nature, NatureFilter } from './nature.ts';
import type { RetractionDb } from './tables.ts';
import { TIME_FILTERS, TIMING_BUCKETS, WINDOW_MEASURES, timeWindow } from './windows.ts';
import type { TimeFilter, TimingBucket } from './windows.ts';

export const TOP_N = 10;

export interface AnalyticsFilters {
  timeFilter: TimeFilter;
  nature: NatureFilter;
  journal?: string;
  subject?: string;
}

interface TopPaper {
  record_id: string;
  title: string;
  journal: string | null;
  retraction_date: string | null;
  post_retraction_citations: number;
  total_citations: number;
}

interface NatureCounts {
  nature: Nature;
  papers: number;
  citations: number;
  post_retraction_citations: number;
}

export interface PostRetractionAnalytics {
  filters: {
    time_filter: TimeFilter;
    nature: NatureFilter;
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
  /** Every kind of notice under the same journal, subject and time filters (the nature filter aside). */
  by_nature: NatureCounts[];
}

export const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10000) / 10000 : 0);

/** Where the index of a data version is described: as_of and the trend months (stored at import). */
export const INDEX_AGGREGATE = 'analytics_index';
export interface IndexMeta {
  as_of: string | null;
  months: string[];
}

const MEASURES = WINDOW_MEASURES.length;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Strings numbered in order of first appearance. */
class Dictionary {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  static of(values: readonly string[]): Dictionary {
    const dictionary = new Dictionary();
    for (const v of values) dictionary.id(v);
    return dictionary;
  }
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
  private folded: string[] | null = null;
  /** 1 for each value containing the folded needle (values folded once, on first use). */
  matching(needle: string): Uint8Array {
    const folded = foldAccents(needle);
    this.folded ??= this.values.map(foldAccents);
    const out = new Uint8Array(this.folded.length);
    for (let i = 0; i < out.length; i++) if (this.folded[i].includes(folded)) out[i] = 1;
    return out;
  }
}

interface IndexParts {
  meta: IndexMeta;
  paperIds: Float64Array;
  natures: Uint8Array;
  journals: Dictionary;
  journal: Int32Array;
  subjectTexts: Dictionary;
  subjectText: Int32Array;
  subjects: Dictionary;
  subjectStart: Int32Array;
  subjectIds: Int32Array;
  counts: Int32Array[];
  monthStart: Int32Array;
  monthIndex: Uint8Array;
  monthPost: Int32Array[];
}

export class AnalyticsIndex {
  readonly asOf: string | null;
  readonly months: string[];
  readonly size: number;
  private readonly paperIds: Float64Array;
  private readonly natures: Uint8Array;
  private readonly journals: Dictionary;
  private readonly journal: Int32Array; // −1: none
  private readonly subjectTexts: Dictionary;
  private readonly subjectText: Int32Array;
  private readonly subjects: Dictionary;
  private readonly subjectStart: Int32Array; // paper i's subjects: subjectIds[subjectStart[i] .. subjectStart[i+1])
  private readonly subjectIds: Int32Array;
  /** counts[w][i * MEASURES + m]: paper i, time filter w, measure m (WINDOW_MEASURES order). */
  private readonly counts: Int32Array[];
  private readonly monthStart: Int32Array;
  private readonly monthIndex: Uint8Array;
  /** monthPost[w][k]: post-retraction citations of trend entry k in time filter w. */
  private readonly monthPost: Int32Array[];

  /** The index in a compact binary form (stored with the data version by the importers). */
  toBytes(): Buffer {
    return v8.serialize({
      format: SNAPSHOT_FORMAT,
      meta: { as_of: this.asOf, months: this.months },
      paperIds: this.paperIds,
      natures: this.natures,
      journals: this.journals.values,
      journal: this.journal,
      subjectTexts: this.subjectTexts.values,
      subjectText: this.subjectText,
      subjects: this.subjects.values,
      subjectStart: this.subjectStart,
      subjectIds: this.subjectIds,
      counts: this.counts,
      monthStart: this.monthStart,
      monthIndex: this.monthIndex,
      monthPost: this.monthPost,
    });
  }

  private constructor(parts: IndexParts) {
    this.asOf = parts.meta.as_of;
    this.months = parts.meta.months;
    this.size = parts.paperIds.length;
    this.paperIds = parts.paperIds;
    this.natures = parts.natures;
    this.journals = parts.journals;
    this.journal = parts.journal;
    this.subjectTexts = parts.subjectTexts;
    this.subjectText = parts.subjectText;
    this.subjects = parts.subjects;
    this.subjectStart = parts.subjectStart;
    this.subjectIds = parts.subjectIds;
    this.counts = parts.counts;
    this.monthStart = parts.monthStart;
    this.monthIndex = parts.monthIndex;
    this.monthPost = parts.monthPost;
  }

  /**
   * Reads the index of the data the database holds now (papers, their subjects, windows and trend months). An
   * import committed between the reads is noticed by the data version and the index read again.
   */
  static async load(db: RetractionDb): Promise<AnalyticsIndex> {
    for (let attempt = 0; ; attempt++) {
      const before = await getAggregate<IndexMeta>(db, 'retraction', INDEX_AGGREGATE);
      if (before) {
        // The snapshot the importer stored with this data version: one row instead of four tables.
        const snapshot = await db
          .selectFrom('retraction_analytics_snapshots')
          .select('bytes')
          .where('name', '=', SNAPSHOT)
          .where('data_version', '=', before.data_version)
          .executeTakeFirst();
        const parts = snapshot ? partsFromBytes(snapshot.bytes) : null;
        if (parts) return new AnalyticsIndex(parts);
      }
      const parts = await readParts(db, before?.value ?? { as_of: null, months: [] });
      const after = await getAggregate<IndexMeta>(db, 'retraction', INDEX_AGGREGATE);
      if (before?.data_version === after?.data_version || attempt === 2) return new AnalyticsIndex(parts);
    }
  }

  /** The post-retraction analytics of the papers matching the filters (top papers' details read from `db`). */
  async analytics(db: RetractionDb, filters: AnalyticsFilters): Promise<PostRetractionAnalytics> {
    const sums = this.sum(filters);
    const details = new Map<number, { record_id: string; title: string; journal: string | null; retraction_date: string | null }>();
    if (sums.top.length) {
      for (const p of await db
        .selectFrom('retraction_papers')
        .select(['id', 'record_id', 'title', 'journal', 'retraction_date'])
        .where(
          'id',
          'in',
          sums.top.map((t) => t.id),
        )
        .execute()) {
        details.set(Number(p.id), p);
      }
    }
    const window = timeWindow(filters.timeFilter, this.asOf);
    const ranked = (names: string[], papers: Int32Array, post: Float64Array) => {
      const out: { name: string; papers: number; post: number }[] = [];
      for (let id = 0; id < names.length; id++) if (post[id] > 0) out.push({ name: names[id], papers: papers[id], post: post[id] });
      return out.sort((a, b) => b.post - a.post || b.papers - a.papers || compare(a.name, b.name)).slice(0, TOP_N);
    };
    return {
      filters: {
        time_filter: filters.timeFilter,
        nature: filters.nature,
        journal: filters.journal ?? null,
        subject: filters.subject ?? null,
        as_of: this.asOf,
        citing_date_from: window && window !== 'empty' ? window.from : null,
        citing_date_to: window && window !== 'empty' ? window.to : null,
      },
      totals: {
        papers: sums.papers,
        citations: sums.total,
        post_retraction_citations: sums.post,
        post_retraction_rate: rate(sums.post, sums.total),
      },
      timing_distribution: TIMING_BUCKETS.map((bucket, b) => ({ bucket, count: sums.buckets[b] })),
      top_papers: sums.top.map((t) => {
        const p = details.get(t.id)!;
        return {
          record_id: p.record_id,
          title: p.title,
          journal: p.journal,
          retraction_date: p.retraction_date,
          post_retraction_citations: t.post,
          total_citations: t.total,
        };
      }),
      top_journals: ranked(this.journals.values, sums.journalPapers, sums.journalPost).map((r) => ({
        journal: r.name,
        papers: r.papers,
        post_retraction_citations: r.post,
      })),
      top_subjects: ranked(this.subjects.values, sums.subjectPapers, sums.subjectPost).map((r) => ({
        subject: r.name,
        papers: r.papers,
        post_retraction_citations: r.post,
      })),
      monthly_trend: this.months.map((month, k) => ({ month, count: sums.trend[k] })),
      by_nature: NATURES.map((nature, k) => ({
        nature,
        papers: sums.byNature[k * 3],
        citations: sums.byNature[k * 3 + 1],
        post_retraction_citations: sums.byNature[k * 3 + 2],
      })),
    };
  }

  /** One pass over the papers. */
  private sum(filters: AnalyticsFilters) {
    const w = TIME_FILTERS.indexOf(filters.timeFilter);
    const counts = this.counts[w];
    const monthPost = this.monthPost[w];
    const journalOk = filters.journal ? this.journals.matching(filters.journal) : null;
    const subjectOk = filters.subject ? this.subjectTexts.matching(filters.subject) : null;
    const wanted = filters.nature === 'all' ? -1 : NATURES.indexOf(filters.nature);
    const empty = timeWindow(filters.timeFilter, this.asOf) === 'empty';
    const journalPapers = new Int32Array(this.journals.values.length);
    const journalPost = new Float64Array(this.journals.values.length);
    const subjectPapers = new Int32Array(this.subjects.values.length);
    const subjectPost = new Float64Array(this.subjects.values.length);
    const trend = new Float64Array(this.months.length);
    const buckets = new Float64Array(TIMING_BUCKETS.length);
    const byNature = new Float64Array(NATURES.length * 3);
    // The ten papers with the most post-retraction citations (ties: lower id first), kept sorted.
    const top: { id: number; post: number; total: number }[] = [];
    let papers = 0;
    let total = 0;
    let post = 0;
    for (let i = 0; i < this.size; i++) {
      const j = this.journal[i];
      if (journalOk && (j < 0 || journalOk[j] === 0)) continue;
      if (subjectOk && subjectOk[this.subjectText[i]] === 0) continue;
      const base = i * MEASURES;
      const t = empty ? 0 : counts[base];
      const p = empty ? 0 : counts[base + 1];
      const k = this.natures[i];
      byNature[k * 3]++;
      byNature[k * 3 + 1] += t;
      byNature[k * 3 + 2] += p;
      if (wanted >= 0 && k !== wanted) continue;
      papers++;
      total += t;
      post += p;
      if (j >= 0) {
        journalPapers[j]++;
        journalPost[j] += p;
      }
      for (let s = this.subjectStart[i]; s < this.subjectStart[i + 1]; s++) {
        subjectPapers[this.subjectIds[s]]++;
        subjectPost[this.subjectIds[s]] += p;
      }
      if (p === 0) continue;
      for (let b = 0; b < TIMING_BUCKETS.length; b++) buckets[b] += counts[base + 2 + b];
      for (let e = this.monthStart[i]; e < this.monthStart[i + 1]; e++) trend[this.monthIndex[e]] += monthPost[e];
      const id = this.paperIds[i];
      if (top.length === TOP_N) {
        const last = top[TOP_N - 1];
        if (p < last.post || (p === last.post && id > last.id)) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && (top[at - 1].post < p || (top[at - 1].post === p && top[at - 1].id > id))) at--;
      top.splice(at, 0, { id, post: p, total: t });
    }
    return { papers, total, post, buckets, top, journalPapers, journalPost, subjectPapers, subjectPost, trend, byNature };
  }
}

const SNAPSHOT = 'analytics_index';
const SNAPSHOT_FORMAT = 1;

/**
 * The parts of a stored snapshot, or null when it cannot be read (written by another Node version's
 * serializer, or another format): the index is then read from the tables.
 */
function partsFromBytes(bytes: Buffer): IndexParts | null {
  try {
    const raw: Omit<IndexParts, 'journals' | 'subjectTexts' | 'subjects'> & {
      format: number;
      journals: string[];
      subjectTexts: string[];
      subjects: string[];
    } = v8.deserialize(bytes);
    if (raw.format !== SNAPSHOT_FORMAT) return null;
    return {
      ...raw,
      journals: Dictionary.of(raw.journals),
      subjectTexts: Dictionary.of(raw.subjectTexts),
      subjects: Dictionary.of(raw.subjects),
    };
  } catch {
    return null;
  }
}

/** Stores the index of `dataVersion` (inside the importer's transaction), replacing the one before. */
export async function storeIndexSnapshot(trx: RetractionDb, index: AnalyticsIndex, dataVersion: string): Promise<void> {
  await trx.deleteFrom('retraction_analytics_snapshots').where('name', '=', SNAPSHOT).execute();
  await trx
    .insertInto('retraction_analytics_snapshots')
    .values({ name: SNAPSHOT, data_version: dataVersion, bytes: index.toBytes() })
    .execute();
}

// The stored column names of each window and trend value, built once (not per row and value).
const WINDOW_COLUMNS = TIME_FILTERS.map((filter) => WINDOW_MEASURES.map((measure) => `${measure}_${filter}` as const));
const MONTH_COLUMNS = TIME_FILTERS.map((filter) => `post_${filter}` as const);

async function readParts(db: RetractionDb, meta: IndexMeta): Promise<IndexParts> {
  const papers = await db.selectFrom('retraction_papers').select(['id', 'journal', 'subject', 'nature']).orderBy('id').execute();
  const n = papers.length;
  const slot = new Map<number, number>();
  const paperIds = new Float64Array(n);
  const natures = new Uint8Array(n);
  const journals = new Dictionary();
  const journal = new Int32Array(n);
  const subjectTexts = new Dictionary();
  const subjectText = new Int32Array(n);
  papers.forEach((p, i) => {
    slot.set(Number(p.id), i);
    paperIds[i] = Number(p.id);
    natures[i] = NATURES.indexOf(p.nature);
    journal[i] = p.journal === null ? -1 : journals.id(p.journal);
    subjectText[i] = subjectTexts.id(p.subject);
  });

  const subjects = new Dictionary();
  const subjectRows = await db.selectFrom('retraction_paper_subjects').select(['paper_id', 'subject']).execute();
  const perPaper = new Int32Array(n);
  const resolved: [number, number][] = [];
  for (const row of subjectRows) {
    const i = slot.get(Number(row.paper_id));
    if (i === undefined) continue;
    perPaper[i]++;
    resolved.push([i, subjects.id(row.subject)]);
  }
  const subjectStart = csrStart(perPaper);
  const subjectIds = new Int32Array(resolved.length);
  const cursor = subjectStart.slice(0, n);
  for (const [i, id] of resolved) subjectIds[cursor[i]++] = id;

  const counts = TIME_FILTERS.map(() => new Int32Array(n * MEASURES));
  for (const row of await db.selectFrom('retraction_paper_windows').selectAll().execute()) {
    const i = slot.get(Number(row.paper_id));
    if (i === undefined) continue;
    for (let w = 0; w < WINDOW_COLUMNS.length; w++) {
      const columns = WINDOW_COLUMNS[w];
      const target = counts[w];
      for (let m = 0; m < MEASURES; m++) target[i * MEASURES + m] = num(row[columns[m]]);
    }
  }

  const monthOf = new Map(meta.months.map((month, k) => [month, k]));
  const kept = (await db.selectFrom('retraction_paper_months').selectAll().execute()).filter(
    (r) => slot.has(Number(r.paper_id)) && monthOf.has(r.month),
  );
  const perPaperMonths = new Int32Array(n);
  for (const r of kept) perPaperMonths[slot.get(Number(r.paper_id))!]++;
  const monthStart = csrStart(perPaperMonths);
  const monthIndex = new Uint8Array(kept.length);
  const monthPost = TIME_FILTERS.map(() => new Int32Array(kept.length));
  const at = monthStart.slice(0, n);
  for (const r of kept) {
    const k = at[slot.get(Number(r.paper_id))!]++;
    monthIndex[k] = monthOf.get(r.month)!;
    for (let w = 0; w < MONTH_COLUMNS.length; w++) monthPost[w][k] = num(r[MONTH_COLUMNS[w]]);
  }
  return {
    meta,
    paperIds,
    natures,
    journals,
    journal,
    subjectTexts,
    subjectText,
    subjects,
    subjectStart,
    subjectIds,
    counts,
    monthStart,
    monthIndex,
    monthPost,
  };
}

/** Start offsets of a compressed-row layout from per-row counts. */
function csrStart(perRow: Int32Array): Int32Array {
  const start = new Int32Array(perRow.length + 1);
  for (let i = 0; i < perRow.length; i++) start[i + 1] = start[i] + perRow[i];
  return start;
}

/**
 * The index of the data version stored now, loaded once per version and process. `version` is the data version
 * the index aggregate was stored with; a request of another version waits for its own load.
 */
export class AnalyticsIndexCache {
  private current: { version: string; index: Promise<AnalyticsIndex> } | null = null;

  async get(db: RetractionDb, version: string): Promise<AnalyticsIndex> {
    if (this.current?.version !== version) {
      const index = AnalyticsIndex.load(db);
      this.current = { version, index };
      index.catch(() => {
        if (this.current?.index === index) this.current = null; // a failed load is retried by the next request
      });
    }
    return this.current.index;
  }
}
