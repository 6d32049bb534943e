// Records in file order → batches of agreements ready to bind (rows.ts). Beside the tracker (tracker.ts), which
// numbers the agreements of a first import: the batcher writes those ids into the rows.
//  - Amendments: rows of an agreement already waiting are merged by the amendment rule (`supersedes`) before a
//    batch is cut, so one statement never touches an agreement twice (PostgreSQL refuses that); merging across
//    batches is the upsert's own WHERE clause.
import { dbBool } from '../../../core/db/dialect.ts';
import type { DialectName } from '../../../core/db/dialect.ts';
import { amendmentKey, supersedes } from '../source/index.ts';
import type { GrantRecord } from '../source/index.ts';
import { BATCH_ROWS, ROW_COLUMNS, hasIdParameter } from './rows.ts';
import type { RowBatch, UnreadableRow } from './rows.ts';
import type { AgreementTracker } from './tracker.ts';

/** An agreement waiting in a batch: its current record, and its id when the tracker gives ids. */
interface Waiting {
  record: GrantRecord;
  id: number | null;
}

/**
 * Records in file order → RowBatches of BATCH_ROWS agreements (the last one smaller). On SQLite a row ends
 * with the agreement's id: the `tracker`'s (a first import: tracker.ts), or null (SQLite numbers it).
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
    const unreadable: UnreadableRow[] = [];
    for (const { record, id } of winners.values()) {
      if (record.unreadable) {
        unreadable.push({
          row: rows.length,
          owner_org: record.owner_org,
          reference_number: record.reference_number,
          values: record.unreadable,
        });
      }
      const row: unknown[] = [];
      for (const column of ROW_COLUMNS) {
        const value = record[column];
        row.push(typeof value === 'boolean' ? (value ? this.trueValue : this.falseValue) : value);
      }
      row.push(''); // the content hash (completeRows)
      if (this.withId) row.push(id);
      rows.push(row);
    }
    return unreadable.length > 0 ? { rows, unreadable } : { rows };
  }
}
