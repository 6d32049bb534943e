// Service D: (1) the rolling-origin benchmark of the forecasts: every draw from 2023-01-01 to the end of the real
// snapshot is an origin, the served forecasts are made as of its day from what was known then and scored against
// the next five draws (forecast/rolling-origin.ts says how), per category and pooled, the origins of 2023–2024
// (on which the method was tuned) apart from those of 2025 (held out), with bootstrap intervals and the targets; (2) importing the snapshot against a baseline
// of the same domain work in memory; (3) GET /api/predict/, /api/draws/ and /api/stats/ served from the response
// cache against the same requests computed each time. Prints what it measured and the ratios.
// With --period wide: the origins of 2019–2024 (before the held-out year), per year and pooled, the interval scores
// a rule that holds across regimes must keep in every year, not only in 2023–2024.
// With --only stale: a stale feed's date forecasts (the feed cut 45–365 days before each origin of 2019–2024), the
// law conditioned on the days since the last known draw against the residual law served for stale feeds, and the
// residual law's likely windows restated by maps fitted leave-one-year-out beside the law's mass they are served with.
//   npm run bench -- draws [--requests n] [--only forecasts|stale|import] [--period tuning|held|wide]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/core/config.ts';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { buildServiceApp } from '../src/core/http/service-app.ts';
import { DataVersionWatcher } from '../src/core/service.ts';
import type { ServiceContext } from '../src/core/service.ts';
import { categoriseRounds } from '../src/services/draws/feed/categories.ts';
import { parseRoundsFeed } from '../src/services/draws/feed/rounds-feed.ts';
import { computeForecasts } from '../src/services/draws/aggregates.ts';
import {
  BENCHMARK_HORIZONS,
  bootstrapInterval,
  bootstrapIntervals,
  checkTargets,
  reliability,
  rollingOriginRecords,
  summarise,
} from '../src/services/draws/forecast/rolling-origin.ts';
import type { BenchmarkSummary, OriginRecord, ScoreLaw } from '../src/services/draws/forecast/rolling-origin.ts';
import type { AsOfDateRecord, RestatedWindow, StaleFeedRecord } from '../src/services/draws/forecast/date-backtest.ts';
import type { CategoryDrawsInput } from '../src/services/draws/forecast/forecast-panel.ts';
import { dayNumber } from '../src/services/draws/feed/ircc-dates.ts';
import {
  afterDormancyPause,
  asOfDayDateRecords,
  gapSpread,
  hindsightWindowCoverage,
  leaveOneYearOutWindows,
  meanYearlyIntervalScore,
  staleFeedRecords,
  summariseByYear,
  summariseDateRanges,
  summariseLikelyWindows,
} from '../src/services/draws/forecast/date-backtest.ts';
import { clearance } from '../src/services/draws/pages/clearance.ts';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../src/services/draws/feed/reference-snapshot.ts';
import { staleAfterDays } from '../src/services/draws/freshness.ts';
import { importRounds } from '../src/services/draws/import.ts';
import { drawsService } from '../src/services/draws/service.ts';
import type { DrawsTables } from '../src/services/draws/tables.ts';
import { SNAPSHOT_FILE, snapshotCategories } from './_draws-snapshot.ts';

const args = process.argv.slice(2);
const requestsAt = args.indexOf('--requests');
const REQUESTS = requestsAt >= 0 ? Number(args[requestsAt + 1]) : 500;
const onlyAt = args.indexOf('--only');
const ONLY = onlyAt >= 0 ? args[onlyAt + 1] : null;
const periodAt = args.indexOf('--period');
const PERIOD = periodAt >= 0 ? args[periodAt + 1] : null;
const REPEATS = 3;
/** Date ranges are also scored as of every this many days (a person asks on any day, not only on draw days). */
const DATE_AS_OF_STEP = 7;
/** Widths (days) at which the hindsight windows are reported. */
const HINDSIGHT_WIDTHS = [14, 21, 28, 35, 42, 49, 56];
/** Origins of the stale-feed backtest (every DATE_AS_OF_STEP-th day), the feed cut STALE_HIDDEN days before each; truth read through STALE_THROUGH. */
const STALE_PERIOD = { from: '2019-01-01', to: '2024-12-31' };
const STALE_THROUGH = '2024-12-31';
const STALE_HIDDEN = [45, 90, 180, 365];

/** The wide tuning period: six years of origins before the held-out one (`--period wide`; not run by default). */
const WIDE_PERIODS = [{ name: 'wide, origins 2019–2024', from: '2019-01-01', to: '2024-12-31' }];
const feedFile = SNAPSHOT_FILE;
if (!fs.existsSync(feedFile)) {
  console.error(`the real snapshot is needed: ${feedFile}`);
  process.exit(1);
}

