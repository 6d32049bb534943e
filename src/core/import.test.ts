import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { runImport } from './import.ts';
import { getAggregate, listDataVersions, putAggregate } from './db/datasets.ts';
import { insertMany } from './db/dialect.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';

describeEachDatabase('import runner', (t) => {
  before(async () => {
    await t.db.kysely.schema
      .createTable('things')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .execute();
  });

  const names = async () => (await t.db.kysely.selectFrom('things').select('name').orderBy('name').execute()).map((r) => r.name);

  it('commits the rows, the data version and the aggregates together, with counts', async () => {
    const report = await runImport(
      t.db,
      { service: 'oral', importer: 'test', dataset: 'things', source: 'memory' },
      async (trx, { tally, dataVersion }) => {
        await insertMany(trx, 'things', [{ name: 'a' }, { name: 'b' }]);
        tally.read(3);
        tally.inserted(2);
        tally.skip('empty name');
        await putAggregate(trx, 'oral', 'count', dataVersion, { n: 2 });
      },
    );
    assert.deepEqual(await names(), ['a', 'b']);
    assert.equal(report.rows_read, 3);
    assert.equal(report.inserted, 2);
    assert.deepEqual(report.skip_reasons, { 'empty name': 1 });
    const versions = await listDataVersions(t.db.kysely, 'oral');
    assert.equal(versions.length, 1);
    assert.equal(versions[0].version, report.data_version);
    assert.equal(versions[0].is_demo, false);
    const agg = await getAggregate<{ n: number }>(t.db.kysely, 'oral', 'count');
    assert.deepEqual(agg?.value, { n: 2 });
    assert.equal(agg?.data_version, report.data_version);
  });

  it('leaves the old data, version and aggregates when an import fails midway, and logs the failure', async () => {
    const before = await listDataVersions(t.db.kysely, 'oral');
    await assert.rejects(
      runImport(t.db, { service: 'oral', importer: 'test', dataset: 'things', source: 'broken' }, async (trx, { dataVersion }) => {
        await trx.deleteFrom('things').execute();
        await insertMany(trx, 'things', [{ name: 'c' }]);
        await putAggregate(trx, 'oral', 'count', dataVersion, { n: 1 });
        throw new Error('row 2: unreadable');
      }),
      /row 2: unreadable/,
    );
    assert.deepEqual(await names(), ['a', 'b']);
    assert.deepEqual(await listDataVersions(t.db.kysely, 'oral'), before);
    assert.deepEqual((await getAggregate<{ n: number }>(t.db.kysely, 'oral', 'count'))?.value, { n: 2 });
    const runs = await t.db.kysely.selectFrom('import_runs').select(['status', 'error']).orderBy('id').execute();
    assert.deepEqual(
      runs.map((r) => r.status),
      ['succeeded', 'failed'],
    );
    assert.equal(runs[1].error, 'row 2: unreadable');
  });

  it('runs one import of a service at a time: two at once each see what the other committed', async () => {
    await t.db.kysely.insertInto('things').values({ name: 'count:0' }).execute();
    // read the count, take a while, write count + 1: run side by side without the lock, both read 0
    const increment = () =>
      runImport(t.db, { service: 'oral', importer: 'test', dataset: 'counter', source: 'memory' }, async (trx) => {
        const row = await trx.selectFrom('things').select('name').where('name', 'like', 'count:%').executeTakeFirstOrThrow();
        const n = Number(String(row.name).slice('count:'.length));
        await new Promise((resolve) => setTimeout(resolve, 100));
        await trx
          .updateTable('things')
          .set({ name: `count:${n + 1}` })
          .where('name', '=', row.name)
          .execute();
      });
    await Promise.all([increment(), increment()]);
    assert.deepEqual(
      (await names()).filter((n) => n.startsWith('count:')),
      ['count:2'],
    );
  });
});
