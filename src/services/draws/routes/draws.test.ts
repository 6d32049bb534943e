// GET /api/draws/ and /api/draws/recent/ on the real snapshot, as-of date 2025-12-17, both databases: the
// contract's shape, ordering, exclusive date bounds, the recent window, and the group's error cases.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeWithSnapshot, SNAPSHOT_AS_OF } from '../../../../test/support/draws/context.ts';
import { assertErrorCases, checkDraw, isNewestFirst, keys, useSnapshotApp } from '../../../../test/support/draws/http.ts';
import type { DrawBody, ErrorCase } from '../../../../test/support/draws/http.ts';
import { dayNumber } from '../feed/ircc-dates.ts';
import type { DrawsResponse } from '../schemas/draws.ts';

type Draws = Static<typeof DrawsResponse>;

describeWithSnapshot('draws GET /api/draws/', (t) => {
  const s = useSnapshotApp(t);

  it("all 389 draws newest first, each of the contract's shape", async () => {
    const { status, body } = await s.get<Draws>('/api/draws/');
    assert.equal(status, 200);
    assert.deepEqual(keys(body), ['count', 'data', 'data_source', 'success']);
    assert.equal(body.success, true);
    assert.equal(body.count, 389);
    assert.equal(body.data.length, 389);
    body.data.forEach(checkDraw);
    assert.ok(isNewestFirst(body.data));
    assert.equal(body.data[0].round_number, '388');
    assert.equal(body.data.at(-1)!.round_number, '1');
    assert.equal(new Set(body.data.map((d) => d.id)).size, 389);
    assert.equal(body.data_source.kind, 'ircc');
    assert.equal(body.data_source.as_of, SNAPSHOT_AS_OF);
    const r91 = body.data.filter((d) => d.round_number.startsWith('91')).map((d) => d.round_number);
    assert.deepEqual(r91, ['91b', '91a']);
  });

  it('days_since_last_draw is the gap to the previous draw of the same category', async () => {
    const byCategory = new Map<number, DrawBody[]>();
    for (const d of s.all) byCategory.set(d.category_id, [...(byCategory.get(d.category_id) ?? []), d]);
    for (const list of byCategory.values()) {
      list.forEach((d, i) => {
        const older = list[i + 1];
        assert.equal(d.days_since_last_draw, older ? dayNumber(d.date) - dayNumber(older.date) : null, `round ${d.round_number}`);
      });
    }
  });

  it('filters by category and by exclusive start_date and end_date', async () => {
    const all = s.all;
    const cec = (await s.get<Draws>('/api/draws/?category=2')).body;
    assert.equal(cec.count, 53);
    assert.ok(cec.data.every((d) => d.category_id === 2 && d.category_name === 'Canadian Experience Class'));
    assert.deepEqual(
      cec.data,
      all.filter((d) => d.category_id === 2),
    );
    // 2025-12-16 has one draw (round 387): excluded by either bound when equal to it.
    const after16 = (await s.get<Draws>('/api/draws/?start_date=2025-12-16')).body;
    assert.deepEqual(
      after16.data.map((d) => d.round_number),
      ['388'],
    );
    const before16 = (await s.get<Draws>('/api/draws/?end_date=2025-12-16')).body;
    assert.equal(before16.count, all.filter((d) => d.date < '2025-12-16').length);
    assert.ok(before16.data.every((d) => d.date < '2025-12-16'));
    const between = (await s.get<Draws>('/api/draws/?start_date=2025-12-15&end_date=2025-12-17')).body;
    assert.deepEqual(
      between.data.map((d) => [d.round_number, d.date]),
      [['387', '2025-12-16']],
    );
    const year = (await s.get<Draws>('/api/draws/?category=3&start_date=2024-12-31&end_date=2026-01-01')).body;
    assert.deepEqual(
      year.data,
      all.filter((d) => d.category_id === 3 && d.date > '2024-12-31' && d.date < '2026-01-01'),
    );
    assert.ok(year.count > 10);
  });

  it('GET /api/draws/recent/: the as-of date and the 30 days before it', async () => {
    const { body } = await s.get<Draws>('/api/draws/recent/');
    assert.deepEqual(keys(body), ['count', 'data', 'data_source', 'success']);
    const expected = s.all.filter((d) => d.date >= '2025-11-17' && d.date <= SNAPSHOT_AS_OF);
    assert.deepEqual(body.data, expected);
    assert.equal(body.count, expected.length);
    assert.ok(body.count > 0);
    assert.ok(
      s.all.some((d) => d.date === '2025-11-14'),
      'a draw just outside the window exists and is left out',
    );
  });

  it("answers the group's error cases with the service's JSON error body", async () => {
    const cases: ErrorCase[] = [
      ['GET', '/api/draws/?category=99999999999', 404, /category 99999999999 not found/],
      ['GET', '/api/draws/?category=999', 404, /category 999 not found/],
      ['GET', '/api/draws/?category=abc', 400, /^category must be a category id/],
      ['GET', '/api/draws/?start_date=2025-02-30', 400, /^start_date must be a real date/],
      ['GET', '/api/draws/?end_date=17-12-2025', 400, /^end_date must be a date in the form YYYY-MM-DD$/],
      ['GET', '/api/draws/?start_date=2025-12-01&end_date=2025-12-01', 400, /^end_date must be after start_date/],
      ['GET', '/api/draws/recent/extra/', 404, /^no such endpoint/],
      ['DELETE', '/api/draws/', 405, /^GET method required$/],
    ];
    await assertErrorCases(s.app, cases);
  });
});
