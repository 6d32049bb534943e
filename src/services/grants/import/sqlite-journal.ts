// The SQLite settings a grants import runs under (neither can change inside a transaction):
//  - temporary storage (sorts) spills to files instead of growing the process by hundreds of MB;
//  - when no other connection has the database open, the import writes with a rollback journal instead of
//    the WAL: new pages then need no journal at all, where the WAL writes every page twice. SQLite refuses the
//    switch while another connection has the
//    file open (a running server, say); the import then writes through the WAL, and readers keep the old
//    snapshot until it commits.
// A process killed meanwhile leaves the file in rollback-journal mode with a hot journal: the next
// connection rolls the journal back (the old data, intact), and pdi's openDatabase puts the file back in WAL
// mode (importer.test.ts kills an importing process to show it).
import { sql } from 'kysely';
import type { Db } from '../../../core/db/database.ts';

export async function withSqliteImportSettings<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const previousTemp = (await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(db.kysely)).rows[0]?.temp_store ?? 0;
  await sql`PRAGMA temp_store = FILE`.execute(db.kysely);
  const journalMode = async (set?: string): Promise<string> => {
    const rows = (await sql.raw<{ journal_mode: unknown }>(`PRAGMA journal_mode${set ? ` = ${set}` : ''}`).execute(db.kysely)).rows;
    return String(rows[0]?.journal_mode ?? '').toLowerCase();
  };
  let switched = false;
  if ((await journalMode()) === 'wal') {
    // another connection on the file makes the switch fail with "database is locked": at once, not after the
    // connection's busy timeout
    const timeout = Number((await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(db.kysely)).rows[0]?.timeout ?? 0);
    await sql`PRAGMA busy_timeout = 0`.execute(db.kysely);
    try {
      switched = (await journalMode('DELETE')) === 'delete';
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    } finally {
      await sql.raw(`PRAGMA busy_timeout = ${timeout}`).execute(db.kysely);
    }
  }
  try {
    return await work();
  } finally {
    if (switched) await journalMode('WAL');
    await sql.raw(`PRAGMA temp_store = ${Number(previousTemp)}`).execute(db.kysely);
  }
}
