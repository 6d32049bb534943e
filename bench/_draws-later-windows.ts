// Service D: can the draws after the next one (ranks 2–5) get a likely 21-day window whose probability is calibrated?
// (docs/draws.md, "The likely three weeks: later draws"). The next draw's window is the densest LIKELY_WINDOW_DAYS of
// its date law, its probability the law's mass there mapped by an isotonic regression fitted on the windows whose
// draw was known by the forecast's day (metrics.ts, windowCalibration). This script forms the same window for the
// h-th draw's law (the same gap law, conditioned on the days elapsed and, past the typical gap, mixed with the
// program's rounds, then h − 1 further gaps by convolution), on every 7th day of each gap from the draw day on, as the
// walk-forward records the next draw's windows, and states each window of an as-of day of 2023–2024 by a map of the
// same rank fitted on the windows whose h-th draw was known then (last RECENT_DAYS, at least LIKELY_MIN_WINDOWS, else
// the mass; at most the range's 90%, as a window inside the range is stated). Per rank: mean stated ÷ held, Brier,
// skill against the share of the windows known at each origin that held, ECE over ten bins, the law's own mass beside
// them, with 95% bootstrap intervals over as-of days; on draw days and on every 7th day of each gap. First it checks
// that its next-draw windows are the walk-forward's. Origins of 2025 are not scored (held out); as in the tuning
// benchmark, a late-2024 origin's later draws may fall in early 2025.
//   npx node bench/_draws-later-windows.ts
import { dayNumber, isoFromDayNumber } from '../src/services/draws/feed/ircc-dates.ts';
import {
  dateLaws,
  dormancyThreshold,
  likeliestWindow,
  roundRhythm,
  typicalGap,
  windowClass,
} from '../src/services/draws/forecast/draw-dates.ts';
import type { WindowClass } from '../src/services/draws/forecast/draw-dates.ts';
import { DATE_INTERVAL_TARGET, likelyProbability, windowCalibration } from '../src/services/draws/forecast/metrics.ts';
import type { LikelyCalibration } from '../src/services/draws/forecast/metrics.ts';
import { bootstrapIntervals, panelOf, rollingOriginRecords } from '../src/services/draws/forecast/rolling-origin.ts';
import { mean, median } from '../src/services/draws/forecast/statistics.ts';
import {
  dateGapWeights,
  gapsOf,
  LIKELY_STEP_DAYS,
  RECENT_DAYS,
  RECORD_HORIZONS,
  recentGaps,
  regimeStart,
  walkForward,
} from '../src/services/draws/forecast/walk-forward.ts';
import { snapshotCategories } from './_draws-snapshot.ts';

const FROM = '2023-01-01';
const TO = '2024-12-31';
/** Windows are formed from as-of days this long before FROM: every map of the period looks back RECENT_DAYS. */
const WINDOWS_FROM = dayNumber(FROM) - RECENT_DAYS - 400;
const BINS = 10;

const categories = snapshotCategories();
const panel = panelOf(categories);
const programDays = [...new Set(panel.flatMap((c) => c.draws.map((d) => d.day)))].sort((a, b) => a - b);

/** One window of the h-th draw's law as of a day, with the day that draw came (null: after the data). */
interface LaterWindow {
  category: string;
  h: number;
  asOf: number;
  elapsed: number;
  windowClass: WindowClass;
  earliest: number;
  latest: number;
  mass: number;
  /** The h-th distinct draw day after the category's last draw. */
  target: number | null;
  /** No pause longer than the dormancy threshold on the way to the target: such windows calibrate (as knownAt keeps). */
  servable: boolean;
  /** The category is not dormant as of the day: a forecast would be served. */
  served: boolean;
}

