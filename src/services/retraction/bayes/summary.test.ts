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
  assert.ok(s.interpretation.includes('excludes a rate ratio of 1'));
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
    up.includes('7.8% higher') &&
      up.includes('0.989 to 1.180') &&
      up.includes('includes a rate ratio of 1') &&
      up.includes('positive: 95.2%'),
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
