// Searches of Service C, answered from memory; also a recipient's agreements and the totals by department,
// from the same arrays (one index of the agreements per process and data version).
//
// Why: a common word matches tens of thousands of agreements ("mental health": 41,774 of 1.14 million on the
// generated file). Counting them and sorting them by the requested order in SQL reads each matching row,
// and the secondary indexes that would serve filters and orders in SQL lengthen every import (one CREATE INDEX
// per filter and order over every row). Here no query is needed but the page's rows:
//  - the dictionary texts containing the search string come from text-match.ts (the texts and an index of
//    their words in memory, with substringMatch's semantics, where an FTS5 query would read every matching
//    text), or from the database for the few strings it leaves to it; the text ids of recent strings are
//    kept;
//  - per language, an inverted list from each text id to the agreements using it (the language's four
//    searched columns), both read with the snapshot. The English texts are read with it too; the French ones (as
//    many again) on the first search in French or both languages, so a process that never searches in French never
//    holds them (the database answers the French texts until then, and the lists give their agreements);
//  - the filter columns (province, fiscal year, recipient type, notability, value) as typed arrays,
//  - for each sort field but value, the agreements in the database's own order (computed from the database's
//    ORDER BY of the distinct values, so text collations are the database's; built on first use),
// give the count and the page's ids; the page's rows are then read by id. The matches are a bitset (140 KiB
// for 1.14 million agreements: walking postings into it stays in the processor's cache, where a byte or a
// stamp per agreement would not), and each filter on a code is an AND with that code's bitset.
// Agreements are numbered in the order of their value (then id): the default order needs no arrays, a value range
// is a run of numbers, and a fiscal-year or province order is its code then that number. About 38 bytes per
// agreement (English postings 7, French postings 6, value 8, id 4, codes 7, notability 1, recipient 4; numbering by value spares a
// separate value order) plus 4 or 8 per agreement and other sort field in use, plus each language's dictionary
// (its texts and the index of their words).
//
// A page is taken either by walking the order from its start and keeping matches (cheap when matches are
// dense) or by sorting the matches' ranks (cheap when they are few), whichever costs fewer steps.
// The snapshot belongs to one data version; a search that finds another version stored rebuilds it first
// (the version through the service's DataVersionWatcher: a search costs no query for it).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { num } from '../../../core/db/dialect.ts';
import { substringMatch } from '../../../core/db/search-index.ts';
import { HeldPerVersion } from '../../../core/held.ts';
import { collectGarbage } from '../../../core/gc.ts';
import type { DataVersionWatcher } from '../../../core/service.ts';
import { SORT_ORDERS, apostropheForms, sameRecipientName } from './query.ts';
import { popcount } from './bitset.ts';
import { nextTurn, TextDictionary } from './text-match.ts';
import { frenchTextsInDatabase } from './french-in-database.ts';
import type { SearchFilters, SearchOrder, SearchPage, SortColumn, SortField } from './query.ts';
import { MAJOR_FUNDING_THRESHOLD_CENTS } from '../source/index.ts';
import type { GrantsLanguage } from '../language.ts';
import { GRANTS_SEARCH, SEARCHED_COLUMNS } from '../tables.ts';
import type { GrantsDatabase, StoredColumn } from '../tables.ts';
import { VarintReader, varintLength, writeVarint } from './varint.ts';

/** Rows read per query while loading (other requests run between two reads). */
const LOAD_CHUNK_ROWS = 10_000;
const MAX_LOAD_ATTEMPTS = 5;
/** Distinct values the database is asked to order as a list; more are ordered by a DISTINCT query instead. */
const MAX_VALUES_SORTED_BY_LIST = 10_000;

/** Codes as narrow as their count allows (a few provinces, years and types; thousands of dates). */
type Codes = Uint8Array | Uint16Array | Uint32Array;

/** Codes of a text column in the database's order of its distinct values (code 0 is NULL). */
interface CodedColumn {
  codes: Codes;
  codeOf: Map<string, number>;
}

interface Ordering {
  /**
   * rank[a]: position of agreement a in the ascending order (ties broken by id); null where it is computed from
   * the codes (fiscal year and province: code × size + a, as a is the value's rank).
   */
  rank: Int32Array | null;
  /** order[r]: the agreement at rank r. */
  order: Int32Array;
}

/** The searched texts of one language (SEARCHED_COLUMNS of that language) and the agreements holding each. */
interface LanguageIndex {
  /** The dictionary's texts this language's columns use, and the index of their words (text-match.ts). */
  texts: TextDictionary;
  /**
   * Inverted lists: the agreements of text t, ascending, are in postings[offsets[t] … offsets[t+1]) as differences
   * from the one before (the first from -1) in 7-bit groups, low first: less than half the size of 32-bit
   * numbers, and about as cheap to walk.
   */
  offsets: Uint32Array;
  postings: Uint8Array;
  /** The text ids of recent search strings (most recent last). */
  recentTexts: Map<string, TextMatch>;
  recentTextIds: number;
}

/** A language's inverted lists from text ids to agreements (LanguageIndex). */
type InvertedLists = Pick<LanguageIndex, 'offsets' | 'postings'>;

/** Totals of one publishing organization (department). */
export interface DepartmentTotal {
  owner_org: string;
  title: string;
  /** The department's French name ('' where the source gives none). */
  title_fr: string;
  count: number;
  total_value_cents: number;
}

/** One recipient's agreements (by legal name, exactly): totals, by year, one page of ids. */
export interface RecipientAgreements {
  /** The recipient's dictionary text id, or null when no agreement names it. */
  textId: number | null;
  /** The recipient's legal name as published (which the name looked up may write in another case or apostrophe). */
  name: string | null;
  count: number;
  totalValueCents: number;
  /** By fiscal year, ascending. */
  byYear: Array<{ fiscal_year: string; count: number; total_value_cents: number }>;
  /** Ids of the requested page, by value descending then id. */
  pageIds: number[];
}

