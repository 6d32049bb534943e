// Service E's HTTP contract on SQLite and PostgreSQL: generated data plus hand-made rows, every endpoint,
// the ranking of suggestions, exports read back (CSV, JSON, xlsx), rate limits and the table of bad inputs.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/node';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { retractionService } from './service.ts';
import { writeGenerated, loadRetractionDemo } from './demo.ts';
import { importCitations, importPanel, importRetractionWatch } from './import.ts';
import { EXPORT_COLUMNS, exportPapers } from './repository.ts';
import { ANALYTICS_CSV_COLUMNS, ANALYTICS_TYPES } from './analytics.ts';
import { pearson } from './democracy.ts';
import { simpleRow, tempDir } from './test-support.ts';
import { RW_COLUMNS } from './sources/retraction-watch.ts';
import { stringify } from 'csv-stringify/sync';

const TOKEN = 'zqxvorn';
// Hand-made rows: one per ranking rule of the autocomplete, formula-like titles (newest, so first in exports)
// and a title that needs Unicode case folding.
const SPECIAL = [
  simpleRow(900001, { Title: 'Zqxvorn', OriginalPaperDOI: '10.5555/special.1' }),
  simpleRow(900002, { Title: 'Zqxvorn effects on kidneys', OriginalPaperDOI: '10.5555/special.2' }),
  simpleRow(900003, { Title: 'Role of zqxvorn in mice', OriginalPaperDOI: '10.5555/special.3' }),
  simpleRow(900004, { Title: 'Effects of zqxvorn exposure', OriginalPaperDOI: '10.5555/special.4' }),
  simpleRow(900005, { Title: 'Antizqxvorn therapy', OriginalPaperDOI: '10.5555/special.5' }),
  simpleRow(900006, { Title: 'A paper about lungs', Author: 'Zqxvorn Ames;Bo Checker', OriginalPaperDOI: '10.5555/special.6' }),
  simpleRow(900007, { Title: 'A paper about livers', Author: 'Bo Antizqxvorn', OriginalPaperDOI: '10.5555/special.7' }),
  simpleRow(900008, { Title: 'A paper about hearts', OriginalPaperDOI: '10.5555/zqxvorn.8' }),
  simpleRow(900011, { Title: '=HYPERLINK("http://evil.example","click")', RetractionDate: '12/31/2025 0:00' }),
  simpleRow(900012, { Title: '+SUM(1,2)', RetractionDate: '12/30/2025 0:00' }),
  simpleRow(900013, { Title: '-2+3 results', RetractionDate: '12/29/2025 0:00' }),
  simpleRow(900014, { Title: '@cmd trouble', RetractionDate: '12/28/2025 0:00' }),
  simpleRow(900015, { Title: 'ÉTUDE DES ÖLSTRÖME IM LABOR', OriginalPaperDOI: '10.5555/special.15' }),
];
const EXPECTED_ORDER = ['900001', '900002', '900004', '900003', '900005', '900006', '900007', '900008'];

