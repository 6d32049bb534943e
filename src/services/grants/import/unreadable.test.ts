// C's import, on SQLite and PostgreSQL, of a file whose secondary values (amendment_date, agreement_end_date,
// agreement_type, recipient_type) cannot be read: such a value is null ('' for a type) with a warning where the
// agreement is new, and never replaces the value stored for an agreement (the stored one is kept, with a
// warning); an empty cell still clears it, and the row's readable changes are still taken.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { handCsv, handRow, tempDir } from '../../../../test/support/grants/files.ts';
import { grantsService } from '../service.ts';
import type { GrantsTables } from '../tables.ts';
import { importGrantsCsv } from './importer.ts';

describeEachDatabase(
  'grants import keeps stored values it cannot read again',
  (t) => {
    let dir: string;
    before(() => {
      dir = tempDir();
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, text: string) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const dates = async () =>
      Object.fromEntries(
        (
          await t.db.kysely
            .withTables<GrantsTables>()
            .selectFrom('grants_agreements')
            .select(['reference_number', 'amendment_date', 'agreement_end_date', 'agreement_value_cents'])
            .execute()
        ).map((r) => [r.reference_number, [r.amendment_date, r.agreement_end_date, Number(r.agreement_value_cents)]]),
      );

    it('an unreadable amendment or end date keeps the stored one; a new agreement gets null; an empty cell clears', async () => {
      const first = handCsv([
        handRow({ ref_number: 'A-1', amendment_number: '1', amendment_date: '2021-03-01', agreement_end_date: '2022-05-31' }),
        handRow({ ref_number: 'B-1', agreement_end_date: '2023-01-31', agreement_value: '200.00' }),
        handRow({ ref_number: 'C-1', agreement_end_date: '2024-01-31' }),
      ]);
      await importGrantsCsv(t.db, write('first.csv', first));
      const stored = await dates();
      assert.deepEqual(stored['A-1'], ['2021-03-01', '2022-05-31', 100_000]);

      const second = handCsv([
        handRow({ ref_number: 'A-1', amendment_number: '1', amendment_date: '01.03.2021', agreement_end_date: '31.05.2022' }),
        handRow({ ref_number: 'B-1', agreement_end_date: 'TBD', agreement_value: '250.00' }),
        handRow({ ref_number: 'C-1', agreement_end_date: '' }),
        handRow({ ref_number: 'D-1', amendment_date: '2021-13-01', agreement_end_date: 'soon' }),
      ]);
      const report = await importGrantsCsv(t.db, write('second.csv', second));
      assert.deepEqual(
        [report.inserted, report.updated, report.unchanged, report.deleted, report.unreadable],
        [1, 2, 1, 0, 0],
        JSON.stringify(report),
      );
      const now = await dates();
      assert.deepEqual(now['A-1'], stored['A-1'], 'both stored dates of A-1 are kept');
      assert.deepEqual(now['B-1'], [null, '2023-01-31', 25_000], 'the stored end date of B-1 is kept, its new value taken');
      assert.deepEqual(now['C-1'], [null, null, 100_000], 'an empty end date clears the stored one');
      assert.deepEqual(now['D-1'], [null, null, 100_000], 'a new agreement gets nulls');
      assert.equal(report.warnings, 5);
      assert.ok(
        report.warning_samples.includes('agreement test-org A-1: amendment_date "01.03.2021" could not be read; the stored value is kept'),
        JSON.stringify(report.warning_samples),
      );
      assert.ok(report.warning_samples.includes('agreement test-org D-1: agreement_end_date "soon" could not be read; stored as null'));
    });

    it('an agreement or recipient type of no known code keeps the stored code; a new agreement gets none', async () => {
      const types = async () =>
        Object.fromEntries(
          (
            await t.db.kysely
              .withTables<GrantsTables>()
              .selectFrom('grants_agreements')
              .select(['reference_number', 'agreement_type', 'recipient_type'])
              .where('reference_number', 'like', 'T-%')
              .execute()
          ).map((r) => [r.reference_number, `${r.agreement_type}/${r.recipient_type}`]),
        );
      const typed = handCsv([handRow({ ref_number: 'T-1', agreement_type: 'C', recipient_type: 'S' }), handRow({ ref_number: 'T-2' })]);
      await importGrantsCsv(t.db, write('types.csv', typed), { guard: { allowShrink: true } });
      assert.deepEqual(await types(), { 'T-1': 'C/S', 'T-2': 'G/N' });
      const spoilt = handCsv([
        handRow({ ref_number: 'T-1', agreement_type: 'Loan', recipient_type: 'Z' }),
        handRow({ ref_number: 'T-2', agreement_type: '', recipient_type: '' }),
        handRow({ ref_number: 'T-3', agreement_type: 'Loan' }),
      ]);
      const report = await importGrantsCsv(t.db, write('types-spoilt.csv', spoilt));
      assert.deepEqual(await types(), { 'T-1': 'C/S', 'T-2': '/', 'T-3': '/N' }, 'kept; an empty cell clears; a new agreement has none');
      assert.deepEqual([report.inserted, report.updated, report.unchanged], [1, 1, 1], JSON.stringify(report));
      const samples = report.warning_samples;
      assert.ok(
        samples.includes('agreement test-org T-1: recipient_type "Z" could not be read; the stored value is kept'),
        JSON.stringify(samples),
      );
      assert.ok(
        samples.includes('agreement test-org T-3: agreement_type "Loan" could not be read; stored as empty'),
        JSON.stringify(samples),
      );
    });
  },
  { migrations: grantsService.migrations },
);
