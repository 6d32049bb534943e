import { test } from 'node:test';
import assert from 'node:assert/strict';
import { poolBacktests, rollingOriginBacktest, type ModelBacktest } from './backtest.ts';
import { MODELS } from './models.ts';
import { forecastSeries, selectModel } from './series-forecast.ts';
import { conformalHalfWidth } from './statistics.ts';
import { Random } from '../../../core/random.ts';

const close = (actual: number, expected: number, tolerance: number, label = ''): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label} ${actual} ≠ ${expected} ± ${tolerance}`);
const naive = MODELS.find((m) => m.name === 'naive')!;
const wide = { min: -1e9, max: 1e9 };

test('rolling-origin backtest of the naive model, by hand', () => {
  // y = 1, 3, 2, 5, 4; origins 3 and 4 (training lengths).
  // h = 1: from [1,3,2] forecast 2 for 5 → error 3; from [1,3,2,5] forecast 5 for 4 → error −1.
  // h = 2: from [1,3,2] forecast 2 for 4 → error 2.
  const b = rollingOriginBacktest([1, 3, 2, 5, 4], naive, { firstOrigin: 3, maxHorizon: 3, bounds: wide, window: 6 });
  assert.deepEqual(
    b.records[0].map((r) => [r.origin, r.error]),
    [
      [3, 3],
      [4, -1],
    ],
  );
  assert.deepEqual(
    b.records[1].map((r) => [r.origin, r.error]),
    [[3, 2]],
  );
  assert.equal(b.records[2].length, 0);
  const [h1, h2, h3] = b.byHorizon;
  assert.equal(h1.n, 2);
  close(h1.mae!, 2, 1e-12);
  close(h1.rmse!, Math.sqrt(5), 1e-12);
  close(h1.bias!, 1, 1e-12);
  // MASE scale: mean |Δy| over the series = (2 + 1 + 3 + 1)/4.
  close(b.scale!, 1.75, 1e-12);
  close(h1.mase!, 2 / 1.75, 1e-12);
  assert.equal(h1.hits, 2);
  // Analytic half-width at origin 3: σ̂² = (4 + 1)/2 on 2 df, t = 4.30265273 (table).
  close(b.records[0][0].analyticHalfWidth, 4.30265273 * Math.sqrt(2.5), 1e-6);
  assert.equal(h2.n, 1);
  assert.equal(h3.n, 0);
  assert.equal(h3.mae, null);
});

test('clipping applies to backtest forecasts too', () => {
  const b = rollingOriginBacktest([1190, 1210, 1230, 1200], naive, {
    firstOrigin: 3,
    maxHorizon: 1,
    bounds: { min: 0, max: 1200 },
    window: 6,
  });
  assert.equal(b.records[0][0].forecast, 1200);
});

function fakeBacktest(model: ModelBacktest['model'], firstOrigin: number, errors: number[]): ModelBacktest {
  const records = [
    errors.map((e, i) => ({
      origin: firstOrigin + i,
      actual: e,
      forecast: 0,
      error: e,
      analyticHalfWidth: 1,
      covered: true,
      analyticCovered: true,
    })),
  ];
  return { model, firstOrigin, scale: 1, records, byHorizon: [] };
}

test('selection: lowest MAE on common targets, simpler model within 2%, naive on thin data', () => {
  const twelve = (v: number): number[] => Array.from({ length: 12 }, () => v);
  let s = selectModel([fakeBacktest('naive', 3, twelve(10)), fakeBacktest('ses', 3, twelve(8))]);
  assert.equal(s.model, 'ses');
  assert.equal(s.reason, 'lowest_mae');
  s = selectModel([
    fakeBacktest('naive', 3, twelve(10)),
    fakeBacktest('window_mean', 3, twelve(10.15)),
    fakeBacktest('ses', 3, twelve(9.95)),
  ]);
  assert.equal(s.model, 'naive', 'ses is better by 0.5%, within the tolerance');
  assert.equal(s.reason, 'tie_simpler');
  s = selectModel([fakeBacktest('naive', 3, twelve(10)), fakeBacktest('ses', 3, twelve(9.7))]);
  assert.equal(s.model, 'ses', 'better by 3%: not a tie');
  s = selectModel([fakeBacktest('naive', 3, Array(9).fill(10)), fakeBacktest('ses', 3, Array(9).fill(1))]);
  assert.equal(s.model, 'naive');
  assert.equal(s.reason, 'thin_data');
  // Common targets only: damped starts at origin 10, so the early large naive errors are not compared.
  s = selectModel([fakeBacktest('naive', 3, [...Array(7).fill(100), ...twelve(5)]), fakeBacktest('damped_trend', 10, twelve(6))]);
  assert.equal(s.comparedOn, 12);
  assert.equal(s.maeH1.naive, 5);
  assert.equal(s.model, 'naive');
});

test("intervals: conformal from the chosen model's errors at ≥ 20, analytic below, clipped to bounds", () => {
  const rng = new Random(7);
  const y = Array.from({ length: 40 }, () => 450 + rng.normal(0, 10));
  const f = forecastSeries(y, { bounds: { min: 0, max: 1200 }, maxHorizon: 5 })!;
  const chosen = f.backtests.find((b) => b.model === f.selection.model)!;
  for (const fc of f.forecasts) {
    const errors = chosen.records[fc.h - 1].map((r) => Math.abs(r.error));
    assert.equal(fc.backtestErrors, errors.length);
    if (errors.length >= 20) {
      assert.equal(fc.intervalMethod, 'conformal');
      assert.equal(fc.halfWidth, conformalHalfWidth(errors));
    } else {
      assert.equal(fc.intervalMethod, 'analytic');
    }
    close(fc.upper - fc.point, fc.halfWidth, 1e-9);
  }
  // n at each horizon: origins 3…39 for the first three models → 37 − (h − 1).
  for (const b of f.backtests) {
    for (const m of b.byHorizon) assert.equal(m.n, 40 - b.firstOrigin - (m.h - 1));
  }
  const short = forecastSeries([1190, 1195, 1199, 1200, 1200], { bounds: { min: 0, max: 1200 }, maxHorizon: 3 })!;
  for (const fc of short.forecasts) {
    assert.equal(fc.intervalMethod, 'analytic');
    assert.ok(fc.upper <= 1200 && fc.point <= 1200 && fc.lower >= 0);
  }
  const invitations = forecastSeries([3, 2, 1, 1, 2, 1], { bounds: { min: 1, max: Number.MAX_SAFE_INTEGER }, maxHorizon: 2 })!;
  assert.ok(invitations.forecasts.every((fc) => fc.lower >= 1));
});

test('pooled metrics combine the records of several series exactly', () => {
  const a = rollingOriginBacktest([1, 3, 2, 5, 4], naive, { firstOrigin: 3, maxHorizon: 2, bounds: wide, window: 6 });
  const b = rollingOriginBacktest([10, 10, 12, 11, 15, 14], naive, { firstOrigin: 3, maxHorizon: 2, bounds: wide, window: 6 });
  const [h1] = poolBacktests([a, b], 2);
  // Errors at h = 1: a: 3, −1; b: 11 − 12 = −1, 15 − 11 = 4, 14 − 15 = −1.
  assert.equal(h1.n, 5);
  close(h1.mae!, (3 + 1 + 1 + 4 + 1) / 5, 1e-12);
  close(h1.bias!, (3 - 1 - 1 + 4 - 1) / 5, 1e-12);
  close(h1.mase!, (3 / a.scale! + 1 / a.scale! + (1 + 4 + 1) / b.scale!) / 5, 1e-12);
});
