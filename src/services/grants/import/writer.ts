// The importer's writing side: batches of agreements completed (dictionary ids, content hash) and written,
// the new texts first, then the agreements as upserts whose conflict clause applies the amendment rule.
import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db } from '../../../core/db/database.ts';
import { insertMany } from '../../../core/db/dialect.ts';
import { GRANTS_TEXTS_TABLE } from '../tables.ts';
import type { GrantsDatabase } from '../tables.ts';
import { completeRows, upsertStatement } from './rows.ts';
import type { RowBatch } from './rows.ts';
import { TextDictionary } from './text-dictionary.ts';

const INSERT_TEXT = `INSERT INTO ${GRANTS_TEXTS_TABLE} (id, text) VALUES (?, ?)`;

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

  constructor(trx: Kysely<GrantsDatabase>, db: Db, importVersion: string) {
    this.trx = trx;
    this.db = db;
    this.importVersion = importVersion;
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