const windows: LaterWindow[] = [];
const walkCheck = new Map<string, { earliest: number; latest: number; mass: number }>();
for (const c of panel) {
  const days = [...new Set(c.draws.map((d) => d.day))];
  for (let k = 1; k <= c.draws.length; k++) {
    const lastDay = c.draws[k - 1].day;
    // Same-day draws: the forecast as of that day knows them all, so the last of them makes it.
    if (k < c.draws.length && c.draws[k].day === lastDay) continue;
    if (lastDay < WINDOWS_FROM) continue;
    const start = regimeStart(c.draws, k);
    const ownGaps = gapsOf(c.draws, k, start);
    const pooledGaps = recentGaps(panel, lastDay);
    const gapWeights = dateGapWeights(ownGaps, pooledGaps);
    if (gapWeights.size === 0) continue;
    const after = days.filter((d) => d > lastDay).slice(0, RECORD_HORIZONS);
    const threshold = dormancyThreshold(gapsOf(c.draws, k));
    const gap = after.length > 0 ? after[0] - lastDay : Math.ceil((dayNumber(TO) + 1 - lastDay) / LIKELY_STEP_DAYS) * LIKELY_STEP_DAYS;
    const typical = typicalGap(ownGaps, Math.floor((pooledGaps.length > 0 ? median(pooledGaps) : 14) + 0.5));
    for (let elapsed = 0; elapsed < gap; elapsed += LIKELY_STEP_DAYS) {
      const asOf = lastDay + elapsed;
      const rounds = elapsed <= typical ? null : roundRhythm(programDays, lastDay, asOf);
      const laws = dateLaws(gapWeights, lastDay, elapsed, RECORD_HORIZONS, rounds);
      laws.forEach((law, i) => {
        const h = i + 1;
        const window = likeliestWindow(law, lastDay, asOf + 1, [asOf + 1, lastDay + law.days.length - 1]);
        if (h === 1) walkCheck.set(`${c.slug}|${lastDay}|${elapsed}`, window);
        let servable = true;
        for (let j = 0, previous = lastDay; j < Math.min(h, after.length); previous = after[j], j++)
          if (after[j] - 1 - previous > threshold) servable = false;
        windows.push({
          category: c.slug,
          h,
          asOf,
          elapsed,
          windowClass: windowClass(elapsed, typical),
          ...window,
          target: after[i] ?? null,
          servable,
          served: elapsed <= threshold,
        });
      });
    }
  }
}

// The next draw's windows must be the walk-forward's (the ones the served probability is calibrated on).
const walk = walkForward(panel);
let checked = 0;
for (const p of walk.points) {
  const c = panel[p.category];
  if (p.k < c.draws.length && c.draws[p.k].day === p.day) continue;
  for (const w of p.likelyWindows) {
    const mine = walkCheck.get(`${c.slug}|${p.day}|${w.elapsed}`);
    if (mine === undefined) continue;
    if (mine.earliest !== w.earliest || mine.latest !== w.latest || Math.abs(mine.mass - w.mass) > 1e-12)
      throw new Error(`${c.slug} ${isoFromDayNumber(p.day)} +${w.elapsed}: the next draw's window differs from the walk-forward's`);
    checked++;
  }
}
console.log(`checked: ${checked} next-draw windows equal the walk-forward's`);

const held = (w: LaterWindow) => w.target !== null && w.target >= w.earliest && w.target <= w.latest;

/**
 * How the windows of an origin are stated: which known windows share a map (one per rank, as the next draw's per
 * rank and window class, or ranks 2–5 in one map per class) and how many days of known draws it remembers.
 */
interface Variant {
  name: string;
  byClass: boolean;
  pooledRanks: boolean;
  memoryDays: number;
}
const AS_NEXT_DRAW: Variant = {
  name: 'a map per rank and window class, 730 days (as the next draw)',
  byClass: true,
  pooledRanks: false,
  memoryDays: RECENT_DAYS,
};
const VARIANTS: Variant[] = [
  AS_NEXT_DRAW,
  { name: 'a map per rank, 730 days', byClass: false, pooledRanks: false, memoryDays: RECENT_DAYS },
  { name: 'ranks 2–5 in one map per window class, 730 days', byClass: true, pooledRanks: true, memoryDays: RECENT_DAYS },
  { name: 'a map per rank and window class, 365 days', byClass: true, pooledRanks: false, memoryDays: 365 },
];

