// Service D: the robustness study of the CRS and invitation interval rules on the wide tuning origins (2019–2024, per
// year). The served rule's half-width at a point is q_h × u: u the category's volatility (exponentially weighted
// |change|, shrunk toward the pooled median), q_h the split-conformal quantile of scaled errors of the established
// categories' served forecasts known then, at a level adapted online (adaptive conformal inference). This script
// recomputes that rule from the walk-forward with its knobs as parameters (the quantile's memory: a window or a
// recency half-life; the adaptive step; the volatility half-life; the invitation bound factor, the window of draws
// whose extremes make the bound and the draw that makes its upper end), checks that the served settings reproduce the
// half-widths and invitation ranges the rolling-origin benchmark served, and scores each setting by the mean over the
// years of the per-year interval score ÷ baseline, with per-year coverage, and paired against the served rule. The
// invitation bounds' settings are paired against the served rule without its one-off cap (BEFORE_CAP): the upper
// bound from the category's largest draw, the rule they were measured against.
// Every setting is scored on the same targets; Δ is its mean of per-year ratios minus the reference's (the rule served
// before the study), with a 95% bootstrap interval over forecast rounds (paired).
//   npx node bench/_draws-intervals.ts              (STUDY_ONLY=<name prefix>: only the settings so named)
import { dayNumber } from '../src/services/draws/feed/ircc-dates.ts';
import { ADAPTIVE_STEP, intervalQuantile } from '../src/services/draws/forecast/metrics.ts';
import {
  bootstrapInterval,
  bootstrapIntervals,
  panelOf,
  rollingOriginRecords,
  summarise,
} from '../src/services/draws/forecast/rolling-origin.ts';
import type { OriginRecord } from '../src/services/draws/forecast/rolling-origin.ts';
import { clamp } from '../src/services/draws/forecast/statistics.ts';
import {
  INTERVAL_DAYS,
  INVITATION_BOUND_FACTOR,
  ONE_OFF_RATIO,
  regimeStart,
  seriesValue,
  VOLATILITY_HALF_LIFE,
  walkForward,
} from '../src/services/draws/forecast/walk-forward.ts';
import { pooledVolatility, volatility } from '../src/services/draws/forecast/walk-forward.ts';
import type { PanelCategory, SeriesKind, WalkPoint } from '../src/services/draws/forecast/walk-forward.ts';
import { clearance } from '../src/services/draws/pages/clearance.ts';
import { snapshotCategories } from './_draws-snapshot.ts';

interface IntervalSettings {
  name: string;
  /** Errors whose target fell within this many days size the quantile, per kind (null: all; 730 served). */
  windowDays: Record<SeriesKind, number | null>;
  /** Recency half-life (days) of the errors' weights in a weighted conformal quantile; null: equal weights (served). */
  halfLifeDays: number | null;
  /** Adaptive conformal step γ per kind (served: CRS 0.0025, invitations 0). */
  step: Record<SeriesKind, number>;
  /** Volatility half-life in draws per kind (served 8). */
  volHalfLife: Record<SeriesKind, number>;
  /** Invitation bound factor (served e^0.35). */
  boundFactor: number;
  /**
   * The draws whose extremes bound the invitations: the category's last `draws` draws, or those of its last `days`
   * days, falling back to all its draws when the window holds fewer than `atLeast`; null: all its draws (served).
   */
  boundWindow: { draws: number | null; days: number | null; atLeast: number } | null;
  /**
   * The upper bound from the category's `rank`-th largest draw instead of its largest (the lower bound unchanged); with
   * `oneOffOnly`, only while its largest draw is more than ONE_OFF_RATIO times its 2nd-largest. null: the largest.
   * Served: the 2nd-largest for a one-off (upperBoundSize).
   */
  boundCap: { rank: number; oneOffOnly: boolean } | null;
  /** Weight of an error by how close its point's volatility state was to the test point's (see stateWeight); null: none. */
  stateBandwidth: number | null;
  /** Mondrian conformal classes by the draws of the forecast's regime (see classOf); null: one pooled class (served). */
  mondrianDraws: number | null;
}

