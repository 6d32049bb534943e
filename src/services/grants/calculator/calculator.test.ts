import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../../../core/random.ts';
import { federalIncomeTax, gstCents } from './tax.ts';
import { CalculatorAggregateBuilder, AggregateBuildError, grantYears, splitCents, toCalculatorInput } from './aggregates.ts';
import { Readable, Writable } from 'node:stream';
import { writeGrantsCsv } from '../generator/generate.ts';
import { readGrantsCsv } from '../source/reader.ts';
import { AmendmentResolver } from '../source/amendments.ts';
import type { CalculatorAggregates, CalculatorGrantInput } from './aggregates.ts';
import { calculateTaxpayerShare, CalculatorInputError } from './calculate.ts';
import { FEDERAL_REVENUES, FEDERAL_TAX_YEARS, publishedRevenue } from './constants.ts';
import { CALCULATOR_FORMULAS_MARKDOWN } from './formulas.ts';

// ---------------------------------------------------------------------------------------------------------
// Federal tax, worked by hand from the published CRA brackets (see constants.ts for the sources).
// ---------------------------------------------------------------------------------------------------------

test('2024, income $75,000: brackets minus the BPA credit', () => {
  // 15% × 55,867                         =  8,380.05
  // 20.5% × (75,000 − 55,867 = 19,133)   =  3,922.265
  // bracket tax                          = 12,302.315
  // BPA 15,705 (income below 173,205, no phase-out) × 15% = 2,355.75
  // 12,302.315 − 2,355.75 = 9,946.565 → half up → 9,946.57
  const t = federalIncomeTax(7_500_000, 2024);
  assert.equal(t.taxCents, 994_657);
  assert.equal(t.bracketTaxCents, 1_230_232);
  assert.equal(t.basicPersonalAmountCents, 1_570_500);
  assert.equal(t.bpaCreditCents, 235_575);
});

test('2024, income $200,000: the enhanced BPA phases out between the 29% and 33% thresholds', () => {
  // brackets: 8,380.05 + 20.5% × 55,866 (11,452.53) + 26% × 61,472 (15,982.72) + 29% × (200,000 − 173,205 = 26,795) (7,770.55)
  //         = 43,585.85
  // BPA = 15,705 − (15,705 − 14,156) × (200,000 − 173,205) / (246,752 − 173,205)
  //     = 15,705 − 1,549 × 26,795 / 73,547 = 15,705 − 564.33920 = 15,140.66080
  // tax = 43,585.85 − 15% × 15,140.66080 (2,271.09912) = 41,314.75088 → 41,314.75
  const t = federalIncomeTax(20_000_000, 2024);
  assert.equal(t.bracketTaxCents, 4_358_585);
  assert.equal(t.basicPersonalAmountCents, 1_514_066);
  assert.equal(t.taxCents, 4_131_475);
});

test('2024, income $300,000: above the 33% threshold the BPA is the minimum', () => {
  // 8,380.05 + 11,452.53 + 15,982.72 + 29% × 73,547 (21,328.63) + 33% × (300,000 − 246,752 = 53,248) (17,571.84) = 74,715.77
  // BPA 14,156 × 15% = 2,123.40 → 72,592.37
  const t = federalIncomeTax(30_000_000, 2024);
  assert.equal(t.basicPersonalAmountCents, 1_415_600);
  assert.equal(t.taxCents, 7_259_237);
});

test('2025, income $60,000: the lowest rate (and the credit rate) is 14.5%', () => {
  // 14.5% × 57,375 = 8,319.375; 20.5% × 2,625 = 538.125; sum 8,857.50
  // credit 14.5% × 16,129 = 2,338.705 → 8,857.50 − 2,338.705 = 6,518.795 → 6,518.80
  assert.equal(federalIncomeTax(6_000_000, 2025).taxCents, 651_880);
});

