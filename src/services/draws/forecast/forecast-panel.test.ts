// The served forecasts of a panel of categories (forecastPanel): shapes, the young and dormant cases, bad input,
// determinism, the catalogue, and the walk-forward reuse the benchmark relies on.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { needsSharedData, sharedData } from '../../../../test/support/databases.ts';
import { checkConfidenceCount } from '../../../../test/support/draws/http.ts';
import { Random } from '../../../core/random.ts';
import { categoriseRounds } from '../feed/categories.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { SNAPSHOT_NAME } from '../feed/reference-snapshot.ts';
import { parseRoundsFeed } from '../feed/rounds-feed.ts';
import { DORMANT_MIN_DAYS, weekday } from './draw-dates.ts';
import { forecastPanel, MODEL_NAMES } from './forecast-panel.ts';
import type { CategoryDrawsInput, CategoryForecast, DrawObservation } from './forecast-panel.ts';
import { CONFIDENCE_DEFINITION, FORECAST_METHOD, MODEL_CATALOGUE } from './model-catalogue.ts';
import { ESTABLISHED_DRAWS, INVITATION_BOUND_FACTOR, upperBoundSize, volatility, walkForward } from './walk-forward.ts';

/** A synthetic category: a draw every `step` days up to `last`, CRS a noisy walk around `level`, invitations around 3,000. */
function syntheticDraws(seed: number, count: number, last: string, step: number, level = 480): DrawObservation[] {
  const rng = new Random(seed);
  let crs = level;
  return Array.from({ length: count }, (_, i) => {
    crs += rng.normal(0, 6);
    return {
      date: isoFromDayNumber(dayNumber(last) - (count - 1 - i) * step),
      crs: Math.round(crs),
      invitations: Math.max(1, Math.round(3000 + rng.normal(0, 400))),
    };
  });
}

function panel(): CategoryDrawsInput[] {
  return [
    { id: 1, slug: 'steady', draws: syntheticDraws(1, 40, '2025-12-10', 14) },
    { id: 2, slug: 'other', draws: syntheticDraws(2, 60, '2025-12-12', 10, 520) },
    { id: 3, slug: 'old', draws: syntheticDraws(3, 30, '2024-01-10', 14) },
    { id: 4, slug: 'young', draws: syntheticDraws(4, 2, '2025-11-20', 30, 450) },
    { id: 5, slug: 'empty', draws: [] },
  ];
}

function checkPredictions(f: CategoryForecast, asOf: string): void {
  const today = dayNumber(asOf);
  f.predictions.forEach((p, i) => {
    assert.equal(p.rank, i + 1);
    const day = dayNumber(p.predicted_date);
    assert.ok(day > today && day - today <= 365, p.predicted_date);
    assert.ok(![0, 6].includes(weekday(day)), `${p.predicted_date} is a weekday`);
    if (i > 0) assert.ok(day > dayNumber(f.predictions[i - 1].predicted_date));
    assert.ok(dayNumber(p.date_range.earliest) <= day && day <= dayNumber(p.date_range.latest));
    assert.ok(dayNumber(p.date_range.earliest) > today);
    const u = p.uncertainty_range;
    assert.equal(u.confidence_level, 95);
    assert.ok(u.min >= 0 && u.max <= 1200 && u.min <= p.predicted_crs_score && p.predicted_crs_score <= u.max, JSON.stringify(u));
    assert.ok(Number.isFinite(u.margin_of_error) && u.margin_of_error > 0);
    const inv = p.invitations_range!;
    assert.ok(inv.min >= 1 && inv.min <= p.predicted_invitations && p.predicted_invitations <= inv.max);
    assert.ok(p.confidence_score > 0 && p.confidence_score < 100);
    assert.ok(Number.isInteger(p.predicted_invitations) && p.predicted_invitations >= 1);
    const w = p.likely_window;
    if (i > 0) return assert.equal(w, null);
    assert.ok(w !== null && w.days === 21 && dayNumber(w.latest) - dayNumber(w.earliest) === 20 && dayNumber(w.earliest) > today);
    assert.ok(w.probability >= 0 && w.probability <= 1);
    const inside = w.earliest >= p.date_range.earliest && w.latest <= p.date_range.latest;
    assert.ok(inside || (w.earliest <= p.date_range.earliest && w.latest >= p.date_range.latest));
    assert.ok(!inside || w.probability <= 0.9, `inside the 90% range, at most 0.9: ${w.probability}`);
  });
}

