// GET /api/grants/{id}/taxpayer-share/ and the share form of /grants/{id} on SQLite and PostgreSQL: the
// calculator's per-grant formula, checked against the calculator's own top grants and against a direct sum;
// then the 400s and the 404.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { OLD, SPEC, grantsHttp } from '../../../../test/support/grants/http.ts';
import { publishedRevenue } from '../calculator/index.ts';
import { grantsService } from '../service.ts';
import { fiscalYearOfDate } from '../source/index.ts';

describeEachDatabase(
  'grants taxpayer share of one grant',
  (t) => {
    const h = grantsHttp(t, 1500, 'taxpayer-share');
    const { get, post } = h;

    describe('answers', () => {
      it('gives each of the calculator’s top 10 grants the user_share the calculator gives it', async () => {
        const calc = await post(`${SPEC}/calculate/`, { annual_income: 82000, gst_eligible_spending: 15000, taxpayer_since_year: 2019 });
        assert.equal(calc.status, 200);
        assert.ok(calc.body.grant_shares.length > 0);
        for (const g of calc.body.grant_shares as Array<{ id: number; user_share: number }>) {
          const { status, body } = await get(
            `${SPEC}/grants/${g.id}/taxpayer-share/?annual_income=82000&gst_eligible_spending=15000&taxpayer_since_year=2019`,
          );
          assert.equal(status, 200);
          assert.equal(body.grant.id, g.id);
          assert.ok(Math.abs(body.user_share - g.user_share) <= 1e-9 * Math.max(1, g.user_share), `grant ${g.id}`);
          assert.equal(body.calculation.total_tax_contribution, calc.body.calculation.total_tax_contribution);
        }
      });

      it('names the grant in the language asked for (lang, else Accept-Language), both with lang=both', async () => {
        const row = h.rows.find(
          (r) =>
            r.agreement_title_fr !== '' &&
            r.agreement_title_fr !== r.agreement_title_en &&
            r.recipient_legal_name_fr !== '' &&
            r.recipient_legal_name_fr !== r.recipient_legal_name,
        )!;
        assert.ok(row, 'a grant titled and its recipient named in French');
        const url = `${SPEC}/grants/${row.id}/taxpayer-share/?annual_income=60000`;
        const named = (body: { grant: Record<string, unknown> }) => {
          const { title, recipient, title_fr, recipient_fr } = body.grant;
          return { title, recipient, title_fr, recipient_fr };
        };
        const english = {
          title: row.agreement_title_en,
          recipient: row.recipient_legal_name,
          title_fr: undefined,
          recipient_fr: undefined,
        };
        assert.deepEqual(named((await get(url)).body), english);
        assert.deepEqual(named((await get(`${url}&lang=fr`)).body), {
          title: row.agreement_title_fr,
          recipient: row.recipient_legal_name_fr,
          title_fr: undefined,
          recipient_fr: undefined,
        });
        const byHeader = await get(url, { 'accept-language': 'fr-CA,fr;q=0.9' });
        assert.equal(byHeader.body.grant.title, row.agreement_title_fr);
        assert.equal(byHeader.headers['content-language'], 'fr');
        assert.deepEqual(named((await get(`${url}&lang=both`)).body), {
          ...english,
          title_fr: row.agreement_title_fr,
          recipient_fr: row.recipient_legal_name_fr,
        });
        // the share does not depend on the language
        assert.equal((await get(`${url}&lang=fr`)).body.user_share, (await get(url)).body.user_share);
      });

      it('spreads the value evenly over the fiscal years and sums rate(y) × annual value over the counted years', async () => {
        const row = h.rows.find(
          (r) => r.agreement_end_date && fiscalYearOfDate(r.agreement_end_date) - fiscalYearOfDate(r.agreement_start_date) >= 2,
        )!;
        assert.ok(row, 'a grant running three fiscal years or more');
        const { status, body } = await get(`${OLD}/grants/${row.id}/taxpayer-share/?annual_income=60000`);
        assert.equal(status, 200);
        const first = fiscalYearOfDate(row.agreement_start_date);
        const last = fiscalYearOfDate(row.agreement_end_date!);
        assert.deepEqual(
          body.years.map((y: { year: number }) => y.year),
          Array.from({ length: last - first + 1 }, (_, k) => first + k),
        );
        const cents = body.years.reduce((s: number, y: { annual_value: number }) => s + Math.round(y.annual_value * 100), 0);
        assert.equal(cents, row.agreement_value_cents);
        const c = Math.round(body.calculation.total_tax_contribution * 100);
        let expected = 0;
        for (const y of body.years as Array<{ year: number; annual_value: number; counted: boolean }>) {
          const counted =
            y.year >= body.calculation.taxpayer_since_year && y.year <= body.calculation.current_year && !!publishedRevenue(y.year);
          assert.equal(y.counted, counted, `year ${y.year}`);
          if (counted) expected += (Math.round(y.annual_value * 100) * c) / (publishedRevenue(y.year)!.dollars * 10_000);
        }
        assert.ok(Math.abs(body.user_share - expected) <= 1e-9 * Math.max(1, expected));
        assert.equal(body.data_source.kind, 'import');
      });

      it('gives no share for an income of 0', async () => {
        const { body } = await get(`${SPEC}/grants/${h.rows[0].id}/taxpayer-share/?annual_income=0`);
        assert.equal(body.user_share, 0);
        assert.equal(body.future_share, 0);
      });
    });

    describe('refuses', () => {
      const cases: Array<[string, number, RegExp]> = [
        ['', 400, /annual_income/],
        ['annual_income=abc', 400, /annual_income/],
        ['annual_income=-5', 400, /annual_income/],
        ['annual_income=50000&input_mode=weekly', 400, /input_mode/],
        ['annual_income=50000&taxpayer_since_year=1900', 400, /taxpayer_since_year/],
      ];
      for (const [query, status, message] of cases) {
        it(`?${query} is ${status}`, async () => {
          const res = await get(`${SPEC}/grants/${h.rows[0].id}/taxpayer-share/?${query}`);
          assert.equal(res.status, status);
          assert.match(res.body.error, message);
        });
      }
      it('a grant that does not exist is 404 "grant not found"', async () => {
        const res = await get(`${SPEC}/grants/999999999/taxpayer-share/?annual_income=50000`);
        assert.equal(res.status, 404);
        assert.equal(res.body.error, 'grant not found');
      });
    });

    describe('the grant page', () => {
      it('shows the form, and the same share once the income is posted', async () => {
        const id = h.rows[1].id;
        const page = await h.app.inject({ url: `/grants/${id}` });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /name="annual_income"/);
        const api = await get(`${SPEC}/grants/${id}/taxpayer-share/?annual_income=90000&taxpayer_since_year=2018`);
        const posted = await h.app.inject({
          method: 'POST',
          url: `/grants/${id}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'annual_income=90000&taxpayer_since_year=2018',
        });
        assert.equal(posted.statusCode, 200);
        const shown = api.body.user_share_formatted as string;
        assert.ok(posted.body.includes(shown), `the page shows ${shown}`);
        const bad = await h.app.inject({
          method: 'POST',
          url: `/grants/${id}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'annual_income=lots',
        });
        assert.equal(bad.statusCode, 400);
      });
    });
  },
  { migrations: grantsService.migrations },
);
