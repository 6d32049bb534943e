// The rolling-origin benchmark: every draw of a category from `from` on is an origin; the served
// forecasts are made the day before it, by the served pipeline itself (forecastPanel) on what was known then
// only, and compared with the category's next three draws, beside the naive forecast (the last value) and the
// window mean (of the last six). Framework-free: bench/draws.ts prints it, the tests check it on small panels.
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { forecastPanel } from './forecast-panel.ts';
import type { CategoryDrawsInput } from './forecast-panel.ts';
import { WINDOW } from './members.ts';
import { mean, median } from './statistics.ts';
import { walkForward } from './walk-forward.ts';
import type { PanelCategory } from './walk-forward.ts';

export const BENCHMARK_HORIZONS = 3;

export interface OriginRecord {
  category: string;
  /** The day before the origin draw: what the forecasts knew. */
  asOf: string;
  h: number;
  actual: { date: string; crs: number; invitations: number };
  naive: { crs: number; invitations: number };
  windowMean: { crs: number; invitations: number };
  /** Null when nothing was served (a dormant category, or a rank beyond a year). */
  served: {
    crs: number;
    invitations: number;
    crsRange: [number, number];
    crsHalfWidth: number;
    invitationsRange: [number, number];
    dateRange: [string, string];
    model: string;
  } | null;
}

