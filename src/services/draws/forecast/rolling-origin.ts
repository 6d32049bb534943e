// The rolling-origin benchmark: every draw of a category from `from` on is an origin; right after it (as of its
// day) the served forecasts are made by the served pipeline itself (forecastPanel) on what was known then only, and
// compared with the category's next five draws. Beside them: naive (the last value), the window mean (of the last
// six) and the interval baseline (the last value ± the 95% quantile of the category's last 24 absolute changes).
// Scored: MAE, the Winkler interval score (α = 0.05), coverage and widths of the 95% intervals of CRS and of
// invitations (on the log scale, where their changes are of comparable size), coverage and width of 90% date
// intervals, and the Brier score of "my score" probabilities against the category's historical share of draws at
// or below the score. Framework-free: bench/draws.ts prints it, the tests check it on small panels.
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { Random } from '../../../core/random.ts';
import { forecastPanel } from './forecast-panel.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';
import { WINDOW } from './members.ts';
import { mean, median, quantile } from './statistics.ts';
import { walkForward } from './walk-forward.ts';
import type { PanelCategory } from './walk-forward.ts';

export const BENCHMARK_HORIZONS = 5;
/** The interval baseline: the last value ± this quantile of the category's last BASELINE_CHANGES absolute changes. */
const BASELINE_CHANGES = 24;
const BASELINE_QUANTILE = 0.95;
/** α of the Winkler score: the intervals scored are 95% intervals. */
const WINKLER_ALPHA = 0.05;
/** A category is active at an origin with at least two draw days in this many days up to it. */
export const ACTIVE_DAYS = 90;
/** "My score" statements per origin: at the deciles of the category's last BASELINE_CHANGES cut-offs. */
const SCORE_DECILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9] as const;

export interface OriginRecord {
  category: string;
  /** The origin: the day of a draw of the category; the forecasts know every draw up to it, included. */
  asOf: string;
  h: number;
  actual: { date: string; crs: number; invitations: number };
  naive: { crs: number; invitations: number };
  windowMean: { crs: number; invitations: number };
  /** Half-widths of the baseline intervals (CRS points; log invitations); null with fewer than two draws. */
  baseline: { crsHalf: number; logInvitationsHalf: number } | null;
  /** At least two draw days in the ACTIVE_DAYS up to the origin. */
  active: boolean;
  /** "My score" statements: a score and the category's share of draws at or below it up to the origin. */
  scores: { score: number; reference: number }[];
  /** Null when nothing was served (a rank beyond a year, or no forecast for the category). */
  served: {
    crs: number;
    invitations: number;
    crsRange: [number, number];
    crsHalfWidth: number;
    invitationsRange: [number, number];
    dateRange: [string, string];
    /** The next draw's likely window and its stated probability (null for later ranks). */
    likely: LikelyStatement | null;
    model: string;
  } | null;
}

/**
 * A likely window as served (its days and stated probability) and `reference`: the share of the windows known at its
 * origin that held their draw (PanelForecast.likelyWindows.baseRate), the forecast a stated probability must beat.
 */
export interface LikelyStatement {
  range: [string, string];
  probability: number;
  reference: number | null;
  /** The date law's own mass in the window (CategoryForecast.likelyMass), the probability before calibration. */
  mass: number | null;
}

/** Each category's draws in date order (ties by round), as day numbers: what the walk-forward reads. */
export function panelOf(categories: readonly CategoryDrawsInput[]): PanelCategory[] {
  return categories.map((c) => ({
    id: c.id,
    slug: c.slug,
    draws: [...c.draws]
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || (a.roundSortKey ?? 0) - (b.roundSortKey ?? 0))
      .map((d) => ({ day: dayNumber(d.date), crs: d.crs, invitations: d.invitations })),
  }));
}