interface Snapshot {
  version: string | null;
  size: number;
  /** Agreement ids by agreement number (agreements are numbered by value, then id). */
  ids: Uint32Array | Float64Array;
  /** Ascending. */
  valueCents: Float64Array;
  notable: Uint8Array;
  province: CodedColumn;
  fiscalYear: CodedColumn;
  recipientType: CodedColumn;
  start: CodedColumn;
  end: CodedColumn;
  /** Each agreement's recipient legal name (its dictionary id): a recipient's agreements without a query. */
  recipient: Uint32Array;
  /** Totals by department, by total value descending. */
  departments: DepartmentTotal[];
  english: LanguageIndex;
  /**
   * The French texts: read in the background from the first search that asks for them (most searches never do);
   * until they are held, the database answers the French part of a search (french-in-database.ts).
   */
  french: Promise<LanguageIndex> | null;
  frenchHeld: LanguageIndex | null;
  /**
   * The French columns' inverted lists, read with the snapshot (the same scan as the English columns'): the
   * database's answers use them until the French texts are held, and the French index then shares them.
   */
  frenchLists: InvertedLists;
  /** Orders other than by value (built on first use). */
  orderings: Map<SortField, Ordering>;
  /**
   * Per-search scratch, reused: `matches`, a bit per agreement (see collect). A search uses it without awaiting.
   */
  matches: Int32Array;
  /** Per-search scratch: the agreements of a search's exact texts (TextMatch.exact). */
  exactMatches: Int32Array;
  /** Per-search scratch: the agreements of one language's exact texts (page). */
  exactScratch: Int32Array;
  /** Bitsets of the agreements holding a filter's code ("province=3"), most recently used last. */
  codeBits: Map<string, Int32Array>;
}

const MAX_CODE_BITSETS = 64;

/** The texts containing a search string, and once searched, the agreements holding one of them (a bitset). */
interface TextMatch {
  ids: Uint32Array;
  /** Of `ids`, the texts holding the string with its accents as written (case aside): their agreements come first. */
  exact: Uint32Array | 'all' | 'none';
  /** Whether the language keeps this match among its recent strings (then `agreements` may be added). */
  kept: boolean;
  agreements?: Int32Array;
  /**
   * The agreements of the `exact` texts: where the database answered for the French texts (its `agreements` are set
   * too), and, like `agreements`, kept for a recent string whose exact texts have many postings (walking them was
   * most of a repeated search that ranks its matches).
   */
  exactAgreements?: Int32Array;
}

/** Recent search strings whose text ids are kept per language, and the most ids kept in all (4 bytes each). */
const RECENT_TEXTS = 64;
const RECENT_TEXT_IDS = 1 << 20;
/**
 * Of those, the most recent strings whose matching agreements are kept too (140 KiB each for 1.1 million
 * agreements), when finding them walked more than MIN_POSTINGS_KEPT postings (a common word's).
 */
const RECENT_AGREEMENT_SETS = 16;
const MIN_POSTINGS_KEPT = 20_000;

export interface MemorySearchResult {
  count: number;
  /** The page's ids, in the requested order. */
  ids: number[];
  /**
   * Where the French texts were searched (a search in French): in memory, or by the database while their index
   * loads (the same answer, slower).
   */
  frenchTexts?: 'memory' | 'database';
}

const ENGLISH_COLUMNS = SEARCHED_COLUMNS.filter((c) => !c.column.endsWith('_fr'));
const FRENCH_COLUMNS = SEARCHED_COLUMNS.filter((c) => c.column.endsWith('_fr'));
/** The columns the index reads of every agreement. */
const INDEX_COLUMNS = [
  'id',
  'agreement_value_cents',
  'is_notable',
  'recipient_province',
  'fiscal_year',
  'recipient_type',
  'agreement_start_date',
  'agreement_end_date',
  'owner_org',
  ...ENGLISH_COLUMNS.map((c) => c.textId),
  ...FRENCH_COLUMNS.map((c) => c.textId),
] as const;

/** Whether a search in `language` also looks in the French texts (stemmed as French). */
export function searchesFrench(language: GrantsLanguage | undefined): boolean {
  return language === 'fr' || language === 'both';
}

export class MemorySearch {
  private readonly db: Kysely<GrantsDatabase>;
  private readonly versions: DataVersionWatcher;
  private readonly held: HeldPerVersion<Snapshot>;

  private readonly maxValuesSortedByList: number;
  private readonly minPostingsKept: number;
  private readonly readsFrench: boolean;

  /**
   * The options are for tests (`maxValuesSortedByList` 0: always the DISTINCT query; `minPostingsKept` 0: keep every
   * agreement set; `readsFrench` false: the French texts are never read, the database answers every French search).
   */
  constructor(
    db: Kysely<GrantsDatabase>,
    versions: DataVersionWatcher,
    options: { maxValuesSortedByList?: number; minPostingsKept?: number; readsFrench?: boolean } = {},
  ) {
    this.db = db;
    this.versions = versions;
    this.held = new HeldPerVersion(versions, {
      read: (version) => this.read(version),
      // the version as stored now, not as cached (the watcher then holds the version the snapshot has); forget(),
      // not invalidate(): nothing was imported here, the other workers need not be told
      storedVersion: () => this.storedVersion(),
      maxAttempts: MAX_LOAD_ATTEMPTS,
      afterHeld: collectGarbage, // a load's temporaries (the dictionary's 60 MB buffer, index arrays) are garbage now
    });
    this.maxValuesSortedByList = options.maxValuesSortedByList ?? MAX_VALUES_SORTED_BY_LIST;
    this.minPostingsKept = options.minPostingsKept ?? MIN_POSTINGS_KEPT;
    this.readsFrench = options.readsFrench ?? true;
  }

  private storedVersion(): Promise<string | null> {
    this.versions.forget();
    return this.versions.current();
  }

  /** Loads (or reloads) the snapshot of the stored data version unless it is already current (the default order needs no more). */
  async ready(): Promise<void> {
    await this.current();
  }

