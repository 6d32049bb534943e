// The grants importer on SQLite and PostgreSQL: amendments resolved once at the latest value, idempotent
// re-imports with stable ids, a newer file's changes counted, atomic failure (the old data stays served),
// header errors naming the column, and the stored aggregates matching an independent reading of the file.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import Papa from 'papaparse';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { expectedAgreements, handCsv, handRow, tempDir, writeGenerated } from '../../../../test/support/grants/files.ts';
import { searchGrantsInSql } from '../../../../test/support/grants/sql-search.ts';
import { getAggregate, listDataVersions } from '../../../core/db/datasets.ts';
import type { GrantsComprehensiveStats, GrantsStats } from '../aggregates.ts';
import { agreementsWithTexts, textsOf } from '../repository.ts';
import { grantsService } from '../service.ts';
import { SCHEMA_2025_COLUMNS } from '../source/index.ts';
import { GRANTS_SEARCH, GRANTS_TABLE, GRANTS_TEXTS_TABLE } from '../tables.ts';
import type { GrantsTables } from '../tables.ts';
import { SUPERSEDED_REASON, importGrantsCsv } from './importer.ts';

describeEachDatabase(
  'grants importer',
  (t) => {
    let dir: string;
    let generated: string;
    before(async () => {
      dir = tempDir();
      generated = await writeGenerated(dir, 2500, 'import-test');
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const db = () => t.db.kysely.withTables<GrantsTables>();
    const write = (name: string, text: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const stored = () =>
      db()
        .selectFrom('grants_agreements')
        .select(['id', 'owner_org', 'reference_number', 'amendment_number', 'agreement_value_cents', 'content_hash'])
        .orderBy('id')
        .execute();
    const stats = async () => (await getAggregate<GrantsStats>(db(), 'grants', 'stats'))!.value;

    it('keeps one grant per agreement at its highest amendment, whatever the row order, and counts it once', async () => {
      const file = write(
        'amended.csv',
        handCsv([
          handRow({ ref_number: 'A-1', amendment_number: '0', agreement_value: '1000.00' }),
          handRow({ ref_number: 'A-1', amendment_number: '2', amendment_date: '2021-03-01', agreement_value: '3,500.25' }),
          handRow({ ref_number: 'A-1', amendment_number: '1', amendment_date: '2021-01-01', agreement_value: '2000.00' }),
          // the same reference at another department is another agreement
          handRow({ ref_number: 'A-1', owner_org: 'other-org', agreement_value: '10.00' }),
          // equal amendment numbers: the later amendment date wins, then the later row
          handRow({ ref_number: 'B-1', amendment_number: '1', amendment_date: '2022-05-01', agreement_value: '500.00' }),
          handRow({ ref_number: 'B-1', amendment_number: '1', amendment_date: '2022-04-01', agreement_value: '400.00' }),
          handRow({ ref_number: 'C-1', amendment_number: '3', agreement_value: '70.00' }),
          handRow({ ref_number: 'C-1', amendment_number: '3', agreement_value: '80.00' }),
          handRow({ ref_number: 'D-1', agreement_value: '' }),
        ]),
      );
      const report = await importGrantsCsv(t.db, file, { guard: { allowSkips: true } }); // one unreadable row of nine
      assert.equal(report.rows_read, 9);
      assert.equal(report.inserted, 4);
      assert.deepEqual(report.skip_reasons, { 'agreement_value is empty': 1, [SUPERSEDED_REASON]: 4 });
      assert.equal(report.unreadable, 1, 'merged amendments are excluded rows, not unreadable ones');
      assert.equal(report.rows_read, report.inserted + report.updated + report.unchanged + report.skipped);
      const rows = await stored();
      const value = (org: string, ref: string) => rows.find((r) => r.owner_org === org && r.reference_number === ref);
      assert.equal(rows.length, 4);
      assert.equal(Number(value('test-org', 'A-1')!.agreement_value_cents), 350_025);
      assert.equal(Number(value('test-org', 'A-1')!.amendment_number), 2);
      assert.equal(Number(value('other-org', 'A-1')!.agreement_value_cents), 1_000);
      assert.equal(Number(value('test-org', 'B-1')!.agreement_value_cents), 50_000);
      assert.equal(Number(value('test-org', 'C-1')!.agreement_value_cents), 8_000);
      const s = await stats();
      assert.equal(s.total_grants, 4);
      assert.equal(s.total_value, 3500.25 + 10 + 500 + 80, 'the amended agreement counts once, at its latest value');
      const search = await searchGrantsInSql(
        db(),
        { text: 'test agreement' },
        { field: 'agreement_value', descending: true },
        { limit: 10, offset: 0 },
      );
      assert.equal(search.count, 4, 'the substring index was rebuilt with the data');
    });

    it('resolves a generated file exactly as the in-memory resolver does, aggregates included', async () => {
      const report = await importGrantsCsv(t.db, generated, { guard: { allowShrink: true } }); // replaces the four agreements
      const expected = await expectedAgreements(generated);
      assert.equal(report.inserted, expected.size);
      assert.equal(report.deleted, 4, 'the agreements of the previous file are gone');
      const rows = await stored();
      assert.equal(rows.length, expected.size);
      let totalCents = 0;
      for (const r of rows) {
        const e = expected.get(`${r.owner_org}|${r.reference_number}`);
        assert.ok(e, `${r.owner_org} ${r.reference_number} is in the file`);
        assert.equal(Number(r.agreement_value_cents), e.agreement_value_cents);
        assert.equal(Number(r.amendment_number), e.amendment_number);
        totalCents += e.agreement_value_cents;
      }
      const s = await stats();
      assert.equal(s.total_grants, expected.size);
      assert.equal(Math.round(s.total_value * 100), totalCents);
      assert.equal(s.data_source.kind, 'import');
      assert.equal(s.data_source.is_demo, false);
      const provinces = new Map<string, number>();
      for (const e of expected.values()) provinces.set(e.recipient_province, (provinces.get(e.recipient_province) ?? 0) + 1);
      assert.deepEqual(new Map(s.by_province.map((p) => [p.recipient_province, p.count])), provinces);
      const comprehensive = (await getAggregate<GrantsComprehensiveStats>(db(), 'grants', 'comprehensive'))!.value;
      const values = [...expected.values()].map((e) => e.agreement_value_cents).sort((a, b) => a - b);
      const mid = values.length >> 1;
      const median = values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
      assert.equal(comprehensive.basic_stats.median_value, median / 100);
      assert.equal(comprehensive.basic_stats.minimum_value, values[0] / 100);
      assert.equal(comprehensive.basic_stats.maximum_value, values[values.length - 1] / 100);
      assert.equal(
        comprehensive.value_distribution.reduce((n, r) => n + r.count, 0),
        expected.size,
      );
    });

    it('changes nothing when the same file is imported again: same ids, everything unchanged', async () => {
      const before = await stored();
      const report = await importGrantsCsv(t.db, generated);
      assert.equal(report.inserted + report.updated + report.deleted, 0, JSON.stringify(report));
      assert.equal(report.unchanged, before.length);
      assert.deepEqual(await stored(), before);
    });

    it('counts what a newer file inserts, updates and deletes, and keeps the ids of the agreements it keeps', async () => {
      const before = await stored();
      // Rewrite the file: drop every row of one agreement, amend another to a new value, add one agreement.
      const parsed = Papa.parse<string[]>(fs.readFileSync(generated, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
      const header = parsed[0];
      const column = (name: string) => header.indexOf(name);
      const victim = before[10];
      const raised = before[20];
      const kept = parsed
        .slice(1)
        .filter((row) => !(row[column('ref_number')] === victim.reference_number && row[column('owner_org')] === victim.owner_org));
      const extra = [
        handRow({ ref_number: 'NEW-1', owner_org: 'new-org', agreement_value: '123.45' }),
        handRow({ ref_number: raised.reference_number, owner_org: raised.owner_org, amendment_number: '99', agreement_value: '999999.99' }),
      ].map((row) => header.map((c) => row[c] ?? ''));
      const file = write('newer.csv', Papa.unparse([header, ...kept, ...extra], { newline: '\r\n' }));
      const report = await importGrantsCsv(t.db, file);
      assert.equal(report.deleted, 1);
      assert.equal(report.inserted, 1);
      assert.equal(report.updated, 1);
      assert.equal(report.unchanged, before.length - 2);
      const after = await stored();
      const afterById = new Map(after.map((r) => [Number(r.id), r]));
      for (const r of before) {
        if (r.id === victim.id) assert.ok(!afterById.has(Number(r.id)));
        else assert.equal(afterById.get(Number(r.id))?.reference_number, r.reference_number, 'an agreement keeps its id');
      }
      assert.equal(Number(afterById.get(Number(raised.id))!.agreement_value_cents), 99_999_999);
      await importGrantsCsv(t.db, generated); // back to the generated file for the next tests
    });

    if (t.kind === 'sqlite')
      it('on SQLite writes with a rollback journal when alone, through the WAL while another connection reads, and leaves WAL on', async () => {
        const journal = async () => (await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(db())).rows[0].journal_mode;
        assert.equal(await journal(), 'wal');
        const file = t.url.replace(/^sqlite:/, '');
        const reader = new Database(file, { readonly: true });
        try {
          reader.prepare(`select count(*) as n from ${GRANTS_TABLE}`).get();
          const report = await importGrantsCsv(t.db, generated);
          assert.ok(report.rows_read > 0);
          const timeout = (await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(db())).rows[0].timeout;
          assert.equal(timeout, 10_000, 'the busy timeout, set to 0 for the refused switch, is back');
          assert.equal(await journal(), 'wal', 'the import could not leave WAL with a reader on the file');
          const stored = await db()
            .selectFrom('grants_agreements')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          assert.equal((reader.prepare(`select count(*) as n from ${GRANTS_TABLE}`).get() as { n: number }).n, Number(stored.n));
        } finally {
          reader.close();
        }
        assert.equal(await journal(), 'wal');
        await importGrantsCsv(t.db, generated);
        assert.equal(await journal(), 'wal', 'back to WAL after an import alone');
      });

    it('leaves the old data served when reading fails midway', async () => {
      const beforeRows = await stored();
      const beforeStats = await stats();
      const beforeVersions = await listDataVersions(db(), 'grants');
      const search = () =>
        searchGrantsInSql(db(), { text: 'community' }, { field: 'agreement_value', descending: true }, { limit: 1000, offset: 0 });
      const beforeSearch = await search();
      assert.ok(beforeSearch.count > 0);
      const bytes = fs.readFileSync(generated);
      async function* failing() {
        yield bytes.subarray(0, bytes.length >> 1); // half the rows reach the database, then the disk fails
        throw new Error('simulated read failure');
      }
      await assert.rejects(importGrantsCsv(t.db, Readable.from(failing()), { sourceLabel: 'broken stream' }), /simulated read failure/);
      assert.deepEqual(await stored(), beforeRows);
      assert.deepEqual(await stats(), beforeStats);
      assert.deepEqual(await listDataVersions(db(), 'grants'), beforeVersions);
      assert.deepEqual(await search(), beforeSearch, 'the substring index is intact');
      const failed = await db()
        .selectFrom('import_runs')
        .select(['status', 'error'])
        .where('source', '=', 'broken stream')
        .executeTakeFirstOrThrow();
      assert.equal(failed.status, 'failed');
      if (t.kind === 'sqlite') {
        // the import suspended the dictionary's substring index (its triggers); the rollback brought them back
        const triggers = (
          await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and tbl_name = ${GRANTS_TEXTS_TABLE}`.execute(
            db(),
          )
        ).rows;
        assert.deepEqual(triggers.map((r) => r.name).sort(), ['ai', 'ad', 'au'].map((x) => `${GRANTS_SEARCH.name}_${x}`).sort());
      }
    });

    it('stops at a missing required column, naming it, and at a file without valid rows; the data stays', async () => {
      const beforeRows = await stored();
      const columns = SCHEMA_2025_COLUMNS.filter((c) => c !== 'agreement_value');
      const missing = write('missing.csv', handCsv([handRow({ agreement_number: 'X-1' })], columns));
      await assert.rejects(importGrantsCsv(t.db, missing), /missing required column: agreement_value/);
      const empty = write('empty.csv', handCsv([handRow({ agreement_value: 'n/a' })]));
      await assert.rejects(importGrantsCsv(t.db, empty), /no valid grant rows/);
      assert.deepEqual(await stored(), beforeRows);
    });

    it('reads the December 2025 schema (agreement_number) by header name', async () => {
      const file = write(
        'schema2025.csv',
        handCsv(
          [
            handRow({ agreement_number: '2025-A', agreement_value: '42.00' }),
            handRow({ agreement_number: '2025-A', amendment_number: '1', agreement_value: '84.00' }),
          ],
          [...SCHEMA_2025_COLUMNS].reverse(),
        ),
      );
      const report = await importGrantsCsv(t.db, file, { guard: { allowShrink: true } });
      assert.equal(report.inserted, 1);
      const s = await stats();
      assert.equal(s.total_value, 84);
      assert.equal(s.data_source.schema, '2025');
    });

    it('two imports at once into an empty table: the table ends as one file left it, not as their union', async () => {
      await db().deleteFrom('grants_agreements').execute();
      const file = (name: string, prefix: string) =>
        write(name, handCsv(Array.from({ length: 300 }, (_, i) => handRow({ ref_number: `${prefix}-${i}` }))));
      const a = file('concurrent-a.csv', 'CA');
      const b = file('concurrent-b.csv', 'CB');
      // (the one that commits second replaces the other's agreements)
      const allowShrink = { guard: { allowShrink: true } };
      const reports = await Promise.all([importGrantsCsv(t.db, a, allowShrink), importGrantsCsv(t.db, b, allowShrink)]);
      const refs = (await db().selectFrom('grants_agreements').select('reference_number').execute()).map((r) => r.reference_number);
      const prefixes = [...new Set(refs.map((r) => r.split('-')[0]))];
      assert.equal(prefixes.length, 1, `stored: ${prefixes.join(', ')}`);
      assert.equal(refs.length, 300);
      // the import that committed second deleted the other's agreements
      assert.deepEqual(reports.map((r) => r.deleted).sort(), [0, 300]);
      assert.equal((await stats()).total_grants, 300);
    });

    it('stores a NUL character of the file as U+FFFD on both databases (PostgreSQL refuses NUL in text)', async () => {
      const file = write(
        'nul.csv',
        handCsv([handRow({ ref_number: 'N-1', recipient_legal_name: 'Bad\u0000Name', description_en: 'x\u0000y' })]),
      );
      const report = await importGrantsCsv(t.db, file, { guard: { allowShrink: true } });
      assert.equal(report.inserted, 1);
      const row = await agreementsWithTexts(db())
        .select(textsOf(['recipient_legal_name', 'description_en']))
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { recipient_legal_name: 'Bad\uFFFDName', description_en: 'x\uFFFDy' });
    });
  },
  { migrations: grantsService.migrations },
);
