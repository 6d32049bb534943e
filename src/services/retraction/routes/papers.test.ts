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

    errorCases(fx, [['GET', '/api/paper/no-such-record/citations/', 404, 'PAPER_NOT_FOUND', /^paper no-such-record not found$/]]);
  },
  { migrations: retractionService.migrations },
);
