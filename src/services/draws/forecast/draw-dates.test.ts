import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import {
  checkDormancy,
  DATE_LAW_GAPS,
  dateIntervals,
  dateLaws,
  distributionQuantile,
  gapsBetweenDates,
  gapSumDistributions,
  LIKELY_WINDOW_DAYS,
  likeliestWindow,
  neverNarrower,
  predictDrawDates,
  programRounds,
  residualGapLaw,
  roundRhythm,
  smoothGaps,
  weekday,
  weekendToMonday,
} from './draw-dates.ts';
import { dateGapWeights } from './walk-forward.ts';

const iso = (s: string): number => dayNumber(s);
/** Draw dates `step` days apart, ending on `last`. */
function cadence(last: string, step: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => isoFromDayNumber(iso(last) - (count - 1 - i) * step));
}

test('weekdays and weekend → Monday', () => {
  assert.equal(weekday(iso('2025-12-17')), 3, 'a Wednesday');
  assert.equal(isoFromDayNumber(weekendToMonday(iso('2025-12-20'))), '2025-12-22', 'Saturday → Monday');
  assert.equal(isoFromDayNumber(weekendToMonday(iso('2025-12-21'))), '2025-12-22', 'Sunday → Monday');
  assert.equal(isoFromDayNumber(weekendToMonday(iso('2025-12-19'))), '2025-12-19', 'Friday stays');
});

test('the step is the median of the last six gaps; predictions step from the last draw', () => {
  // Gaps 30, 30, 30 then 14 ×6: only the last six count → step 14.
  const dates = ['2025-01-01', '2025-01-31', '2025-03-02', '2025-04-01'];
  for (let i = 0; i < 6; i++) dates.push(isoFromDayNumber(iso(dates.at(-1)!) + 14));
  const last = dates.at(-1)!; // 2025-06-24, a Tuesday
  const p = predictDrawDates(dates, last, 5);
  assert.equal(p.stepDays, 14);
  assert.deepEqual(
    p.dates.map((d) => d.date),
    [1, 2, 3, 4, 5].map((h) => isoFromDayNumber(iso(last) + 14 * h)),
  );
  // Median of an even count: (14 + 21)/2 = 17.5 rounds up to 18.
  const uneven = cadence('2025-06-03', 14, 4).concat(['2025-06-24', '2025-07-15', '2025-08-05']);
  assert.deepEqual(gapsBetweenDates(uneven).slice(-6), [14, 14, 14, 21, 21, 21]);
  assert.equal(predictDrawDates(uneven, '2025-08-05', 1).stepDays, 18);
});

test('weekend predictions move to Monday and ranks stay in order', () => {
  // Weekly Saturday draws: every stepped date is a Saturday.
  const dates = cadence('2025-12-20', 7, 8);
  const p = predictDrawDates(dates, '2025-12-20', 5);
  assert.deepEqual(
    p.dates.map((d) => d.date),
    ['2025-12-29', '2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26'],
  );
  for (const d of p.dates) {
    assert.ok(![0, 6].includes(weekday(iso(d.date))), d.date);
    assert.ok(![0, 6].includes(weekday(iso(d.earliest))) && ![0, 6].includes(weekday(iso(d.latest))));
  }
  // Daily draws: stepping by 1 would put two ranks on the same Monday; each rank must follow the previous.
  const daily = cadence('2025-12-19', 1, 10);
  const q = predictDrawDates(daily, '2025-12-19', 5);
  const days = q.dates.map((d) => iso(d.date));
  for (let i = 1; i < days.length; i++) assert.ok(days[i] > days[i - 1]);
  assert.equal(q.dates[0].date, '2025-12-22');
});

