import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { categoriseRounds, CANONICAL_CATEGORIES } from '../feed/categories.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { parseRoundsFeed } from '../feed/rounds-feed.ts';
import { loadSnapshot, SNAPSHOT_AS_OF } from '../../../../test/support/draws/snapshot.ts';
import { weekday } from './draw-dates.ts';
import { forecastCategory, type CategoryForecast, type DrawObservation } from './forecast-category.ts';
import { CONFIDENCE_DEFINITION, FORECAST_METHOD, MODEL_CATALOGUE } from './model-catalogue.ts';
import { MODEL_NAMES } from './models.ts';

/** A synthetic category: a draw every `step` days up to `last`, CRS a noisy walk, invitations around 3,000. */
function syntheticDraws(seed: number, count: number, last: string, step: number): DrawObservation[] {
  const rng = new Random(seed);
  let crs = 480;
  return Array.from({ length: count }, (_, i) => {
    crs += rng.normal(0, 6);
    return {
      date: isoFromDayNumber(dayNumber(last) - (count - 1 - i) * step),
      crs: Math.round(crs),
      invitations: Math.max(1, Math.round(3000 + rng.normal(0, 400))),
    };
  });
}

function checkPredictionShape(f: CategoryForecast, asOf: string): void {
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
    assert.ok(Number.isFinite(u.margin_of_error) && u.margin_of_error >= 0);
    assert.ok(p.confidence_score > 0 && p.confidence_score < 100);
    assert.ok(Number.isInteger(p.predicted_invitations) && p.predicted_invitations >= 1);
    assert.equal(p.model_used, f.chosenModels.crs);
  });
}

test('a regular category is predicted: five ranks, well-formed', () => {
  const draws = syntheticDraws(1, 40, '2025-12-10', 14);
  const f = forecastCategory(draws, '2025-12-17');
  assert.equal(f.status, 'predicted');
  assert.equal(f.predictions.length, 5);
  assert.equal(f.stepDays, 14);
  assert.equal(f.predictions[0].predicted_date, '2025-12-24');
  checkPredictionShape(f, '2025-12-17');
  // confidence_score = (hits + 1)/(n + 2) × 100 of the chosen model at that horizon.
  const chosen = f.backtests.crs.find((b) => b.model === f.chosenModels.crs)!;
  for (const p of f.predictions) {
    const m = chosen.byHorizon[p.rank - 1];
    assert.equal(p.confidence_score, Math.round(((m.hits + 1) / (m.n + 2)) * 1000) / 10);
  }
  assert.deepEqual(
    f.backtests.crs.map((b) => b.model),
    [...MODEL_NAMES],
    'all four candidates with 40 draws',
  );
  assert.equal(f.chosenModels.invitations, f.invitations!.model);
});

test('dormant and insufficient history are not predicted', () => {
  const old = syntheticDraws(2, 30, '2024-01-10', 14);
  const dormant = forecastCategory(old, '2025-12-17');
  assert.equal(dormant.status, 'dormant');
  assert.equal(dormant.predictions.length, 0);
  assert.ok(dormant.backtests.crs.length > 0, 'backtests still describe the history');
  const few = forecastCategory(syntheticDraws(3, 4, '2025-12-01', 30), '2025-12-17');
  assert.equal(few.status, 'insufficient_history');
  assert.equal(few.predictions.length, 0);
  assert.equal(forecastCategory([], '2025-12-17').status, 'insufficient_history');
  // Draws after the as-of date are not known yet.
  const future = syntheticDraws(4, 10, '2026-06-01', 14);
  assert.equal(forecastCategory(future, '2025-12-17').history.draws, future.filter((d) => d.date <= '2025-12-17').length);
});

test('bad input is refused with a clear error', () => {
  const ok = syntheticDraws(5, 6, '2025-12-01', 14);
  assert.throws(() => forecastCategory(ok, '17/12/2025'), /asOf/);
  assert.throws(() => forecastCategory([{ ...ok[0], crs: 1300 }, ...ok], '2025-12-17'), /crs 1300/);
  assert.throws(() => forecastCategory([{ ...ok[0], invitations: 0 }, ...ok], '2025-12-17'), /invitations 0/);
  assert.throws(() => forecastCategory([{ ...ok[0], date: '2025-02-30' }, ...ok], '2025-12-17'), /date/);
});

