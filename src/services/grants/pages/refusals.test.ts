// C's pages refuse a bad parameter with the shared error page (or the search form redrawn) in the layout of the
// request's language, with C's own words for the parameters it names in its catalogue and the API's for the others;
// and a cached chart is never served for another request: its key changes with every parameter that changes it.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { layoutMessages } from '../../../core/i18n/messages/index.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { SPEC, grantsHttp } from '../../../../test/support/grants/http.ts';
import type { Row } from '../../../../test/support/grants/http.ts';
import { figures, tableRows, textOf } from '../../../../test/support/pages.ts';
import { grantsMessages } from '../messages/index.ts';
import type { GrantsKey } from '../messages/index.ts';
import { SORT_FIELDS } from '../search/query.ts';
import { grantsService } from '../service.ts';

/** A message as a page's text shows it (white space folded; a message is text, not HTML). */
const says = (language: Language, key: GrantsKey, values?: Record<string, string | number>) =>
  grantsMessages.format(language, key, values).replace(/\s+/g, ' ').trim();

describeEachDatabase(
  'grants pages refuse bad parameters in the request’s language',
  (t) => {
    const h = grantsHttp(t, 800, 'refusals-test');
    const page = async (url: string, method: 'GET' | 'POST' = 'GET', payload?: string) => {
      const res = await h.app.inject({
        method,
        url,
        payload,
        headers: payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      });
      return { status: res.statusCode, body: res.body, text: textOf(res.body), headers: res.headers };
    };
    const heading = (body: string) => textOf(/<h1>([\s\S]*?)<\/h1>/.exec(body)?.[1] ?? '');

    it('a bad parameter is the error page in the layout of the request’s language, with C’s words for it', async () => {
      for (const language of ['en', 'fr'] as const) {
        for (const [url, status, key, values, title] of [
          ['/grants/abc', 400, 'grant.badNumber', { value: 'abc' }, 'error.cannotShow'],
          ['/grants/99999999', 404, 'grant.notFound', { id: '99999999' }, 'error.notFound'],
          ['/recipient', 400, 'recipient.nameRequired', {}, 'error.cannotShow'],
          [`/recipient?name=${'x'.repeat(301)}`, 400, 'recipient.nameTooLong', {}, 'error.cannotShow'],
          ['/recipient?name=Nobody%20At%20All', 404, 'recipient.notFound', { name: 'Nobody At All' }, 'error.notFound'],
          ['/recipient?name=x&page=0', 400, 'error.pageRange', { max: 1_000_000, page: 0 }, 'error.cannotShow'],
          ['/international?country=K', 400, 'intl.badCountry', { value: 'K' }, 'error.cannotShow'],
          ['/international?sector=12', 400, 'intl.badSector', { value: '12' }, 'error.cannotShow'],
          ['/international?status=open', 400, 'intl.badStatus', { value: 'open' }, 'error.cannotShow'],
          ['/international?start_from=2020-4-1', 400, 'intl.badDate', { name: 'start_from', value: '2020-4-1' }, 'error.cannotShow'],
          ['/international?page=40001', 400, 'error.pageRange', { max: 40_000, page: 40_001 }, 'error.cannotShow'],
          ['/international/projects/no%20such', 400, 'intl.badNumber', { value: 'no such' }, 'error.cannotShow'],
          ['/international/projects/NOPE0', 404, 'intl.notFound', { number: 'NOPE0' }, 'error.notFound'],
        ] as const) {
          const res = await page(`${url}${url.includes('?') ? '&' : '?'}lang=${language}`);
          assert.equal(res.status, status, `${url} ${language}`);
          assert.match(String(res.headers['content-type']), /^text\/html/, url);
          assert.equal(res.headers['cache-control'], 'no-store', url);
          assert.match(res.body, new RegExp(`<html lang="${language}">`), `${url} ${language}`);
          assert.equal(heading(res.body), textOf(layoutMessages.format(language, title)), `${url} ${language}`);
          assert.ok(res.text.includes(says(language, key, values)), `${url} ${language}: “${says(language, key, values)}”`);
          // the sections to go on from, in the page's language
          assert.ok(res.text.includes(says(language, 'nav.statistics')), `${url} ${language}`);
        }
      }
    });

    it('a value the kernel will not read as a number is the error page too, in the request’s language', async () => {
      const api = await h.get(`${SPEC}/search/?offset=0x10`);
      assert.equal(api.status, 400);
      assert.equal(api.body.error, 'offset must be an integer');
      for (const language of ['en', 'fr'] as const) {
        const res = await page(`/recipient?name=x&page=0x10&lang=${language}`);
        assert.equal(res.status, 400);
        assert.match(res.body, new RegExp(`<html lang="${language}">`));
        assert.equal(heading(res.body), textOf(layoutMessages.format(language, 'error.cannotShow')));
        // English: the API's words; French: the same refusal said by the kernel's catalogue
        const said =
          language === 'en' ? 'page must be an integer' : layoutMessages.format('fr', 'refusal.type', { name: 'page', type: 'integer' });
        assert.ok(res.text.includes(said), `${language}: “${said}” in “${res.text.slice(0, 400)}”`);
      }
      // the search form is redrawn around it, in French
      const search = await page('/?search=eau&page=1.5&lang=fr');
      assert.equal(search.status, 400);
      assert.equal(heading(search.body), says('fr', 'search.heading'));
      assert.ok(search.text.includes(layoutMessages.format('fr', 'refusal.type', { name: 'page', type: 'integer' })));
      assert.match(search.body, /<input type="search" name="search" value="eau"/);
    });

    it('a bad search parameter redraws the search form in the request’s language, as the client wrote it', async () => {
      const french = await page('/?per_page=7&province=ON&search=%3Cb%3Eeau&lang=fr');
      assert.equal(french.status, 400);
      assert.match(french.body, /<html lang="fr">/);
      assert.equal(heading(french.body), says('fr', 'search.heading'));
      assert.ok(french.text.includes(says('fr', 'error.perPage', { sizes: '25, 50, 100', value: '7' })));
      assert.match(french.body, /<input type="search" name="search" value="&lt;b&gt;eau"/);
      assert.match(french.body, /<option value="ON" selected>/);
      // a parameter the API also takes: the API's message on the English page, the same refusal in French on the French one
      for (const [query, key, values] of [
        ['fiscal_year=19', 'error.fiscalYear', { name: 'fiscal_year', value: '19' }],
        ['province=XX', 'error.province', { codes: 'AB, BC, MB, NB, NL, NS, NT, NU, ON, PE, QC, SK, YT', value: 'XX' }],
        ['min_value=5&max_value=1', 'error.minAboveMax', {}],
      ] as const) {
        const api = await h.get(`${SPEC}/search/?${query}`);
        assert.equal(api.status, 400, query);
        const english = await page(`/?${query}`);
        assert.equal(english.status, 400, query);
        assert.ok(english.text.includes(api.body.error), `${query}: ${api.body.error}`);
        const refused = await page(`/?${query}&lang=fr`);
        assert.equal(refused.status, 400, query);
        assert.ok(!refused.text.includes(api.body.error), query);
        assert.ok(refused.text.includes(says('fr', key, values)), `${query}: ${says('fr', key, values)}`);
        assert.equal(heading(refused.body), says('fr', 'search.heading'));
      }
      // what the schema refuses, said by the kernel in French (the API's words in English)
      const notBoolean = await page('/?is_major=maybe&lang=fr');
      assert.equal(notBoolean.status, 400);
      assert.ok(notBoolean.text.includes(layoutMessages.format('fr', 'refusal.boolean', { name: 'is_major' })));
      assert.match((await page('/?is_major=maybe')).text, /is_major must be true, false, 1 or 0/);
      const sort = await page('/?sort=nope&lang=fr');
      const values = { name: 'sort', values: SORT_FIELDS.join(', '), descending: 'yes' };
      assert.ok(sort.text.includes(layoutMessages.format('fr', 'refusal.oneOf', values).replace(/\s+/g, ' ')), sort.text.slice(0, 600));
    });

    it('a posted form the calculator cannot use redraws the form with status 400, in the request’s language', async () => {
      for (const language of ['en', 'fr'] as const) {
        const res = await page(`/calculator?lang=${language}`, 'POST', 'annual_income=abc&input_mode=monthly');
        assert.equal(res.status, 400, language);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(res.body, new RegExp(`<html lang="${language}">`));
        assert.ok(res.text.includes(says(language, 'calc.income')), language);
        assert.match(res.body, /name="annual_income" value="abc"/);
        assert.match(res.body, /value="monthly" checked/);
        assert.ok(res.text.includes(says(language, 'calc.refused.number', { parameter: 'annual_income' })), language);
      }
      assert.match((await page('/calculator', 'POST', 'annual_income=abc')).text, /annual_income must be a number/);
      const since = await page('/calculator?lang=fr', 'POST', 'annual_income=1&taxpayer_since_year=1900');
      assert.match(since.text, /taxpayer_since_year doit être entre \d{4} et \d{4}/);
      const grant = h.rows[3];
      const share = await page(`/grants/${grant.id}?lang=fr`, 'POST', 'annual_income=-5');
      assert.equal(share.status, 400);
      assert.match(share.body, /<html lang="fr">/);
      assert.ok(share.text.includes(says('fr', 'calc.refused.negative', { parameter: 'annual_income' })));
      assert.match(share.body, /name="annual_income" value="-5"/);
      const answered = await page(`/grants/${grant.id}`, 'POST', 'annual_income=60000&taxpayer_since_year=2019');
      assert.equal(answered.status, 200);
      assert.match(answered.body, /<div class="stats-row" role="status">/);
    });

    it('a recipient’s chart is its own: another name, another language, another chart (the key holds each)', async () => {
      const byName = new Map<string, Row[]>();
      for (const r of h.rows) byName.set(r.recipient_legal_name, [...(byName.get(r.recipient_legal_name) ?? []), r]);
      const names = [...byName]
        .filter(([name]) => name !== '')
        .sort((a, b) => b[1].length - a[1].length)
        .slice(0, 3)
        .map(([name]) => name);
      assert.equal(names.length, 3);
      const chartOf = async (url: string) => figures((await page(url)).body).get('recipient-by-year')!;
      for (const language of ['en', 'fr'] as const) {
        for (const name of names) {
          const figure = await chartOf(`/recipient?name=${encodeURIComponent(name)}&lang=${language}`);
          const years = [...new Set(byName.get(name)!.map((r) => r.fiscal_year))].sort();
          // (a French page writes the fiscal year in full: 2018-19 is 2018-2019)
          const written = language === 'fr' ? years.map((y) => `${y.slice(0, 4)}-${Number(y.slice(0, 4)) + 1}`) : years;
          assert.deepEqual(
            tableRows(figure).map((row) => row[0]),
            written,
            `${name} ${language}`,
          );
          assert.ok(textOf(figure).includes(says(language, 'recipient.chart')), `${name} ${language}`);
          assert.ok(textOf(figure).includes(says(language, 'recipient.chartText', { name })), `${name} ${language}`);
        }
      }
      // the same name written with spaces around it is the same recipient: its chart, under its own key
      const spaced = await chartOf(`/recipient?name=${encodeURIComponent(` ${names[0]} `)}`);
      assert.deepEqual(tableRows(spaced), tableRows(await chartOf(`/recipient?name=${encodeURIComponent(names[0])}`)));
    });

    it('the statistics’ charts follow the page’s language', async () => {
      const titles = async (url: string) =>
        [...figures((await page(url)).body).values()].map((f) => /<figcaption[^>]*>([\s\S]*?)<\/figcaption>/.exec(f)?.[1]);
      const [en, fr] = [await titles('/statistics'), await titles('/statistics?lang=fr')];
      assert.equal(en.length, 8);
      assert.equal(fr.length, 8);
      for (let i = 0; i < en.length; i++) assert.notEqual(en[i], fr[i], `chart ${i}`);
    });

    it('a page without its data is the 503 error page in the request’s language', async () => {
      // these tests import agreements only: no international projects
      const res = await page('/international/statistics?lang=fr');
      assert.equal(res.status, 503);
      assert.match(res.body, /<html lang="fr">/);
      assert.equal(heading(res.body), textOf(layoutMessages.format('fr', 'error.noData')));
      assert.ok(res.text.includes(says('fr', 'intl.noData')));
    });
  },
  { migrations: grantsService.migrations },
);
