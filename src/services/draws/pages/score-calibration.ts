// Is the "my score" probability honest? Replays the walk-forward (every forecast made from what was known that day,
// with the 95% interval served then) on a feed, fits the asymmetric Laplace law of clearance.ts to the signed errors
// of the forecasts whose targets fell in the fitting years (maximum likelihood: p is the share of errors ≤ 0, λ₋ and
// λ₊ the mean size of the negative and positive ones, in units of m), and asks how the law served, the symmetric
// Laplace law and a normal law with the same 95% interval would have scored the cut-offs that followed, in the
// fitting years and after them:
//   - how often the actual cut-off fell inside the central 50% and 80% ranges of the law (should be 50% and 80%);
//   - reliability: over a grid of scores around each forecast (ŷ + k·m/4, k = −4…4), the mean stated probability
//     of "cut-off ≤ score" against how often it happened, in bins;
//   - the Brier score of those statements (lower is better).
//   node src/services/draws/pages/score-calibration.ts [feed file] [--since YYYY-MM-DD] [--fit-until YYYY-MM-DD] [--as-of YYYY-MM-DD]
// Defaults: the 2025-12-17 snapshot in the shared data, forecasts whose targets fell from 2023-01-01 on (the
// benchmark's period), fitted on those up to 2024-12-31 (the benchmark's tuning years).
import fs from 'node:fs';
import path from 'node:path';
import { errorFunction, probit } from 'simple-statistics';
import { loadConfig } from '../../../core/config.ts';
import { categoriseRounds } from '../feed/categories.ts';
import { dayNumber } from '../feed/ircc-dates.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../feed/reference-snapshot.ts';
import { parseFeedText, parseRoundsFeed } from '../feed/rounds-feed.ts';
import { servedHalfWidth } from '../forecast/metrics.ts';
import { walkForward } from '../forecast/walk-forward.ts';
import type { PanelCategory } from '../forecast/walk-forward.ts';
import { CRS_RANGE, CUTOFF_LAW, centralRange, clearance, SYMMETRIC_LAW } from './clearance.ts';
import type { CutoffForecast, CutoffLaw } from './clearance.ts';

export const CALIBRATION_SINCE = '2023-01-01';
/** The last target day of the fit: the benchmark's tuning years end here. */
export const FIT_UNTIL = '2024-12-31';
/** Horizons fitted and checked: every rank served. */
export const CALIBRATION_HORIZONS = [1, 2, 3, 4, 5] as const;

/** One past forecast: what was served (point, 95% half-width) and the cut-off that came. */
export interface PastForecast {
  category: string;
  young: boolean;
  h: number;
  forecast: CutoffForecast;
  actual: number;
}

export interface LawScore {
  n: number;
  inside50: number;
  inside80: number;
  inside95: number;
  /** Statements "cut-off ≤ score" on the grid; their Brier score. */
  statements: number;
  brier: number;
  /** Bins of stated probability: mean stated, share that happened, count. */
  reliability: { from: number; to: number; stated: number; happened: number; n: number }[];
}

/** A law of the cut-off: P(published cut-off ≤ s) and its central range at a level. */
interface Law {
  atOrBelow(s: number, f: CutoffForecast): number;
  central(f: CutoffForecast, level: number): { lower: number; upper: number };
}

const normalCdf = (x: number, mean: number, sd: number) => 0.5 * (1 + errorFunction((x - mean) / (sd * Math.SQRT2)));
const Z975 = probit(0.975);

const laplaceLaw = (law: CutoffLaw): Law => ({
  atOrBelow: (s, f) => clearance(s, f, law).atOrBelow,
  central: (f, level) => centralRange(f, level, law),
});

export const LAWS: Record<'served' | 'symmetric' | 'normal', Law> = {
  served: laplaceLaw(CUTOFF_LAW),
  symmetric: laplaceLaw(SYMMETRIC_LAW),
  normal: {
    atOrBelow: (s, f) => (s >= CRS_RANGE.max ? 1 : normalCdf(s + 0.5, f.point, Math.max(f.margin, 1e-9) / Z975)),
    central: (f, level) => {
      const z = probit((1 + level) / 2) * (f.margin / Z975);
      return { lower: f.point - z, upper: f.point + z };
    },
  },
};

/** A feed's categories as the forecasting code takes them (draws on or before `asOf`, oldest first). */
export function panelFromFeed(text: string, asOf: string): PanelCategory[] {
  const limit = dayNumber(asOf);
  return categoriseRounds(parseRoundsFeed(parseFeedText(text, 'feed')).rounds).map((group, i) => ({
    id: i,
    slug: group.category.slug,
    draws: group.rounds
      .map((r) => ({ day: dayNumber(r.date), crs: r.crs, invitations: r.invitations, key: r.roundSortKey }))
      .filter((d) => d.day <= limit)
      .sort((a, b) => a.day - b.day || a.key - b.key)
      .map(({ day, crs, invitations }) => ({ day, crs, invitations })),
  }));
}