/** The served rule (walk-forward.ts, metrics.ts, forecast-panel.ts). */
const SERVED: IntervalSettings = {
  name: 'served',
  windowDays: INTERVAL_DAYS,
  halfLifeDays: null,
  step: ADAPTIVE_STEP,
  volHalfLife: { crs: VOLATILITY_HALF_LIFE, invitations: VOLATILITY_HALF_LIFE },
  boundFactor: INVITATION_BOUND_FACTOR,
  boundWindow: null,
  boundCap: { rank: 2, oneOffOnly: true },
  stateBandwidth: null,
  mondrianDraws: null,
};
const PRIOR_CHANGES = 3;
const LEVEL = 0.95;
const LEVEL_RANGE = [0.8, 0.995] as const;
const FALLBACK = 4;
/** The served rule before the one-off cap: the upper invitation bound from the category's largest draw. */
const BEFORE_CAP: IntervalSettings = { ...SERVED, name: 'before the cap', boundCap: null };

/** Weighted split-conformal quantile (Barber et al. 2023): the smallest e with Σ_{e_i ≤ e} w_i ≥ level × (Σ w_i + 1). */
function weightedQuantile(errors: readonly { e: number; w: number }[], level: number): number {
  const total = errors.reduce((s, x) => s + x.w, 0) + 1;
  const sorted = [...errors].sort((a, b) => a.e - b.e);
  let cum = 0;
  for (const x of sorted) {
    cum += x.w;
    if (cum >= level * total - 1e-9) return x.e;
  }
  return Infinity;
}

interface Scored {
  p: WalkPoint;
  targetDay: number;
  error: number;
}

/** Each point's unit u under `settings`, and its volatility state (for the state-weighted quantile). */
function unitsOf(wf: ReturnType<typeof walkForward>, settings: IntervalSettings) {
  const panel = wf.categories;
  const pooledMemo = new Map<string, number>();
  const pooledVol = (kind: SeriesKind, day: number) => {
    const key = `${kind}|${day}`;
    if (!pooledMemo.has(key)) pooledMemo.set(key, pooledVolatility(kind, panel, day, settings.volHalfLife[kind]));
    return pooledMemo.get(key)!;
  };
  const unitMemo = new Map<WalkPoint, Record<SeriesKind, number>>();
  const unit = (p: WalkPoint, kind: SeriesKind) => {
    let u = unitMemo.get(p);
    if (!u) {
      const c: PanelCategory = panel[p.category];
      const start = regimeStart(c.draws, p.k);
      const of = (kind: SeriesKind) =>
        volatility(
          kind,
          c.draws.slice(start, p.k).map((d) => seriesValue(kind, d)),
          pooledVol(kind, p.day),
          PRIOR_CHANGES,
          settings.volHalfLife[kind],
        );
      u = { crs: of('crs'), invitations: of('invitations') };
      unitMemo.set(p, u);
    }
    return u[kind];
  };
  // A point's volatility state: the log of its unit ÷ the category's unweighted mean |change| since its last pause.
  const stateMemo = new Map<string, number>();
  const state = (p: WalkPoint, kind: SeriesKind) => {
    const key = `${p.category}|${p.k}|${kind}`;
    const known = stateMemo.get(key);
    if (known !== undefined) return known;
    const c = panel[p.category];
    const start = regimeStart(c.draws, p.k);
    const y = c.draws.slice(start, p.k).map((d) => seriesValue(kind, d));
    const long = volatility(kind, y, pooledVol(kind, p.day), PRIOR_CHANGES, 1e9);
    const value = Math.log(unit(p, kind) / long);
    stateMemo.set(key, value);
    return value;
  };
  return { unit, state };
}