function context(db: Db, cacheEntries: number): ServiceContext {
  const config = loadConfig({
    ...process.env,
    PDI_DATABASE_URL: '',
    PDI_DRAWS_AS_OF: SNAPSHOT_AS_OF,
    PDI_RESPONSE_CACHE_ENTRIES: String(cacheEntries),
  });
  return {
    name: 'draws',
    db,
    config,
    log: pino({ level: 'silent' }),
    redis: null,
    dataVersion: new DataVersionWatcher(db, 'draws'),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

// (1) The rolling-origin benchmark of the served forecasts: tuned on the origins of 2023–2024, 2025 held out.
if (ONLY === null || ONLY === 'forecasts') {
  const PERIODS = [
    { name: 'tuning, origins 2023–2024', from: '2023-01-01', to: '2024-12-31' },
    { name: 'held out, origins 2025', from: '2025-01-01', to: '2025-12-31' },
    ...WIDE_PERIODS,
  ].filter((p) => (PERIOD === null ? !WIDE_PERIODS.includes(p) : p.name.startsWith(PERIOD)));
  const FROM = PERIODS.map((p) => p.from).reduce((a, b) => (a < b ? a : b), '2023-01-01');
  const categories = snapshotCategories();
  const t0 = performance.now();
  const all = rollingOriginRecords(categories, FROM);
  const elapsed = performance.now() - t0;
  // Each period's as-of days step from its own first day, so that a period's figures do not depend on which others run.
  const t1 = performance.now();
  const asOfByPeriod = PERIODS.map((p) => {
    const to = p.to < SNAPSHOT_AS_OF ? p.to : SNAPSHOT_AS_OF;
    return {
      served: asOfDayDateRecords(categories, p.from, to, DATE_AS_OF_STEP),
      // The baseline of the as-of days: the same ranges without the program's round rhythm (each category's own gaps only).
      ownGaps: asOfDayDateRecords(categories, p.from, to, DATE_AS_OF_STEP, { roundRhythm: false }),
    };
  });
  const asOfElapsed = performance.now() - t1;
  // Whether a next draw came after a dormancy pause: the draw-day records are judged as the as-of days' are.
  const drawDays = new Map(categories.map((c) => [c.slug, c.draws.map((d) => dayNumber(d.date))]));
  const afterPause = (category: string, asOf: string, actual: string) =>
    afterDormancyPause(drawDays.get(category)!, dayNumber(asOf), dayNumber(actual));
  const law: ScoreLaw = (score, point, margin) => clearance(score, { point, margin }).atOrBelow;
  const f = (x: number | null, d = 1) => (x === null ? '—' : x.toFixed(d));
  const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
  const r3 = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? '—' : (a / b).toFixed(3));
  console.log(
    `Rolling-origin benchmark of the served forecasts on ${SNAPSHOT_NAME}: every draw from ${FROM} on is an origin, forecast ` +
      `as of its day from what was known then, scored against the category's next ${BENCHMARK_HORIZONS} draws; ${all.length} ` +
      `(origin, horizon) targets; ${ms(elapsed)} on ${os.availableParallelism()} cores, load ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(
    'IS: Winkler interval score (α = 0.05) of the served 95% interval / of the baseline (last value ± the 95% quantile of the ' +
      "category's last 24 absolute changes); INV on log(invitations); dates: 90% intervals (width: active categories); Brier skill " +
      'of "my score" (P(cut-off ≤ s) at the deciles of the last 24 cut-offs) against the historical share of draws ≤ s.',
  );
  const header =
    `${'group'.padEnd(12)}${'h'.padStart(4)}${'n'.padStart(5)}${'cmp'.padStart(5)} | ${'CRS MAE'.padStart(8)}${'naive'.padStart(7)}${'÷nv'.padStart(7)}` +
    `${'IS'.padStart(7)}${'base'.padStart(7)}${'÷bs'.padStart(7)}${'cov'.padStart(7)}${'bcov'.padStart(7)}${'½w/MAE'.padStart(7)} | ` +
    `${'INV IS÷bs'.padStart(9)}${'cov'.padStart(7)}${'bcov'.padStart(7)}${'×÷'.padStart(6)} | ${'date cov'.padStart(8)}${'days'.padStart(5)} | ${'Brier sk'.padStart(8)}`;
  const line = (group: string, h: string, s: BenchmarkSummary) =>
    `${group.padEnd(12)}${h.padStart(4)}${String(s.n).padStart(5)}${String(s.compared).padStart(5)} | ` +
    `${f(s.crs.mae, 2).padStart(8)}${f(s.crs.naiveMae, 2).padStart(7)}${r3(s.crs.mae, s.crs.naiveMae).padStart(7)}` +
    `${f(s.crs.winkler).padStart(7)}${f(s.crs.baselineWinkler).padStart(7)}${r3(s.crs.winkler, s.crs.baselineWinkler).padStart(7)}` +
    `${pct(s.crs.coverage).padStart(7)}${pct(s.crs.baselineCoverage).padStart(7)}${r3(s.crs.medianHalfWidth, s.crs.mae).padStart(7)} | ` +
    `${r3(s.invitations.winkler, s.invitations.baselineWinkler).padStart(9)}${pct(s.invitations.coverage).padStart(7)}` +
    `${pct(s.invitations.baselineCoverage).padStart(7)}${f(s.invitations.medianFactor, 2).padStart(6)} | ` +
    `${pct(s.dates.coverage).padStart(8)}${f(s.dates.medianWidthActive, 0).padStart(5)} | ${f(s.score.skill, 3).padStart(8)}`;
  console.log(
    `Date ranges as of every ${DATE_AS_OF_STEP}th day from each period's first day, served and without the round rhythm: ` +
      `${asOfByPeriod.reduce((n, p) => n + p.served.length, 0)} next-draw ranges each; ${ms(asOfElapsed)}, load ${os.loadavg()[0].toFixed(2)}`,
  );
  for (const [periodIndex, period] of PERIODS.entries()) {
    const records = all.filter((r) => r.asOf >= period.from && r.asOf <= period.to);
    const groups = [...new Set(records.map((r) => r.category))].sort(
      (a, b) => records.filter((r) => r.category === b).length - records.filter((r) => r.category === a).length || (a < b ? -1 : 1),
    );
    const byCategory = new Map(
      groups.map((g) => [
        g,
        summarise(
          records.filter((r) => r.category === g),
          law,
        ),
      ]),
    );
    const pooled = summarise(records, law);
    const unserved = records.filter((r) => r.served === null).length;
    console.log('');
    console.log(
      `${period.name}: ${records.length} targets from ${new Set(records.map((r) => r.asOf)).size} forecast rounds; ${unserved} without a forecast`,
    );
    console.log(header);
    for (const [g, s] of byCategory) console.log(line(g, '1–5', s));
    for (let h = 1; h <= BENCHMARK_HORIZONS; h++)
      console.log(
        line(
          'pooled',
          String(h),
          summarise(
            records.filter((r) => r.h === h),
            law,
          ),
        ),
      );
    console.log(line('pooled', '1–5', pooled));
    // Where an interval score ratio comes from: a year of regime changes, where the baseline misses by far, or a calm
    // one, where both hold and the narrower wins.
    console.log(
      'Interval score = mean width + mean miss penalty, served against the baseline, by category and year of origin (5+ targets; INV on log):',
    );
    const years = [...new Set(records.map((r) => r.asOf.slice(0, 4)))].sort();
    for (const g of [...groups, 'pooled'])
      for (const year of years) {
        const s = summarise(
          records.filter((r) => (g === 'pooled' || r.category === g) && r.asOf.startsWith(year)),
          law,
        );
        if (s.compared < 5) continue;
        const parts = (winkler: number | null, width: number | null, d: number) =>
          `${f(width, d).padStart(7)} +${f(winkler === null || width === null ? null : Math.max(0, winkler - width), d).padStart(7)}`;
        console.log(
          `  ${g.padEnd(12)}${year}${String(s.compared).padStart(5)} | CRS ${parts(s.crs.winkler, s.crs.meanWidth, 0)} vs ${parts(s.crs.baselineWinkler, s.crs.baselineMeanWidth, 0)}` +
            ` ${r3(s.crs.winkler, s.crs.baselineWinkler).padStart(6)} | INV ${parts(s.invitations.winkler, s.invitations.meanWidth, 2)} vs ` +
            `${parts(s.invitations.baselineWinkler, s.invitations.baselineMeanWidth, 2)} ${r3(s.invitations.winkler, s.invitations.baselineWinkler).padStart(6)}`,
        );
      }
    const boot = (
      name: string,
      value: number | null,
      figure: (rs: readonly OriginRecord[]) => number | null,
      show: (x: number) => string,
    ) => {
      const ci = bootstrapInterval(records, figure);
      console.log(`  ${name}: ${value === null ? '—' : show(value)}  (95% CI ${ci ? `${show(ci[0])}–${show(ci[1])}` : '—'})`);
    };
    const ratioOf =
      (a: (s: BenchmarkSummary) => number | null, b: (s: BenchmarkSummary) => number | null) => (rs: readonly OriginRecord[]) => {
        const s = summarise(rs, law);
        const x = a(s);
        const y = b(s);
        return x === null || y === null || y === 0 ? null : x / y;
      };
    console.log('Headline figures, pooled over h = 1–5, with bootstrap intervals over forecast rounds:');
    const three = (x: number) => x.toFixed(3);
    const crsIs = ratioOf(
      (s) => s.crs.winkler,
      (s) => s.crs.baselineWinkler,
    );
    const invIs = ratioOf(
      (s) => s.invitations.winkler,
      (s) => s.invitations.baselineWinkler,
    );
    const maeRatio = ratioOf(
      (s) => s.crs.mae,
      (s) => s.crs.naiveMae,
    );
    boot('CRS interval score ÷ baseline', crsIs(records), crsIs, three);
    boot('invitations interval score ÷ baseline', invIs(records), invIs, three);
    boot('CRS MAE ÷ naive', maeRatio(records), maeRatio, three);
    boot(
      'CRS 95% coverage',
      pooled.crs.coverage,
      (rs) => summarise(rs, law).crs.coverage,
      (x) => pct(x),
    );
    boot(
      'invitations 95% coverage',
      pooled.invitations.coverage,
      (rs) => summarise(rs, law).invitations.coverage,
      (x) => pct(x),
    );
    const nextDates = (rs: readonly OriginRecord[]) =>
      summarise(
        rs.filter((r) => r.h === 1),
        law,
      ).dates;
    boot(
      'next draw: 90% date coverage',
      nextDates(records).coverage,
      (rs) => nextDates(rs).coverage,
      (x) => pct(x),
    );
    boot(
      'next draw: median 90% date width, active (days)',
      nextDates(records).medianWidthActive,
      (rs) => nextDates(rs).medianWidthActive,
      (x) => x.toFixed(0),
    );
    const asOf = asOfByPeriod[periodIndex];
    printDates(records, asOf.served, asOf.ownGaps, (x) => pct(x));
    printDatesByYear(records, asOf.served, afterPause, (x) => pct(x));
    printLikelyWindows(records, asOf.served, (x) => pct(x));
    boot('"my score" Brier skill', pooled.score.skill, (rs) => summarise(rs, law).score.skill, three);
    console.log('"my score" reliability (P(cut-off ≤ s) as stated, pooled over h = 1–5): stated bin, statements, mean stated, share true');
    for (const b of reliability(records, law))
      console.log(
        `  ${b.from.toFixed(1)}–${b.to.toFixed(1)} ${String(b.n).padStart(5)}  ${pct(b.stated).padStart(6)}  ${pct(b.observed).padStart(6)}`,
      );
    if (WIDE_PERIODS.some((p) => p.name === period.name)) printYears(records, law);
    console.log('Targets:');
    for (const t of checkTargets(
      pooled,
      byCategory,
      summarise(
        records.filter((r) => r.h === 1),
        law,
      ),
    ))
      console.log(`  ${t.met === null ? 'n/a ' : t.met ? 'MET ' : 'MISS'} ${t.target}: ${t.figure}`);
  }
}
if (ONLY === 'forecasts') process.exit(0);

// (1b) A stale feed's date forecasts: the feed cut k days before each origin, the conditioned law against the residual
// law served for stale feeds, on the origins of 2019–2024 only (2025 held out: not read at all).
if (ONLY === 'stale') {
  const categories = snapshotCategories();
  printStaleFeed(categories);
  process.exit(0);
}

/**
 * The stale-feed backtest (date-backtest.ts, staleFeedRecords): for every origin T and cut k, each category's next draw
 * after T forecast from the draws up to T − k with the law conditioned on the days since the last known draw (what a
 * fresh feed is served) and with the residual law (what a stale feed is served): 90% coverage, interval score (α =
 * 0.10, days), median width, and the likely window's Brier beside the law's own mass, with 95% bootstrap intervals over
 * origins. Next draws that came after a dormancy pause (nothing foresees them) are reported apart. Then the same two
 * laws on the complete feed, on the as-of days when the program had been silent for more than PDI_DRAWS_STALE_DAYS:
 * the service cannot tell such a silence from a stale feed.
 */
function printStaleFeed(categories: readonly CategoryDrawsInput[]): void {
  const t0 = performance.now();
  const all = staleFeedRecords(categories, STALE_PERIOD.from, STALE_PERIOD.to, STALE_THROUGH, STALE_HIDDEN, DATE_AS_OF_STEP);
  const drawDays = new Map(categories.map((c) => [c.slug, c.draws.filter((d) => d.date <= STALE_THROUGH).map((d) => dayNumber(d.date))]));
  const paused = (r: StaleFeedRecord) => afterDormancyPause(drawDays.get(r.category)!, dayNumber(r.asOf), dayNumber(r.actual));
  const kept = all.filter((r) => !paused(r));
  console.log(
    `Stale-feed backtest on ${SNAPSHOT_NAME}, draws through ${STALE_THROUGH} only: origins T every ${DATE_AS_OF_STEP}th day ` +
      `${STALE_PERIOD.from}–${STALE_PERIOD.to}, the feed cut k = ${STALE_HIDDEN.join(', ')} days before T, each forecast ` +
      `category's next draw after T; ${all.length} forecasts (${all.length - kept.length} of next draws after a dormancy ` +
      `pause, reported apart); ${ms(performance.now() - t0)}`,
  );
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const one = (x: number) => x.toFixed(1);
  const three = (x: number) => x.toFixed(3);
  const ways = ['conditioned', 'residual'] as const;
  const dates = (rs: readonly StaleFeedRecord[], way: (typeof ways)[number]) =>
    summariseDateRanges(rs.map((r) => ({ actual: r.actual, range: r[way].range, active: true })));
  const windows = (rs: readonly StaleFeedRecord[], way: (typeof ways)[number]) =>
    summariseLikelyWindows(rs.map((r) => ({ asOf: r.asOf, actual: r.actual, likely: r[way].likely })));
  const withCi = (rs: readonly StaleFeedRecord[], figure: (xs: readonly StaleFeedRecord[]) => number | null, f: (x: number) => string) => {
    const value = figure(rs);
    const ci = bootstrapInterval(rs, figure);
    return `${value === null ? '—' : f(value)} (${ci ? `${f(ci[0])}–${f(ci[1])}` : '—'})`;
  };
  const ratio = (xs: readonly StaleFeedRecord[]) => {
    const [a, b] = ways.map((w) => dates(xs, w).intervalScore);
    return a === null || b === null || a === 0 ? null : b / a;
  };
  const report = (name: string, rs: readonly StaleFeedRecord[]) => {
    console.log(`${name}: ${rs.length} next draws from ${new Set(rs.map((r) => r.asOf)).size} origins`);
    for (const way of ways)
      console.log(
        `  ${way.padEnd(11)} 90% coverage ${withCi(rs, (xs) => dates(xs, way).coverage, pct)}, interval score ` +
          `${withCi(rs, (xs) => dates(xs, way).intervalScore, one)} days, median width ${withCi(
            rs,
            (xs) => dates(xs, way).medianWidthActive,
            (x) => x.toFixed(0),
          )} days; ` +
          `likely window: stated ${withCi(rs, (xs) => windows(xs, way).meanStated, pct)}, held ${withCi(rs, (xs) => windows(xs, way).hitRate, pct)}, ` +
          `Brier ${withCi(rs, (xs) => windows(xs, way).brier, three)}, ECE ${withCi(rs, (xs) => windows(xs, way).ece, three)}; ` +
          `the law's own mass: mean ${withCi(rs, (xs) => windows(xs, way).massMean, pct)}, Brier ${withCi(rs, (xs) => windows(xs, way).massBrier, three)}`,
      );
    console.log(`  interval score residual ÷ conditioned (paired): ${withCi(rs, ratio, three)}`);
  };
  report('next draws not after a dormancy pause, every k', kept);
  for (const k of STALE_HIDDEN)
    report(
      `  k = ${k}`,
      kept.filter((r) => r.hiddenDays === k),
    );
  console.log('By year of origin (not after a pause; coverage, interval score), conditioned → residual:');
  for (const year of [...new Set(kept.map((r) => r.asOf.slice(0, 4)))].sort()) {
    const rs = kept.filter((r) => r.asOf.startsWith(year));
    const [c, r] = ways.map((w) => dates(rs, w));
    console.log(
      `  ${year} (${rs.length}): ${pct(c.coverage!)} → ${pct(r.coverage!)}, ${one(c.intervalScore!)} → ${one(r.intervalScore!)} days, ` +
        `median width ${c.medianWidthActive} → ${r.medianWidthActive}`,
    );
  }
  report(
    'next draws after a dormancy pause (apart)',
    all.filter((r) => paused(r)),
  );
  report('every next draw', all);
  printStaleRecalibration(all, paused);

  // The complete feed: as of every 7th day, both laws; where the program had been silent past the limit the service
  // serves the residual law although nothing is missing.
  const limit = staleAfterDays(process.env) ?? 30;
  const seen = categories.map((c) => ({ ...c, draws: c.draws.filter((d) => d.date <= STALE_THROUGH) }));
  const fresh = asOfDayDateRecords(seen, STALE_PERIOD.from, STALE_PERIOD.to, DATE_AS_OF_STEP);
  const served = asOfDayDateRecords(seen, STALE_PERIOD.from, STALE_PERIOD.to, DATE_AS_OF_STEP, { staleAfterDays: limit });
  const key = (r: AsOfDateRecord) => `${r.asOf}|${r.category}`;
  const residualByKey = new Map(served.map((r) => [key(r), r]));
  const programDays = [...new Set(seen.flatMap((c) => c.draws.map((d) => dayNumber(d.date))))].sort((a, b) => a - b);
  const silent = fresh.filter((r) => {
    const day = dayNumber(r.asOf);
    return day - programDays.filter((d) => d <= day).at(-1)! > limit;
  });
  const pairs = silent.map((r) => ({ asOf: r.asOf, actual: r.actual, conditioned: r, residual: residualByKey.get(key(r))! }));
  const paired = (xs: readonly (typeof pairs)[number][], way: (typeof ways)[number]) =>
    summariseDateRanges(xs.map((p) => ({ actual: p.actual, range: p[way].range, active: true })));
  console.log(
    `Complete feed, as of the days when no category had drawn for more than ${limit} days (${pairs.length} ranges on ` +
      `${new Set(pairs.map((p) => p.asOf)).size} days): conditioned ${pct(paired(pairs, 'conditioned').coverage ?? 0)}, ` +
      `${one(paired(pairs, 'conditioned').intervalScore ?? 0)} days → residual ${pct(paired(pairs, 'residual').coverage ?? 0)}, ` +
      `${one(paired(pairs, 'residual').intervalScore ?? 0)} days`,
  );
}

/**
 * Whether a map could make the stale windows' probability calibrated (date-backtest.ts, leaveOneYearOutWindows): each
 * window restated by the isotonic map fitted on the windows of the other years of origin (one map, or one per k), its
 * Brier score, skill against those years' share held, ECE and mean stated ÷ held, beside the law's mass as served
 * (within the nesting bounds) and the paired difference of the Brier scores, with 95% bootstrap intervals over origins;
 * over every next draw (a served window cannot know that a pause is coming) and over those not after a dormancy pause.
 */
function printStaleRecalibration(all: readonly StaleFeedRecord[], paused: (r: StaleFeedRecord) => boolean): void {
  const three = (x: number) => x.toFixed(3);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const summaries = new WeakMap<readonly RestatedWindow[], ReturnType<typeof summariseLikelyWindows>[]>();
  const summarised = (rs: readonly RestatedWindow[]) => {
    if (!summaries.has(rs))
      summaries.set(
        rs,
        (['likely', 'served'] as const).map((way) =>
          summariseLikelyWindows(rs.map((r) => ({ asOf: r.asOf, actual: r.actual, likely: r[way] }))),
        ),
      );
    return summaries.get(rs)!;
  };
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);
  const figures: [string, (rs: readonly RestatedWindow[]) => number | null, (x: number) => string][] = [
    ['stated', (rs) => summarised(rs)[0].meanStated, pct],
    ['held', (rs) => summarised(rs)[0].hitRate, pct],
    ['stated ÷ held', (rs) => ratio(summarised(rs)[0].meanStated, summarised(rs)[0].hitRate), three],
    ['Brier', (rs) => summarised(rs)[0].brier, three],
    ['skill', (rs) => summarised(rs)[0].skill, three],
    ['ECE', (rs) => summarised(rs)[0].ece, three],
    ['mass as served: stated', (rs) => summarised(rs)[1].meanStated, pct],
    ['Brier', (rs) => summarised(rs)[1].brier, three],
    ['skill', (rs) => summarised(rs)[1].skill, three],
    ['ECE', (rs) => summarised(rs)[1].ece, three],
    ['Brier map − mass (paired)', (rs) => summarised(rs)[0].brier! - summarised(rs)[1].brier!, three],
  ];
  const line = (name: string, rs: readonly RestatedWindow[]) => {
    const cis = bootstrapIntervals(
      rs,
      figures.map(([, figure]) => figure),
    );
    const shown = figures.map(([label, figure, f], i) => {
      const v = figure(rs);
      const ci = cis[i];
      return `${label} ${v === null ? '—' : f(v)} (${ci ? `${f(ci[0])}–${f(ci[1])}` : '—'})`;
    });
    console.log(`  ${name} (${rs.length} windows, ${new Set(rs.map((r) => r.asOf)).size} origins): ${shown.join(', ')}`);
  };
  console.log(
    "Likely windows restated leave-one-year-out (the map for a year of origin fitted on the other years' windows only; " +
      "skill against the share of those windows that held; the law's mass as served beside it):",
  );
  const populations = [
    ['every next draw', all],
    ['next draws not after a dormancy pause', all.filter((r) => !paused(r))],
  ] as const;
  for (const [population, rs] of populations)
    for (const [mapName, group] of [
      ['one map', () => ''],
      ['a map per k', (r: StaleFeedRecord) => r.hiddenDays],
    ] as const) {
      const restated = leaveOneYearOutWindows(rs, group);
      console.log(`${population}, ${mapName}:`);
      line('every k', restated);
      for (const k of STALE_HIDDEN)
        line(
          `k = ${k}`,
          restated.filter((r) => r.hiddenDays === k),
        );
      if (population === populations[0][0] && mapName === 'one map')
        for (const year of [...new Set(restated.map((r) => r.asOf.slice(0, 4)))].sort())
          line(
            year,
            restated.filter((r) => r.asOf.startsWith(year)),
          );
    }
}

