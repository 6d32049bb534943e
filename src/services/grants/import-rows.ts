// The importer's rows, database-free: records → batches of statement parameters, ready to bind. Pure and
// synchronous, so the CSV reader's worker thread can run it beside the thread that writes (import.ts).
//  - Amendments: rows of an agreement already waiting are merged by the amendment rule (`supersedes`) before a
//    batch is cut, so one statement never touches an agreement twice (PostgreSQL refuses that); merging across
//    batches is the upsert's own WHERE clause.
//  - The text dictionary: each distinct searched text gets an id the first time a stored agreement uses it
//    (`completeRows`, on the writing thread).
import { dbBool } from '../../core/db/dialect.ts';
import { ownCopy } from '../../core/source-text.ts';
import type { DialectName } from '../../core/db/dialect.ts';
import { amendmentKey, supersedes } from './source/index.ts';
import type { GrantRecord } from './source/index.ts';
import { DATA_COLUMNS, GRANTS_TABLE, SEARCHED_COLUMNS, STORED_COLUMNS, TEXT_ID_COLUMNS } from './tables.ts';
import type { AgreementTracker } from './import-aggregates.ts';
import type { DataColumn } from './tables.ts';

/** Agreements per batch (and per upsert statement on PostgreSQL: PARAMS_PER_ROW (31) parameters a row stay below its limit). */
export const BATCH_ROWS = 500;

/**
 * A batch row's values: the stored data columns, then the searched texts (replaced by their dictionary ids
 * in `completeRows`), the content hash and, on SQLite, the id. (Each data column is the GrantRecord field of
 * the same name: checked by the compiler here.)
 */
export const ROW_COLUMNS: readonly (DataColumn & keyof GrantRecord)[] = [...STORED_COLUMNS, ...SEARCHED_COLUMNS.map((c) => c.column)];

/**
 * One statement's worth of agreements, each row PARAMS_PER_ROW values (SQLite: and the id) in the order of
 * upsertStatement (ROW_COLUMNS); the text ids and the content hash are filled by `completeRows`.
 */
export interface RowBatch {
  rows: unknown[][];
}

export const PARAMS_PER_ROW = ROW_COLUMNS.length + 1;
/** Where the searched texts (then their ids) sit in a row, in SEARCHED_COLUMNS order. */
const TEXT_SLOTS = SEARCHED_COLUMNS.map((_, k) => STORED_COLUMNS.length + k);
const HASH_SLOT = ROW_COLUMNS.length;
/** The row position of each data column (DATA_COLUMNS order): the content hash reads the values in that order. */
const DATA_POSITIONS = Uint8Array.from(DATA_COLUMNS, (c) => ROW_COLUMNS.indexOf(c));

/** A row of the text dictionary. */
export type DictionaryText = { id: number; text: string };

/** Where the searched texts sit among the data columns: the text's number (1-based), 0 for another column. */
const TEXT_NUMBER_OF_COLUMN = new Uint8Array(DATA_COLUMNS.length);
SEARCHED_COLUMNS.forEach(({ column }, j) => (TEXT_NUMBER_OF_COLUMN[DATA_COLUMNS.indexOf(column)] = j + 1));
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
      row[TEXT_SLOTS[j]] = dictionary.idOf(row[TEXT_SLOTS[j]] as string);
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
function hasIdParameter(dialect: DialectName): boolean {
  return dialect === 'sqlite';
}

/** A 32-bit finaliser: spreads every input bit over the whole word. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

// Three 32-bit multiplicative hashes of UTF-16 code units (distinct odd multipliers and seeds), kept in
// `lanes` so that a text or a whole row can be fed through them without allocating.
const lanes = new Int32Array(3);

function startLanes(): void {
  lanes[0] = 0x811c9dc5;
  lanes[1] = 0x9e3779b9;
  lanes[2] = 0x27d4eb2f;
}

function feedUnit(u: number): void {
  lanes[0] = Math.imul(lanes[0] ^ u, 0x01000193);
  lanes[1] = Math.imul(lanes[1] ^ u, 0x5bd1e995);
  lanes[2] = Math.imul(lanes[2] ^ u, 0xcc9e2d51);
}

function feedText(text: string): void {
  let a = lanes[0];
  let b = lanes[1];
  let c = lanes[2];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ u, 0x5bd1e995);
    c = Math.imul(c ^ u, 0xcc9e2d51);
  }
  lanes[0] = a;
  lanes[1] = b;
  lanes[2] = c;
}

/** A text's fingerprint into `out`: a 64-bit key (out[0] low, out[1] high word) and a 32-bit check. */
export type Fingerprinter = (text: string, out: Uint32Array) => void;

