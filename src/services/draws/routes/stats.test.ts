// GET /api/stats/ on the real snapshot, both databases: the spec's keys, recomputed from the draws and the
// stored predictions.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeWithSnapshot } from '../../../../test/support/draws/context.ts';
import { assertErrorCases, ISO_TIMESTAMP, keys, mean, round2, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { PredictResponse } from '../schemas/predict.ts';
import type { StatsResponse } from '../schemas/stats.ts';

describeWithSnapshot('draws GET /api/stats/', (t) => {
  const s = useSnapshotApp(t);

  it("the spec's keys, recomputed from the draws and the predictions", async () => {
    const all = s.all;
    const { status, body } = await s.get<Static<typeof StatsResponse>>('/api/stats/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), [
      'avg_crs_score',
      'avg_invitations',
      'categories_count',
      'data_source',
      'forecast_origin',
      'last_updated',
      'max_crs_score',
      'min_crs_score',
      'newest_draw_used',
      'next_predictions',
      'recent_draws',
      'success',
      'total_draws',
      'total_predictions',
    ]);
    const predict = (await s.get<Static<typeof PredictResponse>>('/api/predict/')).body;
    assert.equal(body.total_draws, 389);
    assert.equal(body.categories_count, 12);
    assert.equal(
      body.total_predictions,
      predict.data.reduce((sum, e) => sum + e.predictions.length, 0),
    );
    assert.equal(body.avg_crs_score, round2(mean(all.map((d) => d.lowest_crs_score))));
    assert.equal(body.avg_invitations, round2(mean(all.map((d) => d.invitations_issued))));
    assert.equal(body.min_crs_score, Math.min(...all.map((d) => d.lowest_crs_score)));
    assert.equal(body.max_crs_score, Math.max(...all.map((d) => d.lowest_crs_score)));
    assert.deepEqual(body.recent_draws, all.slice(0, 10));
    const firsts = predict.data.map((e) => ({ category_id: e.category_id, category_name: e.category_name, ...e.predictions[0] }));
    firsts.sort((a, b) => a.predicted_date.localeCompare(b.predicted_date) || a.category_id - b.category_id);
    assert.deepEqual(body.next_predictions, firsts);
    assert.match(body.last_updated!, ISO_TIMESTAMP);
    assert.equal(body.last_updated, body.data_source.imported_at);
  });

  it("answers the group's error cases with the service's JSON error body", async () => {
    await assertErrorCases(s.app, [['POST', '/api/stats/', 405, /^GET method required$/]]);
  });
});
