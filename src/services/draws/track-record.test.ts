// The public track record on both databases: the real snapshot without its six newest rounds imported first (forecasts
// made on 2025-11-30 recorded), then the whole snapshot (those forecasts scored against the draws that came), the API
// and the page. Outcomes are checked against the feed itself.
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type { Kysely } from 'kysely';
import type { ServiceApp } from '../../core/service.ts';
import { buildTestApp } from '../../../test/support/app.ts';
import { describeWithSnapshot, drawsContext, SNAPSHOT_AS_OF, SNAPSHOT_FILE } from '../../../test/support/draws/context.ts';
import { readFeed, tempFile } from '../../../test/support/draws/files.ts';
import { importRounds } from './import.ts';
import type { TrackRecordResponse } from './schemas/track-record.ts';
import { drawsService } from './service.ts';
import type { DrawsDatabase, DrawsTables } from './tables.ts';
import { clusteredMeanInterval, recordServedForecasts, winklerScore } from './track-record.ts';

const CUT_AS_OF = '2025-11-30';

it('Winkler interval score: the width, plus 2/α times a miss', () => {
  assert.equal(winklerScore(500, 520, 510), 20);
  assert.equal(winklerScore(500, 520, 495), 20 + 40 * 5);
  assert.equal(winklerScore(500, 520, 530), 20 + 40 * 10);
  assert.equal(clusteredMeanInterval([1, 2], ['a', 'a']), null, 'one draw judged: no interval');
  const i = clusteredMeanInterval([1, 3, 5, 7], ['a', 'b', 'c', 'd'])!;
  assert.ok(i.low < 4 && i.high > 4 && Math.abs(i.low + i.high - 8) < 1e-9);
});

