// Imports that never lose data, on SQLite and PostgreSQL: a file's merged amendments are not
// unreadable rows (the guard takes a normal file); a file cut inside its last record is refused as truncated,
// naming the line, first import or not, read from a path (the reading thread) or a stream; a file cut at a
// line boundary is refused by the shrink guard unless allowed; a file written by `generate grants` is
// labelled demo data, and demo data replaced by a real file is reported as such, not as a deletion.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { tempDir, writeGenerated } from '../../../../test/support/grants/files.ts';
import { getAggregate, listDataVersions } from '../../../core/db/datasets.ts';
import { ImportRefusedError, TruncatedSourceError } from '../../../core/import.ts';
import type { GrantsStats } from '../aggregates.ts';
import { writeGeneratedCsv } from '../demo.ts';
import { grantsService } from '../service.ts';
import { PRE_2025_COLUMNS } from '../source/index.ts';
import type { GrantsTables } from '../tables.ts';
import { importGrantsCsv } from './importer.ts';

/** 1 + the line breaks before `offset`: the line `offset` is on. */
const lineAt = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;
/** Whether `offset` is outside every quoted field (an even number of quotes before it). */
const outsideQuotes = (text: string, offset: number): boolean => (text.slice(0, offset).split('"').length - 1) % 2 === 0;

