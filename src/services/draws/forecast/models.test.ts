import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyticHalfWidth,
  dampedFilter,
  dampedWithParameters,
  fitDamped,
  fitNaive,
  fitSes,
  fitWindowMean,
  nelderMead,
  sesFilter,
  sesWithAlpha,
} from './models.ts';

const close = (actual: number, expected: number, tolerance: number, label = ''): void =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${label} ${actual} ≠ ${expected} ± ${tolerance}`);

// t quantiles from printed tables, so these checks do not lean on the code's own t routine.
const T975 = { 1: 12.7062047, 2: 4.30265273, 3: 3.18244631 };

test('naive: last value; σ̂² = Σ(Δy)²/(T−1); sd(h) = σ̂√h', () => {
  // y = 1, 3, 2, 5: changes 2, −1, 3 → σ̂² = 14/3 on 3 df.
  const m = fitNaive([1, 3, 2, 5]);
  assert.equal(m.point(1), 5);
  assert.equal(m.point(4), 5);
  assert.equal(m.df, 3);
  close(m.sigma ** 2, 14 / 3, 1e-12);
  close(m.sd(2), Math.sqrt(28 / 3), 1e-12);
  close(analyticHalfWidth(m, 2), T975[3] * Math.sqrt(28 / 3), 1e-6);
});

test('window mean: mean of the last w; σ̂ from rolling one-step errors; flat sd', () => {
  // w = 3, y = 2, 4, 6, 8: forecasts 2, 3, 4 for 4, 6, 8 → errors 2, 3, 4, σ̂² = 29/3 on 3 df; point (4+6+8)/3.
  const m = fitWindowMean([2, 4, 6, 8], 3);
  assert.equal(m.point(1), 6);
  assert.equal(m.point(5), 6);
  assert.equal(m.df, 3);
  close(m.sigma ** 2, 29 / 3, 1e-12);
  close(m.sd(1), m.sd(5), 0);
  close(analyticHalfWidth(m, 1), T975[3] * Math.sqrt(29 / 3), 1e-6);
  assert.equal(fitWindowMean([1, 2, 3, 4, 5, 6, 7, 8], 6).point(1), 5.5);
});

test('SES: recursion by hand, fitted α at the known optimum, ETS(A,N,N) sd', () => {
  // α = 0.3, y = 10, 12, 11, 13: ℓ 10 → 10.6 → 10.72 → 11.404; errors 2, 0.4, 2.28.
  const f = sesFilter([10, 12, 11, 13], 0.3);
  close(f.level, 11.404, 1e-12);
  close(f.sse, 4 + 0.16 + 2.28 ** 2, 1e-12);
  // y = 0, 2, 1: SSE(α) = 2² + (1 − 2α)², minimised at α = ½; level then 1; σ̂² = 4 on 3 − 1 − 1 = 1 df.
  const m = fitSes([0, 2, 1]);
  close(m.parameters.alpha, 0.5, 1e-6);
  close(m.point(1), 1, 1e-6);
  assert.equal(m.df, 1);
  close(m.sigma, 2, 1e-6);
  close(m.sd(2), 2 * Math.sqrt(1 + 0.25), 1e-5);
  close(analyticHalfWidth(m, 2), T975[1] * Math.sqrt(5), 1e-4);
  const fixed = sesWithAlpha([10, 12, 11, 13], 0.3, 0);
  close(fixed.sd(3), fixed.sigma * Math.sqrt(1 + 2 * 0.09), 1e-12);
  // A series that only ever steps up to a new level is best followed at once: α = 1.
  close(fitSes([0, 2, 2, 2, 2]).parameters.alpha, 1, 1e-9);
});

test('damped trend: recursion and forecasts by hand', () => {
  // α = 0.5, β = 0.2, φ = 0.9, y = 10, 12, 13, from ℓ = 10, b = 0:
  // t2: ŷ 10, e 2, ℓ 11, b 0.4;  t3: ŷ 11.36, e 1.64, ℓ 12.18, b 0.36 + 0.328 = 0.688.
  const f = dampedFilter([10, 12, 13], 0.5, 0.2, 0.9);
  close(f.level, 12.18, 1e-12);
  close(f.trend, 0.688, 1e-12);
  close(f.sse, 4 + 1.64 ** 2, 1e-12);
  const m = dampedWithParameters([10, 12, 13], 0.5, 0.2, 0.9, 0);
  close(m.point(1), 12.18 + 0.9 * 0.688, 1e-12);
  close(m.point(2), 12.18 + (0.9 + 0.81) * 0.688, 1e-12);
  assert.equal(m.df, 2);
  close(m.sigma ** 2, (4 + 1.64 ** 2) / 2, 1e-12);
  // sd(2)² = σ̂²(1 + (α + βφ)²) = σ̂²(1 + 0.68²); sd(3)² adds (α + β(φ + φ²))² = (0.5 + 0.2·1.71)².
  close(m.sd(2) ** 2, m.sigma ** 2 * (1 + 0.68 ** 2), 1e-12);
  close(m.sd(3) ** 2, m.sigma ** 2 * (1 + 0.68 ** 2 + (0.5 + 0.2 * 1.71) ** 2), 1e-12);
  close(analyticHalfWidth(m, 1), T975[2] * m.sigma, 1e-6);
});

test('damped trend fit: parameters in range and SSE no worse than the starting grid', () => {
  const y = [400, 410, 423, 431, 445, 452, 468, 470, 481, 492, 499, 507, 515, 524, 530];
  const m = fitDamped(y);
  const { alpha, beta, phi } = m.parameters;
  assert.ok(alpha >= 0.01 && alpha <= 1 && beta >= 0 && beta <= alpha + 1e-12 && phi >= 0.8 && phi <= 0.98, JSON.stringify(m.parameters));
  const fittedSse = dampedFilter(y, alpha, beta, phi).sse;
  for (const a of [0.1, 0.5, 1])
    for (const b of [0, 0.1]) for (const p of [0.8, 0.98]) assert.ok(fittedSse <= dampedFilter(y, a, a * b, p).sse + 1e-9);
  // On a steadily rising series the trend carries the forecast upwards.
  assert.ok(m.point(1) > y.at(-1)!, `${m.point(1)}`);
  assert.equal(m.df, y.length - 1 - 3);
});

test('Nelder–Mead finds the minimum of a quadratic', () => {
  const { x, value } = nelderMead(([a, b]) => (a - 1) ** 2 + 3 * (b + 2) ** 2, [5, 5], 1, 500);
  close(x[0], 1, 1e-3);
  close(x[1], -2, 1e-3);
  assert.ok(value < 1e-6);
});
