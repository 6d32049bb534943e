// The in-memory search against the SQL search on the same database (SQLite and PostgreSQL): random texts
// (or none), filters, orders and pages give the same count and the same ids; a new import is seen at once.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fc from 'fast-check';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { handCsv, handRow, numberedHandCsv, tempDir, writeGenerated } from '../../../../test/support/grants/files.ts';
import { searchGrantsInSql } from '../../../../test/support/grants/sql-search.ts';
import { DataVersionWatcher } from '../../../core/service.ts';
import { importGrantsCsv } from '../import/importer.ts';
import { MemorySearch } from './memory-search.ts';
import { agreementsWithTexts, textsOf } from '../repository.ts';
import { searchGrants } from './grants-search.ts';
import { SORT_FIELDS } from './query.ts';
import type { SearchFilters, SortField } from './query.ts';
import { grantsService } from '../service.ts';
import type { GrantsTables } from '../tables.ts';

describeEachDatabase(
  'grants in-memory search',
  (t) => {
    let dir: string;
    let titleWords: string[];
    let years: string[];
    let values: number[];
    // the data version re-read by every search (ttl 0): an import is seen at once, as by another process after the server's ttl
    const versions = () => new DataVersionWatcher(t.db, 'grants', 0);
    const db = () => t.db.kysely.withTables<GrantsTables>();

    before(async () => {
      dir = tempDir();
      await importGrantsCsv(t.db, await writeGenerated(dir, 2500, 'memory-search-test'));
      const rows = await agreementsWithTexts(db())
        .select(['g.fiscal_year', 'g.agreement_value_cents', ...textsOf(['agreement_title_en'])])
        .execute();
      titleWords = [...new Set(rows.flatMap((r) => String(r.agreement_title_en).split(/\s+/)).filter((w) => w.length >= 3))].slice(0, 40);
      years = [...new Set(rows.map((r) => String(r.fiscal_year)))];
      values = rows.slice(0, 50).map((r) => Number(r.agreement_value_cents)); // bounds equal to stored values
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('gives the count and the page of the SQL search for random texts, filters, orders and pages', async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const memory = new MemorySearch(db, versions());
      const ordersByDistinctQuery = new MemorySearch(db, versions(), { maxValuesSortedByList: 0 });
      // keeps the agreements of every recent string: a repeated string starts from them instead of the postings
      const keepsAgreements = new MemorySearch(db, versions(), { minPostingsKept: 0 });
      let repeated = 0;
      const searched = new Set<string>();
      let withMatches = 0;
      let deepPages = 0;
      const text = fc.oneof(
        fc.constantFrom(...titleWords),
        fc.constantFrom('community', 'Research', 'program', 'SOCIETY', 'zzzz', 'an', 'é', 'e-', 'montreal', 'Montréal', 'santé', 'SANTE'),
        fc.constantFrom(...titleWords).map((w) => w.slice(1, 5)),
      );
      // each filter is absent three times in four, so that many runs have pages of matches
      const sometimes = <T>(arb: fc.Arbitrary<T>) =>
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
      const filters = fc.record({
        text: fc.oneof({ arbitrary: text, weight: 3 }, { arbitrary: fc.constant(undefined), weight: 1 }),
        province: sometimes(fc.constantFrom('ON', 'QC', 'BC', 'NU', 'ZZ')),
        fiscalYear: sometimes(fc.constantFrom(...years, '1990-91')),
        recipientType: sometimes(fc.constantFrom('N', 'F', 'S', 'A')),
        minCents: sometimes(fc.oneof(fc.integer({ min: 0, max: 20_000_000 }), fc.constantFrom(...values))),
        maxCents: sometimes(fc.oneof(fc.integer({ min: 1_000_000, max: 400_000_000 }), fc.constantFrom(...values))),
        isMajor: sometimes(fc.boolean()),
        isNotable: sometimes(fc.boolean()),
      });
      await fc.assert(
        fc.asyncProperty(
          filters,
          fc.constantFrom(...SORT_FIELDS),
          fc.boolean(),
          fc.integer({ min: 1, max: 60 }),
          fc.integer({ min: 0, max: 80 }),
          async (f: SearchFilters, field: SortField, descending: boolean, limit: number, offset: number) => {
            const order = { field, descending };
            const page = { limit, offset };
            const bySql = await searchGrantsInSql(db, f, order, page);
            const inMemory = await searchGrants(db, memory, f, order, page);
            assert.equal(inMemory.count, bySql.count);
            assert.deepEqual(
              inMemory.rows.map((r) => r.id),
              bySql.rows.map((r) => r.id),
            );
            assert.deepEqual(inMemory.rows[0], bySql.rows[0]);
            const other = await searchGrants(db, ordersByDistinctQuery, f, order, page);
            assert.deepEqual(
              other.rows.map((r) => r.id),
              inMemory.rows.map((r) => r.id),
              'codes ordered by a DISTINCT query',
            );
            if (f.text !== undefined && searched.has(f.text)) repeated++;
            if (f.text !== undefined) searched.add(f.text);
            const kept = await searchGrants(db, keepsAgreements, f, order, page);
            assert.equal(kept.count, inMemory.count, 'agreements of a recent string');
            assert.deepEqual(
              kept.rows.map((r) => r.id),
              inMemory.rows.map((r) => r.id),
              'agreements of a recent string',
            );
            if (bySql.rows.length > 1) withMatches++;
            if (bySql.rows.length > 0 && offset > 0) deepPages++;
          },
        ),
        { numRuns: 200, seed: 20261121 },
      );
      assert.ok(memory.bytes > 0);
      // bounds equal to a matching agreement's value keep it (both bounds are inclusive)
      const word = titleWords[0];
      const order = { field: 'agreement_value' as const, descending: false };
      const some = (await searchGrants(db, memory, { text: word }, order, { limit: 1, offset: 0 })).rows[0];
      const cents = Math.round(some.agreement_value * 100);
      for (const f of [{ minCents: cents }, { maxCents: cents }, { minCents: cents, maxCents: cents }]) {
        const inMemory = await searchGrants(db, memory, { text: word, ...f }, order, { limit: 1000, offset: 0 });
        const bySql = await searchGrantsInSql(db, { text: word, ...f }, order, { limit: 1000, offset: 0 });
        assert.ok(
          inMemory.rows.some((r) => r.id === some.id),
          JSON.stringify(f),
        );
        assert.deepEqual(
          inMemory.rows.map((r) => r.id),
          bySql.rows.map((r) => r.id),
        );
      }
      assert.ok(withMatches >= 30 && deepPages >= 10, `runs with pages of matches: ${withMatches}, beyond the first row: ${deepPages}`);
      assert.ok(repeated >= 50, `searches of a string searched before: ${repeated}`);
    });

    it('reloads after another import changed the data', async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const memory = new MemorySearch(db, versions());
      const order = { field: 'agreement_value' as const, descending: true };
      const page = { limit: 10, offset: 0 };
      const before = await searchGrants(db, memory, { text: 'Quokka' }, order, page);
      assert.equal(before.count, 0);
      const file = `${dir}/small.csv`;
      fs.writeFileSync(
        file,
        handCsv([
          handRow({ ref_number: '001-2020-2021-Q1-00001', agreement_title_en: 'Quokka habitat study' }),
          handRow({ ref_number: '001-2020-2021-Q1-00002', recipient_legal_name: 'Quokka Society', agreement_value: '5.00' }),
          handRow({ ref_number: '001-2020-2021-Q1-00003' }),
        ]),
      );
      await importGrantsCsv(t.db, file, { guard: { allowShrink: true } }); // three agreements replace the file's
      const after = await searchGrants(db, memory, { text: 'quokka' }, order, page);
      assert.equal(after.count, 2);
      assert.deepEqual(
        after.rows.map((r) => r.agreement_value),
        [1000, 5],
      );
    });

    it('folds accents and case, an exact accented match first, across pages', async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const memory = new MemorySearch(db, versions());
      const file = `${dir}/accents.csv`;
      fs.writeFileSync(
        file,
        numberedHandCsv(
          [
            { agreement_title_en: 'Youth centre in Montréal', agreement_value: '10.00' },
            { agreement_title_en: 'Montreal harbour works', agreement_value: '5.00' },
            { recipient_legal_name: 'MONTRÉAL Arts Council', agreement_value: '20.00' },
            { description_en: 'Programme de santé publique', agreement_value: '7.00' },
            { agreement_title_en: 'Sante clinic', agreement_value: '3.00' },
            { agreement_title_en: 'Ottawa', agreement_value: '30.00' },
          ],
          '001-2020-2021-Q1-0010',
        ),
      );
      await importGrantsCsv(t.db, file, { guard: { allowShrink: true } });
      const order = { field: 'agreement_value' as const, descending: true };
      const values = async (text: string, page = { limit: 10, offset: 0 }) => {
        const found = await searchGrants(db, memory, { text }, order, page);
        const bySql = await searchGrantsInSql(db, { text }, order, page);
        assert.deepEqual(
          found.rows.map((r) => r.id),
          bySql.rows.map((r) => r.id),
          text,
        );
        return { count: found.count, values: found.rows.map((r) => r.agreement_value) };
      };
      // the accented form first (by value within each rank), then the other
      assert.deepEqual(await values('montreal'), { count: 3, values: [5, 20, 10] });
      assert.deepEqual(await values('MONTRÉAL'), { count: 3, values: [20, 10, 5] });
      assert.deepEqual(await values('montréal', { limit: 1, offset: 1 }), { count: 3, values: [10] });
      assert.deepEqual(await values('montréal', { limit: 2, offset: 1 }), { count: 3, values: [10, 5] });
      assert.deepEqual(await values('montreal', { limit: 5, offset: 2 }), { count: 3, values: [10] });
      assert.deepEqual(await values('santé'), { count: 2, values: [7, 3] });
      assert.deepEqual(await values('sante'), { count: 2, values: [3, 7] });
      assert.deepEqual(await values('é'), { count: 6, values: [20, 10, 7, 30, 5, 3] }); // "e" folded, in every row
    });

    it('searches the French texts in French (read from the first such search on), by their words’ stems too', async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const memory = new MemorySearch(db, versions());
      const file = `${dir}/french.csv`;
      const row = (n: number, cells: Record<string, string>) => handRow({ ref_number: `001-2020-2021-Q1-0020${n}`, ...cells });
      fs.writeFileSync(
        file,
        handCsv([
          row(1, {
            agreement_title_en: 'Public health grants',
            agreement_title_fr: 'Subventions pour la santé publique',
            agreement_value: '10.00',
          }),
          row(2, { agreement_title_en: 'Mental health', agreement_title_fr: 'Sante mentale', agreement_value: '20.00' }),
          row(3, { agreement_title_en: 'Community newspaper', agreement_title_fr: 'Journal communautaire', agreement_value: '30.00' }),
          row(4, { agreement_title_en: 'Research grant', agreement_title_fr: 'Subvention de recherche', agreement_value: '40.00' }),
          row(5, { agreement_title_en: 'Health of the sea', agreement_value: '50.00' }),
        ]),
      );
      await importGrantsCsv(t.db, file, { guard: { allowShrink: true } });
      const order = { field: 'agreement_value' as const, descending: true };
      const page = { limit: 10, offset: 0 };
      const values = async (text: string, language: 'en' | 'fr' | 'both') => {
        const found = await searchGrants(db, memory, { text, language }, order, page);
        assert.equal(found.count, found.rows.length);
        return found.rows.map((r) => r.agreement_value);
      };
      assert.deepEqual(await values('santé', 'en'), [], 'no English text holds it');
      assert.equal(memory.holdsFrench, false, 'English searches leave the French texts unread');
      // the accented form first, then the folded one
      assert.deepEqual(await values('santé', 'fr'), [10, 20], 'answered by the database while the French texts load');
      await memory.loadFrench();
      assert.equal(memory.holdsFrench, true);
      assert.deepEqual(await values('santé', 'fr'), [10, 20]);
      assert.deepEqual(await values('sante', 'both'), [20, 10]);
      assert.deepEqual(await values('SANTÉ', 'both'), [10, 20]);
      // stems: plural and singular, "aux" and "al"
      assert.deepEqual(await values('subventions', 'fr'), [10, 40], 'the text holding the string first, then the one holding its stem');
      assert.deepEqual(await values('subvention', 'fr'), [40, 10]);
      assert.deepEqual(await values('journaux', 'fr'), [30]);
      assert.deepEqual(await values('journaux communautaires', 'fr'), [30]);
      assert.deepEqual(await values('communautaires journaux', 'fr'), [], 'stemmed words in the order of the string');
      assert.deepEqual(await values('subventions', 'en'), []);
      // English texts are searched in French too, unstemmed
      assert.deepEqual(await values('health', 'fr'), [50, 20, 10]);
      assert.deepEqual(await values('healths', 'fr'), []);
    });
  },
  { migrations: grantsService.migrations },
);
