// D's import, on SQLite and PostgreSQL, of a feed whose secondary values cannot be read: such a value is null
// with a warning where the round is new, and never replaces the value stored for a round (the importer keeps
// the stored one); the round's readable changes are still taken.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServiceContext } from '../../core/service.ts';
import { describeWithSnapshot, drawsContext, importSnapshot } from '../../../test/support/draws/context.ts';
import { readFeed, tempFile } from '../../../test/support/draws/files.ts';
import { importRounds } from './import.ts';
import type { DrawsTables } from './tables.ts';

describeWithSnapshot('draws import keeps stored values it cannot read again', (t) => {
  let ctx: ServiceContext;
  const db = () => t.db.kysely.withTables<DrawsTables>();
  const round = (n: string) => db().selectFrom('draws_draws').selectAll().where('round_number', '=', n).executeTakeFirst();

  before(async () => {
    ctx = drawsContext(t.db);
    await importSnapshot(ctx);
  });

  it('a cut-off, a draw time and a pool count that cannot be read keep their stored values; a new round gets nulls', async () => {
    const before388 = await round('388');
    assert.ok(before388?.tie_break_at && before388.drawn_at && before388.pool_distribution, 'the snapshot fills them');
    const feed = readFeed();
    const i = feed.rounds.findIndex((r) => r.drawNumber === '388');
    feed.rounds[i] = { ...feed.rounds[i], drawCutOff: 'TBD', drawDateTime: 'soon', dd1: 'many' };
    const j = feed.rounds.findIndex((r) => r.drawNumber === '387');
    feed.rounds[j] = { ...feed.rounds[j], drawCutOff: 'TBD', drawCRS: String(Number(feed.rounds[j].drawCRS) + 1) };
    feed.rounds.unshift({ ...feed.rounds[i], drawNumber: '389', drawDate: '2025-12-18' });
    const report = await importRounds(ctx, tempFile('feed.json', JSON.stringify(feed)));
    assert.deepEqual([report.inserted, report.updated, report.deleted, report.unreadable], [1, 1, 0, 0]);
    assert.deepEqual(await round('388'), before388, 'round 388 as stored');
    const r387 = (await round('387'))!;
    assert.notEqual(r387.tie_break_at, null, 'the stored cut-off of 387 is kept');
    assert.equal(r387.crs, Number(feed.rounds[j + 1].drawCRS), 'the readable change of 387 is taken');
    const r389 = (await round('389'))!;
    assert.deepEqual([r389.tie_break_at, r389.drawn_at, r389.pool_distribution], [null, null, null]);
    assert.ok(report.warning_samples.some((w) => w === 'round 388: drawCutOff could not be read; the stored value is kept'));
  });
});