describeEachDatabase(
  'retraction HTTP contract',
  (t) => {
    let app: ServiceApp;
    let ctx: ServiceContext;
    let dir: string;
    let paperCount = 0;
    before(async () => {
      dir = tempDir('routes');
      const files = await writeGenerated(dir, { size: 400, seed: 7, citationsPerPaper: 6 });
      // Append the hand-made rows to the generated files.
      fs.appendFileSync(
        files.retractionWatch,
        stringify(
          SPECIAL.map((r) => RW_COLUMNS.map((c) => r[c] ?? '')),
          { record_delimiter: '\r\n' },
        ),
      );
      const extra = [
        ['s1', 'doi:10.5555/c.1', 'doi:10.5555/special.4', '2021-01-01'],
        ['s2', 'doi:10.5555/c.2', 'doi:10.5555/special.4', '2021-02-01'],
        ['s3', 'doi:10.5555/c.3', 'doi:10.5555/special.4', '2019-01-01'],
      ];
      fs.appendFileSync(files.citations, stringify(extra, { record_delimiter: '\r\n' }));
      ctx = testContext(retractionService, t.db, { dataDir: dir });
      await importRetractionWatch(t.db, files.retractionWatch, { isDemo: true });
      await importCitations(t.db, files.citations, { isDemo: true });
      await importPanel(t.db, files.panel, { isDemo: true });
      paperCount = 400 + SPECIAL.length;
      app = await buildTestApp(retractionService, ctx);
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    // Every request from its own address, so that no test runs into another's rate limit by accident.
    let client = 0;
    const nextAddress = () => `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}`;
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await app.inject({ url, headers, remoteAddress: nextAddress() });
      const json = String(res.headers['content-type']).startsWith('application/json') && res.body ? res.json() : null;
      return { status: res.statusCode, body: json, text: res.body, raw: res.rawPayload, headers: res.headers };
    };

    it('suggests papers best match first: DOI, title, title prefix, title word, title, author prefix, author, DOI part', async () => {
      const { status, body, headers } = await get(`/api/search-autocomplete/?q=${TOKEN}`);
      assert.equal(status, 200);
      assert.equal(headers['cache-control'], 'public, max-age=300');
      assert.equal(headers['x-ratelimit-limit'], '100');
      assert.deepEqual(
        body.suggestions.map((s: { record_id: string }) => s.record_id),
        EXPECTED_ORDER,
      );
      for (const s of body.suggestions)
        assert.deepEqual(Object.keys(s).sort(), [
          'author',
          'journal',
          'post_retraction_citations',
          'record_id',
          'retraction_date',
          'title',
        ]);
      // Within one rule, more post-retraction citations first (900004 has two, 900003 none).
      assert.equal(body.suggestions.find((s: { record_id: string }) => s.record_id === '900004').post_retraction_citations, 2);
      const doi = await get('/api/search-autocomplete/?q=https://doi.org/10.5555/ZQXVORN.8');
      assert.equal(doi.body.suggestions[0].record_id, '900008', 'a DOI URL finds its paper first');
      // A DOI's beginning lists the DOIs that start with it, in alphabetical order, then DOIs containing it.
      const prefix = await get('/api/search-autocomplete/?q=doi:10.5555/SPECIAL.1');
      assert.deepEqual(
        prefix.body.suggestions.map((s: { record_id: string }) => s.record_id),
        ['900001', '900015'],
      );
      const contains = await get('/api/search-autocomplete/?q=10.5555/zqxvorn');
      assert.deepEqual(
        contains.body.suggestions.map((s: { record_id: string }) => s.record_id),
        ['900008'],
      );
      const upper = await get(`/api/search-autocomplete/?q=%20%20${TOKEN.toUpperCase()}%20`);
      assert.deepEqual(upper.body, body, 'trimmed and case-insensitive');
      const unicode = await get('/api/search-autocomplete/?q=%C3%A9tude%20des%20%C3%B6l');
      assert.deepEqual(
        unicode.body.suggestions.map((s: { record_id: string }) => s.record_id),
        ['900015'],
      );
    });

    it('returns at most 10 suggestions, each containing the text somewhere', async () => {
      const { body } = await get('/api/search-autocomplete/?q=sepsis');
      assert.equal(body.suggestions.length, 10);
      for (const s of body.suggestions) assert.match(`${s.title} ${s.author}`, /sepsis/i);
      assert.deepEqual((await get('/api/search-autocomplete/?q=nothing-like-this-anywhere')).body, { suggestions: [] });
    });

    it("answers a paper's citations with counts that add up", async () => {
      const { status, body } = await get('/api/paper/900004/citations/');
      assert.equal(status, 200);
      assert.deepEqual([body.total_citations, body.pre_retraction_count, body.post_retraction_count, body.same_day_count], [3, 1, 2, 0]);
      assert.deepEqual(body.citations_by_year, { 2019: 1, 2021: 2 });
      assert.deepEqual(body.post_retraction_by_year, { 2021: 2 });
      assert.deepEqual(body.post_retraction_timing, { within_30_days: 0, within_1_year: 2, within_2_years: 0, after_2_years: 0 }); // 292 and 323 days after
      assert.equal(body.paper.doi, '10.5555/special.4');
      assert.equal(body.paper.is_demo, true);
      const sameWithoutSlash = await get('/api/paper/900004/citations');
      assert.deepEqual(sameWithoutSlash.body, body);
      for (let id = 1; id <= 30; id++) {
        const p = (await get(`/api/paper/${id}/citations/`)).body;
        assert.equal(p.pre_retraction_count + p.same_day_count + p.post_retraction_count + p.undated_count, p.total_citations);
        assert.equal(
          Object.values(p.post_retraction_timing as Record<string, number>).reduce((a, b) => a + b, 0),
          p.post_retraction_count,
        );
      }
    });

    it('reports post-retraction analytics consistent across time filters and with the filters applied', async () => {
      const all = (await get('/api/post-retraction-analytics/')).body;
      assert.equal(all.filters.time_filter, 'all');
      assert.equal(all.totals.papers, paperCount);
      assert.equal(all.data_source.kind, 'generated');
      assert.equal(
        all.timing_distribution.reduce((a: number, b: { count: number }) => a + b.count, 0),
        all.totals.post_retraction_citations,
      );
      assert.equal(all.monthly_trend.length, 24);
      const months = all.monthly_trend.map((m: { month: string }) => m.month);
      assert.deepEqual(months, [...months].sort());
      assert.equal(months[23], all.filters.as_of.slice(0, 7));
      for (let i = 1; i < all.top_papers.length; i++)
        assert.ok(all.top_papers[i - 1].post_retraction_citations >= all.top_papers[i].post_retraction_citations);
      const overview = (await get('/api/analytics-data/?type=overview')).body.data;
      assert.equal(all.totals.citations, overview.total_citations);
      assert.equal(all.totals.post_retraction_citations, overview.post_retraction_citations);
      let previous = 0;
      for (const filter of ['1y', '3y', '5y', 'all']) {
        const body = (await get(`/api/post-retraction-analytics/?time_filter=${filter}`)).body;
        assert.ok(body.totals.citations >= previous, filter);
        previous = body.totals.citations;
        if (filter !== 'all') assert.ok(body.filters.citing_date_from < body.filters.citing_date_to);
      }
      const filtered = (await get('/api/post-retraction-analytics/?journal=LETTERS&subject=biology&time_filter=5y')).body;
      assert.deepEqual([filtered.filters.journal, filtered.filters.subject], ['LETTERS', 'biology']);
      assert.ok(filtered.totals.papers > 0 && filtered.totals.papers < paperCount);
      for (const j of filtered.top_journals) assert.match(j.journal, /letters/i);
      assert.ok(filtered.totals.citations <= (await get('/api/post-retraction-analytics/?time_filter=5y')).body.totals.citations);
    });

    it('serves every analytics-data type as JSON and as the documented flat CSV; chart is an alias', async () => {
      for (const type of ANALYTICS_TYPES) {
        const json = await get(`/api/analytics-data/?type=${type}`);
        assert.equal(json.status, 200);
        assert.deepEqual(json.body.columns, ANALYTICS_CSV_COLUMNS[type]);
        assert.deepEqual((await get(`/api/analytics-data/?chart=${type}`)).body, json.body);
        const csv = await get(`/api/analytics-data/?type=${type}&format=csv`);
        assert.match(String(csv.headers['content-type']), /^text\/csv/);
        const parsed = Papa.parse<Record<string, string>>(csv.text.trim(), { header: true });
        assert.deepEqual(parsed.meta.fields, ANALYTICS_CSV_COLUMNS[type]);
        if (type !== 'overview') assert.equal(parsed.data.length, json.body.data.length);
      }
      const trends = (await get('/api/analytics-data/?type=trends')).body.data;
      assert.equal(
        trends.reduce((a: number, r: { retractions: number }) => a + r.retractions, 0),
        paperCount,
      );
      const overviewCsv = Papa.parse<Record<string, string>>((await get('/api/analytics-data/?format=csv')).text.trim(), {
        header: true,
      }).data;
      assert.equal(overviewCsv.find((r) => r.metric === 'total_papers')?.value, String(paperCount));
    });

    it('gives realtime dashboard figures, cached for 60 seconds', async () => {
      const { body, headers } = await get('/api/analytics-realtime/');
      assert.equal(headers['cache-control'], 'public, max-age=60');
      assert.equal(headers['x-ratelimit-limit'], '50');
      assert.equal(body.totals.papers, paperCount);
      assert.equal(body.imports_last_24_hours.count, 3);
      assert.equal(body.imports_last_24_hours.succeeded, 3);
      const timing = body.citation_timing;
      assert.equal(timing.pre_retraction + timing.same_day + timing.post_retraction + timing.undated, body.totals.citations);
      assert.ok(body.last_updated <= body.generated_at);
    });

    it('exports JSON with the contract columns and analytics, streamed as an attachment', async () => {
      const res = await get('/api/export/');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="retracted-papers-\d{4}-\d{2}-\d{2}-1000\.json"$/);
      assert.equal(res.headers['x-ratelimit-limit'], '10');
      const body = JSON.parse(res.text);
      assert.equal(body.papers.length, paperCount);
      assert.deepEqual(Object.keys(body.papers[0]), [...EXPORT_COLUMNS]);
      assert.equal(body.analytics.exported_papers, paperCount);
      assert.equal(body.analytics.limit, 1000);
      assert.equal(
        body.analytics.total_citations,
        body.papers.reduce((a: number, p: { total_citations: number }) => a + p.total_citations, 0),
      );
      assert.equal(body.analytics.data_source.kind, 'generated');
      const dates = body.papers.map((p: { retraction_date: string | null }) => p.retraction_date ?? '');
      for (let i = 1; i < dates.length; i++) assert.ok(dates[i - 1] >= dates[i], 'newest retraction first');
      const clamped = JSON.parse((await get('/api/export/?limit=20000')).text);
      assert.equal(clamped.analytics.limit, 10000);
    });

    it('exports CSV with formula-like titles escaped, and xlsx that read-excel-file opens', async () => {
      const csv = await get('/api/export/?format=csv&limit=6');
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      assert.match(String(csv.headers['content-disposition']), /^attachment; filename="retracted-papers-.*-6\.csv"$/);
      const parsed = Papa.parse<string[]>(csv.text.trim(), { header: false });
      assert.deepEqual(parsed.data[0], [...EXPORT_COLUMNS]);
      assert.equal(parsed.data.length, 7);
      const titles = parsed.data.slice(1).map((r) => r[1]);
      assert.deepEqual(titles.slice(0, 4), [`'=HYPERLINK("http://evil.example","click")`, `'+SUM(1,2)`, `'-2+3 results`, `'@cmd trouble`]);

      const xlsx = await get('/api/export/?format=excel&limit=25');
      assert.equal(xlsx.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.match(String(xlsx.headers['content-disposition']), /\.xlsx"$/);
      const [sheet] = await readXlsxFile(xlsx.raw, { trim: false });
      assert.equal(sheet.data.length, 26);
      assert.deepEqual(sheet.data[0], [...EXPORT_COLUMNS]);
      assert.equal(
        sheet.data[1][1],
        '=HYPERLINK("http://evil.example","click")',
        'xlsx keeps the text exact: a string cell is never a formula',
      );
      assert.equal(sheet.data[1][0], '900011');
    });

    it('pages the export by keyset without overlap or gap, whatever the page size', async () => {
      const all: string[] = [];
      for await (const p of exportPapers(t.db.kysely, 10000, 100000)) all.push(p.record_id);
      const small: string[] = [];
      for await (const p of exportPapers(t.db.kysely, 10000, 7)) small.push(p.record_id);
      assert.equal(all.length, paperCount);
      assert.deepEqual(small, all);
      const limited: string[] = [];
      for await (const p of exportPapers(t.db.kysely, 50, 7)) limited.push(p.record_id);
      assert.deepEqual(limited, all.slice(0, 50));
    });

    it('answers the 11th export within a minute with 429, Retry-After and the error body', async () => {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 11; i++) {
        last = await app.inject({ url: '/api/export/?format=csv&limit=1', remoteAddress: '192.0.2.11' });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
      assert.ok(Number(last!.headers['retry-after']) > 0);
      assert.equal(last!.headers['x-ratelimit-remaining'], '0');
      assert.deepEqual(Object.keys(last!.json()), ['error', 'code']);
      assert.equal(last!.json().code, 'RATE_LIMITED');
      // The export budget is its own: the same client can still search and read analytics.
      assert.equal((await app.inject({ url: `/api/search-autocomplete/?q=${TOKEN}`, remoteAddress: '192.0.2.11' })).statusCode, 200);
      assert.equal((await app.inject({ url: '/api/analytics-realtime/', remoteAddress: '192.0.2.11' })).statusCode, 200);
    });

    it('limits analytics to 50 per minute, democracy endpoints included', async () => {
      const urls = [
        '/api/analytics-data/',
        '/api/post-retraction-analytics/',
        '/api/analytics-realtime/',
        '/api/democracy/overview/',
        '/api/democracy/raw-data/',
      ];
      const statuses: number[] = [];
      for (let i = 0; i < 51; i++)
        statuses.push((await app.inject({ url: urls[i % urls.length], remoteAddress: '192.0.2.50' })).statusCode);
      assert.deepEqual(statuses, [...Array(50).fill(200), 429]);
    });

    it('serves the democracy panel, its visualisations and the model endpoints', async () => {
      const overview = (await get('/api/democracy/overview/')).body;
      assert.equal(overview.panel.rows, 1080);
      assert.equal(overview.panel.countries, 60);
      assert.deepEqual(overview.panel.predictors.slice(0, 1), ['democracy_index']);
      assert.ok(['imported', 'not_fitted'].includes(overview.model.status));

      const chile = (await get('/api/democracy/raw-data/?country=CHL&limit=5')).body;
      assert.deepEqual([chile.count, chile.total, chile.limit], [5, 18, 5]);
      assert.ok(chile.data.every((r: { iso3: string; is_demo: boolean }) => r.iso3 === 'CHL' && r.is_demo));
      const partial = (await get('/api/democracy/raw-data/?country=chi&year=2010')).body;
      assert.deepEqual(partial.data.map((r: { country: string }) => r.country).sort(), ['Chile', 'China', 'Czechia']); // chi is part of each name
      assert.equal((await get('/api/democracy/raw-data/')).body.limit, 100);
      const clamped = (await get('/api/democracy/raw-data/?limit=5000')).body;
      assert.deepEqual([clamped.limit, clamped.count], [1000, 1000]);

      const vis = (await get('/api/democracy/visualizations/')).body;
      assert.equal(vis.scatter.points.length, 60);
      const r = pearson(
        vis.scatter.points.map((p: { democracy_index: number }) => p.democracy_index),
        vis.scatter.points.map((p: { retraction_rate: number }) => p.retraction_rate),
      )!;
      assert.ok(Math.abs(vis.scatter.correlation.pearson_r - r) < 1e-3);
      assert.equal(vis.temporal_trends.length, 18);
      assert.equal(vis.world_map.length, 60);
      assert.equal(
        vis.regional_summary.reduce((a: number, g: { countries: number }) => a + g.countries, 0),
        60,
      );

      const fitted = (await get('/api/democracy/statistical-results/?source=fitted')).body;
      assert.equal(fitted.model.status, 'not_fitted');
      assert.deepEqual(fitted.predictors, []);
      assert.match(fitted.model.note, /pdi fit retraction/);
      const diagnostics = (await get('/api/democracy/model-diagnostics/?source=fitted')).body;
      assert.equal(diagnostics.convergence, null);
      assert.equal((await get('/api/democracy/methodology/?source=fitted')).body.methodology, null);
    });

    const badInputs: [string, string, number, string, RegExp][] = [
      ['GET', '/api/search-autocomplete/', 400, 'MISSING_PARAMETER', /^q is required$/],
      [
        'GET',
        '/api/search-autocomplete/?q=%20ab%20%20',
        400,
        'INVALID_PARAMETER',
        /^q must be at least 3 characters long after trimming spaces \(got 2\)$/,
      ],
      ['GET', `/api/search-autocomplete/?q=${'a'.repeat(201)}`, 400, 'INVALID_PARAMETER', /^q must be at most 200 characters long$/],
      ['GET', '/api/paper/no-such-record/citations/', 404, 'PAPER_NOT_FOUND', /^paper no-such-record not found$/],
      ['GET', '/api/post-retraction-analytics/?time_filter=2y', 400, 'INVALID_PARAMETER', /^time_filter must be one of: all, 1y, 3y, 5y$/],
      [
        'GET',
        '/api/analytics-data/?type=map',
        400,
        'INVALID_PARAMETER',
        /^type must be one of: overview, trends, citations, subjects, geographic$/,
      ],
      ['GET', '/api/analytics-data/?format=xml', 400, 'INVALID_PARAMETER', /^format must be one of: json, csv$/],
      ['GET', '/api/analytics-data/?type=trends&chart=subjects', 400, 'INVALID_PARAMETER', /^type and chart/],
      ['GET', '/api/export/?format=pdf', 400, 'INVALID_PARAMETER', /^format must be one of: json, csv, excel$/],
      ['GET', '/api/export/?limit=0', 400, 'INVALID_PARAMETER', /^limit must be at least 1$/],
      ['GET', '/api/export/?limit=ten', 400, 'INVALID_PARAMETER', /^limit must be an integer$/],
      ['GET', '/api/democracy/raw-data/?year=abc', 400, 'INVALID_PARAMETER', /^year must be an integer$/],
      ['GET', '/api/democracy/raw-data/?year=1500', 400, 'INVALID_PARAMETER', /^year must be a whole year between 1800 and 2200$/],
      ['GET', '/api/democracy/raw-data/?limit=-1', 400, 'INVALID_PARAMETER', /^limit must be at least 1$/],
      ['GET', '/api/democracy/statistical-results/?source=guess', 400, 'INVALID_PARAMETER', /^source must be one of: fitted, imported$/],
      ['POST', '/api/export/', 405, 'METHOD_NOT_ALLOWED', /^GET method required$/],
      ['DELETE', '/api/democracy/overview/', 405, 'METHOD_NOT_ALLOWED', /^GET method required$/],
      ['GET', '/api/unknown/', 404, 'NOT_FOUND', /^no such endpoint/],
    ];
    for (const [method, url, status, code, message] of badInputs) {
      it(`answers ${method} ${url.slice(0, 70)} with ${status} ${code}`, async () => {
        const res = await app.inject({ method: method as 'GET', url, remoteAddress: nextAddress() });
        assert.equal(res.statusCode, status);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const body = res.json();
        assert.deepEqual(Object.keys(body), ['error', 'code']);
        assert.equal(body.code, code);
        assert.match(body.error, message);
        if (status === 405) assert.equal(res.headers.allow, 'GET, HEAD');
      });
    }

    it('answers HEAD and If-None-Match, and publishes its OpenAPI document', async () => {
      const first = await get('/api/democracy/visualizations/');
      const again = await get('/api/democracy/visualizations/', { 'if-none-match': String(first.headers.etag) });
      assert.equal(again.status, 304);
      const head = await app.inject({ method: 'HEAD', url: '/api/analytics-data/', remoteAddress: nextAddress() });
      assert.equal(head.statusCode, 200);
      const doc = (await get('/openapi.json')).body;
      for (const p of [
        '/api/search-autocomplete/',
        '/api/paper/{record_id}/citations/',
        '/api/post-retraction-analytics/',
        '/api/analytics-data/',
        '/api/export/',
        '/api/analytics-realtime/',
        '/api/democracy/overview/',
        '/api/democracy/raw-data/',
        '/api/democracy/visualizations/',
        '/api/democracy/model-diagnostics/',
        '/api/democracy/statistical-results/',
        '/api/democracy/methodology/',
      ])
        assert.ok(doc.paths[p]?.get, p);
    });

    it('loads the demo through the importers, labelled as generated', async () => {
      const reports = await loadRetractionDemo(ctx, { size: 150 });
      assert.ok(reports.slice(0, 3).every((r) => r.is_demo));
      const body = (await get('/api/post-retraction-analytics/')).body;
      assert.equal(body.totals.papers, 150);
      assert.equal(body.data_source.kind, 'generated');
      assert.match(body.data_source.description, /GENERATED/);
      const model = (await get('/api/democracy/statistical-results/')).body.model;
      assert.ok(model.status === 'imported' || model.status === 'not_fitted');
      if (model.status === 'imported') assert.equal(model.describes_current_panel, false);
      const notes = JSON.parse((await get('/api/export/?limit=3')).text);
      assert.ok(notes.papers.every((p: { doi: string | null }) => p.doi === null || p.doi.startsWith('10.5555/')));
    });
  },
  { migrations: retractionService.migrations },
);
