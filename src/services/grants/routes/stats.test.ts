// GET /api/stats/ on SQLite and PostgreSQL: every total recomputed from the stored rows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { SPEC, dollars, grantsHttp, sumCents } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';

describeEachDatabase(
  'grants stats route',
  (t) => {
    const h = grantsHttp(t);
    const { get } = h;

    describe('answers', () => {
      it('stats: totals, provinces by value, years ascending, top 20 programs, all recomputed from the rows', async () => {
        const { body } = await get(`${SPEC}/stats/`);
        assert.equal(body.total_grants, h.rows.length);
        assert.equal(body.total_value, dollars(sumCents(h.rows)));
        assert.equal(body.major_funding_count, h.rows.filter((r) => r.agreement_value_cents > 100_000_000).length);
        assert.equal(body.notable_count, h.rows.filter((r) => r.is_notable).length);
        assert.equal(body.data_source.kind, 'import');
        for (const p of body.by_province) {
          const mine = h.rows.filter((r) => r.recipient_province === p.recipient_province);
          assert.equal(p.count, mine.length);
          assert.equal(p.total_value, dollars(sumCents(mine)));
        }
        assert.equal(
          body.by_province.reduce((n: number, p: { count: number }) => n + p.count, 0),
          h.rows.length,
        );
        for (let i = 1; i < body.by_province.length; i++) assert.ok(body.by_province[i - 1].total_value >= body.by_province[i].total_value);
        const years = body.by_year.map((y: { fiscal_year: string }) => y.fiscal_year);
        assert.deepEqual(years, [...new Set(h.rows.map((r) => r.fiscal_year))].sort());
        assert.ok(body.top_programs.length <= 20 && body.top_programs.length > 0);
        const programTotals = new Map<string, number>();
        for (const r of h.rows) programTotals.set(r.program_name_en, (programTotals.get(r.program_name_en) ?? 0) + r.agreement_value_cents);
        const best = [...programTotals.values()]
          .sort((a, b) => b - a)
          .slice(0, 20)
          .map(dollars);
        assert.deepEqual(
          body.top_programs.map((p: { total_value: number }) => p.total_value),
          best,
        );
      });
    });
  },
  { migrations: grantsService.migrations },
);
