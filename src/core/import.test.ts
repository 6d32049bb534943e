import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ImportRefusedError, runImport } from './import.ts';
import { getAggregate, listDataVersions, putAggregate } from './db/datasets.ts';
import { insertMany } from './db/dialect.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';

type ThingsTables = { things: { name: string } };

describeEachDatabase('import runner', (t) => {
  before(async () => {
    await t.db.kysely.schema
      .createTable('things')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .execute();
  });

  const names = async () =>
    (await t.db.kysely.withTables<ThingsTables>().selectFrom('things').select('name').orderBy('name').execute()).map((r) => r.name);

  it('commits the rows, the data version and the aggregates together, with counts', async () => {
    const report = await runImport(
      t.db,
      { service: 'oral', importer: 'test', dataset: 'things', source: 'memory', guard: { allowSkips: true } },
      async (trx, { tally, dataVersion }) => {
        await insertMany(trx.withTables<ThingsTables>(), 'things', [{ name: 'a' }, { name: 'b' }]);
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
        await trx.withTables<ThingsTables>().deleteFrom('things').execute();
        await insertMany(trx.withTables<ThingsTables>(), 'things', [{ name: 'c' }]);
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
    await t.db.kysely.withTables<ThingsTables>().insertInto('things').values({ name: 'count:0' }).execute();
    // read the count, take a while, write count + 1: run side by side without the lock, both read 0
    const increment = () =>
      runImport(t.db, { service: 'oral', importer: 'test', dataset: 'counter', source: 'memory' }, async (core) => {
        const trx = core.withTables<ThingsTables>();
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

describeEachDatabase('import guard and abandoned runs', (t) => {
  before(async () => {
    await t.db.kysely.schema
      .createTable('things')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .execute();
    await insertMany(
      t.db.kysely.withTables<ThingsTables>(),
      'things',
      Array.from({ length: 20 }, (_, i) => ({ name: `n${String(i).padStart(2, '0')}` })),
    );
  });

  const count = async () =>
    Number(
      (
        await t.db.kysely
          .withTables<ThingsTables>()
          .selectFrom('things')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** An import that keeps `keep` of the 20 stored things and deletes the rest. */
  const shrinkTo = (keep: number, guard = {}) =>
    runImport(t.db, { service: 'oral', importer: 'test', dataset: 'things', source: 'cut.csv', guard }, async (core, { tally }) => {
      const trx = core.withTables<ThingsTables>();
      const deleted = await trx
        .deleteFrom('things')
        .where('name', '>=', `n${String(keep).padStart(2, '0')}`)
        .executeTakeFirst();
      tally.read(keep);
      tally.unchanged(keep);
      tally.deleted(Number(deleted.numDeletedRows));
    });

  it('refuses an import that would delete more than 10% of the stored records, naming the counts, and changes nothing', async () => {
    await assert.rejects(shrinkTo(2), (error: Error) => {
      assert.ok(error instanceof ImportRefusedError);
      assert.match(error.message, /would delete 18 of the 20 stored oral\/things records \(90\.0%; the limit is 10\.0%\)/);
      assert.match(error.message, /--allow-shrink/);
      return true;
    });
    assert.equal(await count(), 20);
    const last = await t.db.kysely.selectFrom('import_runs').select(['status', 'error']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.equal(last.status, 'refused');
  });

  it('takes a deletion of 10% or less, and a larger one with allowShrink', async () => {
    const small = await shrinkTo(18);
    assert.equal(small.deleted, 2);
    assert.equal(small.stored_before, 20);
    assert.equal(await count(), 18);
    const large = await shrinkTo(3, { allowShrink: true });
    assert.equal(large.deleted, 15);
    assert.equal(await count(), 3);
  });

  it('refuses more than 5% unreadable rows unless allowed; excluded rows do not count', async () => {
    const skipping = (unreadable: number, excluded: number, guard = {}) =>
      runImport(t.db, { service: 'oral', importer: 'test', dataset: 'skips', source: 'odd.csv', guard }, async (_trx, { tally }) => {
        tally.read(100);
        tally.unchanged(100 - unreadable - excluded);
        tally.skip('unreadable date', unreadable);
        tally.exclude('cites no retracted paper', excluded);
      });
    await assert.rejects(skipping(6, 0), /6 of the 100 rows read could not be read \(6\.0%; the limit is 5\.0%\).*--allow-skips/);
    const filtered = await skipping(5, 80);
    assert.equal(filtered.unreadable, 5);
    assert.equal(filtered.skipped, 85);
    const allowed = await skipping(50, 0, { allowSkips: true });
    assert.equal(allowed.unreadable, 50);
  });

  it('reports warnings with their samples', async () => {
    const report = await runImport(
      t.db,
      { service: 'oral', importer: 'test', dataset: 'warn', source: 'w.json' },
      async (_trx, { tally }) => {
        tally.read(1);
        tally.inserted(1);
        tally.warn('round 300: drawCutOff "sometime soon" is not a date; stored as null');
      },
    );
    assert.equal(report.warnings, 1);
    assert.deepEqual(report.warning_samples, ['round 300: drawCutOff "sometime soon" is not a date; stored as null']);
  });

  it('marks the run of a killed importing process as aborted at the next import', async () => {
    // A child process starts an import that never finishes, then is killed with SIGKILL.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
        const { openDatabase } = await import(${JSON.stringify(new URL('./db/database.ts', import.meta.url).href)});
        const { runImport } = await import(${JSON.stringify(new URL('./import.ts', import.meta.url).href)});
        const db = openDatabase(${JSON.stringify(t.url)});
        await runImport(db, { service: 'oral', importer: 'test', dataset: 'killed', source: 'child' }, async () => {
          console.log('importing');
          await new Promise(() => {}); // hold the import open until killed
        });
        `,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('importing')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    const running = await t.db.kysely.selectFrom('import_runs').select('id').where('source', '=', 'child').executeTakeFirstOrThrow();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // On PostgreSQL the server notices the closed socket a moment later.
    let status = '';
    for (let attempt = 0; attempt < 50 && status !== 'aborted'; attempt++) {
      await runImport(t.db, { service: 'oral', importer: 'test', dataset: 'after', source: 'next' }, async () => {});
      status = (await t.db.kysely.selectFrom('import_runs').select('status').where('id', '=', running.id).executeTakeFirstOrThrow()).status;
      if (status !== 'aborted') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(status, 'aborted');
    // The next import of the same service is not held by the dead one.
    const report = await runImport(
      t.db,
      { service: 'oral', importer: 'test', dataset: 'killed', source: 'again' },
      async (_trx, { tally }) => {
        tally.read(1);
      },
    );
    assert.equal(report.rows_read, 1);
  });
});
