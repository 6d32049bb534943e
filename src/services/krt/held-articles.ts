// The article store's DOI lookups answered from memory: DOI checks and DOI suggestions read a
// snapshot of every article's lookup fields, held per data version (the version through the service's
// DataVersionWatcher: a request costs no query for it; an import in this process invalidates it at once, another
// process's import is seen within the watcher's second). Articles and their sessions change only by import
// (import.ts and sync.ts write through runImport, which records a new data version in the same transaction).
//
// The answers are the SQL path's (repository.ts suggestArticles, getArticle, countSessions), byte for byte: the
// candidates of a query are the rows the substring index would return on this database's dialect (its case folding
// is read from the database itself at load), ranked by the same function (jats/doi-search.ts), ties in id order;
// the list without a query is held in the database's own ORDER BY (its collation). held-articles.test.ts compares
// both paths on SQLite and PostgreSQL.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dialectOf, foldCase, num } from '../../core/db/dialect.ts';
import type { DialectName } from '../../core/db/dialect.ts';
import { serviceDataVersion } from '../../core/db/datasets.ts';
import { HeldPerVersion } from '../../core/held.ts';
import type { DataVersionWatcher } from '../../core/service.ts';
import { queriedTrigrams } from '../../core/db/search-index.ts';
import { foldForMatching, newestFirst, prepareDoiQuery, preparedMatchScore } from './jats/index.ts';
import { articleQuery } from './search.ts';
import type { SuggestionItem } from './repository.ts';
import type { KrtDatabase } from './tables.ts';

/** What a DOI check answers about a stored article (repository.ts ArticleRecord's fields that checkDoi reads). */
export interface HeldArticle {
  doi: string;
  title: string;
  authors: string;
  publication_date: string | null;
  journal: string;
  is_preprint: boolean;
  is_demo: boolean;
  store_root: string;
  file_path: string;
  file_size: number;
  downloaded_at: string;
  /** Extraction sessions stored for the DOI. */
  sessions: number;
}

interface Entry {
  article: HeldArticle;
  /** The suggestion list's item (built once: every answer shares it). */
  item: SuggestionItem;
  doiLower: string;
  titleFolded: string;
  /** Position in the ranking's newest-first order (jats/doi-search.ts newestFirst; equal articles share one). */
  recency: number;
  /** search_text as stored (what SQLite's FTS5 trigram index tokenizes). */
  searchText: string;
  /** lower(search_text) as the database computes it (the same string object when equal). */
  lowerText: string;
  /** SQLite: pdi_fold(search_text) (core/db/dialect.ts foldCase); PostgreSQL: unused (lowerText). */
  foldText: string;
  /** searchText, lowerText and foldText are one string (every article of the shared corpus). */
  plain: boolean;
}

interface Snapshot {
  version: string | null;
  dialect: DialectName;
  /** In id order: the order in which the SQL path's candidates arrive and stable ties stay. */
  byId: Entry[];
  /** byId's signatures (addSignature of the text a plain entry is searched in; all bits set for another). */
  signatures: Uint32Array;
  /** Without q: `ORDER BY coalesce(publication_date, '') DESC, doi` as the database orders it. */
  newest: Entry[];
  byDoi: Map<string, Entry>;
}

export class HeldArticles {
  private readonly held: HeldPerVersion<Snapshot>;

  constructor(db: Kysely<KrtDatabase>, versions: DataVersionWatcher) {
    // Every import records a new version in the transaction that writes the articles: the version read before and
    // after a load, equal, says the rows belong to it.
    this.held = new HeldPerVersion(versions, {
      read: (version) => readSnapshot(db, version),
      storedVersion: () => serviceDataVersion(db, 'krt'),
    });
  }

  /** The stored article of a normalised DOI, or null. */
  async article(doi: string): Promise<HeldArticle | null> {
    return (await this.current()).byDoi.get(doi)?.article ?? null;
  }

