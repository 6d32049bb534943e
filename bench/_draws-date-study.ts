// Service D: the study of the next draw's date ranges on the origins of 2019–2024 (docs/draws.md, "Date ranges"). The
// served pipeline's date path (the walk-forward's date bounds, the calibrated level, predictDrawDates with the round
// rhythm) rebuilt with its knobs as parameters, each setting scored against the served one by the mean over years of
// the yearly date interval score (Winkler, α = 0.10, days) on draw days and as of every 7th day, with paired bootstrap
// intervals (days resampled within each year). Next draws that came after a dormancy pause are left out (ALL=1 keeps
// them). First it checks that the served setting gives the served ranges (asOfDayDateRecords) on every as-of day.
// 2025 is held out: this script never looks at it.
//   npx node bench/_draws-date-study.ts [substring of setting names…]
import { Random } from '../src/core/random.ts';
import { dayNumber, isoFromDayNumber } from '../src/services/draws/feed/ircc-dates.ts';
import { afterDormancyPause, asOfDayDateRecords } from '../src/services/draws/forecast/date-backtest.ts';
import {
  checkDormancy,
  DATE_LAW_GAPS,
  dateIntervals,
  dormancyThreshold,
  gapsBetweenDates,
  predictDrawDates,
  smoothGaps,
} from '../src/services/draws/forecast/draw-dates.ts';
import type { GapWeights } from '../src/services/draws/forecast/draw-dates.ts';
import { DATE_INTERVAL_TARGET } from '../src/services/draws/forecast/metrics.ts';
import { panelOf, winkler } from '../src/services/draws/forecast/rolling-origin.ts';
import { median, quantile } from '../src/services/draws/forecast/statistics.ts';
import {
  DATE_HALF_LIFE,
  DATE_LEVELS,
  DATE_POOLED_SHARE,
  gapsOf,
  RECENT_DAYS,
  recentGaps,
  regimeStart,
} from '../src/services/draws/forecast/walk-forward.ts';
import type { PanelCategory } from '../src/services/draws/forecast/walk-forward.ts';
import { snapshotCategories } from './_draws-snapshot.ts';
import type { CategoryDrawsInput } from '../src/services/draws/forecast/forecast-panel.ts';

const FROM = '2019-01-01';
const TO = '2024-12-31';
const STEP = 7;
const KEEP_ALL = process.env.ALL === '1';

interface Setting {
  name: string;
  ownGaps: number;
  halfLife: number;
  pooledShare: number;
  levels: readonly number[];
  /** Days of scored ranges that calibrate the level. */
  calibDays: number;
  /** Each scored range weighted 0.5^(age / this) in the calibration; null: equal weights. */
  calibHalfLife: number | null;
  /** The smallest level whose coverage reached the target (served), or the level of least past interval score. */
  calibBy: 'coverage' | 'score';
  roundRhythm: boolean;
  /** The structural alternative: a two-component law (mixture()). */
  mixture: { breakRatio: number; memoryDays: number; prior: number } | null;
}

