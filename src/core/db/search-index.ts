// The indexed, case-insensitive substring search ("contains") shared by every service:
// SQLite: an external-content FTS5 table with the trigram tokenizer, kept in step by triggers. It stores no
// positions (detail=none: much smaller and faster to build than with positions), so a query asks for rows
// holding every trigram of the text and the candidates are then checked for the exact substring.
// PostgreSQL: a GIN pg_trgm index over the concatenated columns, queried with ILIKE.
// Both give exact substring semantics within one column; queries under 3 characters fall back to a scan.
// An index with `accents: 'fold'` also ignores diacritics ("montreal" finds "Montréal"; foldAccents in dialect.ts):
// FTS5's trigram tokenizer removes them itself, and PostgreSQL indexes pdi_fold_accents(document).
import { sql } from 'kysely';
import type { QueryExecutorProvider, RawBuilder, SqlBool } from 'kysely';
import { containsText, dialectOf, ensureAccentFoldFunction, escapeLike, foldAccents, foldCase } from './dialect.ts';

export interface SubstringIndex {
  /** Name of the FTS table (SQLite) or the index (PostgreSQL). */
  name: string;
  table: string;
  /** Integer primary key of `table`. */
  idColumn: string;
  columns: string[];
  /** 'fold': matching ignores diacritics as well as case. */
  accents?: 'keep' | 'fold';
}

/** Needles shorter than this are compared without the index (a trigram index cannot narrow them); in-memory matchers follow it. */
export const MIN_INDEXED_LENGTH = 3;
const REBUILD_HASH_BYTES = 16 << 20;
const FTS5_DEFAULT_HASH_BYTES = 1 << 20;

export async function createSubstringIndex(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    const cols = index.columns.join(', ');
    await sql
      .raw(
        `CREATE VIRTUAL TABLE ${index.name} USING fts5(${cols}, content='${index.table}', content_rowid='${index.idColumn}', ` +
          `tokenize='${tokenizer(index)}', detail=none)`,
      )
      .execute(db);
    // An external-content table starts empty: index the rows already there, as CREATE INDEX would.
    await sql.raw(`INSERT INTO ${index.name}(${index.name}) VALUES ('rebuild')`).execute(db);
    await createSqliteTriggers(db, index);
  } else {
    await ensurePgTrgm(db);
    await createPgIndex(db, index);
  }
}

export async function dropSubstringIndex(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await dropSqliteTriggers(db, index);
    await sql.raw(`DROP TABLE IF EXISTS ${index.name}`).execute(db);
  } else {
    await sql.raw(`DROP INDEX IF EXISTS ${index.name}`).execute(db);
  }
}

/**
 * For bulk loads: stop maintaining the index row by row. Call `resumeSubstringIndex` in the same
 * transaction afterwards; it rebuilds the index once, which is much faster than per-row upkeep.
 */
export async function suspendSubstringIndex(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  if (dialectOf(db) === 'sqlite') await dropSqliteTriggers(db, index);
  else await sql.raw(`DROP INDEX IF EXISTS ${index.name}`).execute(db);
}

export async function resumeSubstringIndex(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    // Without automatic merging during the rebuild: a faster rebuild, and queries as fast; merging is back
    // on (FTS5's default, 4) for the triggers' incremental writes. And with 16 MiB of terms gathered in
    // memory before each segment is written instead of FTS5's 1 MiB: fewer, larger segments, so a faster
    // rebuild and commit and faster queries; back to 1 MiB afterwards.
    await sql.raw(`INSERT INTO ${index.name}(${index.name}, rank) VALUES ('automerge', 0)`).execute(db);
    await sql.raw(`INSERT INTO ${index.name}(${index.name}, rank) VALUES ('hashsize', ${REBUILD_HASH_BYTES})`).execute(db);
    await sql.raw(`INSERT INTO ${index.name}(${index.name}) VALUES ('rebuild')`).execute(db);
    await sql.raw(`INSERT INTO ${index.name}(${index.name}, rank) VALUES ('hashsize', ${FTS5_DEFAULT_HASH_BYTES})`).execute(db);
    await sql.raw(`INSERT INTO ${index.name}(${index.name}, rank) VALUES ('automerge', 4)`).execute(db);
    await createSqliteTriggers(db, index);
  } else {
    await createPgIndex(db, index);
  }
}

