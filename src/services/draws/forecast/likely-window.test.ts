// The likely window's probability: the isotonic map of the date law's mass, fitted per window class on windows whose
// draw was known by the forecast's day only, kept off 0 and 1; and the benchmark's summary of stated probabilities.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { summariseLikelyWindows } from './date-backtest.ts';
import { WINDOW_CLASSES, windowClass } from './draw-dates.ts';
import { likelyCalibration, likelyProbability } from './metrics.ts';
import { panelOf } from './rolling-origin.ts';
import { truncateWalk, walkForward } from './walk-forward.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';

test('a window asked on the draw day, within the typical gap and past it are calibrated apart', () => {
  assert.deepEqual(
    [windowClass(0, 14), windowClass(7, 14), windowClass(14, 14), windowClass(15, 14)],
    ['draw_day', 'within_typical_gap', 'within_typical_gap', 'past_typical_gap'],
  );
});

test('the stated probability: the isotonic map, the end blocks keeping it off 0 and 1; the mass while too few windows are known', () => {
  const blocks = [
    { score: 0.2, rate: 0, n: 5 },
    { score: 0.6, rate: 1, n: 3 },
  ];
  assert.equal(likelyProbability({ n: 8, baseRate: 3 / 8, blocks }, 0.9), 3 / 4, 'three windows that all held say at most 3/4');
  assert.equal(likelyProbability({ n: 8, baseRate: 3 / 8, blocks }, 0.1), 1 / 6, 'five that all missed say at least 1/6');
  assert.ok(Math.abs(likelyProbability({ n: 8, baseRate: 3 / 8, blocks }, 0.4) - 0.5) < 1e-12);
  assert.equal(likelyProbability({ n: 4, baseRate: 0.5, blocks: [] }, 0.37), 0.37);
});

/** Three categories drawing every 10–20 days (seeded), with breaks of 40–90 days now and then. */
function irregularPanel(): CategoryDrawsInput[] {
  const rng = new Random(31);
  return ['a', 'b', 'c'].map((slug, i) => {
    let day = dayNumber('2021-01-04') + i * 3;
    const draws = Array.from({ length: 90 }, () => {
      day += rng.next() < 0.12 ? 40 + Math.floor(rng.next() * 50) : 10 + Math.floor(rng.next() * 11);
      return { date: isoFromDayNumber(day), crs: 480, invitations: 3000 };
    });
    return { id: i + 1, slug, draws };
  });
}

test('calibrated by rolling origin: a day’s map uses only the windows whose draw was known by then', () => {
  const categories = irregularPanel();
  const full = walkForward(panelOf(categories));
  const day = dayNumber('2023-06-01');
  // The walk of the draws known on the day, and the full walk truncated to it: the same calibration.
  const known = walkForward(panelOf(categories.map((c) => ({ ...c, draws: c.draws.filter((d) => dayNumber(d.date) <= day) }))));
  for (const c of WINDOW_CLASSES) {
    const a = likelyCalibration(known.points, day, c);
    const b = likelyCalibration(truncateWalk(full, day).points, day, c);
    assert.deepEqual(a, b, c);
    assert.ok(a.n >= 30, `${c}: ${a.n} windows`);
    // Non-decreasing in the mass, within [0, 1].
    let previous = -Infinity;
    for (let m = 0; m <= 1; m += 0.05) {
      const p = likelyProbability(a, m);
      assert.ok(p >= previous - 1e-12 && p >= 0 && p <= 1, `${c} at ${m}: ${p}`);
      previous = p;
    }
  }
  // The full walk, whose points know every later draw, gives the same: nothing after the day enters.
  for (const c of WINDOW_CLASSES) assert.deepEqual(likelyCalibration(full.points, day, c), likelyCalibration(known.points, day, c), c);
});

test('the summary of stated probabilities: Brier score, skill against the reference, calibration error, reliability', () => {
  const record = (probability: number, reference: number, held: boolean) => ({
    asOf: '2024-01-01',
    actual: held ? '2024-01-10' : '2024-03-01',
    likely: { range: ['2024-01-02', '2024-01-22'] as [string, string], probability, reference, mass: 0.9 },
  });
  const s = summariseLikelyWindows([record(0.8, 0.5, true), record(0.8, 0.5, false), record(0.2, 0.5, false), record(0.25, 0.5, false)]);
  assert.equal(s.n, 4);
  assert.equal(s.hitRate, 0.25);
  assert.ok(Math.abs(s.brier! - (0.04 + 0.64 + 0.04 + 0.0625) / 4) < 1e-12);
  assert.equal(s.referenceBrier, 0.25);
  assert.ok(Math.abs(s.skill! - (1 - s.brier! / 0.25)) < 1e-12);
  // Bins 0.2–0.3 (0.225 stated, none held) and 0.8–0.9 (0.8 stated, half held): ECE = ½ × 0.225 + ½ × 0.3.
  assert.ok(Math.abs(s.ece! - (0.5 * 0.225 + 0.5 * 0.3)) < 1e-12);
  assert.deepEqual(
    s.bins.filter((b) => b.n > 0).map((b) => [b.from, b.n, b.observed]),
    [
      [0.2, 2, 0],
      [0.8, 2, 0.5],
    ],
  );
  assert.equal(s.massMean, 0.9);
  assert.equal(s.medianLead, 1);
});
