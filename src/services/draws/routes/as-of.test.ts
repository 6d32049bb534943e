// The as-of facility: with PDI_DRAWS_AS_OF before the end of the data, no endpoint shows a draw after it (also
// /api/categories/ latest_draw_date and the statistics), and the forecasts start after it. Real snapshot, both
// databases.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type { ServiceApp } from '../../../core/service.ts';
import { buildTestApp } from '../../../../test/support/app.ts';
import { describeWithSnapshot, drawsContext, importSnapshot } from '../../../../test/support/draws/context.ts';
import { checkPrediction } from '../../../../test/support/draws/http.ts';
import type { CategoriesResponse, CategoryStatisticsResponse } from '../schemas/categories.ts';
import type { DrawsResponse } from '../schemas/draws.ts';
import type { PredictResponse } from '../schemas/predict.ts';
import type { StatsResponse } from '../schemas/stats.ts';
import { drawsService } from '../service.ts';

const AS_OF = '2025-06-30';

describeWithSnapshot('draws as of an earlier date', (t) => {
  let app: ServiceApp;
  before(async () => {
    await importSnapshot(drawsContext(t.db));
    // Starting with another as-of date refits the forecasts and the statistics for it.
    app = await buildTestApp(drawsService, drawsContext(t.db, AS_OF));
  });
  after(async () => app?.close());
  const get = async <T>(url: string) => (await app.inject(url)).json<T>();

  it('no endpoint shows a draw after the as-of date, and the forecasts start after it', async () => {
    const draws = await get<Static<typeof DrawsResponse>>('/api/draws/');
    assert.ok(draws.count > 300 && draws.count < 389, `${draws.count} draws`);
    assert.ok(draws.data.every((d) => d.date <= AS_OF));
    assert.ok((await get<Static<typeof DrawsResponse>>('/api/draws/?category=2')).data.every((d) => d.date <= AS_OF));
    const categories = await get<Static<typeof CategoriesResponse>>('/api/categories/');
    assert.ok(categories.every((c) => c.latest_draw_date !== null && c.latest_draw_date <= AS_OF));
    for (const c of categories) {
      assert.equal(c.total_draws, draws.data.filter((d) => d.category_id === c.id).length, `category ${c.id}`);
      const statistics = await get<Static<typeof CategoryStatisticsResponse>>(`/api/categories/${c.id}/statistics/`);
      assert.ok(statistics.data.latest_draw_date! <= AS_OF && statistics.data.latest_draw!.date <= AS_OF);
      assert.equal(statistics.data.total_draws, c.total_draws);
    }
    const stats = await get<Static<typeof StatsResponse>>('/api/stats/');
    assert.equal(stats.total_draws, draws.count);
    assert.ok(stats.recent_draws.every((d) => d.date <= AS_OF));
    assert.deepEqual(stats.recent_draws, draws.data.slice(0, 10));
    const predict = await get<Static<typeof PredictResponse>>('/api/predict/');
    assert.equal(predict.data_source.forecasts_as_of, AS_OF);
    assert.ok(predict.data.length > 0);
    for (const entry of predict.data) {
      assert.ok(entry.recent_draws.every((d) => d.date <= AS_OF));
      assert.ok(entry.last_draw_date! <= AS_OF && entry.last_updated!.slice(0, 10) <= AS_OF);
      for (const p of entry.predictions) checkPrediction(p, AS_OF);
    }
  });
});