test('an established category is predicted by the combination: five ranks, well-formed, weights summing to one', () => {
  const f = forecastPanel(panel(), '2025-12-17');
  const steady = f.categories.find((c) => c.slug === 'steady')!;
  assert.equal(steady.status, 'predicted');
  assert.equal(steady.predictions.length, 5);
  assert.equal(steady.stepDays, 14);
  assert.equal(steady.predictions[0].predicted_date, '2025-12-24');
  checkPredictions(steady, '2025-12-17');
  // Strictly fortnightly: the likely three weeks hold its next rhythmic date, 14 days after its last draw.
  const likely = steady.predictions[0].likely_window!;
  assert.ok(likely.earliest <= '2025-12-24' && '2025-12-24' <= likely.latest, JSON.stringify(likely));
  assert.ok(steady.predictions.every((p) => p.model_used === 'combination'));
  const weights = Object.values(steady.crs!.weights);
  assert.equal(weights.length, 4);
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  assert.ok(steady.crs!.phi.used >= 0 && steady.crs!.phi.used <= 1);
  // Wider intervals further ahead (more errors accumulate), never narrower than the error unit allows.
  assert.ok(steady.crs!.intervals.every((i) => i.half_width > 0 && i.errors > 0));
});

test('confidence_forecasts_scored is the n of confidence_score: the forecasts made from the 5th draw on whose target is known', () => {
  const f = forecastPanel(panel(), '2025-12-17');
  for (const slug of ['steady', 'other']) {
    const c = f.categories.find((x) => x.slug === slug)!;
    // Every draw is before the as-of date and none follows a pause: the forecasts made after the established draws
    // k = ESTABLISHED_DRAWS … draws − h have their h-th target drawn.
    assert.deepEqual(
      c.predictions.map((p) => p.confidence_forecasts_scored),
      c.predictions.map((p) => c.draws - (ESTABLISHED_DRAWS - 1) - p.rank),
      slug,
    );
    for (const p of c.predictions) checkConfidenceCount(p);
  }
  const young = f.categories.find((c) => c.slug === 'young')!;
  for (const p of young.predictions) checkConfidenceCount(p);
});

test('a young category (1–4 draws) is forecast by the pooled model, with wider intervals, and says so', () => {
  const f = forecastPanel(panel(), '2025-12-17');
  const young = f.categories.find((c) => c.slug === 'young')!;
  const steady = f.categories.find((c) => c.slug === 'steady')!;
  assert.equal(young.status, 'young');
  assert.match(young.statusReason, /^2 draws: young, forecast by the pooled model with wider intervals/);
  assert.ok(young.predictions.length > 0);
  checkPredictions(young, '2025-12-17');
  assert.ok(young.predictions.every((p) => p.model_used === 'pooled_young'));
  assert.ok(young.predictions[0].uncertainty_range.margin_of_error > steady.predictions[0].uncertainty_range.margin_of_error, 'wider');
  // With one draw, the forecast is that draw.
  const one = forecastPanel(
    [...panel(), { id: 6, slug: 'one', draws: [{ date: '2025-12-01', crs: 463, invitations: 1200 }] }],
    '2025-12-17',
  );
  const p = one.categories.find((c) => c.slug === 'one')!;
  assert.equal(p.status, 'young');
  assert.equal(p.predictions[0].predicted_crs_score, 463);
  assert.equal(p.predictions[0].predicted_invitations, 1200);
});

