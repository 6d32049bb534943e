// GET /api/health/ on the real snapshot (both databases), and without its database (PostgreSQL only: SQLite
// is a file inside the process and cannot become unreachable).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { openDatabase } from '../../../core/db/database.ts';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeWithSnapshot } from '../../../../test/support/draws/context.ts';
import { ISO_TIMESTAMP, keys, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { HealthResponse } from '../schemas/health.ts';
import type { StatsResponse } from '../schemas/stats.ts';
import { drawsService } from '../service.ts';

describeWithSnapshot('draws GET /api/health/', (t) => {
  const s = useSnapshotApp(t);

  it("the spec's shape with real counts, never cached", async () => {
    const { status, body, headers } = await s.get<Static<typeof HealthResponse>>('/api/health/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), ['database', 'endpoints', 'status', 'timestamp', 'version']);
    assert.equal(body.status, 'healthy');
    assert.equal(body.version, '1.0');
    assert.match(body.timestamp, ISO_TIMESTAMP);
    const predictions = (await s.get<Static<typeof StatsResponse>>('/api/stats/')).body.total_predictions;
    assert.deepEqual(body.database, { connected: true, draws_count: 389, categories_count: 12, predictions_count: predictions });
    assert.deepEqual(body.endpoints, {
      predictions: '/api/predict/',
      categories: '/api/categories/',
      draws: '/api/draws/',
      statistics: '/api/stats/',
      documentation: '/docs',
    });
    assert.equal(headers['cache-control'], 'no-cache');
  });
});

describe('draws HTTP API without its database [postgres]', () => {
  it('answers health with 503 and status "unhealthy", and data routes with 503 and the error body', async () => {
    const down = openDatabase('postgres://postgres@127.0.0.1:1/none');
    const app = await buildTestApp(drawsService, testContext(drawsService, down));
    try {
      const health = await app.inject('/api/health/');
      assert.equal(health.statusCode, 503);
      assert.match(String(health.headers['content-type']), /^application\/json/);
      const body = health.json<Static<typeof HealthResponse> & { success: boolean }>();
      assert.equal(body.status, 'unhealthy');
      assert.equal(body.success, false);
      assert.equal(body.database.connected, false);
      assert.equal(body.version, '1.0');
      assert.match(body.timestamp, ISO_TIMESTAMP);
      const predict = await app.inject('/api/predict/');
      assert.equal(predict.statusCode, 503);
      assert.deepEqual(keys(predict.json<object>()), ['data', 'error', 'success']);
      assert.equal(predict.json<{ success: boolean }>().success, false);
    } finally {
      await app.close();
      await down.close().catch(() => {});
    }
  });
});
