// The date views of the benchmark: ranges as of days through the gaps are forecastPanel's on what was known that day,
// and the hindsight windows and gap spreads are what their definitions say (closed forms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import {
  afterDormancyPause,
  asOfDayDateRecords,
  gapSpread,
  hindsightWindowCoverage,
  leaveOneYearOutWindows,
  meanYearlyIntervalScore,
  summariseByYear,
  summariseDateRanges,
  staleFeedRecords,
} from './date-backtest.ts';
import { forecastPanel } from './forecast-panel.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';
import type { StaleFeedRecord } from './date-backtest.ts';

test('hindsight windows: the best window per category, pooled', () => {
  // a: gaps 14, 14, 15, 28, 60 → width 1 holds 3 (14–15), width 14 holds 4 (14–28), width 46 holds all 5.
  // b: gaps 30, 31 → width 1 holds both.
  const gaps = [14, 14, 15, 28, 60].map((gap) => ({ category: 'a', gap })).concat([30, 31].map((gap) => ({ category: 'b', gap })));
  assert.deepEqual(hindsightWindowCoverage(gaps, [0, 1, 14, 46]), [
    { width: 0, coverage: 3 / 7 },
    { width: 1, coverage: 5 / 7 },
    { width: 14, coverage: 6 / 7 },
    { width: 46, coverage: 1 },
  ]);
  assert.deepEqual(hindsightWindowCoverage([], [21]), [{ width: 21, coverage: null }]);
  // Quantiles by linear interpolation: a's 5% = 14, median 15, 95% = 28 + 0.8 × 32 = 53.6.
  const spread = gapSpread(gaps);
  assert.equal(spread[0].category, 'a');
  assert.equal(spread[0].n, 5);
  assert.equal(spread[0].p50, 15);
  assert.ok(Math.abs(spread[0].p95 - 53.6) < 1e-9);
  assert.equal(spread[1].category, 'b');
  for (const [got, want] of [
    [spread[1].p05, 30.05],
    [spread[1].p50, 30.5],
    [spread[1].p95, 30.95],
  ])
    assert.ok(Math.abs(got - want) < 1e-9, `${got} ≠ ${want}`);
});

test('date range summary: coverage and interval score of all, median width of the active', () => {
  const s = summariseDateRanges([
    { actual: '2025-01-10', range: ['2025-01-06', '2025-01-20'], active: true },
    { actual: '2025-01-21', range: ['2025-01-06', '2025-01-20'], active: true },
    { actual: '2025-01-06', range: ['2025-01-06', '2025-03-06'], active: false },
    { actual: '2025-02-03', range: ['2025-01-06', '2025-02-05'], active: true },
  ]);
  // Interval scores (α = 0.10): 14; 14 + 20 × 1 day late; 59; 30.
  assert.deepEqual(s, { n: 4, coverage: 0.75, intervalScore: (14 + 34 + 59 + 30) / 4, activeN: 3, medianWidthActive: 14 });
  assert.deepEqual(summariseDateRanges([]), { n: 0, coverage: null, intervalScore: null, activeN: 0, medianWidthActive: null });
});

/** `count` draws `step` days apart ending on day `end`, with cut-offs and sizes varying around `crs` and 1,000. */
function regularDraws(end: number, step: number, count: number, crs: number): CategoryDrawsInput['draws'] {
  return Array.from({ length: count }, (_, i) => ({
    date: isoFromDayNumber(end - (count - 1 - i) * step),
    crs: crs + ((i * 7) % 11),
    invitations: 1000 + ((i * 13) % 17) * 50,
  }));
}

