// The importer's rows, database-free: the layout of a batch of agreements ready to bind, completed with the
// dictionary ids of their texts and their content hashes (`completeRows`, on the writing thread), and the
// upsert statement that writes them. Pure and synchronous, so the CSV reader's worker thread can cut
// batches (batcher.ts) beside the thread that writes (writer.ts).
import type { DialectName } from '../../../core/db/dialect.ts';
import { DATA_COLUMNS, GRANTS_TABLE, SEARCHED_COLUMNS, STORED_COLUMNS, TEXT_ID_COLUMNS } from '../tables.ts';
import type { DataColumn } from '../tables.ts';
import { rowHash } from './hashing.ts';
import type { DictionaryText, TextDictionary } from './text-dictionary.ts';
import type { UnreadableValue } from '../source/index.ts';

/** Agreements per batch (and per upsert statement on PostgreSQL: PARAMS_PER_ROW (31) parameters a row stay below its limit). */
export const BATCH_ROWS = 500;

/**
 * A batch row's values: the stored data columns, then the searched texts (replaced by their dictionary ids
 * in `completeRows`), the content hash and, on SQLite, the id. (Each data column is the GrantRecord field of
 * the same name: tables.ts.)
 */
export const ROW_COLUMNS: readonly DataColumn[] = [...STORED_COLUMNS, ...SEARCHED_COLUMNS.map((c) => c.column)];

/**
 * One statement's worth of agreements, each row PARAMS_PER_ROW values (SQLite: and the id) in the order of
 * upsertStatement (ROW_COLUMNS); the text ids and the content hash are filled by `completeRows`.
 */
export interface RowBatch {
  rows: unknown[][];
  /** The rows holding values that could not be read: the writer keeps stored values for them. */
  unreadable?: UnreadableRow[];
}

export interface UnreadableRow {
  /** The row's index in `rows`. */
  row: number;
  owner_org: string;
  reference_number: string;
  values: UnreadableValue[];
}

/** The row position of a data column. */
export function rowPosition(column: DataColumn): number {
  return ROW_COLUMNS.indexOf(column);
}

export const PARAMS_PER_ROW = ROW_COLUMNS.length + 1;
/** Where the searched texts (then their ids) sit in a row, in SEARCHED_COLUMNS order. */
const TEXT_SLOTS = SEARCHED_COLUMNS.map((_, k) => STORED_COLUMNS.length + k);
const HASH_SLOT = ROW_COLUMNS.length;
/** The row position of each data column (DATA_COLUMNS order): the content hash reads the values in that order. */
const DATA_POSITIONS = Uint8Array.from(DATA_COLUMNS, (c) => ROW_COLUMNS.indexOf(c));

const textPrints = new Uint32Array(SEARCHED_COLUMNS.length * 3);

/**
 * Completes a batch's rows: the text-id slots from `dictionary`, and the content hash (of the record's
 * values, not of the dictionary ids, which another file order would change; a searched text enters it as the
 * dictionary's fingerprint of it, which is computed anyway). Returns the texts the dictionary added. Done by
 * the thread that writes (the reading thread is the busier one).
 */
export function completeRows(batch: RowBatch, dictionary: TextDictionary): DictionaryText[] {
  for (const row of batch.rows) {
    for (let j = 0; j < TEXT_SLOTS.length; j++) {
      row[TEXT_SLOTS[j]] = dictionary.idOf(row[TEXT_SLOTS[j]] as string); // (the slot holds the text until here)
      textPrints.set(dictionary.lastPrint, 3 * j);
    }
    row[HASH_SLOT] = rowHash(row, DATA_COLUMNS.length, textPrints, DATA_POSITIONS);
  }
  return dictionary.takeNew();
}

/**
 * The conditional upsert of `rows` agreements (parameters: the rows one after another) by the import
 * `importVersion` (a literal of the statement: one parameter a row fewer to bind); the later row wins where
 * `supersedes` says so.
 */
export function upsertStatement(dialect: DialectName, rows: number, importVersion: string): string {
  const stored = [...STORED_COLUMNS, ...TEXT_ID_COLUMNS];
  const withId = hasIdParameter(dialect);
  const columns = [...stored, 'content_hash', ...(withId ? ['id'] : []), 'previous_hash', 'import_version'];
  const version = `'${importVersion.replaceAll("'", "''")}'`;
  let p = 0;
  const placeholder = dialect === 'sqlite' ? () => '?' : () => `$${++p}`;
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < PARAMS_PER_ROW + (withId ? 1 : 0); c++) cells.push(placeholder());
    cells.push('NULL', version); // previous_hash, import_version
    tuples.push(`(${cells.join(',')})`);
  }
  const t = GRANTS_TABLE;
  // not the key's own columns (equal by the conflict): assigning them would rewrite the key's index entry
  const set = stored.filter((c) => c !== 'owner_org' && c !== 'reference_number').map((c) => `${c} = excluded.${c}`);
  set.push(
    'content_hash = excluded.content_hash',
    // the values before this import touched the row: what "unchanged" is measured against
    `previous_hash = CASE WHEN ${t}.import_version <> excluded.import_version THEN ${t}.content_hash ELSE ${t}.previous_hash END`,
    'import_version = excluded.import_version',
  );
  // The first row of this import for an agreement replaces what an earlier import stored; later rows of the
  // same import replace it when they supersede it (higher amendment_number; equal: later amendment_date,
  // a date beats none; still equal: the later row). '' sorts before every date, so coalesce says "no date".
  const wins =
    `${t}.import_version <> excluded.import_version` +
    ` OR excluded.amendment_number > ${t}.amendment_number` +
    ` OR (excluded.amendment_number = ${t}.amendment_number AND coalesce(excluded.amendment_date, '') >= coalesce(${t}.amendment_date, ''))`;
  return (
    `INSERT INTO ${t} (${columns.join(', ')}) VALUES ${tuples.join(',')} ` +
    `ON CONFLICT (owner_org, reference_number) DO UPDATE SET ${set.join(', ')} WHERE ${wins}`
  );
}

/**
 * Whether a row ends with the agreement's id (a conflict keeps the stored one). SQLite only: there a null
 * id is numbered by the table; a PostgreSQL identity column would take a null as a value, and its sequence
 * would not follow given ids.
 */
export function hasIdParameter(dialect: DialectName): boolean {
  return dialect === 'sqlite';
}