  /** Memory held by the current snapshot, in bytes (typed arrays only). */
  get bytes(): number {
    const s = this.held.now;
    if (!s) return 0;
    let total = s.ids.byteLength + s.valueCents.byteLength + s.notable.byteLength + s.recipient.byteLength;
    for (const c of [s.province, s.fiscalYear, s.recipientType, s.start, s.end]) total += c.codes.byteLength;
    for (const o of s.orderings.values()) total += (o.rank?.byteLength ?? 0) + o.order.byteLength;
    total += 3 * s.matches.byteLength + s.matches.byteLength * s.codeBits.size;
    total += s.english.offsets.byteLength + s.english.postings.byteLength;
    total += s.frenchLists.offsets.byteLength + s.frenchLists.postings.byteLength; // (the French index's own, once held)
    for (const l of [s.english, s.frenchHeld]) {
      if (l === null) continue;
      total += l.texts.bytes + 4 * l.recentTextIds;
      for (const m of l.recentTexts.values()) total += (m.agreements?.byteLength ?? 0) + (m.exactAgreements?.byteLength ?? 0);
    }
    return total;
  }

  /** Whether the French texts are held (read by a search that asked for them). */
  get holdsFrench(): boolean {
    return this.held.now?.frenchHeld != null;
  }

  /** Reads the French texts of the current snapshot unless held (a search in French starts this itself). */
  async loadFrench(): Promise<void> {
    await this.frenchOf(await this.current());
  }

  async search(filters: SearchFilters, order: SearchOrder, page: SearchPage): Promise<MemorySearchResult> {
    const s = await this.current();
    let languages: Array<{ match: TextMatch; index: LanguageIndex | null }> | null = null;
    let frenchTexts: MemorySearchResult['frenchTexts'];
    if (filters.text !== undefined) {
      // each form of the string (its apostrophes written either way): the agreements any of them matches
      const forms = apostropheForms(filters.text);
      languages = [];
      for (const form of forms) languages.push({ match: await this.textMatch(s, s.english, form, false), index: s.english });
      if (searchesFrench(filters.language)) {
        // the French index when held; else the database answers, and the index is loaded in the background from
        // then on (not during that answer: the two would share the process and the database)
        const french = s.frenchHeld;
        frenchTexts = french === null ? 'database' : 'memory';
        try {
          for (const form of forms)
            languages.push({
              match: french !== null ? await this.textMatch(s, french, form, true) : await this.frenchInDatabase(s, form),
              index: french,
            });
        } finally {
          if (french === null) this.startFrench(s);
        }
      }
    }
    if (order.field !== 'agreement_value' && !s.orderings.has(order.field)) await this.buildOrdering(s, order.field);
    // from here on synchronous: the snapshot's scratch arrays are this search's until it returns
    const texts = languages?.map((l) => l.match) ?? null;
    const count = collect(s, languages, filters, this.minPostingsKept);
    const result = this.page(s, languages, texts, count, filters, order, page);
    return frenchTexts === undefined ? result : { ...result, frenchTexts };
  }

  /** The page of a search whose `count` matches `collect` left in the snapshot's bitset (synchronous). */
  private page(
    s: Snapshot,
    languages: Array<{ match: TextMatch; index: LanguageIndex | null }> | null,
    texts: TextMatch[] | null,
    count: number,
    filters: SearchFilters,
    order: SearchOrder,
    page: SearchPage,
  ): MemorySearchResult {
    if (count === 0 || page.offset >= count) return { count, ids: [] };
    const ranked =
      languages !== null && !languages.every((l) => l.match.exact === 'all') && languages.some((l) => l.match.exact !== 'none');
    if (!ranked) return { count, ids: pageIds(s, s.matches, count, filters, texts !== null, order, page) };
    // two ranks, each in the requested order: the agreements with a text holding the string as written, then the others
    const first = s.exactMatches;
    first.fill(0);
    for (const { match, index } of languages) {
      if (match.exact === 'none') continue;
      const known = match.exactAgreements ?? (match.exact === 'all' ? match.agreements : undefined);
      if (known !== undefined) {
        for (let w = 0; w < first.length; w++) first[w] |= known[w];
      } else if (index !== null && match.kept) {
        // walked apart, so that a set with many postings is kept for the string's next search
        const own = s.exactScratch;
        own.fill(0);
        const walked = addAgreements(index, match.exact === 'all' ? match.ids : match.exact, own);
        for (let w = 0; w < first.length; w++) first[w] |= own[w];
        if (walked >= this.minPostingsKept) match.exactAgreements = own.slice();
      } else if (index !== null) addAgreements(index, match.exact === 'all' ? match.ids : match.exact, first);
    }
    let firstCount = 0;
    for (let w = 0; w < first.length; w++) {
      const both = first[w] & s.matches[w];
      first[w] = both;
      s.matches[w] ^= both;
      firstCount += popcount(both);
    }
    const ids = page.offset < firstCount ? pageIds(s, first, firstCount, filters, true, order, page) : [];
    const rest = count - firstCount;
    const wanted = page.limit - ids.length;
    if (wanted > 0 && rest > 0) {
      const offset = Math.max(0, page.offset - firstCount);
      if (offset < rest) ids.push(...pageIds(s, s.matches, rest, filters, true, order, { offset, limit: wanted }));
    }
    return { count, ids };
  }

  /** Totals by department (publishing organization), by total value descending. */
  async departments(): Promise<DepartmentTotal[]> {
    return (await this.current()).departments;
  }