describeEachDatabase(
  'grants imports that never lose data',
  (t) => {
    let dir: string;
    let full: string;
    let text: string;
    before(async () => {
      dir = tempDir();
      full = await writeGenerated(dir, 3000, 'refusals');
      text = fs.readFileSync(full, 'latin1');
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const db = () => t.db.kysely.withTables<GrantsTables>();
    const write = (name: string, content: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content, 'latin1');
      return file;
    };
    const stored = async () => (await db().selectFrom('grants_agreements').select(['id', 'content_hash']).orderBy('id').execute()).length;
    const lastRun = () => db().selectFrom('import_runs').select(['status', 'error']).orderBy('id', 'desc').executeTakeFirstOrThrow();

    /** The file cut 40 characters into a record a tenth of the way in (no quoted field open at the cut). */
    const cutMidRecord = () => {
      for (let start = text.indexOf('\n', Math.floor(text.length / 10)) + 1; ; start = text.indexOf('\n', start) + 1) {
        const into = 40;
        if (outsideQuotes(text, start) && !text.slice(start, start + into).includes('"')) {
          return {
            content: text.slice(0, start + into),
            line: lineAt(text, start),
            cells: text.slice(start, start + into).split(',').length,
          };
        }
      }
    };
    /** The file cut three characters into a quoted field that opens on a record's first line. */
    const cutInQuotes = () => {
      for (let start = text.indexOf('\n', Math.floor(text.length / 5)) + 1; ; start = text.indexOf('\n', start) + 1) {
        const end = text.indexOf('\n', start);
        const quote = text.indexOf(',"', start);
        if (outsideQuotes(text, start) && quote > 0 && quote < end && !text.slice(quote + 2, quote + 5).includes('"')) {
          return { content: text.slice(0, quote + 5), line: lineAt(text, start) };
        }
      }
    };

    describe('refuses', () => {
      it('a file cut inside its last record, into an empty table: truncated, naming the line; nothing stored', async () => {
        const cut = cutMidRecord();
        const file = write('cut-first.csv', cut.content);
        const error = await importGrantsCsv(t.db, file).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(error instanceof TruncatedSourceError, String(error));
        assert.equal(
          error.message,
          `${file} is truncated: line ${cut.line.toLocaleString('en-CA')}: the last record has ${cut.cells} of the header's ` +
            `${PRE_2025_COLUMNS.length} cells and no line break after it; nothing was imported (the stored data is unchanged)`,
        );
        assert.equal(await stored(), 0);
        assert.deepEqual(await listDataVersions(db(), 'grants'), []);
        assert.equal((await lastRun()).status, 'refused');
      });

      it('a file cut inside its last record or inside a quoted field, after a full import: truncated, naming the line, from a path or a stream', async () => {
        const report = await importGrantsCsv(t.db, full);
        const before = await stored();
        assert.equal(before, report.inserted);
        const versions = await listDataVersions(db(), 'grants');
        for (const [name, cut, reason] of [
          ['cut-mid-record.csv', cutMidRecord(), /the last record has \d+ of the header's \d+ cells and no line break after it/],
          ['cut-in-quotes.csv', cutInQuotes(), /the file ends inside a quoted field of the last record \(an unterminated quote\)/],
        ] as const) {
          const file = write(name, cut.content);
          for (const input of [file, fs.createReadStream(file)]) {
            const error = await importGrantsCsv(t.db, input, { sourceLabel: name }).then(
              () => null,
              (e: unknown) => e,
            );
            assert.ok(error instanceof TruncatedSourceError, `${name}: ${String(error)}`);
            assert.match(error.message, new RegExp(`^${name} is truncated: line ${cut.line.toLocaleString('en-CA')}: `));
            assert.match(error.message, reason);
            assert.equal(await stored(), before, `${name}: the stored agreements are untouched`);
            assert.deepEqual(await listDataVersions(db(), 'grants'), versions);
            assert.deepEqual(await lastRun(), { status: 'refused', error: error.message });
          }
        }
      });

      it('a file cut at a line boundary: refused by the shrink guard with the counts; taken with allowShrink', async () => {
        const before = await stored();
        const lines = text.split('\n');
        // a tenth of the lines, ending at a record's end
        let keep = Math.floor(lines.length / 10);
        while (!outsideQuotes(text, lines.slice(0, keep).join('\n').length)) keep++;
        const file = write('cut-at-line.csv', `${lines.slice(0, keep).join('\n')}\n`);
        const error = await importGrantsCsv(t.db, file).then(
          () => null,
          (e: unknown) => e,
        );
        assert.ok(error instanceof ImportRefusedError && !(error instanceof TruncatedSourceError), String(error));
        assert.match(error.message, new RegExp(`refused: the import would delete \\d+ of the ${before} stored grants/agreements records`));
        assert.equal(await stored(), before);
        const allowed = await importGrantsCsv(t.db, file, { guard: { allowShrink: true } });
        assert.ok(
          allowed.deleted > before / 2 && allowed.deleted + allowed.unchanged + allowed.updated === before,
          JSON.stringify(allowed),
        );
        assert.equal(await stored(), before - allowed.deleted);
      });
    });

    describe('answers', () => {
      it('imports a normal file with the default guard: merged amendments are excluded rows, not unreadable ones', async () => {
        const report = await importGrantsCsv(t.db, full, { guard: { allowShrink: true } }); // (back from the cut file)
        const merged = report.skip_reasons['superseded by a later amendment of the same agreement'];
        assert.ok(merged > report.rows_read * 0.05, `more amendments merged (${merged}) than the 5% the guard allows of unreadable rows`);
        assert.equal(report.unreadable, report.rows_read - report.inserted - report.updated - report.unchanged - merged);
        assert.ok(report.unreadable < report.rows_read * 0.05);
        const again = await importGrantsCsv(t.db, full);
        assert.equal(again.unchanged, report.inserted + report.updated + report.unchanged);
      });

      it('labels the data of a file written by `generate grants` and imported by hand demo data, and replaces it without counting deletions', async () => {
        const ctx = testContext(grantsService, t.db, { dataDir: dir });
        const generated = await writeGeneratedCsv(path.join(dir, 'generated'), 2000, 'refusals-demo');
        await importGrantsCsv(t.db, full, { guard: { allowShrink: true } }); // real data stored (whatever ran before)
        const real = await stored();
        // as `pdi import grants <dir> --allow-shrink` runs it (it replaces the real agreements): no "generated" option
        const [report] = await grantsService.importers.csv.run(ctx, path.dirname(generated), { allowShrink: true });
        assert.equal(report.is_demo, true);
        // (the generator's reference numbers repeat across seeds: some agreements are updated rather than replaced)
        assert.ok(
          report.deleted > 0 && report.deleted + report.updated + report.unchanged === real,
          'real agreements replaced are deletions',
        );
        const stats = (await getAggregate<GrantsStats>(db(), 'grants', 'stats'))!.value;
        assert.deepEqual([stats.data_source.kind, stats.data_source.is_demo], ['demo', true]);
        assert.deepEqual(
          (await listDataVersions(db(), 'grants')).map((v) => v.is_demo),
          [true],
        );
        // a real file over the demo data: the demo rows go, reported apart (the shrink guard does not count them)
        const demoRows = await stored();
        const [replaced] = await grantsService.importers.csv.run(ctx, full, {});
        assert.equal(replaced.is_demo, false);
        assert.equal(replaced.deleted, 0);
        assert.ok(replaced.demo_rows_removed > 0 && replaced.demo_rows_removed + replaced.updated + replaced.unchanged === demoRows);
        assert.equal((await getAggregate<GrantsStats>(db(), 'grants', 'stats'))!.value.data_source.kind, 'import');
      });
    });
  },
  { migrations: grantsService.migrations },
);
