// Every endpoint of Service D against its contract, on the real snapshot with the as-of date fixed at
// 2025-12-17, on SQLite and PostgreSQL: shapes, types, ordering, exclusive date bounds, the recent
// window, numbers recomputed from the draws themselves, the error table, caching, and the 503 health.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../core/db/database.ts';
import type { ServiceApp } from '../../core/service.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { dayNumber } from './feed/ircc-dates.ts';
import { drawsService } from './service.ts';
import { describeWithSnapshot, drawsContext, importSnapshot, SNAPSHOT_AS_OF } from './test-support.ts';

const DRAW_KEYS = [
  'category_id',
  'category_name',
  'date',
  'days_since_last_draw',
  'draw_name',
  'id',
  'invitations_issued',
  'lowest_crs_score',
  'round_number',
  'tie_break_at',
  'url',
];
const PREDICTION_KEYS = [
  'confidence_score',
  'date_range',
  'model_used',
  'predicted_crs_score',
  'predicted_date',
  'predicted_invitations',
  'rank',
  'uncertainty_range',
];
const CATEGORY_KEYS = ['avg_crs_score', 'created_at', 'description', 'id', 'is_active', 'latest_draw_date', 'name', 'total_draws'];
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

type Json = any;
const keys = (o: object) => Object.keys(o).sort();
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

function checkDraw(d: Json): void {
  assert.deepEqual(keys(d), DRAW_KEYS);
  assert.ok(
    Number.isInteger(d.id) &&
      Number.isInteger(d.category_id) &&
      Number.isInteger(d.invitations_issued) &&
      Number.isInteger(d.lowest_crs_score),
  );
  assert.match(d.date, ISO_DATE);
  assert.equal(typeof d.round_number, 'string');
  assert.equal(typeof d.draw_name, 'string');
  assert.equal(typeof d.category_name, 'string');
  assert.ok(d.tie_break_at === null || ISO_TIMESTAMP.test(d.tie_break_at));
  assert.ok(d.days_since_last_draw === null || (Number.isInteger(d.days_since_last_draw) && d.days_since_last_draw >= 0));
  assert.ok(d.url === null || d.url.startsWith('https://www.canada.ca/'));
}

function checkPrediction(p: Json, asOf: string): void {
  assert.deepEqual(keys(p), PREDICTION_KEYS);
  assert.ok(Number.isInteger(p.rank) && p.rank >= 1);
  assert.match(p.predicted_date, ISO_DATE);
  assert.ok(p.predicted_date > asOf);
  assert.ok(dayNumber(p.predicted_date) - dayNumber(asOf) <= 365);
  assert.ok(Number.isInteger(p.predicted_invitations) && p.predicted_invitations >= 1);
  assert.ok(typeof p.predicted_crs_score === 'number' && p.predicted_crs_score >= 0 && p.predicted_crs_score <= 1200);
  assert.ok(p.confidence_score > 0 && p.confidence_score < 100);
  assert.ok(['naive', 'window_mean', 'ses', 'damped_trend'].includes(p.model_used));
  assert.deepEqual(keys(p.uncertainty_range), ['confidence_level', 'margin_of_error', 'max', 'min']);
  assert.equal(p.uncertainty_range.confidence_level, 95);
  assert.ok(p.uncertainty_range.min <= p.predicted_crs_score && p.predicted_crs_score <= p.uncertainty_range.max);
  assert.ok(p.uncertainty_range.min >= 0 && p.uncertainty_range.max <= 1200 && p.uncertainty_range.margin_of_error >= 0);
  assert.ok(p.date_range.earliest <= p.predicted_date && p.predicted_date <= p.date_range.latest);
}

/** Newest first: date, then round number (numeric part, then letter). */
function isNewestFirst(draws: Json[]): boolean {
  const key = (d: Json) => {
    const m = /^(\d+)([a-z]?)$/.exec(d.round_number)!;
    return Number(m[1]) * 100 + (m[2] ? m[2].charCodeAt(0) - 96 : 0);
  };
  return draws.every((d, i) => i === 0 || draws[i - 1].date > d.date || (draws[i - 1].date === d.date && key(draws[i - 1]) > key(d)));
}