test('2015, income $100,000: four brackets with 22% in the second', () => {
  // 15% × 44,701 = 6,705.15; 22% × 44,700 = 9,834.00; 26% × (100,000 − 89,401 = 10,599) = 2,755.74 → 19,294.89
  // credit 15% × 11,327 = 1,699.05 → 17,595.84
  assert.equal(federalIncomeTax(10_000_000, 2015).taxCents, 1_759_584);
});

test('income below the BPA pays no federal tax (floored at 0); GST is 5%', () => {
  assert.equal(federalIncomeTax(0, 2024).taxCents, 0);
  assert.equal(federalIncomeTax(1_000_000, 2024).taxCents, 0, '15% × 10,000 = 1,500 < credit 2,355.75');
  assert.equal(gstCents(2_500_000), 125_000);
  assert.equal(gstCents(1), 0, '5% of 1 cent = 0.05 cent → 0');
  assert.equal(gstCents(10), 1, '5% of 10 cents = 0.5 cent → 1 (half up)');
  assert.throws(() => federalIncomeTax(-1, 2024), RangeError);
  assert.throws(() => federalIncomeTax(100, 2014), /no federal tax table/);
});

// ---------------------------------------------------------------------------------------------------------
// Aggregates and the calculation, on a small set worked by hand.
// ---------------------------------------------------------------------------------------------------------

const HAND_GRANTS: CalculatorGrantInput[] = [
  // $3M over FY 2022, 2023, 2024 → $1M a year
  { id: 1, title: 'Research chair', recipient: 'University A', value_cents: 300_000_000, start_date: '2022-04-01', end_date: '2025-03-31' },
  // $1M, no end date → FY 2024 only
  { id: 2, title: 'Food hub', recipient: 'Society B', value_cents: 100_000_000, start_date: '2024-05-01', end_date: null },
  // March 31, 2023 (FY 2022) to April 1, 2023 (FY 2023): two fiscal years → $250,000 each
  { id: 3, title: 'Short bridge', recipient: 'Town C', value_cents: 50_000_000, start_date: '2023-03-31', end_date: '2023-04-01' },
  // $10M over FY 2024–2028 → $2M a year, running into the projection years
  { id: 4, title: 'Plant', recipient: 'Corp D', value_cents: 1_000_000_000, start_date: '2024-06-01', end_date: '2028-05-31' },
];

function handAggregates(): CalculatorAggregates {
  const b = new CalculatorAggregateBuilder();
  for (const g of HAND_GRANTS) b.add(g);
  return b.finish();
}

test('aggregates: running totals, counts and new grants per fiscal year; current year from the data', () => {
  const a = handAggregates();
  assert.equal(a.current_year, 2024);
  assert.deepEqual(a.since_range, { min: 2022, max: 2024 });
  const y = (year: number) => a.years.find((e) => e.year === year)!;
  assert.deepEqual([y(2022).running_value_cents, y(2022).running_count], [125_000_000, 2]);
  assert.deepEqual([y(2023).running_value_cents, y(2023).running_count], [125_000_000, 2]);
  assert.deepEqual([y(2024).running_value_cents, y(2024).running_count], [400_000_000, 3]);
  for (const year of [2025, 2026, 2027, 2028]) assert.equal(y(year).running_value_cents, 200_000_000);
  assert.equal(y(2029).running_value_cents, 0);
  assert.deepEqual([y(2022).new_value_cents, y(2023).new_value_cents, y(2024).new_value_cents], [125_000_000, 0, 300_000_000]);
  assert.deepEqual(
    y(2024).top_projects.map((p) => p.id),
    [4, 1, 2],
    'by annual value, ties by id',
  );
  assert.equal(y(2024).fiscal_year, '2024-25');
});

