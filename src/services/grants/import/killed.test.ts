// An import killed with SIGKILL in the middle of its transaction, on SQLite and PostgreSQL: the
// stored data and its version are as before; on SQLite the process left the file in rollback-journal mode
// with a hot journal (the import had switched out of WAL), and the next open finds it readable, intact and
// back in WAL mode; the next import marks the killed run aborted.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { tempDir, writeGenerated } from '../../../../test/support/grants/files.ts';
import { openDatabase } from '../../../core/db/database.ts';
import type { Db } from '../../../core/db/database.ts';
import { listDataVersions } from '../../../core/db/datasets.ts';
import { migrateToLatest } from '../../../core/db/migrations.ts';
import { grantsService } from '../service.ts';
import type { GrantsTables } from '../tables.ts';
import { importGrantsCsv } from './importer.ts';

const CHILD = path.resolve(import.meta.dirname, '../../../../test/support/grants/import-child.ts');

/** The journal mode written in an SQLite file's header (bytes 18–19: 1 rollback journal, 2 WAL). */
function headerJournalMode(file: string): 'rollback journal' | 'wal' {
  const header = Buffer.alloc(20);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 20, 0);
  } finally {
    fs.closeSync(fd);
  }
  return header[18] === 2 ? 'wal' : 'rollback journal';
}

/** Runs the import child until it says it stopped mid-import; rejects when it ends first. */
function startImport(url: string, file: string) {
  const child = spawn(process.execPath, [CHILD, url, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stopped = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('stopped in')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code, signal) => reject(new Error(`the import child ended (${code ?? signal}) before stopping: ${output}`)));
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return { child, stopped, exited };
}

describeEachDatabase(
  'grants import killed mid-transaction',
  (t) => {
    it('leaves the stored data as it was, the file readable and back in WAL on the next open, the run aborted', async () => {
      const dir = tempDir();
      let db: Db | null = null;
      let run: ReturnType<typeof startImport> | null = null;
      try {
        const first = await writeGenerated(dir, 1500, 'killed-first', 'first.csv');
        const second = await writeGenerated(dir, 3000, 'killed-second', 'second.csv');
        // SQLite: a file of its own, which the child has to itself (the import leaves WAL only when alone on it)
        const file = path.join(dir, 'killed.sqlite');
        const url = t.kind === 'sqlite' ? `sqlite:${file}` : t.url;
        const open = async () => {
          const opened = t.kind === 'sqlite' ? openDatabase(url) : t.db;
          if (t.kind === 'sqlite') await migrateToLatest(opened.kysely, grantsService.migrations);
          return opened;
        };
        const close = async () => {
          if (t.kind === 'sqlite') await db?.close();
          db = null;
        };
        db = await open();
        const firstReport = await importGrantsCsv(db, first);
        const tables = (d: Db) => d.kysely.withTables<GrantsTables>();
        const snapshot = async (d: Db) => ({
          agreements: await tables(d).selectFrom('grants_agreements').select(['id', 'content_hash']).orderBy('id').execute(),
          versions: await listDataVersions(d.kysely, 'grants'),
        });
        const before = await snapshot(db);
        assert.equal(before.agreements.length, firstReport.inserted);
        await close();

        run = startImport(url, second);
        await run.stopped;
        if (t.kind === 'sqlite') {
          assert.equal(headerJournalMode(file), 'rollback journal', 'the import switched out of WAL');
          assert.ok(fs.statSync(`${file}-journal`).size > 0, 'the transaction has a journal');
        }
        run.child.kill('SIGKILL');
        assert.equal(await run.exited, 'SIGKILL');
        if (t.kind === 'sqlite') {
          assert.equal(headerJournalMode(file), 'rollback journal', 'the killed process left the file out of WAL');
          assert.ok(fs.existsSync(`${file}-journal`), 'with a hot journal');
        }

        db = await open();
        if (t.kind === 'sqlite') {
          const mode = (await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(db.kysely)).rows[0].journal_mode;
          assert.equal(mode, 'wal');
          assert.equal(headerJournalMode(file), 'wal');
          const check = (await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(db.kysely)).rows;
          assert.deepEqual(check, [{ integrity_check: 'ok' }]);
        }
        assert.deepEqual(await snapshot(db), before, 'the stored agreements and their version are as before the killed import');
        const killedRun = await db.kysely
          .selectFrom('import_runs')
          .select(['id', 'status'])
          .where('service', '=', 'grants')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        assert.equal(killedRun.status, 'running', 'nothing marked the run (its process could not)');

        const next = await importGrantsCsv(db, second, { guard: { allowShrink: true } });
        assert.ok(next.inserted + next.updated > 0, JSON.stringify(next));
        assert.notDeepEqual((await snapshot(db)).versions, before.versions);
        const runs = await db.kysely.selectFrom('import_runs').select(['id', 'status']).where('id', '=', killedRun.id).execute();
        assert.deepEqual(runs, [{ id: killedRun.id, status: 'aborted' }]);
      } finally {
        const child = run?.child;
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        if (t.kind === 'sqlite') await (db as Db | null)?.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  },
  { migrations: grantsService.migrations },
);
