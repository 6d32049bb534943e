// GET /api/grants/{id}/ on SQLite and PostgreSQL: the record as in search results; 404 and 400.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { OLD, SPEC, grantsHttp } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';
import { NAICS_SECTORS } from '../source/naics.ts';
import { naicsSectorInFrench } from '../source/index.ts';

describeEachDatabase(
  'grants lookup route',
  (t) => {
    const h = grantsHttp(t);
    const { get } = h;

    describe('languages', () => {
      it('serves the French texts under the English names with lang=fr or Accept-Language, both with lang=both', async () => {
        const row = h.rows.find((r) => r.agreement_title_fr !== '' && r.program_name_fr !== '' && r.description_fr !== '')!;
        assert.ok(row, 'a generated agreement with French texts');
        const en = (await get(`${SPEC}/grants/${row.id}/`)).body;
        assert.equal(en.agreement_title_en, row.agreement_title_en);
        assert.equal('agreement_title_fr' in en, false);
        const fr = await get(`${SPEC}/grants/${row.id}/?lang=fr`);
        assert.equal(fr.body.agreement_title_en, row.agreement_title_fr);
        assert.equal(fr.body.program_name_en, row.program_name_fr);
        assert.equal(fr.body.description_en, row.description_fr);
        assert.equal(fr.body.agreement_value, en.agreement_value);
        assert.deepEqual((await get(`${SPEC}/grants/${row.id}/`, { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' })).body, fr.body);
        // ?lang= wins over the header; the header's answer was not cached for the URL
        assert.deepEqual((await get(`${SPEC}/grants/${row.id}/?lang=en`, { 'accept-language': 'fr' })).body, en);
        assert.deepEqual((await get(`${SPEC}/grants/${row.id}/`)).body, en);
        const both = (await get(`${SPEC}/grants/${row.id}/?lang=both`)).body;
        assert.equal(both.agreement_title_en, row.agreement_title_en);
        assert.equal(both.agreement_title_fr, row.agreement_title_fr);
        assert.equal(both.recipient_legal_name_fr, row.recipient_legal_name_fr);
        const search = (await get(`${SPEC}/search/?lang=fr&limit=1000`)).body;
        const found = search.results.find((r: { id: number }) => r.id === row.id);
        if (found) assert.equal(found.agreement_title_en, row.agreement_title_fr);
        const bad = await get(`${SPEC}/grants/${row.id}/?lang=de`);
        assert.equal(bad.status, 400);
        assert.match(bad.body.error, /^lang /);
        assert.equal((await get(`${SPEC}/search/?lang=english`)).status, 400);
      });

      it('serves the NAICS sector under its SCIAN Canada French name with lang=fr, beside the English one with lang=both', async () => {
        const rows = h.rows.filter((r) => r.naics_sector_en !== '').slice(0, 5);
        assert.ok(rows.length > 0, 'generated agreements with a NAICS sector');
        for (const row of rows) {
          const sector = NAICS_SECTORS.find((s) => s.name === row.naics_sector_en)!;
          assert.ok(sector, row.naics_sector_en);
          const en = (await get(`${SPEC}/grants/${row.id}/`)).body;
          assert.equal(en.naics_sector_en, sector.name);
          assert.equal('naics_sector_fr' in en, false);
          const french = naicsSectorInFrench(sector.name);
          assert.notEqual(french, sector.name, sector.name);
          const fr = (await get(`${SPEC}/grants/${row.id}/?lang=fr`)).body;
          assert.equal(fr.naics_sector_en, french);
          assert.equal('naics_sector_fr' in fr, false);
          assert.equal((await get(`${SPEC}/grants/${row.id}/`, { 'accept-language': 'fr' })).body.naics_sector_en, french);
          const both = (await get(`${SPEC}/grants/${row.id}/?lang=both`)).body;
          assert.equal(both.naics_sector_en, sector.name);
          assert.equal(both.naics_sector_fr, french);
        }
        // search results are the same records
        const search = (await get(`${SPEC}/search/?lang=both&limit=1000`)).body;
        for (const r of search.results as Array<{ naics_sector_en: string; naics_sector_fr: string }>)
          assert.equal(r.naics_sector_fr, r.naics_sector_en === '' ? '' : naicsSectorInFrench(r.naics_sector_en));
        const unknown = h.rows.find((r) => r.naics_sector_en === '');
        if (unknown) assert.equal((await get(`${SPEC}/grants/${unknown.id}/?lang=both`)).body.naics_sector_fr, '');
      });

      it('finds French texts with or without their accents', async () => {
        const withAccent = h.rows.filter((r) => r.agreement_title_fr.includes('santé')).map((r) => r.id);
        assert.ok(withAccent.length > 0, 'generated French titles with "santé"');
        for (const q of ['santé', 'sante', 'SANTE']) {
          const ids = (await h.allIds(`search=${encodeURIComponent(q)}&lang=fr`)).sort((a, b) => a - b);
          for (const id of withAccent) assert.ok(ids.includes(id), `${q} finds agreement ${id}`);
          const inEnglish = await h.allIds(`search=${encodeURIComponent(q)}&lang=en`);
          for (const id of inEnglish) assert.ok(ids.includes(id), `${q} in French finds what it finds in English`);
        }
        // the French texts are searched in French (lang=fr or both, or Accept-Language), not in English
        const inEnglish = await h.allIds(`search=${encodeURIComponent('santé')}&lang=en`);
        const frenchOnly = h.rows.filter(
          (r) =>
            r.agreement_title_fr.includes('santé') &&
            ![r.agreement_title_en, r.description_en, r.program_name_en, r.recipient_legal_name].some((x) => /sant[eé]/i.test(x)),
        );
        assert.ok(frenchOnly.length > 0, 'generated agreements with "santé" in French only');
        for (const r of frenchOnly) assert.ok(!inEnglish.includes(r.id), `agreement ${r.id}: not found in English`);
      });
    });

    describe('refuses', () => {
      it('GET /api/grants/{id}/: the record, 404 "grant not found", 400 for a non-numeric id', async () => {
        const first = (await get(`${SPEC}/search/?limit=1`)).body.results[0];
        assert.deepEqual((await get(`${SPEC}/grants/${first.id}/`)).body, first);
        for (const prefix of [SPEC, OLD]) {
          const missing = await get(`${prefix}/grants/987654321/`);
          assert.equal(missing.status, 404);
          assert.deepEqual(missing.body, { error: 'grant not found' });
          const bad = await get(`${prefix}/grants/abc/`);
          assert.equal(bad.status, 400);
          assert.match(bad.body.error, /^id /);
        }
        const unknownRoute = await get(`${SPEC}/nothing-here/`);
        assert.equal(unknownRoute.status, 404);
        assert.ok(typeof unknownRoute.body.error === 'string');
      });
    });
  },
  { migrations: grantsService.migrations },
);