  /** repository.ts suggestArticles, from memory. */
  async suggest(q: string | undefined, limit: number): Promise<{ items: SuggestionItem[]; total: number }> {
    const s = await this.current();
    if (!q) return { items: s.newest.slice(0, Math.max(0, limit)).map((e) => e.item), total: s.newest.length };
    const { query, words } = articleQuery(q);
    const tests = words.map((word) => wordTest(s.dialect, word));
    const sought = new Uint32Array(SIGNATURE_WORDS);
    for (const t of tests) addSignature(t.sought, sought, 0);
    const signatures = s.signatures;
    const prepared = prepareDoiQuery(query);
    // The ranking's order (score, then newest, then the candidates' id order, as the stable sort of the SQL path
    // leaves them) without a comparator: matches grouped by score, each group a numeric sort of recency·n + index.
    const n = s.byId.length;
    const byScore = new Map<number, number[]>();
    let total = 0;
    entries: for (let i = 0; i < n; i++) {
      for (let w = 0; w < SIGNATURE_WORDS; w++) if ((sought[w] & ~signatures[i * SIGNATURE_WORDS + w]) !== 0) continue entries;
      const entry = s.byId[i];
      let candidate = true;
      for (const { test } of tests)
        if (!test(entry)) {
          candidate = false;
          break;
        }
      if (!candidate) continue;
      const score = preparedMatchScore(entry.doiLower, entry.titleFolded, prepared, entry.article.title);
      if (score <= 0) continue;
      total++;
      const group = byScore.get(score);
      if (group) group.push(entry.recency * n + i);
      else byScore.set(score, [entry.recency * n + i]);
    }
    const items: SuggestionItem[] = [];
    for (const score of [...byScore.keys()].sort((a, b) => b - a)) {
      if (items.length >= limit) break;
      for (const key of Float64Array.from(byScore.get(score)!).sort()) {
        if (items.length >= limit) break;
        items.push(s.byId[key % n].item);
      }
    }
    return { items, total };
  }

  /**
   * Bytes the snapshot holds, estimated: each distinct string's characters (one byte each when all are Latin-1,
   * else two, as V8 stores them) plus a 16-byte header, 8 bytes per field and object header, and the map's and
   * arrays' slots. `process.memoryUsage()` around a load measures the same (bench/krt.ts, section doi).
   */
  get bytes(): number {
    const s = this.held.now;
    if (!s) return 0;
    const seen = new Set<string>();
    let total = 0;
    const str = (value: string | null) => {
      if (value === null || seen.has(value)) return;
      seen.add(value);
      total += 16 + (/^[\x00-\xff]*$/.test(value) ? value.length : 2 * value.length);
    };
    for (const e of s.byId) {
      const a = e.article;
      for (const v of [a.doi, a.title, a.authors, a.publication_date, a.journal, a.store_root, a.file_path, a.downloaded_at]) str(v);
      for (const v of [e.doiLower, e.titleFolded, e.searchText, e.lowerText, e.foldText]) str(v);
      total += (13 + 1) * 8 + (6 + 1) * 8 + (9 + 1) * 8; // article, item, entry: fields and header
    }
    total += s.byId.length * 8 * 2 + s.byDoi.size * 8 * 3; // the two arrays' slots; the map's key, value and chain
    total += s.signatures.byteLength;
    return total;
  }

  /** The snapshot of the stored data version (loaded on first use and after every import). */
  private current(): Promise<Snapshot> {
    return this.held.current();
  }
}

