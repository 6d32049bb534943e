// Service C's HTTP contract on SQLite and PostgreSQL, over a generated file of a few thousand rows: every
// endpoint at both addresses, every search parameter against an independent filter of the stored rows, every
// sort field both ways, paging, the 400 table, 404/405, the calculator through HTTP, caching and demo labels.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { sql } from 'kysely';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { foldCase } from '../../core/db/dialect.ts';
import { listDataVersions } from '../../core/db/datasets.ts';
import type { ServiceApp } from '../../core/service.ts';
import { grantsService } from './service.ts';
import { importGrantsCsv } from './import.ts';
import { loadGrantsDemo } from './demo.ts';
import { SORT_FIELDS, SORT_ORDERS, agreementsWithTexts } from './repository.ts';
import type { SortField } from './repository.ts';
import { VALUE_RANGES } from './statistics.ts';
import { LAST_REVENUE_YEAR, publishedRevenue } from './calculator/index.ts';
import { fiscalYearOfDate, formatDollars } from './source/index.ts';
import { compareText, expectedAgreements, tempDir, writeGenerated } from './test-support.ts';
import { GRANTS_SEARCH, GRANTS_TABLE, GRANTS_TEXTS_TABLE, SEARCHED_COLUMNS } from './tables.ts';

interface Row {
  id: number;
  owner_org: string;
  reference_number: string;
  recipient_legal_name: string;
  recipient_province: string;
  recipient_type: string;
  program_name_en: string;
  agreement_title_en: string;
  description_en: string;
  naics_sector_en: string;
  fiscal_year: string;
  agreement_value_cents: number;
  agreement_start_date: string;
  agreement_end_date: string | null;
  is_major_funding: boolean;
  is_notable: boolean;
  notable_category: string;
}

const SPEC = '/api/api';
const OLD = '/api';

