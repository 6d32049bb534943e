// A search in French while the French texts load: the database answers (french-in-database.ts) with the same count
// and the same page as the in-memory index gives once loaded, for random French and English strings (whole words,
// plurals that only the stems find, accented and folded forms, pieces of words, several words), filters, orders and
// pages, on SQLite and PostgreSQL.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import fc from 'fast-check';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { tempDir, writeGenerated } from '../../../../test/support/grants/files.ts';
import { DataVersionWatcher } from '../../../core/service.ts';
import { importGrantsCsv } from '../import/importer.ts';
import { agreementsWithTexts, textsOf } from '../repository.ts';
import { grantsService } from '../service.ts';
import type { GrantsTables } from '../tables.ts';
import { MemorySearch } from './memory-search.ts';
import { SORT_FIELDS } from './query.ts';
import type { SearchFilters, SortField } from './query.ts';

describeEachDatabase(
  'grants search in French while the French texts load',
  (t) => {
    let dir: string;
    let frenchWords: string[];
    let years: string[];
    const versions = () => new DataVersionWatcher(t.db, 'grants', 0);
    const db = () => t.db.kysely.withTables<GrantsTables>();

    before(async () => {
      dir = tempDir();
      await importGrantsCsv(t.db, await writeGenerated(dir, 1500, 'french-in-database-test'));
      const rows = await agreementsWithTexts(db())
        .select(['g.fiscal_year', ...textsOf(['agreement_title_fr', 'program_name_fr', 'recipient_legal_name_fr'])])
        .execute();
      const texts = rows.flatMap((r) => [r.agreement_title_fr, r.program_name_fr, r.recipient_legal_name_fr]);
      frenchWords = [...new Set(texts.flatMap((x) => x.split(/[\s'’,.()]+/)).filter((w) => w.length >= 4))].slice(0, 60);
      years = [...new Set(rows.map((r) => r.fiscal_year))];
      assert.ok(
        frenchWords.some((w) => /[éèêàç]/.test(w)),
        'the generated French texts have accented words',
      );
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('answers the first French search from the database, then from memory once loaded, alike', async () => {
      const memory = new MemorySearch(db(), versions());
      const filters: SearchFilters = { text: 'santé', language: 'fr' };
      const order = { field: 'agreement_value' as const, descending: true };
      const page = { limit: 50, offset: 0 };
      const during = await memory.search(filters, order, page);
      assert.equal(during.frenchTexts, 'database', 'the first French search does not wait for the French texts');
      assert.ok(during.count > 0);
      await memory.loadFrench();
      assert.equal(memory.holdsFrench, true, 'the French texts were read in the background');
      const loaded = await memory.search(filters, order, page);
      assert.equal(loaded.frenchTexts, 'memory');
      assert.deepEqual({ count: loaded.count, ids: loaded.ids }, { count: during.count, ids: during.ids });
      const english = await memory.search({ text: 'santé', language: 'en' }, order, page);
      assert.equal(english.frenchTexts, undefined, 'an English search does not search the French texts');
    });

    it('gives the in-memory count and page for random strings, filters, orders and pages', async () => {
      const database = new MemorySearch(db(), versions(), { readsFrench: false });
      const memory = new MemorySearch(db(), versions());
      await memory.loadFrench();
      // every string's sets kept (its matches', its exact texts'), so that a repeated search answers from them
      const kept = new MemorySearch(db(), versions(), { minPostingsKept: 0 });
      await kept.loadFrench();
      const word = fc.constantFrom(...frenchWords);
      const text = fc.oneof(
        word,
        word.map((w) => `${w}s`), // a plural: found by its stem
        word.map((w) =>
          w
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .toUpperCase(),
        ), // folded, upper case
        word.map((w) => w.slice(1, 5)),
        fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
        fc.constantFrom('santé', 'sante', 'subventions', 'journaux', 'de la', 'recherche', 'health', 'é', 'zzzz', 'l’'),
      );
      const sometimes = <T>(arb: fc.Arbitrary<T>) =>
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
      let withMatches = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            text,
            language: fc.constantFrom('fr' as const, 'both' as const),
            province: sometimes(fc.constantFrom('ON', 'QC')),
            fiscalYear: sometimes(fc.constantFrom(...years)),
            isNotable: sometimes(fc.boolean()),
          }),
          fc.constantFrom(...SORT_FIELDS),
          fc.boolean(),
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 0, max: 60 }),
          async (f: SearchFilters, field: SortField, descending: boolean, limit: number, offset: number) => {
            const order = { field, descending };
            const page = { limit, offset };
            const fromDatabase = await database.search(f, order, page);
            const fromMemory = await memory.search(f, order, page);
            for (let k = 0; k < 2; k++) {
              const fromKept = await kept.search(f, order, page);
              assert.deepEqual(
                { count: fromKept.count, ids: fromKept.ids },
                { count: fromMemory.count, ids: fromMemory.ids },
                `with the sets kept (search ${k + 1}): ${JSON.stringify({ f, order, page })}`,
              );
            }
            assert.equal(fromDatabase.frenchTexts, 'database');
            assert.equal(fromMemory.frenchTexts, 'memory');
            assert.deepEqual(
              { count: fromDatabase.count, ids: fromDatabase.ids },
              { count: fromMemory.count, ids: fromMemory.ids },
              JSON.stringify({ f, order, page }),
            );
            if (fromMemory.count > 0) withMatches++;
          },
        ),
        { numRuns: 120, seed: 34 },
      );
      assert.ok(withMatches >= 40, `${withMatches} of the searches had matches`);
      assert.equal(database.holdsFrench, false, 'readsFrench: false never reads the French texts');
    });
  },
  { migrations: grantsService.migrations },
);