describeWithSnapshot('draws HTTP API on the real snapshot', (t) => {
  let app: ServiceApp;
  let all: Json[];
  const get = async (url: string) => {
    const res = await app.inject(url);
    return { status: res.statusCode, body: res.json() as Json, headers: res.headers };
  };

  before(async () => {
    const ctx = drawsContext(t.db);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
    all = (await get('/api/draws/')).body.data;
  });
  after(async () => app?.close());

  it("GET /api/health/: the spec's shape with real counts, never cached", async () => {
    const { status, body, headers } = await get('/api/health/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), ['database', 'endpoints', 'status', 'timestamp', 'version']);
    assert.equal(body.status, 'healthy');
    assert.equal(body.version, '1.0');
    assert.match(body.timestamp, ISO_TIMESTAMP);
    const predictions = (await get('/api/stats/')).body.total_predictions;
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

  it("GET /api/draws/: all 389 draws newest first, each of the contract's shape", async () => {
    const { status, body } = await get('/api/draws/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), ['count', 'data', 'data_source', 'success']);
    assert.equal(body.success, true);
    assert.equal(body.count, 389);
    assert.equal(body.data.length, 389);
    body.data.forEach(checkDraw);
    assert.ok(isNewestFirst(body.data));
    assert.equal(body.data[0].round_number, '388');
    assert.equal(body.data.at(-1).round_number, '1');
    assert.equal(new Set(body.data.map((d: Json) => d.id)).size, 389);
    assert.equal(body.data_source.kind, 'ircc');
    assert.equal(body.data_source.as_of, SNAPSHOT_AS_OF);
    const r91 = body.data.filter((d: Json) => d.round_number.startsWith('91')).map((d: Json) => d.round_number);
    assert.deepEqual(r91, ['91b', '91a']);
  });

  it('days_since_last_draw is the gap to the previous draw of the same category', async () => {
    const byCategory = new Map<number, Json[]>();
    for (const d of all) byCategory.set(d.category_id, [...(byCategory.get(d.category_id) ?? []), d]);
    for (const list of byCategory.values()) {
      list.forEach((d, i) => {
        const older = list[i + 1];
        assert.equal(d.days_since_last_draw, older ? dayNumber(d.date) - dayNumber(older.date) : null, `round ${d.round_number}`);
      });
    }
  });

  it('GET /api/draws/ filters by category and by exclusive start_date and end_date', async () => {
    const cec = (await get('/api/draws/?category=2')).body;
    assert.equal(cec.count, 53);
    assert.ok(cec.data.every((d: Json) => d.category_id === 2 && d.category_name === 'Canadian Experience Class'));
    assert.deepEqual(
      cec.data,
      all.filter((d) => d.category_id === 2),
    );
    // 2025-12-16 has one draw (round 387): excluded by either bound when equal to it.
    const after16 = (await get('/api/draws/?start_date=2025-12-16')).body;
    assert.deepEqual(
      after16.data.map((d: Json) => d.round_number),
      ['388'],
    );
    const before16 = (await get('/api/draws/?end_date=2025-12-16')).body;
    assert.equal(before16.count, all.filter((d) => d.date < '2025-12-16').length);
    assert.ok(before16.data.every((d: Json) => d.date < '2025-12-16'));
    const between = (await get('/api/draws/?start_date=2025-12-15&end_date=2025-12-17')).body;
    assert.deepEqual(
      between.data.map((d: Json) => [d.round_number, d.date]),
      [['387', '2025-12-16']],
    );
    const year = (await get('/api/draws/?category=3&start_date=2024-12-31&end_date=2026-01-01')).body;
    assert.deepEqual(
      year.data,
      all.filter((d) => d.category_id === 3 && d.date > '2024-12-31' && d.date < '2026-01-01'),
    );
    assert.ok(year.count > 10);
  });

  it('GET /api/draws/recent/: the as-of date and the 30 days before it', async () => {
    const { body } = await get('/api/draws/recent/');
    assert.deepEqual(keys(body), ['count', 'data', 'data_source', 'success']);
    const expected = all.filter((d) => d.date >= '2025-11-17' && d.date <= SNAPSHOT_AS_OF);
    assert.deepEqual(body.data, expected);
    assert.equal(body.count, expected.length);
    assert.ok(body.count > 0);
    assert.ok(
      all.some((d) => d.date === '2025-11-14'),
      'a draw just outside the window exists and is left out',
    );
  });

  it('GET /api/categories/: a bare array of the active categories with their figures', async () => {
    const { status, body } = await get('/api/categories/');
    assert.equal(status, 200);
    assert.ok(Array.isArray(body));
    assert.deepEqual(
      body.map((c: Json) => c.id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    for (const c of body) {
      assert.deepEqual(keys(c), CATEGORY_KEYS);
      assert.equal(c.is_active, true);
      assert.match(c.created_at, ISO_TIMESTAMP);
      const mine = all.filter((d) => d.category_id === c.id);
      assert.equal(c.total_draws, mine.length);
      assert.equal(c.avg_crs_score, round2(mean(mine.map((d) => d.lowest_crs_score))));
      assert.equal(c.latest_draw_date, mine[0].date);
      assert.ok(mine.every((d) => d.category_name === c.name));
    }
    assert.deepEqual(
      body.map((c: Json) => c.total_draws),
      [178, 53, 95, 1, 7, 26, 13, 3, 5, 3, 3, 2],
    );
  });

  it("GET /api/categories/{id}/statistics/: figures recomputed from the category's draws", async () => {
    for (const id of [1, 2, 4, 7]) {
      const { status, body } = await get(`/api/categories/${id}/statistics/`);
      assert.equal(status, 200);
      assert.deepEqual(keys(body), ['data', 'data_source', 'success']);
      const mine = all.filter((d) => d.category_id === id);
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
        total_invitations: invitations.reduce((s, n) => s + n, 0),
        avg_invitations: round2(mean(invitations)),
        first_draw_date: dates[0],
        latest_draw_date: dates.at(-1),
        avg_days_between_draws: gaps.length ? round2(mean(gaps)) : null,
        median_days_between_draws: gaps.length ? median(gaps) : null,
        latest_draw: mine[0],
      });
    }
  });

  it('GET /api/predict/: the predicted categories, each with its last five draws and five predictions', async () => {
    const { status, body } = await get('/api/predict/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), ['data', 'data_source', 'generated_at', 'success', 'total_categories']);
    assert.equal(body.success, true);
    assert.match(body.generated_at, ISO_TIMESTAMP);
    assert.equal(body.total_categories, body.data.length);
    assert.deepEqual(
      body.data.map((e: Json) => e.category_id),
      [2, 3, 6, 7, 9],
    );
    for (const entry of body.data) {
      assert.deepEqual(keys(entry), [
        'category_description',
        'category_id',
        'category_name',
        'last_updated',
        'predictions',
        'recent_draws',
      ]);
      const mine = all.filter((d) => d.category_id === entry.category_id);
      assert.equal(entry.category_name, mine[0].category_name);
      assert.equal(typeof entry.category_description, 'string');
      assert.match(entry.last_updated, ISO_TIMESTAMP);
      assert.equal(entry.last_updated.slice(0, 10), mine[0].date);
      assert.deepEqual(
        entry.recent_draws,
        mine.slice(0, 5).map((d) => ({ date: d.date, crs_score: d.lowest_crs_score, invitations: d.invitations_issued })),
      );
      // Five ranks unless later ones would fall more than a year after the as-of date (trade: a draw every few months).
      assert.ok(entry.predictions.length >= 1 && entry.predictions.length <= 5);
      if (entry.category_id !== 9) assert.equal(entry.predictions.length, 5);
      entry.predictions.forEach((p: Json, i: number) => {
        checkPrediction(p, SNAPSHOT_AS_OF);
        assert.equal(p.rank, i + 1);
        if (i > 0) assert.ok(p.predicted_date > entry.predictions[i - 1].predicted_date);
      });
      assert.equal(new Set(entry.predictions.map((p: Json) => p.model_used)).size, 1, 'one chosen model per category');
    }
    assert.equal(body.data_source.forecasts_as_of, SNAPSHOT_AS_OF);
  });

  it('GET /api/predict/{id}/ and /api/categories/{id}/predictions/ agree with /api/predict/', async () => {
    const every = (await get('/api/predict/')).body;
    for (const entry of every.data) {
      const one = (await get(`/api/predict/${entry.category_id}/`)).body;
      assert.equal(one.total_categories, 1);
      assert.deepEqual(one.data, [entry]);
      const { body } = await get(`/api/categories/${entry.category_id}/predictions/`);
      assert.deepEqual(body.data, { category_id: entry.category_id, category_name: entry.category_name, predictions: entry.predictions });
    }
    // A dormant category: known, so 200, with no predictions.
    const general = (await get('/api/predict/1/')).body;
    assert.equal(general.data[0].category_name, 'General');
    assert.deepEqual(general.data[0].predictions, []);
    assert.equal(general.data[0].recent_draws.length, 5);
    assert.deepEqual((await get('/api/categories/1/predictions/')).body.data.predictions, []);
  });

  it("GET /api/stats/: the spec's keys, recomputed from the draws and the predictions", async () => {
    const { status, body } = await get('/api/stats/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), [
      'avg_crs_score',
      'avg_invitations',
      'categories_count',
      'data_source',
      'last_updated',
      'max_crs_score',
      'min_crs_score',
      'next_predictions',
      'recent_draws',
      'success',
      'total_draws',
      'total_predictions',
    ]);
    const predict = (await get('/api/predict/')).body;
    assert.equal(body.total_draws, 389);
    assert.equal(body.categories_count, 12);
    assert.equal(
      body.total_predictions,
      predict.data.reduce((s: number, e: Json) => s + e.predictions.length, 0),
    );
    assert.equal(body.avg_crs_score, round2(mean(all.map((d) => d.lowest_crs_score))));
    assert.equal(body.avg_invitations, round2(mean(all.map((d) => d.invitations_issued))));
    assert.equal(body.min_crs_score, Math.min(...all.map((d) => d.lowest_crs_score)));
    assert.equal(body.max_crs_score, Math.max(...all.map((d) => d.lowest_crs_score)));
    assert.deepEqual(body.recent_draws, all.slice(0, 10));
    const firsts = predict.data.map((e: Json) => ({ category_id: e.category_id, category_name: e.category_name, ...e.predictions[0] }));
    firsts.sort((a: Json, b: Json) => a.predicted_date.localeCompare(b.predicted_date) || a.category_id - b.category_id);
    assert.deepEqual(body.next_predictions, firsts);
    assert.match(body.last_updated, ISO_TIMESTAMP);
    assert.equal(body.last_updated, body.data_source.imported_at);
  });

  it('GET /api/models/: every model with measured backtest errors by horizon and where it is used', async () => {
    const { status, body } = await get('/api/models/');
    assert.equal(status, 200);
    assert.deepEqual(
      body.data.map((m: Json) => m.name),
      ['naive', 'window_mean', 'ses', 'damped_trend'],
    );
    const predict = (await get('/api/predict/')).body;
    const categories = (await get('/api/categories/')).body;
    // Each backtest starts after three draws (the damped trend after ten, and only for series of at least twenty).
    const naiveH1 = categories.filter((c: Json) => c.total_draws >= 5).reduce((s: number, c: Json) => s + c.total_draws - 3, 0);
    for (const model of body.data) {
      assert.deepEqual(keys(model), ['confidence_definition', 'description', 'name', 'parameters', 'performance', 'selected_for']);
      assert.equal(model.performance.method, 'rolling-origin backtest');
      assert.deepEqual(
        model.performance.by_horizon.map((m: Json) => m.h),
        [1, 2, 3, 4, 5],
      );
      for (const m of model.performance.by_horizon) {
        assert.deepEqual(keys(m), ['bias', 'coverage_95', 'h', 'mae', 'mase', 'n', 'rmse']);
        assert.ok(m.n > 0, `${model.name} h${m.h}`);
        assert.ok(m.mae > 0 && m.rmse >= m.mae && Number.isFinite(m.bias) && m.mase > 0);
        assert.ok(m.coverage_95 >= 0 && m.coverage_95 <= 1);
      }
      if (model.name !== 'damped_trend') assert.equal(model.performance.by_horizon[0].n, naiveH1);
      assert.match(model.confidence_definition, /\(hits \+ 1\) \/ \(n \+ 2\)/);
      for (const id of model.selected_for) {
        const entry = predict.data.find((e: Json) => e.category_id === id);
        assert.ok(entry, `selected_for ${id} is a predicted category`);
        assert.ok(entry.predictions.every((p: Json) => p.model_used === model.name));
      }
    }
    const selected = body.data.flatMap((m: Json) => m.selected_for).sort((a: number, b: number) => a - b);
    assert.deepEqual(
      selected,
      predict.data.map((e: Json) => e.category_id),
    );
    assert.equal(body.categories.find((c: Json) => c.category_id === 1).status, 'dormant');
    assert.match(body.methodology.dormant, /max\(365, 3 ×/);
  });

  it("answers the error table with the service's JSON error body", async () => {
    const cases: [string, string, number, RegExp][] = [
      ['GET', '/api/predict/999/', 404, /category 999 not found/],
      ['GET', '/api/predict/999999999999999/', 404, /category 999999999999999 not found/],
      ['GET', '/api/draws/?category=99999999999', 404, /category 99999999999 not found/],
      ['GET', '/api/predict/abc/', 400, /^category_id must be a positive whole number$/],
      ['GET', '/api/predict/1.5/', 400, /^category_id must be/],
      ['GET', '/api/categories/999/statistics/', 404, /category 999 not found/],
      ['GET', '/api/categories/abc/statistics/', 400, /^id must be a positive whole number$/],
      ['GET', '/api/categories/999/predictions/', 404, /not found/],
      ['GET', '/api/categories/-1/predictions/', 400, /^id must be/],
      ['GET', '/api/draws/?category=999', 404, /category 999 not found/],
      ['GET', '/api/draws/?category=abc', 400, /^category must be a category id/],
      ['GET', '/api/draws/?start_date=2025-02-30', 400, /^start_date must be a real date/],
      ['GET', '/api/draws/?end_date=17-12-2025', 400, /^end_date must be a date in the form YYYY-MM-DD$/],
      ['GET', '/api/draws/?start_date=2025-12-01&end_date=2025-12-01', 400, /^end_date must be after start_date/],
      ['GET', '/api/nothing/', 404, /^no such endpoint/],
      ['GET', '/api/draws/recent/extra/', 404, /^no such endpoint/],
      ['POST', '/api/predict/', 405, /^GET method required$/],
      ['DELETE', '/api/draws/', 405, /^GET method required$/],
      ['PUT', '/api/categories/1/statistics/', 405, /^GET method required$/],
    ];
    for (const [method, url, status, message] of cases) {
      const res = await app.inject({ method: method as 'GET', url });
      assert.equal(res.statusCode, status, `${method} ${url}`);
      assert.match(String(res.headers['content-type']), /^application\/json/, `${method} ${url}`);
      const body = res.json();
      assert.deepEqual(keys(body), ['data', 'error', 'success'], `${method} ${url}`);
      assert.equal(body.success, false);
      assert.deepEqual(body.data, []);
      assert.match(body.error, message, `${method} ${url}`);
      if (status === 405) assert.equal(res.headers.allow, 'GET, HEAD');
    }
  });

  it('caches: max-age 3600, a strong ETag, 304 on If-None-Match, HEAD, and no trailing slash needed', async () => {
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

  it('publishes every endpoint in OpenAPI', async () => {
    const doc = (await app.inject('/openapi.json')).json();
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
      const recent = (await later.inject('/api/draws/recent/')).json();
      assert.deepEqual(
        recent.data,
        all.filter((d) => d.date >= '2025-12-01'),
      );
      assert.equal(recent.data_source.as_of, '2025-12-31');
      const predict = (await later.inject('/api/predict/')).json();
      assert.equal(predict.data_source.forecasts_as_of, '2025-12-31');
      for (const entry of predict.data) for (const p of entry.predictions) checkPrediction(p, '2025-12-31');
    } finally {
      await later.close();
    }
  });
});

// SQLite is a file inside the process and cannot become unreachable; a PostgreSQL server can.
describe('draws HTTP API without its database [postgres]', () => {
  it('answers health with 503 and status "unhealthy", and data routes with 503 and the error body', async () => {
    const down = openDatabase('postgres://postgres@127.0.0.1:1/none');
    const app = await buildTestApp(drawsService, testContext(drawsService, down));
    try {
      const health = await app.inject('/api/health/');
      assert.equal(health.statusCode, 503);
      assert.match(String(health.headers['content-type']), /^application\/json/);
      const body = health.json();
      assert.equal(body.status, 'unhealthy');
      assert.equal(body.success, false);
      assert.equal(body.database.connected, false);
      assert.equal(body.version, '1.0');
      assert.match(body.timestamp, ISO_TIMESTAMP);
      const predict = await app.inject('/api/predict/');
      assert.equal(predict.statusCode, 503);
      assert.deepEqual(keys(predict.json()), ['data', 'error', 'success']);
      assert.equal(predict.json().success, false);
    } finally {
      await app.close();
      await down.close().catch(() => {});
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