const SERVED: Setting = {
  name: 'served',
  ownGaps: DATE_LAW_GAPS,
  halfLife: DATE_HALF_LIFE,
  pooledShare: DATE_POOLED_SHARE,
  levels: DATE_LEVELS,
  calibDays: RECENT_DAYS,
  calibHalfLife: null,
  calibBy: 'coverage',
  roundRhythm: true,
  mixture: null,
};
const FINE = Array.from({ length: 20 }, (_, i) => Math.round((0.8 + 0.01 * i) * 100) / 100);
const with_ = (name: string, o: Partial<Setting>): Setting => ({ ...SERVED, ...o, name });
const mix = (breakRatio: number, memoryDays: number, prior = 10) => ({ breakRatio, memoryDays, prior });
const SETTINGS: Setting[] = [
  with_('memory 12 gaps (before)', { ownGaps: 12 }),
  ...[6, 10, 24].map((n) => with_(`memory ${n} gaps`, { ownGaps: n })),
  ...[2, 3, 6, 8, Infinity].map((h) => with_(`halving every ${h} gaps`, { halfLife: h })),
  ...[0, 0.02, 0.1, 0.2].map((s) => with_(`pooled share ${s}`, { pooledShare: s })),
  with_('calibration over 365 days', { calibDays: 365 }),
  with_('calibration over 1095 days', { calibDays: 1095 }),
  with_('calibration weights halving every 182 days', { calibHalfLife: 182 }),
  with_('calibration weights halving every 365 days', { calibHalfLife: 365 }),
  with_('level grid 0.80, 0.81 … 0.99', { levels: FINE }),
  with_('level grid + 0.995', { levels: [...DATE_LEVELS, 0.995] }),
  with_('level grid up to 0.98', { levels: DATE_LEVELS.slice(0, -1) }),
  with_('level grid up to 0.95', { levels: DATE_LEVELS.slice(0, 5) }),
  with_('level of least past interval score', { calibBy: 'score' }),
  with_('level of least past interval score, fine grid', { calibBy: 'score', levels: FINE }),
  with_('level of least past interval score, 365 days', { calibBy: 'score', calibDays: 365 }),
  with_('no round rhythm', { roundRhythm: false }),
  with_('mixture: breaks > 2 × rhythm, 730 days', { mixture: mix(2, 730) }),
  with_('mixture: breaks > 2 × rhythm, 365 days', { mixture: mix(2, 365) }),
  with_('mixture: breaks > 1.5 × rhythm, 730 days', { mixture: mix(1.5, 730) }),
  with_('mixture: breaks > 3 × rhythm, 730 days', { mixture: mix(3, 730) }),
  with_('mixture: breaks > 2 × rhythm, fine grid', { mixture: mix(2, 730), levels: FINE }),
  with_('mixture: breaks > 2 × rhythm, least score', { mixture: mix(2, 730), calibBy: 'score' }),
];

/** Every category's gaps (distinct draw days) with the day each ended and its category's rhythm before it. */
interface PastGap {
  day: number;
  gap: number;
  rhythm: number;
}

interface Data {
  categories: CategoryDrawsInput[];
  panel: PanelCategory[];
  history: PastGap[];
  pooled: Map<number, number[]>;
}

function load(): Data {
  const categories = snapshotCategories();
  const panel = panelOf(categories);
  const history: PastGap[] = [];
  for (const c of panel) {
    const days = [...new Set(c.draws.map((d) => d.day))];
    for (let i = 2; i < days.length; i++) {
      const before = days.slice(Math.max(0, i - 7), i).flatMap((d, j, xs) => (j === 0 ? [] : [d - xs[j - 1]]));
      history.push({ day: days[i], gap: days[i] - days[i - 1], rhythm: median(before) });
    }
  }
  return { categories, panel, history, pooled: new Map() };
}

function pooledAt(data: Data, day: number): number[] {
  let gaps = data.pooled.get(day);
  if (!gaps) data.pooled.set(day, (gaps = recentGaps(data.panel, day)));
  return gaps;
}

/** The served law (walk-forward.ts, dateGapWeights) with the setting's memory, halving and pooled share. */
function servedLaw(own: readonly number[], pooled: readonly number[], s: Setting): GapWeights {
  const recent = own.slice(-s.ownGaps);
  const decay = 0.5 ** (1 / s.halfLife);
  const weights = recent.map((_, i) => decay ** (recent.length - 1 - i));
  if (pooled.length === 0) return smoothGaps(recent, weights);
  const total = weights.reduce((a, w) => a + w, 0);
  const pooledWeight = Math.max(3 - recent.length, 0) + s.pooledShare * total;
  return smoothGaps([...recent, ...pooled], [...weights, ...pooled.map(() => pooledWeight / pooled.length)]);
}

/**
 * The two-component law: the category's regular rhythm (its remembered gaps up to breakRatio × its rhythm, the median
 * of its last six) with probability 1 − π, its breaks with π; π is the category's share of breaks among its remembered
 * gaps shrunk toward every category's share over memoryDays (with the weight of `prior` gaps), and a break's length is
 * every category's recent break ÷ its rhythm then, × this category's rhythm.
 */
