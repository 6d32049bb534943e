// The real snapshot, SQLite and PostgreSQL: the live IRCC feed always imports. New spellings are
// read; a secondary field that cannot be read is null with a warning (round and raw value); a round whose
// primary field cannot be read is skipped with its reason and its stored copy kept; the guard refuses a feed
// that would delete more than 10% of the stored rounds (--allow-shrink) or leave more than 5% of its rounds
// unread (--allow-skips); data_source names the file, never a server path.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ImportRefusedError } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { describeWithSnapshot, drawsContext, importSnapshot, SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../../../test/support/draws/context.ts';
import { readFeed, storedState, tempFile } from '../../../test/support/draws/files.ts';
import { applyPerturbation, perturbation } from '../../../test/support/draws/perturb.ts';
import { readJson } from '../../core/db/dialect.ts';
import type { PoolDistribution } from './feed/pool-distribution.ts';
import { parseRoundsFeed } from './feed/rounds-feed.ts';
import { dataSource, publicSourceName } from './repository.ts';
import { drawsService } from './service.ts';
import type { DrawsTables } from './tables.ts';

describeWithSnapshot('draws import of the live feed', (t) => {
  let ctx: ServiceContext;
  const db = () => t.db.kysely.withTables<DrawsTables>();
  const row = async (round: string) =>
    db().selectFrom('draws_draws').selectAll().where('round_number', '=', round).executeTakeFirstOrThrow();
  const run = (file: string, options: Record<string, unknown> = {}) => drawsService.importers.rounds.run(ctx, file, options);

  before(async () => {
    ctx = drawsContext(t.db);
    await importSnapshot(ctx);
  });

  it('reads the new spellings and keeps every round; an unreadable secondary field is a warning naming the round and the raw value, and keeps its stored value', async () => {
    const feed = readFeed();
    const [r388, r387, r386] = feed.rounds;
    assert.deepEqual([r388.drawNumber, r387.drawNumber, r386.drawNumber], ['388', '387', '386']);
    feed.rounds.unshift({
      ...r388,
      drawNumber: '389',
      drawName: 'Canadian Experience Class',
      drawSize: '1\u00a0000',
      drawCRS: '515',
      drawCutOff: 'December 3rd 2025 at 21:35:13 UTC',
      drawDateTime: 'Dec. 17th,  2025 14:02:11\u00a0GMT',
      drawDistributionAsOn: 'Sept. 14th 2025',
    });
    r387.dd5 = 'n/a';
    r386.drawCutOff = 'TBD';
    const [report] = await run(tempFile('live.json', JSON.stringify(feed)));
    assert.deepEqual(
      [report.rows_read, report.inserted, report.updated, report.unchanged, report.deleted, report.skipped],
      [390, 1, 0, 389, 0, 0],
    );
    assert.equal(report.warnings, 4);
    assert.match(report.warning_samples.join('\n'), /^round 387: dd5: not a whole number: "n\/a"; stored as null$/m);
    assert.match(report.warning_samples.join('\n'), /^round 386: drawCutOff: .*"TBD".*; stored as null$/m);
    const added = await row('389');
    assert.deepEqual(
      [added.tie_break_at, added.drawn_at, added.invitations, readJson<PoolDistribution>(added.pool_distribution).asOn],
      ['2025-12-03T21:35:13Z', '2025-12-17T14:02:11Z', 1000, '2025-09-14'],
    );
    assert.match(report.warning_samples.join('\n'), /^round 387: dd5 could not be read; the stored value is kept$/m);
    assert.notEqual((await row('387')).pool_distribution, null, 'the stored distribution is kept');
    assert.notEqual((await row('386')).tie_break_at, null, 'the stored cut-off is kept');
    assert.notEqual((await row('386')).pool_distribution, null, 'the other fields of the round are kept');

    const restored = await importSnapshot(ctx);
    assert.deepEqual([restored.deleted, restored.updated, restored.warnings], [1, 0, 0]);
  });

  it('skips a round whose primary field cannot be read, with its reason, and keeps its stored copy', async () => {
    const before = await storedState(db());
    const feed = readFeed();
    feed.rounds[3].drawCRS = 'four hundred';
    const [report] = await run(tempFile('bad.json', JSON.stringify(feed)));
    assert.deepEqual(
      [report.rows_read, report.skipped, report.unreadable, report.unchanged, report.deleted, report.stored_before],
      [389, 1, 1, 389, 0, 389],
    );
    assert.deepEqual(report.skip_reasons, { 'unreadable drawCRS': 1 });
    assert.ok(report.warning_samples.includes(`round ${feed.rounds[3].drawNumber}: unreadable in the feed; the stored copy is kept`));
    const after = await storedState(db());
    assert.deepEqual([after.draws, after.categories, after.predictions], [before.draws, before.categories, before.predictions]);
  });

  it('refuses a feed with more than 5% of its rounds unreadable, unless --allow-skips', async () => {
    const before = await storedState(db());
    const feed = readFeed();
    for (const r of feed.rounds.slice(0, 30)) r.drawSize = '';
    const file = tempFile('many-bad.json', JSON.stringify(feed));
    await assert.rejects(
      run(file),
      (e: unknown) =>
        e instanceof ImportRefusedError && /30 of the 389 rows read could not be read \(7\.7%; the limit is 5\.0%\)/.test(e.message),
    );
    assert.deepEqual(await storedState(db()), before);
    const [report] = await run(file, { allowSkips: true });
    assert.deepEqual([report.skipped, report.unchanged, report.deleted], [30, 389, 0]);
    assert.deepEqual(report.skip_reasons, { 'missing drawSize': 30 });
    assert.deepEqual((await storedState(db())).draws, before.draws, 'the stored copies of the 30 rounds are kept');
  });

  it('refuses a feed that would delete more than 10% of the stored rounds, unless --allow-shrink', async () => {
    const before = await storedState(db());
    const feed = readFeed();
    feed.rounds = feed.rounds.slice(60);
    const file = tempFile('short.json', JSON.stringify(feed));
    await assert.rejects(
      run(file),
      (e: unknown) =>
        e instanceof ImportRefusedError &&
        /short\.json: refused: the import would delete 60 of the 389 stored draws\/rounds records \(15\.4%; the limit is 10\.0%\)/.test(
          e.message,
        ),
    );
    assert.deepEqual(await storedState(db()), before);
    const [report] = await run(file, { allowShrink: true });
    assert.deepEqual([report.deleted, report.unchanged, report.stored_before], [60, 329, 389]);
    assert.equal((await storedState(db())).draws.length, 329);
    const restored = await importSnapshot(ctx);
    assert.deepEqual([restored.inserted, restored.deleted], [60, 0]);
  });

  it('perturbed secondary fields of the real snapshot (property): the import never fails and never loses a round', async () => {
    const snapshot = readFeed();
    const expectedRounds = snapshot.rounds.map((r) => r.drawNumber).sort();
    await fc.assert(
      fc.asyncProperty(fc.array(perturbation(snapshot.rounds.length), { minLength: 1, maxLength: 40 }), async (perturbations) => {
        const feed = structuredClone(snapshot) as { rounds: Record<string, unknown>[] };
        for (const p of perturbations) applyPerturbation(feed, p);
        const [report] = await run(tempFile('perturbed.json', JSON.stringify(feed)));
        assert.deepEqual([report.rows_read, report.skipped, report.deleted], [389, 0, 0]);
        // Each value that cannot be read is a warning; one whose stored value is kept is a second one.
        const unread = parseRoundsFeed(feed).warnings.length;
        assert.ok(report.warnings >= unread && report.warnings <= 2 * unread, `${report.warnings} warnings for ${unread} unread values`);
        const stored = await db().selectFrom('draws_draws').select('round_number').execute();
        assert.deepEqual(stored.map((r) => r.round_number).sort(), expectedRounds);
      }),
      { seed: 13, numRuns: 3 },
    );
    await importSnapshot(ctx);
  });

  it('data_source names the file, never a path on the server; a URL stays a URL', async () => {
    const source = await dataSource(db(), SNAPSHOT_AS_OF, {});
    assert.equal(source.source, SNAPSHOT_NAME);
    const versions = await db().selectFrom('data_versions').select('source').where('dataset', '=', 'rounds').executeTakeFirstOrThrow();
    assert.ok(versions.source!.endsWith(`/${SNAPSHOT_NAME}`), 'the operator still sees the full path in the import log');
    const url = 'https://www.canada.ca/content/dam/ircc/documents/json/ee_rounds_123_en.json';
    assert.equal(publicSourceName(url), url);
    assert.equal(publicSourceName('/srv/pdi/data/feeds/ee_rounds_123_en.json'), 'ee_rounds_123_en.json');
  });
});