/** One record per (origin, horizon); see the file comment. */
export function rollingOriginRecords(
  categories: readonly CategoryDrawsInput[],
  from: string,
  onOrigin?: (done: number, total: number) => void,
): OriginRecord[] {
  const panel = panelOf(categories);
  // The walk-forward of all the data, truncated to each origin by forecastPanel: the same as recomputing it
  // from the draws known then (every point uses only what was known when it was made), without the cost.
  const walk = walkForward(panel);
  const byDay = new Map<number, string[]>();
  for (const c of panel) {
    for (const day of new Set(c.draws.map((d) => d.day))) if (day >= dayNumber(from)) byDay.set(day, [...(byDay.get(day) ?? []), c.slug]);
  }
  const records: OriginRecord[] = [];
  let done = 0;
  for (const [day, slugs] of [...byDay.entries()].sort((a, b) => a[0] - b[0])) {
    const asOf = isoFromDayNumber(day);
    const forecast = forecastPanel(categories, asOf, { report: false, walk, horizons: BENCHMARK_HORIZONS });
    for (const slug of slugs) {
      const c = panel.find((x) => x.slug === slug)!;
      const before = c.draws.filter((d) => d.day <= day);
      const after = c.draws.filter((d) => d.day > day);
      const last = before[before.length - 1];
      const recent = before.slice(-WINDOW);
      const changes = (value: (d: (typeof before)[number]) => number) =>
        before.slice(-BASELINE_CHANGES - 1).flatMap((d, i, xs) => (i === 0 ? [] : [Math.abs(value(d) - value(xs[i - 1]))]));
      const crsChanges = changes((d) => d.crs);
      const baseline =
        crsChanges.length > 0
          ? {
              crsHalf: quantile(crsChanges, BASELINE_QUANTILE),
              logInvitationsHalf: quantile(
                changes((d) => Math.log(d.invitations)),
                BASELINE_QUANTILE,
              ),
            }
          : null;
      const history = before.map((d) => d.crs);
      const recentCutoffs = history.slice(-BASELINE_CHANGES);
      const scores = [...new Set(SCORE_DECILES.map((p) => Math.round(quantile(recentCutoffs, p))))].map((score) => ({
        score,
        reference: history.filter((x) => x <= score).length / history.length,
      }));
      const active = new Set(before.filter((d) => d.day > day - ACTIVE_DAYS).map((d) => d.day)).size >= 2;
      const predictions = forecast.categories.find((x) => x.slug === slug)!.predictions;
      for (let h = 1; h <= BENCHMARK_HORIZONS && h <= after.length; h++) {
        const actual = after[h - 1];
        const p = predictions.find((x) => x.rank === h);
        records.push({
          category: slug,
          asOf,
          h,
          actual: { date: isoFromDayNumber(actual.day), crs: actual.crs, invitations: actual.invitations },
          naive: { crs: last.crs, invitations: last.invitations },
          windowMean: { crs: mean(recent.map((d) => d.crs)), invitations: mean(recent.map((d) => d.invitations)) },
          baseline,
          active,
          scores,
          served: p
            ? {
                crs: p.predicted_crs_score,
                invitations: p.predicted_invitations,
                crsRange: [p.uncertainty_range.min, p.uncertainty_range.max],
                crsHalfWidth: p.uncertainty_range.margin_of_error,
                invitationsRange: [p.invitations_range!.min, p.invitations_range!.max],
                dateRange: [p.date_range.earliest, p.date_range.latest],
                likely: p.likely_window && {
                  range: [p.likely_window.earliest, p.likely_window.latest],
                  probability: p.likely_window.probability,
                  reference: forecast.likelyWindows.all.baseRate,
                  mass: forecast.categories.find((x) => x.slug === slug)!.likelyMass,
                },
                model: p.model_used,
              }
            : null,
        });
      }
    }
    onOrigin?.(++done, byDay.size);
  }
  return records;
}

/** Winkler interval score of [lo, hi] for y at level 1 − α: width plus 2/α times the miss. */
export function winkler(lo: number, hi: number, y: number, alpha = WINKLER_ALPHA): number {
  return hi - lo + (y < lo ? (2 / alpha) * (lo - y) : 0) + (y > hi ? (2 / alpha) * (y - hi) : 0);
}

/** P(cut-off ≤ score) as "my score" states it for a served forecast (point, 95% margin). */
export type ScoreLaw = (score: number, point: number, margin: number) => number;

