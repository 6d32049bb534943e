// The importer's writing side: batches of agreements completed (dictionary ids, content hash) and written,
// the new texts first, then the agreements as upserts whose conflict clause applies the amendment rule.
import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db } from '../../../core/db/database.ts';
import { insertMany } from '../../../core/db/dialect.ts';
import { GRANTS_TEXTS_TABLE } from '../tables.ts';
import type { GrantsDatabase } from '../tables.ts';
import { completeRows, rowPosition, upsertStatement } from './rows.ts';
import type { RowBatch, UnreadableRow } from './rows.ts';
import { TextDictionary } from './text-dictionary.ts';

const INSERT_TEXT = `INSERT INTO ${GRANTS_TEXTS_TABLE} (id, text) VALUES (?, ?)`;
/** Agreements looked up per query for their stored values. */
const LOOKUP_KEYS = 100;

/**
 * Writes RowBatches: completes their rows (dictionary ids, content hash), writes the new texts, then the
 * agreements. Only the texts of rows that reach a statement enter the dictionary.
 */
export class BatchWriter {
  private readonly trx: Kysely<GrantsDatabase>;
  private readonly db: Db;
  private readonly importVersion: string;
  private readonly statements = new Map<number, string>();
  private readonly dictionary = new TextDictionary();
  private readonly warn: (message: string) => void;

  /** `warn` gets one line for each value a row holds but that could not be read. */
  constructor(trx: Kysely<GrantsDatabase>, db: Db, importVersion: string, warn: (message: string) => void = () => {}) {
    this.trx = trx;
    this.db = db;
    this.importVersion = importVersion;
    this.warn = warn;
  }

  /**
   * A date or type the file holds but could not be read never replaces the value stored for the agreement
   * before this import: the stored one is put back into the row (so an otherwise equal row is counted
   * unchanged). Where none is stored, the value stays null (a type: ''). Either way, a warning.
   */
  private async keepStoredValues(batch: RowBatch, unreadable: UnreadableRow[]): Promise<void> {
    for (let i = 0; i < unreadable.length; i += LOOKUP_KEYS) {
      const part = unreadable.slice(i, i + LOOKUP_KEYS);
      const stored = await this.trx
        .selectFrom('grants_agreements')
        .select(['owner_org', 'reference_number', 'amendment_date', 'agreement_end_date', 'agreement_type', 'recipient_type'])
        .where('import_version', '<>', this.importVersion)
        .where((eb) => eb.or(part.map((u) => eb.and([eb('owner_org', '=', u.owner_org), eb('reference_number', '=', u.reference_number)]))))
        .execute();
      const byKey = new Map(stored.map((r) => [`${r.owner_org}\u0000${r.reference_number}`, r]));
      for (const u of part) {
        const row = byKey.get(`${u.owner_org}\u0000${u.reference_number}`);
        for (const { field, raw } of u.values) {
          // ('' is a type code's "none")
          const value = row?.[field] || null;
          const where = `agreement ${u.owner_org} ${u.reference_number}: ${field} ${JSON.stringify(raw)} could not be read`;
          if (value === null) {
            this.warn(`${where}; stored as ${field.endsWith('_date') ? 'null' : 'empty'}`);
          } else {
            batch.rows[u.row][rowPosition(field)] = value;
            this.warn(`${where}; the stored value is kept`);
          }
        }
      }
    }
  }

  private statement(rows: number): string {
    let text = this.statements.get(rows);
    if (!text) {
      text = upsertStatement(this.db.dialect, rows, this.importVersion);
      this.statements.set(rows, text);
    }
    return text;
  }

  async write(batch: RowBatch): Promise<void> {
    if (batch.unreadable) await this.keepStoredValues(batch, batch.unreadable);
    const texts = completeRows(batch, this.dictionary);
    // SQLite: one-row statements (see Db.runEach; a prepared statement run per row costs less than building
    // Kysely's multi-row inserts); PostgreSQL: the batch in one statement (a round trip a row would cost more
    // than the row)
    if (this.db.runEach) {
      this.db.runEach(
        INSERT_TEXT,
        texts.map((t) => [t.id, t.text]),
      );
      this.db.runEach(this.statement(1), batch.rows);
    } else {
      await insertMany(this.trx, 'grants_texts', texts);
      await this.trx.executeQuery(CompiledQuery.raw(this.statement(batch.rows.length), batch.rows.flat()));
    }
  }
}