function mixture(own: readonly number[], data: Data, day: number, s: Setting): GapWeights {
  const m = s.mixture!;
  const pooled = pooledAt(data, day);
  const recent = data.history.filter((g) => g.day <= day && g.day > day - m.memoryDays && g.gap <= 365);
  if (own.length < 3 || recent.length === 0) return servedLaw(own, pooled, s);
  const rhythm = median(own.slice(-6));
  const isBreak = (gap: number, r: number) => gap > m.breakRatio * r;
  const pooledPi = recent.filter((g) => isBreak(g.gap, g.rhythm)).length / recent.length;
  const judged = own.flatMap((g, i) => (i === 0 ? [] : [isBreak(g, median(own.slice(Math.max(0, i - 6), i)))])).slice(-s.ownGaps);
  const pi = (judged.filter(Boolean).length + m.prior * pooledPi) / (judged.length + m.prior);
  const regular = own.slice(-s.ownGaps).filter((g) => !isBreak(g, rhythm));
  const breaks = recent.filter((g) => isBreak(g.gap, g.rhythm)).map((g) => Math.max(1, Math.round((g.gap / g.rhythm) * rhythm)));
  if (regular.length === 0 || breaks.length === 0) return servedLaw(own, pooled, s);
  const decay = 0.5 ** (1 / s.halfLife);
  const out: GapWeights = new Map();
  for (const [law, share] of [
    [
      smoothGaps(
        regular,
        regular.map((_, i) => decay ** (regular.length - 1 - i)),
      ),
      1 - pi,
    ],
    [smoothGaps(breaks), pi],
  ] as const) {
    const total = [...law.values()].reduce((a, w) => a + w, 0);
    for (const [g, w] of law) out.set(g, (out.get(g) ?? 0) + (share * w) / total);
  }
  return out;
}

const lawAt = (data: Data, own: readonly number[], day: number, s: Setting) =>
  s.mixture === null ? servedLaw(own, pooledAt(data, day), s) : mixture(own, data, day, s);

interface Point {
  servable: boolean;
  target: number | null;
  /** The next draw's bounds at each level, as of the draw day, the middle and the last day of the gap. */
  bounds: [number, number][][];
}

/** The walk-forward's date points (walk-forward.ts), next draw only: what the level is calibrated on. */
function walkPoints(data: Data, s: Setting): Point[] {
  const points: Point[] = [];
  for (const c of data.panel)
    for (let k = 1; k <= c.draws.length; k++) {
      const lastDay = c.draws[k - 1].day;
      const law = lawAt(data, gapsOf(c.draws, k, regimeStart(c.draws, k)), lastDay, s);
      const target = c.draws[k] ?? null;
      const nextDay = c.draws.slice(k).find((d) => d.day > lastDay)?.day;
      const gap = nextDay === undefined ? 1 : nextDay - lastDay;
      points.push({
        servable: target === null || target.day - 1 - lastDay <= dormancyThreshold(gapsOf(c.draws, k)),
        target: target?.day ?? null,
        bounds:
          law.size === 0
            ? []
            : [...new Set([0, Math.floor((gap - 1) / 2), gap - 1])].map((e) => dateIntervals(law, lastDay, e, 1, s.levels)[0]),
      });
    }
  return points;
}