const maps = new Map<string, LikelyCalibration>();
function calibration(h: number, day: number, cls: WindowClass | 'all', pooledRanks = false, memoryDays = RECENT_DAYS): LikelyCalibration {
  const ranks = pooledRanks && h > 1 ? 'later' : String(h);
  const key = `${ranks}|${day}|${cls}|${memoryDays}`;
  let m = maps.get(key);
  if (m === undefined) {
    m = windowCalibration(
      windows
        .filter(
          (w) =>
            (ranks === 'later' ? w.h > 1 : w.h === h) &&
            w.servable &&
            w.target !== null &&
            w.target <= day &&
            w.target > day - memoryDays &&
            (cls === 'all' || w.windowClass === cls),
        )
        .map((w) => ({ score: w.mass, outcome: held(w) })),
    );
    maps.set(key, m);
  }
  return m;
}

interface Statement {
  asOf: string;
  window: [string, string];
  h: number;
  elapsed: number;
  stated: number;
  mass: number;
  reference: number;
  held: boolean;
}

function statements(variant: Variant): Statement[] {
  return windows
    .filter((w) => w.served && w.target !== null && w.asOf >= dayNumber(FROM) && w.asOf <= dayNumber(TO))
    .flatMap((w) => {
      const own = calibration(w.h, w.asOf, variant.byClass ? w.windowClass : 'all', variant.pooledRanks, variant.memoryDays);
      const reference = calibration(w.h, w.asOf, 'all').baseRate;
      if (reference === null) return [];
      return [
        {
          asOf: isoFromDayNumber(w.asOf),
          window: [isoFromDayNumber(w.earliest), isoFromDayNumber(w.latest)] as [string, string],
          h: w.h,
          elapsed: w.elapsed,
          stated: Math.min(DATE_INTERVAL_TARGET, likelyProbability(own, w.mass)),
          mass: w.mass,
          reference,
          held: held(w),
        },
      ];
    });
}

function ece(rs: readonly Statement[], p: (s: Statement) => number): number {
  const bins = Array.from({ length: BINS }, () => ({ n: 0, sum: 0, hits: 0 }));
  for (const s of rs) {
    const b = bins[Math.min(BINS - 1, Math.floor(p(s) * BINS))];
    b.n++;
    b.sum += p(s);
    b.hits += s.held ? 1 : 0;
  }
  return bins.reduce((e, b) => e + (b.n > 0 ? (b.n / rs.length) * Math.abs(b.sum / b.n - b.hits / b.n) : 0), 0);
}

const brier = (rs: readonly Statement[], p: (s: Statement) => number) => mean(rs.map((s) => (p(s) - (s.held ? 1 : 0)) ** 2));
const FIGURES: [string, (rs: readonly Statement[]) => number | null, (x: number) => string][] = [
  ['stated', (rs) => mean(rs.map((s) => s.stated)), (x) => `${(100 * x).toFixed(1)}%`],
  ['held', (rs) => mean(rs.map((s) => (s.held ? 1 : 0))), (x) => `${(100 * x).toFixed(1)}%`],
  ['stated ÷ held', (rs) => mean(rs.map((s) => s.stated)) / mean(rs.map((s) => (s.held ? 1 : 0))), (x) => x.toFixed(3)],
  ['Brier', (rs) => brier(rs, (s) => s.stated), (x) => x.toFixed(3)],
  ['reference Brier', (rs) => brier(rs, (s) => s.reference), (x) => x.toFixed(3)],
  ['skill', (rs) => 1 - brier(rs, (s) => s.stated) / brier(rs, (s) => s.reference), (x) => x.toFixed(3)],
  ['ECE', (rs) => ece(rs, (s) => s.stated), (x) => x.toFixed(3)],
  ['mass mean', (rs) => mean(rs.map((s) => s.mass)), (x) => `${(100 * x).toFixed(1)}%`],
  ['mass Brier', (rs) => brier(rs, (s) => s.mass), (x) => x.toFixed(3)],
  ['mass skill', (rs) => 1 - brier(rs, (s) => s.mass) / brier(rs, (s) => s.reference), (x) => x.toFixed(3)],
  ['mass ECE', (rs) => ece(rs, (s) => s.mass), (x) => x.toFixed(3)],
];