export interface BenchmarkSummary {
  /** Targets, and of which a forecast was served and a baseline existed (every figure is on those). */
  n: number;
  compared: number;
  crs: {
    mae: number | null;
    naiveMae: number | null;
    winkler: number | null;
    baselineWinkler: number | null;
    coverage: number | null;
    baselineCoverage: number | null;
    medianHalfWidth: number | null;
    /** Mean width of the served and of the baseline intervals: an interval score is its mean width plus its mean miss penalty. */
    meanWidth: number | null;
    baselineMeanWidth: number | null;
  };
  /** On log(invitations): MAE of the log, interval score of the log interval. */
  invitations: {
    mae: number | null;
    naiveMae: number | null;
    winkler: number | null;
    baselineWinkler: number | null;
    coverage: number | null;
    baselineCoverage: number | null;
    /** The median interval is the forecast ×÷ this factor. */
    medianFactor: number | null;
    /** Mean widths on the log scale, served and baseline (see crs.meanWidth). */
    meanWidth: number | null;
    baselineMeanWidth: number | null;
  };
  /** 90% date intervals: coverage over every compared target; median width (days) of those of active categories. */
  dates: { n: number; coverage: number | null; activeN: number; medianWidthActive: number | null };
  /** Brier score of the "my score" statements and of the historical share; skill = 1 − brier / reference. */
  score: { n: number; brier: number | null; reference: number | null; skill: number | null };
}

export function summarise(records: readonly OriginRecord[], law: ScoreLaw): BenchmarkSummary {
  const rs = records.filter((r) => r.served !== null && r.baseline !== null);
  const m = (xs: number[]) => (xs.length > 0 ? mean(xs) : null);
  const md = (xs: number[]) => (xs.length > 0 ? median(xs) : null);
  const share = (xs: boolean[]) => (xs.length > 0 ? xs.filter(Boolean).length / xs.length : null);
  const logInv = (r: OriginRecord) => Math.log(r.actual.invitations);
  const dated = rs;
  const activeDated = dated.filter((r) => r.active);
  let brier = 0;
  let reference = 0;
  let statements = 0;
  for (const r of rs) {
    for (const s of r.scores) {
      const happened = r.actual.crs <= s.score ? 1 : 0;
      brier += (law(s.score, r.served!.crs, r.served!.crsHalfWidth) - happened) ** 2;
      reference += (s.reference - happened) ** 2;
      statements++;
    }
  }
  return {
    n: records.length,
    compared: rs.length,
    crs: {
      mae: m(rs.map((r) => Math.abs(r.actual.crs - r.served!.crs))),
      naiveMae: m(rs.map((r) => Math.abs(r.actual.crs - r.naive.crs))),
      winkler: m(rs.map((r) => winkler(r.served!.crsRange[0], r.served!.crsRange[1], r.actual.crs))),
      baselineWinkler: m(rs.map((r) => winkler(r.naive.crs - r.baseline!.crsHalf, r.naive.crs + r.baseline!.crsHalf, r.actual.crs))),
      coverage: share(rs.map((r) => r.actual.crs >= r.served!.crsRange[0] && r.actual.crs <= r.served!.crsRange[1])),
      baselineCoverage: share(rs.map((r) => Math.abs(r.actual.crs - r.naive.crs) <= r.baseline!.crsHalf)),
      medianHalfWidth: md(rs.map((r) => r.served!.crsHalfWidth)),
      meanWidth: m(rs.map((r) => r.served!.crsRange[1] - r.served!.crsRange[0])),
      baselineMeanWidth: m(rs.map((r) => 2 * r.baseline!.crsHalf)),
    },
    invitations: {
      mae: m(rs.map((r) => Math.abs(logInv(r) - Math.log(r.served!.invitations)))),
      naiveMae: m(rs.map((r) => Math.abs(logInv(r) - Math.log(r.naive.invitations)))),
      winkler: m(rs.map((r) => winkler(Math.log(r.served!.invitationsRange[0]), Math.log(r.served!.invitationsRange[1]), logInv(r)))),
      baselineWinkler: m(
        rs.map((r) => {
          const last = Math.log(r.naive.invitations);
          return winkler(last - r.baseline!.logInvitationsHalf, last + r.baseline!.logInvitationsHalf, logInv(r));
        }),
      ),
      coverage: share(
        rs.map((r) => r.actual.invitations >= r.served!.invitationsRange[0] && r.actual.invitations <= r.served!.invitationsRange[1]),
      ),
      baselineCoverage: share(rs.map((r) => Math.abs(logInv(r) - Math.log(r.naive.invitations)) <= r.baseline!.logInvitationsHalf)),
      medianFactor: md(rs.map((r) => Math.sqrt(r.served!.invitationsRange[1] / r.served!.invitationsRange[0]))),
      meanWidth: m(rs.map((r) => Math.log(r.served!.invitationsRange[1] / r.served!.invitationsRange[0]))),
      baselineMeanWidth: m(rs.map((r) => 2 * r.baseline!.logInvitationsHalf)),
    },
    dates: {
      n: dated.length,
      coverage: share(dated.map((r) => r.actual.date >= r.served!.dateRange[0] && r.actual.date <= r.served!.dateRange[1])),
      activeN: activeDated.length,
      medianWidthActive: md(activeDated.map((r) => dayNumber(r.served!.dateRange[1]) - dayNumber(r.served!.dateRange[0]))),
    },
    score: {
      n: statements,
      brier: statements > 0 ? brier / statements : null,
      reference: statements > 0 ? reference / statements : null,
      skill: statements > 0 && reference > 0 ? 1 - brier / reference : null,
    },
  };
}