test('ranges as of days through the gaps: the served range of that day, the next draw after it', () => {
  const end = dayNumber('2025-06-30');
  const draws = (step: number, count: number, crs: number) => regularDraws(end, step, count, crs);
  const panel: CategoryDrawsInput[] = [
    { id: 1, slug: 'fortnightly', draws: draws(14, 30, 480) },
    { id: 2, slug: 'monthly', draws: draws(28, 16, 520) },
  ];
  const records = asOfDayDateRecords(panel, '2025-04-01', '2025-06-29', 10);
  // 2025-04-01 and every 10th day after it up to 2025-06-29: 9 days (the 10th would be 06-30), two categories each.
  assert.equal(records.length, 18);
  assert.equal(records.at(-1)!.asOf, '2025-06-20');
  for (const r of records) {
    const day = dayNumber(r.asOf);
    const c = panel.find((x) => x.slug === r.category)!;
    const known = c.draws.filter((d) => dayNumber(d.date) <= day);
    assert.equal(r.elapsed, day - dayNumber(known.at(-1)!.date));
    assert.equal(r.actual, c.draws.find((d) => dayNumber(d.date) > day)!.date);
    const served = forecastPanel(
      panel.map((x) => ({ ...x, draws: x.draws.filter((d) => dayNumber(d.date) <= day) })),
      r.asOf,
      { report: false, horizons: 1 },
    ).categories.find((x) => x.slug === r.category)!.predictions[0];
    assert.deepEqual(r.range, [served.date_range.earliest, served.date_range.latest], `${r.category} as of ${r.asOf}`);
    assert.equal(r.active, true);
  }
  assert.throws(() => asOfDayDateRecords(panel, '2025-04-01', '2025-06-29', 0), RangeError);
});

test('a stale feed backtest: each forecast knows the draws up to T − k only, both laws, scored against the next draw after T', () => {
  const end = dayNumber('2025-06-30');
  const draws = (step: number, count: number, crs: number) => regularDraws(end, step, count, crs);
  const panel: CategoryDrawsInput[] = [
    { id: 1, slug: 'fortnightly', draws: draws(14, 40, 480) },
    { id: 2, slug: 'monthly', draws: draws(28, 24, 520) },
  ];
  // Draws after `through` are never read: the next draw after an origin is one on or before it.
  const through = '2025-06-01';
  const records = staleFeedRecords(panel, '2025-04-01', '2025-05-20', through, [45, 90], 14);
  assert.ok(records.length > 0);
  for (const r of records) {
    const day = dayNumber(r.asOf);
    const c = panel.find((x) => x.slug === r.category)!;
    assert.equal(r.actual, c.draws.find((d) => dayNumber(d.date) > day)!.date);
    assert.ok(r.actual <= through);
    const known = panel.map((x) => ({ ...x, draws: x.draws.filter((d) => dayNumber(d.date) <= day - r.hiddenDays) }));
    const next = (staleAfterDays: number | null) => {
      const p = forecastPanel(known, r.asOf, { report: false, horizons: 1, staleAfterDays }).categories.find((x) => x.slug === r.category)!
        .predictions[0];
      return [p.date_range.earliest, p.date_range.latest];
    };
    assert.deepEqual(r.conditioned.range, next(null), `${r.category} as of ${r.asOf}, k = ${r.hiddenDays}`);
    assert.deepEqual(r.residual.range, next(30), `${r.category} as of ${r.asOf}, k = ${r.hiddenDays}`);
  }
  // Both ways are served for every record, and they differ: the elapsed wait is read one way and not the other.
  assert.ok(records.some((r) => r.residual.range[0] !== r.conditioned.range[0]));
});

/** A stale-feed window of an origin in `year`: the residual law's window (mass `mass`) held its draw or not. */
function staleWindow(
  year: number,
  mass: number,
  held: boolean,
  hiddenDays = 45,
  levelRange: [string, string] = [`${year}-03-01`, `${year}-08-01`],
) {
  const statement = {
    range: [`${year}-03-01`, `${year}-08-01`] as [string, string],
    levelRange,
    likely: { range: [`${year}-03-01`, `${year}-03-21`] as [string, string], probability: Math.min(mass, 0.9), reference: null, mass },
  };
  const record: StaleFeedRecord = {
    category: 'c',
    asOf: `${year}-02-28`,
    hiddenDays,
    actual: held ? `${year}-03-10` : `${year}-06-01`,
    conditioned: statement,
    residual: statement,
  };
  return record;
}

