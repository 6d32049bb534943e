import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulatePanel } from './simulate.ts';

const options = {
  countries: 40,
  firstYear: 2006,
  years: 5,
  predictors: ['a', 'b'],
  truth: { alpha: -6, beta: { a: 0.4, b: -0.2 }, sigmaCountry: 0.8, sigmaYear: 0.2, phi: 6 },
};

test('the simulator is seeded: same seed, same panel; other seed, other panel', () => {
  const one = simulatePanel({ ...options, seed: 5 });
  const two = simulatePanel({ ...options, seed: 5 });
  const three = simulatePanel({ ...options, seed: 6 });
  assert.deepEqual(one.rows, two.rows);
  assert.notDeepEqual(one.rows, three.rows);
  assert.equal(one.rows.length, 200);
  assert.equal(new Set(one.rows.map((r) => r.country)).size, 40);
  assert.ok(one.rows.every((r) => Number.isInteger(r.retractions) && r.retractions >= 0 && r.publications >= 1));
});

test('counts follow the model: the pooled rate per publication is near exp(α + effects)', () => {
  const big = simulatePanel({
    ...options,
    countries: 400,
    years: 10,
    seed: 'rate',
    truth: { ...options.truth, sigmaCountry: 0, sigmaYear: 0, beta: { a: 0, b: 0 } },
  });
  const y = big.rows.reduce((s, r) => s + r.retractions, 0);
  const pubs = big.rows.reduce((s, r) => s + r.publications, 0);
  assert.ok(Math.abs(Math.log(y / pubs) - options.truth.alpha) < 0.05, `log rate ${Math.log(y / pubs)}`);
});

test('a missing coefficient is refused', () => {
  assert.throws(() => simulatePanel({ ...options, predictors: ['a', 'z'], seed: 1 }), /z/);
});