export interface ReliabilityBin {
  /** The bin holds statements whose stated probability p has from ≤ p < to (the last bin includes 1). */
  from: number;
  to: number;
  n: number;
  /** Mean stated probability of the bin's statements. */
  stated: number | null;
  /** Share of them that came true (the cut-off was at or below the score). */
  observed: number | null;
}

/**
 * The reliability table of the "my score" statements of the records: statements grouped by stated probability into
 * `bins` equal bins, each with its mean stated probability beside the share that came true. Calibrated statements
 * have the two close in every well-filled bin.
 */
export function reliability(records: readonly OriginRecord[], law: ScoreLaw, bins = 10): ReliabilityBin[] {
  const table = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, n: 0, sum: 0, hits: 0 }));
  for (const r of records) {
    if (r.served === null || r.baseline === null) continue;
    for (const s of r.scores) {
      const p = law(s.score, r.served.crs, r.served.crsHalfWidth);
      const bin = table[Math.min(bins - 1, Math.floor(p * bins))];
      bin.n++;
      bin.sum += p;
      if (r.actual.crs <= s.score) bin.hits++;
    }
  }
  return table.map((b) => ({
    from: b.from,
    to: b.to,
    n: b.n,
    stated: b.n > 0 ? b.sum / b.n : null,
    observed: b.n > 0 ? b.hits / b.n : null,
  }));
}

/**
 * A 95% percentile bootstrap interval of a figure of the records, resampling forecast rounds (origin days) with
 * replacement: the targets of one round share its errors, so they are drawn together. Deterministic (fixed seed).
 */
export function bootstrapInterval<T extends Pick<OriginRecord, 'asOf'>>(
  records: readonly T[],
  figure: (rs: readonly T[]) => number | null,
  replicates = 1000,
  seed = 1,
): [number, number] | null {
  return bootstrapIntervals(records, [figure], replicates, seed)[0];
}