/** The level at `day` (metrics.ts, calibrateDates), or the level of least weighted past interval score. */
function levelAt(points: readonly Point[], s: Setting, day: number): number {
  const known = points.filter(
    (p) => p.servable && p.target !== null && p.target <= day && p.target > day - s.calibDays && p.bounds.length > 0,
  );
  if (known.length === 0)
    return s.levels[
      Math.max(
        0,
        s.levels.findIndex((l) => l >= DATE_INTERVAL_TARGET),
      )
    ];
  const alpha = 1 - DATE_INTERVAL_TARGET;
  let best = { index: s.levels.length - 1, score: Infinity };
  for (let i = 0; i < s.levels.length; i++) {
    let n = 0;
    let held = 0;
    let score = 0;
    for (const p of known) {
      const w = s.calibHalfLife === null ? 1 : 0.5 ** ((day - p.target!) / s.calibHalfLife);
      for (const b of p.bounds) {
        n += w;
        if (p.target! >= b[i][0] && p.target! <= b[i][1]) held += w;
        score += w * winkler(b[i][0], b[i][1], p.target!, alpha);
      }
    }
    if (s.calibBy === 'coverage' && held >= DATE_INTERVAL_TARGET * n) return s.levels[i];
    if (s.calibBy === 'score' && score / n < best.score - 1e-9) best = { index: i, score: score / n };
  }
  return s.levels[best.index];
}

interface Range {
  kind: 'draw' | 'asof';
  category: string;
  day: number;
  year: string;
  actual: number;
  lo: number;
  hi: number;
  active: boolean;
  afterPause: boolean;
}

/** The next draw's range served as of `day` (forecast-panel.ts), or null when none is (dormant, nothing drawn). */
function servedRange(data: Data, s: Setting, c: PanelCategory, day: number, level: number): [number, number] | null {
  const dates = c.draws.filter((d) => d.day <= day).map((d) => isoFromDayNumber(d.day));
  const asOf = isoFromDayNumber(day);
  if (dates.length === 0 || checkDormancy(dates.at(-1)!, gapsBetweenDates(dates), asOf).dormant) return null;
  const regime = dates.slice(regimeStart(c.draws, dates.length));
  const pooled = pooledAt(data, day);
  const programDays = [...new Set(data.panel.flatMap((x) => x.draws.filter((d) => d.day <= day).map((d) => d.day)))].sort((a, b) => a - b);
  const first = predictDrawDates(regime, asOf, 1, {
    levelFor: () => level,
    gapWeights: lawAt(data, gapsBetweenDates(regime), day, s),
    stepDays: pooled.length > 0 ? median(pooled) : 14,
    programDays: s.roundRhythm ? programDays : undefined,
  }).dates[0];
  return first ? [dayNumber(first.earliest), dayNumber(first.latest)] : null;
}

/** The served next-draw ranges on each category's draw days (2+ draws) and as of every STEP-th day, FROM–TO. */
function ranges(data: Data, s: Setting): Range[] {
  const points = walkPoints(data, s);
  const levels = new Map<number, number>();
  const level = (day: number) => levels.get(day) ?? levels.set(day, levelAt(points, s, day)).get(day)!;
  const out: Range[] = [];
  const add = (kind: Range['kind'], c: PanelCategory, day: number) => {
    const next = c.draws.find((d) => d.day > day);
    const known = c.draws.filter((d) => d.day <= day);
    if (next === undefined || (kind === 'draw' && known.length < 2)) return;
    const range = servedRange(data, s, c, day, level(day));
    if (range === null) return;
    out.push({
      kind,
      category: c.slug,
      day,
      year: isoFromDayNumber(day).slice(0, 4),
      actual: next.day,
      lo: range[0],
      hi: range[1],
      active: new Set(known.filter((d) => d.day > day - 90).map((d) => d.day)).size >= 2,
      afterPause: afterDormancyPause(
        c.draws.map((d) => d.day),
        day,
        next.day,
      ),
    });
  };
  for (const c of data.panel)
    for (const day of new Set(c.draws.map((d) => d.day))) if (day >= dayNumber(FROM) && day <= dayNumber(TO)) add('draw', c, day);
  for (let day = dayNumber(FROM); day <= dayNumber(TO); day += STEP) for (const c of data.panel) add('asof', c, day);
  return out.filter((r) => KEEP_ALL || !r.afterPause);
}