test('a date already past the as-of date is replaced by the next one on the cadence', () => {
  const dates = cadence('2025-01-01', 14, 8); // last draw Wednesday 2025-01-01
  const asOf = '2025-03-01'; // 59 days later: steps 1–4 are past, the 5th (2025-03-12) is next
  const p = predictDrawDates(dates, asOf, 3);
  assert.deepEqual(
    p.dates.map((d) => d.date),
    ['2025-03-12', '2025-03-26', '2025-04-09'],
  );
  for (const d of p.dates) {
    assert.ok(iso(d.date) > iso(asOf));
    assert.ok(iso(d.earliest) > iso(asOf), 'the range is conditioned on no draw before the as-of date');
    assert.ok(iso(d.earliest) <= iso(d.date) && iso(d.date) <= iso(d.latest));
  }
  // A draw due exactly on the as-of date counts as past (it would be in the data).
  const onDay = predictDrawDates(cadence('2025-01-01', 14, 8), '2025-01-15', 1);
  assert.equal(onDay.dates[0].date, '2025-01-29');
});

test('never beyond a year ahead: ranks past the cap are not produced', () => {
  const dates = cadence('2025-06-04', 100, 6); // Wednesday, gaps of 100 days
  const asOf = '2025-06-04';
  const p = predictDrawDates(dates, asOf, 5);
  assert.equal(p.capDate, '2026-06-04');
  // +100, +200, +300 days are within 365; +400 is not.
  assert.equal(p.dates.length, 3);
  for (const d of p.dates) assert.ok(iso(d.date) - iso(asOf) <= 365, d.date);
  // The range is the gap-sum distribution's, not clipped to the year: with gaps of 100 and 140 days the third draw
  // may come 420 days on (all three gaps of 140: 6.4%, inside the central 95%).
  const uneven = [0, 100, 240, 340, 480, 580].map((d) => isoFromDayNumber(iso('2025-06-04') - 580 + d));
  const r = predictDrawDates(uneven, asOf, 3);
  assert.equal(r.dates.length, 3);
  assert.equal(iso(r.dates[2].latest) - iso(asOf), 420);
  // A rank whose Monday shift crosses the cap is dropped: last draw Saturday 2025-06-07, step 364 → Saturday
  // 2026-06-06 → Monday 2026-06-08. As of 2025-06-07 the cap is Sunday 2026-06-07: nothing is predicted.
  const saturdays = cadence('2025-06-07', 364, 3);
  assert.equal(predictDrawDates(saturdays, '2025-06-07', 2).dates.length, 0);
  // As of a day later the cap is Monday 2026-06-08 itself, exactly 365 days ahead: rank 1 is kept.
  const q = predictDrawDates(saturdays, '2025-06-08', 2);
  assert.deepEqual(
    q.dates.map((d) => d.date),
    ['2026-06-08'],
  );
  assert.ok(iso(q.dates[0].latest) >= iso('2026-06-08'));
});

test('date_range: exact gap-sum distribution, conditioned on the elapsed time', () => {
  // Gaps 10 and 20, equally likely. Nothing elapsed: S1 ∈ {10, 20}; S2 ∈ {20, 30, 30, 40}.
  let d = gapSumDistributions([10, 20], 0, 2);
  assert.deepEqual([...d[0].entries()].sort(), [
    [10, 1],
    [20, 1],
  ]);
  assert.deepEqual(
    [...d[1].entries()].sort((a, b) => a[0] - b[0]),
    [
      [20, 1],
      [30, 2],
      [40, 1],
    ],
  );
  assert.equal(distributionQuantile(d[1], 0.025), 20);
  assert.equal(distributionQuantile(d[1], 0.5), 30);
  assert.equal(distributionQuantile(d[1], 0.975), 40);
  // 15 days elapsed without a draw: the first gap must exceed 15 → 20; S2 ∈ {30, 40}.
  d = gapSumDistributions([10, 20], 15, 2);
  assert.deepEqual([...d[0].entries()], [[20, 1]]);
  assert.deepEqual(
    [...d[1].entries()].sort((a, b) => a[0] - b[0]),
    [
      [30, 1],
      [40, 1],
    ],
  );
  // 25 days elapsed, longer than any gap: the clock restarts at the as-of date.
  d = gapSumDistributions([10, 20], 25, 1);
  assert.deepEqual(
    [...d[0].entries()].sort((a, b) => a[0] - b[0]),
    [
      [35, 1],
      [45, 1],
    ],
  );
});

