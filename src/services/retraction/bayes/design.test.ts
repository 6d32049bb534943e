import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildDesign, EXCLUSION, summariseDesign } from './design.ts';
import { simulatePanel } from './simulate.ts';
import type { PanelRow } from './types.ts';

test('predictors are standardised within each year (mean 0, sample sd 1)', () => {
  const { rows } = simulatePanel({
    countries: 25,
    firstYear: 2000,
    years: 4,
    predictors: ['p', 'q'],
    truth: { alpha: -5, beta: { p: 0.1, q: -0.1 }, sigmaCountry: 0.5, sigmaYear: 0.2, phi: 3 },
    seed: 'design',
  });
  const design = buildDesign(rows);
  assert.deepEqual(design.predictors, ['p', 'q']);
  assert.equal(design.n, 100);
  assert.equal(design.nCountries, 25);
  assert.deepEqual(design.years, [2000, 2001, 2002, 2003]);
  for (let t = 0; t < 4; t++) {
    for (let j = 0; j < 2; j++) {
      const values: number[] = [];
      for (let i = 0; i < design.n; i++) if (design.year[i] === t) values.push(design.x[i * 2 + j]);
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
      assert.ok(Math.abs(mean) < 1e-12 && Math.abs(sd - 1) < 1e-12);
    }
  }
  // Offsets and counts carried through.
  const first = rows[0];
  const i = design.country.findIndex((c, r) => design.countries[c] === first.country && design.years[design.year[r]] === first.year);
  assert.equal(design.y[i], first.retractions);
  assert.ok(Math.abs(design.logExposure[i] - Math.log(first.publications)) < 1e-15);
});

test('incomplete rows are excluded and counted by reason; constant predictor-years are reported', () => {
  const row = (country: string, year: number, p: number | null, extra: Partial<PanelRow> = {}): PanelRow => ({
    country,
    year,
    publications: 100,
    retractions: 2,
    predictors: { p, c: 5 },
    ...extra,
  });
  const rows: PanelRow[] = [
    row('A', 2001, 1),
    row('B', 2001, 2),
    row('C', 2001, 4),
    row('D', 2001, null),
    row('E', 2001, 3, { publications: 0 }),
    row('F', 2001, 3, { retractions: 1.5 }),
    row('A', 2001, 9),
    row('', 2001, 1),
    row('G', 2001.5, 1),
  ];
  const design = buildDesign(rows);
  assert.equal(design.n, 3);
  assert.equal(design.excludedRows, 6);
  assert.deepEqual(design.exclusionReasons, {
    [EXCLUSION.predictor]: 1,
    [EXCLUSION.publications]: 1,
    [EXCLUSION.retractions]: 1,
    [EXCLUSION.duplicate]: 1,
    [EXCLUSION.country]: 1,
    [EXCLUSION.year]: 1,
  });
  assert.deepEqual(design.constantWithinYear, [{ predictor: 'c', year: 2001 }]);
  for (let i = 0; i < design.n; i++) assert.equal(design.x[i * 2 + 1], 0);
  const summary = summariseDesign(design);
  assert.deepEqual(summary.years, { first: 2001, last: 2001, count: 1 });
  assert.equal(summary.excludedRows, 6);
});

test('an explicit predictor list selects and orders predictors', () => {
  const rows: PanelRow[] = [
    { country: 'A', year: 1, publications: 10, retractions: 0, predictors: { a: 1, b: 2, c: 3 } },
    { country: 'B', year: 1, publications: 10, retractions: 1, predictors: { a: 2, b: 1, c: 0 } },
  ];
  assert.deepEqual(buildDesign(rows, ['c', 'a']).predictors, ['c', 'a']);
  assert.throws(() => buildDesign(rows, ['a', 'a']), RangeError);
});
