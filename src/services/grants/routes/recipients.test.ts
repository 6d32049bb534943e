// GET /api/recipients/ on SQLite and PostgreSQL: recipients recomputed from the stored rows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { compareText } from '../../../../test/support/grants/files.ts';
import { SPEC, grantsHttp, sumCents } from '../../../../test/support/grants/http.ts';
import type { Row } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';

describeEachDatabase(
  'grants recipients route',
  (t) => {
    const h = grantsHttp(t);
    const { get } = h;

    describe('answers', () => {
      it('recipients: top 50 by value, by type with averages, provinces with unique recipients', async () => {
        const { body } = await get(`${SPEC}/recipients/`);
        const totals = new Map<string, Row[]>();
        for (const r of h.rows) totals.set(r.recipient_legal_name, [...(totals.get(r.recipient_legal_name) ?? []), r]);
        const expected = [...totals.entries()].sort((a, b) => sumCents(b[1]) - sumCents(a[1]) || compareText(a[0], b[0])).slice(0, 50);
        assert.deepEqual(
          body.top_recipients.map((r: { recipient_legal_name: string; grant_count: number }) => [r.recipient_legal_name, r.grant_count]),
          expected.map(([name, list]) => [name, list.length]),
        );
        const top = body.top_recipients[0];
        assert.equal(top.avg_value, Math.round((top.total_value * 100) / top.grant_count) / 100);
        assert.equal(
          body.by_type.reduce((n: number, x: { count: number }) => n + x.count, 0),
          h.rows.length,
        );
        for (const x of body.by_type) assert.equal(x.count, h.rows.filter((r) => r.recipient_type === x.recipient_type).length);
        assert.equal(body.by_type.find((x: { recipient_type: string }) => x.recipient_type === 'S')?.label, 'Academia');
        for (const p of body.by_province) {
          const mine = h.rows.filter((r) => r.recipient_province === p.recipient_province);
          assert.equal(p.unique_recipients, new Set(mine.map((r) => r.recipient_legal_name)).size);
        }
      });
    });
  },
  { migrations: grantsService.migrations },
);