test('a dormant category gets no dated prediction, says since when and what its next draw would be should it come; no draws is insufficient history', () => {
  const f = forecastPanel(panel(), '2025-12-17');
  const old = f.categories.find((c) => c.slug === 'old')!;
  assert.equal(old.status, 'dormant');
  assert.equal(old.predictions.length, 0);
  // Last draw 2024-01-10, gaps of 14 days: dormant after 365 days, from 2025-01-10.
  assert.equal(old.dormantSince, '2025-01-10');
  assert.match(old.statusReason, /^dormant since 2025-01-10: last draw 2024-01-10/);
  // Should it draw again: its last values, the next draw's interval widened as a random walk over the pause.
  const last = panel()
    .find((c) => c.slug === 'old')!
    .draws.at(-1)!;
  const resumed = old.ifResumed!;
  assert.equal(resumed.pause_gaps, Math.round(((dayNumber('2025-12-17') - dayNumber('2024-01-10')) / 14) * 10) / 10);
  assert.deepEqual([resumed.crs.point, resumed.invitations.point], [last.crs, last.invitations]);
  assert.ok(resumed.crs.min <= last.crs && last.crs <= resumed.crs.max);
  assert.ok(resumed.invitations.min <= last.invitations && last.invitations <= resumed.invitations.max);
  const weeksLater = forecastPanel(panel(), '2026-06-17').categories.find((c) => c.slug === 'old')!.ifResumed!;
  assert.ok(weeksLater.crs.margin_of_error > resumed.crs.margin_of_error, 'a longer silence claims less');
  assert.ok(
    Math.abs(weeksLater.crs.margin_of_error / resumed.crs.margin_of_error - Math.sqrt(weeksLater.pause_gaps / resumed.pause_gaps)) < 0.05,
    'the half-width grows as the square root of the pause',
  );
  const empty = f.categories.find((c) => c.slug === 'empty')!;
  assert.equal(empty.status, 'insufficient_history');
  assert.deepEqual([empty.predictions, empty.ifResumed], [[], null], 'no draws: no number');
  // Draws after the as-of date are not known yet (these ten run from 2026-01-26 to 2026-06-01).
  const future = forecastPanel([{ id: 1, slug: 'future', draws: syntheticDraws(4, 10, '2026-06-01', 14) }], '2025-12-17');
  assert.deepEqual([future.categories[0].draws, future.categories[0].status], [0, 'insufficient_history']);
});

test('a category that comes back after a pause is forecast from its draws since, as a young one', () => {
  const before = syntheticDraws(7, 30, '2021-06-01', 14, 420);
  const after = syntheticDraws(8, 3, '2025-12-01', 14, 530);
  const f = forecastPanel([...panel(), { id: 7, slug: 'back', draws: [...before, ...after] }], '2025-12-17');
  const back = f.categories.find((c) => c.slug === 'back')!;
  assert.equal(back.status, 'young');
  assert.match(back.statusReason, /since it resumed on 2025-11-03 after a pause of/);
  assert.ok(Math.abs(back.predictions[0].predicted_crs_score - after.at(-1)!.crs) < 40, 'the level of 2021 is not the forecast');
});

test('bad input is refused with a clear error', () => {
  const ok = syntheticDraws(5, 6, '2025-12-01', 14);
  assert.throws(() => forecastPanel([{ id: 1, slug: 'x', draws: ok }], '17/12/2025'), /asOf/);
  assert.throws(() => forecastPanel([{ id: 1, slug: 'x', draws: [{ ...ok[0], crs: 1300 }, ...ok] }], '2025-12-17'), /crs 1300/);
  assert.throws(() => forecastPanel([{ id: 1, slug: 'x', draws: [{ ...ok[0], invitations: 0 }, ...ok] }], '2025-12-17'), /invitations 0/);
  assert.throws(() => forecastPanel([{ id: 1, slug: 'x', draws: [{ ...ok[0], date: '2025-02-30' }, ...ok] }], '2025-12-17'), /date/);
});

test('deterministic: the same draws in any order give the same result; a reused walk-forward gives it too', () => {
  const a = forecastPanel(panel(), '2025-12-17');
  const shuffled = panel().map((c) => ({ ...c, draws: new Random(99).shuffle([...c.draws]) }));
  assert.deepEqual(JSON.parse(JSON.stringify(forecastPanel(shuffled, '2025-12-17'))), JSON.parse(JSON.stringify(a)));
  // The benchmark replays many as-of dates from one walk-forward over all the data: the same as computing afresh.
  const all = panel();
  const walk = walkForward(
    all.map((c) => ({
      id: c.id,
      slug: c.slug,
      draws: [...c.draws]
        .sort((x, y) => x.date.localeCompare(y.date))
        .map((d) => ({ day: dayNumber(d.date), crs: d.crs, invitations: d.invitations })),
    })),
  );
  for (const asOf of ['2024-06-30', '2025-03-01', '2025-12-17']) {
    const fresh = forecastPanel(all, asOf, { report: false });
    const reused = forecastPanel(all, asOf, { report: false, walk });
    assert.deepEqual(JSON.parse(JSON.stringify(reused)), JSON.parse(JSON.stringify(fresh)), asOf);
  }
});

