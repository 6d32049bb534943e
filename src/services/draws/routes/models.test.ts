// GET /api/models/ on the real snapshot, both databases: every model with measured backtest errors by
// horizon and where it is used.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeWithSnapshot } from '../../../../test/support/draws/context.ts';
import { assertErrorCases, keys, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { CategoriesResponse } from '../schemas/categories.ts';
import type { ModelsResponse } from '../schemas/models.ts';
import type { PredictResponse } from '../schemas/predict.ts';

describeWithSnapshot('draws GET /api/models/', (t) => {
  const s = useSnapshotApp(t);

  it('every model with measured backtest errors by horizon and where it is used', async () => {
    const { status, body } = await s.get<Static<typeof ModelsResponse>>('/api/models/');
    assert.equal(status, 200);
    assert.deepEqual(
      body.data.map((m) => m.name),
      ['naive', 'window_mean', 'ses', 'damped_trend'],
    );
    const predict = (await s.get<Static<typeof PredictResponse>>('/api/predict/')).body;
    const categories = (await s.get<Static<typeof CategoriesResponse>>('/api/categories/')).body;
    // Each backtest starts after three draws (the damped trend after ten, and only for series of at least twenty).
    const naiveH1 = categories.filter((c) => c.total_draws >= 5).reduce((sum, c) => sum + c.total_draws - 3, 0);
    for (const model of body.data) {
      assert.deepEqual(keys(model), ['confidence_definition', 'description', 'name', 'parameters', 'performance', 'selected_for']);
      assert.equal(model.performance.method, 'rolling-origin backtest');
      assert.deepEqual(
        model.performance.by_horizon.map((m) => m.h),
        [1, 2, 3, 4, 5],
      );
      for (const m of model.performance.by_horizon) {
        assert.deepEqual(keys(m), ['bias', 'coverage_95', 'h', 'mae', 'mase', 'n', 'rmse']);
        assert.ok(m.n > 0, `${model.name} h${m.h}`);
        assert.ok(m.mae! > 0 && m.rmse! >= m.mae! && Number.isFinite(m.bias) && m.mase! > 0);
        assert.ok(m.coverage_95! >= 0 && m.coverage_95! <= 1);
      }
      if (model.name !== 'damped_trend') assert.equal(model.performance.by_horizon[0].n, naiveH1);
      assert.match(model.confidence_definition, /\(hits \+ 1\) \/ \(n \+ 2\)/);
      for (const id of model.selected_for) {
        const entry = predict.data.find((e) => e.category_id === id);
        assert.ok(entry, `selected_for ${id} is a predicted category`);
        assert.ok(entry.predictions.every((p) => p.model_used === model.name));
      }
    }
    const selected = body.data.flatMap((m) => m.selected_for).sort((a, b) => a - b);
    assert.deepEqual(
      selected,
      predict.data.map((e) => e.category_id),
    );
    assert.equal(body.categories.find((c) => c.category_id === 1)!.status, 'dormant');
    assert.match(body.methodology.dormant, /max\(365, 3 ×/);
  });

  it("answers the group's error cases with the service's JSON error body", async () => {
    await assertErrorCases(s.app, [['DELETE', '/api/models/', 405, /^GET method required$/]]);
  });
});
