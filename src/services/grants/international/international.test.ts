// Global Affairs Canada's project data on SQLite and PostgreSQL: the import and its guards (a second import that
// changes nothing, unreadable secondary fields, a cut file, a shrinking file, a file without a required column,
// real data replacing the demo), the search (accent-folded text, filters, paging), one project, the statistics
// recomputed from the file, and the 400s and 404s.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { figures, tableRows, textOf } from '../../../../test/support/pages.ts';
import { buildTestApp } from '../../../../test/support/app.ts';
import { tempDir } from '../../../../test/support/grants/files.ts';
import { foldAccents } from '../../../core/db/dialect.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { grantsService } from '../service.ts';
import { GENERATED_MARKER, allocateCents, parseAllocations, COUNTRY_CODE } from './format.ts';
import { writeInternationalCsv } from './generate.ts';
import { importInternationalCsv } from './import.ts';

const API = '/api/api/international';

/** The generated file's rows, by header name. */
function readRows(file: string): Array<Record<string, string>> {
  return Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true }).data;
}

function writeRows(file: string, rows: Array<Record<string, string>>, dropMarker = true): void {
  const fields = Object.keys(rows[0]).filter((f) => !(dropMarker && f === GENERATED_MARKER));
  fs.writeFileSync(file, Papa.unparse(rows, { columns: fields }));
}

describe('international format', () => {
  it('reads allocation lists and allocates cents half up, exactly', () => {
    const { entries, unreadable } = parseAllocations('Ethiopia|Éthiopie (ET): 60.50%; Kenya (KE): 39.5%; nowhere: 3%', COUNTRY_CODE);
    assert.deepEqual(
      entries.map((e) => [e.code, e.name_en, e.name_fr, e.share_hundredths]),
      [
        ['ET', 'Ethiopia', 'Éthiopie', 6050],
        ['KE', 'Kenya', '', 3950],
      ],
    );
    assert.deepEqual(unreadable, ['nowhere: 3%']);
    assert.equal(allocateCents(1001, 5000), 501); // 500.5 → 501
    assert.equal(allocateCents(900_719_925_474_099, 3333), 300_209_951_160_517); // beyond 2^53 in the product
  });
});