test('dormancy: max(365 days, 3 × the 95th-percentile gap)', () => {
  // Gaps 10, 10, 10, 200: p95 (type 7) = 10 + 0.85 × 190 = 171.5 → threshold 514.5 days.
  const c = checkDormancy('2024-01-01', [10, 10, 200, 10], isoFromDayNumber(iso('2024-01-01') + 514));
  assert.ok(Math.abs(c.gapP95! - 171.5) < 1e-9);
  assert.ok(Math.abs(c.thresholdDays - 514.5) < 1e-9);
  assert.equal(c.dormant, false);
  assert.equal(checkDormancy('2024-01-01', [10, 10, 200, 10], isoFromDayNumber(iso('2024-01-01') + 515)).dormant, true);
  // Short gaps: the 365-day floor applies.
  assert.equal(checkDormancy('2024-01-01', [14, 14], '2024-12-31').dormant, false); // 365 days
  assert.equal(checkDormancy('2024-01-01', [14, 14], '2025-01-01').dormant, true); // 366 days
  assert.equal(checkDormancy('2024-01-01', [], '2025-01-01').thresholdDays, 365);
});

test('dormancy of a stale feed: the silence is counted to the feed’s newest draw, not to the as-of date', () => {
  // Last draw 2024-01-01, the feed's newest draw (another category's) 2024-06-01, as of two years later.
  const stale = checkDormancy('2024-01-01', [14, 14], '2026-01-01', '2024-06-01');
  assert.deepEqual([stale.silenceCountedTo, stale.silenceDays, stale.daysSinceLastDraw, stale.dormant], ['2024-06-01', 152, 731, false]);
  // A category silent for longer than its threshold within what the feed covers is still dormant.
  assert.equal(checkDormancy('2022-01-01', [14, 14], '2026-01-01', '2024-06-01').dormant, true);
  const fresh = checkDormancy('2024-01-01', [14, 14], '2026-01-01');
  assert.deepEqual([fresh.silenceCountedTo, fresh.silenceDays, fresh.dormant], ['2026-01-01', 731, true]);
});

test('date_range is the shortest window holding its level: a steady rhythm with an odd gap gets a window around the rhythm', () => {
  // A Monday; gaps of 14 days (8 of 10), 7 days and 63 days (1 each), all landing on Mondays.
  const monday = iso('2025-01-06');
  assert.equal(weekday(monday), 1);
  const gaps = new Map([
    [14, 8],
    [7, 1],
    [63, 1],
  ]);
  // 90%: 7 and 14 hold 9 of 10 (7 days wide); the central 90% would run from 7 to 63.
  assert.deepEqual(dateIntervals(gaps, monday, 0, 1, [0.9])[0][0], [monday + 7, monday + 14]);
  // 80%: the 14-day gap alone holds it.
  assert.deepEqual(dateIntervals(gaps, monday, 0, 1, [0.8])[0][0], [monday + 14, monday + 14]);
  // 100%: everything.
  assert.deepEqual(dateIntervals(gaps, monday, 0, 1, [1])[0][0], [monday + 7, monday + 63]);
});

