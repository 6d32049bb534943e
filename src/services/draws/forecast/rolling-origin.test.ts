// The rolling-origin benchmark: each origin's served forecast is exactly what forecastPanel serves from the draws
// known the day before (nothing later leaks in), naive and window mean are the last value and the mean of the last
// six, and the table pools what it should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { forecastPanel } from './forecast-panel.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';
import { benchmarkTable, checkTargets, rollingOriginRecords } from './rolling-origin.ts';

function category(seed: number, id: number, count: number, step: number, level: number): CategoryDrawsInput {
  const rng = new Random(seed);
  let crs = level;
  return {
    id,
    slug: `c${id}`,
    draws: Array.from({ length: count }, (_, i) => {
      crs += rng.normal(0, 5);
      return {
        date: isoFromDayNumber(dayNumber('2025-06-30') - (count - 1 - i) * step),
        crs: Math.round(crs),
        invitations: rng.int(500, 5000),
      };
    }),
  };
}

test('each origin is forecast from the draws before it only, by the served pipeline', () => {
  const panel = [category(1, 1, 40, 14, 480), category(2, 2, 30, 21, 520)];
  const records = rollingOriginRecords(panel, '2025-03-01');
  const origins = new Set(records.map((r) => `${r.category}@${r.asOf}`));
  assert.ok(origins.size >= 10);
  for (const r of records.filter((x, i) => i % 5 === 0)) {
    const c = panel.find((x) => x.slug === r.category)!;
    const known = panel.map((x) => ({ ...x, draws: x.draws.filter((d) => d.date <= r.asOf) }));
    const fresh = forecastPanel(known, r.asOf, { report: false, horizons: 3 });
    const p = fresh.categories.find((x) => x.slug === r.category)!.predictions.find((x) => x.rank === r.h)!;
    assert.equal(r.served!.crs, p.predicted_crs_score, `${r.category} ${r.asOf} h${r.h}`);
    assert.deepEqual(r.served!.crsRange, [p.uncertainty_range.min, p.uncertainty_range.max]);
    assert.deepEqual(r.served!.dateRange, [p.date_range.earliest, p.date_range.latest]);
    const before = c.draws.filter((d) => d.date <= r.asOf);
    assert.equal(r.naive.crs, before.at(-1)!.crs);
    assert.equal(r.windowMean.crs, before.slice(-6).reduce((s, d) => s + d.crs, 0) / 6);
    const after = c.draws.filter((d) => d.date > r.asOf);
    assert.equal(r.actual.crs, after[r.h - 1].crs);
    assert.equal(dayNumber(after[0].date) - dayNumber(r.asOf), 1, 'the origin is the day before a draw of the category');
  }
  const rows = benchmarkTable(records);
  const pooled = rows.find((r) => r.group === 'pooled' && r.h === 1)!;
  assert.equal(pooled.n, records.filter((r) => r.h === 1).length);
  assert.equal(
    pooled.n,
    rows.filter((r) => r.group !== 'pooled' && r.h === 1).reduce((s, r) => s + r.n, 0),
  );
  const checks = checkTargets(rows);
  assert.ok(checks.some((c) => c.target.startsWith('pooled h=1 CRS MAE ≤ 0.90 × naive')));
  assert.equal(checks.filter((c) => /coverage/.test(c.target)).length, 9);
});
