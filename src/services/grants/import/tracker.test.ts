// The aggregates a first import stores (on SQLite accumulated by the reading thread: tracker.ts)
// equal the aggregates computed from the stored rows (computeAggregates), field for field: from a file (the
// worker thread) and from a stream (the caller's thread), into a table emptied after an earlier import (the
// ids then continue after the ones used), with amendments of an agreement in later batches.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { handCsv, handRow, tempDir, writeGenerated } from '../../../../test/support/grants/files.ts';
import { getAggregate } from '../../../core/db/datasets.ts';
import { AGGREGATE_NAMES, computeAggregates } from '../aggregates.ts';
import type { DataSource, GrantsStats } from '../aggregates.ts';
import { grantsService } from '../service.ts';
import { AmendmentResolver, amendmentKey, readGrantsCsv } from '../source/index.ts';
import type { GrantsTables } from '../tables.ts';
import { importGrantsCsv } from './importer.ts';
import { BATCH_ROWS } from './rows.ts';

describeEachDatabase(
  'grants aggregates of a first import',
  (t) => {
    let dir: string;
    let file: string;
    before(async () => {
      dir = tempDir();
      file = await writeGenerated(dir, 4000, 'import-aggregates');
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const storedEqualComputed = async () => {
      const db = t.db.kysely.withTables<GrantsTables>();
      const stored = new Map<string, unknown>();
      for (const name of AGGREGATE_NAMES) stored.set(name, (await getAggregate(db, 'grants', name))!.value);
      const dataSource = (stored.get('stats') as GrantsStats).data_source as DataSource;
      const computed = await computeAggregates(db, dataSource);
      for (const name of AGGREGATE_NAMES) assert.deepEqual(stored.get(name), computed[name], name);
      return computed;
    };

    it('the file has amendments of an agreement in a later batch (or the test proves little)', async () => {
      const firstBatch = new Map<string, number>();
      let records = 0;
      let later = 0;
      await readGrantsCsv(file, (r) => {
        const key = amendmentKey(r);
        const batch = Math.floor(records++ / BATCH_ROWS);
        const seen = firstBatch.get(key);
        if (seen === undefined) firstBatch.set(key, batch);
        else if (seen < batch) later++;
      });
      assert.ok(later >= 20, `${later} amendments in a later batch`);
    });

    it('equal those computed from the stored rows, from a file and from a stream, ids after the ones used', async () => {
      // and a file whose later batches hold earlier amendments (out of order, equal numbers with and without dates)
      const rows: Array<Record<string, string>> = [];
      const filler = (i: number) =>
        handRow({ ref_number: `F-${i}`, agreement_value: `${1000 + i}.00`, recipient_legal_name: `Recipient ${i % 97}` });
      rows.push(
        handRow({ ref_number: 'X-1', amendment_number: '2', agreement_value: '900000.00' }),
        handRow({ ref_number: 'X-2', amendment_number: '1', amendment_date: '2021-05-01', agreement_value: '5000000.00' }),
        handRow({ ref_number: 'X-3', amendment_number: '1', agreement_value: '70.00' }),
        handRow({ ref_number: 'X-4', amendment_number: '1', amendment_date: '2021-05-01', agreement_value: '80.00' }),
        // a program's French name: the first agreement's (by id) whose current amendment gives one; X-5's does not
        handRow({ ref_number: 'X-5', amendment_number: '2', agreement_value: '60.00', prog_name_en: 'Program Z' }),
        handRow({ ref_number: 'X-6', agreement_value: '50.00', prog_name_en: 'Program Z', prog_name_fr: 'Programme Zed' }),
        handRow({ ref_number: 'X-7', agreement_value: '40.00', prog_name_en: 'Program Z', prog_name_fr: 'Programme Zêta' }),
        handRow({ ref_number: 'X-8', agreement_value: '30.00', recipient_legal_name: 'Acme Ltd.|Acme Ltée' }),
      );
      for (let i = 0; i < 2 * BATCH_ROWS; i++) rows.push(filler(i));
      rows.push(
        handRow({ ref_number: 'X-1', amendment_number: '1', agreement_value: '1.00' }), // loses: lower number
        handRow({ ref_number: 'X-2', amendment_number: '1', amendment_date: '2021-04-01', agreement_value: '2.00' }), // loses: earlier date
        handRow({ ref_number: 'X-3', amendment_number: '1', amendment_date: '2021-01-01', agreement_value: '3.00' }), // wins: a date beats none
        handRow({ ref_number: 'X-4', amendment_number: '1', agreement_value: '4.00' }), // loses: no date
        handRow({
          ref_number: 'X-5',
          amendment_number: '1',
          agreement_value: '6.00',
          prog_name_en: 'Program Z',
          prog_name_fr: 'Programme Z',
        }), // loses
      );
      const outOfOrder = path.join(dir, 'out-of-order.csv');
      fs.writeFileSync(outOfOrder, handCsv(rows));
      const db = t.db.kysely.withTables<GrantsTables>();
      for (const [input, csv] of [
        ['file', file],
        ['stream', file],
        ['file', outOfOrder],
      ] as const) {
        const resolver = new AmendmentResolver();
        await readGrantsCsv(csv, (r) => resolver.add(r));
        const before = await db
          .selectFrom('grants_agreements')
          .select((eb) => eb.fn.max('id').as('max'))
          .executeTakeFirstOrThrow();
        await db.deleteFrom('grants_agreements').execute();
        await importGrantsCsv(t.db, input === 'file' ? csv : fs.createReadStream(csv), { sourceLabel: 'grants.csv' });
        const computed = await storedEqualComputed();
        assert.equal(computed.stats.total_grants, resolver.size);
        const ids = await db
          .selectFrom('grants_agreements')
          .select([(eb) => eb.fn.min('id').as('min'), (eb) => eb.fn.max('id').as('max')])
          .executeTakeFirstOrThrow();
        // no id is used twice, first import or not
        if (before.max !== null) assert.ok(Number(ids.min) > Number(before.max), `${input}: ids ${ids.min}… after ${before.max}`);
        // SQLite: numbered by the reading thread, one id an agreement (a PostgreSQL sequence also spends ids on conflicts)
        if (t.kind === 'sqlite') assert.equal(Number(ids.max) - Number(ids.min) + 1, resolver.size);
        // the calculator's lists (their ids and titles compared above) are not empty
        assert.ok(computed.calculator.ok && computed.calculator.aggregates.years.flatMap((y) => y.top_projects).length > 2);
        // the French names beside the English ones (compared above too)
        if (csv === outOfOrder) {
          const programZ = computed.stats.top_programs.find((p) => p.program_name_en === 'Program Z');
          assert.equal(programZ?.program_name_fr, 'Programme Zed');
          assert.equal(computed.stats.top_programs.find((p) => p.program_name_en === 'Test Program')?.program_name_fr, '');
        } else {
          assert.ok(computed.stats.top_programs.filter((p) => p.program_name_fr !== '').length >= 10, 'the generated programs in French');
          assert.ok(
            computed.recipients.top_recipients.some((r) => r.recipient_legal_name_fr !== ''),
            'a bilingual recipient name',
          );
        }
      }
    });
  },
  { migrations: grantsService.migrations },
);
