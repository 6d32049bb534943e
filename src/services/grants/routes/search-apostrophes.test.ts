// A search's apostrophe, on SQLite and PostgreSQL: the source writes ' in some texts and ’ in others ("St. John's",
// "Women’s", "l’école"), so GET /api/search/ and the search page find both for either, in English and in French
// (searched again and again: the French part from the database until the French texts are held, then from memory).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { serveHandRows } from '../../../../test/support/grants/files.ts';
import { SPEC } from '../../../../test/support/grants/http.ts';
import { textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { grantsService } from '../service.ts';

describeEachDatabase(
  'grants search: either apostrophe',
  (t) => {
    let app: ServiceApp;
    let close: (() => Promise<void>) | undefined;

    before(async () => {
      ({ app, close } = await serveHandRows(t.db, [
        { recipient_legal_name: "St. John's Seniors Centre", agreement_title_en: "Women's shelter renewal", agreement_value: '40.00' },
        { recipient_legal_name: 'St. John’s Arts Council', agreement_title_en: 'Women’s health clinic', agreement_value: '30.00' },
        { agreement_title_fr: "Rénover l'école du village", agreement_value: '20.00' },
        { agreement_title_fr: 'Agrandir l’école', agreement_value: '10.00' },
        { recipient_legal_name: 'St. Johns Club', agreement_title_en: 'Womens league', agreement_value: '5.00' },
      ]));
    });
    after(() => close?.());

    const search = async (query: string) => {
      const res = await app.inject(`${SPEC}/search/?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      return { count: body.count as number, values: (body.results as Array<{ agreement_value: number }>).map((r) => r.agreement_value) };
    };

    it('finds the texts written with either apostrophe, whichever the search writes, and no text without one', async () => {
      for (const q of ["St. John's", 'St. John’s', 'ST. JOHN’S SENIORS', "women's", 'Women’s']) {
        const { count, values } = await search(`q=${encodeURIComponent(q)}&sort=-agreement_value`);
        const expected = q.startsWith('ST.') ? [40] : [40, 30];
        assert.equal(count, expected.length, q);
        assert.deepEqual(values, expected, q);
      }
    });

    it('in French too, searched again (the French texts read from the database until they are held)', async () => {
      for (const round of [1, 2, 3]) {
        for (const q of ["l'école", 'l’école', "L'ECOLE"]) {
          const { count, values } = await search(`q=${encodeURIComponent(q)}&lang=fr&sort=-agreement_value`);
          assert.equal(count, 2, `${q} (search ${round})`);
          assert.deepEqual(values, [20, 10], `${q} (search ${round})`);
        }
        // in English the French titles are not searched
        assert.equal((await search(`q=${encodeURIComponent("l'école")}`)).count, 0);
      }
    });

    it('the search page counts the same agreements', async () => {
      const res = await app.inject(`/?search=${encodeURIComponent("women's")}`);
      assert.equal(res.statusCode, 200);
      assert.match(textOf(res.body), /2 agreements match/);
    });
  },
  { migrations: grantsService.migrations },
);
