// A process that imports a grants CSV and stops dead in the middle of it, for tests that kill it there
// (SIGKILL). Usage: node import-child.ts <database url> <csv>. When every row is written, inside the
// import's transaction, it prints "stopped in <stage>" and blocks until it is killed.
import fs from 'node:fs';
import { sql } from 'kysely';
import { openDatabase } from '../../../src/core/db/database.ts';
import { importGrantsCsv } from '../../../src/services/grants/import/importer.ts';

const [url, file] = process.argv.slice(2);
const db = openDatabase(url);
// A page cache of 64 pages: the rows written spill into the database file before the commit, as those of a
// large import do, so that a kill leaves pages to roll back.
if (db.dialect === 'sqlite') await sql`PRAGMA cache_size = 64`.execute(db.kysely);
await importGrantsCsv(db, file, {
  guard: { allowShrink: true },
  log: (stage) => {
    if (stage !== 'counting and deleting') return;
    fs.writeSync(1, `stopped in ${stage}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // blocks this thread for good
  },
});
fs.writeSync(1, 'finished (the test expected to kill the import before)\n');