function report(name: string, rs: readonly Statement[]): void {
  if (rs.length === 0) return;
  const cis = bootstrapIntervals(
    rs,
    FIGURES.map(([, f]) => f),
  );
  const days = new Set(rs.map((s) => s.asOf)).size;
  console.log(
    `  ${name} (${rs.length} windows, ${days} as-of days): ` +
      FIGURES.map(([label, f, show], i) => {
        const ci = cis[i];
        return `${label} ${show(f(rs)!)} (${ci ? `${show(ci[0])}–${show(ci[1])}` : '—'})`;
      }).join(', '),
  );
}

// The next draw's windows on draw days beside those the rolling-origin benchmark serves: the served window lies within
// date_range, this script's within every day the law reaches (as the walk-forward records them).
{
  const served = rollingOriginRecords(categories, FROM).filter((r) => r.h === 1 && r.served?.likely && r.asOf <= TO);
  const mine = statements(AS_NEXT_DRAW).filter((s) => s.h === 1 && s.elapsed === 0);
  const sameWindow = served.filter((r) =>
    mine.some((s) => s.asOf === r.asOf && s.window[0] === r.served!.likely!.range[0] && s.window[1] === r.served!.likely!.range[1]),
  );
  const close = sameWindow.filter((r) =>
    mine.some((s) => s.asOf === r.asOf && Math.abs(s.stated - r.served!.likely!.probability) <= 0.005),
  ).length;
  console.log(
    `the next draw on draw days: ${sameWindow.length} of ${served.length} served windows are this script's (${mine.length}), ` +
      `${close} of them with a probability within 0.005`,
  );
}

const VIEWS = [
  ['draw days', (s: Statement) => s.elapsed === 0],
  [`every ${LIKELY_STEP_DAYS}th day of each gap`, () => true],
] as const;
{
  const later = statements(AS_NEXT_DRAW).filter((s) => s.h > 1);
  const after = windows.filter((w) => w.h > 1 && w.served && w.target !== null && w.asOf >= dayNumber(FROM) && w.asOf <= dayNumber(TO));
  console.log(
    `later draws (h = 2–5) stated: ${later.length}; of them ${after.filter((w) => w.target! > dayNumber(TO)).length} with their draw after ${TO}; ` +
      `not scored, their draw after the data: ${windows.filter((w) => w.h > 1 && w.served && w.target === null && w.asOf >= dayNumber(FROM) && w.asOf <= dayNumber(TO)).length}`,
  );
}
for (const variant of VARIANTS) {
  const all = statements(variant);
  console.log(`\n${variant.name}; origins ${FROM} – ${TO}; 95% bootstrap intervals over as-of days`);
  for (const [view, keep] of VIEWS) {
    console.log(` ${view}:`);
    if (variant === AS_NEXT_DRAW)
      for (let h = 1; h <= RECORD_HORIZONS; h++)
        report(
          `h = ${h}`,
          all.filter((s) => s.h === h && keep(s)),
        );
    report(
      'h = 2–5',
      all.filter((s) => s.h > 1 && keep(s)),
    );
    for (const year of ['2023', '2024'])
      report(
        `h = 2–5, ${year}`,
        all.filter((s) => s.h > 1 && keep(s) && s.asOf.startsWith(year)),
      );
  }
  if (variant !== AS_NEXT_DRAW) continue;
  console.log(' reliability, h = 2–5, every 7th day (stated bin: windows, mean stated, share held):');
  const rs = all.filter((s) => s.h > 1);
  const line: string[] = [];
  for (let b = 0; b < BINS; b++) {
    const inBin = rs.filter((s) => Math.min(BINS - 1, Math.floor(s.stated * BINS)) === b);
    if (inBin.length > 0)
      line.push(
        `${(b / BINS).toFixed(1)}–${((b + 1) / BINS).toFixed(1)}: ${inBin.length}, ${(100 * mean(inBin.map((s) => s.stated))).toFixed(1)}%, ${(100 * mean(inBin.map((s) => (s.held ? 1 : 0)))).toFixed(1)}%`,
      );
  }
  console.log(`  ${line.join('; ')}`);
}
