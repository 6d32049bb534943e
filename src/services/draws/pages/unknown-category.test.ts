// A category no rule knows (new in the feed) on D's French pages, on SQLite and PostgreSQL: the fixture is the IRCC
// snapshot with two rounds of new categories added, and a French feed that names one of them (IRCC's French feed has
// the English one's keys; none is published in ../shared/data). The one the French feed names is called so on every
// French page, with no English name left; the other keeps its English name, marked as English, and its page says
// plainly that the French feed gives it none.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../../../../test/support/app.ts';
import { describeWithSnapshot, drawsContext } from '../../../../test/support/draws/context.ts';
import { readFeed, tempFile } from '../../../../test/support/draws/files.ts';
import { tableRows, textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { importFrenchRounds, importRounds } from '../import.ts';
import { drawsService } from '../service.ts';
import { wordsIn } from './shared.ts';

const NAMED = { en: 'Physicians with Canadian work experience', fr: 'Médecins ayant une expérience de travail au Canada' };
const UNNAMED = 'Senior managers';
const FR = wordsIn('fr');

const h1 = (body: string) => /<h1([^>]*)>([\s\S]*?)<\/h1>/.exec(body)!;

describeWithSnapshot('draws pages: a category no rule knows, in French', (t) => {
  let app: ServiceApp;
  const ids = { named: 0, unnamed: 0 };

  before(async () => {
    const ctx = drawsContext(t.db);
    const english = readFeed();
    const [newest] = english.rounds;
    const added = [
      { ...newest, drawNumber: '390', drawName: `${NAMED.en} (Version 1)`, drawSize: '1,000', drawCRS: '480' },
      { ...newest, drawNumber: '391', drawName: `${UNNAMED} (Version 1)`, drawSize: '500', drawCRS: '470' },
    ];
    await importRounds(ctx, tempFile('ee_rounds_123_en.json', JSON.stringify({ ...english, rounds: [...added, ...english.rounds] })));
    const french = [{ ...added[0], drawName: `${NAMED.fr} (version 1)`, drawDateFull: '17 décembre 2025' }];
    await importFrenchRounds(ctx, tempFile('ee_rounds_123_fr.json', JSON.stringify({ classes: 'wb-tables', rounds: french })));
    app = await buildTestApp(drawsService, ctx);
    const categories = (await app.inject('/api/categories/')).json() as { id: number; name: string }[];
    ids.named = categories.find((c) => c.name === NAMED.en)!.id;
    ids.unnamed = categories.find((c) => c.name === UNNAMED)!.id;
  });
  after(async () => app?.close());

  it('takes the French feed’s name of its rounds on every French page, and says so where the feed gives none', async () => {
    assert.ok(ids.named > 0 && ids.unnamed > 0, 'both new categories imported');
    const named = await app.inject(`/categories/${ids.named}?lang=fr`);
    assert.equal(named.statusCode, 200);
    assert.equal(h1(named.body)[1], '', 'a French name is not marked as English');
    assert.equal(textOf(h1(named.body)[2]), NAMED.fr);
    assert.ok(named.body.includes(`<title>${NAMED.fr} · `));
    assert.ok(!textOf(named.body).includes(NAMED.en), 'no English name left on its French page');
    assert.ok(textOf(named.body).includes(FR.t('category.unknownDescription', { name: NAMED.fr })));
    assert.doesNotMatch(named.body, /id="no-french-name"/);
    assert.equal(textOf(h1((await app.inject(`/categories/${ids.named}`)).body)[2]), NAMED.en, 'English pages keep the English name');

    const unnamed = await app.inject(`/categories/${ids.unnamed}?lang=fr`);
    assert.equal(unnamed.statusCode, 200);
    assert.equal(h1(unnamed.body)[1], ' lang="en"', 'the English name said to be English');
    assert.equal(textOf(h1(unnamed.body)[2]), UNNAMED);
    assert.equal(textOf(/<p class="note" id="no-french-name">([\s\S]*?)<\/p>/.exec(unnamed.body)![1]), FR.t('category.noFrenchName'));

    for (const url of ['/draws?lang=fr', `/draws?category=${ids.named}&lang=fr`, '/?lang=fr', '/models?lang=fr', '/track-record?lang=fr']) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 200, url);
      assert.ok(!textOf(res.body).includes(NAMED.en), `${url}: no English name of the category the French feed names`);
    }
    const list = await app.inject(`/draws?category=${ids.named}&lang=fr`);
    const rows = tableRows(/<table class="data" id="draws">([\s\S]*?)<\/table>/.exec(list.body)![1]);
    assert.deepEqual(
      rows.map((r) => [r[1], r[2], r[3]]),
      [['390', NAMED.fr, `${NAMED.fr} (version 1)`]],
    );
    const api = (await app.inject('/api/draws/?lang=both')).json().data as Array<Record<string, unknown>>;
    assert.equal(api.find((d) => d.round_number === '390')!.category_name_fr, NAMED.fr);
    assert.equal(api.find((d) => d.round_number === '391')!.category_name_fr, null);
  });
});