/** The interval rule under `settings`, over one walk-forward. */
function intervalRule(wf: ReturnType<typeof walkForward>, settings: IntervalSettings) {
  const { unit, state } = unitsOf(wf, settings);
  const scored: Record<SeriesKind, Scored[][]> = { crs: [], invitations: [] };
  for (const kind of ['crs', 'invitations'] as const)
    for (let h = 1; h <= 5; h++)
      scored[kind][h - 1] = wf.points
        .filter((p) => !p.young && h <= p.servableHorizons && p.targets[h - 1] !== null)
        .map((p) => ({
          p,
          targetDay: p.targets[h - 1]!.day,
          error: Math.abs(seriesValue(kind, p.targets[h - 1]!) - p.series[kind].served[h - 1]),
        }))
        .sort((a, b) => a.targetDay - b.targetDay);
  const qMemo = new Map<string, number>();
  const levelMemo = new Map<string, number>();
  const level = (kind: SeriesKind, h: number, day: number): number => {
    if (settings.step[kind] === 0) return LEVEL;
    const key = `${kind}|${h}|${day}`;
    if (!levelMemo.has(key)) {
      let alpha = 1 - LEVEL;
      for (const s of scored[kind][h - 1]) {
        if (s.targetDay > day) break;
        if (s.p.day >= day) continue;
        const miss = s.error > half(s.p, kind, h, s.p.day);
        alpha += settings.step[kind] * (1 - LEVEL - (miss ? 1 : 0));
      }
      levelMemo.set(key, Math.min(LEVEL_RANGE[1], Math.max(LEVEL_RANGE[0], 1 - alpha)));
    }
    return levelMemo.get(key)!;
  };
  // Mondrian classes: forecasts made early in a category's regime (fewer than `mondrianDraws` draws since its last pause)
  // and the rest; -1 when the setting is off.
  const classOf = (p: WalkPoint) =>
    settings.mondrianDraws === null ? -1 : p.k - regimeStart(wf.categories[p.category].draws, p.k) < settings.mondrianDraws ? 0 : 1;
  const quantile = (kind: SeriesKind, h: number, day: number, at: WalkPoint | null): number => {
    const weighted = settings.stateBandwidth !== null && at !== null;
    const cls = at === null ? -1 : classOf(at);
    const key = `${kind}|${h}|${day}|${cls}`;
    if (!weighted && qMemo.has(key)) return qMemo.get(key)!;
    const lv = level(kind, h, day);
    let q = Infinity;
    // Within the forecast's class first; the pooled errors when the class has too few.
    for (const inClass of cls === -1 ? [false] : [true, false])
      for (const window of [settings.windowDays[kind], null]) {
        if (Number.isFinite(q)) break;
        const known = scored[kind][h - 1].filter(
          (s) => s.targetDay <= day && (window === null || s.targetDay > day - window) && (!inClass || classOf(s.p) === cls),
        );
        const errors = known.map((s) => {
          let w = settings.halfLifeDays === null ? 1 : 0.5 ** ((day - s.targetDay) / settings.halfLifeDays);
          if (weighted) w *= Math.exp(-0.5 * ((state(s.p, kind) - state(at, kind)) / settings.stateBandwidth!) ** 2);
          return { e: s.error / unit(s.p, kind), w };
        });
        q = weightedQuantile(errors, lv);
      }
    if (!Number.isFinite(q)) q = FALLBACK;
    if (!weighted) qMemo.set(key, q);
    return q;
  };
  const halfMemo = new Map<string, number>();
  function half(p: WalkPoint, kind: SeriesKind, h: number, day: number): number {
    const key = `${p.category}|${p.k}|${kind}|${h}|${day}`;
    if (!halfMemo.has(key)) {
      let value = 0;
      for (let j = 1; j <= h; j++)
        value = Math.max(
          value,
          p.young
            ? Math.max(intervalQuantile(wf.points, kind, j, day, true).q, quantile(kind, j, day, null) * p.series[kind].scale)
            : quantile(kind, j, day, p) * unit(p, kind),
        );
      halfMemo.set(key, value);
    }
    return halfMemo.get(key)!;
  }
  // Warm the levels in day order (each depends on the half-widths served before it).
  const warm = () => {
    for (const kind of ['crs', 'invitations'] as const)
      if (settings.step[kind] !== 0) for (const p of wf.points) if (!p.young) for (let h = 1; h <= 5; h++) half(p, kind, h, p.day);
  };
  return { half, warm };
}