  /**
   * The agreements of the recipient named `name`: the published legal name written exactly, else the one name that
   * differs from it only in case or apostrophe form (' or ’; sameRecipientName). Several such names are distinct
   * recipients as published: none is chosen (the page then suggests them). Totals, by year, and one page of ids.
   */
  async recipient(name: string, page: SearchPage): Promise<RecipientAgreements> {
    const s = await this.current();
    const empty: RecipientAgreements = { textId: null, name: null, count: 0, totalValueCents: 0, byYear: [], pageIds: [] };
    const candidates = new Map<number, string>();
    for (const form of apostropheForms(name)) {
      const rows = await this.db
        .selectFrom('grants_texts')
        .select(['id', 'text'])
        .where(substringMatch(this.db, GRANTS_SEARCH, form))
        .execute();
      for (const r of rows) if (sameRecipientName(r.text, name)) candidates.set(Number(r.id), r.text);
    }
    const recipients = new Set<number>();
    for (let a = 0; a < s.size; a++) if (candidates.has(s.recipient[a])) recipients.add(s.recipient[a]);
    const exact = [...recipients].find((id) => candidates.get(id) === name);
    const textId = exact ?? (recipients.size === 1 ? [...recipients][0] : null);
    if (textId === null) return empty;
    const matches: number[] = [];
    for (let a = 0; a < s.size; a++) if (s.recipient[a] === textId) matches.push(a);
    const yearLabels = new Map<number, string>([...s.fiscalYear.codeOf].map(([label, code]) => [code, label]));
    const years = new Map<number, { count: number; cents: number }>();
    let total = 0;
    for (const a of matches) {
      total += s.valueCents[a];
      const code = s.fiscalYear.codes[a];
      const y = years.get(code) ?? { count: 0, cents: 0 };
      y.count++;
      y.cents += s.valueCents[a];
      years.set(code, y);
    }
    matches.sort((a, b) => s.valueCents[b] - s.valueCents[a] || s.ids[a] - s.ids[b]);
    return {
      textId,
      name: candidates.get(textId) ?? name,
      count: matches.length,
      totalValueCents: total,
      byYear: [...years]
        .map(([code, y]) => ({ fiscal_year: yearLabels.get(code) ?? '', count: y.count, total_value_cents: y.cents }))
        .sort((a, b) => (a.fiscal_year < b.fiscal_year ? -1 : 1)),
      pageIds: matches.slice(page.offset, page.offset + page.limit).map((a) => s.ids[a]),
    };
  }

  /**
   * The ids of the texts of `language` containing `text` (substringMatch's semantics; in French, also the texts whose
   * words have the stems of the string's words): from memory when it can tell.
   */
  private async textMatch(s: Snapshot, language: LanguageIndex, text: string, french: boolean): Promise<TextMatch> {
    const recent = language.recentTexts.get(text);
    if (recent) {
      language.recentTexts.delete(text);
      language.recentTexts.set(text, recent);
      return recent;
    }
    const found = await language.texts.match(this.db, text);
    let ids =
      found ??
      usedBy(
        language,
        Uint32Array.from(
          (
            await this.db
              .selectFrom('grants_texts')
              .select('id')
              .where(substringMatch(this.db, GRANTS_SEARCH, text))
              .execute()
          ).map((r) => Number(r.id)),
        ),
      );
    if (french) ids = union(ids, language.texts.stemMatch(text));
    const match: TextMatch = { ids, exact: language.texts.exactAmong(ids, text), kept: false };
    if (this.held.now === s && ids.length <= RECENT_TEXT_IDS / 4) {
      match.kept = true;
      language.recentTexts.set(text, match);
      language.recentTextIds += ids.length;
      for (const [key, old] of language.recentTexts) {
        if (language.recentTexts.size <= RECENT_TEXTS && language.recentTextIds <= RECENT_TEXT_IDS) break;
        language.recentTexts.delete(key);
        language.recentTextIds -= old.ids.length;
        old.kept = false;
        delete old.agreements;
        delete old.exactAgreements;
      }
      // the agreement sets of all but the most recent strings go
      let kept = 0;
      for (const m of [...language.recentTexts.values()].reverse()) {
        if ((m.agreements || m.exactAgreements) && ++kept > RECENT_AGREEMENT_SETS) {
          delete m.agreements;
          delete m.exactAgreements;
        }
      }
    }
    return match;
  }

  private current(): Promise<Snapshot> {
    return this.held.current();
  }

  /**
   * Starts reading the snapshot's French texts in the background unless held or under way (a failure is forgotten:
   * the next French search starts another read).
   */
  private startFrench(s: Snapshot): void {
    if (s.frenchHeld === null && s.french === null && this.readsFrench) this.frenchOf(s).catch(() => {});
  }

  /**
   * The French part of a search answered by the database (french-in-database.ts: the texts) as a match whose
   * agreements, and those of its exact texts, are given as bitsets from the French columns' inverted lists.
   */
  private async frenchInDatabase(s: Snapshot, text: string): Promise<TextMatch> {
    const { ids, exact } = await frenchTextsInDatabase(this.db, text);
    const agreements = new Int32Array(s.matches.length);
    const exactAgreements = new Int32Array(s.matches.length);
    const exactIds = ids.filter((t) => exact.has(t));
    addAgreements(s.frenchLists, ids, agreements);
    addAgreements(s.frenchLists, exactIds, exactAgreements);
    return { ids, exact: exactIds.length === 0 ? 'none' : exactIds, kept: false, agreements, exactAgreements };
  }

  /** The snapshot's French texts, read on first use (one read however many searches ask). */
  private frenchOf(s: Snapshot): Promise<LanguageIndex> {
    s.french ??= this.readFrench(s).then(
      (french) => {
        s.frenchHeld = french;
        collectGarbage(); // the read's temporaries
        return french;
      },
      (error: unknown) => {
        s.french = null; // the next French search tries again
        throw error;
      },
    );
    return s.french;
  }

  /** The French texts the French columns use (their inverted lists are the snapshot's). */
  private async readFrench(s: Snapshot): Promise<LanguageIndex> {
    return languageIndex(this.db, s.frenchLists, 'fr');
  }

