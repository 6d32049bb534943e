// `/recipient?name=` on SQLite and PostgreSQL: the published legal name in any case and with either apostrophe
// (' or ’) finds the recipient, whose page is titled with the name as published; two published names that differ only
// so are distinct recipients, and a name that finds none is a 404 suggesting the recipients the search finds, in
// English and in French.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { serveHandRows } from '../../../../test/support/grants/files.ts';
import { textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { grantsService } from '../service.ts';
import { recipientHref } from './shared.ts';

describeEachDatabase(
  'grants recipient look-up: case and apostrophes',
  (t) => {
    let app: ServiceApp;
    let close: (() => Promise<void>) | undefined;

    before(async () => {
      ({ app, close } = await serveHandRows(t.db, [
        { recipient_legal_name: "St. John's Seniors Centre", agreement_value: '40.00' },
        { recipient_legal_name: "St. John's Seniors Centre", agreement_value: '15.00' },
        { recipient_legal_name: 'Women’s Shelter of Halifax', agreement_value: '30.00' },
        { recipient_legal_name: 'Harbour Arts Council', agreement_value: '20.00' },
        { recipient_legal_name: 'HARBOUR ARTS COUNCIL', agreement_value: '10.00' },
      ]));
    });
    after(() => close?.());

    const page = async (name: string, lang = 'en') => {
      const res = await app.inject(`/recipient?name=${encodeURIComponent(name)}&lang=${lang}`);
      return { status: res.statusCode, body: res.body, text: textOf(res.body) };
    };
    const heading = (body: string) => textOf(/<h1>([\s\S]*?)<\/h1>/.exec(body)?.[1] ?? '');

    it('finds a recipient whatever the case and apostrophe of the name, and shows the name as published', async () => {
      for (const name of ["St. John's Seniors Centre", 'st. john’s seniors centre', 'ST. JOHN’S SENIORS CENTRE']) {
        const res = await page(name);
        assert.equal(res.status, 200, name);
        assert.equal(heading(res.body), "St. John's Seniors Centre", name);
        assert.match(res.text, /\$55 in all/, name);
        assert.match(res.text, /2 agreements/, name);
      }
      for (const name of ["Women's Shelter of Halifax", 'women’s shelter of halifax']) {
        const res = await page(name);
        assert.equal(res.status, 200, name);
        assert.equal(heading(res.body), 'Women’s Shelter of Halifax', name);
      }
    });

    it('the name written as published is that recipient; two names that differ only in case are not joined', async () => {
      const exact = await page('HARBOUR ARTS COUNCIL');
      assert.equal(exact.status, 200);
      assert.equal(heading(exact.body), 'HARBOUR ARTS COUNCIL');
      assert.match(exact.text, /1 agreement\b/);
      const ambiguous = await page('harbour arts council');
      assert.equal(ambiguous.status, 404);
      assert.match(ambiguous.text, /“harbour arts council” names several recipients/);
      for (const name of ['Harbour Arts Council', 'HARBOUR ARTS COUNCIL'])
        assert.ok(ambiguous.body.includes(`href="${recipientHref(name)}&amp;lang=en"`), name);
    });

    it('a name that finds no recipient is a 404 suggesting those the search finds, in English and in French', async () => {
      const en = await page('Seniors Centre of St. Johns');
      assert.equal(en.status, 404);
      assert.match(heading(en.body), /^Not found$/);
      assert.match(en.text, /Recipients the search finds for this name/);
      assert.ok(en.body.includes(`href="${recipientHref("St. John's Seniors Centre")}&amp;lang=en"`));
      assert.ok(!en.body.includes('Halifax'));
      const fr = await page('Seniors Centre of St. Johns', 'fr');
      assert.equal(fr.status, 404);
      assert.match(heading(fr.body), /^Introuvable$/);
      assert.match(fr.text, /Bénéficiaires que la recherche trouve pour ce nom/);
      const none = await page('Zzyzx Quorum');
      assert.equal(none.status, 404);
      assert.match(none.text, /The search finds no agreement for this name or its words\./);
    });
  },
  { migrations: grantsService.migrations },
);
