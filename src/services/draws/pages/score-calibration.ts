// Is the "my score" probability honest? Replays the walk-forward (every forecast made from what was known that day,
// with the 95% interval served then) on a feed and asks how the Laplace law the tool assumes (clearance.ts) would
// have scored the cut-offs that followed, beside a normal law with the same 95% interval:
//   - how often the actual cut-off fell inside the central 50% and 80% ranges of the law (should be 50% and 80%);
//   - reliability: over a grid of scores around each forecast (ŷ + k·m/4, k = −4…4), the mean stated probability
//     of "cut-off ≤ score" against how often it happened, in bins;
//   - the Brier score of those statements (lower is better).
//   node src/services/draws/pages/score-calibration.ts [feed file] [--since YYYY-MM-DD] [--as-of YYYY-MM-DD]
// Defaults: the 2025-12-17 snapshot in the shared data, forecasts whose targets fell from 2023-01-01 on (the
// benchmark's period).
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
import { CRS_RANGE, centralRange, clearance } from './clearance.ts';
import type { CutoffForecast } from './clearance.ts';

export const CALIBRATION_SINCE = '2023-01-01';

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

export const LAWS: Record<'laplace' | 'normal', Law> = {
  laplace: { atOrBelow: (s, f) => clearance(s, f).atOrBelow, central: centralRange },
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

/** The served CRS forecasts at horizon h whose targets fell from `since` on, with the interval served then. */
export function pastForecasts(panel: readonly PanelCategory[], since: string, h: number): PastForecast[] {
  const wf = walkForward(panel);
  const from = dayNumber(since);
  return wf.points
    .filter((p) => p.servableHorizons >= h && p.targets[h - 1] !== null && p.targets[h - 1]!.day >= from)
    .map((p) => ({
      category: panel[p.category].slug,
      young: p.young,
      h,
      forecast: { point: p.series.crs.served[h - 1], margin: servedHalfWidth(wf.points, p, 'crs', h, p.day) },
      actual: p.targets[h - 1]!.crs,
    }));
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

export function calibrationReport(text: string, options: { asOf: string; since: string; source: string }): string {
  const panel = panelFromFeed(text, options.asOf);
  const lines = [
    `"My score" probabilities against the walk-forward of ${options.source} (as of ${options.asOf}; targets from ${options.since})`,
  ];
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  for (const h of [1, 2, 3]) {
    const past = pastForecasts(panel, options.since, h);
    for (const [group, rows] of [
      ['established', past.filter((p) => !p.young)],
      ['young', past.filter((p) => p.young)],
    ] as const) {
      if (rows.length === 0) continue;
      lines.push('', `h = ${h}, ${group} categories: ${rows.length} forecasts`);
      for (const [name, law] of Object.entries(LAWS)) {
        const s = scoreLaw(law, rows);
        lines.push(
          `  ${name.padEnd(8)} inside central 50%: ${pct(s.inside50).padStart(6)}  80%: ${pct(s.inside80).padStart(6)}  95%: ${pct(s.inside95).padStart(6)}` +
            `  Brier ${s.brier.toFixed(4)} over ${s.statements} statements`,
        );
        lines.push(
          `           reliability (stated → happened, n): ${s.reliability
            .filter((b) => b.n > 0)
            .map((b) => `${pct(b.stated)}→${pct(b.happened)} (${b.n})`)
            .join('  ')}`,
        );
      }
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
  const file = args[0] ?? path.join(loadConfig().sharedDataDir, 'draws', SNAPSHOT_NAME);
  console.log(calibrationReport(fs.readFileSync(file, 'utf8'), { asOf, since, source: path.basename(file) }));
}