describeEachDatabase(
  'grants HTTP contract',
  (t) => {
    let app: ServiceApp;
    let dir: string;
    let rows: Row[];
    let file: string;
    let textCollationIsCodePoint = true;

    before(async () => {
      dir = tempDir();
      file = await writeGenerated(dir, 3000, 'routes-test');
      await importGrantsCsv(t.db, file);
      const { query, texts } = agreementsWithTexts(t.db.kysely);
      rows = (await query.selectAll('g').select(texts).orderBy('g.id').execute()).map((r) => ({
        ...(r as Row),
        id: Number(r.id),
        agreement_value_cents: Number(r.agreement_value_cents),
        is_major_funding: Boolean(r.is_major_funding),
        is_notable: Boolean(r.is_notable),
      }));
      if (t.kind === 'postgres') {
        const { rows: c } = await sql<{
          collate: string;
        }>`select datcollate as collate from pg_database where datname = current_database()`.execute(t.db.kysely);
        textCollationIsCodePoint = /^(C|POSIX|C\.UTF-?8)$/i.test(c[0].collate);
      }
      app = await buildTestApp(grantsService, t.db);
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await app.inject({ url, headers });
      return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
    };
    const post = async (url: string, payload: unknown) => {
      const res = await app.inject({ method: 'POST', url, payload: payload as object });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    };
    const sumCents = (list: Row[]) => list.reduce((s, r) => s + r.agreement_value_cents, 0);
    const dollars = (cents: number) => cents / 100;
    const matchesText = (r: Row, q: string) =>
      [r.agreement_title_en, r.recipient_legal_name, r.description_en, r.program_name_en].some((f) => foldCase(f).includes(foldCase(q)));
    const allIds = async (query: string, pageSize = 1000): Promise<number[]> => {
      const ids: number[] = [];
      for (let offset = 0; ; offset += pageSize) {
        const { body } = await get(`${SPEC}/search/?${query}&limit=${pageSize}&offset=${offset}`);
        ids.push(...body.results.map((r: { id: number }) => r.id));
        if (offset + pageSize >= body.count) return ids;
      }
    };

    it('serves every endpoint at the spec address and the old address, cached for 5 minutes with an ETag', async () => {
      for (const name of ['stats', 'search', 'recipients', 'comprehensive-stats', `grants/${rows[0].id}`]) {
        const spec = await get(`${SPEC}/${name}/`);
        const old = await get(`${OLD}/${name}/`);
        const noSlash = await get(`${SPEC}/${name}`);
        assert.equal(spec.status, 200, name);
        assert.deepEqual(old.body, spec.body, `${name} at the old address`);
        assert.deepEqual(noSlash.body, spec.body, `${name} without the trailing slash`);
        assert.equal(spec.headers['cache-control'], 'public, max-age=300');
        assert.ok(spec.headers.etag);
        const again = await app.inject({ url: `${SPEC}/${name}/`, headers: { 'if-none-match': String(spec.headers.etag) } });
        assert.equal(again.statusCode, 304);
      }
    });

    it('stats: totals, provinces by value, years ascending, top 20 programs, all recomputed from the rows', async () => {
      const { body } = await get(`${SPEC}/stats/`);
      assert.equal(body.total_grants, rows.length);
      assert.equal(body.total_value, dollars(sumCents(rows)));
      assert.equal(body.major_funding_count, rows.filter((r) => r.agreement_value_cents > 100_000_000).length);
      assert.equal(body.notable_count, rows.filter((r) => r.is_notable).length);
      assert.equal(body.data_source.kind, 'import');
      for (const p of body.by_province) {
        const mine = rows.filter((r) => r.recipient_province === p.recipient_province);
        assert.equal(p.count, mine.length);
        assert.equal(p.total_value, dollars(sumCents(mine)));
      }
      assert.equal(
        body.by_province.reduce((n: number, p: { count: number }) => n + p.count, 0),
        rows.length,
      );
      for (let i = 1; i < body.by_province.length; i++) assert.ok(body.by_province[i - 1].total_value >= body.by_province[i].total_value);
      const years = body.by_year.map((y: { fiscal_year: string }) => y.fiscal_year);
      assert.deepEqual(years, [...new Set(rows.map((r) => r.fiscal_year))].sort());
      assert.ok(body.top_programs.length <= 20 && body.top_programs.length > 0);
      const programTotals = new Map<string, number>();
      for (const r of rows) programTotals.set(r.program_name_en, (programTotals.get(r.program_name_en) ?? 0) + r.agreement_value_cents);
      const best = [...programTotals.values()]
        .sort((a, b) => b - a)
        .slice(0, 20)
        .map(dollars);
      assert.deepEqual(
        body.top_programs.map((p: { total_value: number }) => p.total_value),
        best,
      );
    });

    it('recipients: top 50 by value, by type with averages, provinces with unique recipients', async () => {
      const { body } = await get(`${SPEC}/recipients/`);
      const totals = new Map<string, Row[]>();
      for (const r of rows) totals.set(r.recipient_legal_name, [...(totals.get(r.recipient_legal_name) ?? []), r]);
      const expected = [...totals.entries()].sort((a, b) => sumCents(b[1]) - sumCents(a[1]) || compareText(a[0], b[0])).slice(0, 50);
      assert.deepEqual(
        body.top_recipients.map((r: { recipient_legal_name: string; grant_count: number }) => [r.recipient_legal_name, r.grant_count]),
        expected.map(([name, list]) => [name, list.length]),
      );
      const top = body.top_recipients[0];
      assert.equal(top.avg_value, Math.round((top.total_value * 100) / top.grant_count) / 100);
      assert.equal(
        body.by_type.reduce((n: number, x: { count: number }) => n + x.count, 0),
        rows.length,
      );
      for (const x of body.by_type) assert.equal(x.count, rows.filter((r) => r.recipient_type === x.recipient_type).length);
      assert.equal(body.by_type.find((x: { recipient_type: string }) => x.recipient_type === 'S')?.label, 'Academia');
      for (const p of body.by_province) {
        const mine = rows.filter((r) => r.recipient_province === p.recipient_province);
        assert.equal(p.unique_recipients, new Set(mine.map((r) => r.recipient_legal_name)).size);
      }
    });

    it('comprehensive-stats: median, extremes, years, provinces, sectors, half-open value ranges, notable breakdown', async () => {
      const { body } = await get(`${SPEC}/comprehensive-stats/`);
      const values = rows.map((r) => r.agreement_value_cents).sort((a, b) => a - b);
      const mid = values.length >> 1;
      const b = body.basic_stats;
      assert.equal(b.total_grants, rows.length);
      assert.equal(b.median_value, (values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2) / 100);
      assert.equal(b.minimum_value, values[0] / 100);
      assert.equal(b.maximum_value, values[values.length - 1] / 100);
      assert.equal(b.average_value, Math.round(sumCents(rows) / rows.length) / 100);
      for (const y of body.yearly_analysis) {
        const mine = rows.filter((r) => r.fiscal_year === y.fiscal_year);
        assert.deepEqual(
          [y.count, y.major_count, y.notable_count],
          [mine.length, mine.filter((r) => r.is_major_funding).length, mine.filter((r) => r.is_notable).length],
        );
      }
      for (const p of body.provincial_analysis) {
        assert.equal(p.value_per_recipient, Math.round((p.total_value * 100) / p.unique_recipients) / 100);
      }
      assert.equal(
        body.sector_analysis.reduce((n: number, s: { count: number }) => n + s.count, 0),
        rows.length,
      );
      assert.deepEqual(
        body.value_distribution.map((r: { range: string }) => r.range),
        VALUE_RANGES.map((r) => r.range),
      );
      for (const [i, range] of body.value_distribution.entries()) {
        const { min, max } = VALUE_RANGES[i];
        const mine = rows.filter(
          (r) => (min === null || r.agreement_value_cents >= min) && (max === null || r.agreement_value_cents < max),
        );
        assert.equal(range.count, mine.length, range.range);
        assert.equal(range.total_value, dollars(sumCents(mine)));
        assert.equal(range.percentage, Math.round((mine.length / rows.length) * 10000) / 100);
      }
      const notable = rows.filter((r) => r.is_notable);
      assert.deepEqual(body.notable_breakdown.notable, { count: notable.length, total_value: dollars(sumCents(notable)) });
      assert.equal(
        body.notable_breakdown.by_reason.reduce((n: number, x: { count: number }) => n + x.count, 0),
        notable.length,
      );
      assert.ok(body.notable_breakdown.by_reason.every((x: { label: string }) => x.label.length > 0));
    });

    it('search: defaults (limit 100, -agreement_value, count of all), full grant records', async () => {
      const { body } = await get(`${SPEC}/search/`);
      assert.equal(body.count, rows.length);
      assert.equal(body.limit, 100);
      assert.equal(body.offset, 0);
      assert.equal(body.results.length, 100);
      const expected = [...rows].sort((a, b) => b.agreement_value_cents - a.agreement_value_cents || b.id - a.id).slice(0, 100);
      assert.deepEqual(
        body.results.map((r: { id: number }) => r.id),
        expected.map((r) => r.id),
      );
      const record = body.results[0];
      for (const field of [
        'id',
        'reference_number',
        'recipient_legal_name',
        'recipient_province',
        'recipient_city_en',
        'recipient_type',
        'agreement_title_en',
        'agreement_value',
        'description_en',
        'agreement_start_date',
        'agreement_end_date',
        'program_name_en',
        'naics_sector_en',
        'fiscal_year',
        'is_major_funding',
        'is_notable',
        'notable_reason',
      ]) {
        assert.ok(field in record, field);
      }
      assert.equal(record.agreement_value, expected[0].agreement_value_cents / 100);
      assert.match(record.fiscal_year, /^\d{4}-\d{2}$/);
    });

    it('search: every filter, each alias and a combination match an independent filter of the rows', async () => {
      const someTitleWord = rows[5].agreement_title_en.split(' ').slice(-1)[0].slice(0, 6);
      const year = rows[7].fiscal_year;
      const cases: Array<[string, (r: Row) => boolean]> = [
        ['province=on', (r) => r.recipient_province === 'ON'],
        ['province=Quebec', (r) => r.recipient_province === 'QC'],
        [`fiscal_year=${year}`, (r) => r.fiscal_year === year],
        [`year=${year}`, (r) => r.fiscal_year === year],
        [`fiscal_year=${year.slice(0, 4)}-${Number(year.slice(0, 4)) + 1}`, (r) => r.fiscal_year === year],
        ['min_value=100000', (r) => r.agreement_value_cents >= 10_000_000],
        ['max_value=50000.5', (r) => r.agreement_value_cents <= 5_000_050],
        ['min_value=25000&max_value=75000', (r) => r.agreement_value_cents >= 2_500_000 && r.agreement_value_cents <= 7_500_000],
        ['recipient_type=f', (r) => r.recipient_type === 'F'],
        ['recipient_type=N', (r) => r.recipient_type === 'N'],
        ['is_major=true', (r) => r.agreement_value_cents > 100_000_000],
        ['is_major=0', (r) => r.agreement_value_cents <= 100_000_000],
        ['is_notable=TRUE', (r) => r.is_notable],
        ['is_notable=false', (r) => !r.is_notable],
        [`search=${encodeURIComponent(someTitleWord.toUpperCase())}`, (r) => matchesText(r, someTitleWord)],
        [`q=${encodeURIComponent(someTitleWord)}`, (r) => matchesText(r, someTitleWord)],
        ['search=Community', (r) => matchesText(r, 'community')],
        ['search=%20%20', () => true],
        ['search=zq', (r) => matchesText(r, 'zq')],
        ['search=%25', (r) => matchesText(r, '%')],
        [`search=${encodeURIComponent('a"b')}`, (r) => matchesText(r, 'a"b')],
        [`search=${encodeURIComponent("seniors' day")}`, (r) => matchesText(r, "seniors' day")],
        [`search=${encodeURIComponent('SENIORS’ DAY')}`, (r) => matchesText(r, 'seniors’ day')],
        [
          'search=community&province=ON&is_major=false&recipient_type=N',
          (r) =>
            matchesText(r, 'community') &&
            r.recipient_province === 'ON' &&
            r.agreement_value_cents <= 100_000_000 &&
            r.recipient_type === 'N',
        ],
      ];
      for (const [query, keep] of cases) {
        const expected = rows
          .filter(keep)
          .map((r) => r.id)
          .sort((a, b) => a - b);
        const { status, body } = await get(`${SPEC}/search/?${query}&limit=1000`);
        assert.equal(status, 200, query);
        assert.equal(body.count, expected.length, `count for ${query}`);
        const ids = (await allIds(query)).sort((a, b) => a - b);
        assert.deepEqual(ids, expected, query);
      }
      assert.ok(
        rows.some((r) => r.recipient_province === 'ON') &&
          rows.some((r) => r.is_notable) &&
          rows.some((r) => r.agreement_value_cents > 100_000_000),
      );
      // search wins over q, fiscal_year over year
      const both = await get(`${SPEC}/search/?search=community&q=zzzzzz&fiscal_year=${year}&year=1999-00`);
      assert.equal(both.body.count, rows.filter((r) => matchesText(r, 'community') && r.fiscal_year === year).length);
    });

    it('search: every sort field in both directions (year and province then by value), id breaking ties in the same direction', async () => {
      const compare = (a: string | number | null, b: string | number | null): number => {
        if (a === b) return 0;
        if (a === null) return -1; // a missing end date sorts as the lowest value
        if (b === null) return 1;
        return typeof a === 'number' && typeof b === 'number' ? a - b : compareText(String(a), String(b));
      };
      const value = (r: Row, column: string) => (r as unknown as Record<string, string | number | null>)[column];
      // dense (ON, a third of the rows), sparse (one fiscal year and type) and text filters, so both plans run
      const filters: Array<[string, (r: Row) => boolean]> = [
        ['province=ON', (r) => r.recipient_province === 'ON'],
        [`fiscal_year=${rows[3].fiscal_year}&recipient_type=N`, (r) => r.fiscal_year === rows[3].fiscal_year && r.recipient_type === 'N'],
        ['search=community', (r) => matchesText(r, 'community')],
        ['min_value=50000', (r) => r.agreement_value_cents >= 5_000_000],
      ];
      for (const [filter, keep] of filters) {
        for (const field of SORT_FIELDS) {
          for (const descending of [false, true]) {
            const sort = `${descending ? '-' : ''}${field}`;
            const ids = await allIds(`sort=${sort}&${filter}`, 100);
            const mine = rows.filter(keep);
            assert.equal(ids.length, mine.length, `${sort} ${filter}`);
            const columns: readonly string[] = SORT_ORDERS[field].columns;
            const textual = columns.some((c) =>
              ['recipient_legal_name', 'program_name_en', 'fiscal_year', 'recipient_province'].includes(c),
            );
            if (textual && !textCollationIsCodePoint) {
              assert.deepEqual(
                [...ids].sort((a, b) => a - b),
                mine.map((r) => r.id),
              ); // the collation decides the order
              continue;
            }
            const expected = [...mine].sort((a, b) => {
              let c = 0;
              for (const column of columns) if ((c = compare(value(a, column), value(b, column)))) break;
              c ||= a.id - b.id;
              return descending ? -c : c;
            });
            assert.deepEqual(
              ids,
              expected.map((r) => r.id),
              `${sort} ${filter}`,
            );
          }
        }
      }
      const ends = await get(`${SPEC}/search/?sort=agreement_end_date&limit=5`);
      if (rows.some((r) => r.agreement_end_date === null)) assert.equal(ends.body.results[0].agreement_end_date, null);
    });

    it('search: offset pages partition the results in a stable order; count is all matches on every page', async () => {
      const query = 'province=QC&sort=fiscal_year';
      const whole = await get(`${SPEC}/search/?${query}&limit=1000`);
      const seen: number[] = [];
      for (let offset = 0; offset < whole.body.count; offset += 7) {
        const { body } = await get(`${SPEC}/search/?${query}&limit=7&offset=${offset}`);
        assert.equal(body.count, whole.body.count);
        assert.equal(body.offset, offset);
        assert.equal(body.results.length, Math.min(7, whole.body.count - offset));
        seen.push(...body.results.map((r: { id: number }) => r.id));
      }
      assert.deepEqual(
        seen,
        whole.body.results.map((r: { id: number }) => r.id),
      );
      assert.equal(new Set(seen).size, seen.length);
      const past = await get(`${SPEC}/search/?${query}&offset=${whole.body.count + 5}`);
      assert.deepEqual([past.body.count, past.body.results], [whole.body.count, []]);
    });

    it('search: limit above 1000 is clamped and echoed', async () => {
      const { body } = await get(`${SPEC}/search/?limit=5000`);
      assert.equal(body.limit, 1000);
      assert.equal(body.results.length, 1000);
    });

    it('answers bad parameters with 400 {error} naming the parameter and what is allowed', async () => {
      const table: Array<[string, RegExp]> = [
        ['min_value=abc', /^min_value must be a number$/],
        ['max_value=1e', /^max_value must be a number$/],
        ['min_value=10&max_value=5', /min_value must not be greater than max_value/],
        [
          'sort=amount',
          /^sort must be one of agreement_value, agreement_start_date, agreement_end_date, recipient_legal_name, fiscal_year, recipient_province, program_name_en, id.*got "amount"/,
        ],
        ['sort=--id', /sort must be one of/],
        ['is_major=yes', /^is_major must be true, false, 1 or 0$/],
        ['is_notable=maybe', /^is_notable must be true, false, 1 or 0$/],
        ['limit=0', /^limit must be at least 1$/],
        ['limit=-5', /^limit must be at least 1$/],
        ['limit=ten', /^limit must be an integer$/],
        ['limit=2.5', /^limit must be an integer$/],
        ['offset=-1', /^offset must be at least 0$/],
        ['province=ZZ', /^province must be a province or territory code \(AB, BC, .*got "ZZ"/],
        ['recipient_type=X', /^recipient_type must be one of A, F, G, I, N, O, P, S, got "X"$/],
        ['fiscal_year=2018%2F20', /^fiscal_year must be a fiscal year in the form YYYY-YY/],
        ['year=18-19', /^year must be a fiscal year/],
        [`search=${'x'.repeat(201)}`, /^search must be at most 200 characters long$/],
      ];
      for (const prefix of [SPEC, OLD]) {
        for (const [query, message] of table) {
          const { status, body, headers } = await get(`${prefix}/search/?${query}`);
          assert.equal(status, 400, query);
          assert.match(headers['content-type'] as string, /application\/json/);
          assert.deepEqual(Object.keys(body), ['error'], query);
          assert.match(body.error, message, query);
        }
      }
    });

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

    it('POST /api/calculate/: GET is 405 "POST method required" at both addresses', async () => {
      for (const prefix of [SPEC, OLD]) {
        const res = await get(`${prefix}/calculate/`);
        assert.equal(res.status, 405);
        assert.deepEqual(res.body, { error: 'POST method required' });
        assert.match(String(res.headers.allow), /POST/);
      }
      const text = await app.inject({
        method: 'POST',
        url: `${SPEC}/calculate/`,
        payload: 'annual_income=5',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(text.statusCode, 415);
    });

    it('calculates $75,000 + $25,000 of GST spending: tax, GST, and shares recomputed from the rows', async () => {
      const { status, body } = await post(`${SPEC}/calculate/`, { annual_income: 75000, gst_eligible_spending: 25000 });
      assert.equal(status, 200);
      const c = body.calculation;
      const current = Math.min(Math.max(...rows.map((r) => Number(r.fiscal_year.slice(0, 4)))), LAST_REVENUE_YEAR);
      assert.equal(c.current_year, current);
      assert.equal(c.taxpayer_since_year, 2018);
      // the generated data ends in 2024-25, so the brackets are those of 2024:
      // CRA 2024: 15% × 55,867 + 20.5% × 19,133 − 15% × 15,705 = 9,946.565 → $9,946.57 (calculator tests show the working)
      assert.equal(c.tax_year, 2024);
      assert.equal(c.federal_income_tax_formatted, '$9,946.57');
      assert.equal(c.gst_paid_formatted, '$1,250.00');
      assert.equal(c.total_tax_contribution, Math.round((c.federal_income_tax + 1250) * 100) / 100);
      // grants running in the current year, each spread evenly over its fiscal years in whole cents
      const contributionCents = Math.round(c.total_tax_contribution * 100);
      const runningIn = (year: number) => {
        let cents = 0;
        for (const r of rows) {
          const first = fiscalYearOfDate(r.agreement_start_date);
          const last =
            r.agreement_end_date && r.agreement_end_date >= r.agreement_start_date
              ? Math.min(fiscalYearOfDate(r.agreement_end_date), first + 99)
              : first;
          if (year < first || year > last) continue;
          const n = last - first + 1;
          const abs = Math.abs(r.agreement_value_cents);
          const base = Math.floor(abs / n);
          const part = base + (year - first < abs - base * n ? 1 : 0);
          cents += Math.sign(r.agreement_value_cents) * part;
        }
        return cents;
      };
      const revenue = publishedRevenue(current)!.dollars;
      const expectedShare = (runningIn(current) * contributionCents) / (revenue * 10_000);
      assert.ok(Math.abs(c.grants_portion_of_taxes - expectedShare) <= 1e-9 * Math.max(1, expectedShare));
      assert.equal(c.grants_portion_of_taxes_formatted, formatDollars(expectedShare));
      assert.ok(Math.abs(c.revenue_share_percentage - (contributionCents / 100 / revenue) * 100) < 1e-15);
      assert.equal(body.yearly_breakdown.length, current - 2018 + 1);
      assert.equal(body.yearly_breakdown.at(-1).user_share, c.grants_portion_of_taxes);
      const total = body.yearly_breakdown.reduce((s: number, y: { user_share: number }) => s + y.user_share, 0);
      assert.equal(body.total_grants_share_formatted, formatDollars(total));
      assert.equal(body.grant_shares.length, 10);
      for (let i = 1; i < body.grant_shares.length; i++) assert.ok(body.grant_shares[i - 1].user_share >= body.grant_shares[i].user_share);
      assert.equal(body.future_projections.continuing_only.length, 5);
      assert.equal(typeof body.future_projections.historical_average, 'number');
      assert.equal(body.data_source.kind, 'import');
      const formatted: string[] = [];
      const collect = (v: unknown, key = ''): void => {
        if (Array.isArray(v)) v.forEach((x) => collect(x));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
        else if (key.endsWith('_formatted')) formatted.push(String(v));
      };
      collect(body);
      assert.ok(formatted.length > 50);
      for (const f of formatted) assert.match(f, /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/);
    });

    it('calculates in monthly mode as twelve months, and an income of 0 as no share at all', async () => {
      const monthly = (await post(`${OLD}/calculate/`, { annual_income: 6250, gst_eligible_spending: 1000, input_mode: 'monthly' })).body;
      const annual = (await post(`${SPEC}/calculate/`, { annual_income: 75000, gst_eligible_spending: 12000 })).body;
      assert.equal(monthly.calculation.input_mode, 'monthly');
      assert.equal(monthly.calculation.annual_income, 75000);
      assert.equal(monthly.calculation.gst_paid_formatted, '$600.00');
      delete monthly.calculation.input_mode;
      delete annual.calculation.input_mode;
      assert.deepEqual(monthly, annual);
      const zero = await post(`${SPEC}/calculate/`, { annual_income: 0 });
      assert.equal(zero.status, 200);
      assert.equal(zero.body.calculation.federal_income_tax_formatted, '$0.00');
      assert.equal(zero.body.calculation.total_tax_contribution_formatted, '$0.00');
      assert.equal(zero.body.total_grants_share_formatted, '$0.00');
      assert.ok(zero.body.grant_shares.every((g: { user_share: number }) => g.user_share === 0));
    });

    it('refuses a bad calculator request with 400 naming the parameter', async () => {
      const table: Array<[unknown, RegExp]> = [
        [{ annual_income: -1 }, /^annual_income must be /],
        [{ annual_income: 'abc' }, /^annual_income must be a number$/],
        [{}, /^annual_income is required$/],
        [{ annual_income: 50000, gst_eligible_spending: -5 }, /^gst_eligible_spending must be /],
        [{ annual_income: 50000, input_mode: 'weekly' }, /^input_mode must be one of: annual, monthly$/],
        [{ annual_income: 50000, taxpayer_since_year: 1990 }, /^taxpayer_since_year must be between \d{4} and \d{4}$/],
        [{ annual_income: 50000, taxpayer_since_year: 2019.5 }, /^taxpayer_since_year must be an integer$/],
      ];
      for (const [payload, message] of table) {
        const { status, body } = await post(`${SPEC}/calculate/`, payload);
        assert.equal(status, 400, JSON.stringify(payload));
        assert.match(body.error, message, JSON.stringify(payload));
      }
    });

    it('documents the formulas in OpenAPI and hides the old addresses there', async () => {
      const { body } = await get('/openapi.json');
      assert.ok(body.paths['/api/api/search/']);
      assert.ok(!body.paths['/api/search/']);
      assert.match(body.paths['/api/api/calculate/'].post.description, /federal_income_tax = max\(0/);
      assert.match(body.paths['/api/api/calculate/'].post.description, /grants_portion_of_taxes/);
    });

    it('serves text search from the substring index over the text dictionary, not a table scan', async () => {
      const db = t.db.kysely;
      if (t.kind === 'sqlite') {
        const plan = await sql<{
          detail: string;
        }>`explain query plan select id from ${sql.table(GRANTS_TEXTS_TABLE)} where id in (select rowid from ${sql.table(GRANTS_SEARCH.name)} where ${sql.table(GRANTS_SEARCH.name)} match '"community"')`.execute(
          db,
        );
        assert.ok(
          plan.rows.some((r) => /VIRTUAL TABLE INDEX/.test(r.detail)),
          JSON.stringify(plan.rows),
        );
      } else {
        await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const plan = await sql<{
            'QUERY PLAN': string;
          }>`explain select id from ${sql.table(GRANTS_TEXTS_TABLE)} where (coalesce(text, '')) ilike '%community%'`.execute(trx);
          assert.ok(
            plan.rows.some((r) => r['QUERY PLAN'].includes(GRANTS_SEARCH.name)),
            JSON.stringify(plan.rows),
          );
        });
      }
      // every searched value of every agreement is in the dictionary, under the id the agreement holds
      const expected = await expectedAgreements(file);
      assert.equal(rows.length, expected.size);
      for (const r of rows) {
        const want = expected.get(`${r.owner_org}|${r.reference_number}`)!;
        for (const { column } of SEARCHED_COLUMNS) assert.equal(r[column], want[column], `${r.reference_number} ${column}`);
      }
      for (const { textId } of SEARCHED_COLUMNS) {
        const { rows: missing } = await sql<{
          n: number;
        }>`select count(*) as n from ${sql.table(GRANTS_TABLE)} g left join ${sql.table(GRANTS_TEXTS_TABLE)} x on x.id = g.${sql.raw(textId)} where x.text is null`.execute(
          db,
        );
        assert.equal(Number(missing[0].n), 0, textId);
      }
    });

    it('labels generated demo data as such', async () => {
      const ctx = testContext(grantsService, t.db, { dataDir: dir });
      const [report] = await loadGrantsDemo(ctx, { size: 1500, seed: 3 });
      assert.equal(report.is_demo, true);
      const stats = (await get(`${SPEC}/stats/`)).body;
      assert.equal(stats.data_source.kind, 'demo');
      assert.equal(stats.data_source.is_demo, true);
      assert.match(stats.data_source.description, /generated/i);
      assert.equal((await get(`${SPEC}/recipients/`)).body.data_source.is_demo, true);
      assert.equal((await get(`${SPEC}/comprehensive-stats/`)).body.data_source.kind, 'demo');
      assert.equal((await post(`${SPEC}/calculate/`, { annual_income: 1 })).body.data_source.is_demo, true);
      assert.deepEqual(
        (await listDataVersions(t.db.kysely, 'grants')).map((v) => v.is_demo),
        [true],
      );
    });
  },
  { migrations: grantsService.migrations },
);
