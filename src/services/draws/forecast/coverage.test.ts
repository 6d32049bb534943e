// Does the full method (backtests, model choice, conformal or analytic interval) deliver 95% intervals?
// Simulated series with known noise: a random walk observed with Gaussian noise, and AR(1) around a level.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { forecastSeries } from './series-forecast.ts';

const SERIES = 1200;

function simulate(rng: Random, kind: 'local_level' | 'ar1', length: number): number[] {
  const y: number[] = [];
  if (kind === 'local_level') {
    const levelSd = rng.uniform(0.5, 8);
    const noiseSd = rng.uniform(1, 15);
    let level = 470;
    for (let t = 0; t < length; t++) {
      level += rng.normal(0, levelSd);
      y.push(level + rng.normal(0, noiseSd));
    }
  } else {
    const phi = rng.uniform(0, 0.9);
    const sd = rng.uniform(2, 20);
    let x = 470 + rng.normal(0, sd / Math.sqrt(1 - phi * phi));
    for (let t = 0; t < length; t++) {
      x = 470 + phi * (x - 470) + rng.normal(0, sd);
      y.push(x);
    }
  }
  return y;
}

test(`h = 1 intervals of the full method cover 93–97% of next values over ${SERIES} simulated series`, () => {
  const rng = new Random('draws-forecast-coverage');
  const tally = new Map<string, { n: number; covered: number }>();
  const count = (key: string, covered: boolean): void => {
    const t = tally.get(key) ?? { n: 0, covered: 0 };
    t.n++;
    if (covered) t.covered++;
    tally.set(key, t);
  };
  for (let i = 0; i < SERIES; i++) {
    const kind = i % 2 === 0 ? 'local_level' : 'ar1';
    const length = rng.int(10, 80);
    const y = simulate(rng, kind, length + 1);
    const f = forecastSeries(y.slice(0, length), { bounds: { min: 0, max: 1200 }, maxHorizon: 1 })!;
    const fc = f.forecasts[0];
    const covered = y[length] >= fc.lower && y[length] <= fc.upper;
    count('all', covered);
    count(kind, covered);
    count(fc.intervalMethod, covered);
    count(`model ${f.selection.model}`, covered);
  }
  const order = [
    'all',
    'local_level',
    'ar1',
    'conformal',
    'analytic',
    'model naive',
    'model window_mean',
    'model ses',
    'model damped_trend',
  ];
  const lines = [...tally.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([k, t]) => `  ${k.padEnd(20)} n=${String(t.n).padStart(5)}  coverage ${((100 * t.covered) / t.n).toFixed(1)}%`);
  console.log(`\nEmpirical coverage of the served 95% interval at h = 1:\n${lines.join('\n')}\n`);
  const all = tally.get('all')!;
  const coverage = all.covered / all.n;
  assert.equal(all.n, SERIES);
  assert.ok(coverage >= 0.93 && coverage <= 0.97, `coverage ${(coverage * 100).toFixed(1)}% outside 93–97%`);
});