test('calculation: income 75,000 with 25,000 of GST spending', () => {
  const r = calculateTaxpayerShare({ annual_income: 75_000, gst_eligible_spending: 25_000, taxpayer_since_year: 2022 }, handAggregates());
  assert.equal(r.success, true);
  assert.equal(r.calculation.federal_income_tax, 9_946.57);
  assert.equal(r.calculation.gst_paid, 1_250);
  assert.equal(r.calculation.total_tax_contribution, 11_196.57);
  assert.equal(r.calculation.total_tax_contribution_formatted, '$11,196.57');
  assert.equal(r.calculation.tax_year, 2024);
  // C = 11,196.57; revenue 2022-23 447,815,000,000; 2023-24 459,549,000,000; 2024-25 511,000,000,000
  const C = 11_196.57;
  const close = (actual: number, expected: number) =>
    assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)), `${actual} ≠ ${expected}`);
  // share(2024) = C × 4,000,000 / 511,000,000,000 = 0.0876443835…
  close(r.calculation.grants_portion_of_taxes, 0.08764438356164383);
  assert.equal(r.calculation.grants_portion_of_taxes_formatted, '$0.09');
  close(r.calculation.revenue_share_percentage, (C / 511_000_000_000) * 100);
  assert.deepEqual(
    r.yearly_breakdown.map((e) => e.year),
    [2022, 2023, 2024],
  );
  close(r.yearly_breakdown[0].user_share, 0.031253335640833824); // C × 1,250,000 / 447,815,000,000
  close(r.yearly_breakdown[1].user_share, 0.030455321412950525); // C × 1,250,000 / 459,549,000,000
  assert.deepEqual(
    r.yearly_breakdown.map((e) => e.user_share_formatted),
    ['$0.03', '$0.03', '$0.09'],
  );
  assert.deepEqual(
    r.yearly_breakdown.map((e) => e.grant_count),
    [2, 2, 3],
  );
  close(r.total_grants_share, 0.14935304061542817);
  assert.equal(r.total_grants_share_formatted, '$0.15');
  // per grant over 2022-2024: g1 = C × (1M/R22 + 1M/R23 + 1M/R24); g4 = C × 2M/R24; g2 = C × 1M/R24; g3 = C × (250k/R22 + 250k/R23)
  assert.deepEqual(
    r.grant_shares.map((g) => g.id),
    [1, 4, 2, 3],
  );
  close(r.grant_shares[0].user_share, 0.07127802153343844);
  close(r.grant_shares[3].user_share, 0.01234173141075687);
  assert.equal(r.grant_shares[0].total_value, 3_000_000);
  assert.equal(r.grant_shares[0].recipient, 'University A');
  // projections: g4 runs 2025-2028 at $2M; revenue after 2024-25 = the latest published figure
  assert.deepEqual(
    r.future_projections.continuing_only.map((e) => e.year),
    [2025, 2026, 2027, 2028, 2029],
  );
  close(r.future_projections.continuing_only[0].user_share, 0.04382219178082192);
  assert.equal(r.future_projections.continuing_only[4].user_share, 0);
  assert.equal(r.future_projections.continuing_only[0].revenue_is_projected, true);
  // historical average of new grants = (C × 1.25M / R22 + 0 + C × 3M / R24) / 3
  close(r.future_projections.historical_average, 0.03232887443735557);
  close(r.future_projections.with_new_projects[4].user_share, 0.03232887443735557);
  close(r.future_projections.with_new_projects[0].user_share, 0.04382219178082192 + 0.03232887443735557);
});

test('monthly input mode multiplies income and spending by 12', () => {
  const a = handAggregates();
  const monthly = calculateTaxpayerShare(
    { annual_income: 6_250, gst_eligible_spending: 2_000, input_mode: 'monthly', taxpayer_since_year: 2023 },
    a,
  );
  const annual = calculateTaxpayerShare({ annual_income: 75_000, gst_eligible_spending: 24_000, taxpayer_since_year: 2023 }, a);
  assert.equal(monthly.calculation.annual_income, 75_000);
  assert.equal(monthly.calculation.gst_eligible_spending, 24_000);
  assert.equal(monthly.calculation.input_mode, 'monthly');
  // tax 9,946.57 (as above) + GST 5% × 24,000 = 1,200.00 → 11,146.57
  assert.equal(monthly.calculation.total_tax_contribution_formatted, '$11,146.57');
  assert.deepEqual({ ...monthly, calculation: { ...monthly.calculation, input_mode: 'annual' } }, annual);
});

