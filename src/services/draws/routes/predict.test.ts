// GET /api/predict/, /api/predict/{id}/ and /api/categories/{id}/predictions/ on the real snapshot, as-of
// date 2025-12-17, both databases: the predicted categories, their last draws, the predictions' shape, and
// the group's error cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeWithSnapshot, SNAPSHOT_AS_OF } from '../../../../test/support/draws/context.ts';
import { assertErrorCases, checkPrediction, ISO_TIMESTAMP, keys, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { ErrorCase } from '../../../../test/support/draws/http.ts';
import type { CategoryPredictionsResponse } from '../schemas/categories.ts';
import type { PredictResponse } from '../schemas/predict.ts';

type Predict = Static<typeof PredictResponse>;

describeWithSnapshot('draws GET /api/predict/', (t) => {
  const s = useSnapshotApp(t);

  it('the predicted categories, each with its last five draws and five predictions', async () => {
    const { status, body } = await s.get<Predict>('/api/predict/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), [
      'data',
      'data_source',
      'forecast_origin',
      'generated_at',
      'newest_draw_used',
      'success',
      'total_categories',
    ]);
    // The snapshot's as-of date is its newest draw's: the forecasts say so, and the data is current.
    assert.equal(body.forecast_origin, SNAPSHOT_AS_OF);
    assert.deepEqual(body.newest_draw_used, { date: SNAPSHOT_AS_OF, round_number: '388' });
    assert.deepEqual(
      [body.data_source.newest_draw_date, body.data_source.days_since_newest_draw, body.data_source.stale],
      [SNAPSHOT_AS_OF, 0, false],
    );
    assert.equal(body.success, true);
    assert.match(body.generated_at, ISO_TIMESTAMP);
    assert.equal(body.total_categories, body.data.length);
    // Education (12) has two draws: young, forecast by the pooled model.
    assert.deepEqual(
      body.data.map((e) => e.category_id),
      [2, 3, 6, 7, 9, 12],
    );
    for (const entry of body.data) {
      assert.deepEqual(keys(entry), [
        'category_description',
        'category_id',
        'category_name',
        'dormant_since',
        'if_resumed',
        'last_draw_date',
        'last_updated',
        'predictions',
        'recent_draws',
        'status',
        'status_reason',
      ]);
      const mine = s.all.filter((d) => d.category_id === entry.category_id);
      assert.equal(entry.status, entry.category_id === 12 ? 'young' : 'predicted');
      assert.equal(entry.dormant_since, null);
      assert.equal(entry.last_draw_date, mine[0].date);
      if (entry.status === 'young') assert.match(entry.status_reason, /young, forecast by the pooled model with wider intervals/);
      assert.equal(entry.category_name, mine[0].category_name);
      assert.equal(typeof entry.category_description, 'string');
      assert.match(entry.last_updated!, ISO_TIMESTAMP);
      assert.equal(entry.last_updated!.slice(0, 10), mine[0].date);
      assert.deepEqual(
        entry.recent_draws,
        mine.slice(0, 5).map((d) => ({ date: d.date, crs_score: d.lowest_crs_score, invitations: d.invitations_issued })),
      );
      // Five ranks unless later ones would fall more than a year after the as-of date (trade and education: a draw every few months).
      assert.ok(entry.predictions.length >= 1 && entry.predictions.length <= 5);
      if (![9, 12].includes(entry.category_id)) assert.equal(entry.predictions.length, 5);
      assert.ok(entry.predictions.every((p) => p.model_used === (entry.status === 'young' ? 'pooled_young' : 'combination')));
      entry.predictions.forEach((p, i) => {
        checkPrediction(p, SNAPSHOT_AS_OF);
        assert.equal(p.rank, i + 1);
        if (i > 0) assert.ok(p.predicted_date > entry.predictions[i - 1].predicted_date);
      });
      assert.equal(new Set(entry.predictions.map((p) => p.model_used)).size, 1, 'one chosen model per category');
    }
    assert.equal(body.data_source.forecasts_as_of, SNAPSHOT_AS_OF);
  });

  it('GET /api/predict/{id}/ and /api/categories/{id}/predictions/ agree with /api/predict/', async () => {
    const every = (await s.get<Predict>('/api/predict/')).body;
    for (const entry of every.data) {
      const one = (await s.get<Predict>(`/api/predict/${entry.category_id}/`)).body;
      assert.equal(one.total_categories, 1);
      assert.deepEqual(one.data, [entry]);
      const { body } = await s.get<Static<typeof CategoryPredictionsResponse>>(`/api/categories/${entry.category_id}/predictions/`);
      assert.deepEqual(body.data, { category_id: entry.category_id, category_name: entry.category_name, predictions: entry.predictions });
    }
    // A dormant category: known, so 200, with no predictions; it says it is dormant and since when.
    const general = (await s.get<Predict>('/api/predict/1/')).body;
    assert.equal(general.data[0].category_name, 'General');
    assert.deepEqual(general.data[0].predictions, []);
    assert.equal(general.data[0].status, 'dormant');
    assert.equal(general.data[0].last_draw_date, '2024-04-23');
    assert.equal(general.data[0].dormant_since, '2025-04-24', 'the last draw + 365 days + 1');
    assert.match(general.data[0].status_reason, /^dormant since 2025-04-24: last draw 2024-04-23/);
    assert.equal(general.data[0].recent_draws.length, 5);
    assert.deepEqual((await s.get<Static<typeof CategoryPredictionsResponse>>('/api/categories/1/predictions/')).body.data.predictions, []);
  });

  it("answers the group's error cases with the service's JSON error body", async () => {
    const cases: ErrorCase[] = [
      ['GET', '/api/predict/999/', 404, /category 999 not found/],
      ['GET', '/api/predict/999999999999999/', 404, /category 999999999999999 not found/],
      ['GET', '/api/predict/abc/', 400, /^category_id must be a positive whole number$/],
      ['GET', '/api/predict/1.5/', 400, /^category_id must be/],
      ['POST', '/api/predict/', 405, /^GET method required$/],
    ];
    await assertErrorCases(s.app, cases);
  });
});