function tokenizer(index: SubstringIndex): string {
  return index.accents === 'fold' ? 'trigram remove_diacritics 1 case_sensitive 0' : 'trigram case_sensitive 0';
}

async function createPgIndex(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  if (index.accents === 'fold') await ensureAccentFoldFunction(db);
  await sql.raw(`CREATE INDEX ${index.name} ON ${index.table} USING gin ((${pgIndexed(index)}) gin_trgm_ops)`).execute(db);
}

/**
 * A condition "some indexed column of `table` contains `text`", case-insensitively. `qualifier` is the
 * table name or alias used in the surrounding query (default: the table name).
 */
export function substringMatch(
  db: QueryExecutorProvider,
  index: SubstringIndex,
  text: string,
  qualifier = index.table,
): RawBuilder<SqlBool> {
  const needle = text.trim();
  if (index.accents === 'fold') return accentFoldedMatch(db, index, needle, qualifier);
  // Short before or after folding (NFC composes decomposed Hangul and accents): FTS5 would get no trigram at all.
  const short =
    [...needle].length < MIN_INDEXED_LENGTH || (dialectOf(db) === 'sqlite' && [...foldCase(needle)].length < MIN_INDEXED_LENGTH);
  if (short) {
    const parts = index.columns.map((c) => containsText(db, sql.ref(`${qualifier}.${c}`), needle));
    return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
  }
  if (dialectOf(db) === 'sqlite') {
    const candidates = sql<SqlBool>`${sql.ref(`${qualifier}.${index.idColumn}`)} IN (SELECT rowid FROM ${sql.table(index.name)} WHERE ${sql.table(index.name)} MATCH ${trigramQuery(needle)})`;
    // SQLite's lower() folds ASCII only; an ASCII needle needs no more, and it is much cheaper than a JS function.
    const folded = foldCase(needle);
    const exact = /^[\x00-\x7f]*$/.test(folded)
      ? index.columns.map((c) => sql<SqlBool>`instr(lower(${sql.ref(`${qualifier}.${c}`)}), ${folded}) > 0`)
      : index.columns.map((c) => containsText(db, sql.ref(`${qualifier}.${c}`), needle));
    return sql<SqlBool>`(${candidates} AND (${sql.join(exact, sql` OR `)}))`;
  }
  return sql<SqlBool>`(${sql.raw(pgDocument(index, qualifier))}) ILIKE ${`%${escapeLike(needle)}%`}`;
}

/**
 * 0 for a row where some indexed column contains `text` with its accents as written (case aside), else 1: ordering
 * by it first puts "Montréal" before "Montreal" for the query "montréal" on an index that folds accents.
 */
export function accentExactRank(
  db: QueryExecutorProvider,
  index: SubstringIndex,
  text: string,
  qualifier = index.table,
): RawBuilder<number> {
  const parts = index.columns.map((c) => containsText(db, sql.ref(`${qualifier}.${c}`), text.trim()));
  return sql<number>`CASE WHEN ${sql.join(parts, sql` OR `)} THEN 0 ELSE 1 END`;
}