const fingerprint: Fingerprinter = (text, out) => {
  startLanes();
  feedText(text);
  out[0] = mix32(lanes[0]);
  out[1] = mix32(lanes[1]);
  out[2] = mix32(lanes[2] ^ text.length);
};

// Markers fed between and for values: above every UTF-16 code unit, so no text can imitate them.
const END_OF_VALUE = 0x10001;
const NULL_VALUE = 0x10002;
const BASE64URL = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', (ch) => ch.charCodeAt(0));

/**
 * The content hash of a row's first `count` values (96 bits in 16 base64url characters): what an import
 * compares to tell an unchanged agreement from an updated one. With `prints`, the values are the data
 * columns (DATA_COLUMNS order; the k-th at `positions[k]` when given) and the searched texts' columns enter as
 * their fingerprints (the k-th text's at 3k, 3k + 1, 3k + 2). Not cryptographic, and need not be:
 * two different rows of one agreement agreeing on 96 bits would only count an update as unchanged (the row is
 * written either way). A sha1 of the joined values cost the writing thread 1.3 s for 400,000 rows; this
 * 0.5 s, allocating only its result. (Rows stored before it carry sha1 hashes: the first import after the
 * change counts them as updated.)
 */
export function rowHash(values: readonly unknown[], count: number, prints?: Uint32Array, positions?: Uint8Array): string {
  startLanes();
  for (let k = 0; k < count; k++) {
    const value = values[positions ? positions[k] : k];
    const text = prints ? TEXT_NUMBER_OF_COLUMN[k] : 0;
    if (text > 0) {
      for (let w = 3 * text - 3; w < 3 * text; w++) feedUnit(prints![w]);
    } else if (typeof value === 'string') feedText(value);
    else if (value === null || value === undefined) feedUnit(NULL_VALUE);
    else feedText(String(value));
    feedUnit(END_OF_VALUE);
  }
  // 16 base64url characters, six bits each (one string built at once: Number#toString cost a third as much as the hashing)
  const a = mix32(lanes[0]);
  const b = mix32(lanes[1]);
  const c = mix32(lanes[2]);
  const d = BASE64URL;
  return String.fromCharCode(
    d[a & 63],
    d[(a >>> 6) & 63],
    d[(a >>> 12) & 63],
    d[(a >>> 18) & 63],
    d[(a >>> 24) & 63],
    d[((a >>> 30) | (b << 2)) & 63],
    d[(b >>> 4) & 63],
    d[(b >>> 10) & 63],
    d[(b >>> 16) & 63],
    d[(b >>> 22) & 63],
    d[((b >>> 28) | (c << 4)) & 63],
    d[(c >>> 2) & 63],
    d[(c >>> 8) & 63],
    d[(c >>> 14) & 63],
    d[(c >>> 20) & 63],
    d[(c >>> 26) & 63],
  );
}

/**
 * The text dictionary of one import: each distinct searched text gets an id the first time a stored
 * agreement uses it. The dictionary is rebuilt by every import (it starts empty), so it holds the texts of
 * the file's current agreements only.
 *
 * Memory: holding the distinct texts as keys cost 86 MB of strings on the 1.3-million-row file (and the
 * heap's growth around them pushed the import past 600 MB), so a text is known by a 96-bit fingerprint
 * instead: a 64-bit key in an open-addressing table of typed arrays (a Map of 53-bit number keys took 1.6 times
 * as long: each key a boxed number), and a second, independent 32-bit hash and the length checked on every
 * hit. A hit whose check differs is a collision of the key: that text is then kept exactly, in a map of its
 * own. Two distinct texts agreeing on all 96 bits and the length is the only way to confuse them: about
 * 10⁻¹⁷ for a million texts.
 */
export class TextDictionary {
  private readonly fingerprintOf: Fingerprinter;
  /** Slot → id (0: empty); linear probing, at most half full. */
  private table = new Int32Array(1 << 16);
  /** Texts whose key collided with another text's. */
  private readonly exact = new Map<string, number>();
  // by id: the key's two words, the check and the length
  private keyLow = new Uint32Array(1 << 15);
  private keyHigh = new Uint32Array(1 << 15);
  private checks = new Uint32Array(1 << 15);
  private lengths = new Uint32Array(1 << 15);
  private count = 0;
  private pending: DictionaryText[] = [];
  /** The fingerprint (key low, key high, check) of the text of the last `idOf`. */
  readonly lastPrint = new Uint32Array(3);

