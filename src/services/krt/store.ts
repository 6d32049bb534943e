// Writing articles and extraction sessions, idempotently: articles are matched by DOI, sessions by their stable id
// (session-id.ts), unchanged records are left alone, and a session of the same extractor on older content of the
// same paper is replaced by the new one. Used by the importer, the `extract` command and the extraction route.
import type { Kysely } from 'kysely';
import { putAggregate } from '../../core/db/datasets.ts';
import { dbBool, dbJson, insertMany } from '../../core/db/dialect.ts';
import { splitTable, summarizeRows } from './extract/index.ts';
import type { KrtRow, RowEvidence } from './extract/index.ts';
import { foldSearchText } from './search.ts';
import type { SuggestionIndexRows } from './rrid/index.ts';
import type { ArticleFields, KrtDatabase, SessionStatus } from './tables.ts';

/** The dataset of generated demo articles (a real store's is `store`). */
export const DEMO_DATASET = 'demo';
export const STORE_DATASET = 'store';

/** What the importer writes of an article (its id, times and search text are the store's). */
export type ArticleInput = ArticleFields;

export type Change = 'inserted' | 'updated' | 'unchanged';

const ARTICLE_FIELDS = [
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
  'dataset',
  'is_demo',
] as const satisfies readonly (keyof ArticleInput)[];

/** Inserts or updates the article of `given.doi`; returns its id and what happened. */
export async function upsertArticle(
  trx: Kysely<KrtDatabase>,
  given: ArticleInput,
  now: string,
  unreadable: readonly ('publication_date' | 'version')[] = [],
): Promise<{ id: number; change: Change }> {
  const existing = await trx.selectFrom('krt_articles').selectAll().where('doi', '=', given.doi).executeTakeFirst();
  // A field the new file writes but that cannot be read keeps the value stored from an earlier file.
  const input = { ...given };
  if (existing && unreadable.includes('publication_date') && existing.publication_date !== null)
    input.publication_date = existing.publication_date;
  if (existing && unreadable.includes('version') && existing.version !== null) input.version = Number(existing.version);
  const values = {
    ...input,
    is_preprint: dbBool(trx, input.is_preprint),
    is_demo: dbBool(trx, input.is_demo),
    search_text: foldSearchText(`${input.doi} ${input.title}`),
  };
  if (!existing) {
    const row = await trx
      .insertInto('krt_articles')
      .values({ ...values, imported_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), change: 'inserted' };
  }
  const same = ARTICLE_FIELDS.every((field) => {
    const stored = existing[field];
    const wanted = input[field];
    if (typeof wanted === 'boolean') return Boolean(stored) === wanted;
    if (typeof wanted === 'number') return Number(stored) === wanted;
    return (stored ?? null) === (wanted ?? null);
  });
  if (same) return { id: Number(existing.id), change: 'unchanged' };
  await trx
    .updateTable('krt_articles')
    .set({ ...values, updated_at: now })
    .where('id', '=', existing.id)
    .execute();
  return { id: Number(existing.id), change: 'updated' };
}

export interface SessionInput {
  session_id: string;
  doi: string;
  title: string;
  status: SessionStatus;
  provider: string;
  model: string;
  content_hash: string;
  processing_time: number;
  error: string | null;
  rows: readonly KrtRow[];
  /** For text-extracted rows: the sentence each came from, its confidence and inclusion (same order as rows). */
  evidence?: readonly RowEvidence[] | null;
  is_demo: boolean;
  /**
   * Deterministic extractors give the same rows for the same id, so an existing completed session is left as it
   * is; a model provider's answer may differ from run to run, so its session is rewritten.
   */
  deterministic: boolean;
}

export interface SessionWrite {
  change: Change;
  /** Sessions of the same extractor on older content of the paper, removed. */
  replaced: number;
}

/**
 * The same table stored before its rows kept their evidence (krt_0003) or their inclusion (krt_0005): the sentence,
 * confidence, inclusion probability and place (table or further mention) of each row are added to the stored rows (same
 * extractor, same file, so the same rows in the same order), and the session's counts follow. Whether any was added.
 */