test('stale windows restated leave-one-year-out: the map of a year is fitted on the other years only', () => {
  const records = [
    ...Array.from({ length: 40 }, () => staleWindow(2019, 0.8, true)),
    ...Array.from({ length: 40 }, () => staleWindow(2020, 0.8, false)),
    ...Array.from({ length: 40 }, (_, i) => staleWindow(2021, 0.3, i % 2 === 0)),
  ];
  const restated = leaveOneYearOutWindows(records);
  assert.equal(restated.length, records.length);
  const of = (year: string) => restated.filter((r) => r.asOf.startsWith(year));
  // 2019 from 2020 (mass 0.8, none held) and 2021 (0.3, half held): the pooled block holds 20 of 80. With its own
  // windows it would say 60 of 120.
  for (const r of of('2019')) {
    assert.equal(r.likely.probability, 0.25);
    assert.equal(r.likely.reference, 0.25);
    assert.equal(r.served.probability, 0.8);
    assert.equal(r.served.reference, 0.25);
  }
  // 2020 from 2019 (0.8, all held) and 2021 (0.3, half): rising blocks, at 0.8 the top one (40/41), but a window
  // within the 90% range says no more than 0.9.
  for (const r of of('2020')) assert.equal(r.likely.probability, 0.9);
  for (const r of of('2021')) assert.equal(r.likely.probability, 0.5);
  // A window holding the range at the calibrated level says at least 0.9, whatever the map.
  const holding = leaveOneYearOutWindows([...records, staleWindow(2019, 0.8, true, 45, ['2019-03-02', '2019-03-20'])]);
  assert.equal(holding.at(-1)!.likely.probability, 0.9);
});

test('stale windows restated by group: one map per k, and the mass itself while too few windows are known', () => {
  const records = [
    ...Array.from({ length: 40 }, (_, i) => staleWindow(2019, 0.6, i % 4 !== 0, 45)),
    ...Array.from({ length: 40 }, (_, i) => staleWindow(2019, 0.6, i % 4 === 0, 365)),
    ...Array.from({ length: 40 }, () => staleWindow(2020, 0.6, true, 45)),
    ...Array.from({ length: 20 }, () => staleWindow(2020, 0.6, false, 365)),
  ];
  const byK = leaveOneYearOutWindows(records, (r) => r.hiddenDays);
  const at = (year: string, k: number) => byK.filter((r) => r.asOf.startsWith(year) && r.hiddenDays === k).map((r) => r.likely.probability);
  // 2020, k = 45 from 2019's 40 windows of k = 45 (30 held); k = 365 from 2019's 40 of k = 365 (10 held).
  assert.deepEqual(new Set(at('2020', 45)), new Set([0.75]));
  assert.deepEqual(new Set(at('2020', 365)), new Set([0.25]));
  // 2019, k = 365 from 2020's 20 windows of k = 365: too few for a map, the mass is stated.
  assert.deepEqual(new Set(at('2019', 365)), new Set([0.6]));
  // One map for every k: 2020 from 2019's 80 windows, half held.
  assert.deepEqual(
    new Set(
      leaveOneYearOutWindows(records)
        .filter((r) => r.asOf.startsWith('2020'))
        .map((r) => r.likely.probability),
    ),
    new Set([0.5]),
  );
});

test('by year: each calendar year of the as-of dates summarised, and the mean of the yearly interval scores', () => {
  const records = [
    // 2023: one range of 14 days that held, one of 14 days missed by a day (14 + 20).
    { asOf: '2023-03-01', actual: '2023-03-10', range: ['2023-03-06', '2023-03-20'] as [string, string], active: true },
    { asOf: '2023-09-01', actual: '2023-09-21', range: ['2023-09-06', '2023-09-20'] as [string, string], active: true },
    // 2024: one range of 10 days that held.
    { asOf: '2024-05-01', actual: '2024-05-08', range: ['2024-05-06', '2024-05-16'] as [string, string], active: false },
  ];
  const years = summariseByYear(records);
  assert.deepEqual(
    years.map((y) => [y.year, y.summary.n, y.summary.coverage, y.summary.intervalScore, y.summary.medianWidthActive]),
    [
      ['2023', 2, 0.5, (14 + 34) / 2, 14],
      ['2024', 1, 1, 10, null],
    ],
  );
  // Each year weighs the same: (24 + 10) / 2, where the pooled mean would be (14 + 34 + 10) / 3.
  assert.equal(meanYearlyIntervalScore(records), 17);
  assert.equal(meanYearlyIntervalScore([]), null);
});

test('a next draw after a dormancy pause: longer than max(365, 3 × the 95th-percentile gap) after the last draw', () => {
  // Fortnightly draws: the threshold is 365 days.
  const days = Array.from({ length: 10 }, (_, i) => 20000 + 14 * i);
  const last = days.at(-1)!;
  assert.equal(afterDormancyPause(days, last + 30, last + 366), false);
  assert.equal(afterDormancyPause(days, last + 30, last + 367), true);
  // Judged on the draws known on the as-of date: as of the fifth draw, the last is the fifth.
  assert.equal(afterDormancyPause(days, days[4], days[4] + 367), true);
  assert.equal(afterDormancyPause([], 20000, 20400), false);
});
