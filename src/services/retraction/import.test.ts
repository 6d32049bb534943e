// Service E's importers on SQLite and PostgreSQL: record 4036 of ../shared/data/retraction with its citation
// counts reproduced, every citation format, idempotent re-imports, changes, deletions and failed imports.
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { getAggregate } from '../../core/db/datasets.ts';
import { retractionService } from './service.ts';
import { retractionDb } from './tables.ts';
import { importCitations, importPanel, importRetractionWatch, detectKind } from './import.ts';
import { paperCitations, autocomplete } from './repository.ts';
import { AGGREGATES } from './aggregates.ts';
import type { AnalyticsTables } from './aggregates.ts';
import type { PostRetractionAnalytics } from './analytics-index.ts';
import { importPublishedFit, servedModel } from './democracy-model.ts';
import { citationRows, row4036, simpleRow, tempDir, writeCsv, writeRwCsv } from '../../../test/support/retraction/fixtures.ts';
import type { Record4036 } from '../../../test/support/retraction/fixtures.ts';

const gate = needsSharedData('retraction', 'record_4036.json');
const CITATION_HEADER = ['oci', 'citing', 'cited', 'creation'];

describeEachDatabase(
  'retraction importers',
  (t) => {
    const db = () => retractionDb(t.db);
    let dir: string;
    let record: Record4036;
    before(() => {
      if (gate.problem) throw new Error(gate.problem);
      dir = tempDir('import');
      record = JSON.parse(fs.readFileSync(sharedData('retraction', 'record_4036.json'), 'utf8'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const papersFile = () => writeRwCsv(path.join(dir, 'rw.csv'), [row4036(record), ...[1, 2, 3, 4, 5].map((i) => simpleRow(i))]);
    const snapshot = async () => ({
      papers: await db()
        .selectFrom('retraction_papers')
        .select(['id', 'record_id', 'title', 'content_hash', 'retraction_date'])
        .orderBy('id')
        .execute(),
      citations: await db()
        .selectFrom('retraction_citations')
        .select(['paper_id', 'citing_key', 'days_after'])
        .orderBy('paper_id')
        .orderBy('citing_key')
        .execute(),
      counts: await db().selectFrom('retraction_paper_counts').selectAll().orderBy('paper_id').execute(),
      tables: (await getAggregate<AnalyticsTables>(db(), 'retraction', AGGREGATES.tables('all')))?.value.overview,
    });

    it('stores record 4036 from the Retraction Watch CSV with every field the JSON record holds', async () => {
      const report = await importRetractionWatch(t.db, papersFile());
      assert.equal(report.rows_read, 6);
      assert.equal(report.inserted, 6);
      assert.equal(report.skipped, 0);
      const row = await db()
        .selectFrom('retraction_papers')
        .selectAll()
        .where('record_id', '=', record.record_id)
        .executeTakeFirstOrThrow();
      const list = (text: string) =>
        text
          .split(';')
          .map((s) => s.trim())
          .filter((s) => s !== '');
      assert.equal(row.title, record.title);
      assert.equal(row.journal, record.journal);
      assert.equal(row.publisher, record.publisher);
      assert.equal(row.country, record.country);
      assert.deepEqual(row.author.split('; '), list(record.author));
      assert.equal(row.author.split('; ').length, 13);
      assert.deepEqual(
        row.subject.split('; '),
        list(record.subject).map((s) => s.replace(/^\([^)]*\)\s*/, '')),
      );
      assert.deepEqual(row.reason?.split('; '), list(record.reason));
      assert.equal(row.retraction_date, record.retraction_date.slice(0, 10));
      assert.equal(row.original_paper_date, record.original_paper_date.slice(0, 10));
      assert.equal(row.original_paper_doi, record.original_paper_doi);
      assert.equal(row.retraction_doi, record.retraction_doi);
      assert.equal(row.retraction_pubmed_id, record.retraction_pubmed_id);
      assert.equal(row.original_paper_pubmed_id, record.original_paper_pubmed_id);
      assert.equal(row.retraction_nature, record.retraction_nature);
      assert.equal(Boolean(row.paywalled), record.paywalled);
      assert.equal(row.notes, record.notes);
      assert.equal(row.article_type, list(record.article_type).join('; '));
      const subjects = await db()
        .selectFrom('retraction_paper_subjects')
        .select(['subject', 'code'])
        .where('paper_id', '=', row.id)
        .orderBy('subject')
        .execute();
      assert.equal(subjects.length, list(record.subject).length);
      assert.ok(subjects.every((s) => s.code === 'BLS' || s.code === 'HSC'));
      const countries = await db().selectFrom('retraction_paper_countries').select('country').where('paper_id', '>', 0).execute();
      assert.ok(
        countries.some((c) => c.country === 'France'),
        'a two-country cell becomes two rows',
      );
      // Searchable by title, author and DOI at once.
      assert.equal((await autocomplete(db(), 'Walker-Smith'))[0].record_id, record.record_id);
      assert.equal((await autocomplete(db(), record.original_paper_doi.toUpperCase()))[0].record_id, record.record_id);
    });

    it("reproduces record 4036's pre-, post- and same-day citation counts from a citations file", async () => {
      const rows = [
        ...citationRows(
          record.original_paper_doi,
          record.retraction_date,
          record.original_paper_date,
          { pre: record.pre_retraction_citations, post: record.post_retraction_citations, sameDay: record.same_day_citations },
          'r4036',
        ),
        // Paper 1 (retracted 2020-03-15): one citation on the day (not post), one the day after, one the month of the retraction.
        ['x1', 'doi:10.5555/same.1', 'doi:10.5555/test.1', '2020-03-15'],
        ['x2', 'doi:10.5555/next.1', 'doi:10.5555/test.1', '2020-03-16'],
        ['x3', 'doi:10.5555/month.1', 'doi:10.5555/test.1', '2020-03'],
        ['x4', 'doi:10.5555/undated.1', 'doi:10.5555/test.1', ''],
        ['x5', 'doi:10.5555/c', 'doi:10.5555/not-retracted', '2021-01-01'],
        ['x6', 'doi:10.5555/same.1', 'doi:10.5555/test.1', '2020-03-15'],
        ['x7', 'omid:br/1', 'omid:br/2', '2021-01-01'],
      ];
      const file = writeCsv(path.join(dir, 'citations.csv'), CITATION_HEADER, rows);
      assert.equal(await detectKind(file), 'citations');
      const report = await importCitations(t.db, file);
      const expected4036 = record.pre_retraction_citations + record.post_retraction_citations + record.same_day_citations;
      assert.equal(report.rows_read, rows.length);
      assert.equal(report.inserted, expected4036 + 4);
      assert.deepEqual(report.skip_reasons, {
        'cited DOI is not a retracted paper in the database': 1,
        'cited work has no DOI': 1,
        'duplicate citation of the same paper by the same work (first kept)': 1,
      });
      const c = (await paperCitations(db(), record.record_id))!;
      assert.equal(c.pre_retraction_count, record.pre_retraction_citations);
      assert.equal(c.post_retraction_count, record.post_retraction_citations);
      assert.equal(c.same_day_count, record.same_day_citations);
      assert.equal(c.total_citations, expected4036);
      assert.equal(
        Object.values(c.post_retraction_timing).reduce((a, b) => a + b, 0),
        c.post_retraction_count,
      );
      assert.equal(
        Object.values(c.citations_by_year).reduce((a, b) => a + b, 0),
        c.total_citations,
      );
      assert.ok(Object.keys(c.post_retraction_by_year).every((y) => Number(y) >= 2010));
      const p1 = (await paperCitations(db(), '1'))!;
      assert.deepEqual(
        [p1.total_citations, p1.same_day_count, p1.post_retraction_count, p1.pre_retraction_count, p1.undated_count],
        [4, 1, 1, 1, 1],
      );
      assert.equal(p1.post_retraction_timing.within_30_days, 1);
      const overview = (await getAggregate<AnalyticsTables>(db(), 'retraction', AGGREGATES.tables('all')))!.value.overview;
      assert.equal(overview.total_citations, expected4036 + 4);
      assert.equal(overview.post_retraction_citations, record.post_retraction_citations + 1);
      const all = (await getAggregate<PostRetractionAnalytics>(db(), 'retraction', AGGREGATES.postRetraction('all', 'all')))!.value;
      assert.equal(all.top_papers[0].record_id, record.record_id);
      assert.equal(all.totals.post_retraction_citations, overview.post_retraction_citations);
    });

    it('gives the same citations from OpenCitations JSON and OpenAlex works (JSON array and JSON Lines)', async () => {
      const before = await paperCitations(db(), '2');
      assert.equal(before!.total_citations, 0);
      const edges = [
        { citing: 'doi:10.5555/j.1', cited: 'doi:10.5555/test.2', creation: '2019-01-01' },
        { citing: 'doi:10.5555/j.2', cited: '10.5555/TEST.2', creation: '2021-06' },
        { citing: 'doi:10.5555/j.3', cited: 'doi:10.5555/test.3', creation: '2020-03-15' },
      ];
      const json = path.join(dir, 'opencitations.json');
      fs.writeFileSync(json, JSON.stringify(edges));
      await importCitations(t.db, json, { guard: { allowShrink: true } });
      const fromJson = [(await paperCitations(db(), '2'))!, (await paperCitations(db(), '3'))!];
      assert.deepEqual(
        fromJson.map((p) => [p.pre_retraction_count, p.same_day_count, p.post_retraction_count]),
        [
          [1, 0, 1],
          [0, 1, 0],
        ],
      );
      // Replaced: record 4036's citations are gone because the new file is the whole citation set.
      assert.equal((await paperCitations(db(), record.record_id))!.total_citations, 0);

      const works = [
        { id: 'https://openalex.org/W2', doi: 'https://doi.org/10.5555/test.2', publication_date: '2018-06-01', referenced_works: [] },
        { id: 'https://openalex.org/W3', doi: 'https://doi.org/10.5555/test.3', publication_date: '2018-06-01', referenced_works: [] },
        {
          id: 'https://openalex.org/W101',
          doi: 'https://doi.org/10.5555/j.1',
          publication_date: '2019-01-01',
          referenced_works: ['https://openalex.org/W2', 'https://openalex.org/W77'],
        },
        {
          id: 'https://openalex.org/W102',
          doi: 'https://doi.org/10.5555/j.2',
          publication_date: '2021-06',
          referenced_works: ['https://openalex.org/W2'],
        },
        {
          id: 'https://openalex.org/W103',
          doi: 'https://doi.org/10.5555/j.3',
          publication_date: '2020-03-15',
          referenced_works: ['https://openalex.org/W3'],
        },
      ];
      const page = path.join(dir, 'openalex_works.json');
      fs.writeFileSync(page, JSON.stringify({ meta: { count: works.length }, results: works }));
      const lines = path.join(dir, 'openalex_works.jsonl');
      fs.writeFileSync(lines, works.map((w) => JSON.stringify(w)).join('\n') + '\n');
      for (const file of [page, lines]) {
        const report = await importCitations(t.db, file, { guard: { allowShrink: true } });
        assert.equal(report.rows_read, 5);
        assert.equal(report.skip_reasons['work cites no retracted paper in the database'], 2);
        const got = [(await paperCitations(db(), '2'))!, (await paperCitations(db(), '3'))!];
        assert.deepEqual(got, fromJson, file);
      }
    });

    it('changes nothing when the same files are imported again', async () => {
      const citations = path.join(dir, 'citations.csv');
      await importRetractionWatch(t.db, papersFile());
      await importCitations(t.db, citations, { guard: { allowShrink: true } }); // back from the OpenAlex set of the test before
      const before = await snapshot();
      const papers = await importRetractionWatch(t.db, papersFile());
      assert.deepEqual([papers.inserted, papers.updated, papers.deleted, papers.unchanged], [0, 0, 0, 6]);
      const again = await importCitations(t.db, citations);
      assert.deepEqual([again.inserted, again.updated, again.deleted], [0, 0, 0]);
      assert.equal(again.unchanged, before.citations.length);
      assert.deepEqual(await snapshot(), before);
    });

    it('updates changed papers, deletes dropped ones, and re-dates citations when a retraction date moves', async () => {
      const rows = [
        row4036(record),
        simpleRow(1, { Title: 'A corrected title' }),
        simpleRow(2),
        simpleRow(3),
        simpleRow(4, { RetractionDate: '1/1/2030 0:00' }),
        simpleRow(6),
      ];
      // Paper 4's citations: none yet; give it one from 2021 first.
      const before = await snapshot();
      const report = await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'rw2.csv'), rows), { guard: { allowShrink: true } });
      assert.deepEqual([report.inserted, report.updated, report.deleted, report.unchanged], [1, 2, 1, 3]);
      const after = await snapshot();
      const idOf = (s: typeof before, id: string) => s.papers.find((p) => p.record_id === id)?.id;
      assert.equal(idOf(after, '1'), idOf(before, '1'), 'ids are stable');
      assert.equal(idOf(after, '5'), undefined);
      assert.equal(after.citations.filter((c) => c.paper_id === idOf(before, '5')).length, 0);
      // 4036's citations untouched; paper 1 retitled but its citations kept.
      assert.equal((await paperCitations(db(), '1'))!.total_citations, 4);
      assert.equal((await autocomplete(db(), 'corrected title'))[0].record_id, '1');
      assert.equal((await autocomplete(db(), 'Test paper number 1 on')).length, 0);
      // Moving paper 1's retraction date to after every citation turns them all into pre-retraction ones.
      rows[1] = simpleRow(1, { Title: 'A corrected title', RetractionDate: '1/1/2030 0:00' });
      await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'rw3.csv'), rows), { guard: { allowShrink: true } });
      const p1 = (await paperCitations(db(), '1'))!;
      assert.deepEqual([p1.pre_retraction_count, p1.same_day_count, p1.post_retraction_count, p1.undated_count], [3, 0, 0, 1]);
    });

    it('skips rows without an id or title and repeated ids, with reasons', async () => {
      const rows = [
        row4036(record),
        simpleRow(1),
        simpleRow(1, { Title: 'second copy' }),
        simpleRow(7, { 'Record ID': '' }),
        simpleRow(8, { Title: '  ' }),
      ];
      const report = await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'rw4.csv'), rows), {
        guard: { allowShrink: true, allowSkips: true },
      });
      assert.deepEqual(report.skip_reasons, { 'duplicate Record ID (first kept)': 1, 'missing Record ID': 1, 'missing title': 1 });
      assert.equal(
        (await db().selectFrom('retraction_papers').select('title').where('record_id', '=', '1').executeTakeFirstOrThrow()).title,
        simpleRow(1).Title,
      );
    });

    it('leaves the old data when an import fails midway', async () => {
      const good = [row4036(record), ...Array.from({ length: 2500 }, (_, i) => simpleRow(100 + i))];
      await importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'big.csv'), good), { guard: { allowShrink: true } });
      const before = await snapshot();
      const runsBefore = await db().selectFrom('import_runs').select(['id']).execute();
      // Changed rows first (written inside the transaction), then a broken quote near the end of the file (text
      // after a closing quote; a quote that never closes is a truncated file, refused by the test of truncation).
      const changed = good.map((r, i) => (i < 2000 ? { ...r, Title: `${r.Title} (changed)` } : r));
      const file = writeRwCsv(path.join(dir, 'broken.csv'), changed);
      fs.appendFileSync(file, '9999,"an "unterminated" title\r\n10000,x\r\n');
      await assert.rejects(importRetractionWatch(t.db, file), /malformed CSV/);
      assert.deepEqual(await snapshot(), before);
      const failed = await db()
        .selectFrom('import_runs')
        .select(['status', 'error'])
        .where(
          'id',
          'not in',
          runsBefore.map((r) => r.id),
        )
        .execute();
      assert.deepEqual(
        failed.map((r) => r.status),
        ['failed'],
      );
      // A citations file citing nothing known fails before touching anything; so does an empty papers file.
      await assert.rejects(importRetractionWatch(t.db, writeRwCsv(path.join(dir, 'empty.csv'), [])), /no Retraction Watch records/);
      assert.deepEqual(await snapshot(), before);
    });

    it('imports the democracy panel idempotently, keeping covariates and counting bad cells', async () => {
      const header = ['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions', 'gdp', 'press_freedom'];
      const rows: (string | number)[][] = [];
      for (const [country, iso3, region] of [
        ['Chile', 'CHL', 'Latin America'],
        ['Norway', 'NOR', 'Europe'],
        ['Kenya', 'KEN', 'Africa'],
      ]) {
        for (let year = 2015; year <= 2019; year++)
          rows.push([country, iso3, region, year, (year % 7) + 2, 1000 + year, year % 5, 9 + (year % 3), 50 + year - 2015]);
      }
      rows.push(['Chile', 'CHL', 'Latin America', 2015, 1, 1, 1, 1, 1]); // duplicate country-year
      rows.push(['', '', '', 2015, 1, 1, 1, 1, 1]);
      rows.push(['Peru', 'PER', 'Latin America', 2016, 'NA', 900, 2, 'n/a', 'high']);
      const file = writeCsv(path.join(dir, 'panel.csv'), header, rows);
      assert.equal(await detectKind(file), 'panel');
      const report = await importPanel(t.db, file, { guard: { allowSkips: true } });
      assert.deepEqual([report.rows_read, report.inserted, report.skipped], [18, 16, 2]);
      const peru = await db().selectFrom('retraction_panel').selectAll().where('country', '=', 'Peru').executeTakeFirstOrThrow();
      assert.equal(peru.democracy_index, null);
      assert.deepEqual(typeof peru.covariates === 'string' ? JSON.parse(peru.covariates) : peru.covariates, {
        gdp: null,
        press_freedom: null,
      });
      const again = await importPanel(t.db, file, { guard: { allowSkips: true } });
      assert.deepEqual([again.inserted, again.updated, again.deleted, again.unchanged], [0, 0, 0, 16]);
    });

    it(
      'imports a published fit and serves it marked as imported',
      { skip: needsSharedData('retraction', 'democracy_model_results.json').skip },
      async () => {
        const file = sharedData('retraction', 'democracy_model_results.json');
        assert.equal(await detectKind(file), 'published-fit');
        const first = await importPublishedFit(t.db, file);
        assert.equal(first.inserted, 11);
        const served = await servedModel(db());
        assert.equal(served.info.status, 'imported');
        assert.equal(served.info.imported_from, 'democracy_model_results.json');
        assert.equal(served.info.describes_current_panel, false);
        const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
        const democracy = served.fit!.summaries.find((s) => s.name === 'democracy')!;
        assert.equal(democracy.mean, raw.negbin_multivariate_democracy.coefficient[0]);
        const again = await importPublishedFit(t.db, file);
        assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, 11]);
        // another JSON file, or not JSON at all: the error names the file, and the served fit stays
        const other = sharedData('retraction', 'record_4036.json');
        await assert.rejects(importPublishedFit(t.db, other), { message: `${other}: published fit has no negbin_multivariate_* entries` });
        const cut = path.join(dir, 'cut-fit.json');
        fs.writeFileSync(cut, fs.readFileSync(file, 'utf8').slice(0, 50));
        await assert.rejects(importPublishedFit(t.db, cut), { name: 'SyntaxError', message: new RegExp(`^${cut} is not valid JSON: `) });
        assert.equal((await servedModel(db())).fit!.summaries.find((s) => s.name === 'democracy')!.mean, democracy.mean);
      },
    );

    it('stores a NUL of the file as U+FFFD (PostgreSQL refuses NUL in text), and reads bytes that are not UTF-8 as Windows-1252', async () => {
      const file = writeRwCsv(path.join(dir, 'nul.csv'), [
        simpleRow(9001, { Title: 'Bad\u0000title' }),
        simpleRow(9002, { Title: 'Caf@@ in Qu@@bec – ok' }),
      ]);
      // "é" as the single Windows-1252 byte E9 (a file saved by a spreadsheet program), beside a UTF-8 dash
      const bytes = fs.readFileSync(file);
      fs.writeFileSync(file, Buffer.from(bytes.toString('latin1').replaceAll('@@', '\u00e9'), 'latin1'));
      await importRetractionWatch(t.db, file, { guard: { allowShrink: true } });
      const title = async (id: string) =>
        (await db().selectFrom('retraction_papers').select('title').where('record_id', '=', id).executeTakeFirstOrThrow()).title;
      assert.equal(await title('9001'), 'Bad\uFFFDtitle');
      assert.equal(await title('9002'), 'Café in Québec – ok');
    });
  },
  { migrations: retractionService.migrations },
);
