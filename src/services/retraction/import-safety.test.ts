// Service E, on SQLite and PostgreSQL: imports that never lose data. Each case was measured on
// the code before the fix (noted beside it): a Retraction Watch CSV cut mid-file, a file with 3 readable rows
// of 39, citations that a papers import dropped for good, generated files imported by hand labelled real, and
// truncated citation files. Excluded rows (citations of works that are not retracted papers, duplicates) do
// not count toward the unreadable share; unreadable ones do.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { testContext } from '../../../test/support/app.ts';
import { tempDir, writeCsv } from '../../../test/support/retraction/fixtures.ts';
import { ImportRefusedError, TruncatedSourceError } from '../../core/import.ts';
import { num } from '../../core/db/dialect.ts';
import { writeGenerated } from './demo.ts';
import { importCitations, importRetractionWatch } from './import.ts';
import { dataSource, paperCitations } from './repository.ts';
import { retractionService } from './service.ts';
import { retractionDb } from './tables.ts';
import { GENERATED_MARKER } from './sources/generated.ts';

const PAPERS = 300;

describeEachDatabase(
  'retraction imports never lose data',
  (t) => {
    let dir: string;
    let generatedDir: string;
    /** The generated files without their generated marker: files as a real source publishes them. */
    let files: { retractionWatch: string; citations: string };
    let citationsBefore = 0;
    let citedDoi = '';
    const db = () => retractionDb(t.db);
    const count = async (table: 'retraction_papers' | 'retraction_citations' | 'retraction_citations_set_aside') =>
      num(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const lines = () => fs.readFileSync(files.retractionWatch, 'utf8').split('\r\n');

    before(async () => {
      dir = tempDir('safety');
      generatedDir = path.join(dir, 'generated');
      const generated = await writeGenerated(generatedDir, { size: PAPERS, seed: 13, citationsPerPaper: 12 });
      const unmarked = (file: string) => {
        const out = path.join(dir, path.basename(file));
        const text = fs
          .readFileSync(file, 'utf8')
          .replaceAll(`,${GENERATED_MARKER.column}\r\n`, '\r\n')
          .replaceAll(`,${GENERATED_MARKER.value}\r\n`, '\r\n');
        fs.writeFileSync(out, text);
        return out;
      };
      files = { retractionWatch: unmarked(generated.retractionWatch), citations: unmarked(generated.citations) };
      await importRetractionWatch(t.db, files.retractionWatch);
      await importCitations(t.db, files.citations);
      citationsBefore = await count('retraction_citations');
      citedDoi = (
        await db()
          .selectFrom('retraction_papers')
          .select('doi_key')
          .where('doi_key', 'is not', null)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).doi_key!;
      assert.equal(await count('retraction_papers'), PAPERS);
      assert.ok(citationsBefore > 2000);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('refuses a Retraction Watch CSV cut inside a record as truncated, naming the line (before: 300 papers became 31, 3,755 citations 325)', async () => {
      const text = fs.readFileSync(files.retractionWatch, 'utf8');
      const start = lines().slice(0, 31).join('\r\n').length + 2; // record 30 starts here (line 31)
      const cut = path.join(dir, 'cut-in-record.csv');
      fs.writeFileSync(cut, text.slice(0, start + 40));
      await assert.rejects(importRetractionWatch(t.db, cut), (error: Error) => {
        assert.ok(error instanceof TruncatedSourceError, error.message);
        assert.match(error.message, /is truncated: line 32: the last record/);
        return true;
      });
      assert.equal(await count('retraction_papers'), PAPERS);
      assert.equal(await count('retraction_citations'), citationsBefore);
      // Cut inside a quoted field: the quote never closes.
      const quoted = path.join(dir, 'cut-in-quote.csv');
      fs.writeFileSync(quoted, lines().slice(0, 20).join('\r\n') + '\r\n990001,"A title that never');
      await assert.rejects(importRetractionWatch(t.db, quoted), /is truncated: line 21: the last record's quoted field is not closed/);
      const run = await db().selectFrom('import_runs').select(['status', 'error']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      assert.equal(run.status, 'refused');
    });

    it('refuses a file cut at a line end by the shrink guard, with the counts (before: 300 papers became 53)', async () => {
      const cut = path.join(dir, 'cut-at-line.csv');
      fs.writeFileSync(cut, lines().slice(0, 54).join('\r\n') + '\r\n');
      await assert.rejects(importRetractionWatch(t.db, cut), (error: Error) => {
        assert.ok(error instanceof ImportRefusedError);
        assert.match(error.message, /would delete 247 of the 300 stored retraction\/papers records \(82\.3%; the limit is 10\.0%\)/);
        assert.match(error.message, /--allow-shrink/);
        return true;
      });
      assert.equal(await count('retraction_papers'), PAPERS);
      assert.equal(await count('retraction_citations'), citationsBefore);
    });

    it('refuses 3 readable rows of 39; when forced, sets the citations aside and a full papers file brings them back (before: 12 of 3,755 citations left, never back)', async () => {
      const all = lines();
      const header = all[0];
      const rows = all.slice(1, 40).map((line, i) => (i % 13 === 0 ? line : `,${line.split(',').slice(1).join(',')}`)); // 36 rows lose their Record ID
      const bad = path.join(dir, 'three-of-39.csv');
      fs.writeFileSync(bad, [header, ...rows].join('\r\n') + '\r\n');
      await assert.rejects(
        importRetractionWatch(t.db, bad),
        /refused: the import would delete 297 of the 300 stored retraction\/papers records/,
      );
      await assert.rejects(
        importRetractionWatch(t.db, bad, { guard: { allowShrink: true } }),
        /refused: 36 of the 39 rows read could not be read \(92\.3%; the limit is 5\.0%\)/,
      );
      assert.equal(await count('retraction_citations'), citationsBefore);

      const forced = await importRetractionWatch(t.db, bad, { guard: { allowShrink: true, allowSkips: true } });
      assert.deepEqual([forced.rows_read, forced.unreadable, forced.deleted], [39, 36, 297]);
      assert.equal(await count('retraction_papers'), 3);
      const kept = await count('retraction_citations');
      const aside = await count('retraction_citations_set_aside');
      assert.equal(kept + aside, citationsBefore, 'no citation is deleted by a papers import');
      assert.ok(aside > 0);
      assert.ok(
        forced.warning_samples.some((w) => /citation\(s\) of \d+ paper\(s\) this file no longer has were set aside, not deleted/.test(w)),
      );

      const back = await importRetractionWatch(t.db, files.retractionWatch);
      assert.deepEqual([back.inserted, back.deleted], [297, 0]);
      assert.equal(await count('retraction_citations'), citationsBefore);
      assert.equal(await count('retraction_citations_set_aside'), 0);
      // The rejoined citations are dated against their papers again.
      const again = await importCitations(t.db, files.citations);
      assert.deepEqual([again.inserted, again.updated, again.deleted], [0, 0, 0]);
    });

    it('counts citations of works that are not retracted papers, and duplicates, as excluded rather than unreadable', async () => {
      const header = ['oci', 'citing', 'cited', 'creation'];
      const rows: string[][] = [];
      for (let i = 0; i < 40; i++) rows.push([`o${i}`, `doi:10.5555/other.${i}`, `doi:10.5555/nobody.${i}`, '2021-01-01']); // not retracted
      for (let i = 0; i < 10; i++) rows.push([`d${i}`, `doi:10.5555/dup`, `doi:${citedDoi}`, '2021-01-01']); // one citation, nine duplicates
      rows.push(['u1', '', `doi:${citedDoi}`, '2021-01-01']); // unreadable: no citing work
      const file = writeCsv(path.join(dir, 'mostly-excluded.csv'), header, rows);
      const report = await importCitations(t.db, file, { guard: { allowShrink: true } });
      assert.equal(report.rows_read, 51);
      assert.equal(report.unreadable, 1);
      assert.deepEqual(report.skip_reasons, {
        'cited DOI is not a retracted paper in the database': 40,
        'duplicate citation of the same paper by the same work (first kept)': 9,
        'citing work has no identifier': 1,
      });
      assert.equal(await count('retraction_citations'), 1);
      await importCitations(t.db, files.citations, { guard: { allowShrink: true } });
    });

    it('refuses a citations JSON document that does not close, naming the line', async () => {
      const file = path.join(dir, 'citations-cut.json');
      fs.writeFileSync(
        file,
        '[\n{"citing":"doi:10.5555/a","cited":"doi:10.5555/demo.1","creation":"2021-01-01"},\n{"citing":"doi:10.5555/b","cit',
      );
      await assert.rejects(importCitations(t.db, file), /citations-cut\.json is truncated: line 3: the JSON ends inside/);
      assert.equal(await count('retraction_citations'), citationsBefore);
    });

    it('labels generated files imported by hand as generated, whatever the command line says (before: is_demo false)', async () => {
      const ctx = testContext(retractionService, t.db, { dataDir: dir });
      const reports = await retractionService.importers.auto.run(ctx, generatedDir, {});
      const byDataset = new Map(reports.map((r) => [r.dataset, r]));
      assert.equal(byDataset.get('papers')!.is_demo, true);
      assert.equal(byDataset.get('citations')!.is_demo, true);
      assert.equal(byDataset.get('democracy-panel')!.is_demo, true);
      const source = await dataSource(db(), ['papers', 'citations', 'democracy-panel']);
      assert.equal(source.kind, 'generated');
      assert.equal((await paperCitations(db(), '1'))!.paper.is_demo, true);
      const panel = await db().selectFrom('retraction_panel').select('is_demo').execute();
      assert.ok(panel.length > 0 && panel.every((r) => Boolean(r.is_demo)));
    });

    it('removes the generated papers and their citations when real papers come in, without counting them as deletions', async () => {
      const header = ['Record ID', 'Title', 'Journal', 'RetractionDate', 'OriginalPaperDOI', 'RetractionNature'];
      const real = writeCsv(path.join(dir, 'real.csv'), header, [
        ['1', 'A real paper', 'Journal of Tests', '2/3/2020 0:00', '10.9999/real.1', 'Retraction'],
        ['2', 'Another real paper', 'Journal of Tests', '2/4/2020 0:00', '10.9999/real.2', 'Retraction'],
      ]);
      const report = await importRetractionWatch(t.db, real);
      assert.deepEqual([report.is_demo, report.inserted, report.deleted, report.demo_rows_removed], [false, 2, 0, PAPERS]);
      const papers = await db().selectFrom('retraction_papers').select(['record_id', 'title', 'is_demo']).orderBy('record_id').execute();
      assert.deepEqual(
        papers.map((p) => [p.record_id, p.title, Boolean(p.is_demo)]),
        [
          ['1', 'A real paper', false],
          ['2', 'Another real paper', false],
        ],
      );
      assert.equal(await count('retraction_citations'), 0, 'generated citations never sit on real papers');
      const source = await dataSource(db(), ['papers', 'citations']);
      assert.deepEqual([source.kind, source.datasets.map((d) => d.dataset)], ['imported', ['papers']]);
    });
  },
  { migrations: retractionService.migrations },
);