describeWithSnapshot('draws: the track record', (t) => {
  let app: ServiceApp;
  const db = (): Kysely<DrawsDatabase> => t.db.kysely.withTables<DrawsTables>();
  const rows = () => db().selectFrom('draws_track_record').selectAll().orderBy('id').execute();
  const feed = readFeed();
  const cutFile = tempFile('ee_rounds_123_en.json', JSON.stringify({ ...feed, rounds: feed.rounds.slice(6) }));

  before(async () => {
    await importRounds(drawsContext(t.db, CUT_AS_OF), cutFile);
  });
  after(async () => app?.close());

  it('an import records the forecasts it serves, once: a reload or a re-import of the same feed writes nothing', async () => {
    const recorded = await rows();
    const predictions = await db().selectFrom('draws_predictions').selectAll().execute();
    assert.equal(recorded.length, predictions.length);
    assert.ok(recorded.length >= 20);
    for (const r of recorded) {
      assert.equal(r.origin, CUT_AS_OF);
      assert.equal(r.newest_draw_date, '2025-11-28');
      assert.equal(r.recorded_by, 'import');
      assert.equal(r.scored_at, null);
    }
    const cec = recorded.find((r) => r.category_id === 2 && r.horizon === 1)!;
    assert.deepEqual([cec.base_round_number, cec.base_date], ['381', '2025-11-26']);
    // The next draw's likely window is kept as served; later ranks have none.
    for (const r of recorded) {
      const p = predictions.find((x) => x.category_id === r.category_id && x.rank === r.horizon)!;
      assert.deepEqual(
        [r.likely_earliest, r.likely_latest, r.likely_probability],
        [p.likely_earliest, p.likely_latest, p.likely_probability],
      );
      assert.equal(r.likely_probability === null, r.horizon > 1, `${r.category_id}:${r.horizon}`);
    }
    assert.equal(cec.base_crs, Number(feed.rounds.find((r) => r.drawNumber === '381')!.drawCRS));
    const version = recorded[0].data_version;
    assert.equal(await recordServedForecasts(db(), { dataVersion: version, isDemo: false, recordedBy: 'request' }), 0);
    await importRounds(drawsContext(t.db, CUT_AS_OF), cutFile);
    assert.equal((await rows()).length, recorded.length, 'the same forecasts again are not recorded twice');
  });

  it('a later import scores them against the draws that came, in order per category', async () => {
    const before = (await rows()).length;
    await importRounds(drawsContext(t.db, SNAPSHOT_AS_OF), SNAPSHOT_FILE);
    const all = await rows();
    assert.ok(all.length > before, 'the new forecasts join the record');
    const old = all.filter((r) => r.origin === CUT_AS_OF);
    const expected: Record<string, string> = { '2:1': '384', '2:2': '387', '3:1': '383', '3:2': '386', '6:1': '388', '7:1': '385' };
    for (const [key, round] of Object.entries(expected)) {
      const [category, horizon] = key.split(':').map(Number);
      const r = old.find((x) => x.category_id === category && x.horizon === horizon);
      if (!r) continue; // a category forecast fewer ranks
      const draw = feed.rounds.find((d) => d.drawNumber === round)!;
      assert.deepEqual(
        [r.actual_round_number, r.actual_date, r.actual_crs, r.actual_invitations],
        [round, draw.drawDate, Number(draw.drawCRS), Number(draw.drawSize.replace(/,/g, ''))],
        key,
      );
      assert.ok(r.scored_at !== null);
    }
    const cec3 = old.find((r) => r.category_id === 2 && r.horizon === 3);
    assert.ok(cec3 && cec3.scored_at === null, 'no third CEC draw yet: not scored');
    assert.ok(old.filter((r) => r.scored_at !== null).length >= 6);
    assert.ok(all.filter((r) => r.origin === SNAPSHOT_AS_OF).every((r) => r.scored_at === null));
  });

  it('GET /api/track-record/ pages the forecasts beside what happened, with the running record per category', async () => {
    app = await buildTestApp(drawsService, drawsContext(t.db));
    const all = await rows();
    const res = await app.inject('/api/track-record/?limit=5');
    assert.equal(res.statusCode, 200);
    const body = res.json<Static<typeof TrackRecordResponse>>();
    assert.equal(body.count, all.length);
    assert.deepEqual(
      body.data.map((e) => e.id),
      all
        .map((r) => r.id)
        .reverse()
        .slice(0, 5),
    );
    const cec = (await app.inject('/api/track-record/?category=2&limit=500')).json<Static<typeof TrackRecordResponse>>();
    assert.ok(cec.data.every((e) => e.category_id === 2 && e.category_name === 'Canadian Experience Class'));
    const scored = cec.data.filter((e) => e.outcome !== null);
    assert.ok(scored.length >= 2);
    for (const e of scored) {
      assert.equal(e.outcome!.crs_error, e.forecast.crs_score - e.outcome!.crs_score);
      assert.equal(e.outcome!.naive_crs_error, e.base.crs_score - e.outcome!.crs_score);
    }
    const [summary] = cec.summary;
    assert.equal(summary.category_id, 2);
    assert.equal(summary.scored, scored.length);
    const mae = scored.reduce((s, e) => s + Math.abs(e.outcome!.crs_error), 0) / scored.length;
    const naive = scored.reduce((s, e) => s + Math.abs(e.outcome!.naive_crs_error), 0) / scored.length;
    assert.ok(Math.abs(summary.crs.mae! - mae) < 1e-9);
    assert.ok(Math.abs(summary.crs.naive_mae! - naive) < 1e-9);
    assert.ok(Math.abs(summary.crs.relative_mae! - mae / naive) < 1e-9);
    const inside = scored.filter((e) => e.outcome!.crs_inside).length / scored.length;
    assert.ok(Math.abs(summary.crs.coverage_95! - inside) < 1e-9);
    const winkler = scored.reduce((s, e) => s + e.outcome!.crs_interval_score, 0) / scored.length;
    assert.ok(Math.abs(summary.crs.interval_score! - winkler) < 1e-9);
    // The next draws' likely windows, scored: inside or not, and their stated probabilities against what happened.
    const windows = scored.filter((e) => e.forecast.likely_window !== null);
    assert.ok(windows.length >= 1 && windows.every((e) => e.horizon === 1));
    for (const e of scored)
      assert.equal(
        e.outcome!.likely_window_inside,
        e.forecast.likely_window === null
          ? null
          : e.outcome!.date >= e.forecast.likely_window.earliest && e.outcome!.date <= e.forecast.likely_window.latest,
      );
    const held = windows.filter((e) => e.outcome!.likely_window_inside).length / windows.length;
    assert.equal(summary.likely_window.n, windows.length);
    assert.ok(Math.abs(summary.likely_window.hit_rate! - held) < 1e-9);
    const brier = windows.reduce((s, e) => s + (e.forecast.likely_window!.probability - (e.outcome!.likely_window_inside ? 1 : 0)) ** 2, 0);
    assert.ok(Math.abs(summary.likely_window.brier_score! - brier / windows.length) < 1e-9);

    for (const [url, status, message] of [
      ['/api/track-record/?category=abc', 400, /category/],
      ['/api/track-record/?category=999', 404, /category 999 not found/],
      ['/api/track-record/?page=0', 400, /page/],
      ['/api/track-record/?limit=-1', 400, /limit/],
    ] as const) {
      const bad = await app.inject(url);
      assert.equal(bad.statusCode, status, url);
      assert.match(bad.json<{ error: string }>().error, message, url);
    }
    const openapi = (await app.inject('/openapi.json')).json<{ paths: Record<string, { get: { description: string } }> }>();
    assert.match(openapi.paths['/api/track-record/'].get.description, /Winkler/);
  });

  it('the page shows the record, linked from the home page', async () => {
    app ??= await buildTestApp(drawsService, drawsContext(t.db));
    assert.match((await app.inject('/')).body, /<a href="\/track-record">the track record<\/a>/);
    const page = await app.inject('/track-record?category=2');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<h1>Track record: Canadian Experience Class<\/h1>/);
    assert.match(page.body, /id="track-record-summary"/);
    assert.match(page.body, /Dec 10, 2025 \(round 384\)/);
    assert.match(page.body, /Likely three weeks \(probability\)/);
    assert.match(page.body, /Three weeks: stated, held/);
    assert.equal((await app.inject('/track-record?page=x')).statusCode, 400);
  });

  it('as of an earlier date, the record shows no later forecast and no draw after that date as an outcome', async () => {
    const asOf = '2025-12-05';
    const all = await rows();
    const later = all.filter((r) => r.origin <= asOf && r.actual_date !== null && r.actual_date > asOf);
    assert.ok(later.length > 0, 'some forecast of the record was scored by a draw after the as-of date');
    const replay = await buildTestApp(drawsService, drawsContext(t.db, asOf));
    try {
      const body = (await replay.inject('/api/track-record/?limit=500')).json<Static<typeof TrackRecordResponse>>();
      assert.equal(body.count, all.filter((r) => r.origin <= asOf).length);
      assert.ok(body.data.every((e) => e.origin <= asOf));
      assert.ok(body.data.every((e) => e.outcome === null || e.outcome.date <= asOf));
      for (const r of later) assert.equal(body.data.find((e) => e.id === r.id)?.outcome, null, `record ${r.id} waits`);
      const page = await replay.inject('/track-record');
      assert.equal(page.statusCode, 200);
      for (const r of later) assert.doesNotMatch(page.body, new RegExp(`round ${r.actual_round_number}\\)`));
    } finally {
      await replay.close();
    }
  });
});
