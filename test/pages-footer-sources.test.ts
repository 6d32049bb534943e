// The footer's sources in the language of the page, on SQLite and PostgreSQL: for every service whose pages speak
// French, each dataset it imported (its demo data here) is named in French on a French page, and in English on an
// English one; no dataset's recorded name or English name is left on the French page (where the two languages
// differ). Every dataset the services record has a name in the layout's catalogue.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layoutMessages } from '../src/core/i18n/messages/index.ts';
import type { LayoutKey } from '../src/core/i18n/messages/index.ts';
import { listDataVersions } from '../src/core/db/datasets.ts';
import type { ServiceApp } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';

/** Demo sizes that keep the run short (the grants demo's default 50,000 rows are slow to import on each database). */
const DEMO_OPTIONS: Partial<Record<string, { size?: number }>> = { grants: { size: 2000 } };

/** The text of the footer's sources line of a page. */
function sourcesLine(page: string): string {
  const footer = /<footer class="site">([\s\S]*?)<\/footer>/.exec(page)?.[1] ?? '';
  const line = [...footer.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) =>
    m[1]
      .replace(/<[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  return line.find((text) => /^Sources\s?:/.test(text)) ?? '';
}

const unescape = (text: string) =>
  text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

for (const service of SERVICES.filter((s) => s.pages?.languages?.includes('fr'))) {
  describeEachDatabase(
    `${service.name} pages: the footer names its sources in the page's language`,
    (t) => {
      let app: ServiceApp;
      let dir = '';
      before(async () => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-footer-${service.name}-`));
        const ctx = testContext(service, t.db, { dataDir: dir });
        await service.loadDemo(ctx, DEMO_OPTIONS[service.name] ?? {});
        app = await buildTestApp(service, ctx);
      });
      after(async () => {
        await app?.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });

      it('says each dataset in French on a French page and in English on an English one', async () => {
        const datasets = (await listDataVersions(t.db.kysely, service.name)).map((v) => v.dataset);
        assert.ok(datasets.length > 0, 'the demo recorded its datasets');
        const french = unescape(sourcesLine((await app.inject('/?lang=fr')).body));
        const english = unescape(sourcesLine((await app.inject('/?lang=en')).body));
        assert.match(french, /^Sources : /);
        assert.match(english, /^Sources: /);
        for (const dataset of datasets) {
          const key = `dataset.${dataset}` as LayoutKey;
          assert.ok(Object.hasOwn(layoutMessages.tables.en, key), `the catalogue names the dataset "${dataset}"`);
          const inFrench = layoutMessages.format('fr', key);
          const inEnglish = layoutMessages.format('en', key);
          assert.ok(french.includes(inFrench), `${french} names ${dataset} in French ("${inFrench}")`);
          assert.ok(english.includes(inEnglish), `${english} names ${dataset} in English ("${inEnglish}")`);
          for (const word of new Set([dataset, inEnglish]))
            if (!inFrench.includes(word))
              assert.ok(!new RegExp(`(^|[\\s;:])${word}([\\s;:.]|$)`).test(french), `${french} does not say "${word}"`);
        }
      });
    },
    { migrations: service.migrations },
  );
}