test('deterministic: the same draws in any order and the same as-of date give the same result', () => {
  const draws = syntheticDraws(6, 60, '2025-12-12', 10);
  const a = forecastCategory(draws, '2025-12-17');
  const b = forecastCategory(draws, '2025-12-17');
  const shuffled = new Random(99).shuffle([...draws]);
  const c = forecastCategory(shuffled, '2025-12-17');
  assert.deepEqual(JSON.parse(JSON.stringify(b)), JSON.parse(JSON.stringify(a)));
  assert.deepEqual(JSON.parse(JSON.stringify(c)), JSON.parse(JSON.stringify(a)));
});

test('the model catalogue describes every model and the confidence score', () => {
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
});

test('the real snapshot: every category forecast; table of chosen model vs naive', (t) => {
  const json = loadSnapshot(t);
  if (json === null) return;
  const { rounds } = parseRoundsFeed(json);
  const byCategory = new Map<string, DrawObservation[]>(
    categoriseRounds(rounds).map((g) => [
      g.category.slug,
      g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
    ]),
  );
  assert.equal(
    [...byCategory.values()].reduce((s, d) => s + d.length, 0),
    389,
  );
  const rows: string[] = [];
  const pad = (s: string | number, n: number): string => String(s).padEnd(n);
  const num = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(1));
  const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(0)}%`);
  rows.push(
    `${pad('category', 12)}${pad('draws', 6)}${pad('status', 21)}${pad('CRS model', 13)}${pad('why', 12)}${pad('n(cmp)', 7)}${pad('MAE ch', 8)}${pad('MAE nv', 8)}${pad('n(ch)', 6)}${pad('MAE ch', 8)}${pad('cov95', 6)}${pad('naive n', 8)}${pad('MAE nv', 8)}cov95`,
  );
  for (const category of CANONICAL_CATEGORIES) {
    const draws = byCategory.get(category.slug) ?? [];
    const f = forecastCategory(draws, SNAPSHOT_AS_OF);
    assert.equal(f.history.draws, draws.length);
    checkPredictionShape(f, SNAPSHOT_AS_OF);
    if (f.status === 'predicted') assert.ok(f.predictions.length >= 1);
    else assert.equal(f.predictions.length, 0);
    for (const series of [f.crs, f.invitations]) {
      if (series === null) continue;
      for (const b of series.backtests) {
        for (const m of b.byHorizon) {
          // n is the number of origins with a target h steps on.
          assert.equal(m.n, Math.max(0, draws.length - b.firstOrigin - (m.h - 1)), `${category.slug} ${b.model} h${m.h}`);
          if (m.n > 0) {
            for (const v of [m.mae, m.rmse, m.bias, m.coverage_95, m.analytic_coverage_95])
              assert.ok(Number.isFinite(v), `${category.slug} ${b.model}`);
            assert.ok(m.coverage_95! >= 0 && m.coverage_95! <= 1);
          }
        }
      }
    }
    const crs = f.crs;
    const chosen = crs?.backtests.find((b) => b.model === crs.model)?.byHorizon[0];
    const naive = crs?.backtests.find((b) => b.model === 'naive')?.byHorizon[0];
    rows.push(
      pad(category.slug, 12) +
        pad(draws.length, 6) +
        pad(f.status, 21) +
        pad(crs?.model ?? '—', 13) +
        pad(crs?.selection.reason ?? '—', 12) +
        pad(crs?.selection.comparedOn ?? '—', 7) +
        pad(num(crs?.selection.maeH1[crs.model]), 8) +
        pad(num(crs?.selection.maeH1.naive), 8) +
        pad(chosen?.n ?? '—', 6) +
        pad(num(chosen?.mae), 8) +
        pad(pct(chosen?.coverage_95), 6) +
        pad(naive?.n ?? '—', 8) +
        pad(num(naive?.mae), 8) +
        pct(naive?.coverage_95),
    );
  }
  console.log(
    `\nCRS cut-off forecasts as of ${SNAPSHOT_AS_OF}, h = 1 (n(cmp): targets common to all candidates, on which the choice is made; ` +
      `then the chosen and the naive model on all their own backtest targets; cov95: coverage of the interval served at each origin)\n${rows.join('\n')}\n`,
  );
});
