// E's imports, on SQLite and PostgreSQL, against files whose values cannot be read: a required value
// (RetractionDate; a panel row's democracy_index, publications or retractions) that cannot be read makes its
// row unreadable, so the guard refuses a file with more than 5% of them, and a paper or country-year the file
// names but cannot read keeps its stored copy; a secondary value that cannot be read (OriginalPaperDate, a
// covariate) is null with a warning where the row is new and never replaces a stored value. `sync retraction`
// runs the same importer, so it inherits both.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { testContext } from '../../../test/support/app.ts';
import { simpleRow, tempDir, writeCsv, writeRwCsv } from '../../../test/support/retraction/fixtures.ts';
import type { RwRow } from '../../../test/support/retraction/fixtures.ts';
import { startSourceServer } from '../../../test/support/sync/source-server.ts';
import type { SourceServer } from '../../../test/support/sync/source-server.ts';
import { ImportRefusedError } from '../../core/import.ts';
import { Random } from '../../core/random.ts';
import { runSync } from '../../core/sync/run.ts';
import { importPanel, importRetractionWatch } from './import.ts';
import { retractionService } from './service.ts';
import { retractionSync } from './sync.ts';
import { retractionDb } from './tables.ts';

const PAPERS = 40;
/** Distinct dates per paper, so that a date moved from one paper to another would show. */
const rowOf = (id: number, overrides: RwRow = {}) =>
  simpleRow(id, {
    RetractionDate: `${(id % 12) + 1}/${(id % 27) + 1}/2021 0:00`,
    OriginalPaperDate: `${(id % 12) + 1}/${(id % 27) + 1}/2015 0:00`,
    ...overrides,
  });
/** The same day as DD.MM.YYYY, a form the importer does not read. */
const dotted = (usDate: string) => {
  const [m, d, y] = usDate.split(' ')[0].split('/');
  return `${d.padStart(2, '0')}.${m.padStart(2, '0')}.${y}`;
};