async function addMissingEvidence(trx: Kysely<KrtDatabase>, input: SessionInput): Promise<boolean> {
  const evidence = input.evidence;
  if (!evidence || evidence.length !== input.rows.length) return false;
  const withInclusion = evidence.some((e) => e.inclusion_probability !== null);
  const missing = await trx
    .selectFrom('krt_session_rows')
    .select(['position', 'resource_name'])
    .where('session_id', '=', input.session_id)
    .where((eb) =>
      withInclusion ? eb.or([eb('sentence', 'is', null), eb('inclusion_probability', 'is', null)]) : eb('sentence', 'is', null),
    )
    .execute();
  let added = false;
  for (const row of missing) {
    const found = evidence[row.position];
    // Only onto the row it belongs to: a stored row that is not this extraction's row keeps its nulls.
    if (!found || input.rows[row.position]['RESOURCE NAME'] !== row.resource_name) continue;
    await trx
      .updateTable('krt_session_rows')
      .set(evidenceColumns(trx, found))
      .where('session_id', '=', input.session_id)
      .where('position', '=', row.position)
      .execute();
    added = true;
  }
  if (added) {
    const stored = await trx
      .selectFrom('krt_session_rows')
      .select(['new_reuse', 'in_table'])
      .where('session_id', '=', input.session_id)
      .execute();
    const table = stored.filter((r) => r.in_table === null || Boolean(r.in_table));
    await trx
      .updateTable('krt_sessions')
      .set({ total_resources: table.length, new_resources: table.filter((r) => r.new_reuse === 'new').length })
      .where('session_id', '=', input.session_id)
      .execute();
  }
  return added;
}

/** A row's evidence as its columns (all null for a row without). */
function evidenceColumns(trx: Kysely<KrtDatabase>, found: RowEvidence | undefined) {
  return {
    sentence: found?.sentence ?? null,
    confidence: found?.confidence ?? null,
    inclusion_probability: found?.inclusion_probability ?? null,
    // Stored only where the model decided: a row without it is in the table.
    in_table: found && found.inclusion_probability !== null ? dbBool(trx, found.in_table) : null,
  };
}

export async function storeSession(trx: Kysely<KrtDatabase>, articleId: number, input: SessionInput, now: string): Promise<SessionWrite> {
  const existing = await trx
    .selectFrom('krt_sessions')
    .select(['session_id', 'status', 'error'])
    .where('session_id', '=', input.session_id)
    .executeTakeFirst();
  // The session's counts are those of its key resources table (its further mentions apart).
  const summary = summarizeRows(splitTable(input.rows, input.evidence ?? null).rows);
  const header = {
    article_id: articleId,
    doi: input.doi,
    title: input.title,
    status: input.status,
    provider: input.provider,
    model: input.model,
    content_hash: input.content_hash,
    processing_time: Number(input.processing_time.toFixed(4)),
    created_at: now,
    error: input.error,
    total_resources: summary.total_resources,
    new_resources: summary.new_resources,
    is_demo: dbBool(trx, input.is_demo),
  };
  let change: Change;
  let writeRows = true;
  if (!existing) {
    await trx
      .insertInto('krt_sessions')
      .values({ session_id: input.session_id, ...header })
      .execute();
    change = 'inserted';
  } else if (input.deterministic && existing.status === 'completed' && input.status === 'completed') {
    // Same file, same extractor version: the stored table is the table. Keep its creation time.
    await trx
      .updateTable('krt_sessions')
      .set({ article_id: articleId, title: input.title, is_demo: header.is_demo })
      .where('session_id', '=', input.session_id)
      .execute();
    writeRows = false;
    change = (await addMissingEvidence(trx, input)) ? 'updated' : 'unchanged';
  } else {
    await trx.updateTable('krt_sessions').set(header).where('session_id', '=', input.session_id).execute();
    await trx.deleteFrom('krt_session_rows').where('session_id', '=', input.session_id).execute();
    change = 'updated';
  }
  if (writeRows) {
    await insertMany(
      trx,
      'krt_session_rows',
      input.rows.map((row, position) => ({
        session_id: input.session_id,
        position,
        resource_type: row['RESOURCE TYPE'],
        resource_name: row['RESOURCE NAME'],
        source: row.SOURCE,
        identifier: row.IDENTIFIER,
        new_reuse: row['NEW/REUSE'],
        additional_information: row['ADDITIONAL INFORMATION'],
        ...evidenceColumns(trx, input.evidence?.[position]),
      })),
    );
  }
  const stale = await trx
    .selectFrom('krt_sessions')
    .select('session_id')
    .where('doi', '=', input.doi)
    .where('provider', '=', input.provider)
    .where('model', '=', input.model)
    .where('content_hash', '<>', input.content_hash)
    .execute();
  if (stale.length)
    await deleteSessions(
      trx,
      stale.map((s) => s.session_id),
    );
  return { change, replaced: stale.length };
}

