// The in-memory search where a coded column holds more distinct values than 16 bits count: 70,000 agreements with
// as many start dates and end dates (one a day from 1900), so their codes turn 32-bit while loading (memory-search.ts,
// `code`) and are ordered by a DISTINCT query. Sorts by those dates, with and without filters and a text, give the
// SQL search's count and page at the start, middle and end, on SQLite and PostgreSQL.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { handCsv, handRow, tempDir } from '../../../../test/support/grants/files.ts';
import { searchGrantsInSql } from '../../../../test/support/grants/sql-search.ts';
import { DataVersionWatcher } from '../../../core/service.ts';
import { importGrantsCsv } from '../import/importer.ts';
import { MemorySearch } from './memory-search.ts';
import { searchGrants } from './grants-search.ts';
import type { SearchFilters, SortField } from './query.ts';
import { grantsService } from '../service.ts';
import type { GrantsTables } from '../tables.ts';

const AGREEMENTS = 70_000; // > 65,536 distinct dates in each date column
const DAY_MS = 86_400_000;
const isoDay = (k: number) => new Date(Date.UTC(1900, 0, 1) + k * DAY_MS).toISOString().slice(0, 10);

describeEachDatabase(
  'grants in-memory search, 32-bit codes',
  (t) => {
    let dir: string;

    before(async () => {
      dir = tempDir();
      const provinces = ['ON', 'QC', 'BC', 'AB', 'NS'];
      const rows = Array.from({ length: AGREEMENTS }, (_, k) =>
        handRow({
          ref_number: `W-${k}`,
          recipient_province: provinces[k % provinces.length],
          agreement_title_en: k % 7 === 0 ? `Wetland survey ${k % 100}` : `Test agreement ${k % 50}`,
          // values repeat (ties broken by id); dates run one a day, the end dates in another order
          agreement_value: `${1000 + (k % 977)}.00`,
          agreement_start_date: isoDay(k),
          agreement_end_date: isoDay(((k * 7919) % AGREEMENTS) + 365),
        }),
      );
      const file = path.join(dir, 'wide.csv');
      fs.writeFileSync(file, handCsv(rows));
      const report = await importGrantsCsv(t.db, file);
      assert.equal(report.inserted, AGREEMENTS);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('orders and pages by start and end date over 70,000 distinct dates as the SQL search does', async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const memory = new MemorySearch(db, new DataVersionWatcher(t.db, 'grants', 0));
      const cases: Array<{ filters: SearchFilters; field: SortField }> = [];
      for (const field of ['agreement_start_date', 'agreement_end_date'] as const) {
        for (const filters of [{}, { province: 'QC' }, { text: 'wetland' }, { text: 'wetland', province: 'BC', minCents: 150_000 }])
          cases.push({ filters, field });
      }
      let pagesWithRows = 0;
      for (const { filters, field } of cases) {
        for (const descending of [false, true]) {
          const order = { field, descending };
          const first = await searchGrantsInSql(db, filters, order, { limit: 1, offset: 0 });
          for (const offset of [0, Math.floor(first.count / 2), Math.max(0, first.count - 5)]) {
            const page = { limit: 20, offset };
            const bySql = await searchGrantsInSql(db, filters, order, page);
            const inMemory = await searchGrants(db, memory, filters, order, page);
            const what = `${JSON.stringify(filters)} by ${field} ${descending ? 'desc' : 'asc'} from ${offset}`;
            assert.equal(inMemory.count, bySql.count, what);
            assert.deepEqual(
              inMemory.rows.map((r) => r.id),
              bySql.rows.map((r) => r.id),
              what,
            );
            if (bySql.rows.length > 0) pagesWithRows++;
          }
        }
      }
      assert.equal(pagesWithRows, cases.length * 2 * 3);
      // the first and last start dates are the file's
      const byStart = { field: 'agreement_start_date' as const, descending: false };
      const firstRow = (await searchGrants(db, memory, {}, byStart, { limit: 1, offset: 0 })).rows[0];
      const lastRow = (await searchGrants(db, memory, {}, byStart, { limit: 1, offset: AGREEMENTS - 1 })).rows[0];
      assert.deepEqual([firstRow.agreement_start_date, lastRow.agreement_start_date], [isoDay(0), isoDay(AGREEMENTS - 1)]);
    });
  },
  { migrations: grantsService.migrations },
);
