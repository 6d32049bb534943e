import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../../core/random.ts';
import { interpretPredictor, summariseDraws, summarisePredictor } from './summary.ts';

test('draw summaries: type-7 quantiles, sample sd, tail probabilities', () => {
  const s = summariseDraws([4, 1, 3, 2, 5, -1, 0, 6, 7, 8]);
  assert.equal(s.mean, 3.5);
  assert.equal(s.median, 3.5);
  assert.ok(Math.abs(s.q025 - -0.775) < 1e-12);
  assert.ok(Math.abs(s.q975 - 7.775) < 1e-12);
  assert.ok(Math.abs(s.sd - Math.sqrt(82.5 / 9)) < 1e-12);
  assert.equal(s.probPositive, 0.8);
  assert.equal(s.probNegative, 0.1);
});

test('predictor summary: rate ratio and its interval are exp of the coefficient summaries', () => {
  const rng = new Random('summary');
  const chains = Array.from({ length: 4 }, () => Float64Array.from({ length: 2000 }, () => rng.normal(-0.3, 0.08)));
  const s = summarisePredictor('democracy', chains);
  assert.ok(Math.abs(s.mean + 0.3) < 0.01);
  assert.ok(Math.abs(s.sd! - 0.08) < 0.005);
  assert.equal(s.rateRatio, Math.exp(s.mean));
  assert.equal(s.rateRatioLower, Math.exp(s.ciLower!));
  assert.equal(s.rateRatioUpper, Math.exp(s.ciUpper!));
  assert.ok(s.probNegative! > 0.999);
  assert.ok(s.rhat! < 1.01 && s.essBulk! > 5000);
  const pct = ((1 - s.rateRatio) * 100).toFixed(1);
  assert.ok(s.interpretation.includes(`${pct}% lower`), s.interpretation);
  assert.ok(s.interpretation.includes('Per one standard deviation higher democracy within a year'));
  assert.ok(!/excludes|includes a rate ratio/.test(s.interpretation), 'no binary interval sentence');
  assert.ok(s.interpretation.includes('negative: over 99.9%'));
});

test('interpretation follows the numbers: positive, uncertain, and unchanged effects', () => {
  const up = interpretPredictor({
    name: 'rnd',
    rateRatio: 1.0784,
    rateRatioLower: 0.9889,
    rateRatioUpper: 1.1801,
    probPositive: 0.952,
    probNegative: 0.048,
  });
  assert.ok(
    up.includes('7.8% higher') && up.includes('0.989 to 1.180') && !up.includes('rate ratio of 1') && up.includes('positive: 95.2%'),
    up,
  );
  const flat = interpretPredictor({
    name: 'x',
    rateRatio: 1.0002,
    rateRatioLower: null,
    rateRatioUpper: null,
    probPositive: null,
    probNegative: null,
  });
  assert.ok(flat.includes('essentially unchanged') && !flat.includes('interval'), flat);
});

test('an interval end that crosses 1 by a hair changes no words, only the probability', () => {
  const base = { name: 'democracy', rateRatio: 0.9412, rateRatioUpper: 0.99995, probPositive: 0.0251, probNegative: 0.9749 };
  const just = interpretPredictor({ ...base, rateRatioLower: 0.8801 });
  const over = interpretPredictor({ ...base, rateRatioUpper: 1.00005, rateRatioLower: 0.8801, probPositive: 0.0252, probNegative: 0.9748 });
  const words = (text: string) => text.replace(/[\d.]+%?/g, '#');
  assert.equal(words(just), words(over));
  assert.ok(just.includes('negative: 97.5%') && over.includes('negative: 97.5%'), `${just}\n${over}`);
});

test('MCSEs of a predictor summary: mean, sd, quantiles, rate ratio and the sign probability', () => {
  const rng = new Random('summary-mcse');
  const chains = Array.from({ length: 4 }, () => Float64Array.from({ length: 1000 }, () => rng.normal(-0.05, 0.1)));
  const s = summarisePredictor('x', chains);
  const m = s.mcse!;
  const N = 4000;
  // Independent draws: sd/√N, sd/√(2N), and √(p(1−p)/N) for the probability (within 15%: ESS is estimated).
  const near = (value: number | null, expected: number, label: string) =>
    assert.ok(value !== null && Math.abs(value / expected - 1) < 0.15, `${label}: ${value} vs ${expected}`);
  near(m.mean, 0.1 / Math.sqrt(N), 'mean');
  near(m.sd, 0.1 / Math.sqrt(2 * N), 'sd');
  near(m.probPositive, Math.sqrt((s.probPositive! * (1 - s.probPositive!)) / N), 'P(β>0)');
  near(m.rateRatio, s.rateRatio * m.mean!, 'rate ratio (delta method)');
  // Rate-ratio interval ends: ≈ exp(q) × MCSE(q).
  near(m.rateRatioLower, s.rateRatioLower! * m.ciLower!, 'rate ratio lower');
  near(m.rateRatioUpper, s.rateRatioUpper! * m.ciUpper!, 'rate ratio upper');
});
