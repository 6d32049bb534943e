// POST /api/calculate/ on SQLite and PostgreSQL: the calculation recomputed from the stored rows; then 405,
// 415 and the table of 400s.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { OLD, SPEC, grantsHttp } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';
import { LAST_REVENUE_YEAR, publishedRevenue } from '../calculator/index.ts';
import { fiscalYearOfDate, formatDollars } from '../source/index.ts';

describeEachDatabase(
  'grants calculator route',
  (t) => {
    const h = grantsHttp(t);
    const { get, post } = h;

    describe('answers', () => {
      it('calculates $75,000 + $25,000 of GST spending: tax, GST, and shares recomputed from the rows', async () => {
        const { status, body } = await post(`${SPEC}/calculate/`, { annual_income: 75000, gst_eligible_spending: 25000 });
        assert.equal(status, 200);
        const c = body.calculation;
        const current = Math.min(Math.max(...h.rows.map((r) => Number(r.fiscal_year.slice(0, 4)))), LAST_REVENUE_YEAR);
        assert.equal(c.current_year, current);
        assert.equal(c.taxpayer_since_year, 2018);
        // the generated data ends in 2024-25, so the brackets are those of 2024:
        // CRA 2024: 15% × 55,867 + 20.5% × 19,133 − 15% × 15,705 = 9,946.565 → $9,946.57 (calculator tests show the working)
        assert.equal(c.tax_year, 2024);
        assert.equal(c.federal_income_tax_formatted, '$9,946.57');
        assert.equal(c.gst_paid_formatted, '$1,250.00');
        assert.equal(c.total_tax_contribution, Math.round((c.federal_income_tax + 1250) * 100) / 100);
        // grants running in the current year, each spread evenly over its fiscal years in whole cents
        const contributionCents = Math.round(c.total_tax_contribution * 100);
        const runningIn = (year: number) => {
          let cents = 0;
          for (const r of h.rows) {
            const first = fiscalYearOfDate(r.agreement_start_date);
            const last =
              r.agreement_end_date && r.agreement_end_date >= r.agreement_start_date
                ? Math.min(fiscalYearOfDate(r.agreement_end_date), first + 99)
                : first;
            if (year < first || year > last) continue;
            const n = last - first + 1;
            const abs = Math.abs(r.agreement_value_cents);
            const base = Math.floor(abs / n);
            const part = base + (year - first < abs - base * n ? 1 : 0);
            cents += Math.sign(r.agreement_value_cents) * part;
          }
          return cents;
        };
        const revenue = publishedRevenue(current)!.dollars;
        const expectedShare = (runningIn(current) * contributionCents) / (revenue * 10_000);
        assert.ok(Math.abs(c.grants_portion_of_taxes - expectedShare) <= 1e-9 * Math.max(1, expectedShare));
        assert.equal(c.grants_portion_of_taxes_formatted, formatDollars(expectedShare));
        assert.ok(Math.abs(c.revenue_share_percentage - (contributionCents / 100 / revenue) * 100) < 1e-15);
        assert.equal(body.yearly_breakdown.length, current - 2018 + 1);
        assert.equal(body.yearly_breakdown.at(-1).user_share, c.grants_portion_of_taxes);
        const total = body.yearly_breakdown.reduce((s: number, y: { user_share: number }) => s + y.user_share, 0);
        assert.equal(body.total_grants_share_formatted, formatDollars(total));
        assert.equal(body.grant_shares.length, 10);
        for (let i = 1; i < body.grant_shares.length; i++)
          assert.ok(body.grant_shares[i - 1].user_share >= body.grant_shares[i].user_share);
        assert.equal(body.future_projections.continuing_only.length, 5);
        assert.equal(typeof body.future_projections.historical_average, 'number');
        assert.equal(body.data_source.kind, 'import');
        const formatted: string[] = [];
        const collect = (v: unknown, key = ''): void => {
          if (Array.isArray(v)) v.forEach((x) => collect(x));
          else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
          else if (key.endsWith('_formatted')) formatted.push(String(v));
        };
        collect(body);
        assert.ok(formatted.length > 50);
        for (const f of formatted) assert.match(f, /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/);
      });
      it('calculates in monthly mode as twelve months, and an income of 0 as no share at all', async () => {
        const monthly = (await post(`${OLD}/calculate/`, { annual_income: 6250, gst_eligible_spending: 1000, input_mode: 'monthly' })).body;
        const annual = (await post(`${SPEC}/calculate/`, { annual_income: 75000, gst_eligible_spending: 12000 })).body;
        assert.equal(monthly.calculation.input_mode, 'monthly');
        assert.equal(monthly.calculation.annual_income, 75000);
        assert.equal(monthly.calculation.gst_paid_formatted, '$600.00');
        delete monthly.calculation.input_mode;
        delete annual.calculation.input_mode;
        assert.deepEqual(monthly, annual);
        const zero = await post(`${SPEC}/calculate/`, { annual_income: 0 });
        assert.equal(zero.status, 200);
        assert.equal(zero.body.calculation.federal_income_tax_formatted, '$0.00');
        assert.equal(zero.body.calculation.total_tax_contribution_formatted, '$0.00');
        assert.equal(zero.body.total_grants_share_formatted, '$0.00');
        assert.ok(zero.body.grant_shares.every((g: { user_share: number }) => g.user_share === 0));
      });
    });

    describe('refuses', () => {
      it('POST /api/calculate/: GET is 405 "POST method required" at both addresses', async () => {
        for (const prefix of [SPEC, OLD]) {
          const res = await get(`${prefix}/calculate/`);
          assert.equal(res.status, 405);
          assert.deepEqual(res.body, { error: 'POST method required' });
          assert.match(String(res.headers.allow), /POST/);
        }
        const text = await h.app.inject({
          method: 'POST',
          url: `${SPEC}/calculate/`,
          payload: 'annual_income=5',
          headers: { 'content-type': 'text/plain' },
        });
        assert.equal(text.statusCode, 415);
      });
      it('refuses a bad calculator request with 400 naming the parameter', async () => {
        const table: Array<[unknown, RegExp]> = [
          [{ annual_income: -1 }, /^annual_income must be /],
          [{ annual_income: 'abc' }, /^annual_income must be a number$/],
          [{}, /^annual_income is required$/],
          [{ annual_income: 50000, gst_eligible_spending: -5 }, /^gst_eligible_spending must be /],
          [{ annual_income: 50000, input_mode: 'weekly' }, /^input_mode must be one of: annual, monthly$/],
          [{ annual_income: 50000, taxpayer_since_year: 1990 }, /^taxpayer_since_year must be between \d{4} and \d{4}$/],
          [{ annual_income: 50000, taxpayer_since_year: 2019.5 }, /^taxpayer_since_year must be an integer$/],
        ];
        for (const [payload, message] of table) {
          const { status, body } = await post(`${SPEC}/calculate/`, payload);
          assert.equal(status, 400, JSON.stringify(payload));
          assert.match(body.error, message, JSON.stringify(payload));
        }
      });
    });
  },
  { migrations: grantsService.migrations },
);