test("a later draw's range is never narrower than the one before, nor ends before it", () => {
  const monday = iso('2025-01-06');
  // Already wide enough and later: unchanged.
  assert.deepEqual(neverNarrower([monday + 14, monday + 42], [monday + 7, monday + 28]), [monday + 14, monday + 42]);
  // Narrower (7 days against 21): the latest day moves to earliest + 21.
  assert.deepEqual(neverNarrower([monday + 14, monday + 21], [monday + 7, monday + 28]), [monday + 14, monday + 35]);
  // Ending before the previous range ends: it ends with it at least.
  assert.deepEqual(neverNarrower([monday + 3, monday + 24], [monday + 7, monday + 14]), [monday + 3, monday + 24]);
  assert.deepEqual(neverNarrower([monday, monday + 10], [monday + 7, monday + 14]), [monday, monday + 14]);
  // Widened onto a Saturday: on to the Monday.
  assert.deepEqual(neverNarrower([monday, monday + 1], [monday, monday + 5]), [monday, monday + 7]);

  // Served: gaps of 14 days (8 in 10), 7 and 63 (1 each), all Mondays. Rank 1 at level 1: 7 to 63 days after the last
  // draw (56 days wide). Rank 2 at level 0.5: two gaps of 14 (64%) alone, [28, 28]; widened to 28 + 56 = 84 days.
  const gaps = new Map([
    [14, 8],
    [7, 1],
    [63, 1],
  ]);
  const dates = cadence('2025-01-06', 14, 6);
  const p = predictDrawDates(dates, '2025-01-06', 2, { gapWeights: gaps, levelFor: (h) => (h === 1 ? 1 : 0.5) });
  assert.deepEqual(
    p.dates.map((d) => [d.earliest, d.date, d.latest]),
    [
      ['2025-01-13', '2025-01-20', '2025-03-10'],
      ['2025-02-03', '2025-02-03', '2025-03-31'],
    ],
  );
  // Without the rule rank 2 would be the single day 2025-02-03.
  assert.deepEqual(dateIntervals(gaps, monday, 0, 2, [0.5])[1][0], [monday + 28, monday + 28]);
});

test("the program's rounds: draw days of any category within 3 days of the one before form one round", () => {
  assert.deepEqual(programRounds([100, 101, 103, 110, 113, 116, 130]), [100, 110, 130]);
  assert.deepEqual(programRounds([]), []);
});

test("the program's next round: its round gaps, spread, conditioned on the days since its last round", () => {
  // Rounds every 14 days from day 1000 to 1140, each two days long (1000, 1001, 1014, 1015, …).
  const days = Array.from({ length: 11 }, (_, i) => [1000 + 14 * i, 1001 + 14 * i]).flat();
  const lastRound = 1140;
  // As of five days after the last round, for a category whose last draw was day 1100: the rounds' gaps (all 14),
  // spread as smoothGaps spreads them, as offsets from day 1100.
  const law = roundRhythm(days, 1100, lastRound + 5)!;
  const expected = [...smoothGaps(Array(10).fill(14)).entries()].map(([g, w]) => [lastRound - 1100 + g, w]);
  assert.deepEqual(
    [...law.entries()].sort((a, b) => a[0] - b[0]),
    expected,
  );
  // Fourteen days after the last round (each gap of 14 spreads over 13–15 days): only the offsets after the as-of date remain.
  const late = roundRhythm(days, 1100, lastRound + 14)!;
  assert.deepEqual([...late.keys()], [lastRound - 1100 + 15]);
  assert.equal(roundRhythm(days, 1100, lastRound + 30), null, 'no round gap that long');
  assert.equal(roundRhythm([1000], 1000, 1010), null, 'one round: no rhythm');
});

test("past a category's typical gap, the program's rounds move its next draw's range; before it, they do not", () => {
  // A fortnightly category (last draw 2025-03-03) in a program whose last round was another category's, on 2025-03-10.
  const dates = cadence('2025-03-03', 14, 13);
  const programDays = [...dates, '2025-03-10'].map(iso);
  const range = (asOf: string, withRounds: boolean) => {
    const d = predictDrawDates(dates, asOf, 1, withRounds ? { programDays: programDays.filter((x) => x <= iso(asOf)) } : {}).dates[0];
    return [d.earliest, d.latest];
  };
  // 9 days after its last draw: within its typical gap (14), the same range either way.
  assert.deepEqual(range('2025-03-12', true), range('2025-03-12', false));
  // 17 days after: its own gaps (every one 14) restart the clock and point to 2025-04-03, and the range reaches back
  // only to predicted_date (2025-03-31); the program's rounds (gaps of 14 and 7) say its next round is due around
  // 2025-03-24, 14 days after 2025-03-10, and the range reaches back to it.
  assert.deepEqual(range('2025-03-20', false), ['2025-03-31', '2025-04-03']);
  const withRounds = range('2025-03-20', true);
  assert.ok(withRounds[0] <= '2025-03-24' && withRounds[1] === '2025-04-03', withRounds.join(' – '));
});

