// The statistics page (/statistics) on SQLite and PostgreSQL, with a dozen real papers imported: the headline figures
// and each chart's bars and data table are the API's (GET /api/krt/statistics/); `?vendors=` is read as the API reads it
// and keys the vendors chart (no chart drawn for one number is served for another); on an empty store the page says so.
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

describeKrtHttp('krt statistics page: ?vendors=', (h) => {
  const vendorsCharted = async (url: string) => {
    const res = await h.app.inject({ url });
    assert.equal(res.statusCode, 200, url);
    return tableRows(figures(res.body).get('krt-vendors')!).map((r) => r[0]);
  };

  it('charts as many vendors as asked, the API’s first ones; the chart changes with the number, not with other names', async () => {
    const api = async (n: number) => (await h.get<Statistics>(`/api/api/krt/statistics/?vendors=${n}`)).body.vendors.map((v) => v.vendor);
    assert.ok((await api(50)).length > 3, 'the papers name more than three vendors');
    assert.deepEqual(await vendorsCharted('/statistics?vendors=3'), await api(3));
    // Another number is another chart (a key without it would serve the three bars again).
    assert.deepEqual(await vendorsCharted('/statistics'), await api(VENDORS_CHARTED));
    assert.deepEqual(await vendorsCharted('/statistics?vendors=4'), await api(4));
    // A name the page does not read changes nothing; a number above the API's maximum is reduced to it, as the API does.
    assert.deepEqual(await vendorsCharted('/statistics?vendors=3&utm_source=x'), await api(3));
    assert.deepEqual(await vendorsCharted('/statistics?vendors=500'), await api(500));
  });

  it('a number the API refuses is a 400 error page in the layout, with the API’s message', async () => {
    for (const value of ['0', 'abc', '1.5', '-2']) {
      const apiError = (await h.get<{ error: string }>(`/api/api/krt/statistics/?vendors=${value}`)).body.error;
      const res = await h.app.inject({ url: `/statistics?vendors=${value}` });
      assert.equal(res.statusCode, 400, value);
      assert.match(String(res.headers['content-type']), /^text\/html/, value);
      assert.equal(res.headers['cache-control'], 'no-store', value);
      assert.match(res.body, /<h1>Cannot show this page<\/h1>/, value);
      assert.match(res.body, /<a href="\/statistics">Statistics<\/a>/, value);
      assert.ok(textOf(res.body).includes(apiError), `${value}: ${apiError}`);
    }
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