test('income 0 and no spending: every share is zero', () => {
  const r = calculateTaxpayerShare({ annual_income: 0 }, handAggregates());
  assert.equal(r.calculation.total_tax_contribution, 0);
  assert.equal(r.calculation.total_tax_contribution_formatted, '$0.00');
  assert.equal(r.total_grants_share_formatted, '$0.00');
  assert.ok(r.yearly_breakdown.every((e) => e.user_share === 0 && e.user_share_formatted === '$0.00'));
  assert.ok(r.grant_shares.every((g) => g.user_share === 0));
  assert.equal(r.future_projections.historical_average, 0);
});

test('bad requests raise a typed error naming the parameter', () => {
  const a = handAggregates();
  const fails = (body: unknown, parameter: string, message?: RegExp) =>
    assert.throws(
      () => calculateTaxpayerShare(body, a),
      (e: unknown) =>
        e instanceof CalculatorInputError &&
        e.parameter === parameter &&
        e.message.includes(parameter) &&
        (!message || message.test(e.message)),
    );
  fails({ annual_income: -1 }, 'annual_income', /greater than or equal to 0/);
  fails({ annual_income: 'abc' }, 'annual_income', /must be a number/);
  fails({ annual_income: true }, 'annual_income', /must be a number/);
  fails({ annual_income: Number.NaN }, 'annual_income');
  fails({}, 'annual_income', /required/);
  fails({ annual_income: 1, gst_eligible_spending: -5 }, 'gst_eligible_spending');
  fails({ annual_income: 1, input_mode: 'weekly' }, 'input_mode', /annual, monthly/);
  fails({ annual_income: 1, taxpayer_since_year: 2021 }, 'taxpayer_since_year', /between 2022 and 2024/);
  fails({ annual_income: 1, taxpayer_since_year: 2022.5 }, 'taxpayer_since_year');
  fails({ annual_income: 1e13 }, 'annual_income', /at most/);
  fails(null, 'body');
  fails([1], 'body');
  // numeric strings are accepted as numbers
  assert.equal(calculateTaxpayerShare({ annual_income: '75000', taxpayer_since_year: '2022' }, a).calculation.federal_income_tax, 9_946.57);
});

test('the result does not depend on the clock or on earlier calls', () => {
  const a = handAggregates();
  const first = JSON.stringify(calculateTaxpayerShare({ annual_income: 90_000, taxpayer_since_year: 2022 }, a));
  calculateTaxpayerShare({ annual_income: 1, taxpayer_since_year: 2024 }, a);
  assert.equal(JSON.stringify(calculateTaxpayerShare({ annual_income: 90_000, taxpayer_since_year: 2022 }, a)), first);
});

// ---------------------------------------------------------------------------------------------------------
// The precomputed top lists equal a brute-force ranking over all grants.
// ---------------------------------------------------------------------------------------------------------

function randomGrants(n: number, seed: string): CalculatorGrantInput[] {
  const r = new Random(seed);
  const grants: CalculatorGrantInput[] = [];
  for (let id = 1; id <= n; id++) {
    const startYear = r.int(2010, 2024);
    const start = new Date(Date.UTC(startYear, r.int(0, 11), r.int(1, 28)));
    const end = r.bool(0.1) ? null : new Date(start.getTime() + r.int(0, 6 * 365) * 86_400_000);
    grants.push({
      id,
      title: `Grant ${id}`,
      recipient: `R${r.int(1, 40)}`,
      value_cents: Math.round(Math.exp(r.normal(11, 2))) * 100,
      start_date: start.toISOString().slice(0, 10),
      end_date: end ? end.toISOString().slice(0, 10) : null,
    });
  }
  return grants;
}

