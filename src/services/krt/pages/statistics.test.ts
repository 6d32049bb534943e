// The statistics page (/statistics) on SQLite and PostgreSQL, with a dozen real papers imported: the headline figures
// and each chart's bars and data table are the API's (GET /api/krt/statistics/); on an empty store the page says so.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeKrtHttp } from '../../../../test/support/krt/http.ts';
import { figures, plotted, tableRows, textOf } from '../../../../test/support/pages.ts';
import type { StatisticsResponse } from '../schemas/statistics.ts';
import { VENDORS_CHARTED } from './statistics.ts';

type Statistics = Static<typeof StatisticsResponse>;

describeKrtHttp('krt statistics page', (h) => {
  it('draws the API’s figures: resource types, the top vendors and valid RRIDs by year, each with its table', async () => {
    const s = (await h.get<Statistics>(`/api/api/krt/statistics/?vendors=${VENDORS_CHARTED}`)).body;
    const res = await h.app.inject({ url: '/statistics' });
    assert.equal(res.statusCode, 200);
    const text = textOf(res.body);
    assert.ok(text.includes(`${s.rows_with_valid_rrid} of ${s.rows} rows`), text.slice(0, 800));
    assert.ok(text.includes(`${s.articles} articles in the store`));
    const found = figures(res.body);
    assert.deepEqual([...found.keys()], ['krt-types', 'krt-vendors', 'krt-years']);
    const types = found.get('krt-types')!;
    assert.equal(plotted(types, 0), s.resource_types.length);
    assert.deepEqual(
      tableRows(types).map((r) => [r[0], r[1], r[5]]),
      s.resource_types.map((t) => [t.resource_type, String(t.rows), String(t.rows_with_valid_rrid)]),
    );
    const vendors = found.get('krt-vendors')!;
    assert.equal(plotted(vendors, 0), s.vendors.length);
    assert.deepEqual(
      tableRows(vendors).map((r) => [r[0], r[1]]),
      s.vendors.map((v) => [v.vendor, String(v.rows)]),
    );
    const years = found.get('krt-years')!;
    assert.deepEqual(
      tableRows(years).map((r) => [r[0], r[2], r[4]]),
      s.by_year.map((y) => [y.year === null ? 'no date' : String(y.year), String(y.rows), String(y.rows_with_valid_rrid)]),
    );
  });
});

describeKrtHttp(
  'krt statistics page on an empty store',
  (h) => {
    it('says there is nothing to count yet, without charts', async () => {
      const res = await h.app.inject({ url: '/statistics' });
      assert.equal(res.statusCode, 200);
      assert.match(textOf(res.body), /The store has no key resources table yet/);
      assert.equal(figures(res.body).size, 0);
    });
  },
  { data: 'none' },
);