/** The records with their served ranges replaced by those of `settings`; how many differ from the served (CRS half-width, invitation range). */
function reRange(
  records: readonly OriginRecord[],
  wf: ReturnType<typeof walkForward>,
  settings: IntervalSettings,
): { records: OriginRecord[]; differ: number } {
  const rule = intervalRule(wf, settings);
  rule.warm();
  const slugIndex = new Map(wf.categories.map((c, i) => [c.slug, i]));
  let differ = 0;
  const out = records.map((r) => {
    if (r.served === null) return r;
    const ci = slugIndex.get(r.category)!;
    const day = dayNumber(r.asOf);
    const p = wf.byCategory[ci].filter((x) => x.day === day).at(-1)!;
    const crs = clamp(p.series.crs.served[r.h - 1], 0, 1200);
    const crsHalf = rule.half(p, 'crs', r.h, day);
    const logInv = p.series.invitations.served[r.h - 1];
    const invHalf = rule.half(p, 'invitations', r.h, day);
    const invitations = Math.max(1, Math.round(Math.exp(logInv)));
    const c = wf.categories[ci];
    const sizes = (
      p.young
        ? wf.categories.flatMap((x) => x.draws.filter((d) => d.day <= day && d.day > day - 730))
        : boundDraws(
            c.draws.filter((d) => d.day <= day),
            day,
            settings,
          )
    ).map((d) => d.invitations);
    const drawn = {
      min: Math.max(1, Math.floor(Math.min(...sizes) / settings.boundFactor)),
      max: Math.ceil((p.young ? Math.max(...sizes) : boundLargest(sizes, settings)) * settings.boundFactor),
    };
    const invitationsRange: [number, number] = [
      Math.min(invitations, Math.max(drawn.min, Math.floor(Math.exp(logInv - invHalf)))),
      Math.max(invitations, Math.min(drawn.max, Math.ceil(Math.exp(logInv + invHalf)))),
    ];
    if (
      Math.abs(Math.round(crsHalf * 10) / 10 - r.served.crsHalfWidth) > 0.051 ||
      invitationsRange[0] !== r.served.invitationsRange[0] ||
      invitationsRange[1] !== r.served.invitationsRange[1]
    )
      differ++;
    return {
      ...r,
      served: {
        ...r.served,
        crsRange: [Math.floor(clamp(crs - crsHalf, 0, 1200) * 10) / 10, Math.ceil(clamp(crs + crsHalf, 0, 1200) * 10) / 10] as [
          number,
          number,
        ],
        crsHalfWidth: Math.round(crsHalf * 10) / 10,
        invitationsRange,
      },
    };
  });
  return { records: out, differ };
}

/** The category's draws (up to the origin) whose extremes bound its invitation range under `settings`. */
function boundDraws<T extends { day: number }>(draws: readonly T[], day: number, settings: IntervalSettings): readonly T[] {
  const w = settings.boundWindow;
  if (w === null) return draws;
  const inWindow = draws.filter((d, i) => (w.draws === null || i >= draws.length - w.draws) && (w.days === null || d.day > day - w.days));
  return inWindow.length >= w.atLeast ? inWindow : draws;
}

/** The size the upper invitation bound is made from: the largest of `sizes`, or a lower one under `settings.boundCap`. */
function boundLargest(sizes: readonly number[], settings: IntervalSettings): number {
  const desc = [...sizes].sort((a, b) => b - a);
  const cap = settings.boundCap;
  if (cap === null || desc.length < cap.rank) return desc[0];
  if (cap.oneOffOnly && !(desc[0] > ONE_OFF_RATIO * desc[1])) return desc[0];
  return desc[cap.rank - 1];
}