describe('international demo file', () => {
  it('says the same figures in English and in French', () => {
    const dir = tempDir('pdi-international-');
    try {
      const rows = readRows(writeInternationalCsv(dir, 60, 'same-figures'));
      const figures = (text: string) => (text.match(/\d[\d,\s\u202f]*/g) ?? []).map((f) => f.replace(/\D/g, ''));
      for (const r of rows) {
        const [en, fr] = r.description.split('|');
        assert.deepEqual(figures(fr), figures(en), r.description);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeEachDatabase(
  'international projects',
  (t) => {
    let dir: string;
    let file: string;
    let rows: Array<Record<string, string>>;
    let app: ServiceApp;
    const get = async (url: string) => {
      const res = await app.inject({ url });
      return { status: res.statusCode, body: res.json() };
    };

    before(async () => {
      dir = tempDir('pdi-international-');
      file = writeInternationalCsv(dir, 300, 'international-test');
      rows = readRows(file);
      app = await buildTestApp(grantsService, t.db);
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    describe('import', () => {
      it('stores a generated file as demo, and a second import changes nothing', async () => {
        const first = await importInternationalCsv(t.db, file);
        assert.equal(first.is_demo, true);
        assert.equal(first.inserted, 300);
        const again = await importInternationalCsv(t.db, file);
        assert.deepEqual([again.inserted, again.updated, again.unchanged, again.deleted], [0, 0, 300, 0]);
      });

      it('replaces the demo with a real file, keeps a stored value where the file’s cannot be read, and refuses what would lose data', async () => {
        const real = path.join(dir, 'real.csv');
        const changed = rows.map((r) => ({ ...r }));
        writeRows(real, changed);
        const report = await importInternationalCsv(t.db, real);
        assert.equal(report.is_demo, false);
        assert.equal(report.demo_rows_removed, 300);
        assert.equal(report.inserted, 300);

        // unreadable end date and disbursements: the stored ones stay, with warnings
        const target = changed[0];
        const before = (await get(`${API}/projects/${target.projectNumber}/`)).body;
        changed[0] = { ...target, end: 'soon', disbursements: 'lots', title: `${target.title.split('|')[0]} (revised)` };
        writeRows(real, changed);
        const update = await importInternationalCsv(t.db, real);
        assert.equal(update.updated, 1);
        assert.equal(update.warnings, 2);
        const after = (await get(`${API}/projects/${target.projectNumber}/`)).body;
        assert.equal(after.end_date, before.end_date);
        assert.equal(after.disbursements, before.disbursements);
        assert.match(after.title_en, /\(revised\)$/);

        // a row whose contribution cannot be read: skipped, the project kept as stored (not deleted)
        const skipped = changed.map((r, i) => (i === 1 ? { ...r, maximumContribution: 'n/a' } : r));
        writeRows(real, skipped);
        const withSkip = await importInternationalCsv(t.db, real);
        assert.equal(withSkip.skipped, 1);
        assert.equal(withSkip.deleted, 0);
        assert.equal((await get(`${API}/projects/${changed[1].projectNumber}/`)).status, 200);

        // a file holding half the projects: refused, nothing changed
        writeRows(real, changed.slice(0, 150));
        await assert.rejects(importInternationalCsv(t.db, real), /allow-shrink|delete/i);
        assert.equal((await get(`${API}/stats/`)).body.totals.projects, 300);
        // more than 5% unreadable rows: refused
        writeRows(
          real,
          changed.map((r, i) => (i % 10 === 0 ? { ...r, start: 'someday' } : r)),
        );
        await assert.rejects(importInternationalCsv(t.db, real), /allow-skips|unreadable|could not be read/i);
        // a file cut inside its last record: refused
        writeRows(real, changed);
        const text = fs.readFileSync(real, 'utf8');
        fs.writeFileSync(real, text.slice(0, text.lastIndexOf(',"') + 4));
        await assert.rejects(importInternationalCsv(t.db, real));
        // a file without a required column: refused, naming it
        fs.writeFileSync(real, 'projectNumber,title,start\nD1,A project,2020-01-01\n');
        await assert.rejects(importInternationalCsv(t.db, real), /maximumContribution/);
        // an empty file: refused
        fs.writeFileSync(
          real,
          `${Object.keys(changed[0])
            .filter((f) => f !== GENERATED_MARKER)
            .join(',')}\n`,
        );
        await assert.rejects(importInternationalCsv(t.db, real), /no projects/);
        // back to a full, readable file for the next tests
        changed[0] = target;
        writeRows(real, changed);
        await importInternationalCsv(t.db, real);
        rows = changed;
      });
    });

    describe('API', () => {
      it('computes the statistics the file gives', async () => {
        const { status, body } = await get(`${API}/stats/`);
        assert.equal(status, 200);
        const cents = (s: string) => Math.round(Number(s) * 100);
        const total = rows.reduce((s, r) => s + cents(r.maximumContribution), 0);
        assert.equal(Math.round(body.totals.maximum_contribution * 100), total);
        const byCountry = new Map<string, number>();
        for (const r of rows) {
          for (const e of parseAllocations(r.countries, COUNTRY_CODE).entries) {
            byCountry.set(e.code, (byCountry.get(e.code) ?? 0) + allocateCents(cents(r.disbursements), e.share_hundredths));
          }
        }
        assert.equal(body.by_country.length, byCountry.size);
        for (const c of body.by_country) assert.equal(Math.round(c.disbursements * 100), byCountry.get(c.code), c.code);
        for (let i = 1; i < body.by_country.length; i++)
          assert.ok(body.by_country[i - 1].disbursements >= body.by_country[i].disbursements);
        assert.equal(
          body.by_year.reduce((s: number, y: { projects: number }) => s + y.projects, 0),
          rows.length,
        );
        assert.equal(body.data_source.kind, 'import');
      });

      it('searches text accents aside, filters by country, status and dates, and pages without overlap', async () => {
        const q = 'ethiopie';
        const expected = rows.filter((r) =>
          ['projectNumber', 'title', 'description', 'executingAgencyPartner'].some((f) => foldAccents(r[f].replace('|', ' ')).includes(q)),
        );
        const found = await get(`${API}/projects/?q=%C3%89THIOPIE&limit=500`);
        assert.equal(found.status, 200);
        assert.equal(found.body.count, expected.length);
        assert.ok(expected.length > 0);

        // either apostrophe finds both (the generated French texts write ’)
        const elision = rows.filter((r) => ['title', 'description'].some((f) => foldAccents(r[f]).includes('l’acces')));
        assert.ok(elision.length > 0);
        for (const written of ["L'ACCES", 'l’accès']) {
          const withElision = await get(`${API}/projects/?q=${encodeURIComponent(written)}&limit=500`);
          assert.equal(withElision.body.count, elision.length, written);
        }

        const inKenya = rows.filter((r) => /\(KE\)/.test(r.countries));
        const ke = await get(`${API}/projects/?country=ke&limit=500`);
        assert.equal(ke.body.count, inKenya.length);
        for (const p of ke.body.results) assert.ok(p.countries.some((c: { code: string }) => c.code === 'KE'));

        // a country's English or French name, as the projects write it, case and accents aside, finds the same projects
        const inEthiopia = rows.filter((r) => /\(ET\)/.test(r.countries)).length;
        assert.ok(inEthiopia > 0);
        for (const name of ['Ethiopia', 'ETHIOPIA', 'Éthiopie', 'ethiopie', 'et']) {
          const byName = await get(`${API}/projects/?country=${encodeURIComponent(name)}&limit=500`);
          assert.equal(byName.status, 200, name);
          assert.equal(byName.body.count, inEthiopia, name);
        }
        // the page's selector shows the country named, however the URL writes it
        for (const [written, lang] of [
          ['éthiopie', 'fr'],
          ['Ethiopia', 'en'],
          ['et', 'en'],
        ]) {
          const page = await app.inject({ url: `/international?country=${encodeURIComponent(written)}&lang=${lang}` });
          assert.equal(page.statusCode, 200, written);
          const selected = [...page.body.matchAll(/<option value="([^"]*)" selected>/g)].map((m) => m[1]);
          assert.deepEqual(selected, ['ET', '', ''], written); // country, sector, status
        }
        const refused = await app.inject({ url: '/international?country=Atlantis&lang=fr' });
        assert.equal(refused.statusCode, 400);
        assert.ok(refused.body.includes('un pays est un code ISO de deux lettres ou le nom anglais ou français'));
        const nowhere = await get(`${API}/projects/?country=Atlantis`);
        assert.equal(nowhere.status, 400);
        assert.match(nowhere.body.error, /country must be a two-letter ISO 3166-1 code or the English or French name/);

        const closed2015 = rows.filter((r) => r.status.startsWith('Closed') && r.start >= '2015-01-01' && r.start <= '2018-12-31');
        const cl = await get(`${API}/projects/?status=CLOSED&start_from=2015-01-01&start_to=2018-12-31&limit=500`);
        assert.equal(cl.body.count, closed2015.length);

        const big = rows.filter((r) => Number(r.maximumContribution) >= 5_000_000);
        const bg = await get(`${API}/projects/?min_value=5000000&limit=500`);
        assert.equal(bg.body.count, big.length);
        for (let i = 1; i < bg.body.results.length; i++)
          assert.ok(bg.body.results[i - 1].maximum_contribution >= bg.body.results[i].maximum_contribution);

        const seen: string[] = [];
        for (let offset = 0; offset < 300; offset += 70) {
          const page = await get(`${API}/projects/?sort=project_number&limit=70&offset=${offset}`);
          seen.push(...page.body.results.map((p: { project_number: string }) => p.project_number));
        }
        assert.deepEqual(seen, rows.map((r) => r.projectNumber).sort());
      });

      it('serves one project with its allocations in both languages', async () => {
        const r = rows[5];
        const { status, body } = await get(`${API}/projects/${r.projectNumber}/`);
        assert.equal(status, 200);
        assert.equal(body.title_en, r.title.split('|')[0]);
        assert.equal(body.title_fr, r.title.split('|')[1]);
        assert.equal(body.countries.reduce((s: number, c: { percentage: number }) => s + c.percentage, 0).toFixed(2), '100.00');
      });

      it('renders the search, project, statistics and map pages in both languages', async () => {
        for (const lang of ['en', 'fr']) {
          for (const url of [
            '/international',
            `/international/projects/${rows[3].projectNumber}`,
            '/international/statistics',
            '/international/map',
            '/international?country=KE&status=closed',
          ]) {
            const res = await app.inject({ url: `${url}${url.includes('?') ? '&' : '?'}lang=${lang}` });
            assert.equal(res.statusCode, 200, url);
            assert.match(res.headers['content-type'] as string, /text\/html/);
          }
        }
        // the statistics' note: how many projects give their disbursements, as each language writes it
        const reported = (await get(`${API}/stats/`)).body.totals.projects_with_disbursements as number;
        const note = async (lang: string) => (await app.inject({ url: `/international/statistics?lang=${lang}` })).body;
        assert.ok(reported > 1);
        assert.match(await note('en'), new RegExp(`${reported.toLocaleString('en-CA')} projects give their disbursements\\.`));
        assert.match(await note('fr'), new RegExp(`${reported.toLocaleString('fr-CA')} projets donnent leurs décaissements\\.`));
        // fiscal years as each language writes them: the API's label in English, in full in French (2018-2019)
        const project = (await get(`${API}/projects/${rows[3].projectNumber}/`)).body;
        const inFull = (label: string) => `${label.slice(0, 4)}-${Number(label.slice(0, 4)) + 1}`;
        assert.match(project.fiscal_year, /^\d{4}-\d{2}$/);
        for (const [lang, written] of [
          ['en', `(starting in fiscal year ${project.fiscal_year})`],
          ['fr', `(début pendant l’exercice ${inFull(project.fiscal_year)})`],
        ]) {
          const shown = await app.inject({ url: `/international/projects/${rows[3].projectNumber}?lang=${lang}` });
          assert.ok(textOf(shown.body).includes(written), lang);
        }
        const byYear = (await get(`${API}/stats/`)).body.by_year.map((y: { fiscal_year: string }) => y.fiscal_year);
        const frenchYears = figures((await app.inject({ url: '/international/statistics?lang=fr' })).body).get('intl-by-year')!;
        assert.deepEqual(
          tableRows(frenchYears).map((r) => r[0]),
          byYear.map(inFull),
        );
        const map = await app.inject({ url: '/international/map' });
        assert.match(map.body, /<svg/);
        assert.match(map.body, /<table/);
        assert.equal((await app.inject({ url: '/international?country=KEN' })).statusCode, 400);
        assert.equal((await app.inject({ url: '/international/projects/NOPE0' })).statusCode, 404);
      });

      const bad: Array<[string, number]> = [
        [`${API}/projects/?country=ETH`, 400],
        [`${API}/projects/?sector=12`, 400],
        [`${API}/projects/?status=asleep`, 400],
        [`${API}/projects/?start_from=2020-02-31`, 400],
        [`${API}/projects/?sort=colour`, 400],
        [`${API}/projects/?min_value=-1`, 400],
        [`${API}/projects/NOPE0000/`, 404],
      ];
      for (const [url, status] of bad) {
        it(`${url} is ${status}`, async () => {
          const res = await get(url);
          assert.equal(res.status, status);
          assert.equal(typeof res.body.error, 'string');
        });
      }
    });
  },
  { migrations: grantsService.migrations },
);