/** substringMatch for an index that folds accents: the same plan, every comparison on foldAccents forms. */
function accentFoldedMatch(db: QueryExecutorProvider, index: SubstringIndex, needle: string, qualifier: string): RawBuilder<SqlBool> {
  const folded = foldAccents(needle);
  const column = (c: string) => sql.ref(`${qualifier}.${c}`);
  if ([...needle].length < MIN_INDEXED_LENGTH || [...folded].length < MIN_INDEXED_LENGTH) {
    const parts = index.columns.map((c) => containsText(db, column(c), needle, 'fold'));
    return sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
  }
  if (dialectOf(db) === 'sqlite') {
    const fts = sql.table(index.name);
    const candidates = sql<SqlBool>`${column(index.idColumn)} IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${trigramQuery(folded)})`;
    // lower() first: a row whose ASCII letters already match costs no call of the JavaScript fold.
    const exact = index.columns.map((c) =>
      /^[\x00-\x7f]*$/.test(folded)
        ? sql<SqlBool>`(instr(lower(${column(c)}), ${folded}) > 0 OR instr(pdi_fold_accents(${column(c)}), ${folded}) > 0)`
        : sql<SqlBool>`instr(pdi_fold_accents(${column(c)}), ${folded}) > 0`,
    );
    return sql<SqlBool>`(${candidates} AND (${sql.join(exact, sql` OR `)}))`;
  }
  return sql<SqlBool>`(${sql.raw(pgIndexed(index, qualifier))}) ILIKE ${`%${escapeLike(folded)}%`}`;
}

// Six trigrams spread over the text rather than all of them: each extra common trigram lengthens the index walk
// more than it thins the candidates.
const MAX_TRIGRAMS = 6;

/**
 * The trigrams of a folded text that the FTS5 query asks for: all of them, or MAX_TRIGRAMS spread over the whole
 * text so that long queries still constrain every part of it. (In-memory matchers that must find exactly the
 * FTS5 candidates use it too.)
 */
export function queriedTrigrams(folded: string): string[] {
  const chars = [...folded];
  const grams = [...new Set(chars.slice(0, chars.length - 2).map((_, i) => chars.slice(i, i + 3).join('')))];
  return grams.length <= MAX_TRIGRAMS
    ? grams
    : Array.from({ length: MAX_TRIGRAMS }, (_, i) => grams[Math.round((i * (grams.length - 1)) / (MAX_TRIGRAMS - 1))]);
}

/** FTS5 query for rows holding every queried trigram of the text (a superset of the rows containing it). */
function trigramQuery(needle: string): string {
  return queriedTrigrams(foldCase(needle))
    .map((g) => `"${g.replace(/"/g, '""')}"`)
    .join(' AND ');
}

/** The indexed expression on PostgreSQL: the document, accent-folded where the index says so. */
function pgIndexed(index: SubstringIndex, qualifier?: string): string {
  const document = pgDocument(index, qualifier);
  return index.accents === 'fold' ? `pdi_fold_accents(${document})` : document;
}

/** The indexed document on PostgreSQL: columns joined by U+001F so that no match spans two columns. */
function pgDocument(index: SubstringIndex, qualifier?: string): string {
  const q = qualifier ? `${qualifier}.` : '';
  return index.columns.map((c) => `coalesce(${q}${c}, '')`).join(` || E'\\x1f' || `);
}

async function ensurePgTrgm(db: QueryExecutorProvider): Promise<void> {
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
  } catch (error) {
    // Two migrations racing on a fresh server: the loser sees a unique violation; the extension is there.
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}

async function createSqliteTriggers(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  const cols = index.columns.join(', ');
  const newCols = index.columns.map((c) => `new.${c}`).join(', ');
  const oldCols = index.columns.map((c) => `old.${c}`).join(', ');
  const { name, table, idColumn: id } = index;
  await sql
    .raw(`CREATE TRIGGER ${name}_ai AFTER INSERT ON ${table} BEGIN INSERT INTO ${name}(rowid, ${cols}) VALUES (new.${id}, ${newCols}); END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${name}_ad AFTER DELETE ON ${table} BEGIN ` +
        `INSERT INTO ${name}(${name}, rowid, ${cols}) VALUES ('delete', old.${id}, ${oldCols}); END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${name}_au AFTER UPDATE ON ${table} BEGIN ` +
        `INSERT INTO ${name}(${name}, rowid, ${cols}) VALUES ('delete', old.${id}, ${oldCols}); ` +
        `INSERT INTO ${name}(rowid, ${cols}) VALUES (new.${id}, ${newCols}); END`,
    )
    .execute(db);
}

async function dropSqliteTriggers(db: QueryExecutorProvider, index: SubstringIndex): Promise<void> {
  for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`DROP TRIGGER IF EXISTS ${index.name}_${suffix}`).execute(db);
}
