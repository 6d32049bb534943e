// The "my score" probability: closed forms of the symmetric and the served (asymmetric) Laplace laws, the rounding and
// clipping of the published cut-off, and a simulation of that cut-off under the served law.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Random } from '../../../core/random.ts';
import {
  centralRange,
  clearance,
  clearance as clearanceOf,
  CUTOFF_LAW,
  lawCdf,
  lawQuantile,
  lawScales,
  SYMMETRIC_LAW,
} from './clearance.ts';

// The symmetric law by its scale b (its 95% half-width is b ln 20).
const laplaceScaleFor95 = (margin: number) => margin / Math.log(20);
const laplaceCdf = (x: number, location: number, b: number) => lawCdf(x, location, b * Math.log(20), SYMMETRIC_LAW);
const laplaceQuantile = (q: number, location: number, b: number) => lawQuantile(q, location, b * Math.log(20), SYMMETRIC_LAW);

const close = (actual: number, expected: number, tolerance = 1e-12, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} is not ${expected} ± ${tolerance}`);

test('the Laplace law of a 95% interval ± m puts 95% inside it, 2.5% beyond each end, half below the centre', () => {
  const b = laplaceScaleFor95(40);
  close(b, 40 / Math.log(20));
  close(laplaceCdf(500, 500, b), 0.5);
  close(laplaceCdf(540, 500, b), 0.975);
  close(laplaceCdf(460, 500, b), 0.025);
  close(laplaceCdf(540, 500, b) - laplaceCdf(460, 500, b), 0.95);
  // ln 2 · b either side holds the central half
  close(laplaceCdf(500 + b * Math.log(2), 500, b), 0.75);
  close(laplaceQuantile(0.975, 500, b), 540, 1e-9);
  close(laplaceQuantile(0.025, 500, b), 460, 1e-9);
  close(laplaceQuantile(0.5, 500, b), 500, 1e-9);
  const half = centralRange({ point: 500, margin: 40 }, 0.5, SYMMETRIC_LAW);
  close(half.upper - 500, b * Math.log(2), 1e-9);
  close(500 - half.lower, b * Math.log(2), 1e-9);
  const ninetyFive = centralRange({ point: 500, margin: 40 }, 0.95, SYMMETRIC_LAW);
  close(ninetyFive.lower, 460, 1e-9);
  close(ninetyFive.upper, 540, 1e-9);
  assert.throws(() => laplaceQuantile(1, 0, 1), /strictly between 0 and 1/);
});

test('the served law: a share p at or below the forecast, scales λ₋ m below and λ₊ m above it', () => {
  const { belowShare: p, lowerScale, upperScale } = CUTOFF_LAW;
  const m = 40;
  close(lawCdf(500, 500, m), p);
  close(lawCdf(500 - m, 500, m), p * Math.exp(-1 / lowerScale));
  close(lawCdf(500 + m, 500, m), 1 - (1 - p) * Math.exp(-1 / upperScale));
  assert.deepEqual(lawScales(m), { lower: lowerScale * m, upper: upperScale * m });
  for (const q of [0.01, 0.2, p, 0.7, 0.99]) close(lawCdf(lawQuantile(q, 500, m), 500, m), q, 1e-12, `F(F⁻¹(${q}))`);
  const central = centralRange({ point: 500, margin: m }, 0.5);
  close(lawCdf(central.upper, 500, m) - lawCdf(central.lower, 500, m), 0.5, 1e-12);
  // the upper tail is the heavier one: the cut-off reaches further above the forecast than below it
  assert.ok(central.upper - 500 > 500 - central.lower);
  assert.ok(clearance(540, { point: 500, margin: m }).atOrBelow < clearance(540, { point: 500, margin: m }, SYMMETRIC_LAW).atOrBelow);
});

test('clearance: the cut-off is a whole score, so a score s clears when the unrounded cut-off is below s + ½', () => {
  const forecast = { point: 500.5, margin: 40 };
  const clearance = (s: number, f: typeof forecast) => clearanceOf(s, f, SYMMETRIC_LAW);
  const b = 40 / Math.log(20);
  // s + ½ = ŷ: exactly even odds of a cut-off at or below the score
  const at = clearance(500, forecast);
  close(at.atOrBelow, 0.5);
  // below: the unrounded cut-off under 499.5, one point under the centre
  close(at.below, 0.5 * Math.exp(-1 / b));
  close(at.equal, 0.5 * (1 - Math.exp(-1 / b)));
  close(at.equal, at.atOrBelow - at.below);
  // the interval's ends: 97.5% and 2.5%
  close(clearance(540, forecast).atOrBelow, 0.975);
  close(clearance(460, forecast).atOrBelow, 0.025);
  // far above and below the interval
  assert.ok(clearance(700, forecast).atOrBelow > 0.99999);
  assert.ok(clearance(300, forecast).atOrBelow < 1e-5);
});

test('clearance at the ends of the CRS range: the cut-off is clipped to 0–1200', () => {
  const clearance = (s: number, f: { point: number; margin: number }) => clearanceOf(s, f, SYMMETRIC_LAW);
  const high = { point: 1250, margin: 30 };
  const top = clearance(1200, high);
  assert.equal(top.atOrBelow, 1, 'no cut-off exceeds 1200');
  close(top.equal, 1 - laplaceCdf(1199.5, 1250, laplaceScaleFor95(30)), 1e-12);
  const low = { point: -10, margin: 20 };
  const bottom = clearance(0, low);
  assert.equal(bottom.below, 0, 'no cut-off is below 0');
  close(bottom.atOrBelow, laplaceCdf(0.5, -10, laplaceScaleFor95(20)));
  close(bottom.equal, bottom.atOrBelow);
});

test('a zero-width forecast is a point mass at the rounded point', () => {
  const forecast = { point: 470.2, margin: 0 };
  assert.deepEqual(clearance(469, forecast), { atOrBelow: 0, below: 0, equal: 0 });
  assert.deepEqual(clearance(470, forecast), { atOrBelow: 1, below: 0, equal: 1 });
  assert.deepEqual(clearance(471, forecast), { atOrBelow: 1, below: 1, equal: 0 });
});

test('clearance refuses a score that is not a whole number in 0–1200, or a forecast that is not finite', () => {
  for (const bad of [-1, 1201, 450.5, Number.NaN])
    assert.throws(() => clearance(bad, { point: 450, margin: 20 }), /whole number from 0 to 1200/);
  assert.throws(() => clearance(450, { point: Number.NaN, margin: 20 }), /finite/);
});

test('clearance grows with the score and the three probabilities agree (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 1199 }),
      fc.double({ min: -50, max: 1250, noNaN: true }),
      fc.double({ min: 0, max: 300, noNaN: true }),
      (s, point, margin) => {
        const a = clearance(s, { point, margin });
        const b = clearance(s + 1, { point, margin });
        assert.ok(a.atOrBelow <= b.atOrBelow + 1e-15);
        assert.ok(a.below <= a.atOrBelow && a.atOrBelow <= 1 && a.below >= 0);
        close(a.equal, a.atOrBelow - a.below, 1e-15);
        close(b.below, a.atOrBelow, 1e-15, 'P(C < s + 1) = P(C ≤ s)');
      },
    ),
  );
});

test('the probabilities match a simulation of the rounded, clipped cut-off under the served law', () => {
  const random = new Random(20251217);
  const forecast = { point: 512.3, margin: 35 };
  const b = lawScales(forecast.margin);
  const n = 200_000;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const e = random.next() < CUTOFF_LAW.belowShare ? -random.exponential(1 / b.lower) : random.exponential(1 / b.upper);
    const cutoff = Math.min(1200, Math.max(0, Math.round(forecast.point + e)));
    counts.set(cutoff, (counts.get(cutoff) ?? 0) + 1);
  }
  const share = (predicate: (c: number) => boolean) => [...counts].reduce((sum, [c, k]) => sum + (predicate(c) ? k : 0), 0) / n;
  for (const s of [470, 500, 512, 513, 530, 560]) {
    const p = clearance(s, forecast);
    // binomial standard error at n = 200,000 is at most 0.0011: 5 standard errors
    close(
      p.atOrBelow,
      share((c) => c <= s),
      0.0056,
      `P(C ≤ ${s})`,
    );
    close(
      p.below,
      share((c) => c < s),
      0.0056,
      `P(C < ${s})`,
    );
    close(
      p.equal,
      share((c) => c === s),
      0.0056,
      `P(C = ${s})`,
    );
  }
});