  private async read(version: string | null): Promise<Snapshot> {
    const db = this.db;
    const counted = await db
      .selectFrom('grants_agreements')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('id').as('low'), eb.fn.max('id').as('m')])
      .executeTakeFirstOrThrow();
    const size = num(counted.n);
    const wideIds = num(counted.m ?? 0) > 0xffffffff || num(counted.low ?? 0) < 0;
    // Read in the order of ids, then renumbered by value (the temporary arrays go when the load ends; they are
    // kept narrow, as a process keeps much of its peak)
    const idsRead = wideIds ? new Float64Array(size) : new Uint32Array(size);
    const valuesRead = new Float64Array(size);
    const notableRead = new Uint8Array(size);
    const coded = (): CodedColumn => ({ codes: new Uint16Array(size), codeOf: new Map<string, number>() });
    const columns = { province: coded(), fiscalYear: coded(), recipientType: coded(), start: coded(), end: coded() };
    const textIds = ENGLISH_COLUMNS.map(() => new Uint32Array(size));
    const frenchTextIds = FRENCH_COLUMNS.map(() => new Uint32Array(size));
    const departments = new Map<string, CountedDepartment>();
    // Codes in order of first appearance while reading; renumbered below in the database's order of the values.
    const code = (c: CodedColumn, i: number, v: unknown): void => {
      if (v === null || v === undefined) return; // (0)
      const text = String(v);
      let k = c.codeOf.get(text);
      if (k === undefined) {
        c.codeOf.set(text, (k = c.codeOf.size + 1));
        if (k === 0x10000) c.codes = Uint32Array.from(c.codes); // (more distinct values than 16 bits hold)
      }
      c.codes[i] = k;
    };
    let i = 0;
    let after = -Infinity;
    for (;;) {
      let q = db.selectFrom('grants_agreements').select(INDEX_COLUMNS).orderBy('id').limit(LOAD_CHUNK_ROWS);
      if (after !== -Infinity) q = q.where('id', '>', after);
      const rows = await q.execute();
      // rows inserted after the count (by an import that is committing) are left for the reload it causes
      for (const r of rows) {
        if (i === size) break;
        const cents = num(r.agreement_value_cents);
        idsRead[i] = Number(r.id);
        valuesRead[i] = cents;
        notableRead[i] = r.is_notable ? 1 : 0;
        code(columns.province, i, r.recipient_province);
        code(columns.fiscalYear, i, r.fiscal_year);
        code(columns.recipientType, i, r.recipient_type);
        code(columns.start, i, r.agreement_start_date);
        code(columns.end, i, r.agreement_end_date);
        ENGLISH_COLUMNS.forEach((c, k) => {
          textIds[k][i] = Math.max(0, Number(r[c.textId] ?? 0));
        });
        FRENCH_COLUMNS.forEach((c, k) => {
          frenchTextIds[k][i] = Math.max(0, Number(r[c.textId] ?? 0));
        });
        countDepartment(departments, r.owner_org, Number(r.id), cents);
        i++;
      }
      if (rows.length < LOAD_CHUNK_ROWS || i === size) break;
      after = Number(rows[rows.length - 1].id);
      await nextTurn();
    }
    const n = i; // fewer when rows were deleted meanwhile: the version check after the read repeats it
    for (const [c, column] of [
      [columns.province, 'recipient_province'],
      [columns.fiscalYear, 'fiscal_year'],
      [columns.recipientType, 'recipient_type'],
      [columns.start, 'agreement_start_date'],
      [columns.end, 'agreement_end_date'],
    ] as const) {
      await this.orderCodes(c, column, n);
    }
    // byValue[a]: the read position (id order) of the agreement numbered a
    const byValue = Int32Array.from({ length: n }, (_, k) => k);
    byValue.sort((x, y) => valuesRead[x] - valuesRead[y] || x - y);
    const maxId = n === 0 ? 0 : idsRead[n - 1];
    const ids = wideIds || maxId > 0xffffffff ? new Float64Array(n) : new Uint32Array(n);
    const valueCents = new Float64Array(n);
    const notable = new Uint8Array(n);
    const recipientColumn = textIds[ENGLISH_COLUMNS.findIndex((c) => c.column === 'recipient_legal_name')];
    const recipient = new Uint32Array(n);
    for (let a = 0; a < n; a++) {
      const k = byValue[a];
      ids[a] = idsRead[k];
      valueCents[a] = valuesRead[k];
      notable[a] = notableRead[k];
      recipient[a] = recipientColumn[k];
    }
    const renumbered = (c: CodedColumn): CodedColumn => {
      const count = c.codeOf.size;
      const codes = count < 0x100 ? new Uint8Array(n) : count < 0x10000 ? new Uint16Array(n) : new Uint32Array(n);
      for (let a = 0; a < n; a++) codes[a] = c.codes[byValue[a]];
      return { codes, codeOf: c.codeOf };
    };
    return {
      version,
      size: n,
      ids,
      valueCents,
      notable,
      province: renumbered(columns.province),
      fiscalYear: renumbered(columns.fiscalYear),
      recipientType: renumbered(columns.recipientType),
      start: renumbered(columns.start),
      end: renumbered(columns.end),
      recipient,
      departments: await departmentTotals(db, [...departments.values()]),
      english: await languageIndex(db, invertedLists(textIds, byValue), 'en'),
      french: null,
      frenchHeld: null,
      frenchLists: invertedLists(frenchTextIds, byValue),
      orderings: new Map(),
      matches: new Int32Array(Math.ceil(n / 32)),
      exactMatches: new Int32Array(Math.ceil(n / 32)),
      exactScratch: new Int32Array(Math.ceil(n / 32)),
      codeBits: new Map(),
    };
  }

  /**
   * Renumbers a column's codes so that they follow the database's order of its distinct values (its collation
   * for text): the database sorts the distinct values themselves, a few thousand at most for these columns.
   */
  private async orderCodes(c: CodedColumn, column: StoredColumn, size: number): Promise<void> {
    const values = [...c.codeOf.keys()];
    let ordered: string[];
    if (values.length === 0) ordered = [];
    else if (values.length <= this.maxValuesSortedByList) {
      const list = sql.join(values.map((v) => sql`(${v})`));
      const rows = await sql<{ v: string }>`select column1 as v from (values ${list}) as t order by column1`.execute(this.db);
      ordered = rows.rows.map((r) => String(r.v));
    } else {
      const rows = await this.db
        .selectFrom('grants_agreements')
        .select(sql.ref<string>(column).as('v'))
        .distinct()
        .where(column, 'is not', null)
        .orderBy('v')
        .execute();
      ordered = rows.map((r) => String(r.v));
    }
    const renumber = new Uint32Array(values.length + 1);
    const codeOf = new Map<string, number>();
    ordered.forEach((v, i) => {
      const old = c.codeOf.get(v);
      if (old !== undefined && !codeOf.has(v)) {
        renumber[old] = i + 1;
        codeOf.set(v, i + 1);
      }
    });
    for (let a = 0; a < size; a++) c.codes[a] = renumber[c.codes[a]];
    c.codeOf = codeOf;
  }

  /**
   * The ascending order of a sort field other than value (the descending order is its reverse): SORT_ORDERS'
   * first column as a key (a code in the database's order of the column's values), then the agreement's number
   * where the order continues by value (fiscal year, province: no rank array, see Ordering), else its position
   * among the ids. key × n + tie-break is unique and exact.
   */
  private async buildOrdering(s: Snapshot, field: SortField): Promise<void> {
    const n = s.size;
    if (field === 'id') {
      const order = idOrder(s);
      s.orderings.set(field, { rank: inverse(order), order });
      return;
    }
    const [first, then]: readonly SortColumn[] = SORT_ORDERS[field].columns;
    if (first === 'agreement_value_cents') return; // the agreements' own numbering
    const key = await this.sortKey(s, first);
    const composite = new Float64Array(n);
    if (then === 'agreement_value_cents') {
      for (let a = 0; a < n; a++) composite[a] = key[a] * n + a;
      composite.sort();
      const order = new Int32Array(n);
      for (let r = 0; r < n; r++) order[r] = composite[r] % n;
      s.orderings.set(field, { rank: null, order });
      return;
    }
    const byId = idOrder(s);
    const idRank = inverse(byId);
    for (let a = 0; a < n; a++) composite[a] = key[a] * n + idRank[a];
    composite.sort();
    const order = new Int32Array(n);
    for (let r = 0; r < n; r++) order[r] = byId[composite[r] % n];
    s.orderings.set(field, { rank: inverse(order), order });
  }

  /** Each agreement's code for a sort column, in the database's order of the column's values (0: NULL). */
  private async sortKey(s: Snapshot, column: Exclude<SortColumn, 'agreement_value_cents'>): Promise<Codes> {
    switch (column) {
      case 'agreement_start_date':
        return s.start.codes;
      case 'agreement_end_date':
        return s.end.codes;
      case 'fiscal_year':
        return s.fiscalYear.codes;
      case 'recipient_province':
        return s.province.codes;
      case 'recipient_legal_name':
      case 'program_name_en': {
        // the rank of each text of the column in the database's order (the same strings as the column): the
        // database sorts only the column's texts (6,915 of 334,718 on the generated 1.3-million-row file; sorting
        // them all took 60–110 MiB of SQLite's memory, which the process then kept)
        const textId = column === 'recipient_legal_name' ? 'recipient_text_id' : 'program_text_id';
        const ranked = await this.db
          .selectFrom('grants_texts')
          .select('id')
          .where('id', 'in', this.db.selectFrom('grants_agreements').select(textId))
          .orderBy('text')
          .orderBy('id')
          .execute();
        const textRank = new Uint32Array(s.english.offsets.length);
        ranked.forEach((r, k) => {
          const t = Number(r.id);
          if (t < textRank.length) textRank[t] = k + 1;
        });
        // each agreement's text of the column, read again (not held: needed only here), matched to agreements by id
        const byId = idOrder(s);
        const key = new Uint32Array(s.size);
        let p = 0;
        let after = -Infinity;
        for (;;) {
          let q = this.db.selectFrom('grants_agreements').select(['id', textId]).orderBy('id').limit(LOAD_CHUNK_ROWS);
          if (after !== -Infinity) q = q.where('id', '>', after);
          const rows = await q.execute();
          for (const r of rows) {
            const id = Number(r.id);
            while (p < byId.length && s.ids[byId[p]] < id) p++;
            if (p === byId.length) break;
            const t = Number(r[textId] ?? 0);
            if (s.ids[byId[p]] === id && t >= 0 && t < textRank.length) key[byId[p]] = textRank[t];
          }
          if (rows.length < LOAD_CHUNK_ROWS || p === byId.length) break;
          after = Number(rows[rows.length - 1].id);
          await nextTurn();
        }
        return key;
      }
      default:
        throw new Error(`no in-memory sort key for ${column}`);
    }
  }
}