const law = (score: number, point: number, margin: number) => clearance(score, { point, margin }).atOrBelow;
const years = (rs: readonly OriginRecord[]) => [...new Set(rs.map((r) => r.asOf.slice(0, 4)))].sort();
const ratioOf = (kind: 'crs' | 'invitations', rs: readonly OriginRecord[]) => {
  const s = summarise(rs, law)[kind];
  return s.winkler === null || s.baselineWinkler === null || s.baselineWinkler === 0 ? null : s.winkler / s.baselineWinkler;
};
const meanOfYears = (kind: 'crs' | 'invitations', rs: readonly OriginRecord[], ys: readonly string[]) => {
  let sum = 0;
  for (const y of ys) {
    const v = ratioOf(
      kind,
      rs.filter((r) => r.asOf.startsWith(y)),
    );
    if (v === null) return null;
    sum += v;
  }
  return sum / ys.length;
};

function report(name: string, base: readonly OriginRecord[], variant: readonly OriginRecord[], ys: readonly string[]): void {
  const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}`);
  for (const kind of ['crs', 'invitations'] as const) {
    const per = ys.map((y) => {
      const rs = variant.filter((r) => r.asOf.startsWith(y));
      return `${f3(ratioOf(kind, rs))}/${pct(summarise(rs, law)[kind].coverage)}`;
    });
    const pairs = variant.map((r, i) => ({ asOf: r.asOf, v: r, b: base[i] }));
    const diff = (ps: readonly (typeof pairs)[number][]) => {
      const a = meanOfYears(
        kind,
        ps.map((x) => x.v),
        ys,
      );
      const b = meanOfYears(
        kind,
        ps.map((x) => x.b),
        ys,
      );
      return a === null || b === null ? null : a - b;
    };
    const ci = bootstrapInterval(pairs, diff, 500);
    const pooled = ratioOf(kind, variant);
    console.log(
      `${name.padEnd(34)} ${kind === 'crs' ? 'CRS' : 'INV'} mean ${f3(meanOfYears(kind, variant, ys))} Δ ${f3(diff(pairs))} (${ci ? `${f3(ci[0])}…${f3(ci[1])}` : '—'}) pooled ${f3(pooled)} cov ${pct(summarise(variant, law)[kind].coverage)} | ${per.join(' ')}`,
    );
  }
}

/**
 * The settings of the study, each a change from the rule served before it (a two-year memory for both series); the
 * first is that rule itself, the reference of every Δ. The served rule (SERVED) is the one these figures chose.
 */
const STUDY: (Partial<Omit<IntervalSettings, 'step' | 'windowDays' | 'volHalfLife'>> & {
  name: string;
  step?: Partial<IntervalSettings['step']>;
  windowDays?: Partial<IntervalSettings['windowDays']>;
  volHalfLife?: Partial<IntervalSettings['volHalfLife']>;
})[] = [
  { name: 'before: 730 days for both', windowDays: { crs: 730, invitations: 730 } },
  { name: 'window 180 days', windowDays: { crs: 180, invitations: 180 } },
  { name: 'window 365 days', windowDays: { crs: 365, invitations: 365 } },
  { name: 'window 1095 days', windowDays: { crs: 1095, invitations: 1095 } },
  { name: 'window 1460 days', windowDays: { crs: 1460, invitations: 1460 } },
  { name: 'window: all errors', windowDays: { crs: null, invitations: null } },
  { name: 'recency half-life 365 days', windowDays: { crs: null, invitations: null }, halfLifeDays: 365 },
  { name: 'recency half-life 180 days', windowDays: { crs: null, invitations: null }, halfLifeDays: 180 },
  { name: 'step 0 (fixed level)', step: { crs: 0 } },
  { name: 'step 0.005 both', step: { crs: 0.005, invitations: 0.005 } },
  { name: 'step 0.01 both', step: { crs: 0.01, invitations: 0.01 } },
  { name: 'invitations step 0.0025', step: { invitations: 0.0025 } },
  { name: 'volatility half-life 4', volHalfLife: { crs: 4, invitations: 4 } },
  { name: 'volatility half-life 12', volHalfLife: { crs: 12, invitations: 12 } },
  { name: 'bound e^0.25', boundFactor: Math.exp(0.25) },
  { name: 'bound e^0.5', boundFactor: Math.exp(0.5) },
  { name: 'volatility-state weights, b = 0.5', stateBandwidth: 0.5 },
  { name: 'inv. 365 days + inv. half-life 4', windowDays: { invitations: 365 }, volHalfLife: { invitations: 4 } },
  { name: 'Mondrian: regime < 12 draws apart', mondrianDraws: 12 },
  { name: 'Mondrian: regime < 24 draws apart', mondrianDraws: 24 },
];
// The rule before the memory study had no one-off cap either (it came later).
const PREVIOUS = { windowDays: { crs: 730, invitations: 730 }, boundCap: null };

const categories = snapshotCategories();
const records = rollingOriginRecords(categories, '2019-01-01').filter((r) => r.asOf <= '2024-12-31');
const wf = walkForward(panelOf(categories));
const ys = years(records);
const compared = records.filter((r) => r.baseline !== null && r.served !== null).length;
console.log(
  `${records.length} targets, ${compared} compared, origins of ${ys.join(' ')}; per year: interval score ÷ baseline / coverage %`,
);
const served = reRange(records, wf, SERVED);
if (served.differ > 0) throw new Error(`the served rule recomputed differs from the served half-widths at ${served.differ} targets`);
const settingsOf = (v: (typeof STUDY)[number]): IntervalSettings => ({
  ...SERVED,
  ...PREVIOUS,
  ...v,
  step: { ...SERVED.step, ...v.step },
  windowDays: { ...SERVED.windowDays, ...PREVIOUS.windowDays, ...v.windowDays },
  volHalfLife: { ...SERVED.volHalfLife, ...v.volHalfLife },
});
const reference = reRange(records, wf, settingsOf(STUDY[0])).records;
report('served (CRS 1095, inv. 365, one-off cap)', reference, served.records, ys);
for (const v of STUDY.filter((x) => process.env.STUDY_ONLY === undefined || x.name.startsWith(process.env.STUDY_ONLY)))
  report(v.name, reference, reRange(records, wf, settingsOf(v)).records, ys);

/**
 * Invitation bounds from a recent window of the category's draws instead of all of them (the bound factor and every
 * other knob served), against the served rule: the mean of per-year ratios on 2019–2024 with its paired Δ, then on the
 * 2023–24 origins the pooled invitation interval score ÷ baseline, the paired difference of the two ratios and the
 * coverage with 95% bootstrap intervals over forecast rounds, and the coverage and ratio per category.
 */
const BOUNDS: {
  name: string;
  boundWindow?: IntervalSettings['boundWindow'];
  boundCap?: IntervalSettings['boundCap'];
  boundFactor?: number;
}[] = [
  { name: 'bound window: last 12 draws', boundWindow: { draws: 12, days: null, atLeast: 1 } },
  { name: 'bound window: last 24 draws', boundWindow: { draws: 24, days: null, atLeast: 1 } },
  { name: 'bound window: last 48 draws', boundWindow: { draws: 48, days: null, atLeast: 1 } },
  { name: 'bound window: 365 days (≥ 6)', boundWindow: { draws: null, days: 365, atLeast: 6 } },
  { name: 'bound window: 730 days (≥ 6)', boundWindow: { draws: null, days: 730, atLeast: 6 } },
  { name: 'bound window: 1095 days (≥ 6)', boundWindow: { draws: null, days: 1095, atLeast: 6 } },
  { name: 'bound window: last 24 draws ×÷ e^0.7', boundWindow: { draws: 24, days: null, atLeast: 1 }, boundFactor: Math.exp(0.7) },
  { name: 'bound window: 730 days ×÷ e^0.7', boundWindow: { draws: null, days: 730, atLeast: 6 }, boundFactor: Math.exp(0.7) },
  // Only the upper bound from a robust extreme, so that one outsized draw (CEC's 27,332 of February 2021) stops
  // bounding the category for good while the lower bound and every other knob stay served.
  { name: 'bound cap: 2nd-largest', boundCap: { rank: 2, oneOffOnly: false } },
  { name: 'bound cap: 3rd-largest', boundCap: { rank: 3, oneOffOnly: false } },
  { name: 'bound cap: 2nd-largest if one-off (served)', boundCap: { rank: 2, oneOffOnly: true } },
  { name: 'bound cap: 3rd-largest if one-off', boundCap: { rank: 3, oneOffOnly: true } },
];

function recentDetail(name: string, base: readonly OriginRecord[], variant: readonly OriginRecord[], from = '2023-01-01'): void {
  const recent = (rs: readonly OriginRecord[]) => rs.filter((r) => r.asOf >= from);
  const pairs = variant.map((r, i) => ({ asOf: r.asOf, v: r, b: base[i] })).filter((x) => x.asOf >= from);
  const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
  const ci = (x: [number, number] | null, f: (v: number) => string) => (x === null ? '—' : `${f(x[0])}–${f(x[1])}`);
  const cov = (rs: readonly OriginRecord[]) => summarise(rs, law).invitations.coverage;
  const [ratioCi, diffCi, covCi] = bootstrapIntervals(
    pairs,
    [
      (ps) =>
        ratioOf(
          'invitations',
          ps.map((x) => x.v),
        ),
      (ps) => {
        const a = ratioOf(
          'invitations',
          ps.map((x) => x.v),
        );
        const b = ratioOf(
          'invitations',
          ps.map((x) => x.b),
        );
        return a === null || b === null ? null : a - b;
      },
      (ps) => cov(ps.map((x) => x.v)),
    ],
    500,
  );
  const a = ratioOf('invitations', recent(variant));
  const b = ratioOf('invitations', recent(base));
  const perCategory = [...new Set(recent(variant).map((r) => r.category))].map((c) => {
    const rs = recent(variant).filter((r) => r.category === c && r.served !== null && r.baseline !== null);
    return `${c} ${rs.length}: ${f3(ratioOf('invitations', rs))}/${pct(cov(rs))}`;
  });
  console.log(
    `${name.padEnd(34)} ${from.slice(0, 4)}–24 INV ratio ${f3(a)} (${ci(ratioCi, f3)}) Δ ${a === null || b === null ? '—' : f3(a - b)} (${ci(diffCi, f3)}) cov ${pct(cov(recent(variant)))} (${ci(covCi, pct)}) | ${perCategory.join('; ')}`,
  );
}

// A group's prefix ('bound window', 'bound cap') runs the detail of the rule before the cap and that group's settings,
// each paired against it (its ranges the input of reRange, so `differ` counts the ranges a setting changes).
const only = process.env.STUDY_ONLY;
const wanted = (x: (typeof BOUNDS)[number]) => only === undefined || x.name.startsWith(only);
if (BOUNDS.some((x) => wanted(x) || only!.startsWith(x.name.split(':')[0]))) {
  // Pooled over 2019–24 as well as 2023–24: the coverage of both periods, pooled and per category.
  const beforeCap = reRange(records, wf, BEFORE_CAP).records;
  recentDetail('before the cap (largest draw)', beforeCap, beforeCap, '2019-01-01');
  recentDetail('before the cap (largest draw)', beforeCap, beforeCap);
  for (const v of BOUNDS.filter(wanted)) {
    const { records: variant, differ } = reRange(beforeCap, wf, { ...BEFORE_CAP, ...v });
    report(v.name, beforeCap, variant, ys);
    recentDetail(v.name, beforeCap, variant, '2019-01-01');
    recentDetail(v.name, beforeCap, variant);
    // How many compared targets the variant's range changes, and how many of them it turns from held to missed.
    const held = (r: OriginRecord) =>
      r.actual.invitations >= r.served!.invitationsRange[0] && r.actual.invitations <= r.served!.invitationsRange[1];
    const lost = (from: string) =>
      variant.filter((r, i) => r.asOf >= from && r.served !== null && r.baseline !== null && held(beforeCap[i]) && !held(r)).length;
    console.log(
      `${v.name.padEnd(34)} ranges changed ${differ} of ${records.length}; held → missed 2019–24 ${lost('2019-01-01')}, 2023–24 ${lost('2023-01-01')}`,
    );
  }
}
