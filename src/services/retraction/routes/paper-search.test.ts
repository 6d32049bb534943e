// GET /api/search/ and GET /api/export-search/ on SQLite and PostgreSQL: each filter against the records it keeps,
// accents and case folded, pages that add up, facets that count the matches, the streamed downloads, and bad filters.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { foldAccents } from '../../../core/db/dialect.ts';
import { retractionService } from '../service.ts';

interface Result {
  record_id: string;
  title: string;
  journal: string | null;
  country: string;
  subject: string;
  reason: string | null;
  nature: string;
  retraction_date: string | null;
  original_paper_date: string | null;
}

describeEachDatabase(
  'retraction routes: search with filters and its export',
  (t) => {
    const fx = retractionHttpFixture(t);
    const all = async (query: string): Promise<Result[]> => {
      const out: Result[] = [];
      for (let page = 1; ; page++) {
        const { status, body } = await fx.get(`/api/search/?${query}&limit=100&page=${page}`);
        assert.equal(status, 200, query);
        out.push(...body.results);
        if (page >= body.total_pages) return out;
      }
    };

    it('without filters lists every record, newest notice first, in pages that add up', async () => {
      const first = await fx.get('/api/search/');
      assert.equal(first.status, 200);
      assert.equal(first.headers['x-ratelimit-limit'], '100');
      assert.deepEqual([first.body.total, first.body.page, first.body.limit], [fx.paperCount, 1, 20]);
      const rows = await all('');
      assert.equal(rows.length, fx.paperCount);
      assert.equal(new Set(rows.map((r) => r.record_id)).size, fx.paperCount, 'no record twice across pages');
      const dates = rows.map((r) => r.retraction_date ?? '');
      assert.deepEqual(dates, [...dates].sort().reverse());
      const natures = Object.fromEntries(first.body.facets.nature.map((f: { value: string; count: number }) => [f.value, f.count]));
      assert.equal(
        Object.values(natures as Record<string, number>).reduce((a, b) => a + b, 0),
        fx.paperCount,
      );
      assert.equal(natures.retraction, rows.filter((r) => r.nature === 'retraction').length);
    });

    it('text filters keep the records whose field contains the text, accents and case ignored', async () => {
      const montreal = await all('journal=MEDICALE%20DE%20montreal');
      assert.deepEqual(
        montreal.map((r) => r.record_id),
        ['900015'],
      );
      assert.deepEqual(
        (await all('country=cote%20d%27IVOIRE')).map((r) => r.record_id),
        ['900015'],
      );
      assert.deepEqual(
        (await all('reason=plagiat%20de%20donnees')).map((r) => r.record_id),
        ['900015'],
      );
      const facets = (await fx.get('/api/search/')).body.facets;
      for (const name of ['journal', 'subject', 'country'] as const) {
        const top = facets[name][0];
        const kept = await all(`${name}=${encodeURIComponent(top.value.toUpperCase())}`);
        assert.ok(kept.length >= top.count, `${name}: the facet's count is among the matches`);
        for (const r of kept) assert.ok(foldAccents(r[name] ?? '').includes(foldAccents(top.value)), `${name} ${r.record_id}`);
        const facet = (await fx.get(`/api/search/?${name}=${encodeURIComponent(top.value)}`)).body;
        assert.equal(facet.total, kept.length);
      }
      const both = await all('journal=quillmere&country=china&nature=retraction');
      assert.ok(both.length > 0);
      for (const r of both) assert.ok(/quillmere/i.test(r.journal ?? '') && /china/i.test(r.country) && r.nature === 'retraction');
    });

    it('date ranges include both ends; q ranks as the autocomplete does', async () => {
      const range = await all('retracted_from=2011-07-04&retracted_to=2011-07-04');
      assert.ok(range.some((r) => r.record_id === '900015'));
      for (const r of range) assert.equal(r.retraction_date, '2011-07-04');
      const published = await all('published_from=2009-01-01&published_to=2009-12-31');
      assert.ok(published.length > 0);
      for (const r of published) assert.ok(r.original_paper_date! >= '2009-01-01' && r.original_paper_date! <= '2009-12-31');
      const everything = await all('');
      const expected = everything.filter(
        (r) => r.original_paper_date && r.original_paper_date >= '2009-01-01' && r.original_paper_date <= '2009-12-31',
      );
      assert.equal(published.length, expected.length);
      const suggestions = (await fx.get('/api/search-autocomplete/?q=zqxvorn')).body.suggestions.map(
        (s: { record_id: string }) => s.record_id,
      );
      const ranked = (await all('q=zqxvorn')).map((r) => r.record_id);
      assert.deepEqual(ranked.slice(0, suggestions.length), suggestions);
      assert.deepEqual(
        (await all('q=etude%20des%20ol')).map((r) => r.record_id),
        ['900015'],
      );
      assert.deepEqual((await all('q=https://doi.org/10.5555/special.15')).map((r) => r.record_id)[0], '900015');
    });

    it('exports the records of a search as CSV, JSON and xlsx, streamed, under the export limits', async () => {
      const query = 'journal=quillmere&nature=retraction';
      const expected = (await all(query)).map((r) => r.record_id);
      const csv = await fx.get(`/api/export-search/?${query}&format=csv&limit=100000`);
      assert.equal(csv.status, 200);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /attachment; filename="retraction-search-\d{4}-\d{2}-\d{2}-10000\.csv"/);
      assert.equal(csv.headers['x-ratelimit-limit'], '10');
      const rows = Papa.parse<Record<string, string>>(csv.text.trim(), { header: true }).data;
      assert.deepEqual(
        rows.map((r) => r.record_id),
        expected,
      );
      assert.ok(rows.every((r) => r.nature === 'retraction'));
      const json = await fx.get(`/api/export-search/?${query}&limit=3`);
      assert.equal(json.status, 200);
      assert.deepEqual(
        json.body.papers.map((p: { record_id: string }) => p.record_id),
        expected.slice(0, 3),
      );
      assert.deepEqual(json.body.filters, { journal: 'quillmere', nature: 'retraction' });
      assert.deepEqual([json.body.search.exported_papers, json.body.search.matching_papers], [3, expected.length]);
      const xlsx = await fx.get(`/api/export-search/?${query}&format=excel`);
      assert.equal(xlsx.status, 200);
      const [sheet] = await readXlsxFile(xlsx.raw, { trim: false });
      assert.deepEqual(
        sheet.data.slice(1).map((r) => String(r[0])),
        expected,
      );
      const formula = await fx.get('/api/export-search/?q=HYPERLINK&format=csv');
      assert.match(formula.text, /'=HYPERLINK/);
    });

    errorCases(fx, [
      ['GET', '/api/search/?q=ab', 400, 'INVALID_PARAMETER', /^q must be at least 3 characters long after trimming spaces \(got 2\)$/],
      ['GET', '/api/search/?nature=retractions', 400, 'INVALID_PARAMETER', /nature/],
      ['GET', '/api/search/?retracted_from=2020-13-01', 400, 'INVALID_PARAMETER', /retracted_from/],
      ['GET', '/api/search/?published_to=yesterday', 400, 'INVALID_PARAMETER', /published_to must be a date in the form YYYY-MM-DD/],
      [
        'GET',
        '/api/search/?retracted_from=2021-01-01&retracted_to=2020-01-01',
        400,
        'INVALID_PARAMETER',
        /retracted_from \(2021-01-01\) must not be after retracted_to \(2020-01-01\)/,
      ],
      ['GET', `/api/search/?journal=${'j'.repeat(201)}`, 400, 'INVALID_PARAMETER', /journal/],
      ['GET', '/api/search/?page=0', 400, 'INVALID_PARAMETER', /page/],
      ['GET', '/api/export-search/?format=pdf', 400, 'INVALID_PARAMETER', /format/],
      ['GET', '/api/export-search/?published_from=2020-02-30', 400, 'INVALID_PARAMETER', /published_from/],
      ['GET', '/api/export-search/?limit=0', 400, 'INVALID_PARAMETER', /limit/],
    ]);
  },
  { migrations: retractionService.migrations },
);