test('the served gap law remembers the last DATE_LAW_GAPS gaps: a break further back no longer widens a steady rhythm', () => {
  assert.equal(DATE_LAW_GAPS, 8);
  const monday = iso('2025-01-06');
  // Every category's recent gaps, as the walk-forward passes them: mostly fortnightly, a few long ones.
  const pooled = [...Array.from({ length: 40 }, () => 14), 21, 28, 35, 56, 84];
  const window = (own: number[]) => {
    const [lo, hi] = dateIntervals(dateGapWeights(own, pooled), monday, 0, 1, [0.99])[0][0];
    return { lo: lo - monday, hi: hi - monday };
  };
  // A 70-day break then eight fortnightly gaps: the break is past the memory, and the 99% window is the rhythm's
  // (13–15 days, the Sunday moved to Monday), the pooled tail's 5% being mostly fortnightly too.
  assert.deepEqual(window([70, ...Array.from({ length: DATE_LAW_GAPS }, () => 14)]), { lo: 14, hi: 15 });
  // The same break one gap later, within the memory: the window reaches over it (70 days ± 10%).
  const broken = window([70, ...Array.from({ length: DATE_LAW_GAPS - 1 }, () => 14)]);
  assert.ok(broken.lo === 14 && broken.hi >= 70, JSON.stringify(broken));
  // Exactly fortnightly gaps with no pooled tail: 13–15 days (±10%), the Sunday on to the Monday: a two-day window.
  const [lo, hi] = dateIntervals(
    dateGapWeights(
      Array.from({ length: 12 }, () => 14),
      [],
    ),
    monday,
    0,
    1,
    [0.99],
  )[0][0];
  assert.deepEqual([lo - monday, hi - monday], [14, 15]);
});

test('a strictly fortnightly category: the likely window holds the next rhythmic date and nests with the 90% range', () => {
  const dates = cadence('2025-03-03', 14, 13);
  for (const asOf of ['2025-03-03', '2025-03-08', '2025-03-14']) {
    const d = predictDrawDates(dates, asOf, 2, { levelFor: () => 0.9, gapWeights: dateGapWeights(gapsBetweenDates(dates), []) }).dates;
    const w = d[0].likely!;
    assert.ok(w.earliest <= '2025-03-17' && '2025-03-17' <= w.latest, `${asOf}: ${w.earliest}–${w.latest} holds 2025-03-17`);
    assert.equal(iso(w.latest) - iso(w.earliest) + 1, LIKELY_WINDOW_DAYS);
    assert.ok(w.earliest > asOf);
    // The range (13–15 days after the last draw) is shorter than three weeks: the window holds it, and all the law.
    assert.ok(w.earliest <= d[0].earliest && w.latest >= d[0].latest, `${w.earliest}–${w.latest} ⊇ ${d[0].earliest}–${d[0].latest}`);
    assert.ok(Math.abs(w.mass - 1) < 1e-9, String(w.mass));
    assert.equal(d[1].likely, null, 'later draws have no likely window');
  }
});

test('the likely window is the run of 21 days of most weight within the range (or holding it), opening after the as-of date', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 5, max: 90 }), { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 0, max: 200 }),
      fc.integer({ min: 0, max: 200 }),
      (gaps, elapsed, a, b) => {
        const last = iso('2025-01-06');
        const [law] = dateLaws(smoothGaps(gaps), last, elapsed, 1);
        const first = last + elapsed + 1;
        const span: [number, number] = [first + Math.min(a, b), first + Math.max(a, b)];
        const w = likeliestWindow(law, last, first, span);
        assert.equal(w.latest - w.earliest + 1, LIKELY_WINDOW_DAYS);
        assert.ok(w.earliest >= first);
        const long = span[1] - span[0] + 1 >= LIKELY_WINDOW_DAYS;
        if (long) assert.ok(w.earliest >= span[0] && w.latest <= span[1]);
        else assert.ok(w.earliest <= span[0] && w.latest >= span[1]);
        // No other admissible window holds more.
        const mass = (start: number) => {
          let sum = 0;
          for (let d = start; d < start + LIKELY_WINDOW_DAYS; d++) sum += law.days[d - last] ?? 0;
          return sum / law.total;
        };
        assert.ok(Math.abs(mass(w.earliest) - w.mass) < 1e-9);
        const [lo, hi] = long ? [span[0], span[1] - LIKELY_WINDOW_DAYS + 1] : [Math.max(span[1] - LIKELY_WINDOW_DAYS + 1, first), span[0]];
        for (let start = lo; start <= hi; start++) assert.ok(mass(start) <= w.mass + 1e-9, `${start - last}: ${mass(start)} > ${w.mass}`);
      },
    ),
    { seed: 31, numRuns: 200 },
  );
});

