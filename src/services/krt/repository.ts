// Every query of Service B, framework-free: articles, DOI suggestions, sessions and their rows, the best table
// of a paper, chat sessions and the validation cache. Writes live in store.ts; the RRID knowledge base, stored as
// an aggregate, in aggregates.ts.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { dbBool, dbJson, num, readJson } from '../../core/db/dialect.ts';
import { substringMatch } from '../../core/db/search-index.ts';
import { rankDoiSuggestions } from './jats/index.ts';
import { splitTable } from './extract/index.ts';
import type { FurtherMention, KrtRow, NewReuse, ResourceType, RowEvidence } from './extract/index.ts';
import { ARTICLE_SEARCH, articleQuery } from './search.ts';
import type { ChatState } from './chat/index.ts';
import type { RridValidation, StoredEntry, StoredEntryDetail, SuggestionIndexMeta, SuggestionIndexReader } from './rrid/index.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { SUGGESTION_INDEX_AGGREGATE } from './store.ts';
import type { ArticleFields, ArticleRow, KrtDatabase, SessionRow, SessionRowRow, WithBooleans } from './tables.ts';

/** Extractors that read the article itself (their tables feed the knowledge base). */
export const BUILTIN_PROVIDERS = ['jats-table', 'text-pattern'] as const;

const ARTICLE_COLUMNS = [
  'id',
  'doi',
  'title',
  'authors',
  'publication_date',
  'journal',
  'is_preprint',
  'version',
  'store_root',
  'file_path',
  'file_size',
  'content_hash',
  'downloaded_at',
  'imported_at',
  'dataset',
  'is_demo',
] as const satisfies readonly (keyof ArticleRecord)[];

const SESSION_COLUMNS = [
  'session_id',
  'article_id',
  'doi',
  'title',
  'status',
  'provider',
  'model',
  'content_hash',
  'processing_time',
  'created_at',
  'error',
  'total_resources',
  'new_resources',
  'is_demo',
] as const satisfies readonly (keyof SessionRow)[];

/** A stored article: what the importer wrote (store.ts) plus its id and import time. */
export type ArticleRecord = ArticleFields & Pick<ArticleRow, 'id' | 'imported_at'>;

export type SessionRecord = WithBooleans<Pick<SessionRow, (typeof SESSION_COLUMNS)[number]>, 'is_demo'>;

function toArticle(r: Pick<ArticleRow, (typeof ARTICLE_COLUMNS)[number]>): ArticleRecord {
  return {
    ...r,
    id: Number(r.id),
    publication_date: r.publication_date ?? null,
    is_preprint: Boolean(r.is_preprint),
    version: r.version === null || r.version === undefined ? null : Number(r.version),
    file_size: num(r.file_size),
    is_demo: Boolean(r.is_demo),
  };
}

function toSession(r: Pick<SessionRow, (typeof SESSION_COLUMNS)[number]>): SessionRecord {
  return {
    ...r,
    article_id: Number(r.article_id),
    processing_time: Number(r.processing_time),
    error: r.error ?? null,
    total_resources: Number(r.total_resources),
    new_resources: Number(r.new_resources),
    is_demo: Boolean(r.is_demo),
  };
}

export async function getArticle(db: Kysely<KrtDatabase>, doi: string): Promise<ArticleRecord | null> {
  const row = await db.selectFrom('krt_articles').select(ARTICLE_COLUMNS).where('doi', '=', doi).executeTakeFirst();
  return row ? toArticle(row) : null;
}

/** Articles of the store that are real (not generated demo articles). */
export async function countRealArticles(db: Kysely<KrtDatabase>): Promise<number> {
  const row = await db
    .selectFrom('krt_articles')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('is_demo', '=', dbBool(db, false))
    .executeTakeFirstOrThrow();
  return num(row.n);
}

/** Articles imported from the store directory `storeRoot`. */
export async function countArticlesOf(db: Kysely<KrtDatabase>, storeRoot: string): Promise<number> {
  const row = await db
    .selectFrom('krt_articles')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('store_root', '=', storeRoot)
    .executeTakeFirstOrThrow();
  return num(row.n);
}

export async function listArticles(db: Kysely<KrtDatabase>): Promise<ArticleRecord[]> {
  return (await db.selectFrom('krt_articles').select(ARTICLE_COLUMNS).orderBy('doi').execute()).map(toArticle);
}