/** The agreements in the order of their ids (id × size + number sorted as doubles where that is exact: cheaper than a comparator). */
function idOrder(s: Snapshot): Int32Array {
  const { ids, size: n } = s;
  let maxId = 0;
  for (let a = 0; a < n; a++) maxId = Math.max(maxId, ids[a]);
  if ((maxId + 1) * n > Number.MAX_SAFE_INTEGER) return Int32Array.from({ length: n }, (_, a) => a).sort((x, y) => ids[x] - ids[y]);
  const composite = new Float64Array(n);
  for (let a = 0; a < n; a++) composite[a] = ids[a] * n + a;
  composite.sort();
  const order = new Int32Array(n);
  for (let r = 0; r < n; r++) order[r] = composite[r] % n;
  return order;
}

function inverse(order: Int32Array): Int32Array {
  const rank = new Int32Array(order.length);
  for (let r = 0; r < order.length; r++) rank[order[r]] = r;
  return rank;
}

/** Every filter but the text as codes and bounds (-1: any), or null when nothing can pass. */
interface FilterCodes {
  province: number;
  fiscalYear: number;
  recipientType: number;
  notable: number;
  min: number;
  max: number;
  /** No filter at all: every agreement passes. */
  none: boolean;
}

function filterCodes(s: Snapshot, filters: SearchFilters): FilterCodes | null {
  const codeFilter = (c: CodedColumn, value: string | undefined): number | null =>
    value === undefined ? -1 : (c.codeOf.get(value) ?? null);
  const province = codeFilter(s.province, filters.province);
  const fiscalYear = codeFilter(s.fiscalYear, filters.fiscalYear);
  const recipientType = codeFilter(s.recipientType, filters.recipientType);
  if (province === null || fiscalYear === null || recipientType === null) return null;
  let min = filters.minCents ?? -Infinity;
  let max = filters.maxCents ?? Infinity;
  // is_major_funding is exactly "value over $1,000,000" (MAJOR_FUNDING_THRESHOLD_CENTS, as the importer stores it)
  if (filters.isMajor === true) min = Math.max(min, MAJOR_FUNDING_THRESHOLD_CENTS + 1);
  if (filters.isMajor === false) max = Math.min(max, MAJOR_FUNDING_THRESHOLD_CENTS);
  const notable = filters.isNotable === undefined ? -1 : filters.isNotable ? 1 : 0;
  const none = province === -1 && fiscalYear === -1 && recipientType === -1 && notable === -1 && min === -Infinity && max === Infinity;
  return { province, fiscalYear, recipientType, notable, min, max, none };
}