/** The served CRS forecasts at the horizons whose targets fell from `since` on (to `until`), with the interval served then. */
export function pastForecasts(panel: readonly PanelCategory[], since: string, horizons: readonly number[], until?: string): PastForecast[] {
  const wf = walkForward(panel);
  const from = dayNumber(since);
  const to = until === undefined ? Infinity : dayNumber(until);
  return horizons.flatMap((h) =>
    wf.points
      .filter((p) => p.servableHorizons >= h && p.targets[h - 1] !== null && p.targets[h - 1]!.day >= from && p.targets[h - 1]!.day <= to)
      .map((p) => ({
        category: panel[p.category].slug,
        young: p.young,
        h,
        forecast: { point: p.series.crs.served[h - 1], margin: servedHalfWidth(wf.points, p, 'crs', h, p.day) },
        actual: p.targets[h - 1]!.crs,
      })),
  );
}

/** The maximum-likelihood asymmetric Laplace law (mode at ŷ) of the signed errors (C − ŷ) / m; three decimals. */
export function fitCutoffLaw(past: readonly PastForecast[]): CutoffLaw & { n: number } {
  const u = past.filter((p) => p.forecast.margin > 0).map((p) => (p.actual - p.forecast.point) / p.forecast.margin);
  const below = u.filter((x) => x <= 0);
  const above = u.filter((x) => x > 0);
  if (below.length === 0 || above.length === 0) throw new RangeError('the fit needs errors on both sides of the forecast');
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: u.length,
    belowShare: round3(below.length / u.length),
    lowerScale: round3(-below.reduce((s, x) => s + x, 0) / below.length),
    upperScale: round3(above.reduce((s, x) => s + x, 0) / above.length),
  };
}

const BINS = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1];

export function scoreLaw(law: Law, past: readonly PastForecast[]): LawScore {
  const inside = (level: number) =>
    past.filter((p) => {
      const r = law.central(p.forecast, level);
      return p.actual >= r.lower && p.actual <= r.upper;
    }).length / past.length;
  const bins = BINS.slice(0, -1).map((from, i) => ({ from, to: BINS[i + 1], stated: 0, happened: 0, n: 0 }));
  let brier = 0;
  let statements = 0;
  for (const p of past) {
    for (let k = -4; k <= 4; k++) {
      const s = Math.round(p.forecast.point + (k * p.forecast.margin) / 4);
      if (s < CRS_RANGE.min || s > CRS_RANGE.max) continue;
      const stated = law.atOrBelow(s, p.forecast);
      const happened = p.actual <= s ? 1 : 0;
      brier += (stated - happened) ** 2;
      statements++;
      const bin = bins.find((b) => stated < b.to || b.to === 1)!;
      bin.stated += stated;
      bin.happened += happened;
      bin.n++;
    }
  }
  return {
    n: past.length,
    inside50: inside(0.5),
    inside80: inside(0.8),
    inside95: inside(0.95),
    statements,
    brier: brier / statements,
    reliability: bins.map((b) => ({ ...b, stated: b.n ? b.stated / b.n : 0, happened: b.n ? b.happened / b.n : 0 })),
  };
}

function calibrationReport(text: string, options: { asOf: string; since: string; fitUntil: string; source: string }): string {
  const panel = panelFromFeed(text, options.asOf);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const dayAfter = new Date(Date.parse(`${options.fitUntil}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const periods = [
    { name: `fitting targets ${options.since} – ${options.fitUntil}`, since: options.since, until: options.fitUntil },
    { name: `later targets, from ${dayAfter} (not fitted)`, since: dayAfter, until: undefined },
  ];
  const byPeriod = periods.map((period) => ({
    ...period,
    past: pastForecasts(panel, period.since, CALIBRATION_HORIZONS, period.until),
  }));
  const fit = fitCutoffLaw(byPeriod[0].past);
  const lines = [
    `"My score" probabilities against the walk-forward of ${options.source} (as of ${options.asOf}; h = ${CALIBRATION_HORIZONS.join(', ')})`,
    `Fitted on the ${fit.n} signed errors of the fitting targets: p = ${fit.belowShare}, λ₋ = ${fit.lowerScale}, λ₊ = ${fit.upperScale}` +
      ` (served: p = ${CUTOFF_LAW.belowShare}, λ₋ = ${CUTOFF_LAW.lowerScale}, λ₊ = ${CUTOFF_LAW.upperScale})`,
  ];
  for (const period of byPeriod) {
    if (period.past.length === 0) continue;
    lines.push('', `${period.name}: ${period.past.length} forecasts`);
    for (const [name, law] of Object.entries(LAWS)) {
      const s = scoreLaw(law, period.past);
      lines.push(
        `  ${name.padEnd(9)} inside central 50%: ${pct(s.inside50).padStart(6)}  80%: ${pct(s.inside80).padStart(6)}  95%: ${pct(s.inside95).padStart(6)}` +
          `  Brier ${s.brier.toFixed(4)} over ${s.statements} statements`,
      );
      lines.push(
        `            reliability (stated → happened, n): ${s.reliability
          .filter((b) => b.n > 0)
          .map((b) => `${pct(b.stated)}→${pct(b.happened)} (${b.n})`)
          .join('  ')}`,
      );
    }
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const asOf = option('--as-of', SNAPSHOT_AS_OF);
  const since = option('--since', CALIBRATION_SINCE);
  const fitUntil = option('--fit-until', FIT_UNTIL);
  const file = args[0] ?? path.join(loadConfig().sharedDataDir, 'draws', SNAPSHOT_NAME);
  console.log(calibrationReport(fs.readFileSync(file, 'utf8'), { asOf, since, fitUntil, source: path.basename(file) }));
}
