// The whole service's HTTP surface on SQLite and PostgreSQL: HEAD, If-None-Match, the OpenAPI document listing
// every endpoint, an unknown address, and the demo loaded through the importers.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { loadRetractionDemo } from '../demo.ts';
import { retractionService } from '../service.ts';

describeEachDatabase(
  'retraction routes: the service',
  (t) => {
    const fx = retractionHttpFixture(t);

    it('answers HEAD and If-None-Match, and publishes its OpenAPI document', async () => {
      const first = await fx.get('/api/democracy/visualizations/');
      const again = await fx.get('/api/democracy/visualizations/', { 'if-none-match': String(first.headers.etag) });
      assert.equal(again.status, 304);
      const head = await fx.app.inject({ method: 'HEAD', url: '/api/analytics-data/', remoteAddress: fx.nextAddress() });
      assert.equal(head.statusCode, 200);
      const doc = (await fx.get('/openapi.json')).body;
      for (const p of [
        '/api/search-autocomplete/',
        '/api/paper/{record_id}/citations/',
        '/api/post-retraction-analytics/',
        '/api/analytics-data/',
        '/api/export/',
        '/api/analytics-realtime/',
        '/api/democracy/overview/',
        '/api/democracy/raw-data/',
        '/api/democracy/visualizations/',
        '/api/democracy/model-diagnostics/',
        '/api/democracy/statistical-results/',
        '/api/democracy/methodology/',
      ])
        assert.ok(doc.paths[p]?.get, p);
    });

    errorCases(fx, [['GET', '/api/unknown/', 404, 'NOT_FOUND', /^no such endpoint/]]);

    // Last: it replaces the suite's data.
    it('loads the demo through the importers, labelled as generated', async () => {
      const reports = await loadRetractionDemo(fx.ctx, { size: 150 });
      assert.ok(reports.slice(0, 3).every((r) => r.is_demo));
      const body = (await fx.get('/api/post-retraction-analytics/?nature=all')).body;
      assert.equal(body.totals.papers, 150);
      assert.equal(body.data_source.kind, 'generated');
      assert.match(body.data_source.description, /GENERATED/);
      const model = (await fx.get('/api/democracy/statistical-results/')).body.model;
      assert.ok(model.status === 'imported' || model.status === 'not_fitted');
      if (model.status === 'imported') assert.equal(model.describes_current_panel, false);
      const notes = JSON.parse((await fx.get('/api/export/?limit=3')).text);
      assert.ok(notes.papers.every((p: { doi: string | null }) => p.doi === null || p.doi.startsWith('10.5555/')));
    });
  },
  { migrations: retractionService.migrations },
);
