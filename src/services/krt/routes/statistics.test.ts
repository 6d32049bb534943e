// Statistics of the store's tables over HTTP, on SQLite and PostgreSQL: every count recomputed here from the domain
// extractor's tables of the imported papers and from the API's own RRID validation; the vendors' list cut and clamped;
// Wilson's interval against published values; the generated demo data, whose RRIDs are never valid.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeKrtHttp, itAnswersErrors, real } from '../../../../test/support/krt/http.ts';
import { domainExtraction } from '../../../../test/support/krt/corpus.ts';
import { canonicalVendor, splitTable } from '../extract/index.ts';
import type { StatisticsResponse } from '../schemas/statistics.ts';
import { rridsOfRow, wilsonInterval } from '../statistics.ts';

type Statistics = Static<typeof StatisticsResponse>;

describe('wilsonInterval', () => {
  it('matches published 95% score intervals and stays inside [0, 1]', () => {
    // Newcombe (1998), Table I: 0/10 → 0–0.2775; 5/10 → 0.2366–0.7634 (rounded to four places).
    const round = (i: [number, number] | null) => i?.map((x) => Number(x.toFixed(4)));
    assert.deepEqual(round(wilsonInterval(0, 10)), [0, 0.2775]);
    assert.deepEqual(round(wilsonInterval(5, 10)), [0.2366, 0.7634]);
    assert.deepEqual(round(wilsonInterval(10, 10)), [0.7225, 1]);
    assert.equal(wilsonInterval(0, 0), null);
  });
});

describeKrtHttp('krt statistics', (h) => {
  const { get, post } = h;

  it("counts every row of the papers' key resources tables by type, vendor and year, and the valid RRIDs as validate-rrid says", async () => {
    // A table found in the text is counted without its further mentions, as the API serves it.
    const tables = real.map((file) => {
      const extraction = domainExtraction(file).extraction;
      return { ...extraction, rows: splitTable(extraction.rows, extraction.evidence).rows };
    });
    assert.ok(
      real.some((file) => {
        const extraction = domainExtraction(file).extraction;
        return splitTable(extraction.rows, extraction.evidence).mentions.length > 0;
      }),
      'some paper has further mentions, which the statistics leave out',
    );
    const rows = tables.flatMap((x) => x.rows);
    const valid = new Map<string, boolean>();
    for (const rrid of new Set(rows.flatMap(rridsOfRow))) {
      const res = await post<{ validation: { status: string } }>('/api/api/ai/validate-rrid/', { rrid });
      assert.equal(res.status, 200);
      valid.set(rrid, res.body.validation.status === 'valid');
    }
    const isValid = (row: (typeof rows)[number]) => rridsOfRow(row).some((r) => valid.get(r));
    assert.ok(
      rows.some((r) => isValid(r)),
      'the papers share RRIDs, so some are valid',
    );

    for (const url of ['/api/api/krt/statistics/', '/api/krt/statistics/']) {
      const res = await get<Statistics>(url);
      assert.equal(res.status, 200);
      const s = res.body;
      assert.equal(s.articles, real.length);
      assert.equal(s.articles_with_rows, tables.filter((x) => x.rows.length > 0).length);
      assert.equal(s.rows, rows.length);
      assert.equal(s.rows_with_rrid, rows.filter((r) => rridsOfRow(r).length > 0).length);
      assert.equal(s.rows_with_valid_rrid, rows.filter(isValid).length);
      assert.equal(s.share_valid, s.rows_with_valid_rrid / s.rows);
      assert.ok(s.share_valid_interval![0] <= s.share_valid! && s.share_valid! <= s.share_valid_interval![1]);
      assert.equal(s.rrids_checked, valid.size);

      const types = new Map<string, number>();
      for (const r of rows) types.set(r['RESOURCE TYPE'], (types.get(r['RESOURCE TYPE']) ?? 0) + 1);
      assert.deepEqual(new Map(s.resource_types.map((t) => [t.resource_type, t.rows])), types);
      for (const t of s.resource_types) {
        const ofType = rows.filter((r) => r['RESOURCE TYPE'] === t.resource_type);
        assert.equal(t.rows_with_valid_rrid, ofType.filter(isValid).length, t.resource_type);
        assert.equal(t.articles, tables.filter((x) => x.rows.some((r) => r['RESOURCE TYPE'] === t.resource_type)).length);
        assert.equal(t.share_of_rows, t.rows / s.rows);
      }
      assert.ok(s.resource_types.every((t, i, all) => i === 0 || all[i - 1].rows >= t.rows));

      const sourced = rows.filter((r) => r.SOURCE.trim() && r['NEW/REUSE'] !== 'new');
      const vendors = new Map<string, number>();
      for (const r of sourced) vendors.set(canonicalVendor(r.SOURCE), (vendors.get(canonicalVendor(r.SOURCE)) ?? 0) + 1);
      assert.equal(s.vendor_rows, sourced.length);
      assert.equal(s.vendors_total, vendors.size);
      assert.equal(s.vendors.length, Math.min(10, vendors.size));
      for (const v of s.vendors) assert.equal(v.rows, vendors.get(v.vendor), v.vendor);
      assert.equal(s.vendors[0].rows, Math.max(...vendors.values()));

      const years = new Map<number | null, { articles: number; rows: number }>();
      for (const x of tables) {
        const year = x.metadata.publicationDate ? Number(x.metadata.publicationDate.slice(0, 4)) : null;
        const y = years.get(year) ?? { articles: 0, rows: 0 };
        y.articles++;
        y.rows += x.rows.length;
        years.set(year, y);
      }
      assert.deepEqual(new Map(s.by_year.map((y) => [y.year, { articles: y.articles, rows: y.rows }])), years);
      assert.deepEqual(
        s.by_year.map((y) => y.year),
        [...years.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b)),
      );
      assert.equal(
        s.by_year.reduce((n, y) => n + y.rows_with_valid_rrid, 0),
        s.rows_with_valid_rrid,
      );
    }
  });

  it('lists as many vendors as asked, at most 50', async () => {
    const all = (await get<Statistics>('/api/api/krt/statistics/?vendors=50')).body;
    const three = (await get<Statistics>('/api/api/krt/statistics/?vendors=3')).body;
    assert.deepEqual(three.vendors, all.vendors.slice(0, 3));
    const clamped = await get<Statistics>('/api/api/krt/statistics/?vendors=5000');
    assert.equal(clamped.status, 200);
    assert.equal(clamped.body.vendors.length, Math.min(50, all.vendors_total));
  });

  describe('errors', () => {
    itAnswersErrors(h, [
      { name: 'vendors is 0', url: '/api/api/krt/statistics/?vendors=0', status: 400, error: /vendors/ },
      { name: 'vendors is not a number', url: '/api/api/krt/statistics/?vendors=many', status: 400, error: /vendors/ },
    ]);
  });
});

describeKrtHttp(
  'krt statistics on the generated demo data',
  (h) => {
    it('counts the demo RRIDs as written but never valid: only generated articles write them', async () => {
      const s = (await h.get<Statistics>('/api/api/krt/statistics/')).body;
      assert.ok(s.rows > 0);
      assert.ok(s.rows_with_rrid > 0);
      assert.equal(s.rows_with_valid_rrid, 0);
      assert.equal(s.share_valid, 0);
      assert.ok(
        s.vendors.every((v) => v.vendor.endsWith('(demo)')),
        JSON.stringify(s.vendors),
      );
    });
  },
  { data: 'demo' },
);