test('top 10 grants and yearly totals match a brute-force computation over every grant', () => {
  const grants = randomGrants(600, 'calc-brute');
  const b = new CalculatorAggregateBuilder();
  for (const g of grants) b.add(g);
  const a = b.finish();
  assert.equal(a.current_year, 2024);
  assert.equal(a.since_range.min, 2014, 'the data starts in 2010, the revenue table in 2014-15');

  const annual = (g: CalculatorGrantInput) => {
    const { first, last } = grantYears(g.start_date, g.end_date);
    const parts = splitCents(g.value_cents, last - first + 1);
    return new Map(parts.map((p, i) => [first + i, p]));
  };
  const perGrant = grants.map((g) => ({ g, years: annual(g) }));
  for (const year of [2010, 2014, 2019, 2024, 2027]) {
    let sum = 0;
    let count = 0;
    for (const { years } of perGrant) {
      const v = years.get(year);
      if (v !== undefined) {
        sum += v;
        count++;
      }
    }
    const agg = a.years.find((e) => e.year === year)!;
    assert.equal(agg.running_value_cents, sum, `running total ${year}`);
    assert.equal(agg.running_count, count, `running count ${year}`);
  }

  for (const [income, since] of [
    [75_000, 2018],
    [250_000, 2014],
    [40_000, 2024],
  ] as const) {
    const r = calculateTaxpayerShare({ annual_income: income, taxpayer_since_year: since }, a);
    const C = r.calculation.total_tax_contribution;
    const shares = perGrant.map(({ g, years }) => {
      let s = 0;
      for (let y = since; y <= 2024; y++) s += ((years.get(y) ?? 0) / 100) * (C / publishedRevenue(y)!.dollars);
      return { id: g.id, s };
    });
    shares.sort((x, y) => y.s - x.s || x.id - y.id);
    assert.deepEqual(
      r.grant_shares.map((g) => g.id),
      shares.slice(0, 10).map((x) => x.id),
      `top 10 since ${since}`,
    );
    r.grant_shares.forEach((g, i) => assert.ok(Math.abs(g.user_share - shares[i].s) < 1e-9, `share of grant ${g.id}`));
  }
  // the ranking is the same for every contribution (it factors out)
  const low = calculateTaxpayerShare({ annual_income: 20_000, taxpayer_since_year: 2016 }, a).grant_shares.map((g) => g.id);
  const high = calculateTaxpayerShare(
    { annual_income: 900_000, gst_eligible_spending: 50_000, taxpayer_since_year: 2016 },
    a,
  ).grant_shares.map((g) => g.id);
  assert.deepEqual(low, high);
  // the contract's default since year
  assert.equal(calculateTaxpayerShare({ annual_income: 1 }, a).calculation.taxpayer_since_year, 2018);
});

test('splitting and spreading: whole cents that add up, the remainder to the earliest years', () => {
  assert.deepEqual(splitCents(1000, 3), [334, 333, 333]);
  assert.deepEqual(splitCents(-1000, 3), [-334, -333, -333]);
  assert.deepEqual(splitCents(2, 3), [1, 1, 0]);
  assert.deepEqual(grantYears('2019-04-01', '2020-03-31'), { first: 2019, last: 2019 });
  assert.deepEqual(grantYears('2019-03-31', '2019-04-01'), { first: 2018, last: 2019 });
  assert.deepEqual(grantYears('2019-06-01', '2018-01-01'), { first: 2019, last: 2019 }, 'an end before the start: one year');
  assert.equal(grantYears('2019-06-01', '2999-12-31').last - 2019 + 1, 100);
});

