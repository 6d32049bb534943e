// Adaptive conformal inference of the CRS intervals' level: the update by hand, its bounds, the long-run miss rate it
// guarantees on a stream whose errors change scale, and the level the walk-forward serves recomputed from the misses of
// the intervals it served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { ADAPTIVE_LEVEL_RANGE, ADAPTIVE_STEP, adaptiveLevel, INTERVAL_LEVEL, servedHalfWidth, servedLevel } from './metrics.ts';
import { conformalHalfWidth } from './statistics.ts';
import { knownAt, seriesValue, walkForward } from './walk-forward.ts';
import type { PanelCategory } from './walk-forward.ts';

const close = (actual: number, expected: number, label = '') =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${label} ${actual} ≠ ${expected}`);

test('the adapted level is level − γ Σ (0.05 − miss), within its range', () => {
  assert.equal(adaptiveLevel(0.95, 0.01, []), 0.95);
  // Ten hits: α = 0.05 + 10 × 0.01 × 0.05 = 0.055.
  close(adaptiveLevel(0.95, 0.01, Array(10).fill(false)), 0.945, 'ten hits');
  // One miss: α = 0.05 + 0.01 × (0.05 − 1) = 0.0405.
  close(adaptiveLevel(0.95, 0.01, [true]), 0.9595, 'one miss');
  // Nineteen hits and one miss (the target rate) leave it where it started, in any order.
  const balanced = [...Array(19).fill(false), true];
  close(adaptiveLevel(0.95, 0.01, balanced), 0.95, 'at the target rate');
  close(adaptiveLevel(0.95, 0.01, [...balanced].reverse()), 0.95, 'reversed');
  assert.equal(adaptiveLevel(0.95, 0.01, Array(1000).fill(false)), ADAPTIVE_LEVEL_RANGE[0], 'a long run of hits stops at the floor');
  assert.equal(adaptiveLevel(0.95, 0.01, Array(50).fill(true)), ADAPTIVE_LEVEL_RANGE[1], 'a run of misses stops at the ceiling');
  assert.equal(adaptiveLevel(0.95, 0, [true, true, false]), 0.95, 'no step, no adaptation');
});

test('served online, the adapted level keeps the long-run miss rate near 5% when the errors change scale', () => {
  // A stream of |errors| whose scale triples halfway through. The fixed 95% quantile of every error so far misses far
  // more than 5% after the change (its errors are still mostly the small ones); the adapted level corrects that. Gibbs &
  // Candès (2021, Proposition 4.1) bound the unclipped update's miss rate within (max(α₁, 1 − α₁) + γ) / (γT) of α.
  const rng = new Random('aci-stream');
  const T = 1500;
  const step = 0.05;
  const errors = Array.from({ length: T }, (_, t) => Math.abs(rng.normal(0, t < T / 2 ? 1 : 3)));
  const run = (adapt: boolean) => {
    const misses: boolean[] = [];
    for (let t = 20; t < T; t++) {
      const level = adapt ? adaptiveLevel(INTERVAL_LEVEL, step, misses) : INTERVAL_LEVEL;
      const q = conformalHalfWidth(errors.slice(0, t), level);
      misses.push(errors[t] > q);
    }
    return misses.filter(Boolean).length / misses.length;
  };
  const fixed = run(false);
  const adapted = run(true);
  const bound = (0.95 + step) / (step * (T - 20));
  console.log(`misses: fixed level ${fixed.toFixed(4)}, adapted ${adapted.toFixed(4)} (bound ±${bound.toFixed(4)})`);
  assert.ok(fixed > 0.06, `the fixed level misses ${fixed}`);
  assert.ok(Math.abs(adapted - 0.05) <= bound + 0.005, `the adapted level misses ${adapted} (bound ${bound})`);
  assert.ok(Math.abs(adapted - 0.05) < Math.abs(fixed - 0.05));
});

test('the walk-forward serves the level adapted by the misses of the intervals it served', () => {
  const rng = new Random('aci-walk');
  const end = dayNumber('2025-12-01');
  const category = (id: number, sd: number, count: number, step: number): PanelCategory => {
    let crs = 480;
    return {
      id,
      slug: `c${id}`,
      draws: Array.from({ length: count }, (_, i) => {
        crs += rng.normal(0, sd) + 0.2 * (480 - crs);
        return { day: end - (count - 1 - i) * step, crs: Math.round(crs), invitations: 1000 + rng.int(0, 2000) };
      }),
    };
  };
  const wf = walkForward([category(1, 6, 80, 14), category(2, 20, 60, 21)]);
  const day = dayNumber(isoFromDayNumber(end));
  for (const h of [1, 3]) {
    const known = knownAt(wf.points, day, h, null)
      .filter((p) => !p.young && p.day < day)
      .sort((a, b) => a.targets[h - 1]!.day - b.targets[h - 1]!.day);
    assert.ok(known.length > 50);
    const misses = known.map(
      (p) => Math.abs(seriesValue('crs', p.targets[h - 1]!) - p.series.crs.served[h - 1]) > servedHalfWidth(wf.points, p, 'crs', h, p.day),
    );
    close(servedLevel(wf.points, 'crs', h, day), adaptiveLevel(INTERVAL_LEVEL, ADAPTIVE_STEP.crs, misses), `h = ${h}`);
    assert.equal(servedLevel(wf.points, 'invitations', h, day), INTERVAL_LEVEL, 'invitations keep the fixed level');
  }
});