export type SuggestionItem = WithBooleans<
  Pick<ArticleRow, 'doi' | 'title' | 'authors' | 'publication_date' | 'file_size' | 'is_demo'>,
  'is_demo'
>;

/**
 * DOI suggestions in SQL (the routes answer from memory: held-articles.ts, which must answer the same; this is the
 * reference its test compares with): with `q`, articles whose DOI or title matches (ranked by jats/doi-search.ts: exact DOI, DOI
 * prefix, DOI substring, title phrase, all title words), newest first among equals; without, all articles, newest
 * first. The substring index narrows the candidates to articles containing every word of q; the ranking then
 * decides exactly, so `total` is the number of articles the ranking accepts.
 */
export async function suggestArticles(
  db: Kysely<KrtDatabase>,
  q: string | undefined,
  limit: number,
): Promise<{ items: SuggestionItem[]; total: number }> {
  const columns = ['doi', 'title', 'authors', 'publication_date', 'file_size', 'is_demo'] as const;
  const item = (r: Pick<ArticleRow, (typeof columns)[number]>): SuggestionItem => ({
    doi: r.doi,
    title: r.title,
    authors: r.authors,
    publication_date: r.publication_date ?? null,
    file_size: num(r.file_size),
    is_demo: Boolean(r.is_demo),
  });
  if (!q) {
    const total = num(
      (
        await db
          .selectFrom('krt_articles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const rows = await db
      .selectFrom('krt_articles')
      .select(columns)
      .orderBy(sql`coalesce(publication_date, '')`, 'desc')
      .orderBy('doi')
      .limit(limit)
      .execute();
    return { items: rows.map(item), total };
  }
  const { query, words } = articleQuery(q);
  let candidatesQuery = db.selectFrom('krt_articles').select(columns);
  for (const word of words) candidatesQuery = candidatesQuery.where(substringMatch(db, ARTICLE_SEARCH, word));
  const candidates = (await candidatesQuery.execute()).map(item);
  const ranked = rankDoiSuggestions(
    candidates.map((c) => ({ ...c, publicationDate: c.publication_date ?? '', fileSize: c.file_size })),
    query,
    limit,
  );
  return { items: ranked.items.map(({ publicationDate: _d, fileSize: _s, ...rest }) => rest), total: ranked.total };
}

// ---- sessions -------------------------------------------------------------------------------------------------

export async function getSession(db: Kysely<KrtDatabase>, sessionId: string): Promise<SessionRecord | null> {
  const row = await db.selectFrom('krt_sessions').select(SESSION_COLUMNS).where('session_id', '=', sessionId).executeTakeFirst();
  return row ? toSession(row) : null;
}

function toRow(r: SessionRowRow): KrtRow {
  return {
    'RESOURCE TYPE': r.resource_type as ResourceType,
    'RESOURCE NAME': r.resource_name,
    SOURCE: r.source,
    IDENTIFIER: r.identifier,
    'NEW/REUSE': r.new_reuse as NewReuse,
    'ADDITIONAL INFORMATION': r.additional_information,
  };
}

/** A session's key resources table in table order (its further mentions left out): what the exports write. */
export async function sessionRows(db: Kysely<KrtDatabase>, sessionId: string): Promise<KrtRow[]> {
  return (await sessionRowsWithEvidence(db, sessionId)).rows;
}

/**
 * A session's key resources table in table order and, when every row was found in text (and stored since krt_0003),
 * the sentence each came from with its calibrated confidence and inclusion probability, in the same order (null for
 * author tables, language models and sessions stored before the evidence was kept); and the rows the row-inclusion
 * model left out of the table, as further mentions. A row stored before krt_0005 is in the table.
 */
export async function sessionRowsWithEvidence(
  db: Kysely<KrtDatabase>,
  sessionId: string,
): Promise<{ rows: KrtRow[]; evidence: RowEvidence[] | null; mentions: FurtherMention[] }> {
  const stored = await db.selectFrom('krt_session_rows').selectAll().where('session_id', '=', sessionId).orderBy('position').execute();
  const evidence: RowEvidence[] = [];
  for (const r of stored) {
    if (r.sentence === null || r.confidence === null) break;
    evidence.push({
      sentence: r.sentence,
      confidence: Number(r.confidence),
      inclusion_probability: r.inclusion_probability === null ? null : Number(r.inclusion_probability),
      in_table: r.in_table === null || Boolean(r.in_table),
    });
  }
  return splitTable(stored.map(toRow), stored.length > 0 && evidence.length === stored.length ? evidence : null);
}

/**
 * Rows of many sessions at once, by session id, in table order; with `tableOnly`, the key resources tables without
 * their further mentions (a row stored before the split counts as in the table).
 */
export async function rowsOfSessions(
  db: Kysely<KrtDatabase>,
  sessionIds: readonly string[],
  { tableOnly = false }: { tableOnly?: boolean } = {},
): Promise<Map<string, KrtRow[]>> {
  const out = new Map<string, KrtRow[]>(sessionIds.map((id) => [id, []]));
  for (let i = 0; i < sessionIds.length; i += 500) {
    const chunk = sessionIds.slice(i, i + 500);
    const rows = await db
      .selectFrom('krt_session_rows')
      .selectAll()
      .where('session_id', 'in', chunk)
      .orderBy('session_id')
      .orderBy('position')
      .execute();
    for (const r of rows) if (!tableOnly || r.in_table === null || Boolean(r.in_table)) out.get(r.session_id)!.push(toRow(r));
  }
  return out;
}

export async function countSessions(db: Kysely<KrtDatabase>, doi: string): Promise<number> {
  return num(
    (
      await db
        .selectFrom('krt_sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('doi', '=', doi)
        .executeTakeFirstOrThrow()
    ).n,
  );
}

export async function sessionsOfDoi(db: Kysely<KrtDatabase>, doi: string): Promise<SessionRecord[]> {
  return (
    await db
      .selectFrom('krt_sessions')
      .select(SESSION_COLUMNS)
      .where('doi', '=', doi)
      .orderBy('created_at', 'desc')
      .orderBy('session_id')
      .execute()
  ).map(toSession);
}

/**
 * The best table of a paper among its completed sessions: an author table if there is one, else the session with
 * the most rows; ties go to the newest, then to the smaller session id (deterministic).
 */
export function pickBestSession<T extends Pick<SessionRecord, 'status' | 'provider' | 'total_resources' | 'created_at' | 'session_id'>>(
  sessions: readonly T[],
): T | null {
  let best: T | null = null;
  const rank = (s: T) => [s.provider === 'jats-table' ? 1 : 0, s.total_resources] as const;
  for (const s of sessions) {
    if (s.status !== 'completed') continue;
    if (!best) {
      best = s;
      continue;
    }
    const [a1, a2] = rank(s);
    const [b1, b2] = rank(best);
    if (
      a1 !== b1
        ? a1 > b1
        : a2 !== b2
          ? a2 > b2
          : s.created_at !== best.created_at
            ? s.created_at > best.created_at
            : s.session_id < best.session_id
    )
      best = s;
  }
  return best;
}

/**
 * Every article's best table among the built-in extractors' completed sessions: with every row the text gives for the
 * knowledge base (an RRID a paper writes is evidence whether or not its row is in the table), with `tableOnly` the key
 * resources tables alone for the statistics.
 */
export async function bestBuiltinTables(
  db: Kysely<KrtDatabase>,
  options: { tableOnly?: boolean } = {},
): Promise<{ doi: string; provider: string; is_demo: boolean; rows: KrtRow[] }[]> {
  const sessions = (
    await db
      .selectFrom('krt_sessions')
      .select(SESSION_COLUMNS)
      .where('provider', 'in', [...BUILTIN_PROVIDERS])
      .where('status', '=', 'completed')
      .orderBy('doi')
      .execute()
  ).map(toSession);
  const byDoi = new Map<string, SessionRecord[]>();
  for (const s of sessions) {
    const list = byDoi.get(s.doi) ?? [];
    list.push(s);
    byDoi.set(s.doi, list);
  }
  const best = [...byDoi.values()].map((list) => pickBestSession(list)!).filter(Boolean);
  const rows = await rowsOfSessions(
    db,
    best.map((s) => s.session_id),
    options,
  );
  return best.map((s) => ({ doi: s.doi, provider: s.provider, is_demo: s.is_demo, rows: rows.get(s.session_id) ?? [] }));
}

/** Every article's DOI and publication date (YYYY-MM-DD or null), for the statistics by year. */
export async function articleDates(db: Kysely<KrtDatabase>): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom('krt_articles').select(['doi', 'publication_date']).orderBy('doi').execute();
  return new Map(rows.map((r) => [r.doi, r.publication_date ?? null]));
}

// ---- chat sessions ------------------------------------------------------------------------------------------------

/** A chat session active since `notBefore` (older ones have expired), or null. */
export async function loadChatSession(
  db: Kysely<KrtDatabase>,
  id: string,
  notBefore: string,
): Promise<{ state: ChatState; updated_at: string } | null> {
  const row = await db.selectFrom('krt_chat_sessions').select(['state', 'updated_at']).where('id', '=', id).executeTakeFirst();
  if (!row || row.updated_at < notBefore) return null;
  return { state: readJson<ChatState>(row.state), updated_at: row.updated_at };
}

export async function saveChatState(db: Kysely<KrtDatabase>, id: string, state: ChatState, now: string): Promise<void> {
  const state_ = dbJson(db, state);
  await db
    .insertInto('krt_chat_sessions')
    .values({ id, state: state_, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ state: state_, updated_at: now }))
    .execute();
}

/** Removes chat sessions inactive since before `notBefore`; returns how many. */
export async function purgeChatStates(db: Kysely<KrtDatabase>, notBefore: string): Promise<number> {
  const result = await db.deleteFrom('krt_chat_sessions').where('updated_at', '<', notBefore).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

// ---- validation cache ---------------------------------------------------------------------------------------------

export async function cachedValidation(
  db: Kysely<KrtDatabase>,
  key: string,
  kbVersion: string,
  notBefore: string,
): Promise<RridValidation | null> {
  const row = await db
    .selectFrom('krt_validation_cache')
    .select(['value', 'kb_version', 'checked_at'])
    .where('cache_key', '=', key)
    .executeTakeFirst();
  if (!row || row.kb_version !== kbVersion || row.checked_at < notBefore) return null;
  return readJson<RridValidation>(row.value);
}

export async function storeValidation(db: Kysely<KrtDatabase>, key: string, kbVersion: string, value: RridValidation): Promise<void> {
  const json = dbJson(db, value);
  await db
    .insertInto('krt_validation_cache')
    .values({ cache_key: key, kb_version: kbVersion, value: json, checked_at: value.last_checked })
    .onConflict((oc) => oc.column('cache_key').doUpdateSet({ kb_version: kbVersion, value: json, checked_at: value.last_checked }))
    .execute();
}

export async function purgeValidations(db: Kysely<KrtDatabase>, notBefore: string): Promise<number> {
  const result = await db.deleteFrom('krt_validation_cache').where('checked_at', '<', notBefore).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

// ---- the stored RRID suggestion index (rrid/suggestion-index.ts, written by store.ts) ----------------------------

/** Reads the stored suggestion index: a handful of indexed queries per suggestion, nothing held in memory. */
export function suggestionIndexReader(db: Kysely<KrtDatabase>): SuggestionIndexReader {
  return {
    async meta() {
      const found = await getAggregate<SuggestionIndexMeta>(db, 'krt', SUGGESTION_INDEX_AGGREGATE);
      return found?.value ?? null;
    },
    async documentFrequencies(tokens) {
      if (tokens.length === 0) return new Map();
      const rows = await db
        .selectFrom('krt_rrid_token_stats')
        .select(['token', 'df'])
        .where('token', 'in', [...tokens])
        .execute();
      return new Map(rows.map((r) => [r.token, num(r.df)]));
    },
    async entryIds(kind, keys) {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('krt_rrid_keys')
        .select('entry_id')
        .where('kind', '=', kind)
        .where('key', 'in', [...keys])
        .execute();
      return [...new Set(rows.map((r) => num(r.entry_id)))];
    },
    async entries(ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('krt_rrid_entries')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      return rows.map((r): StoredEntry => ({
        id: num(r.id),
        rrid: r.rrid,
        resource_type: r.resource_type as ResourceType,
        papers: num(r.papers),
        mentions: num(r.mentions),
        demo_only: Boolean(r.demo_only),
        detail: readJson<StoredEntryDetail>(r.detail),
      }));
    },
  };
}
