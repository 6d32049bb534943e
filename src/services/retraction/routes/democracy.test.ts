// The democracy endpoints on SQLite and PostgreSQL: the panel, its visualisations, the model endpoints before
// any fit, and the bad inputs.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { pearson } from '../democracy.ts';
import { retractionService } from '../service.ts';

describeEachDatabase(
  'retraction routes: democracy',
  (t) => {
    const fx = retractionHttpFixture(t);

    it('serves the democracy panel, its visualisations and the model endpoints', async () => {
      const overview = (await fx.get('/api/democracy/overview/')).body;
      assert.equal(overview.panel.rows, 1080);
      assert.equal(overview.panel.countries, 60);
      assert.deepEqual(overview.panel.predictors.slice(0, 1), ['democracy_index']);
      assert.ok(['imported', 'not_fitted'].includes(overview.model.status));

      const chile = (await fx.get('/api/democracy/raw-data/?country=CHL&limit=5')).body;
      assert.deepEqual([chile.count, chile.total, chile.limit], [5, 18, 5]);
      assert.ok(chile.data.every((r: { iso3: string; is_demo: boolean }) => r.iso3 === 'CHL' && r.is_demo));
      const partial = (await fx.get('/api/democracy/raw-data/?country=chi&year=2010')).body;
      assert.deepEqual(partial.data.map((r: { country: string }) => r.country).sort(), ['Chile', 'China', 'Czechia']); // chi is part of each name
      assert.equal((await fx.get('/api/democracy/raw-data/')).body.limit, 100);
      const clamped = (await fx.get('/api/democracy/raw-data/?limit=5000')).body;
      assert.deepEqual([clamped.limit, clamped.count], [1000, 1000]);

      const vis = (await fx.get('/api/democracy/visualizations/')).body;
      assert.equal(vis.scatter.points.length, 60);
      const r = pearson(
        vis.scatter.points.map((p: { democracy_index: number }) => p.democracy_index),
        vis.scatter.points.map((p: { retraction_rate: number }) => p.retraction_rate),
      )!;
      assert.ok(Math.abs(vis.scatter.correlation.pearson_r - r) < 1e-3);
      assert.equal(vis.temporal_trends.length, 18);
      assert.equal(vis.world_map.length, 60);
      assert.equal(
        vis.regional_summary.reduce((a: number, g: { countries: number }) => a + g.countries, 0),
        60,
      );

      const fitted = (await fx.get('/api/democracy/statistical-results/?source=fitted')).body;
      assert.equal(fitted.model.status, 'not_fitted');
      assert.deepEqual(fitted.predictors, []);
      assert.match(fitted.model.note, /pdi fit retraction/);
      const diagnostics = (await fx.get('/api/democracy/model-diagnostics/?source=fitted')).body;
      assert.equal(diagnostics.convergence, null);
      assert.equal((await fx.get('/api/democracy/methodology/?source=fitted')).body.methodology, null);
    });

    errorCases(fx, [
      ['GET', '/api/democracy/raw-data/?year=abc', 400, 'INVALID_PARAMETER', /^year must be an integer$/],
      ['GET', '/api/democracy/raw-data/?year=1500', 400, 'INVALID_PARAMETER', /^year must be a whole year between 1800 and 2200$/],
      ['GET', '/api/democracy/raw-data/?limit=-1', 400, 'INVALID_PARAMETER', /^limit must be at least 1$/],
      ['GET', '/api/democracy/statistical-results/?source=guess', 400, 'INVALID_PARAMETER', /^source must be one of: fitted, imported$/],
      ['DELETE', '/api/democracy/overview/', 405, 'METHOD_NOT_ALLOWED', /^GET method required$/],
    ]);
  },
  { migrations: retractionService.migrations },
);