test('the builder refuses what it cannot compute', () => {
  assert.throws(() => new CalculatorAggregateBuilder().finish(), AggregateBuildError);
  const old = new CalculatorAggregateBuilder();
  old.add({ id: 1, title: 't', recipient: 'r', value_cents: 100, start_date: '2008-05-01', end_date: null });
  assert.throws(() => old.finish(), /no published federal revenue figure/);
  const configured = new CalculatorAggregateBuilder({ currentYear: 2030 });
  configured.add(HAND_GRANTS[0]);
  assert.throws(() => configured.finish(), /2030-31 has no published federal revenue figure/);
  const earlier = new CalculatorAggregateBuilder({ currentYear: 2023 });
  for (const g of HAND_GRANTS) earlier.add(g);
  assert.equal(earlier.finish().current_year, 2023, 'a configured current year is used');
  assert.throws(() => new CalculatorAggregateBuilder().add({ ...HAND_GRANTS[0], value_cents: 1.5 }), /whole number of cents/);
});

test('constants: contiguous years, increasing brackets, and a source for every entry', () => {
  FEDERAL_REVENUES.forEach((r, i) => {
    if (i > 0) assert.equal(r.fiscalYear, FEDERAL_REVENUES[i - 1].fiscalYear + 1);
    assert.ok(r.dollars > 100e9 && r.dollars < 1e12);
    assert.ok(r.source.publication.length > 20 && /^https?:\/\//.test(r.source.url));
  });
  FEDERAL_TAX_YEARS.forEach((t, i) => {
    if (i > 0) assert.equal(t.year, FEDERAL_TAX_YEARS[i - 1].year + 1);
    for (let k = 1; k < t.brackets.length; k++) assert.ok(t.brackets[k].lowerDollars > t.brackets[k - 1].lowerDollars);
    assert.ok(/^https?:\/\//.test(t.source.url));
    if (t.year >= 2020) assert.ok(t.bpa.minDollars !== undefined && t.bpa.minDollars < t.bpa.maxDollars);
  });
  assert.ok(FEDERAL_TAX_YEARS[0].year <= 2015 && FEDERAL_TAX_YEARS[FEDERAL_TAX_YEARS.length - 1].year >= 2025);
});

test('the formulas are written out for the API description', () => {
  for (const fragment of [
    'federal_income_tax',
    'rate(y) = C / federal_revenue(y)',
    'user_share(g)',
    'historical_average',
    'with_new_projects',
    '$1,234.56',
    'monthly',
  ]) {
    assert.ok(CALCULATOR_FORMULAS_MARKDOWN.includes(fragment), fragment);
  }
});

test('pipeline: generated CSV → reader → amendment resolution → aggregates → calculation', async () => {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  const gen = await writeGrantsCsv(sink, { rows: 5_000, seed: 'pipeline' });
  const resolver = new AmendmentResolver();
  await readGrantsCsv(Readable.from(chunks), (r) => resolver.add(r));
  const builder = new CalculatorAggregateBuilder();
  let id = 0;
  let total = 0;
  for (const record of resolver.values()) {
    builder.add(toCalculatorInput(++id, record));
    total += record.agreement_value_cents;
  }
  const a = builder.finish();
  assert.equal(a.grants, gen.agreements);
  assert.equal(a.current_year, 2024, 'the generated data runs to 2024-25');
  assert.equal(
    a.years.reduce((sum, y) => sum + y.running_value_cents, 0),
    total,
    'spreading keeps every cent',
  );
  assert.equal(a.years.reduce((sum, y) => sum + y.new_value_cents, 0) > 0, true);
  const r = calculateTaxpayerShare({ annual_income: 75_000, gst_eligible_spending: 25_000 }, a);
  assert.equal(r.calculation.taxpayer_since_year, 2018);
  assert.equal(r.yearly_breakdown.length, 2024 - 2018 + 1);
  assert.equal(r.grant_shares.length, 10);
  assert.ok(r.grant_shares[0].user_share >= r.grant_shares[9].user_share);
  assert.ok(r.yearly_breakdown.every((e) => e.top_projects.length === 5));
});
