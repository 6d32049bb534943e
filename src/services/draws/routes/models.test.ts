// GET /api/models/ on the real snapshot, both databases: every model with measured backtest errors by
// horizon and where it is used.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeWithSnapshot } from '../../../../test/support/draws/context.ts';
import { assertErrorCases, keys, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { ModelsResponse } from '../schemas/models.ts';
import type { PredictResponse } from '../schemas/predict.ts';

describeWithSnapshot('draws GET /api/models/', (t) => {
  const s = useSnapshotApp(t);

  it('every model with measured backtest errors by horizon and where it is used', async () => {
    const { status, body } = await s.get<Static<typeof ModelsResponse>>('/api/models/');
    assert.equal(status, 200);
    assert.deepEqual(
      body.data.map((m) => m.name),
      ['naive', 'window_mean', 'ses', 'damped_trend', 'pooled_reversion', 'combination', 'pooled_young'],
    );
    const predict = (await s.get<Static<typeof PredictResponse>>('/api/predict/')).body;
    const served = new Set(['combination', 'pooled_young']);
    for (const model of body.data) {
      assert.deepEqual(keys(model), ['confidence_definition', 'description', 'name', 'parameters', 'performance', 'selected_for']);
      assert.equal(model.performance.method, 'rolling-origin backtest');
      assert.match(model.performance.window, /730 days/);
      for (const table of [model.performance.by_horizon, model.performance.invitations_by_horizon]) {
        assert.deepEqual(
          table.map((m) => m.h),
          [1, 2, 3, 4, 5],
        );
        for (const m of table) {
          assert.deepEqual(keys(m), ['bias', 'coverage_95', 'h', 'mae', 'mase', 'median_half_width', 'n', 'rmse']);
          assert.ok(m.n > 0, `${model.name} h${m.h}`);
          assert.ok(m.mae! > 0 && m.rmse! >= m.mae! && Number.isFinite(m.bias) && m.mase! > 0);
          if (served.has(model.name)) assert.ok(m.coverage_95! >= 0 && m.coverage_95! <= 1 && m.median_half_width! > 0);
          else assert.deepEqual([m.coverage_95, m.median_half_width], [null, null], 'members serve no interval');
        }
      }
      assert.match(model.confidence_definition, /\(hits \+ 1\) \/ \(n \+ 2\)/);
      assert.ok(model.description.length > 40);
      for (const id of model.selected_for)
        assert.ok(
          predict.data.some((e) => e.category_id === id),
          `selected_for ${id} is a predicted category`,
        );
      if (served.has(model.name)) {
        for (const id of model.selected_for) {
          const entry = predict.data.find((e) => e.category_id === id)!;
          assert.ok(entry.predictions.every((p) => p.model_used === model.name));
        }
      }
    }
    // The members are backtested on the same forecasts: the same n at every horizon.
    const members = body.data.filter((m) => !served.has(m.name));
    for (let h = 0; h < 5; h++) assert.equal(new Set(members.map((m) => m.performance.by_horizon[h].n)).size, 1);
    const selected = body.data
      .filter((m) => served.has(m.name))
      .flatMap((m) => m.selected_for)
      .sort((a, b) => a - b);
    assert.deepEqual(
      selected,
      predict.data.map((e) => e.category_id),
    );
    assert.deepEqual(body.data.find((m) => m.name === 'pooled_young')!.selected_for, [12]);
    const general = body.categories.find((c) => c.category_id === 1)!;
    assert.deepEqual([general.status, general.dormant_since], ['dormant', '2025-04-24']);
    const cec = body.categories.find((c) => c.category_id === 2)!;
    assert.equal(cec.crs_model, 'combination');
    assert.ok(Math.abs(Object.values(cec.crs_weights).reduce((a, b) => a + b, 0) - 1) < 1e-3, 'weights sum to 1');
    assert.deepEqual(Object.keys(cec.crs_weights).sort(), ['damped_trend', 'naive', 'pooled_reversion', 'ses']);
    assert.ok(cec.reversion_phi! >= 0 && cec.reversion_phi! <= 1);
    assert.match(body.methodology.dormant, /max\(365, 3 ×/);
    assert.match(body.methodology.likely_window, /the 21 calendar days .* isotonic regression/);
    assert.match(body.methodology.interval, /⌈\(n \+ 1\) × 0\.95⌉/);
    for (const family of ['crs', 'invitations'] as const) {
      for (const row of body.intervals[family])
        assert.ok(row.n > 0 && row.coverage_95! > 0.5 && row.coverage_95! <= 1, `${family} h${row.h}`);
    }
    for (const row of body.intervals.dates.slice(0, 3))
      assert.ok(row.n > 0 && row.coverage_95! > 0.5 && row.level >= 0.8, `dates h${row.h}`);
  });

  it("answers the group's error cases with the service's JSON error body", async () => {
    await assertErrorCases(s.app, [['DELETE', '/api/models/', 405, /^GET method required$/]]);
  });
});
