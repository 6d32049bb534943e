// Service C's pages on SQLite and PostgreSQL over a generated (demo-labelled) file: every page, its numbers
// against the API and against the stored rows read independently, every chart's bars against the rows behind
// it, the calculator's form and answer, and bad input as pages with status 400 (or 404).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { SPEC, grantsHttp, sumCents } from '../../../../test/support/grants/http.ts';
import type { Row } from '../../../../test/support/grants/http.ts';
import { decode, figures, plotted, tableRows, textOf } from '../../../../test/support/pages.ts';
import { FEDERAL_REVENUES, FEDERAL_TAX_YEARS } from '../calculator/constants.ts';
import { grantsService } from '../service.ts';
import { formatDate } from '../../../core/i18n/format.ts';
import { naicsSectorInFrench } from '../source/index.ts';
import { AGREEMENTS_PER_PAGE } from './recipients.ts';
import { TOP_DEPARTMENTS } from './statistics.ts';

const money = (cents: number) =>
  `$${(Math.round(cents) / 100).toLocaleString('en-CA', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const millions = (cents: number) => Math.round(cents / 1e7) / 10;
const numberIn = (cell: string) => Number(cell.replace(/,/g, ''));

describeEachDatabase(
  'grants pages',
  (t) => {
    const h = grantsHttp(t, 2500, 'pages-test');
    const page = async (url: string) => {
      const res = await h.app.inject(url);
      return { status: res.statusCode, body: res.body, type: String(res.headers['content-type']) };
    };
    const post = async (payload: string) => {
      const res = await h.app.inject({
        method: 'POST',
        url: '/calculator',
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      return { status: res.statusCode, body: res.body };
    };
    const agreementRows = (body: string) => (/<tbody>([\s\S]*?)<\/tbody>/.exec(body)?.[1].match(/<tr>/g) ?? []).length;

    it('/ has every filter, sort and page size, and shows the total and the page the API gives', async () => {
      const all = await page('/');
      assert.equal(all.status, 200);
      assert.match(all.type, /^text\/html/);
      for (const name of [
        'search',
        'province',
        'fiscal_year',
        'recipient_type',
        'min_value',
        'max_value',
        'is_major',
        'is_notable',
        'sort',
        'per_page',
      ])
        assert.match(all.body, new RegExp(`name="${name}"`), name);
      assert.match(textOf(all.body), new RegExp(`${h.rows.length.toLocaleString('en-CA')} agreements match; showing 1–25\\.`));
      assert.equal(agreementRows(all.body), 25);

      const query = 'province=ON&sort=-agreement_start_date&min_value=10000&is_notable=false';
      const api = (await h.get(`${SPEC}/search/?${query}&limit=50&offset=50`)).body;
      const second = await page(`/?${query}&per_page=50&page=2`);
      assert.equal(second.status, 200);
      const expected = h.rows.filter((r) => r.recipient_province === 'ON' && r.agreement_value_cents >= 1_000_000 && !r.is_notable).length;
      assert.equal(api.count, expected);
      assert.match(textOf(second.body), new RegExp(`${expected.toLocaleString('en-CA')} agreements match; showing 51–`));
      const ids = [...second.body.matchAll(/<th scope="row">\s*<a href="\/grants\/(\d+)">/g)].map((m) => Number(m[1]));
      assert.deepEqual(
        ids,
        api.results.map((r: { id: number }) => r.id),
      );
      assert.match(second.body, /<option value="-agreement_start_date" selected>/);
      assert.match(
        second.body,
        /rel="prev" href="\/\?province=ON&amp;min_value=10000&amp;is_notable=false&amp;sort=-agreement_start_date&amp;per_page=50"/,
      );
    });

    it('answers bad parameters with the page, the message and status 400; unknown records with 404', async () => {
      for (const [url, message] of [
        ['/?province=ZZ', /province must be a province or territory code/],
        ['/?min_value=abc', /min_value must be a number/],
        ['/?min_value=10&max_value=5', /min_value must not be greater than max_value/],
        ['/?per_page=7', /per_page must be one of 25, 50, 100/],
        ['/?page=0', /page must be between 1 and/],
        ['/grants/abc', /an agreement number is a positive whole number/],
        ['/recipient', /name is required/],
      ] as const) {
        const res = await page(url);
        assert.equal(res.status, 400, url);
        assert.match(res.type, /^text\/html/, url);
        assert.match(textOf(res.body), message, url);
      }
      for (const url of ['/grants/99999999', '/recipient?name=Nobody%20At%20All']) {
        const res = await page(url);
        assert.equal(res.status, 404, url);
        assert.match(res.type, /^text\/html/, url);
      }
    });

    it('answers a bad search parameter with the message of the API', async () => {
      for (const query of [
        `search=${'x'.repeat(201)}`,
        'sort=zz',
        'is_major=maybe',
        'min_value=abc',
        'max_value=1e',
        'fiscal_year=19',
        'recipient_type=Q',
        'province=ZZ',
        'min_value=10&max_value=5',
      ]) {
        const api = await h.get(`${SPEC}/search/?${query}`);
        assert.equal(api.status, 400, query);
        const res = await page(`/?${query}`);
        assert.equal(res.status, 400, query);
        assert.ok(textOf(res.body).includes(api.body.error), `${query}: the page says "${api.body.error}"`);
      }
    });

    it('/grants/:id shows the agreement as the API serves it', async () => {
      const grant = (await h.get(`${SPEC}/grants/${h.rows[7].id}/`)).body;
      const res = await page(`/grants/${grant.id}`);
      assert.equal(res.status, 200);
      const text = textOf(res.body);
      assert.ok(text.includes(grant.agreement_title_en || grant.reference_number));
      assert.ok(text.includes(money(Math.round(grant.agreement_value * 100))), 'the value to the cent');
      assert.ok(text.includes(grant.owner_org_title));
      assert.ok(res.body.includes(`/recipient?name=${encodeURIComponent(grant.recipient_legal_name).replace(/%20/g, '+')}`));
    });

    it('/statistics draws every fiscal year, province, type, value range and the top departments and recipients from the rows', async () => {
      const res = await page('/statistics');
      assert.equal(res.status, 200);
      const charts = figures(res.body);
      const group = (key: (r: Row) => string) => {
        const m = new Map<string, Row[]>();
        for (const r of h.rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
        return m;
      };
      const years = [...group((r) => r.fiscal_year)].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      const byYear = charts.get('value-by-year')!;
      assert.equal(plotted(byYear, 0), years.length);
      assert.deepEqual(
        tableRows(byYear).map((r) => [r[0], numberIn(r[1])]),
        years.map(([y, rows]) => [y, millions(sumCents(rows))]),
      );
      // a column's numbers share their decimals (millions to one decimal: 883.1, 923.0)
      const decimals = new Set(tableRows(byYear).map((r) => /\.(\d+)$/.exec(r[1])?.[1].length ?? 0));
      assert.equal(decimals.size, 1, [...decimals].join(', '));
      const counts = charts.get('count-by-year')!;
      assert.equal(plotted(counts, 0), years.length);
      assert.deepEqual(
        tableRows(counts).map((r) => numberIn(r[1])),
        years.map(([, rows]) => rows.length),
      );
      assert.equal(plotted(charts.get('value-by-province')!, 0), group((r) => r.recipient_province).size);
      assert.equal(plotted(charts.get('value-by-recipient-type')!, 0), group((r) => r.recipient_type).size);
      assert.equal(plotted(charts.get('count-by-value-range')!, 0), 7);
      // departments: computed here from the rows (owner_org), the largest first
      const departments = [...group((r) => r.owner_org)].map(([, rows]) => sumCents(rows)).sort((a, b) => b - a);
      const byDepartment = charts.get('value-by-department')!;
      assert.equal(plotted(byDepartment, 0), Math.min(TOP_DEPARTMENTS, departments.length));
      assert.deepEqual(
        tableRows(byDepartment).map((r) => numberIn(r[1])),
        departments.slice(0, TOP_DEPARTMENTS).map(millions),
      );
      const recipients = [...group((r) => r.recipient_legal_name)].map(([, rows]) => sumCents(rows)).sort((a, b) => b - a);
      assert.equal(plotted(charts.get('largest-recipients')!, 0), Math.min(15, recipients.length));
      assert.deepEqual(
        tableRows(charts.get('largest-recipients')!).map((r) => numberIn(r[1])),
        recipients.slice(0, 15).map(millions),
      );
      // sectors: the agreements with no NAICS sector labelled as such, as the API labels them
      const sectors = [...group((r) => r.naics_sector_en)].sort((a, b) => sumCents(b[1]) - sumCents(a[1]));
      const bySector = charts.get('value-by-sector')!;
      assert.equal(plotted(bySector, 0), sectors.length);
      const sectorRows = tableRows(bySector);
      assert.deepEqual(
        sectorRows.map((r) => numberIn(r[1])),
        sectors.map(([, rows]) => millions(sumCents(rows))),
      );
      assert.ok(sectors.some(([s]) => s === ''));
      assert.deepEqual(
        sectorRows.map((r) => r[0]),
        sectors.map(([s]) => s || 'Agreements with no NAICS sector'),
      );
      assert.equal(charts.size, 8, 'every chart of the page is checked');
      assert.match(textOf(res.body), new RegExp(`${h.rows.length.toLocaleString('en-CA')} agreements`));
    });

    it('/recipients links the largest recipients; a recipient page has its totals, every fiscal year and its agreements', async () => {
      const list = await page('/recipients');
      assert.equal(list.status, 200);
      const api = (await h.get(`${SPEC}/recipients/`)).body;
      const top = api.top_recipients[0].recipient_legal_name as string;
      assert.ok(list.body.includes(`href="/recipient?name=${encodeURIComponent(top).replace(/%20/g, '+')}"`));
      // the recipient with the most agreements, so that its list has pages
      const byName = new Map<string, Row[]>();
      for (const r of h.rows) byName.set(r.recipient_legal_name, [...(byName.get(r.recipient_legal_name) ?? []), r]);
      const [name, mine] = [...byName].sort((a, b) => b[1].length - a[1].length)[0];
      const res = await page(`/recipient?name=${encodeURIComponent(name)}`);
      assert.equal(res.status, 200);
      const text = textOf(res.body);
      assert.match(text, new RegExp(`${mine.length.toLocaleString('en-CA')} agreements?`));
      const chart = figures(res.body).get('recipient-by-year')!;
      const years = new Map<string, number>();
      for (const r of mine) years.set(r.fiscal_year, (years.get(r.fiscal_year) ?? 0) + r.agreement_value_cents);
      assert.equal(plotted(chart, 0), years.size);
      assert.deepEqual(
        tableRows(chart).map((r) => [r[0], numberIn(r[1])]),
        [...years].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([y, c]) => [y, millions(c)]),
      );
      const largest = [...mine].sort((a, b) => b.agreement_value_cents - a.agreement_value_cents || a.id - b.id);
      const ids = [...res.body.matchAll(/<th scope="row"><a href="\/grants\/(\d+)">/g)].map((m) => Number(m[1]));
      assert.deepEqual(
        ids,
        largest.slice(0, AGREEMENTS_PER_PAGE).map((r) => r.id),
      );
      if (mine.length > AGREEMENTS_PER_PAGE) {
        const next = await page(`/recipient?name=${encodeURIComponent(name)}&page=2`);
        const nextIds = [...next.body.matchAll(/<th scope="row"><a href="\/grants\/(\d+)">/g)].map((m) => Number(m[1]));
        assert.deepEqual(
          nextIds,
          largest.slice(AGREEMENTS_PER_PAGE, 2 * AGREEMENTS_PER_PAGE).map((r) => r.id),
        );
      }
    });

    it('the calculator shows its form, and the API’s answer with the share by year as a chart and the sourced constants', async () => {
      const form = await page('/calculator');
      assert.equal(form.status, 200);
      assert.match(form.body, /<form class="filters" method="post" action="\/calculator"/);
      const answer = (await h.post(`${SPEC}/calculate/`, { annual_income: 75000, gst_eligible_spending: 25000, taxpayer_since_year: 2018 }))
        .body;
      const res = await post('annual_income=75000&gst_eligible_spending=25000&input_mode=annual&taxpayer_since_year=2018');
      assert.equal(res.status, 200);
      const text = textOf(res.body);
      assert.ok(text.includes(`${answer.total_grants_share_formatted} to grants from 2018-19`), 'the total share');
      assert.ok(text.includes(answer.calculation.federal_income_tax_formatted));
      assert.ok(text.includes(answer.calculation.grants_portion_of_taxes_formatted));
      const charts = figures(res.body);
      const share = charts.get('share-by-year')!;
      assert.equal(
        plotted(share, 0),
        answer.yearly_breakdown.filter((y: { user_share: number }) => Math.round(y.user_share * 100) !== 0).length,
      );
      assert.deepEqual(
        tableRows(share).map((r) => r[0]),
        answer.yearly_breakdown.map((y: { fiscal_year: string }) => y.fiscal_year),
      );
      const projection = charts.get('projected-share')!;
      assert.equal(tableRows(projection).length, 5);
      const bars = (years: { user_share: number }[]) => years.filter((y) => Math.round(y.user_share * 100) !== 0).length;
      assert.equal(plotted(projection, 0), bars(answer.future_projections.continuing_only));
      assert.equal(plotted(projection, 1), bars(answer.future_projections.with_new_projects));
      assert.match(text, /Federal income tax brackets, 2024/);
      assert.match(res.body, /href="https:\/\/www\.canada\.ca\/en\/revenue-agency/);
      assert.match(text, /Public Accounts of Canada|Annual Financial Report/);
      const monthly = await post('annual_income=6250&gst_eligible_spending=2083.33&input_mode=monthly');
      assert.equal(monthly.status, 200);
      assert.match(monthly.body, /value="monthly" checked/);
      for (const [payload, message] of [
        ['annual_income=abc', /annual_income must be a number/],
        ['annual_income=-5', /annual_income must be greater than or equal to 0/],
        ['gst_eligible_spending=10', /annual_income is required/],
        ['annual_income=1&taxpayer_since_year=1900', /taxpayer_since_year must be between/],
      ] as const) {
        const bad = await post(payload);
        assert.equal(bad.status, 400, payload);
        assert.match(textOf(bad.body), message, payload);
      }
    });

    it('the French calculator cites the French edition of a source where the constants give one, else the English one marked lang="en"', async () => {
      const inLanguage = async (language: 'en' | 'fr') =>
        (
          await h.app.inject({
            method: 'POST',
            url: `/calculator?lang=${language}`,
            payload: 'annual_income=75000&taxpayer_since_year=2014',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          })
        ).body;
      const [en, fr] = [await inLanguage('en'), await inLanguage('fr')];
      const links = (body: string) => [...body.matchAll(/(<span lang="en">)?<a href="([^"]+)">([^<]*)<\/a>/g)];
      const cited = new Set<string>();
      for (const year of [...FEDERAL_REVENUES.map((r) => r.source), ...FEDERAL_TAX_YEARS.map((t) => t.source)]) {
        const english = links(en).find((m) => m[2] === year.url && decode(m[3]) === year.publication);
        if (!english) continue; // a year the answer does not reach
        cited.add(year.url);
        assert.equal(english[1], undefined, year.url);
        const [url, title] = year.french ? [year.french.url, year.french.publication] : [year.url, year.publication];
        const french = links(fr).find((m) => m[2] === url && decode(m[3]) === title);
        assert.ok(french, `${url}: “${title}” on the French page`);
        // French: as it is; English on the French page: marked, so that a screen reader reads it in English
        assert.equal(french[1], year.french ? undefined : '<span lang="en">', url);
      }
      // sources of both kinds are on the page: French editions (CRA, Finance Canada) and English ones
      assert.ok(
        [...cited].some((url) => url.includes('annual-financial-report/2022')),
        [...cited].join(' '),
      );
      assert.ok(
        [...cited].some((url) => url.includes('fin.gc.ca')),
        [...cited].join(' '),
      );
      assert.ok(fr.includes('https://www.canada.ca/fr/agence-revenu/'));
      assert.ok(!en.includes('lang="en"><a'));
      const note = FEDERAL_REVENUES[0].source;
      assert.ok(textOf(fr).includes(note.noteFr!) && !textOf(fr).includes(note.note!));
    });

    it('the French calculator explains its formulas in French, the English one in English, neither marked as the other language', async () => {
      const details = (body: string) => /<details class="formulas">([\s\S]*?)<\/details>/.exec(body)?.[1] ?? '';
      const [en, fr] = [details((await page('/calculator?lang=en')).body), details((await page('/calculator?lang=fr')).body)];
      assert.match(textOf(en), /How the taxpayer’s share is calculated|How the taxpayer's share is calculated/);
      assert.match(textOf(fr), /Comment la part du contribuable est calculée/);
      assert.ok(!textOf(fr).includes('How the') && !textOf(fr).includes('Federal income tax'), textOf(fr).slice(0, 200));
      assert.ok(!fr.includes('lang="en"') && !en.includes('lang="en"'));
      // the same formulas: every API name the English text writes, the French text writes too
      const names = (body: string) => new Set([...body.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => /^[a-z_]+/.exec(m[1])?.[0] ?? ''));
      for (const name of names(en)) if (name.includes('_')) assert.ok(names(fr).has(name), name);
    });

    it('a French page shows an agreement’s French title, recipient and department, and the English ones where the source has none', async () => {
      const both = async (id: number) => (await h.get(`${SPEC}/grants/${id}/?lang=both`)).body as Record<string, string>;
      const bilingual = h.rows.find(
        (r) =>
          r.agreement_title_fr !== '' &&
          r.agreement_title_fr !== r.agreement_title_en &&
          r.recipient_legal_name_fr !== '' &&
          r.recipient_legal_name_fr !== r.recipient_legal_name,
      );
      assert.ok(bilingual, 'a generated agreement with a French title and recipient name');
      const texts = await both(bilingual.id);
      assert.ok(texts.owner_org_title_fr !== '' && texts.owner_org_title_fr !== texts.owner_org_title, 'a department named in French');
      const fr = textOf((await page(`/grants/${bilingual.id}?lang=fr`)).body);
      for (const french of [bilingual.agreement_title_fr, bilingual.recipient_legal_name_fr, texts.owner_org_title_fr])
        assert.ok(fr.includes(french), french);
      for (const english of [bilingual.agreement_title_en, texts.owner_org_title]) assert.ok(!fr.includes(english), english);
      // the industry under NAICS Canada's French name (SCIAN), as /api/comprehensive-stats/?lang=fr names the sectors
      const sectored = h.rows.find((r) => r.naics_sector_en !== '' && naicsSectorInFrench(r.naics_sector_en) !== r.naics_sector_en);
      assert.ok(sectored, 'an agreement in a sector with a French name');
      const inSector = textOf((await page(`/grants/${sectored.id}?lang=fr`)).body);
      assert.ok(inSector.includes(naicsSectorInFrench(sectored.naics_sector_en)), sectored.naics_sector_en);
      assert.ok(!inSector.includes(sectored.naics_sector_en), sectored.naics_sector_en);
      const en = textOf((await page(`/grants/${bilingual.id}`)).body);
      for (const english of [bilingual.agreement_title_en, bilingual.recipient_legal_name, texts.owner_org_title])
        assert.ok(en.includes(english), english);
      assert.ok(!en.includes(bilingual.agreement_title_fr));
      // the recipient link keeps the English legal name the look-up is keyed on
      const frPage = (await page(`/grants/${bilingual.id}?lang=fr`)).body;
      const link = /href="\/recipient\?([^"]*)"/.exec(frPage);
      assert.ok(link, 'a link to the recipient');
      assert.equal(new URLSearchParams(link[1].replace(/&amp;/g, '&')).get('name'), bilingual.recipient_legal_name);

      // the generated source gives every title in French, but not every recipient's name
      const english = h.rows.find((r) => r.recipient_legal_name_fr === '' && r.recipient_legal_name !== '');
      assert.ok(english, 'a generated agreement whose recipient has no French name');
      const frEnglish = textOf((await page(`/grants/${english.id}?lang=fr`)).body);
      assert.ok(frEnglish.includes(english.recipient_legal_name), english.recipient_legal_name);
      assert.ok(frEnglish.includes(english.agreement_title_fr), english.agreement_title_fr);

      // and every program's purpose in both languages, or in neither: the French page shows the French one, unmarked
      const purposes = await Promise.all(h.rows.slice(0, 60).map((r) => both(r.id)));
      assert.ok(
        purposes.every((g) => (g.program_purpose_en === '') === (g.program_purpose_fr === '')),
        'a purpose in both or neither',
      );
      const purposed = purposes.find((g) => g.program_purpose_fr !== '' && g.program_purpose_fr !== g.program_purpose_en);
      assert.ok(purposed, 'a generated agreement whose program has a French purpose');
      const [purposeFr, purposeEn] = [(await page(`/grants/${purposed.id}?lang=fr`)).body, (await page(`/grants/${purposed.id}`)).body];
      assert.ok(textOf(purposeFr).includes(purposed.program_purpose_fr), purposed.program_purpose_fr);
      assert.ok(!textOf(purposeFr).includes(purposed.program_purpose_en), purposed.program_purpose_en);
      assert.ok(!purposeFr.includes('<span lang="en">'), 'nothing shown in English for want of French');
      assert.ok(textOf(purposeEn).includes(purposed.program_purpose_en), purposed.program_purpose_en);

      // the department chart names the departments in French
      const frenchOf = new Map<string, string>();
      for (const r of (await h.get(`${SPEC}/search/?lang=both&limit=1000`)).body.results as Record<string, string>[])
        frenchOf.set(r.owner_org_title, r.owner_org_title_fr || r.owner_org_title);
      const departmentsIn = async (language: string) =>
        tableRows(figures((await page(`/statistics?lang=${language}`)).body).get('value-by-department')!).map((r) => r[0]);
      const [departmentsEn, departmentsFr] = [await departmentsIn('en'), await departmentsIn('fr')];
      assert.ok(departmentsEn.length > 0);
      assert.deepEqual(
        departmentsFr,
        departmentsEn.map((d) => frenchOf.get(d)),
      );
      assert.ok(
        departmentsFr.some((d, i) => d !== departmentsEn[i]),
        'a department named in French',
      );

      // the lists: every agreement titled in the page's language, French where it has one
      const titled = (body: string) =>
        [...body.matchAll(/<a href="\/grants\/(\d+)[^"]*">([^<]*)<\/a>/g)].map((m) => [Number(m[1]), textOf(m[2])] as const);
      const byId = new Map(h.rows.map((r) => [r.id, r]));
      const expected = (id: number, language: 'en' | 'fr') => {
        const r = byId.get(id)!;
        return (language === 'fr' && r.agreement_title_fr) || r.agreement_title_en || r.reference_number;
      };
      for (const url of ['/?per_page=100', `/recipient?name=${encodeURIComponent(bilingual.recipient_legal_name)}`]) {
        for (const language of ['en', 'fr'] as const) {
          const shown = titled((await page(`${url}&lang=${language}`)).body);
          assert.ok(shown.length > 0, url);
          for (const [id, title] of shown) assert.equal(title, expected(id, language), `${url} ${language} #${id}`);
          if (language === 'fr')
            assert.ok(
              shown.some(
                ([id]) => byId.get(id)!.agreement_title_fr !== '' && byId.get(id)!.agreement_title_fr !== byId.get(id)!.agreement_title_en,
              ),
              `${url}: a French title shown`,
            );
        }
      }
    });

    it('the recipients and statistics pages name the largest recipients as the API does in their language; each link finds its agreements', async () => {
      const named = async (language: 'en' | 'fr') =>
        ((await h.get(`${SPEC}/recipients/?lang=${language}`)).body.top_recipients as { recipient_legal_name: string }[]).map(
          (r) => r.recipient_legal_name,
        );
      const [english, french] = [await named('en'), await named('fr')];
      assert.ok(
        french.some((name, i) => name !== english[i]),
        'a top recipient named in French',
      );
      const links = (body: string) =>
        [...body.matchAll(/<a href="\/recipient\?([^"]*)">([^<]*)<\/a>/g)].map((m) => ({
          target: new URLSearchParams(m[1].replace(/&amp;/g, '&')),
          text: textOf(m[2]),
        }));
      for (const [language, expected] of [
        ['en', english],
        ['fr', french],
      ] as const) {
        const shown = links((await page(`/recipients?lang=${language}`)).body);
        assert.deepEqual(
          shown.map((l) => l.text),
          expected,
          language,
        );
        const charted = tableRows(figures((await page(`/statistics?lang=${language}`)).body).get('largest-recipients')!).map((r) => r[0]);
        assert.deepEqual(charted, expected.slice(0, charted.length), `/statistics ${language}`);
        assert.ok(charted.length > 0);
        // each link is the recipient's page, in the same language, listing that recipient's agreements
        for (const [i, link] of shown.entries()) {
          assert.equal(link.target.get('name'), english[i], `${language} #${i}`);
          assert.equal(link.target.get('lang'), language);
          const mine = h.rows
            .filter((r) => r.recipient_legal_name === english[i])
            .sort((a, b) => b.agreement_value_cents - a.agreement_value_cents || a.id - b.id);
          const target = await page(`/recipient?${link.target}`);
          assert.equal(target.status, 200, link.text);
          const ids = [...target.body.matchAll(/<th scope="row"><a href="\/grants\/(\d+)[^"]*">/g)].map((m) => Number(m[1]));
          assert.deepEqual(
            ids,
            mine.slice(0, AGREEMENTS_PER_PAGE).map((r) => r.id),
            link.text,
          );
        }
      }
    });

    it('in French the recipient page names the recipient as GET /api/recipients/?lang=fr does; in English by its legal name', async () => {
      const heading = (body: string) => textOf(/<h1>([\s\S]*?)<\/h1>/.exec(body)![1]);
      const title = (body: string) => textOf(/<title>([\s\S]*?)<\/title>/.exec(body)![1]);
      // the rule, read from the stored rows: the French name of the recipient's first agreement by id that gives one
      const frenchName = (name: string) =>
        h.rows
          .filter((r) => r.recipient_legal_name === name)
          .sort((a, b) => a.id - b.id)
          .find((r) => r.recipient_legal_name_fr !== '')?.recipient_legal_name_fr ?? '';
      const top = (await h.get(`${SPEC}/recipients/?lang=both`)).body.top_recipients as Array<Record<string, string>>;
      const topNamed = top.find((r) => r.recipient_legal_name_fr !== '' && r.recipient_legal_name_fr !== r.recipient_legal_name);
      assert.ok(topNamed, 'a top recipient named in French');
      assert.equal(frenchName(topNamed.recipient_legal_name), topNamed.recipient_legal_name_fr, 'the API’s rule');
      const topNames = new Set(top.map((r) => r.recipient_legal_name));
      const otherNamed = h.rows.find((r) => !topNames.has(r.recipient_legal_name) && frenchName(r.recipient_legal_name) !== '');
      const unnamed = h.rows.find((r) => r.recipient_legal_name !== '' && frenchName(r.recipient_legal_name) === '');
      assert.ok(otherNamed && unnamed, 'a recipient outside the top list named in French, and one the source names in English only');
      for (const name of [topNamed.recipient_legal_name, otherNamed.recipient_legal_name, unnamed.recipient_legal_name]) {
        const url = `/recipient?name=${encodeURIComponent(name)}`;
        const shown = frenchName(name) || name;
        const [fr, en] = [(await page(`${url}&lang=fr`)).body, (await page(url)).body];
        assert.equal(heading(fr), shown, name);
        assert.ok(title(fr).startsWith(shown), name);
        assert.equal(heading(en), name);
        assert.ok(title(en).startsWith(name), name);
        const described = /<figure[\s\S]*?<\/figure>/.exec(fr)![0];
        assert.ok(
          textOf(described).includes(shown) || described.includes(shown.replace(/&/g, '&amp;')),
          `${name}: the chart's description`,
        );
        if (!shown.includes(name)) assert.ok(!textOf(fr).includes(name), `${name}: no English name left on the French page`);
        // the pager and the search link keep the legal name the look-up is keyed on
        const searchLink = /<a href="\/\?([^"]*)">/.exec(fr.slice(fr.lastIndexOf('<p><a href="/?')));
        assert.equal(new URLSearchParams(searchLink![1].replace(/&amp;/g, '&')).get('search'), name);
      }
    });

    it('French pages write fiscal years in full (exercice 2018-2019), English pages as the data does (2018-19)', async () => {
      const inFull = (label: string) => `${label.slice(0, 4)}-${Number(label.slice(0, 4)) + 1}`;
      // a fiscal year written short: four digits, a hyphen, two (not a date, not the full form)
      const short = /\b\d{4}-\d{2}(?![\d-])/;
      const years: string[] = (await h.get(`${SPEC}/stats/`)).body.by_year.map((y: { fiscal_year: string }) => y.fiscal_year);
      assert.ok(years.length > 1 && years.every((y) => /^\d{4}-\d{2}$/.test(y)), 'the API keeps the stored labels');
      for (const [language, written] of [
        ['en', (label: string) => label],
        ['fr', inFull],
      ] as const) {
        const charts = figures((await page(`/statistics?lang=${language}`)).body);
        for (const id of ['value-by-year', 'count-by-year'])
          assert.deepEqual(
            tableRows(charts.get(id)!).map((r) => r[0]),
            years.map(written),
            `${language} ${id}`,
          );
      }

      const g = h.rows.find((r) => r.agreement_title_fr && r.recipient_legal_name)!;
      const form = 'annual_income=75000&gst_eligible_spending=25000&input_mode=annual&taxpayer_since_year=2018';
      const posted = async (url: string) =>
        (await h.app.inject({ method: 'POST', url, payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body;
      const answer = (await h.post(`${SPEC}/calculate/`, { annual_income: 75000, gst_eligible_spending: 25000, taxpayer_since_year: 2018 }))
        .body;
      const current: string = answer.calculation.current_fiscal_year;
      const french: Array<[string, string, string[]]> = [
        ['search', (await page(`/?lang=fr&fiscal_year=${g.fiscal_year}`)).body, [inFull(g.fiscal_year)]],
        ['agreement', (await page(`/grants/${g.id}?lang=fr`)).body, [`(exercice financier ${inFull(g.fiscal_year)})`]],
        ['share', await posted(`/grants/${g.id}?lang=fr`), [`de 2018-2019 à ${inFull(current)}`]],
        ['recipient', (await page(`/recipient?name=${encodeURIComponent(g.recipient_legal_name)}&lang=fr`)).body, [inFull(g.fiscal_year)]],
        ['calculator', (await page('/calculator?lang=fr')).body, ['2018-2019']],
        ['refusal', (await page('/?lang=fr&fiscal_year=19')).body, ['AAAA-AAAA (p. ex. 2018-2019)']],
        [
          'calculation',
          await posted('/calculator?lang=fr'),
          [`aux subventions de 2018-2019 à ${inFull(current)}`, `en ${inFull(current)}`],
        ],
      ];
      for (const [name, body, expected] of french) {
        // (text shown in English, marked so, such as a source's English title, is English)
        const text = textOf(body.replace(/<span lang="en">[\s\S]*?<\/span>/g, ''));
        assert.doesNotMatch(text, short, name);
        for (const e of expected) assert.ok(text.includes(e), `${name}: ${e}`);
      }
      // the search form offers each year in full, its value the label the API takes
      assert.match(french[0][1], new RegExp(`<option value="${g.fiscal_year}" selected>${inFull(g.fiscal_year)}</option>`));
      assert.match(textOf(await posted('/calculator')), new RegExp(`to grants from 2018-19 to ${current}`));
    });

    it('French words where an agreement has no end date and around a recipient’s name (no « au aucune date de fin », no « de Edmonton »)', async () => {
      const inFull = (label: string) => `${label.slice(0, 4)}-${Number(label.slice(0, 4)) + 1}`;
      const open = h.rows.find((r) => r.agreement_end_date === null)!;
      assert.ok(open, 'a generated agreement without an end date');
      const start = open.agreement_start_date;
      const grantFr = textOf((await page(`/grants/${open.id}?lang=fr`)).body);
      assert.ok(
        grantFr.includes(
          `à partir du ${formatDate('fr', start)}, sans date de fin précisée (exercice financier ${inFull(open.fiscal_year)})`,
        ),
        grantFr,
      );
      const grantEn = textOf((await page(`/grants/${open.id}`)).body);
      assert.ok(grantEn.includes(`from ${formatDate('en', start)}, no end date given (fiscal year ${open.fiscal_year})`));
      // the search lists agreements without an end date first when sorted by end date
      const listed = textOf((await page('/?lang=fr&sort=agreement_end_date&per_page=100')).body);
      assert.ok(listed.includes(`à partir du ${formatDate('fr', start, 'short')}, sans date de fin`));
      for (const text of [grantFr, listed]) assert.ok(!/ au (aucune|sans)/.test(text));

      const named = h.rows.find((r) => r.recipient_legal_name !== '' && r.recipient_legal_name_fr === '')!;
      const recipient = (await page(`/recipient?name=${encodeURIComponent(named.recipient_legal_name)}&lang=fr`)).body;
      for (const said of ['Ententes conclues avec', 'Valeur totale des ententes conclues avec'])
        assert.ok(textOf(recipient).includes(`${said} ${named.recipient_legal_name}`), said);
    });

    it('the calculator names its agreements in the page’s language as POST /api/calculate/?lang= does', async () => {
      const byId = new Map(h.rows.map((r) => [r.id, r]));
      const input = { annual_income: 75000, gst_eligible_spending: 25000, taxpayer_since_year: 2018 };
      type Named = { id: number; title: string; recipient: string; title_fr?: string; recipient_fr?: string };
      const named = (answer: { grant_shares: Named[]; yearly_breakdown: Array<{ top_projects: Named[] }> }) => [
        ...answer.grant_shares,
        ...answer.yearly_breakdown.flatMap((y) => y.top_projects),
      ];
      const api = async (query: string, headers: Record<string, string> = {}) => {
        const res = await h.app.inject({ method: 'POST', url: `${SPEC}/calculate/${query}`, payload: input, headers });
        assert.equal(res.statusCode, 200, query);
        return { body: res.json(), language: res.headers['content-language'] };
      };
      const en = await api('');
      const fr = await api('?lang=fr');
      const both = await api('?lang=both');
      const byHeader = await api('', { 'accept-language': 'fr-CA' });
      assert.deepEqual([en.language, fr.language, byHeader.language], ['en', 'fr', 'fr']);
      assert.deepEqual(byHeader.body, fr.body);
      assert.deepEqual((await api('?lang=en')).body, en.body);
      const [english, french, side] = [named(en.body), named(fr.body), named(both.body)];
      assert.ok(english.length > 0);
      for (const [i, g] of english.entries()) {
        const row = byId.get(g.id)!;
        assert.deepEqual([g.title, g.recipient], [row.agreement_title_en, row.recipient_legal_name], `#${g.id} en`);
        assert.ok(!('title_fr' in g) && !('recipient_fr' in g));
        assert.deepEqual(
          [french[i].title, french[i].recipient],
          [row.agreement_title_fr || row.agreement_title_en, row.recipient_legal_name_fr || row.recipient_legal_name],
          `#${g.id} fr`,
        );
        assert.deepEqual(
          [side[i].title, side[i].recipient, side[i].title_fr, side[i].recipient_fr],
          [row.agreement_title_en, row.recipient_legal_name, row.agreement_title_fr, row.recipient_legal_name_fr],
          `#${g.id} both`,
        );
      }
      assert.ok(
        french.some((g, i) => g.title !== english[i].title),
        'a title in French',
      );
      assert.ok(
        french.some((g, i) => g.recipient !== english[i].recipient),
        'a recipient named in French',
      );

      // the page: the same names, the recipient links keyed on the legal name
      const form = 'annual_income=75000&gst_eligible_spending=25000&input_mode=annual&taxpayer_since_year=2018';
      for (const [language, answer] of [
        ['en', en.body],
        ['fr', fr.body],
      ] as const) {
        const res = await h.app.inject({
          method: 'POST',
          url: `/calculator?lang=${language}`,
          payload: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        assert.equal(res.statusCode, 200);
        const recipients = [...res.body.matchAll(/<a href="\/recipient\?([^"]*)">([^<]*)<\/a>/g)].map((m) => ({
          name: new URLSearchParams(m[1].replace(/&amp;/g, '&')).get('name'),
          text: textOf(m[2]),
        }));
        assert.deepEqual(
          recipients,
          answer.grant_shares.map((g: Named, i: number) => ({ name: en.body.grant_shares[i].recipient, text: g.recipient })),
          language,
        );
        const titles = new Map(named(answer).map((g) => [g.id, g.title]));
        const shown = [...res.body.matchAll(/<a href="\/grants\/(\d+)[^"]*">([^<]*)<\/a>/g)];
        assert.ok(shown.length >= answer.grant_shares.length);
        for (const m of shown) assert.equal(textOf(m[2]), titles.get(Number(m[1])), `${language} #${m[1]}`);
      }
    });
  },
  { migrations: grantsService.migrations },
);

describe('grants pages are registered', () => {
  it('the service exports its pages with the five sections', () => {
    assert.deepEqual(
      grantsService.pages?.sections.map((s) => s.href),
      ['/', '/statistics', '/recipients', '/calculator', '/international'],
    );
  });
});
