// French forms on C's pages, on SQLite and PostgreSQL: « million » and « milliard » in the singular below two
// (« 1,5 million de dollars », « 2,5 millions de dollars »; English "$1.5 million"), and the first of a month as an
// ordinal (« du 1er juin 2020 »; English "June 1, 2020"); and why an agreement is notable, said in French on the
// French pages as by the API's lang=fr (the agreement and the comprehensive statistics); an English text a French page
// shows for want of a French one is marked lang="en"; an English search page that finds nothing links the same search
// on the French page, which searches the French texts too.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { buildTestApp } from '../../../../test/support/app.ts';
import { handCsv, handRow, tempDir } from '../../../../test/support/grants/files.ts';
import { textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { importGrantsCsv } from '../import/importer.ts';
import { grantsService } from '../service.ts';

describeEachDatabase(
  'grants pages: French forms',
  (t) => {
    let dir: string;
    let app: ServiceApp;
    const recipients: Array<[string, string]> = [
      ['One Million Society', '1500000.00'],
      ['Two Millions Society', '2500000.00'],
      ['One Billion Society', '1200000000.00'],
      ['Two Billions Society', '2000000000.00'],
      ['Gala Society', '900.00'],
    ];

    before(async () => {
      dir = tempDir();
      const file = `${dir}/amounts.csv`;
      fs.writeFileSync(
        file,
        handCsv(
          recipients.map(([name, value], i) =>
            handRow({
              ref_number: `001-2020-2021-Q1-0000${i + 1}`,
              recipient_legal_name: name,
              agreement_value: value,
              ...(name === 'Gala Society'
                ? {
                    agreement_title_en: 'Community gala dinner',
                    agreement_title_fr: 'Souper-gala communautaire',
                    prog_purpose_en: 'Supports local festivals.',
                  }
                : {}),
            }),
          ),
        ),
      );
      await importGrantsCsv(t.db, file);
      app = await buildTestApp(grantsService, t.db);
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const total = async (name: string, language: string) => {
      const res = await app.inject(`/recipient?name=${encodeURIComponent(name)}&lang=${language}`);
      assert.equal(res.statusCode, 200);
      return textOf(res.body);
    };

    it('a recipient’s total: the singular below two in French, the same figure in English', async () => {
      const expected: Record<string, [string, string]> = {
        'One Million Society': ['1,5 million de dollars', '$1.5 million'],
        'Two Millions Society': ['2,5 millions de dollars', '$2.5 million'],
        'One Billion Society': ['1,2 milliard de dollars', '$1.2 billion'],
        'Two Billions Society': ['2 milliards de dollars', '$2 billion'],
      };
      for (const [name, [fr, en]] of Object.entries(expected)) {
        const french = await total(name, 'fr');
        assert.ok(french.includes(fr), `${name}: ${fr} in ${french.slice(0, 400)}`);
        assert.ok(!/\b1,\d milliards|\b1,\d millions/.test(french), name);
        assert.ok((await total(name, 'en')).includes(en), `${name}: ${en}`);
      }
    });

    it('an agreement’s period: the first of a month as « 1er » in French', async () => {
      const search = (await app.inject('/api/api/search/?q=One%20Million%20Society')).json();
      const id = search.results[0].id as number;
      assert.equal(search.results[0].agreement_start_date, '2020-06-01');
      const french = textOf((await app.inject(`/grants/${id}?lang=fr`)).body);
      assert.ok(french.includes('du 1er juin 2020 au 31 mai 2021'), french.slice(0, 600));
      assert.ok(textOf((await app.inject(`/grants/${id}?lang=en`)).body).includes('June 1, 2020'));
      // the calculator has one name on the French pages, the one its menu and page give it
      assert.ok(french.includes('Comment fonctionne la calculatrice') && !/calculateur/i.test(french));
    });

    it('why an agreement is notable: in French on the French pages and with lang=fr, as stored in English', async () => {
      const english = 'Events and hospitality: "gala" in title';
      const french = 'Événements et réceptions : « gala » dans le titre anglais';
      const found = (language: string) => app.inject(`/api/api/search/?q=gala&lang=${language}`).then((r) => r.json());
      const [en, fr] = [await found('en'), await found('fr')];
      assert.equal(en.count, 1);
      assert.equal(en.results[0].notable_reason, english);
      assert.equal(fr.results[0].notable_reason, french);
      const id = en.results[0].id as number;
      assert.equal((await app.inject(`/api/api/grants/${id}/?lang=fr`)).json().notable_reason, french);
      assert.equal((await app.inject(`/api/api/grants/${id}/?lang=both`)).json().notable_reason, english);
      const page = textOf((await app.inject(`/grants/${id}?lang=fr`)).body);
      assert.ok(page.includes(`À signaler : ${french}`) && !page.includes('Events and hospitality'), page.slice(0, 600));
      assert.ok(textOf((await app.inject(`/grants/${id}?lang=en`)).body).includes(`Notable: ${english}`));
      assert.ok((await app.inject('/?search=gala&lang=fr')).body.includes(`title="${french.replace(/"/g, '&quot;')}"`));
      const reasons = async (language: string) =>
        (await app.inject(`/api/api/comprehensive-stats/?lang=${language}`)).json().notable_breakdown.by_reason;
      assert.deepEqual(await reasons('fr'), [{ category: 'events', label: 'Événements et réceptions', count: 1, total_value: 900 }]);
      assert.equal((await reasons('en'))[0].label, 'Events and hospitality');
    });

    it('a French page marks lang="en" the texts it shows in English for want of French ones, and only those', async () => {
      const id = (await app.inject('/api/api/search/?q=gala')).json().results[0].id as number;
      const english = (body: string) => [...body.matchAll(/<span lang="en">([^<]*)<\/span>/g)].map((m) => m[1]);
      const fr = (await app.inject(`/grants/${id}?lang=fr`)).body;
      assert.deepEqual(english(fr).sort(), ['A test description.', 'Supports local festivals.']);
      assert.match(fr, /<h1>Souper-gala communautaire<\/h1>/);
      assert.deepEqual(english((await app.inject(`/grants/${id}?lang=en`)).body), []);
      const search = (await app.inject('/?search=million&lang=fr')).body;
      assert.deepEqual(english(search), ['Test agreement', 'Test agreement']);
    });

    it('an English search that finds nothing says it searched the English texts only and links the French page', async () => {
      const note = /the French page searches the French ones too: <a href="([^"]+)">the same search in French<\/a>/;
      const english = (await app.inject('/?search=souper&province=ON')).body;
      assert.match(textOf(english), /No agreement matches these filters\./);
      const link = note.exec(english)?.[1].replace(/&amp;/g, '&');
      assert.equal(link, '/?search=souper&province=ON&lang=fr');
      assert.match(textOf((await app.inject(link)).body), /1 entente correspond/);
      // not where the English texts match, nor without words, nor on the French page
      for (const url of ['/?search=gala', '/?province=NU', '/?search=zzzz&lang=fr'])
        assert.doesNotMatch((await app.inject(url)).body, /même recherche en français|same search in French/, url);
    });
  },
  { migrations: grantsService.migrations },
);