async function deleteSessions(trx: Kysely<KrtDatabase>, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await trx.deleteFrom('krt_session_rows').where('session_id', 'in', chunk).execute();
    await trx.deleteFrom('krt_sessions').where('session_id', 'in', chunk).execute();
  }
}

/** Deletes the articles of `ids` with their sessions and rows. */
async function deleteArticles(trx: Kysely<KrtDatabase>, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const sessions = (await trx.selectFrom('krt_sessions').select('session_id').where('article_id', 'in', chunk).execute()).map(
      (s) => s.session_id,
    );
    await deleteSessions(trx, sessions);
    await trx.deleteFrom('krt_articles').where('id', 'in', chunk).execute();
  }
}

/** Deletes articles (and their sessions) imported from `storeRoot` whose DOIs are not in `keep`; returns how many. */
export async function deleteArticlesNotIn(trx: Kysely<KrtDatabase>, storeRoot: string, keep: ReadonlySet<string>): Promise<number> {
  const stored = await trx.selectFrom('krt_articles').select(['id', 'doi']).where('store_root', '=', storeRoot).execute();
  const gone = stored.filter((a) => !keep.has(a.doi));
  await deleteArticles(
    trx,
    gone.map((a) => Number(a.id)),
  );
  return gone.length;
}

/**
 * Deletes every generated demo article with its sessions (a real import does, in its transaction, so that demo
 * data never sits beside real data) and the demo dataset's data version; returns how many articles.
 */
export async function deleteDemoArticles(trx: Kysely<KrtDatabase>): Promise<number> {
  const demo = await trx.selectFrom('krt_articles').select('id').where('is_demo', '=', dbBool(trx, true)).execute();
  await deleteArticles(
    trx,
    demo.map((a) => Number(a.id)),
  );
  await trx.deleteFrom('data_versions').where('service', '=', 'krt').where('dataset', '=', DEMO_DATASET).execute();
  return demo.length;
}

// ---- the stored RRID suggestion index (rrid/suggestion-index.ts) ---------------------------------------------------

export const SUGGESTION_INDEX_AGGREGATE = 'rrid_suggestion_index';

/** Replaces the stored suggestion index (inside the transaction that stores the knowledge base). */
export async function storeSuggestionIndex(trx: Kysely<KrtDatabase>, rows: SuggestionIndexRows, dataVersion: string): Promise<void> {
  await trx.deleteFrom('krt_rrid_keys').execute();
  await trx.deleteFrom('krt_rrid_entries').execute();
  await trx.deleteFrom('krt_rrid_token_stats').execute();
  await insertMany(
    trx,
    'krt_rrid_entries',
    rows.entries.map((e) => ({ ...e, demo_only: dbBool(trx, e.demo_only), detail: dbJson(trx, e.detail) })),
  );
  await insertMany(trx, 'krt_rrid_keys', rows.keys);
  await insertMany(trx, 'krt_rrid_token_stats', rows.tokenStats);
  await putAggregate(trx, 'krt', SUGGESTION_INDEX_AGGREGATE, dataVersion, rows.meta);
}