test('the residual law: P(R = r) = P(gap ≥ r) ÷ E[gap], so P(R > t) = Σ_{u>t} P(gap > u) ÷ E[gap]', () => {
  // Gaps of 7 and 21 days, equally often: E[gap] = 14; a day falls inside a 21-day gap three times as often.
  const law = residualGapLaw(
    new Map([
      [7, 1],
      [21, 1],
    ]),
  );
  assert.deepEqual(
    [...law.keys()],
    Array.from({ length: 21 }, (_, i) => i + 1),
  );
  for (let r = 1; r <= 21; r++) assert.ok(Math.abs(law.get(r)! - (r <= 7 ? 2 : 1) / 28) < 1e-12, `r = ${r}`);
  const survival = (u: number) => (u < 7 ? 1 : u < 21 ? 0.5 : 0); // P(gap > u)
  for (const t of [0, 3, 7, 10, 20]) {
    let tail = 0;
    for (const [r, w] of law) if (r > t) tail += w;
    let expected = 0;
    for (let u = t; u < 21; u++) expected += survival(u) / 14;
    assert.ok(Math.abs(tail - expected) < 1e-12, `t = ${t}`);
  }
  // Smoothed weights of any total give a law of total 1.
  const smoothed = residualGapLaw(smoothGaps([10, 14, 14, 30], [0.5, 1, 2, 0.25]));
  assert.ok(Math.abs([...smoothed.values()].reduce((a, b) => a + b, 0) - 1) < 1e-12);
});

test('a stale feed: the days since the last known draw are no wait; the next draw follows the residual law from the as-of date', () => {
  // A strictly fortnightly category whose feed stops a year before the as-of date (Monday 2026-12-07).
  const dates = cadence('2025-12-15', 14, 20);
  const asOf = '2026-12-07';
  // Conditioned on a year without a draw, longer than any gap, the clock restarts at the as-of date: the next draw
  // exactly 14 days later (the range at its level, before it is widened to the cadence's date), a certainty the data
  // cannot support.
  const conditioned = predictDrawDates(dates, asOf, 2).dates[0];
  assert.deepEqual(conditioned.likely!.levelRange, { earliest: '2026-12-21', latest: '2026-12-21' });
  // Seen from an arbitrary day, a fortnightly rhythm's next draw is any of the next 14 days: the 95% range runs from
  // the day after the as-of date.
  const stale = predictDrawDates(dates, asOf, 2, { elapsedUnknown: true });
  assert.deepEqual([stale.dates[0].earliest, stale.dates[0].latest], ['2026-12-08', '2026-12-21']);
  // Its window's probability is the law's own mass, not a calibration learnt from fresh windows.
  assert.equal(stale.dates[0].likely!.windowClass, null);
  assert.equal(conditioned.likely!.windowClass, 'past_typical_gap');
  // The second draw a further gap later: the residual law convolved with the gap law, 15–28 days out.
  assert.deepEqual([stale.dates[1].earliest, stale.dates[1].latest], ['2026-12-22', '2027-01-04']);
  // Even the program's rounds, whose elapsed wait is as unknown, do not enter.
  const programDays = cadence('2025-12-15', 7, 60).map(iso);
  assert.deepEqual(predictDrawDates(dates, asOf, 2, { elapsedUnknown: true, programDays }).dates, stale.dates);
});