test('the model catalogue describes every model, with its formula, and the confidence score', () => {
  assert.deepEqual(
    MODEL_CATALOGUE.map((m) => m.name),
    [...MODEL_NAMES],
  );
  for (const m of MODEL_CATALOGUE) {
    assert.ok(m.description.length > 40);
    assert.equal(m.confidence_definition, CONFIDENCE_DEFINITION);
  }
  assert.match(CONFIDENCE_DEFINITION, /\(hits \+ 1\) \/ \(n \+ 2\)/);
  assert.match(FORECAST_METHOD.interval, /⌈\(n \+ 1\) × 0\.95⌉/);
  assert.match(FORECAST_METHOD.dormant, /max\(365, 3 ×/);
  assert.match(FORECAST_METHOD.selection, /w_m ∝ 1\/S_m/);
});

test('intervals follow each category: a steady one narrower, never narrower at a later draw, invitations within what was drawn', () => {
  // Two categories on the same cadence: one whose cut-off barely moves, one that jumps by tens of points.
  const calm = syntheticDraws(11, 60, '2025-12-10', 14).map((d, i) => ({ ...d, crs: 500 + (i % 2) }));
  const wild = syntheticDraws(12, 60, '2025-12-11', 14).map((d, i) => ({ ...d, crs: 480 + ((i * 37) % 60) }));
  const forecast = forecastPanel(
    [
      { id: 1, slug: 'calm', draws: calm },
      { id: 2, slug: 'wild', draws: wild },
    ],
    '2025-12-12',
    { report: false },
  );
  const [a, b] = forecast.categories;
  assert.equal(a.predictions.length, 5);
  const half = (f: CategoryForecast) => f.predictions.map((p) => p.uncertainty_range.margin_of_error);
  assert.ok(half(a)[0] * 3 < half(b)[0], `calm ${half(a)[0]} against wild ${half(b)[0]}`);
  for (const f of [a, b]) {
    for (let i = 1; i < f.predictions.length; i++) assert.ok(half(f)[i] >= half(f)[i - 1], `${f.slug}: ${half(f)}`);
    const sizes = (f.slug === 'calm' ? calm : wild).map((d) => d.invitations);
    for (const p of f.predictions) {
      assert.ok(
        p.invitations_range!.min >= Math.floor(Math.min(...sizes) / INVITATION_BOUND_FACTOR) &&
          p.invitations_range!.max <= Math.ceil(Math.max(...sizes) * INVITATION_BOUND_FACTOR),
        JSON.stringify(p),
      );
      assert.ok(p.invitations_range!.min <= p.predicted_invitations && p.predicted_invitations <= p.invitations_range!.max);
    }
  }
});

test('the upper invitation bound: the 2nd-largest draw when the largest is a one-off, the largest otherwise', () => {
  // Sizes swinging between 300 and 3,000, so the intervals reach past the bound, and one early draw beyond them: a
  // one-off (10,000, more than twice 3,000) or a record that is not (3,500).
  const swinging = (seed: number, early: number, last: string) =>
    syntheticDraws(seed, 60, last, 14).map((d, i) => ({ ...d, invitations: i === 5 ? early : i % 2 === 0 ? 300 : 3000 }));
  const forecast = forecastPanel(
    [
      { id: 1, slug: 'one-off', draws: swinging(21, 10_000, '2025-12-10') },
      { id: 2, slug: 'record', draws: swinging(22, 3500, '2025-12-11') },
    ],
    '2025-12-12',
    { report: false },
  );
  const [oneOff, record] = forecast.categories;
  const maxima = (f: CategoryForecast) => f.predictions.map((p) => p.invitations_range!.max);
  assert.equal(oneOff.predictions.length, 5);
  assert.deepEqual(maxima(oneOff), Array(5).fill(Math.ceil(3000 * INVITATION_BOUND_FACTOR)));
  assert.deepEqual(maxima(record), Array(5).fill(Math.ceil(3500 * INVITATION_BOUND_FACTOR)));
  // The lower bound stays the smallest draw's.
  for (const f of [oneOff, record])
    for (const p of f.predictions) assert.ok(p.invitations_range!.min >= Math.floor(300 / INVITATION_BOUND_FACTOR));
  assert.equal(upperBoundSize([3000, 6001, 300]), 3000);
  assert.equal(upperBoundSize([3000, 6000, 300]), 6000);
  assert.equal(upperBoundSize([6001]), 6001);
});

test('volatility: exponentially weighted mean |change|, newest first, shrunk toward a prior, at least the floor', () => {
  const decay = 0.5 ** (1 / 8);
  // Changes 10, 0, 0 (oldest first): only the oldest moved, with weight decay².
  assert.ok(Math.abs(volatility('crs', [0, 10, 10, 10]) - (10 * decay ** 2) / (1 + decay + decay ** 2)) < 1e-9);
  // The newest change weighs most: the same changes in the other order give a larger value.
  assert.ok(volatility('crs', [0, 0, 0, 10]) > volatility('crs', [0, 10, 10, 10]));
  // A prior worth 3 changes.
  const own = (10 * decay ** 2) / (1 + decay + decay ** 2);
  const w = 1 + decay + decay ** 2;
  assert.ok(Math.abs(volatility('crs', [0, 10, 10, 10], 20, 3) - (own * w + 3 * 20) / (w + 3)) < 1e-9);
  // No change at all: the floor (3 CRS points), not zero.
  assert.equal(volatility('crs', [500, 500, 500]), 3);
  // One value: the prior alone.
  assert.equal(volatility('crs', [500], 12, 3), 12);
});

const snapshot = needsSharedData('draws', SNAPSHOT_NAME);
/** The real snapshot's categories with their draws, as the forecast panel reads them. */
function snapshotCategories() {
  return categoriseRounds(parseRoundsFeed(fs.readFileSync(sharedData('draws', SNAPSHOT_NAME), 'utf8')).rounds).map((g, k) => ({
    id: k + 1,
    slug: g.category.slug,
    draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
  }));
}
describe('if_resumed on the real snapshot', { skip: snapshot.skip }, () => {
  it('held the cut-off and size of every draw that ended a dormancy, as of the day before it', () => {
    if (snapshot.problem) throw new Error(`required in CI: ${snapshot.problem}`);
    const categories = snapshotCategories();
    let checked = 0;
    for (const c of categories) {
      const days = [...new Set(c.draws.map((d) => d.date))].sort();
      for (const [i, date] of days.entries()) {
        // Dormancy takes at least DORMANT_MIN_DAYS without a draw: only the draws after such a gap can end one.
        if (i === 0 || dayNumber(date) - dayNumber(days[i - 1]) <= DORMANT_MIN_DAYS) continue;
        const before = isoFromDayNumber(dayNumber(date) - 1);
        const f = forecastPanel(categories, before, { report: false }).categories.find((x) => x.id === c.id)!;
        if (f.status !== 'dormant' || f.ifResumed === null) continue;
        const r = f.ifResumed;
        for (const d of c.draws.filter((x) => x.date === date)) {
          assert.ok(d.crs >= r.crs.min && d.crs <= r.crs.max, `${c.slug} ${date}: ${d.crs} outside ${r.crs.min}–${r.crs.max}`);
          assert.ok(
            d.invitations >= r.invitations.min && d.invitations <= r.invitations.max,
            `${c.slug} ${date}: ${d.invitations} invitations`,
          );
        }
        checked++;
      }
    }
    assert.ok(checked >= 3, `${checked} resumptions checked`);
  });

  it('a year after the newest draw, a window holding the 90% range says at least 0.9, also where the range is widened to the cadence’s date', () => {
    if (snapshot.problem) throw new Error(`required in CI: ${snapshot.problem}`);
    const categories = snapshotCategories();
    const next = (slug: string) =>
      forecastPanel(categories, '2026-12-07', { report: false }).categories.find((c) => c.slug === slug)!.predictions[0];
    // CEC: the range (8–14 December) inside the three weeks from 8 December. French and Healthcare: the same range at the
    // calibrated level, widened to the cadence's date (29 and 30 December), one or two days past the window's end.
    const cec = next('cec');
    assert.deepEqual([cec.date_range, cec.likely_window?.probability], [{ earliest: '2026-12-08', latest: '2026-12-14' }, 0.9]);
    for (const slug of ['french', 'healthcare']) {
      const p = next(slug);
      const w = p.likely_window!;
      assert.ok(p.date_range.latest === p.predicted_date && w.earliest >= p.date_range.earliest && w.latest < p.date_range.latest, slug);
      assert.equal(p.likely_window!.probability, 0.9, `${slug}: ${JSON.stringify(p)}`);
    }
  });
});
