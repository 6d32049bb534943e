// GET /api/search/ on SQLite and PostgreSQL, over a generated file of a few thousand rows: every parameter
// against an independent filter of the stored rows, every sort field both ways, paging, the text index; then
// the table of 400s.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { sql } from 'kysely';
import { compareText, expectedAgreements } from '../../../../test/support/grants/files.ts';
import { OLD, SPEC, grantsHttp, matchesText } from '../../../../test/support/grants/http.ts';
import type { Row } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';
import { SORT_FIELDS, SORT_ORDERS } from '../search/query.ts';
import type { SortColumn } from '../search/query.ts';
import { GRANTS_SEARCH, GRANTS_TABLE, GRANTS_TEXTS_TABLE, SEARCHED_COLUMNS } from '../tables.ts';

describeEachDatabase(
  'grants search route',
  (t) => {
    const h = grantsHttp(t);
    const { get, allIds } = h;

    describe('answers', () => {
      it('search: defaults (limit 100, -agreement_value, count of all), full grant records', async () => {
        const { body } = await get(`${SPEC}/search/`);
        assert.equal(body.count, h.rows.length);
        assert.equal(body.limit, 100);
        assert.equal(body.offset, 0);
        assert.equal(body.results.length, 100);
        const expected = [...h.rows].sort((a, b) => b.agreement_value_cents - a.agreement_value_cents || b.id - a.id).slice(0, 100);
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
        const someTitleWord = h.rows[5].agreement_title_en.split(' ').slice(-1)[0].slice(0, 6);
        const year = h.rows[7].fiscal_year;
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
          // either apostrophe finds both (the generated texts write ’)
          [`search=${encodeURIComponent("seniors' day")}`, (r) => matchesText(r, "seniors' day") || matchesText(r, 'seniors’ day')],
          [`search=${encodeURIComponent('SENIORS’ DAY')}`, (r) => matchesText(r, "seniors' day") || matchesText(r, 'seniors’ day')],
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
          const expected = h.rows
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
          h.rows.some((r) => r.recipient_province === 'ON') &&
            h.rows.some((r) => r.is_notable) &&
            h.rows.some((r) => r.agreement_value_cents > 100_000_000),
        );
        // search wins over q, fiscal_year over year
        const both = await get(`${SPEC}/search/?search=community&q=zzzzzz&fiscal_year=${year}&year=1999-00`);
        assert.equal(both.body.count, h.rows.filter((r) => matchesText(r, 'community') && r.fiscal_year === year).length);
      });
      it('search: every sort field in both directions (year and province then by value), id breaking ties in the same direction', async () => {
        const compare = (a: string | number | null, b: string | number | null): number => {
          if (a === b) return 0;
          if (a === null) return -1; // a missing end date sorts as the lowest value
          if (b === null) return 1;
          return typeof a === 'number' && typeof b === 'number' ? a - b : compareText(String(a), String(b));
        };
        const value = (r: Row, column: SortColumn) => r[column];
        // dense (ON, a third of the rows), sparse (one fiscal year and type) and text filters, so both plans run
        const filters: Array<[string, (r: Row) => boolean]> = [
          ['province=ON', (r) => r.recipient_province === 'ON'],
          [
            `fiscal_year=${h.rows[3].fiscal_year}&recipient_type=N`,
            (r) => r.fiscal_year === h.rows[3].fiscal_year && r.recipient_type === 'N',
          ],
          ['search=community', (r) => matchesText(r, 'community')],
          ['min_value=50000', (r) => r.agreement_value_cents >= 5_000_000],
        ];
        for (const [filter, keep] of filters) {
          for (const field of SORT_FIELDS) {
            for (const descending of [false, true]) {
              const sort = `${descending ? '-' : ''}${field}`;
              const ids = await allIds(`sort=${sort}&${filter}`, 100);
              const mine = h.rows.filter(keep);
              assert.equal(ids.length, mine.length, `${sort} ${filter}`);
              const columns: readonly SortColumn[] = SORT_ORDERS[field].columns;
              const textual = columns.some((c) =>
                ['recipient_legal_name', 'program_name_en', 'fiscal_year', 'recipient_province'].includes(c),
              );
              if (textual && !h.textCollationIsCodePoint) {
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
        if (h.rows.some((r) => r.agreement_end_date === null)) assert.equal(ends.body.results[0].agreement_end_date, null);
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
            }>`explain select id from ${sql.table(GRANTS_TEXTS_TABLE)} where pdi_fold_accents(coalesce(text, '')) ilike '%community%'`.execute(
              trx,
            );
            assert.ok(
              plan.rows.some((r) => r['QUERY PLAN'].includes(GRANTS_SEARCH.name)),
              JSON.stringify(plan.rows),
            );
          });
        }
        // every searched value of every agreement is in the dictionary, under the id the agreement holds
        const expected = await expectedAgreements(h.file);
        assert.equal(h.rows.length, expected.size);
        for (const r of h.rows) {
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
    });

    describe('refuses', () => {
      it('answers bad parameters with 400 {error} naming the parameter and what is allowed', async () => {
        const table: Array<[string, RegExp]> = [
          ['min_value=abc', /^min_value must be a number$/],
          ['max_value=1e', /^max_value must be a number$/],
          ['min_value=10&max_value=5', /min_value must not be greater than max_value/],
          [
            'sort=amount',
            /^sort must be one of agreement_value, agreement_start_date, agreement_end_date, recipient_legal_name, fiscal_year, recipient_province, program_name_en, id, each optionally prefixed with - for descending$/,
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
    });
  },
  { migrations: grantsService.migrations },
);