/** One record per (origin, horizon); see the file comment. */
export function rollingOriginRecords(
  categories: readonly CategoryDrawsInput[],
  from: string,
  onOrigin?: (done: number, total: number) => void,
): OriginRecord[] {
  const panel: PanelCategory[] = categories.map((c) => ({
    id: c.id,
    slug: c.slug,
    draws: [...c.draws]
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || (a.roundSortKey ?? 0) - (b.roundSortKey ?? 0))
      .map((d) => ({ day: dayNumber(d.date), crs: d.crs, invitations: d.invitations })),
  }));
  // The walk-forward of all the data, truncated to each origin by forecastPanel: the same as recomputing it
  // from the draws known then (every point uses only what was known when it was made), without the cost.
  const walk = walkForward(panel);
  const origins = panel.flatMap((c) => {
    const days = [...new Set(c.draws.map((d) => d.day))].filter((d) => d >= dayNumber(from));
    return days.map((day) => ({ slug: c.slug, day }));
  });
  const byDay = new Map<number, string[]>();
  for (const o of origins) byDay.set(o.day, [...(byDay.get(o.day) ?? []), o.slug]);
  const records: OriginRecord[] = [];
  let done = 0;
  for (const [day, slugs] of [...byDay.entries()].sort((a, b) => a[0] - b[0])) {
    const asOf = isoFromDayNumber(day - 1);
    const forecast = forecastPanel(categories, asOf, { report: false, walk, horizons: BENCHMARK_HORIZONS });
    for (const slug of slugs) {
      const c = panel.find((x) => x.slug === slug)!;
      const before = c.draws.filter((d) => d.day < day);
      const after = c.draws.filter((d) => d.day >= day);
      if (before.length === 0) continue; // a category's first draw: nothing to forecast it from
      const last = before[before.length - 1];
      const recent = before.slice(-WINDOW);
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
          served: p
            ? {
                crs: p.predicted_crs_score,
                invitations: p.predicted_invitations,
                crsRange: [p.uncertainty_range.min, p.uncertainty_range.max],
                crsHalfWidth: p.uncertainty_range.margin_of_error,
                invitationsRange: [p.invitations_range!.min, p.invitations_range!.max],
                dateRange: [p.date_range.earliest, p.date_range.latest],
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

export interface BenchmarkRow {
  /** A category slug, or "pooled". */
  group: string;
  h: number;
  /** Origins with a target at h. */
  n: number;
  /** Of which a forecast was served (the MAE columns compare the three on these). */
  served: number;
  mae: {
    crs: { served: number | null; naive: number | null; windowMean: number | null };
    invitations: { served: number | null; naive: number | null; windowMean: number | null };
  };
  coverage: { crs: number | null; invitations: number | null; date: number | null };
  /** Median half-width: CRS points; invitations as the factor exp(half-width of log) ; date range in days (latest − earliest). */
  medianWidth: { crsHalf: number | null; invitationsFactor: number | null; dateDays: number | null };
}

function summarise(group: string, h: number, records: readonly OriginRecord[]): BenchmarkRow {
  const served = records.filter((r) => r.served !== null);
  const m = (xs: number[]) => (xs.length > 0 ? mean(xs) : null);
  const md = (xs: number[]) => (xs.length > 0 ? median(xs) : null);
  const share = (xs: boolean[]) => (xs.length > 0 ? xs.filter(Boolean).length / xs.length : null);
  return {
    group,
    h,
    n: records.length,
    served: served.length,
    mae: {
      crs: {
        served: m(served.map((r) => Math.abs(r.actual.crs - r.served!.crs))),
        naive: m(served.map((r) => Math.abs(r.actual.crs - r.naive.crs))),
        windowMean: m(served.map((r) => Math.abs(r.actual.crs - r.windowMean.crs))),
      },
      invitations: {
        served: m(served.map((r) => Math.abs(r.actual.invitations - r.served!.invitations))),
        naive: m(served.map((r) => Math.abs(r.actual.invitations - r.naive.invitations))),
        windowMean: m(served.map((r) => Math.abs(r.actual.invitations - r.windowMean.invitations))),
      },
    },
    coverage: {
      crs: share(served.map((r) => r.actual.crs >= r.served!.crsRange[0] && r.actual.crs <= r.served!.crsRange[1])),
      invitations: share(
        served.map((r) => r.actual.invitations >= r.served!.invitationsRange[0] && r.actual.invitations <= r.served!.invitationsRange[1]),
      ),
      date: share(served.map((r) => r.actual.date >= r.served!.dateRange[0] && r.actual.date <= r.served!.dateRange[1])),
    },
    medianWidth: {
      crsHalf: md(served.map((r) => r.served!.crsHalfWidth)),
      invitationsFactor: md(served.map((r) => Math.sqrt(r.served!.invitationsRange[1] / r.served!.invitationsRange[0]))),
      dateDays: md(served.map((r) => dayNumber(r.served!.dateRange[1]) - dayNumber(r.served!.dateRange[0]))),
    },
  };
}

/** Per category (by number of h = 1 origins, largest first) and pooled, h = 1…3. */
export function benchmarkTable(records: readonly OriginRecord[]): BenchmarkRow[] {
  const groups = [...new Set(records.map((r) => r.category))].sort(
    (a, b) =>
      records.filter((r) => r.category === b && r.h === 1).length - records.filter((r) => r.category === a && r.h === 1).length ||
      (a < b ? -1 : 1),
  );
  const rows: BenchmarkRow[] = [];
  for (const group of [...groups, 'pooled']) {
    for (let h = 1; h <= BENCHMARK_HORIZONS; h++) {
      rows.push(
        summarise(
          group,
          h,
          records.filter((r) => r.h === h && (group === 'pooled' || r.category === group)),
        ),
      );
    }
  }
  return rows;
}

export interface TargetCheck {
  target: string;
  met: boolean | null;
  figure: string;
}

/** The targets against a table. */
export function checkTargets(rows: readonly BenchmarkRow[]): TargetCheck[] {
  const pooled = (h: number) => rows.find((r) => r.group === 'pooled' && r.h === h)!;
  const p1 = pooled(1);
  const ratio = p1.mae.crs.served !== null && p1.mae.crs.naive ? p1.mae.crs.served / p1.mae.crs.naive : null;
  const checks: TargetCheck[] = [
    {
      target: 'pooled h=1 CRS MAE ≤ 0.90 × naive',
      met: ratio === null ? null : ratio <= 0.9,
      figure: ratio === null ? '—' : `${ratio.toFixed(3)} × naive`,
    },
  ];
  for (const r of rows.filter((x) => x.group !== 'pooled' && x.h === 1 && x.served >= 10)) {
    const q = r.mae.crs.served !== null && r.mae.crs.naive ? r.mae.crs.served / r.mae.crs.naive : null;
    checks.push({
      target: `${r.group} (${r.served} held-out draws): h=1 CRS MAE ≤ 1.05 × naive`,
      met: q === null ? null : q <= 1.05,
      figure: q === null ? '—' : `${q.toFixed(3)} × naive`,
    });
  }
  for (let h = 1; h <= BENCHMARK_HORIZONS; h++) {
    const p = pooled(h);
    for (const family of ['crs', 'invitations', 'date'] as const) {
      const c = p.coverage[family];
      checks.push({
        target: `pooled h=${h} ${family} 95% interval coverage in [90%, 97%]`,
        met: c === null ? null : c >= 0.9 && c <= 0.97,
        figure: c === null ? '—' : `${(100 * c).toFixed(1)}%`,
      });
    }
    const w = p.medianWidth.crsHalf;
    const mae = p.mae.crs.served;
    checks.push({
      target: `pooled h=${h} median CRS half-width ≤ 3 × served MAE`,
      met: w === null || mae === null ? null : w <= 3 * mae,
      figure:
        w === null || mae === null
          ? '—'
          : `${w.toFixed(1)} vs 3 × ${mae.toFixed(2)} = ${(3 * mae).toFixed(1)} (${(w / mae).toFixed(2)} × MAE)`,
    });
  }
  return checks;
}
