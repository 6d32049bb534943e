// GET /api/categories/ and /api/categories/{id}/statistics/ on the real snapshot, both databases: figures
// recomputed from the draws themselves, and the group's error cases (predictions: predict.test.ts).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeWithSnapshot } from '../../../../test/support/draws/context.ts';
import {
  assertErrorCases,
  CATEGORY_KEYS,
  ISO_TIMESTAMP,
  keys,
  mean,
  median,
  round2,
  useSnapshotApp,
} from '../../../../test/support/draws/http.ts';
import type { ErrorCase } from '../../../../test/support/draws/http.ts';
import { dayNumber } from '../feed/ircc-dates.ts';
import type { CategoriesResponse, CategoryStatisticsResponse } from '../schemas/categories.ts';

describeWithSnapshot('draws GET /api/categories/', (t) => {
  const s = useSnapshotApp(t);

  it('the OpenAPI document says that is_active is not whether a category still draws', async () => {
    const { body } = await s.get<{
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
    }>('/openapi.json');
    const schema = body.paths['/api/categories/'].get.responses['200'].content['application/json'].schema as {
      items: { properties: { is_active: { description?: string } } };
    };
    assert.match(schema.items.properties.is_active.description ?? '', /dormant/);
  });

  it('a bare array of the active categories with their figures', async () => {
    const { status, body } = await s.get<Static<typeof CategoriesResponse>>('/api/categories/');
    assert.equal(status, 200);
    assert.ok(Array.isArray(body));
    assert.deepEqual(
      body.map((c) => c.id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    for (const c of body) {
      assert.deepEqual(keys(c), CATEGORY_KEYS);
      assert.equal(c.is_active, true);
      assert.match(c.created_at, ISO_TIMESTAMP);
      const mine = s.all.filter((d) => d.category_id === c.id);
      assert.equal(c.total_draws, mine.length);
      assert.equal(c.avg_crs_score, round2(mean(mine.map((d) => d.lowest_crs_score))));
      assert.equal(c.latest_draw_date, mine[0].date);
      assert.ok(mine.every((d) => d.category_name === c.name));
    }
    assert.deepEqual(
      body.map((c) => c.total_draws),
      [178, 53, 95, 1, 7, 26, 13, 3, 5, 3, 3, 2],
    );
  });

  it("GET /api/categories/{id}/statistics/: figures recomputed from the category's draws", async () => {
    for (const id of [1, 2, 4, 7]) {
      const { status, body } = await s.get<Static<typeof CategoryStatisticsResponse>>(`/api/categories/${id}/statistics/`);
      assert.equal(status, 200);
      assert.deepEqual(keys(body), ['data', 'data_source', 'success']);
      const mine = s.all.filter((d) => d.category_id === id);
      const crs = mine.map((d) => d.lowest_crs_score);
      const invitations = mine.map((d) => d.invitations_issued);
      const dates = [...new Set(mine.map((d) => d.date))].sort();
      const gaps = dates.slice(1).map((d, i) => dayNumber(d) - dayNumber(dates[i]));
      assert.deepEqual(body.data, {
        category_id: id,
        category_name: mine[0].category_name,
        total_draws: mine.length,
        avg_crs_score: round2(mean(crs)),
        median_crs_score: median(crs),
        min_crs_score: Math.min(...crs),
        max_crs_score: Math.max(...crs),
        total_invitations: invitations.reduce((sum, n) => sum + n, 0),
        avg_invitations: round2(mean(invitations)),
        first_draw_date: dates[0],
        latest_draw_date: dates.at(-1),
        avg_days_between_draws: gaps.length ? round2(mean(gaps)) : null,
        median_days_between_draws: gaps.length ? median(gaps) : null,
        latest_draw: mine[0],
      });
    }
  });

  it("answers the group's error cases with the service's JSON error body", async () => {
    const cases: ErrorCase[] = [
      ['GET', '/api/categories/999/statistics/', 404, /category 999 not found/],
      ['GET', '/api/categories/abc/statistics/', 400, /^id must be a positive whole number$/],
      ['GET', '/api/categories/999/predictions/', 404, /not found/],
      ['GET', '/api/categories/-1/predictions/', 400, /^id must be/],
      ['PUT', '/api/categories/1/statistics/', 405, /^GET method required$/],
    ];
    await assertErrorCases(s.app, cases);
  });
});