/** bootstrapInterval of several figures of the same resamples (one pass: a summary computed once serves them all). */
export function bootstrapIntervals<T extends Pick<OriginRecord, 'asOf'>>(
  records: readonly T[],
  figures: readonly ((rs: readonly T[]) => number | null)[],
  replicates = 1000,
  seed = 1,
): ([number, number] | null)[] {
  const rounds = new Map<string, T[]>();
  for (const r of records) rounds.set(r.asOf, [...(rounds.get(r.asOf) ?? []), r]);
  const groups = [...rounds.values()];
  if (groups.length < 2) return figures.map(() => null);
  const rng = new Random(seed);
  const values: number[][] = figures.map(() => []);
  for (let b = 0; b < replicates; b++) {
    const sample: T[] = [];
    for (let i = 0; i < groups.length; i++) sample.push(...groups[rng.int(0, groups.length - 1)]);
    figures.forEach((figure, i) => {
      const v = figure(sample);
      if (v !== null && Number.isFinite(v)) values[i].push(v);
    });
  }
  return values.map((vs) => (vs.length === 0 ? null : [quantile(vs, 0.025), quantile(vs, 0.975)]));
}

export interface TargetCheck {
  target: string;
  met: boolean | null;
  figure: string;
}

const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The targets against the summaries of one period: pooled, and per category. */
export function checkTargets(
  pooled: BenchmarkSummary,
  byCategory: ReadonlyMap<string, BenchmarkSummary>,
  /** The pooled summary of the next draws (h = 1): the date targets are about them. */
  next: BenchmarkSummary = pooled,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const check = (target: string, value: number | null, ok: (v: number) => boolean, show: (v: number) => string) =>
    checks.push({ target, met: value === null ? null : ok(value), figure: value === null ? '—' : show(value) });
  const x = (v: number) => `${v.toFixed(3)} ×`;
  check('pooled CRS interval score ≤ 0.8 × baseline', ratio(pooled.crs.winkler, pooled.crs.baselineWinkler), (v) => v <= 0.8, x);
  check(
    'pooled invitations interval score ≤ 0.8 × baseline',
    ratio(pooled.invitations.winkler, pooled.invitations.baselineWinkler),
    (v) => v <= 0.8,
    x,
  );
  check('pooled CRS 95% coverage in [90%, 97%]', pooled.crs.coverage, (v) => v >= 0.9 && v <= 0.97, pct);
  check('pooled invitations 95% coverage in [90%, 97%]', pooled.invitations.coverage, (v) => v >= 0.9 && v <= 0.97, pct);
  check('pooled CRS MAE ≤ naive', ratio(pooled.crs.mae, pooled.crs.naiveMae), (v) => v <= 1, x);
  check('next draw: 90% date interval coverage in [85%, 95%]', next.dates.coverage, (v) => v >= 0.85 && v <= 0.95, pct);
  check(
    'next draw: median 90% date width (active categories) ≤ 21 days',
    next.dates.medianWidthActive,
    (v) => v <= 21,
    (v) => `${v} days`,
  );
  check(
    '"my score" Brier skill ≥ 0.1',
    pooled.score.skill,
    (v) => v >= 0.1,
    (v) => v.toFixed(3),
  );
  for (const [name, s] of byCategory) {
    if (s.compared >= 10) {
      check(`${name} (${s.compared}): CRS interval score ≤ baseline`, ratio(s.crs.winkler, s.crs.baselineWinkler), (v) => v <= 1, x);
      check(
        `${name} (${s.compared}): invitations interval score ≤ baseline`,
        ratio(s.invitations.winkler, s.invitations.baselineWinkler),
        (v) => v <= 1,
        x,
      );
      check(`${name} (${s.compared}): CRS MAE ≤ 1.05 × naive`, ratio(s.crs.mae, s.crs.naiveMae), (v) => v <= 1.05, x);
      check(
        `${name} (${s.compared}): median CRS half-width ≤ 2.5 × MAE`,
        ratio(s.crs.medianHalfWidth, s.crs.mae),
        (v) => v <= 2.5,
        (v) => `${v.toFixed(2)} × MAE`,
      );
    }
    if (s.compared >= 20) {
      check(`${name} (${s.compared}): CRS 95% coverage in [85%, 99%]`, s.crs.coverage, (v) => v >= 0.85 && v <= 0.99, pct);
      check(`${name} (${s.compared}): invitations 95% coverage in [85%, 99%]`, s.invitations.coverage, (v) => v >= 0.85 && v <= 0.99, pct);
    }
  }
  return checks;
}
