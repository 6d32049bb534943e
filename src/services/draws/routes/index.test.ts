// What every endpoint of Service D shares, on the real snapshot (both databases): unknown addresses, caching
// (max-age, ETag, 304, HEAD, optional trailing slash), the OpenAPI document, the as-of date moving the recent
// window and the stored forecasts, and a malformed PDI_DRAWS_AS_OF refused at start.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { openDatabase } from '../../../core/db/database.ts';
import { buildTestApp } from '../../../../test/support/app.ts';
import { describeWithSnapshot, drawsContext, SNAPSHOT_NAME } from '../../../../test/support/draws/context.ts';
import { assertErrorCases, checkPrediction, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { DrawsResponse } from '../schemas/draws.ts';
import type { PredictResponse } from '../schemas/predict.ts';
import { drawsService } from '../service.ts';

describeWithSnapshot('draws HTTP API', (t) => {
  const s = useSnapshotApp(t);

  it("answers an unknown address with the service's JSON error body", async () => {
    await assertErrorCases(s.app, [['GET', '/api/nothing/', 404, /^no such endpoint/]]);
  });

  it('caches: max-age 3600, a strong ETag, 304 on If-None-Match, HEAD, and no trailing slash needed', async () => {
    const app = s.app;
    for (const url of [
      '/api/predict/',
      '/api/predict/2/',
      '/api/categories/',
      '/api/categories/2/statistics/',
      '/api/categories/2/predictions/',
      '/api/draws/',
      '/api/draws/recent/',
      '/api/stats/',
      '/api/models/',
    ]) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['cache-control'], 'public, max-age=3600', url);
      const etag = String(res.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      const again = await app.inject({ url, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304, url);
      const head = await app.inject({ method: 'HEAD', url });
      assert.equal(head.statusCode, 200, url);
      assert.equal(head.body, '');
      assert.equal((await app.inject(url.replace(/\/$/, ''))).body, res.body, url);
    }
  });

  it('every data_source names the feed file, never a path on the server', async () => {
    for (const url of [
      '/api/predict/',
      '/api/predict/2/',
      '/api/categories/2/statistics/',
      '/api/categories/2/predictions/',
      '/api/draws/',
      '/api/draws/recent/',
      '/api/stats/',
      '/api/models/',
    ]) {
      const body = (await s.app.inject(url)).json<{ data_source: { source: string | null } }>();
      assert.equal(body.data_source.source, SNAPSHOT_NAME, url);
    }
  });

  it('publishes every endpoint in OpenAPI', async () => {
    const doc = (await s.app.inject('/openapi.json')).json<{ paths: Record<string, { get?: unknown }> }>();
    for (const path of [
      '/api/health/',
      '/api/predict/',
      '/api/predict/{category_id}/',
      '/api/categories/',
      '/api/categories/{id}/statistics/',
      '/api/categories/{id}/predictions/',
      '/api/draws/',
      '/api/draws/recent/',
      '/api/stats/',
      '/api/models/',
    ]) {
      assert.ok(doc.paths[path]?.get, path);
    }
  });

  it('a later as-of date moves the recent window and, at start-up, the stored forecasts', async () => {
    const later = await buildTestApp(drawsService, drawsContext(t.db, '2025-12-31'));
    try {
      const recent = (await later.inject('/api/draws/recent/')).json<Static<typeof DrawsResponse>>();
      assert.deepEqual(
        recent.data,
        s.all.filter((d) => d.date >= '2025-12-01'),
      );
      assert.equal(recent.data_source.as_of, '2025-12-31');
      const predict = (await later.inject('/api/predict/')).json<Static<typeof PredictResponse>>();
      assert.equal(predict.data_source.forecasts_as_of, '2025-12-31');
      for (const entry of predict.data) for (const p of entry.predictions) checkPrediction(p, '2025-12-31');
    } finally {
      await later.close();
    }
  });
});

describe('draws configuration', () => {
  it('refuses to start with a malformed PDI_DRAWS_AS_OF, naming the variable', async () => {
    const db = openDatabase('sqlite::memory:');
    try {
      await assert.rejects(
        buildTestApp(drawsService, db, { env: { PDI_DRAWS_AS_OF: '2025-13-01' } }),
        /PDI_DRAWS_AS_OF must be a date in the form YYYY-MM-DD, got "2025-13-01"/,
      );
    } finally {
      await db.close();
    }
  });
});
