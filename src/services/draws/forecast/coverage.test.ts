// Are the served 95% intervals calibrated? Simulated panels with known dynamics (mean-reverting cut-offs of
// different noise levels, invitations varying on the log scale, irregular gaps between draws): the walk-forward
// coverage of every interval family (CRS, invitations, draw date) at h = 1…3 over the report window. And an
// outlier years before the as-of date does not widen today's interval; each series' errors are remembered for its span.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { weekendToMonday } from './draw-dates.ts';
import { forecastPanel } from './forecast-panel.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';
import { DATE_INTERVAL_TARGET } from './metrics.ts';
import { INTERVAL_DAYS } from './walk-forward.ts';

const END = '2025-12-17';

/** A category: AR(1) cut-offs around `level` with noise `sd`, log-invitations AR(1), gaps drawn from `gaps`. */
function simulate(rng: Random, id: number, level: number, sd: number, gaps: readonly number[], count: number): CategoryDrawsInput {
  const days: number[] = [];
  let day = dayNumber(END) - 3;
  for (let i = 0; i < count; i++) {
    days.unshift(weekendToMonday(day) > dayNumber(END) ? day - 2 : weekendToMonday(day));
    day -= rng.pick(gaps);
  }
  let x = 0;
  let u = 0;
  const draws = days.map((d) => {
    x = 0.6 * x + rng.normal(0, sd);
    u = 0.5 * u + rng.normal(0, 0.35);
    return {
      date: isoFromDayNumber(d),
      crs: Math.round(Math.min(1200, Math.max(0, level + x))),
      invitations: Math.max(1, Math.round(3000 * Math.exp(u))),
    };
  });
  return { id, slug: `c${id}`, draws };
}

function simulatedPanel(seed: string): CategoryDrawsInput[] {
  const rng = new Random(seed);
  return [
    simulate(rng, 1, 480, 6, [14, 14, 14, 7, 21], 120),
    simulate(rng, 2, 520, 12, [14, 14, 28], 90),
    simulate(rng, 3, 740, 30, [14, 14, 13, 15], 120),
    simulate(rng, 4, 430, 20, [21, 28, 30, 35, 60], 60),
    simulate(rng, 5, 470, 9, [7, 14, 14, 14, 21, 28], 110),
  ];
}

test('served 95% intervals cover 93–97% and 90% date ranges 88–95% in the walk-forward of five simulated panels (h = 1…3)', () => {
  // One panel gives about 215 forecasts a family: its coverage has a standard error of 1.5 points, so one panel alone
  // can land three standard errors off by chance. Five panels pooled (about 1,070 forecasts) pin it within 2 points.
  const lines: string[] = [];
  const pooled = new Map<string, { n: number; held: number }>();
  for (const seed of ['coverage-a', 'coverage-b', 'coverage-c', 'coverage-d', 'coverage-e']) {
    const f = forecastPanel(simulatedPanel(seed), END);
    const c = f.calibration!;
    for (let h = 1; h <= 3; h++) {
      const crs = c.crs[h - 1];
      const invitations = c.invitations[h - 1];
      const dates = c.dates[h - 1];
      lines.push(
        `  ${seed} h=${h}: CRS ${(100 * crs.coverage_95!).toFixed(1)}% (n=${crs.n}), invitations ${(100 * invitations.coverage_95!).toFixed(1)}% (n=${invitations.n}), dates ${(100 * dates.coverage!).toFixed(1)}% (n=${dates.n}, level ${dates.level})`,
      );
      for (const [family, coverage, n] of [
        ['CRS', crs.coverage_95!, crs.n],
        ['invitations', invitations.coverage_95!, invitations.n],
        ['dates', dates.coverage!, dates.n],
      ] as const) {
        assert.ok(n >= 150, `${seed} h${h} ${family}: ${n} scored forecasts`);
        const key = `${family} h${h}`;
        const sum = pooled.get(key) ?? { n: 0, held: 0 };
        pooled.set(key, { n: sum.n + n, held: sum.held + coverage * n });
      }
    }
  }
  console.log(`\nWalk-forward coverage of the served intervals on simulated panels:\n${lines.join('\n')}\n`);
  for (const [key, { n, held }] of pooled) {
    const coverage = held / n;
    // Dates are calibrated to DATE_INTERVAL_TARGET over a grid of levels: the smallest that reaches it, so they may overshoot by a step.
    const [lo, hi] = key.startsWith('dates') ? [DATE_INTERVAL_TARGET - 0.02, DATE_INTERVAL_TARGET + 0.05] : [0.93, 0.97];
    const show = (x: number) => `${Math.round(100 * x)}%`;
    assert.ok(coverage >= lo && coverage <= hi, `${key}: coverage ${(100 * coverage).toFixed(1)}% of ${n} outside ${show(lo)}–${show(hi)}`);
  }
});

test('an outlier far in the past does not widen today’s interval', () => {
  const panel = simulatedPanel('outlier');
  const target = panel[0];
  // A CRS-75-like draw three years before the as-of date.
  const index = target.draws.findIndex((d) => d.date >= '2022-12-01');
  const withOutlier = panel.map((c) => (c === target ? { ...c, draws: c.draws.map((d, i) => (i === index ? { ...d, crs: 75 } : d)) } : c));
  const half = (p: CategoryDrawsInput[]) =>
    forecastPanel(p, END, { report: false })
      .categories.find((c) => c.slug === target.slug)!
      .predictions.map((p) => p.uncertainty_range.margin_of_error);
  const clean = half(panel);
  const outlier = half(withOutlier);
  for (let i = 0; i < clean.length; i++) assert.ok(outlier[i] <= clean[i] * 1.05, `rank ${i + 1}: ${outlier[i]} vs ${clean[i]}`);
});

test('each series’ error quantile rests on the errors of its own memory: three years for the CRS, one for invitations', () => {
  const panel = simulatedPanel('memory');
  const forecast = forecastPanel(panel, END, { report: false });
  const today = dayNumber(END);
  for (const kind of ['crs', 'invitations'] as const) {
    const intervals = forecast.categories[0][kind]!.intervals;
    for (const { h, errors } of intervals) {
      // Every draw is an origin; a forecast is an established one's from its fifth draw on; no pause in these panels.
      // So the h-step errors known today within the memory are the draws i ≥ h + 4 (0-based) drawn in its last days.
      const expected = panel
        .map((c) => c.draws.filter((d, i) => i >= h + 4 && dayNumber(d.date) > today - INTERVAL_DAYS[kind]).length)
        .reduce((a, b) => a + b, 0);
      assert.equal(errors, expected, `${kind} h = ${h}`);
    }
    const halves = intervals.map((x) => x.half_width);
    for (let i = 1; i < halves.length; i++) assert.ok(halves[i] >= halves[i - 1], `${kind}: never narrower at h + 1`);
  }
  assert.ok(INTERVAL_DAYS.crs > INTERVAL_DAYS.invitations);
});