/**
 * The interval scores of one year of origins after another, and their mean over the years: a rule chosen on the mean of
 * the per-year ratios must do well in calm years and in years of regime changes alike, where the pooled ratio is led
 * by the years with the largest scores. Per-year coverage beside them (85–99% wanted in each year).
 */
function printYears(records: readonly OriginRecord[], law: ScoreLaw): void {
  const years = [...new Set(records.map((r) => r.asOf.slice(0, 4)))].sort();
  const ratio = (kind: 'crs' | 'invitations') => (rs: readonly OriginRecord[]) => {
    const s = summarise(rs, law)[kind];
    return s.winkler === null || s.baselineWinkler === null || s.baselineWinkler === 0 ? null : s.winkler / s.baselineWinkler;
  };
  const coverage = (kind: 'crs' | 'invitations') => (rs: readonly OriginRecord[]) => summarise(rs, law)[kind].coverage;
  const show = (value: number | null, ci: [number, number] | null, d: (x: number) => string) =>
    `${value === null ? '—' : d(value)} (${ci ? `${d(ci[0])}–${d(ci[1])}` : '—'})`;
  const three = (x: number) => x.toFixed(3);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log('By year of origin, pooled over categories and h = 1–5 (95% bootstrap intervals over forecast rounds):');
  console.log(
    `  ${'year'.padEnd(6)}${'rounds'.padStart(7)}${'cmp'.padStart(5)} | CRS IS ÷ baseline, coverage | INV IS ÷ baseline, coverage | established categories (targets)`,
  );
  for (const year of years) {
    const rs = records.filter((r) => r.asOf.startsWith(year));
    const compared = rs.filter((r) => r.served !== null && r.baseline !== null);
    const cats = [...new Set(compared.map((r) => r.category))]
      .map((c) => `${c} ${compared.filter((r) => r.category === c && r.served!.model === 'combination').length}`)
      .join(', ');
    const cell = (kind: 'crs' | 'invitations') =>
      `${show(ratio(kind)(rs), bootstrapInterval(rs, ratio(kind)), three)}, ${show(coverage(kind)(rs), bootstrapInterval(rs, coverage(kind)), pct)}`;
    console.log(
      `  ${year.padEnd(6)}${String(new Set(rs.map((r) => r.asOf)).size).padStart(7)}${String(compared.length).padStart(5)} | ${cell('crs')} | ${cell('invitations')} | ${cats}`,
    );
  }
  // The mean over the years of the per-year ratio (a year without a ratio in a replicate leaves it undefined).
  const meanOfYears = (kind: 'crs' | 'invitations') => (rs: readonly OriginRecord[]) => {
    let sum = 0;
    for (const y of years) {
      const v = ratio(kind)(rs.filter((r) => r.asOf.startsWith(y)));
      if (v === null) return null;
      sum += v;
    }
    return sum / years.length;
  };
  for (const kind of ['crs', 'invitations'] as const)
    console.log(
      `  mean over ${years.length} years of the ${kind === 'crs' ? 'CRS' : 'invitations'} interval score ratio: ` +
        show(meanOfYears(kind)(records), bootstrapInterval(records, meanOfYears(kind)), three),
    );
}

