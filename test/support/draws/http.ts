// Service D's HTTP tests: the app on the real snapshot (imported once per suite, as-of date 2025-12-17),
// typed bodies, the contract's record checks and the table of error cases every endpoint group runs.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type { ServiceApp } from '../../../src/core/service.ts';
import { dayNumber } from '../../../src/services/draws/feed/ircc-dates.ts';
import type { DrawSchema, PredictionSchema } from '../../../src/services/draws/schemas/common.ts';
import type { DrawsResponse } from '../../../src/services/draws/schemas/draws.ts';
import { drawsService } from '../../../src/services/draws/service.ts';
import { buildTestApp } from '../app.ts';
import type { TestDatabase } from '../databases.ts';
import { drawsContext, importSnapshot } from './context.ts';

export type DrawBody = Static<typeof DrawSchema>;
export type PredictionBody = Static<typeof PredictionSchema>;

export const DRAW_KEYS = [
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
export const PREDICTION_KEYS = [
  'confidence_forecasts_scored',
  'confidence_score',
  'date_range',
  'model_used',
  'predicted_crs_score',
  'predicted_date',
  'invitations_range',
  'likely_window',
  'predicted_invitations',
  'rank',
  'uncertainty_range',
].sort();
export const CATEGORY_KEYS = ['avg_crs_score', 'created_at', 'description', 'id', 'is_active', 'latest_draw_date', 'name', 'total_draws'];
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
/** Every model a prediction may name: the combination (established categories) and the pooled model (young ones). */
export const SERVED_MODEL_NAMES = ['combination', 'pooled_young'];

export const keys = (o: object) => Object.keys(o).sort();
export const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const round2 = (x: number) => Math.round(x * 100) / 100;

export function checkDraw(d: DrawBody): void {
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

/**
 * confidence_forecasts_scored is the n of confidence_score = (hits + 1)/(n + 2) × 100 rounded to one decimal: some
 * whole number of hits between 0 and n gives the score.
 */
export function checkConfidenceCount(p: Pick<PredictionBody, 'confidence_score' | 'confidence_forecasts_scored'>): void {
  const n = p.confidence_forecasts_scored;
  assert.ok(n !== null && Number.isInteger(n) && n >= 0, `confidence_forecasts_scored ${n}`);
  const hits = Array.from({ length: n + 1 }, (_, k) => k);
  assert.ok(
    hits.some((k) => Math.round(((k + 1) / (n + 2)) * 100 * 10) / 10 === p.confidence_score),
    `confidence_score ${p.confidence_score} is (hits + 1)/(${n} + 2) × 100 for no whole number of hits`,
  );
}

export function checkPrediction(p: PredictionBody, asOf: string): void {
  assert.deepEqual(keys(p), PREDICTION_KEYS);
  assert.ok(Number.isInteger(p.rank) && p.rank >= 1);
  assert.match(p.predicted_date, ISO_DATE);
  assert.ok(p.predicted_date > asOf);
  assert.ok(dayNumber(p.predicted_date) - dayNumber(asOf) <= 365);
  assert.ok(Number.isInteger(p.predicted_invitations) && p.predicted_invitations >= 1);
  assert.ok(typeof p.predicted_crs_score === 'number' && p.predicted_crs_score >= 0 && p.predicted_crs_score <= 1200);
  assert.ok(p.confidence_score > 0 && p.confidence_score < 100);
  checkConfidenceCount(p);
  assert.ok(SERVED_MODEL_NAMES.includes(p.model_used));
  assert.deepEqual(keys(p.uncertainty_range), ['confidence_level', 'margin_of_error', 'max', 'min']);
  assert.equal(p.uncertainty_range.confidence_level, 95);
  assert.ok(p.uncertainty_range.min <= p.predicted_crs_score && p.predicted_crs_score <= p.uncertainty_range.max);
  assert.ok(p.uncertainty_range.min >= 0 && p.uncertainty_range.max <= 1200 && p.uncertainty_range.margin_of_error >= 0);
  assert.ok(p.date_range.earliest <= p.predicted_date && p.predicted_date <= p.date_range.latest);
  assert.ok(p.date_range.earliest > asOf, 'the date range starts after the as-of date');
  const inv = p.invitations_range!;
  assert.deepEqual(keys(inv), ['confidence_level', 'max', 'min']);
  assert.equal(inv.confidence_level, 95);
  assert.ok(Number.isInteger(inv.min) && Number.isInteger(inv.max) && inv.min >= 1);
  assert.ok(inv.min <= p.predicted_invitations && p.predicted_invitations <= inv.max, JSON.stringify(p));
  checkLikelyWindow(p, asOf);
}

/**
 * The next draw, and it only, has a likely window: 21 calendar days after the as-of date, nested with the 90% date
 * range (inside it, or holding it when the range is shorter), with a probability in [0, 1] that is at most the range's
 * 0.9 when inside it and at least 0.9 when holding it.
 */
export function checkLikelyWindow(p: PredictionBody, asOf: string): void {
  const w = p.likely_window;
  if (p.rank !== 1) return assert.equal(w, null, `rank ${p.rank} has no likely window`);
  assert.ok(w !== null, 'the next draw has a likely window');
  assert.deepEqual(keys(w), ['days', 'earliest', 'latest', 'probability']);
  assert.equal(w.days, 21);
  assert.equal(dayNumber(w.latest) - dayNumber(w.earliest) + 1, 21);
  assert.ok(w.earliest > asOf, 'the window starts after the as-of date');
  assert.ok(w.probability >= 0 && w.probability <= 1, String(w.probability));
  const inside = w.earliest >= p.date_range.earliest && w.latest <= p.date_range.latest;
  const holds = w.earliest <= p.date_range.earliest && w.latest >= p.date_range.latest;
  assert.ok(inside || holds, `window ${w.earliest}–${w.latest} nests with the range ${p.date_range.earliest}–${p.date_range.latest}`);
  if (inside) assert.ok(w.probability <= 0.9, `a part of the 90% range is no likelier than it: ${w.probability}`);
  if (holds) assert.ok(w.probability >= 0.9, `a window holding the 90% range is at least as likely: ${w.probability}`);
}

/** Newest first: date, then round number (numeric part, then letter). */
export function isNewestFirst(draws: DrawBody[]): boolean {
  const key = (d: DrawBody) => {
    const m = /^(\d+)([a-z]?)$/.exec(d.round_number)!;
    return Number(m[1]) * 100 + (m[2] ? m[2].charCodeAt(0) - 96 : 0);
  };
  return draws.every((d, i) => i === 0 || draws[i - 1].date > d.date || (draws[i - 1].date === d.date && key(draws[i - 1]) > key(d)));
}

/** [method, url, status, message]: one row of an endpoint group's error table. */
export type ErrorCase = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, status: number, message: RegExp];

/** Each case answers its status with the service's JSON error body (and Allow on a 405). */
export async function assertErrorCases(app: ServiceApp, cases: readonly ErrorCase[]): Promise<void> {
  for (const [method, url, status, message] of cases) {
    const res = await app.inject({ method, url });
    assert.equal(res.statusCode, status, `${method} ${url}`);
    assert.match(String(res.headers['content-type']), /^application\/json/, `${method} ${url}`);
    const body = res.json<{ success: boolean; error: string; data: unknown[] }>();
    assert.deepEqual(keys(body), ['data', 'error', 'success'], `${method} ${url}`);
    assert.equal(body.success, false);
    assert.deepEqual(body.data, []);
    assert.match(body.error, message, `${method} ${url}`);
    if (status === 405) assert.equal(res.headers.allow, 'GET, HEAD');
  }
}

export interface SnapshotApp {
  readonly app: ServiceApp;
  /** GET /api/draws/ as served: every draw, newest first. */
  readonly all: DrawBody[];
  get<T>(url: string): Promise<{ status: number; body: T; headers: Record<string, unknown> }>;
}

/** Imports the snapshot and builds the app before the suite's tests (call inside describeWithSnapshot). */
export function useSnapshotApp(t: TestDatabase): SnapshotApp {
  let app: ServiceApp | null = null;
  let all: DrawBody[] = [];
  const fixture: SnapshotApp = {
    get app() {
      if (!app) throw new Error('the app is built in the suite’s before hook');
      return app;
    },
    get all() {
      return all;
    },
    async get<T>(url: string) {
      const res = await fixture.app.inject(url);
      return { status: res.statusCode, body: res.json<T>(), headers: res.headers };
    },
  };
  before(async () => {
    const ctx = drawsContext(t.db);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
    all = (await fixture.get<Static<typeof DrawsResponse>>('/api/draws/')).body.data;
  });
  after(async () => app?.close());
  return fixture;
}