/**
 * Counts the matching agreements, each once, and leaves them as the set bits of `s.matches` (bit a of word
 * a >> 5): the texts' inverted lists (of each language searched) set a bit per agreement (a bitset of 1.1 million
 * agreements is 140 KiB, which stays in the processor's cache where a byte or a stamp per agreement did not), then
 * the set agreements are tested against the filters in ascending order. No filter and no text: every agreement
 * matches, and nothing is set.
 */
function collect(
  s: Snapshot,
  texts: Array<{ match: TextMatch; index: LanguageIndex | null }> | null,
  filters: SearchFilters,
  minPostingsKept: number,
): number {
  const f = filterCodes(s, filters);
  if (f === null) return 0;
  if (texts === null && f.none) return s.size;
  const bits = s.matches;
  if (texts === null) {
    bits.fill(-1);
    if (s.size & 31) bits[bits.length - 1] = (1 << (s.size & 31)) - 1;
  } else {
    bits.fill(0);
    for (const { match, index } of texts) {
      if (match.agreements) {
        for (let w = 0; w < bits.length; w++) bits[w] |= match.agreements[w];
        continue;
      }
      if (index === null) continue; // (a match without inverted lists has its agreements)
      const alone = texts.length === 1;
      const into = alone ? bits : s.exactMatches; // (scratch here: the exact rank is computed after the count)
      if (!alone) into.fill(0);
      const walked = addAgreements(index, match.ids, into);
      if (walked >= minPostingsKept && match.kept) match.agreements = into.slice();
      if (!alone) for (let w = 0; w < bits.length; w++) bits[w] |= into[w];
    }
  }
  // the filters on codes: a word-by-word AND with the bitset of the agreements holding the code
  for (const [key, codes, code] of [
    ['province', s.province.codes, f.province],
    ['fiscalYear', s.fiscalYear.codes, f.fiscalYear],
    ['recipientType', s.recipientType.codes, f.recipientType],
    ['notable', s.notable, f.notable],
  ] as const) {
    if (code === -1) continue;
    const having = codeBits(s, `${key}=${code}`, codes, code);
    for (let w = 0; w < bits.length; w++) bits[w] &= having[w];
  }
  const { min, max } = f;
  if (min !== -Infinity || max !== Infinity) {
    // the agreements within the bounds are a run of numbers (they are numbered by value): the words outside it go
    const valueCents = s.valueCents;
    const firstAtLeast = (bound: number, inclusive: boolean): number => {
      let lo = 0;
      let hi = s.size;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const v = valueCents[mid];
        if (inclusive ? v >= bound : v > bound) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    keepRun(bits, firstAtLeast(min, true), firstAtLeast(max, false));
  }
  let count = 0;
  for (let w = 0; w < bits.length; w++) count += popcount(bits[w]);
  return count;
}

/** Adds to `bits` the agreements holding one of the texts `ids` of a language; returns the postings walked. */
function addAgreements(language: InvertedLists, ids: Uint32Array, bits: Int32Array): number {
  const { postings, offsets } = language;
  const reader = new VarintReader();
  let walked = 0;
  for (let k = 0; k < ids.length; k++) {
    const t = ids[k];
    if (t + 1 >= offsets.length) continue;
    let a = -1;
    const end = offsets[t + 1];
    for (reader.at = offsets[t]; reader.at < end; walked++) {
      a += reader.next(postings);
      bits[a >>> 5] |= 1 << (a & 31);
    }
  }
  return walked;
}

/**
 * The lists numbers[offsets[t] … offsets[t+1]) (each ascending) delta-encoded in 7-bit groups; `offsets` is
 * rewritten to the byte offsets of the lists.
 */
function encodePostings(numbers: Uint32Array, offsets: Uint32Array): Uint8Array {
  let size = 0;
  for (let t = 0; t + 1 < offsets.length; t++) {
    let previous = -1;
    for (let p = offsets[t]; p < offsets[t + 1]; p++) {
      size += varintLength(numbers[p] - previous);
      previous = numbers[p];
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (let t = 0; t + 1 < offsets.length; t++) {
    let previous = -1;
    const from = offsets[t];
    const to = offsets[t + 1];
    offsets[t] = at;
    for (let p = from; p < to; p++) {
      at = writeVarint(bytes, at, numbers[p] - previous);
      previous = numbers[p];
    }
  }
  offsets[offsets.length - 1] = at;
  return bytes;
}

/** Clears every bit of `bits` outside [from, to). */
function keepRun(bits: Int32Array, from: number, to: number): void {
  if (from >= to) {
    bits.fill(0);
    return;
  }
  const first = from >>> 5;
  const last = (to - 1) >>> 5;
  bits.fill(0, 0, first);
  bits.fill(0, last + 1);
  bits[first] &= -1 << (from & 31);
  const end = to & 31; // bits of the last word kept: below `end` (all when 0)
  if (end !== 0) bits[last] &= (1 << end) - 1;
}

/** Bitsets of the agreements holding one code of a filter column, built on first use (140 KiB each, at most MAX_CODE_BITSETS). */
function codeBits(s: Snapshot, key: string, codes: Codes, code: number): Int32Array {
  let having = s.codeBits.get(key);
  if (having === undefined) {
    having = new Int32Array(s.matches.length);
    for (let a = 0; a < s.size; a++) if (codes[a] === code) having[a >>> 5] |= 1 << (a & 31);
    if (s.codeBits.size >= MAX_CODE_BITSETS) s.codeBits.delete(s.codeBits.keys().next().value!);
    s.codeBits.set(key, having);
  } else {
    s.codeBits.delete(key); // most recently used last
    s.codeBits.set(key, having);
  }
  return having;
}

/** The page's ids of the `count` matches set in `bits` (every agreement when nothing was set: no text, no filter). */
function pageIds(
  s: Snapshot,
  bits: Int32Array,
  count: number,
  filters: SearchFilters,
  hasText: boolean,
  order: SearchOrder,
  page: SearchPage,
): number[] {
  const everything = !hasText && filterCodes(s, filters)?.none === true;
  const n = s.size;
  const wanted = Math.min(count, page.offset + page.limit);
  const ordering = order.field === 'agreement_value' ? null : s.orderings.get(order.field)!;
  const at = ordering === null ? (r: number) => r : (r: number) => ordering.order[r]; // the agreement at rank r
  let positions: number[];
  // Walking the order visits about wanted × size / count agreements; sorting costs about count × log2(count).
  if (everything || wanted * (n / count) <= count * Math.log2(count + 1)) {
    positions = [];
    let skipped = 0;
    for (let step = 0; step < n && positions.length < page.limit; step++) {
      const a = at(order.descending ? n - 1 - step : step);
      if (!everything && (bits[a >>> 5] & (1 << (a & 31))) === 0) continue;
      if (skipped < page.offset) skipped++;
      else positions.push(a);
    }
  } else {
    // the matches' ranks (exact in a double: code × size + number for the orders without a rank array), sorted
    const ranks = new Float64Array(count);
    const rank = ordering?.rank ?? null;
    const codes = ordering === null || rank !== null ? null : order.field === 'fiscal_year' ? s.fiscalYear.codes : s.province.codes;
    let k = 0;
    for (let w = 0; w < bits.length; w++) {
      for (let word = bits[w]; word !== 0;) {
        const low = word & -word;
        word ^= low;
        const a = (w << 5) | (31 - Math.clz32(low));
        ranks[k++] = rank !== null ? rank[a] : codes !== null ? codes[a] * n + a : a;
      }
    }
    ranks.sort();
    const from = order.descending ? Math.max(0, count - page.offset - page.limit) : page.offset;
    const to = order.descending ? count - page.offset : Math.min(count, page.offset + page.limit);
    positions = Array.from(ranks.subarray(from, to), (r) => (rank !== null ? ordering!.order[r] : r % n));
    if (order.descending) positions.reverse();
  }
  return positions.map((a) => s.ids[a]);
}

/** The index of one language's searched texts: its inverted lists (invertedLists), then the texts they name. */
async function languageIndex(db: Kysely<GrantsDatabase>, lists: InvertedLists, language: 'en' | 'fr'): Promise<LanguageIndex> {
  const { offsets, postings } = lists;
  // the texts the lists name (each list's bytes are offsets[t] … offsets[t + 1])
  const used = new Uint8Array(offsets.length - 1);
  for (let t = 0; t < used.length; t++) used[t] = offsets[t + 1] > offsets[t] ? 1 : 0;
  const texts = await TextDictionary.load(db, { used, french: language === 'fr' });
  return { texts, offsets, postings, recentTexts: new Map(), recentTextIds: 0 };
}

/**
 * The inverted lists of one language's columns: `textIds[k][byValue[a]]` is the dictionary id of agreement a's text
 * in the k-th column (0: none; the arrays in the order the rows were read, `byValue` the read position of each
 * agreement number), by counting sort.
 */
function invertedLists(textIds: Uint32Array[], byValue: Int32Array): InvertedLists {
  const n = byValue.length;
  let maxText = 0;
  for (const column of textIds) for (let a = 0; a < n; a++) if (column[a] > maxText) maxText = column[a];
  const offsets = new Uint32Array(maxText + 2);
  for (const column of textIds) for (let a = 0; a < n; a++) if (column[a] !== 0) offsets[column[a] + 1]++;
  for (let t = 1; t < offsets.length; t++) offsets[t] += offsets[t - 1];
  const numbers = new Uint32Array(offsets[offsets.length - 1]);
  const fill = offsets.slice(0, -1);
  for (let a = 0; a < n; a++) {
    const k = byValue[a];
    for (const column of textIds) if (column[k] !== 0) numbers[fill[column[k]]++] = a;
  }
  return { postings: encodePostings(numbers, offsets), offsets };
}

type CountedDepartment = DepartmentTotal & { firstId: number };

/** Counts an agreement of department `org` (of id `id`, worth `cents`). */
function countDepartment(departments: Map<string, CountedDepartment>, org: string, id: number, cents: number): void {
  let department = departments.get(org);
  if (department === undefined) {
    department = { owner_org: org, title: '', title_fr: '', count: 0, total_value_cents: 0, firstId: id };
    departments.set(org, department);
  }
  department.count++;
  department.total_value_cents += cents;
}

/** The totals counted while loading, with each department's names (as its first agreement gives them). */
async function departmentTotals(db: Kysely<GrantsDatabase>, counted: CountedDepartment[]): Promise<DepartmentTotal[]> {
  const names = new Map<number, { title: string; title_fr: string }>();
  for (let k = 0; k < counted.length; k += 500) {
    const rows = await db
      .selectFrom('grants_agreements')
      .select(['id', 'owner_org_title', 'owner_org_title_fr'])
      .where(
        'id',
        'in',
        counted.slice(k, k + 500).map((d) => d.firstId),
      )
      .execute();
    for (const r of rows) names.set(Number(r.id), { title: r.owner_org_title, title_fr: r.owner_org_title_fr });
  }
  return counted
    .map(({ firstId, ...d }) => ({ ...d, title: names.get(firstId)?.title || d.owner_org, title_fr: names.get(firstId)?.title_fr ?? '' }))
    .sort((a, b) => b.total_value_cents - a.total_value_cents || (a.owner_org < b.owner_org ? -1 : 1));
}

/** Of the text ids `ids` (ascending), those the language's columns use. */
function usedBy(language: LanguageIndex, ids: Uint32Array): Uint32Array {
  const { offsets } = language;
  return ids.filter((t) => t + 1 < offsets.length && offsets[t + 1] > offsets[t]);
}

/** The union of two ascending lists of ids, ascending. */
function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const x = j === b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (n === 0 || out[n - 1] !== x) out[n++] = x;
  }
  return out.slice(0, n);
}