/**
 * The next draw's likely window (21 days) and its stated probability, on draw days and as of every DATE_AS_OF_STEP-th
 * day: mean stated probability, share held, Brier score against the reference (the share of the windows known at each
 * origin that held their draw), Brier skill, expected calibration error, by year of origin, and the reliability table,
 * with bootstrap intervals over days.
 */
function printLikelyWindows(records: readonly OriginRecord[], asOfDays: readonly AsOfDateRecord[], pct: (x: number) => string): void {
  const show = (value: number | null, ci: [number, number] | null, f: (x: number) => string) =>
    `${value === null ? '—' : f(value)} (${ci ? `${f(ci[0])}–${f(ci[1])}` : '—'})`;
  const three = (x: number) => x.toFixed(3);
  const nextDraws = records
    .filter((r) => r.h === 1 && r.served !== null)
    .map((r) => ({ asOf: r.asOf, actual: r.actual.date, likely: r.served!.likely }));
  const views = [
    ['draw days', nextDraws],
    [`as of every ${DATE_AS_OF_STEP}th day`, asOfDays.map((r) => ({ asOf: r.asOf, actual: r.actual, likely: r.likely }))],
  ] as const;
  for (const [name, rs] of views) {
    const s = summariseLikelyWindows(rs);
    // A figure of the summary with its bootstrap interval over the windows.
    const figure = (pick: (x: ReturnType<typeof summariseLikelyWindows>) => number | null, format: (x: number) => string) =>
      show(
        pick(s),
        bootstrapInterval(rs, (xs) => pick(summariseLikelyWindows(xs))),
        format,
      );
    console.log(
      `  next draw's likely window (21 days), ${name} (${s.n} windows; median ${s.medianLead ?? '—'} days from the as-of date to its first day; 95% CI): ` +
        `mean stated ${figure((x) => x.meanStated, pct)}, held ${figure((x) => x.hitRate, pct)}, ` +
        `Brier ${figure((x) => x.brier, three)} against ${s.referenceBrier === null ? '—' : three(s.referenceBrier)} for the windows' past hit rate, ` +
        `skill ${figure((x) => x.skill, three)}, ECE ${figure((x) => x.ece, three)}; the law's own mass ` +
        `(uncalibrated): mean ${s.massMean === null ? '—' : pct(s.massMean)}, Brier ${figure((x) => x.massBrier, three)}, ` +
        `ECE ${figure((x) => x.massEce, three)}`,
    );
    const years = [...new Set(rs.map((r) => r.asOf.slice(0, 4)))].sort();
    if (years.length > 1)
      console.log(
        '    by year: ' +
          years
            .map((year) => {
              const y = summariseLikelyWindows(rs.filter((r) => r.asOf.startsWith(year)));
              return `${year} n=${y.n} stated ${y.meanStated === null ? '—' : pct(y.meanStated)} held ${y.hitRate === null ? '—' : pct(y.hitRate)} skill ${y.skill === null ? '—' : three(y.skill)}`;
            })
            .join('; '),
      );
    console.log(
      '    reliability (stated bin: windows, mean stated, share held): ' +
        s.bins
          .filter((b) => b.n > 0)
          .map((b) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}: ${b.n}, ${pct(b.stated!)}, ${pct(b.observed!)}`)
          .join('; '),
    );
  }
}

/**
 * The date views beside the draw-day origins: the ranges served as of days spread through the gaps (a person asks on
 * any day), and what the real gaps allow (hindsight windows per category, and each category's spread of gaps).
 */
function printDates(
  records: readonly OriginRecord[],
  asOfDays: readonly AsOfDateRecord[],
  ownGaps: readonly AsOfDateRecord[],
  pct: (x: number) => string,
): void {
  const show = (value: number | null, ci: [number, number] | null, f: (x: number) => string) =>
    `${value === null ? '—' : f(value)} (95% CI ${ci ? `${f(ci[0])}–${f(ci[1])}` : '—'})`;
  const days = (x: number) => `${x.toFixed(0)} days`;
  const score = (x: number) => x.toFixed(1);
  const nextDraws = records
    .filter((r) => r.h === 1 && r.served !== null && r.baseline !== null)
    .map((r) => ({ asOf: r.asOf, actual: r.actual.date, range: r.served!.dateRange, active: r.active }));
  console.log(
    `  next draw: date interval score (Winkler, α = 0.10, days; the round rhythm never applies on a draw day) ` +
      show(
        summariseDateRanges(nextDraws).intervalScore,
        bootstrapInterval(nextDraws, (rs) => summariseDateRanges(rs).intervalScore),
        score,
      ),
  );
  for (const [name, rs] of [
    ['served', asOfDays],
    ['own gaps only (baseline)', ownGaps],
  ] as const) {
    const all = summariseDateRanges(rs);
    const figure = (pick: (s: ReturnType<typeof summariseDateRanges>) => number | null) => (xs: readonly AsOfDateRecord[]) =>
      pick(summariseDateRanges(xs));
    console.log(
      `  next draw, as of every ${DATE_AS_OF_STEP}th day, ${name} (${all.n} ranges, ${all.activeN} of active categories): ` +
        `interval score ${show(
          all.intervalScore,
          bootstrapInterval(
            rs,
            figure((s) => s.intervalScore),
          ),
          score,
        )}; 90% date coverage ` +
        `${show(
          all.coverage,
          bootstrapInterval(
            rs,
            figure((s) => s.coverage),
          ),
          pct,
        )}; median width, active ` +
        show(
          all.medianWidthActive,
          bootstrapInterval(
            rs,
            figure((s) => s.medianWidthActive),
          ),
          days,
        ),
    );
  }
  // Paired: the same (category, as-of day) under both, resampled together.
  const baseline = new Map(ownGaps.map((r) => [`${r.category}|${r.asOf}`, r]));
  const pairs = asOfDays.flatMap((r) => {
    const b = baseline.get(`${r.category}|${r.asOf}`);
    return b === undefined ? [] : [{ asOf: r.asOf, served: r, baseline: b }];
  });
  const ratio = (ps: readonly (typeof pairs)[number][]) => {
    const a = summariseDateRanges(ps.map((p) => p.served)).intervalScore;
    const b = summariseDateRanges(ps.map((p) => p.baseline)).intervalScore;
    return a === null || b === null || b === 0 ? null : a / b;
  };
  const changed = pairs.filter((p) => p.served.range[0] !== p.baseline.range[0] || p.served.range[1] !== p.baseline.range[1]).length;
  console.log(
    `  as of every ${DATE_AS_OF_STEP}th day: interval score served ÷ own gaps only ${show(ratio(pairs), bootstrapInterval(pairs, ratio), (x) => x.toFixed(3))}` +
      ` (${changed} of ${pairs.length} ranges differ: those past the category's typical gap)`,
  );
  const gaps = records
    .filter((r) => r.h === 1 && r.active)
    .map((r) => ({ category: r.category, gap: dayNumber(r.actual.date) - dayNumber(r.asOf) }));
  console.log(
    `  what the gaps allow (${gaps.length} next draws of active categories, from their previous draw): a window of w days per ` +
      `category chosen in hindsight holds ` +
      hindsightWindowCoverage(gaps, HINDSIGHT_WIDTHS)
        .map((x) => `${x.width}: ${x.coverage === null ? '—' : pct(x.coverage)}`)
        .join(', '),
  );
  console.log(
    `  gaps (days) to the next draw, active categories: ` +
      gapSpread(gaps)
        .map((g) => `${g.category} n=${g.n} median ${g.p50.toFixed(0)}, 5–95% ${g.p05.toFixed(0)}–${g.p95.toFixed(0)}`)
        .join('; '),
  );
}

/**
 * The next draw's date ranges by calendar year of the as-of date, on draw days and as of every DATE_AS_OF_STEP-th day,
 * and the mean over the years of the yearly interval score (each year weighs the same), with bootstrap intervals over
 * days; then the same without the next draws that came after a dormancy pause (a change of the program no gap law
 * foresees: General 2020–2022, CEC 2021–2024; their misses of hundreds of days swamp a year's score).
 */
function printDatesByYear(
  records: readonly OriginRecord[],
  asOfDays: readonly AsOfDateRecord[],
  afterPause: (category: string, asOf: string, actual: string) => boolean,
  pct: (x: number) => string,
): void {
  const nextDraws = records
    .filter((r) => r.h === 1 && r.served !== null && r.baseline !== null)
    .map((r) => ({
      asOf: r.asOf,
      actual: r.actual.date,
      range: r.served!.dateRange,
      active: r.active,
      afterPause: afterPause(r.category, r.asOf, r.actual.date),
    }));
  if (new Set(nextDraws.map((r) => r.asOf.slice(0, 4))).size < 2) return;
  const ci = (x: [number, number] | null, f: (v: number) => string) => (x ? `${f(x[0])}–${f(x[1])}` : '—');
  const one = (x: number) => x.toFixed(1);
  for (const [name, keep] of [
    ['every next draw', () => true],
    ['next draws within the dormancy threshold', (r: { afterPause: boolean }) => !r.afterPause],
  ] as const) {
    const views = [
      ['draw days', nextDraws.filter(keep)],
      [`as of every ${DATE_AS_OF_STEP}th day`, asOfDays.filter(keep)],
    ] as const;
    // Without a dormancy pause in the period, the second view repeats the first.
    if (name !== 'every next draw' && views[0][1].length === nextDraws.length && views[1][1].length === asOfDays.length) continue;
    console.log(
      `  next draw by year of the as-of date, ${name} (left out: ${views.map(([, rs], i) => (i === 0 ? nextDraws : asOfDays).length - rs.length).join(' and ')}):` +
        ' interval score (95% CI), coverage (95% CI), median width of active categories (days)',
    );
    for (const [view, rs] of views) {
      const yearly = summariseByYear(rs).map(({ year, summary: s }) => {
        const inYear = rs.filter((r) => r.asOf.startsWith(year));
        const is = bootstrapInterval(inYear, (xs) => summariseDateRanges(xs).intervalScore);
        const cov = bootstrapInterval(inYear, (xs) => summariseDateRanges(xs).coverage);
        return `${year} n=${s.n} ${one(s.intervalScore!)} (${ci(is, one)}) ${pct(s.coverage!)} (${ci(cov, pct)}) ${s.medianWidthActive ?? '—'}`;
      });
      const all = summariseDateRanges(rs);
      console.log(
        `    ${view}: ${yearly.join('; ')}; mean over years ${one(meanYearlyIntervalScore(rs)!)} ` +
          `(${ci(bootstrapInterval(rs, meanYearlyIntervalScore), one)}); pooled coverage ${pct(all.coverage!)}, median width ${all.medianWidthActive ?? '—'}`,
      );
    }
  }
}

// (2) Import against the in-memory domain work it contains.
const inMemory: number[] = [];
for (let i = 0; i < REPEATS; i++) {
  const t0 = performance.now();
  const { rounds } = parseRoundsFeed(fs.readFileSync(feedFile, 'utf8'));
  const groups = categoriseRounds(rounds);
  computeForecasts(
    groups.map((g, k) => ({
      id: k + 1,
      slug: g.category.slug,
      draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
    })),
    SNAPSHOT_AS_OF,
    staleAfterDays(process.env),
  );
  inMemory.push(performance.now() - t0);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-draws-'));
const db = openDatabase(`sqlite:${path.join(dir, 'bench.sqlite')}`);
await migrateToLatest(db.kysely, drawsService.migrations);
const first: number[] = [];
const again: number[] = [];
for (let i = 0; i < REPEATS; i++) {
  await db.kysely.withTables<DrawsTables>().deleteFrom('draws_predictions').execute();
  await db.kysely.withTables<DrawsTables>().deleteFrom('draws_draws').execute();
  let t0 = performance.now();
  await importRounds(context(db, 0), feedFile);
  first.push(performance.now() - t0);
  t0 = performance.now();
  await importRounds(context(db, 0), feedFile);
  again.push(performance.now() - t0);
}
console.log(`import of ${SNAPSHOT_NAME} (389 rounds) into SQLite, median of ${REPEATS}:`);
console.log(`  baseline, the same parsing, categorising and forecasting in memory: ${ms(median(inMemory))}`);
console.log(`  import into an empty database:   ${ms(median(first))}  (${(median(first) / median(inMemory)).toFixed(2)}× the baseline)`);
console.log(`  re-import, every round unchanged: ${ms(median(again))}  (${(median(again) / median(inMemory)).toFixed(2)}× the baseline)`);

// (3) Requests with and without the response cache.
async function timeRequests(cacheEntries: number, url: string): Promise<number> {
  const app = await buildServiceApp(drawsService, context(db, cacheEntries), { logger: false });
  await app.ready();
  await app.inject(url);
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await app.inject(url);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  }
  const elapsed = performance.now() - t0;
  await app.close();
  return elapsed / REQUESTS;
}
for (const url of ['/api/predict/', '/api/draws/', '/api/stats/']) {
  const computed = await timeRequests(0, url);
  const cached = await timeRequests(2000, url);
  console.log(
    `GET ${url} × ${REQUESTS}: computed each time ${computed.toFixed(3)} ms/request (baseline); from the response cache ${cached.toFixed(3)} ms/request; ${(computed / cached).toFixed(1)}× faster`,
  );
}
await db.close();
fs.rmSync(dir, { recursive: true, force: true });
