// The scatter's curve: the maximum-likelihood Poisson fit recovers known parameters, its score is zero at the answer,
// and points that cannot determine a curve give none.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fitRateCurve } from './democracy-curve.ts';

describe('democracy scatter curve', () => {
  it('recovers the parameters of counts equal to their expectations', () => {
    const points = [0.1, 0.3, 0.45, 0.6, 0.9].map((x, i) => {
      const exposure = 1000 * (i + 1);
      return { x, exposure, events: exposure * Math.exp(-5 + 1.5 * x) };
    });
    const curve = fitRateCurve(points)!;
    assert.ok(Math.abs(curve.intercept + 5) < 1e-9, String(curve.intercept));
    assert.ok(Math.abs(curve.slope - 1.5) < 1e-9, String(curve.slope));
    assert.ok(Math.abs(curve.ratePer1000(0.5) - 1000 * Math.exp(-5 + 0.75)) < 1e-9);
  });

  it('sets the score to zero on noisy counts: observed and fitted totals agree, overall and weighted by x', () => {
    const points = [
      { x: 0.2, exposure: 5000, events: 31 },
      { x: 0.4, exposure: 12000, events: 40 },
      { x: 0.55, exposure: 800, events: 9 },
      { x: 0.8, exposure: 20000, events: 12 },
      { x: 0.95, exposure: 3000, events: 0 },
    ];
    const curve = fitRateCurve(points)!;
    const fitted = points.map((p) => (p.exposure * curve.ratePer1000(p.x)) / 1000);
    const sum = (f: (p: (typeof points)[number], i: number) => number) => points.reduce((s, p, i) => s + f(p, i), 0);
    assert.ok(Math.abs(sum((p, i) => p.events - fitted[i])) < 1e-8);
    assert.ok(Math.abs(sum((p, i) => (p.events - fitted[i]) * p.x)) < 1e-8);
    assert.ok(curve.slope < 0, 'fewer retractions per publication at the higher democracy indices of these points');
  });

  it('gives no curve for one x value or no events', () => {
    assert.equal(
      fitRateCurve([
        { x: 0.5, exposure: 10, events: 1 },
        { x: 0.5, exposure: 20, events: 3 },
      ]),
      null,
    );
    assert.equal(
      fitRateCurve([
        { x: 0.1, exposure: 10, events: 0 },
        { x: 0.5, exposure: 20, events: 0 },
      ]),
      null,
    );
  });
});
