// The rolling-origin benchmark: each origin's served forecast is exactly what forecastPanel serves from the draws
// known on the origin's day (nothing later leaks in), naive, window mean and the interval baseline are what they
// say, and the scores are those of their definitions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { forecastPanel } from './forecast-panel.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';
import { bootstrapInterval, checkTargets, reliability, rollingOriginRecords, summarise, winkler } from './rolling-origin.ts';
import { quantile } from './statistics.ts';

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

test('the Winkler score is the width plus 2/α times the miss', () => {
  assert.equal(winkler(10, 20, 15), 10);
  assert.equal(winkler(10, 20, 8), 10 + 40 * 2);
  assert.equal(winkler(10, 20, 21, 0.1), 10 + 20);
});

test('each origin is forecast from the draws up to it only, by the served pipeline', () => {
  const panel = [category(1, 1, 40, 14, 480), category(2, 2, 30, 21, 520)];
  const records = rollingOriginRecords(panel, '2025-03-01');
  const origins = new Set(records.map((r) => `${r.category}@${r.asOf}`));
  assert.ok(origins.size >= 10);
  assert.ok(records.some((r) => r.h === 5));
  for (const r of records.filter((x, i) => i % 5 === 0)) {
    const c = panel.find((x) => x.slug === r.category)!;
    const known = panel.map((x) => ({ ...x, draws: x.draws.filter((d) => d.date <= r.asOf) }));
    const fresh = forecastPanel(known, r.asOf, { report: false, horizons: 5 });
    const p = fresh.categories.find((x) => x.slug === r.category)!.predictions.find((x) => x.rank === r.h)!;
    assert.equal(r.served!.crs, p.predicted_crs_score, `${r.category} ${r.asOf} h${r.h}`);
    assert.deepEqual(r.served!.crsRange, [p.uncertainty_range.min, p.uncertainty_range.max]);
    assert.deepEqual(r.served!.dateRange, [p.date_range.earliest, p.date_range.latest]);
    const before = c.draws.filter((d) => d.date <= r.asOf);
    assert.equal(before.at(-1)!.date, r.asOf, 'the origin is the day of a draw of the category');
    assert.equal(r.naive.crs, before.at(-1)!.crs);
    assert.equal(r.windowMean.crs, before.slice(-6).reduce((s, d) => s + d.crs, 0) / 6);
    const changes = before.slice(-25).flatMap((d, i, xs) => (i === 0 ? [] : [Math.abs(d.crs - xs[i - 1].crs)]));
    assert.equal(r.baseline!.crsHalf, quantile(changes, 0.95));
    const after = c.draws.filter((d) => d.date > r.asOf);
    assert.equal(r.actual.crs, after[r.h - 1].crs);
  }
});

test('the summary scores what was served against the baseline, and the bootstrap brackets the figure', () => {
  const panel = [category(3, 1, 60, 14, 480), category(4, 2, 50, 21, 520)];
  const records = rollingOriginRecords(panel, '2024-06-01');
  const law = (s: number, point: number) => (s >= point ? 1 : 0);
  const s = summarise(records, law);
  const compared = records.filter((r) => r.served !== null && r.baseline !== null);
  assert.equal(s.compared, compared.length);
  const expected = compared.reduce((t, r) => t + winkler(r.served!.crsRange[0], r.served!.crsRange[1], r.actual.crs), 0) / compared.length;
  assert.ok(Math.abs(s.crs.winkler! - expected) < 1e-9);
  // The score splits into the mean width and the mean miss penalty, which is never negative.
  const width = compared.reduce((t, r) => t + r.served!.crsRange[1] - r.served!.crsRange[0], 0) / compared.length;
  assert.ok(Math.abs(s.crs.meanWidth! - width) < 1e-9);
  assert.ok(s.crs.winkler! >= s.crs.meanWidth! - 1e-9 && s.crs.baselineWinkler! >= s.crs.baselineMeanWidth! - 1e-9);
  const baselineWidth = compared.reduce((t, r) => t + 2 * r.baseline!.logInvitationsHalf, 0) / compared.length;
  assert.ok(Math.abs(s.invitations.baselineMeanWidth! - baselineWidth) < 1e-9);
  assert.ok(s.invitations.winkler! >= s.invitations.meanWidth! - 1e-9);
  assert.ok(s.score.n > 0 && s.score.reference! > 0);
  const ci = bootstrapInterval(records, (rs) => summarise(rs, law).crs.winkler, 200)!;
  assert.ok(ci[0] <= s.crs.winkler! && s.crs.winkler! <= ci[1], `${ci} around ${s.crs.winkler}`);
  const checks = checkTargets(
    s,
    new Map([
      [
        'c1',
        summarise(
          records.filter((r) => r.category === 'c1'),
          law,
        ),
      ],
    ]),
  );
  assert.ok(checks.some((c) => c.target === 'pooled CRS interval score ≤ 0.8 × baseline'));
  assert.ok(checks.some((c) => c.target.startsWith('c1 (')));
});

test('the reliability table bins every "my score" statement by its stated probability beside the share that came true', () => {
  const panel = [category(3, 1, 60, 14, 480), category(4, 2, 50, 21, 520)];
  const records = rollingOriginRecords(panel, '2024-06-01');
  // A law stating 0.05 below the point and 0.95 at or above it.
  const law = (s: number, point: number) => (s >= point ? 0.95 : 0.05);
  const table = reliability(records, law, 10);
  assert.equal(table.length, 10);
  const compared = records.filter((r) => r.served !== null && r.baseline !== null);
  const statements = compared.flatMap((r) => r.scores.map((s) => ({ s, r })));
  assert.equal(
    table.reduce((t, b) => t + b.n, 0),
    statements.length,
  );
  const high = statements.filter(({ s, r }) => s.score >= r.served!.crs);
  assert.equal(table[9].n, high.length);
  assert.equal(table[0].n, statements.length - high.length);
  assert.ok(table.slice(1, 9).every((b) => b.n === 0 && b.stated === null && b.observed === null));
  if (high.length > 0) {
    assert.ok(Math.abs(table[9].stated! - 0.95) < 1e-12);
    assert.equal(table[9].observed, high.filter(({ s, r }) => r.actual.crs <= s.score).length / high.length);
  }
});