const score = (r: Range) => winkler(r.lo, r.hi, r.actual, 1 - DATE_INTERVAL_TARGET);
const byYear = (rs: readonly Range[]) => {
  const years = new Map<string, Range[]>();
  for (const r of rs) years.set(r.year, [...(years.get(r.year) ?? []), r]);
  return [...years.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
};
const meanYearly = (rs: readonly Range[]) => {
  const ys = byYear(rs);
  return ys.reduce((a, [, xs]) => a + xs.reduce((b, r) => b + score(r), 0) / xs.length, 0) / ys.length;
};

/** Paired 95% bootstrap interval of meanYearly(a) / meanYearly(b): days resampled within each year, both settings together. */
function pairedInterval(a: readonly Range[], b: readonly Range[], replicates = 1000): [number, number] {
  const group = (rs: readonly Range[]) => {
    const m = new Map<number, Range[]>();
    for (const r of rs) m.set(r.day, [...(m.get(r.day) ?? []), r]);
    return m;
  };
  const [ga, gb] = [group(a), group(b)];
  const days = byYear([...a, ...b]).map(([, rs]) => [...new Set(rs.map((r) => r.day))]);
  const rng = new Random(1);
  const values: number[] = [];
  for (let i = 0; i < replicates; i++) {
    const [sa, sb]: Range[][] = [[], []];
    for (const ds of days)
      for (let j = 0; j < ds.length; j++) {
        const d = ds[rng.int(0, ds.length - 1)];
        sa.push(...(ga.get(d) ?? []));
        sb.push(...(gb.get(d) ?? []));
      }
    values.push(meanYearly(sa) / meanYearly(sb));
  }
  return [quantile(values, 0.025), quantile(values, 0.975)];
}

function show(name: string, rs: readonly Range[], served: readonly Range[]): void {
  for (const kind of ['draw', 'asof'] as const) {
    const mine = rs.filter((r) => r.kind === kind);
    const base = served.filter((r) => r.kind === kind);
    const ratio =
      rs === served
        ? ''
        : ` ÷ served ${(meanYearly(mine) / meanYearly(base)).toFixed(3)} (${pairedInterval(mine, base)
            .map((x) => x.toFixed(3))
            .join('–')})`;
    const years = byYear(mine).map(([year, xs]) => {
      const held = xs.filter((r) => r.actual >= r.lo && r.actual <= r.hi).length / xs.length;
      const widths = xs.filter((r) => r.active).map((r) => r.hi - r.lo);
      return `${year} ${(xs.reduce((a, r) => a + score(r), 0) / xs.length).toFixed(0)} ${(100 * held).toFixed(1)}% ${widths.length ? median(widths) : '—'}d`;
    });
    console.log(
      `${name.padEnd(46)} ${kind === 'draw' ? 'draw days' : 'as of 7th'}  ${meanYearly(mine).toFixed(1)}${ratio} | ${years.join(' | ')}`,
    );
  }
}

const data = load();
const served = ranges(data, SERVED);
// The rebuilt path must be the served one: every as-of day's range equal to asOfDayDateRecords'.
const reference = asOfDayDateRecords(data.categories, FROM, TO, STEP).filter((r) => KEEP_ALL || !r.afterPause);
const mine = new Map(served.filter((r) => r.kind === 'asof').map((r) => [`${r.category}|${r.day}`, r]));
const differ = reference.filter((r) => {
  const m = mine.get(`${r.category}|${dayNumber(r.asOf)}`);
  return m === undefined || m.lo !== dayNumber(r.range[0]) || m.hi !== dayNumber(r.range[1]);
});
if (differ.length > 0 || reference.length !== mine.size)
  throw new Error(`the rebuilt date path differs from the served one on ${differ.length} of ${reference.length} ranges`);
console.log(
  `Next-draw date ranges, origins ${FROM}–${TO}${KEEP_ALL ? '' : ', next draws after a dormancy pause left out'}; the rebuilt path gives the ` +
    `served range on all ${reference.length} as-of days. Mean over years of the yearly interval score (α = 0.10, days), ÷ served (paired 95% CI); per year: score, coverage, median width of active categories.`,
);
show('served', served, served);
const only = process.argv.slice(2);
for (const s of SETTINGS) if (only.length === 0 || only.some((o) => s.name.includes(o))) show(s.name, ranges(data, s), served);
