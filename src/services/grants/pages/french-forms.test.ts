// French forms on C's pages, on SQLite and PostgreSQL: « million » and « milliard » in the singular below two
// (« 1,5 million de dollars », « 2,5 millions de dollars »; English "$1.5 million"), and the first of a month as an
// ordinal (« du 1er juin 2020 »; English "June 1, 2020").
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
    ];

    before(async () => {
      dir = tempDir();
      const file = `${dir}/amounts.csv`;
      fs.writeFileSync(
        file,
        handCsv(
          recipients.map(([name, value], i) =>
            handRow({ ref_number: `001-2020-2021-Q1-0000${i + 1}`, recipient_legal_name: name, agreement_value: value }),
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
    });
  },
  { migrations: grantsService.migrations },
);