async function readSnapshot(db: Kysely<KrtDatabase>, version: string | null): Promise<Snapshot> {
  const dialect = dialectOf(db);
  // The folds the SQL path applies to the column, computed by the database (SQLite's lower() folds ASCII only;
  // PostgreSQL's follows the database's LC_CTYPE; pdi_fold is core's foldCase registered on SQLite).
  const rows = await db
    .selectFrom('krt_articles')
    .select([
      'id',
      'doi',
      'title',
      'authors',
      'publication_date',
      'journal',
      'is_preprint',
      'is_demo',
      'store_root',
      'file_path',
      'file_size',
      'downloaded_at',
      'search_text',
      sql<string>`lower(search_text)`.as('lower_text'),
      (dialect === 'sqlite' ? sql<string>`pdi_fold(search_text)` : sql<string>`search_text`).as('fold_text'),
    ])
    .orderBy(sql`coalesce(publication_date, '')`, 'desc')
    .orderBy('doi')
    .execute();
  const sessions = new Map<string, number>();
  const counts = await db
    .selectFrom('krt_sessions')
    .select((eb) => ['doi', eb.fn.countAll().as('n')])
    .groupBy('doi')
    .execute();
  for (const c of counts) sessions.set(c.doi, num(c.n));

  const ids = new Map<Entry, number>();
  const newest = rows.map((r): Entry => {
    // Frozen: every answer shares these objects.
    const article: HeldArticle = Object.freeze({
      doi: r.doi,
      title: r.title,
      authors: r.authors,
      publication_date: r.publication_date ?? null,
      journal: r.journal,
      is_preprint: Boolean(r.is_preprint),
      is_demo: Boolean(r.is_demo),
      store_root: r.store_root,
      file_path: r.file_path,
      file_size: num(r.file_size),
      downloaded_at: r.downloaded_at,
      sessions: sessions.get(r.doi) ?? 0,
    });
    const same = (text: string) => (text === r.search_text ? r.search_text : text);
    const entry: Entry = {
      article,
      item: Object.freeze({
        doi: article.doi,
        title: article.title,
        authors: article.authors,
        publication_date: article.publication_date,
        file_size: article.file_size,
        is_demo: article.is_demo,
      }),
      doiLower: article.doi.toLowerCase(),
      titleFolded: foldForMatching(article.title),
      recency: 0,
      searchText: r.search_text,
      lowerText: same(r.lower_text),
      foldText: same(r.fold_text),
      plain: r.lower_text === r.search_text && r.fold_text === r.search_text,
    };
    ids.set(entry, Number(r.id));
    return entry;
  });
  const byId = [...newest].sort((a, b) => ids.get(a)! - ids.get(b)!);
  // The ranking's tie order, computed once: equal articles (newestFirst 0) share a position, so that the stable
  // sort keeps them in id order as it keeps the SQL path's candidates.
  const recent = [...byId].sort((a, b) => newestFirst(recencyKey(a), recencyKey(b)));
  recent.forEach((e, i) => {
    e.recency = i > 0 && newestFirst(recencyKey(recent[i - 1]), recencyKey(e)) === 0 ? recent[i - 1].recency : i;
  });
  const signatures = new Uint32Array(byId.length * SIGNATURE_WORDS);
  byId.forEach((e, i) => {
    if (e.plain) addSignature(e.searchText, signatures, i * SIGNATURE_WORDS);
    else signatures.fill(0xffffffff, i * SIGNATURE_WORDS, (i + 1) * SIGNATURE_WORDS);
  });
  return { version, dialect, byId, newest, signatures, byDoi: new Map(newest.map((e) => [e.article.doi, e])) };
}

const recencyKey = (e: Entry) => ({ publicationDate: e.article.publication_date ?? '', doi: e.article.doi });

/**
 * Whether an article is among the rows `substringMatch(db, ARTICLE_SEARCH, word)` (core/db/search-index.ts) selects
 * on this dialect. SQLite: under three characters `instr(pdi_fold(col), foldCase(word))`; otherwise the FTS5 trigram
 * prefilter (up to six trigrams of foldCase(word), as search-index.ts queriedTrigrams picks them) and `instr(lower(col), folded)` for an
 * ASCII needle, `instr(pdi_fold(col), folded)` for another. PostgreSQL: under three characters
 * `strpos(lower(col), foldCase(word))`, otherwise `col ILIKE '%word%'` (lower() of both; word is already lower case,
 * and holds letters and digits only, so no LIKE wildcard). The trigram test compares the stored text as it is:
 * both sides are lower case already (store.ts folds search_text, articleQuery folds the words).
 */
function wordTest(dialect: DialectName, word: string): WordTest {
  const needle = word.trim();
  const folded = foldCase(needle);
  const short = [...needle].length < 3;
  if (dialect === 'postgres') {
    const sought = short ? folded : needle;
    return { sought, test: (e) => e.lowerText.includes(sought) };
  }
  if (short) return { sought: folded, test: (e) => e.foldText.includes(folded) };
  const grams = queriedTrigrams(folded);
  const ascii = /^[\x00-\x7f]*$/.test(folded);
  // Where foldCase shortens a word below three characters (composing Hangul jamo) the SQL path sends FTS5 an empty
  // query, which it rejects; here no trigram is required then.
  // An entry whose three texts are one string needs no trigram test: containing the word, it holds its trigrams.
  return {
    sought: folded,
    test: (e) =>
      (ascii ? e.lowerText.includes(folded) : e.foldText.includes(folded)) && (e.plain || grams.every((g) => e.searchText.includes(g))),
  };
}

interface WordTest {
  /** What a plain entry's text contains when the test passes. */
  sought: string;
  test: (e: Entry) => boolean;
}

// A signature of each text: the 256-bit set of its two-character pairs (hashed). A text that contains a word holds
// all of the word's pairs, so most articles are passed over with eight integer tests before any string search.
const SIGNATURE_WORDS = 8;

function addSignature(text: string, into: Uint32Array, at: number): void {
  for (let i = 0; i + 1 < text.length; i++) {
    const bit = (Math.imul(text.charCodeAt(i), 0x9e3779b1) ^ Math.imul(text.charCodeAt(i + 1), 0x85ebca77)) >>> 24;
    into[at + (bit >>> 5)] |= 1 << (bit & 31);
  }
}
