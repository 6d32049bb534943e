// English and French pages of C and D over HTTP, on both databases: the page's language from ?lang=, then
// Accept-Language, then English; <html lang>; the response cache keyed by the language it answered in (a French answer
// never served to an English reader); Vary: Accept-Language when the header chose it; the switch keeps the query;
// French pages keep lang in their links; A's pages stay English with the shared layout's catalogue. And every service
// catalogue has the same keys and placeholders in both languages, with no ASCII apostrophe (ICU's quote character).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Catalogue } from '../src/core/i18n/catalogue.ts';
import { assertSameShape } from './support/catalogues.ts';
import { layoutMessages } from '../src/core/i18n/messages/index.ts';
import type { ServiceApp } from '../src/core/service.ts';
import { drawsMessages } from '../src/services/draws/messages/index.ts';
import { grantsMessages } from '../src/services/grants/messages/index.ts';
import { SERVICES } from '../src/services/registry.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';

const CATALOGUES = { layout: layoutMessages, grants: grantsMessages, draws: drawsMessages } as Record<string, Catalogue<string>>;

describe('page catalogues', () => {
  for (const [name, catalogue] of Object.entries(CATALOGUES)) {
    it(`${name}: the same keys and placeholders in English and French, no ASCII apostrophe`, () => {
      assertSameShape(name, catalogue);
      for (const language of ['en', 'fr'] as const)
        for (const [key, text] of Object.entries(catalogue.tables[language]))
          assert.ok(!text.includes("'"), `${name} ${language} ${key}: write ’, not ' (ICU reads ' as a quote)`);
    });
  }
});

const draws = SERVICES.find((s) => s.name === 'draws')!;
const oral = SERVICES.find((s) => s.name === 'oral')!;

describeEachDatabase(
  'D pages in English and French',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      const ctx = testContext(draws, t.db);
      await draws.loadDemo(ctx, {});
      app = await buildTestApp(draws, ctx);
    });
    after(async () => app?.close());

    const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });

    it('?lang= wins, then Accept-Language, then English; <html lang> says which', async () => {
      assert.match((await get('/?lang=fr')).body, /<html lang="fr">/);
      assert.match(
        (await get('/?lang=fr', { 'accept-language': 'en' })).body,
        /<html lang="fr">[\s\S]*Entrée express : les prochaines rondes/,
      );
      assert.match((await get('/', { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' })).body, /<html lang="fr">/);
      assert.match((await get('/', { 'accept-language': 'de' })).body, /<html lang="en">[\s\S]*Express Entry: the next draws/);
      assert.match((await get('/?lang=de', { 'accept-language': 'fr' })).body, /<html lang="fr">/);
    });

    it('the cache keys by the negotiated language and says Vary: Accept-Language when the header chose it', async () => {
      for (let round = 0; round < 2; round++) {
        const fr = await get('/draws', { 'accept-language': 'fr-CA' });
        const en = await get('/draws', { 'accept-language': 'en-CA' });
        const none = await get('/draws');
        assert.match(fr.body, /<html lang="fr">/, `round ${round}`);
        assert.match(en.body, /<html lang="en">/, `round ${round}`);
        assert.match(none.body, /<html lang="en">/, `round ${round}`);
        assert.notEqual(fr.headers.etag, en.headers.etag);
        for (const res of [fr, en, none]) assert.match(String(res.headers.vary), /accept-language/i);
        assert.equal(fr.headers['content-language'], 'fr');
      }
      const explicit = await get('/draws?lang=fr', { 'accept-language': 'en' });
      assert.doesNotMatch(String(explicit.headers.vary ?? ''), /accept-language/i);
      // a conditional request for the French answer is not matched against the English one
      const fr = await get('/draws', { 'accept-language': 'fr' });
      assert.equal((await get('/draws', { 'accept-language': 'fr', 'if-none-match': String(fr.headers.etag) })).statusCode, 304);
      assert.equal((await get('/draws', { 'accept-language': 'en', 'if-none-match': String(fr.headers.etag) })).statusCode, 200);
    });

    it('the switch links the same page with its query; a page in a named language keeps it in links and forms', async () => {
      const body = (await get('/draws?category=1&start_date=2024-01-01&lang=fr')).body;
      assert.match(body, /<a href="\/draws\?category=1&amp;start_date=2024-01-01&amp;lang=en" lang="en" hreflang="en">English<\/a>/);
      assert.match(body, /<a href="\/models\?lang=fr"/);
      assert.match(body, /<form class="filters" method="get" action="\/draws"[^>]*><input type="hidden" name="lang" value="fr" \/>/);
      assert.match(body, /href="\/api\/track-record\/"|href="\/docs"/);
      assert.doesNotMatch(body, /href="\/docs\?lang=/);
      // negotiated, not named: links stay as they are (the reader's header decides each page)
      assert.doesNotMatch((await get('/draws', { 'accept-language': 'fr' })).body, /lang=fr"/);
    });

    it('numbers, dates and messages are French on a French page; bad input is a French 400', async () => {
      const body = (await get('/draws?lang=fr')).body;
      assert.match(body, /Toutes les rondes/);
      assert.match(body, /\d{1,2} (janv|févr|mars|avr|mai|juin|juil|août|sept|oct|nov|déc)\.? \d{4}/);
      const bad = await get('/draws?lang=fr&start_date=hier');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /Impossible de traiter cette demande :<\/strong> start_date doit être une date de la forme AAAA-MM-JJ/);
    });
  },
  { migrations: draws.migrations },
);

describeEachDatabase(
  'A pages stay English with the shared layout',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      const ctx = testContext(oral, t.db);
      await oral.loadDemo(ctx, {});
      app = await buildTestApp(oral, ctx);
    });
    after(async () => app?.close());

    it('English whatever the request asks, with no language switch and no Vary on Accept-Language', async () => {
      const res = await app.inject({ url: '/?lang=fr', headers: { 'accept-language': 'fr' } });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<html lang="en">[\s\S]*Skip to content/);
      assert.doesNotMatch(res.body, /class="languages"/);
      assert.doesNotMatch(String(res.headers.vary ?? ''), /accept-language/i);
    });
  },
  { migrations: oral.migrations },
);
