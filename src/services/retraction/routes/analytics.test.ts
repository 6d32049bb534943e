// The analytics endpoints on SQLite and PostgreSQL: post-retraction analytics across filters, every
// analytics-data type as JSON and CSV, the realtime figures, the shared analytics budget and the bad inputs.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import Papa from 'papaparse';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { ANALYTICS_CSV_COLUMNS, ANALYTICS_TYPES } from '../aggregates.ts';
import { AnalyticsIndex } from '../analytics-index.ts';
import { postRetractionAnalyticsByQuery } from '../../../../test/support/retraction/analytics-query.ts';
import { natureOf } from '../nature.ts';
import { retractionDb } from '../tables.ts';
import { TIME_FILTERS } from '../windows.ts';
import { retractionService } from '../service.ts';

describeEachDatabase(
  'retraction routes: analytics',
  (t) => {
    const fx = retractionHttpFixture(t);

    it('reports post-retraction analytics consistent across time filters and with the filters applied', async () => {
      const all = (await fx.get('/api/post-retraction-analytics/')).body;
      assert.equal(all.filters.time_filter, 'all');
      // Every record counts with nature=all (the meaning papers had before retractions were told apart).
      assert.equal((await fx.get('/api/post-retraction-analytics/?nature=all')).body.totals.papers, fx.paperCount);
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
      const overview = (await fx.get('/api/analytics-data/?type=overview')).body.data;
      assert.equal(all.totals.citations, overview.total_citations);
      assert.equal(all.totals.post_retraction_citations, overview.post_retraction_citations);
      let previous = 0;
      for (const filter of ['1y', '3y', '5y', 'all']) {
        const body = (await fx.get(`/api/post-retraction-analytics/?time_filter=${filter}`)).body;
        assert.ok(body.totals.citations >= previous, filter);
        previous = body.totals.citations;
        if (filter !== 'all') assert.ok(body.filters.citing_date_from < body.filters.citing_date_to);
      }
      const filtered = (await fx.get('/api/post-retraction-analytics/?journal=LETTERS&subject=biology&time_filter=5y')).body;
      assert.deepEqual([filtered.filters.journal, filtered.filters.subject], ['LETTERS', 'biology']);
      assert.ok(filtered.totals.papers > 0 && filtered.totals.papers < fx.paperCount);
      for (const j of filtered.top_journals) assert.match(j.journal, /letters/i);
      assert.ok(filtered.totals.citations <= (await fx.get('/api/post-retraction-analytics/?time_filter=5y')).body.totals.citations);
      // Accents and case folded as the search does, in the in-memory index.
      const folded = (await fx.get('/api/post-retraction-analytics/?journal=MEDICALE%20DE%20MONTREAL')).body;
      assert.equal(folded.totals.papers, 1);
      assert.equal((await fx.get('/api/post-retraction-analytics/?journal=Revue%20M%C3%A9dicale')).body.totals.papers, 1);
    });

    it('serves every analytics-data type as JSON and as the documented flat CSV; chart is an alias', async () => {
      for (const type of ANALYTICS_TYPES) {
        const json = await fx.get(`/api/analytics-data/?type=${type}`);
        assert.equal(json.status, 200);
        assert.deepEqual(json.body.columns, ANALYTICS_CSV_COLUMNS[type]);
        assert.deepEqual((await fx.get(`/api/analytics-data/?chart=${type}`)).body, json.body);
        const csv = await fx.get(`/api/analytics-data/?type=${type}&format=csv`);
        assert.match(String(csv.headers['content-type']), /^text\/csv/);
        const parsed = Papa.parse<Record<string, string>>(csv.text.trim(), { header: true });
        assert.deepEqual(parsed.meta.fields, ANALYTICS_CSV_COLUMNS[type]);
        if (type !== 'overview') assert.equal(parsed.data.length, json.body.data.length);
      }
      const trends = (await fx.get('/api/analytics-data/?type=trends')).body.data;
      type TrendRow = {
        retractions: number;
        expressions_of_concern: number;
        corrections: number;
        reinstatements: number;
        other_notices: number;
      };
      assert.equal(
        trends.reduce(
          (a: number, r: TrendRow) => a + r.retractions + r.expressions_of_concern + r.corrections + r.reinstatements + r.other_notices,
          0,
        ),
        fx.paperCount,
      );
      const overviewCsv = Papa.parse<Record<string, string>>((await fx.get('/api/analytics-data/?format=csv&nature=all')).text.trim(), {
        header: true,
      }).data;
      assert.equal(overviewCsv.find((r) => r.metric === 'total_papers')?.value, String(fx.paperCount));
    });

    it('gives realtime dashboard figures, cached for 60 seconds', async () => {
      const { body, headers } = await fx.get('/api/analytics-realtime/');
      assert.equal(headers['cache-control'], 'public, max-age=60');
      assert.equal(headers['x-ratelimit-limit'], '50');
      // Totals count retracted papers; every record is in by_nature.
      assert.equal(
        body.by_nature.reduce((a: number, n: { papers: number }) => a + n.papers, 0),
        fx.paperCount,
      );
      assert.equal(body.totals.papers, body.by_nature.find((n: { nature: string }) => n.nature === 'retraction').papers);
      assert.equal(body.imports_last_24_hours.count, 3);
      assert.equal(body.imports_last_24_hours.succeeded, 3);
      const timing = body.citation_timing;
      assert.equal(timing.pre_retraction + timing.same_day + timing.post_retraction + timing.undated, body.totals.citations);
      assert.ok(body.last_updated <= body.generated_at);
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
        statuses.push((await fx.app.inject({ url: urls[i % urls.length], remoteAddress: '192.0.2.50' })).statusCode);
      assert.deepEqual(statuses, [...Array(50).fill(200), 429]);
    });

    it('counts retractions as retractions: other kinds of notice apart in by_nature, nature= selects (before: every record counted)', async () => {
      const papers = JSON.parse((await fx.get('/api/export/?limit=10000')).text).papers as { retraction_nature: string | null }[];
      const expected = new Map<string, number>();
      for (const p of papers) {
        const kind = natureOf(p.retraction_nature);
        expected.set(kind, (expected.get(kind) ?? 0) + 1);
      }
      assert.ok((expected.get('expression_of_concern') ?? 0) > 0 && (expected.get('correction') ?? 0) > 0, 'the data holds other kinds');
      const body = (await fx.get('/api/post-retraction-analytics/')).body;
      assert.equal(body.filters.nature, 'retraction');
      assert.equal(body.totals.papers, expected.get('retraction'));
      for (const n of body.by_nature) assert.equal(n.papers, expected.get(n.nature) ?? 0, n.nature);
      const concern = (await fx.get('/api/post-retraction-analytics/?nature=expression_of_concern&time_filter=5y')).body;
      assert.equal(concern.totals.papers, expected.get('expression_of_concern'));
      const fiveYears = (await fx.get('/api/post-retraction-analytics/?time_filter=5y')).body;
      assert.deepEqual(concern.by_nature, fiveYears.by_nature, 'the breakdown ignores the nature filter');
      assert.equal(
        concern.totals.citations,
        fiveYears.by_nature.find((n: { nature: string }) => n.nature === 'expression_of_concern').citations,
      );

      const overview = (await fx.get('/api/analytics-data/?type=overview')).body;
      assert.equal(overview.nature, 'retraction');
      assert.equal(overview.data.total_papers, expected.get('retraction'));
      const everything = (await fx.get('/api/analytics-data/?type=overview&nature=all')).body.data;
      assert.equal(everything.total_papers, fx.paperCount);
      assert.equal(
        overview.data.by_nature.reduce((a: number, n: { total_citations: number }) => a + n.total_citations, 0),
        everything.total_citations,
      );
      const trends = (await fx.get('/api/analytics-data/?type=trends')).body.data;
      assert.equal(
        trends.reduce((a: number, r: { retractions: number }) => a + r.retractions, 0),
        expected.get('retraction'),
      );
      const subjects = (await fx.get('/api/analytics-data/?type=subjects&nature=correction')).body.data;
      assert.ok(subjects.reduce((a: number, r: { papers: number }) => a + r.papers, 0) >= (expected.get('correction') ?? 0));
    });

    it('answers every filter combination from the precomputed index exactly as the per-request computation', async () => {
      const db = retractionDb(t.db);
      const index = await AnalyticsIndex.load(db);
      let compared = 0;
      for (const timeFilter of TIME_FILTERS)
        for (const nature of ['retraction', 'all', 'correction'] as const)
          for (const [journal, subject] of [
            [undefined, undefined],
            ['LETTERS', undefined],
            [undefined, 'biology'],
            ['journal', 'medicine - '],
            ['no such journal', undefined],
            [undefined, 'ÉTUDE'],
          ] as const) {
            const filters = { timeFilter, nature, journal, subject };
            assert.deepEqual(
              await index.analytics(db, filters),
              await postRetractionAnalyticsByQuery(db, filters, index.asOf),
              JSON.stringify(filters),
            );
            compared++;
          }
      assert.equal(compared, 72);
    });

    errorCases(fx, [
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
      [
        'GET',
        '/api/post-retraction-analytics/?nature=retracted',
        400,
        'INVALID_PARAMETER',
        /^nature must be one of: retraction, expression_of_concern, correction, reinstatement, other, all$/,
      ],
    ]);
  },
  { migrations: retractionService.migrations },
);