describeEachDatabase(
  'retraction imports never replace a stored value by one they could not read',
  (t) => {
    let dir: string;
    let server: SourceServer;
    const db = () => retractionDb(t.db);
    const dates = async () =>
      (
        await db()
          .selectFrom('retraction_papers')
          .select(['record_id', 'retraction_date', 'original_paper_date', 'title'])
          .orderBy('record_id')
          .execute()
      ).map((r) => `${r.record_id} ${r.retraction_date} ${r.original_paper_date} ${r.title}`);
    const rows = () => Array.from({ length: PAPERS }, (_, i) => rowOf(i + 1));

    before(async () => {
      dir = tempDir('unreadable');
      server = await startSourceServer();
      await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'good.csv'), rows()));
    });
    after(async () => {
      await server?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a file with every date as DD.MM.YYYY, and one with 30% of its rows spoilt; the stored dates stay', async () => {
      const stored = await dates();
      assert.ok(stored.every((s) => !s.includes('null')));
      const everyDate = rows().map((r) => ({
        ...r,
        RetractionDate: dotted(r.RetractionDate!),
        OriginalPaperDate: dotted(r.OriginalPaperDate!),
      }));
      const spoilt = rows().map((r, i) => (i % 10 < 3 ? { ...r, RetractionDate: dotted(r.RetractionDate!) } : r));
      for (const [name, file] of [
        ['every date', writeRwCsv(path.join(dir, 'dotted.csv'), everyDate)],
        ['30% spoilt', writeRwCsv(path.join(dir, 'spoilt.csv'), spoilt)],
      ] as const) {
        await assert.rejects(importRetractionWatch(t.db, file), (error: Error) => {
          assert.ok(error instanceof ImportRefusedError, `${name}: ${error.message}`);
          assert.match(error.message, /could not be read/);
          return true;
        });
        assert.deepEqual(await dates(), stored, name);
      }
    });

    it('under the limit, keeps the stored copy of a paper whose RetractionDate cannot be read, and a stored OriginalPaperDate', async () => {
      const stored = await dates();
      const file: RwRow[] = rows().map((r) => ({ ...r, Title: `${r.Title} (revised)` }));
      file[0] = { ...file[0], RetractionDate: '31.12.2022' }; // paper 1: unreadable row
      file[1] = { ...file[1], OriginalPaperDate: 'spring 2015' }; // paper 2: a secondary value unread
      file.push(rowOf(PAPERS + 1, { OriginalPaperDate: '2015/13/45' })); // a new paper with an unreadable secondary value
      const report = await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'few.csv'), file));
      assert.deepEqual(
        [report.unreadable, report.skip_reasons, report.deleted, report.inserted, report.updated],
        [1, { 'unreadable RetractionDate': 1 }, 0, 1, PAPERS - 1],
      );
      const now = await dates();
      assert.equal(
        now.find((s) => s.startsWith('1 ')),
        stored.find((s) => s.startsWith('1 ')),
        'paper 1 as stored, title included',
      );
      const [, retraction2, original2] = now.find((s) => s.startsWith('2 '))!.split(' ');
      assert.deepEqual(
        [retraction2, original2],
        stored
          .find((s) => s.startsWith('2 '))!
          .split(' ')
          .slice(1, 3),
      );
      assert.match(
        now.find((s) => s.startsWith(`${PAPERS + 1} `))!,
        new RegExp(`^${PAPERS + 1} 2021-\\d\\d-\\d\\d null `),
      );
      assert.ok(report.warning_samples.some((w) => /record 1: RetractionDate "31\.12\.2022" is not a date; row skipped/.test(w)));
      assert.ok(report.warning_samples.some((w) => /record 2: OriginalPaperDate "spring 2015" is not a date; .*stored date kept/.test(w)));
      assert.ok(report.warning_samples.some((w) => /1 paper\(s\) whose row could not be read keep their stored copy/.test(w)));
    });

    it('sync retraction refuses a spoilt file the same way, and keeps the stored dates', async () => {
      const stored = await dates();
      const ctx = testContext(retractionService, t.db, {
        dataDir: dir,
        env: { ...process.env, PDI_SYNC_URL_RETRACTION: server.url('/retraction_watch.csv') },
      });
      const body = fs.readFileSync(
        writeRwCsv(
          path.join(dir, 'sync.csv'),
          rows().map((r) => ({ ...r, RetractionDate: dotted(r.RetractionDate!) })),
        ),
      );
      server.put('/retraction_watch.csv', { body, contentType: 'text/csv' });
      const report = await runSync(ctx, retractionService, retractionSync, {
        download: { retries: 1, baseDelayMs: 5, random: new Random(3) },
      });
      assert.equal(report.result, 'refused');
      assert.match(report.files[0].error ?? '', /40 of the 40 rows read could not be read/);
      assert.deepEqual(await dates(), stored);
    });

    it('panel: refuses unreadable required values over the limit, keeps the stored row and stored covariates under it', async () => {
      const header = ['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions', 'gdp'];
      const countries = ['Chile', 'Norway', 'Kenya', 'Peru', 'Japan', 'Ghana'];
      const good = countries.flatMap((country, c) =>
        [2015, 2016, 2017, 2018, 2019].map((year) => [country, '', '', year, (c + year) % 9, 1000 + year, year % 5, 10 + c + (year % 3)]),
      );
      await importPanel(t.db, writeCsv(path.join(dir, 'panel.csv'), header, good));
      const panel = async () =>
        (
          await db()
            .selectFrom('retraction_panel')
            .select(['country', 'year', 'democracy_index', 'publications', 'covariates'])
            .orderBy('country')
            .orderBy('year')
            .execute()
        ).map((r) =>
          JSON.stringify([
            r.country,
            r.year,
            r.democracy_index,
            r.publications,
            typeof r.covariates === 'string' ? JSON.parse(r.covariates) : r.covariates,
          ]),
        );
      const stored = await panel();
      const allBad = good.map((r) => [...r.slice(0, 4), '7,5', ...r.slice(5)]);
      await assert.rejects(importPanel(t.db, writeCsv(path.join(dir, 'panel-bad.csv'), header, allBad)), ImportRefusedError);
      assert.deepEqual(await panel(), stored);

      const one = good.map((r) => [...r]);
      one[0][4] = 'high'; // Chile 2015: democracy_index unreadable, the row keeps its stored copy
      one[0][5] = 5;
      one[1][7] = 'twelve'; // Chile 2016: a covariate unreadable, the stored value kept
      one[1][5] = 7; // …while the readable change is taken
      const report = await importPanel(t.db, writeCsv(path.join(dir, 'panel-one.csv'), header, one));
      assert.deepEqual([report.unreadable, report.deleted, report.updated], [1, 0, 1]);
      const now = await panel();
      assert.equal(now[0], stored[0]);
      const chile2016 = JSON.parse(now[1]) as [string, number, number, number, { gdp: number }];
      assert.equal(chile2016[3], 7);
      assert.equal(chile2016[4].gdp, (JSON.parse(stored[1]) as [string, number, number, number, { gdp: number }])[4].gdp);
    });
  },
  { migrations: retractionService.migrations },
);
