// GET /api/paper/{record_id}/citations/ on SQLite and PostgreSQL: counts that add up, and an unknown paper.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { retractionService } from '../service.ts';

describeEachDatabase(
  'retraction routes: papers',
  (t) => {
    const fx = retractionHttpFixture(t);

    it("answers a paper's citations with counts that add up", async () => {
      const { status, body } = await fx.get('/api/paper/900004/citations/');
      assert.equal(status, 200);
      assert.deepEqual([body.total_citations, body.pre_retraction_count, body.post_retraction_count, body.same_day_count], [3, 1, 2, 0]);
      assert.deepEqual(body.citations_by_year, { 2019: 1, 2021: 2 });
      assert.deepEqual(body.post_retraction_by_year, { 2021: 2 });
      assert.deepEqual(body.post_retraction_timing, { within_30_days: 0, within_1_year: 2, within_2_years: 0, after_2_years: 0 }); // 292 and 323 days after
      assert.equal(body.paper.doi, '10.5555/special.4');
      assert.equal(body.paper.is_demo, true);
      assert.deepEqual([body.paper.retraction_nature, body.paper.nature], ['Retraction', 'retraction']);
      const sameWithoutSlash = await fx.get('/api/paper/900004/citations');
      assert.deepEqual(sameWithoutSlash.body, body);
      for (let id = 1; id <= 30; id++) {
        const p = (await fx.get(`/api/paper/${id}/citations/`)).body;
        assert.equal(p.pre_retraction_count + p.same_day_count + p.post_retraction_count + p.undated_count, p.total_citations);
        assert.equal(
          Object.values(p.post_retraction_timing as Record<string, number>).reduce((a, b) => a + b, 0),
          p.post_retraction_count,
        );
      }
    });

    it("lists a paper's citing works a page at a time, split at the notice", async () => {
      const { status, body } = await fx.get('/api/papers/900004/citing-works/');
      assert.equal(status, 200);
      assert.deepEqual(body.counts, { before: 1, same_day: 0, after: 2, undated: 0 });
      assert.deepEqual([body.total, body.total_pages, body.page, body.when], [3, 1, 1, 'all']);
      assert.deepEqual(
        body.works.map((w: { doi: string; date: string; timing: string; year: number }) => [w.doi, w.date, w.timing, w.year]),
        [
          ['10.5555/c.3', '2019-01-01', 'before', 2019],
          ['10.5555/c.1', '2021-01-01', 'after', 2021],
          ['10.5555/c.2', '2021-02-01', 'after', 2021],
        ],
      );
      assert.equal(body.works[1].days_after_notice, 292);
      const after = await fx.get('/api/papers/900004/citing-works/?when=after&limit=1&page=2');
      assert.deepEqual([after.body.total, after.body.total_pages, after.body.works.length], [2, 2, 1]);
      assert.equal(after.body.works[0].doi, '10.5555/c.2');
      const past = await fx.get('/api/papers/900004/citing-works/?page=9');
      assert.deepEqual([past.status, past.body.works.length], [200, 0]);
      const clamped = await fx.get('/api/papers/900004/citing-works/?limit=100000');
      assert.equal(clamped.body.limit, 500);
      // Every generated paper: the pages add up to the citation counts of /api/paper/{id}/citations/.
      for (let id = 1; id <= 15; id++) {
        const counts = (await fx.get(`/api/paper/${id}/citations/`)).body;
        const works = (await fx.get(`/api/papers/${id}/citing-works/?limit=500`)).body;
        assert.equal(works.works.length, counts.total_citations);
        assert.equal(works.counts.after, counts.post_retraction_count);
        assert.equal(works.counts.before, counts.pre_retraction_count);
        const dates = works.works.filter((w: { date: string | null }) => w.date !== null).map((w: { date: string }) => w.date);
        assert.deepEqual(dates, [...dates].sort(), 'oldest first');
      }
    });

    errorCases(fx, [
      ['GET', '/api/paper/no-such-record/citations/', 404, 'PAPER_NOT_FOUND', /^paper no-such-record not found$/],
      ['GET', '/api/papers/no-such-record/citing-works/', 404, 'PAPER_NOT_FOUND', /^paper no-such-record not found$/],
      ['GET', '/api/papers/900004/citing-works/?when=later', 400, 'INVALID_PARAMETER', /when/],
      ['GET', '/api/papers/900004/citing-works/?page=0', 400, 'INVALID_PARAMETER', /page/],
      ['GET', '/api/papers/900004/citing-works/?limit=abc', 400, 'INVALID_PARAMETER', /limit/],
    ]);
  },
  { migrations: retractionService.migrations },
);