  private readonly keepTexts: boolean;

  /**
   * `fingerprintOf` is for tests (a colliding one); the default is `fingerprint`. Without `keepTexts`, the
   * dictionary only numbers texts (`takeNew` gives nothing).
   */
  constructor(fingerprintOf: Fingerprinter = fingerprint, keepTexts = true) {
    this.fingerprintOf = fingerprintOf;
    this.keepTexts = keepTexts;
  }

  idOf(text: string): number {
    const print = this.lastPrint;
    this.fingerprintOf(text, print);
    const low = print[0];
    const high = print[1];
    const mask = this.table.length - 1;
    let slot = low & mask;
    for (let id = this.table[slot]; id !== 0; id = this.table[slot]) {
      if (this.keyLow[id] === low && this.keyHigh[id] === high) {
        if (this.checks[id] === print[2] && this.lengths[id] === text.length) return id;
        // the key of another text
        const known = this.exact.get(text);
        if (known !== undefined) return known;
        const added = this.add(text);
        // kept for the whole import: not a slice holding a parser chunk alive (the in-thread reader)
        this.exact.set(ownCopy(text), added);
        return added;
      }
      slot = (slot + 1) & mask;
    }
    const id = this.add(text);
    this.table[slot] = id;
    if (2 * this.count > this.table.length) this.growTable();
    return id;
  }

  private add(text: string): number {
    const id = ++this.count;
    if (id >= this.checks.length) {
      const grow = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keyLow = grow(this.keyLow);
      this.keyHigh = grow(this.keyHigh);
      this.checks = grow(this.checks);
      this.lengths = grow(this.lengths);
    }
    this.keyLow[id] = this.lastPrint[0];
    this.keyHigh[id] = this.lastPrint[1];
    this.checks[id] = this.lastPrint[2];
    this.lengths[id] = text.length;
    if (this.keepTexts) this.pending.push({ id, text }); // written with the batch that brought it (takeNew)
    return id;
  }

  private growTable(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    const mask = this.table.length - 1;
    for (const id of old) {
      if (id === 0) continue;
      let slot = this.keyLow[id] & mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & mask;
      this.table[slot] = id;
    }
  }

  get size(): number {
    return this.count;
  }

  /** The texts added since the last call. */
  takeNew(): DictionaryText[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }
}

/** An agreement waiting in a batch: its current record, and its id when the tracker gives ids. */
interface Waiting {
  record: GrantRecord;
  id: number | null;
}

/**
 * Records in file order → RowBatches of BATCH_ROWS agreements (the last one smaller). On SQLite a row ends
 * with the agreement's id: the `tracker`'s (a first import: import-aggregates.ts), or null (SQLite numbers it).
 */
export class AgreementBatcher {
  /** By agreement: its id when the tracker numbers agreements (a number hashes faster), else its key. */
  private pending = new Map<string | number, Waiting>();
  private readonly trueValue: boolean | number;
  private readonly falseValue: boolean | number;
  private readonly withId: boolean;
  private readonly tracker: AgreementTracker | null;

  constructor(dialect: DialectName, tracker: AgreementTracker | null = null) {
    this.trueValue = dbBool(dialect, true);
    this.falseValue = dbBool(dialect, false);
    this.withId = hasIdParameter(dialect);
    if (tracker && !this.withId) throw new Error(`${dialect}: the importer does not give agreements their ids`);
    this.tracker = tracker;
  }

  /** A batch when BATCH_ROWS agreements are waiting, else null. */
  add(record: GrantRecord): RowBatch | null {
    const id = this.tracker ? this.tracker.add(record) : null;
    const key = id ?? amendmentKey(record);
    const current = this.pending.get(key);
    if (!current) this.pending.set(key, { record, id });
    else if (supersedes(record, current.record)) current.record = record;
    return this.pending.size >= BATCH_ROWS ? this.cut() : null;
  }

  /** The agreements still waiting (at the end of the file), or null. */
  finish(): RowBatch | null {
    return this.pending.size > 0 ? this.cut() : null;
  }

  private cut(): RowBatch {
    const winners = this.pending;
    this.pending = new Map();
    const rows: unknown[][] = [];
    for (const { record, id } of winners.values()) {
      const row: unknown[] = [];
      for (const column of ROW_COLUMNS) {
        const value = record[column];
        row.push(typeof value === 'boolean' ? (value ? this.trueValue : this.falseValue) : value);
      }
      row.push(''); // the content hash (completeRows)
      if (this.withId) row.push(id);
      rows.push(row);
    }
    return { rows };
  }
}
