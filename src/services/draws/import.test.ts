// The importer on the real IRCC snapshot, on SQLite and PostgreSQL: every round in, categories and raw
// names, idempotence with stable ids, atomic failure, URL import, a changed feed, and stored forecasts
// that are deterministic for a fixed as-of date.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAggregate, listDataVersions } from '../../core/db/datasets.ts';
import { readJson } from '../../core/db/dialect.ts';
import { TruncatedSourceError } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { categoriseDrawName } from './feed/categories.ts';
import { dayNumber } from './feed/ircc-dates.ts';
import { parseRoundsFeed } from './feed/rounds-feed.ts';
import type { PoolDistribution } from './feed/pool-distribution.ts';
import { describeWithSnapshot, drawsContext, importSnapshot, SNAPSHOT_AS_OF, SNAPSHOT_FILE } from '../../../test/support/draws/context.ts';
import { readFeed, storedState, tempFile } from '../../../test/support/draws/files.ts';
import { fitForecasts } from './fit.ts';
import { importRounds } from './import.ts';
import { readForecasts } from './repository.ts';
import type { DrawsTables } from './tables.ts';

/** The categories of the snapshot: id, slug, draws, and every raw name with its count. Counted by hand from the feed. */
const EXPECTED_CATEGORIES: [number, string, number, Record<string, number>][] = [
  [1, 'general', 178, { General: 11, 'No Program Specified': 167 }],
  [2, 'cec', 53, { 'Canadian Experience Class': 53 }],
  [3, 'pnp', 95, { 'Provincial Nominee Program': 95 }],
  [4, 'fsw', 1, { 'Federal Skilled Worker': 1 }],
  [5, 'fst', 7, { 'Federal Skilled Trades': 7 }],
  [6, 'french', 26, { 'French language proficiency (Version 1)': 26 }],
  [7, 'healthcare', 13, { 'Healthcare and social services occupations (Version 2)': 7, 'Healthcare occupations (Version 1)': 6 }],
  [8, 'stem', 3, { 'STEM occupations (Version 1)': 3 }],
  [9, 'trade', 5, { 'Trade occupations (Version 1)': 4, 'Trade occupations (Version 2)': 1 }],
  [10, 'transport', 3, { 'Transport occupations (Version 1)': 3 }],
  [11, 'agriculture', 3, { 'Agriculture and agri-food occupations (Version 1)': 3 }],
  [12, 'education', 2, { 'Education occupations (Version 1)': 2 }],
];

describeWithSnapshot('draws import of the real IRCC snapshot', (t) => {
  let ctx: ServiceContext;
  let first: ImportReport;
  const db = () => t.db.kysely.withTables<DrawsTables>();
  const feed = () => readFeed();

  before(async () => {
    ctx = drawsContext(t.db);
    first = await importSnapshot(ctx);
  });

  it('reads 389 rounds and inserts every one of them', async () => {
    assert.equal(first.rows_read, 389);
    assert.equal(first.inserted, 389);
    assert.equal(first.skipped, 0);
    assert.equal(first.is_demo, false);
    const rows = await db().selectFrom('draws_draws').select(['round_number', 'round_sort_key']).execute();
    assert.equal(rows.length, 389);
    assert.deepEqual(new Set(rows.map((r) => r.round_number)), new Set(feed().rounds.map((r) => r.drawNumber)));
    const lettered = rows
      .filter((r) => /[a-z]$/.test(r.round_number))
      .map((r) => [r.round_number, Number(r.round_sort_key)])
      .sort();
    assert.deepEqual(lettered, [
      ['91a', 9101],
      ['91b', 9102],
    ]);
  });

  it('keeps every raw draw name verbatim on its draw', async () => {
    const rows = await db().selectFrom('draws_draws').select(['round_number', 'draw_name']).execute();
    const byRound = new Map(rows.map((r) => [r.round_number, r.draw_name]));
    for (const round of feed().rounds) assert.equal(byRound.get(round.drawNumber), round.drawName, `round ${round.drawNumber}`);
  });

  it('normalises names into the canonical categories with stable ids and the right draw counts', async () => {
    const categories = await db().selectFrom('draws_categories').selectAll().orderBy('id').execute();
    const draws = await db().selectFrom('draws_draws').select(['category_id', 'draw_name']).execute();
    const actual = categories.map((c) => {
      const mine = draws.filter((d) => Number(d.category_id) === Number(c.id));
      const names: Record<string, number> = {};
      for (const d of mine) names[d.draw_name] = (names[d.draw_name] ?? 0) + 1;
      return [Number(c.id), c.slug, mine.length, names];
    });
    assert.deepEqual(actual, EXPECTED_CATEGORIES);
    assert.ok(categories.every((c) => Boolean(c.is_active) && Boolean(c.is_known)));
    assert.equal(categories.find((c) => c.slug === 'healthcare')!.name, 'Healthcare and social services occupations');
  });

  it('computes days_since_last_draw within each category (0 on the same day, null for the first)', async () => {
    const rows = await db().selectFrom('draws_draws').select(['round_number', 'days_since_last_draw']).execute();
    const stored = new Map(rows.map((r) => [r.round_number, r.days_since_last_draw === null ? null : Number(r.days_since_last_draw)]));
    // Independently: walk each category's rounds in date order.
    const rounds = parseRoundsFeed(feed()).rounds.sort((a, b) => a.date.localeCompare(b.date) || a.roundSortKey - b.roundSortKey);
    const last = new Map<string, string>();
    let nulls = 0;
    for (const r of rounds) {
      const slug = categoriseDrawName(r.drawName).category.slug;
      const previous = last.get(slug);
      const expected = previous === undefined ? null : dayNumber(r.date) - dayNumber(previous);
      if (expected === null) nulls++;
      assert.equal(stored.get(r.roundNumber), expected, `round ${r.roundNumber}`);
      last.set(slug, r.date);
    }
    assert.equal(nulls, 12, 'one first draw per category');
    assert.equal(stored.get('388'), 19, 'French: 2025-11-28 → 2025-12-17');
  });

  it('keeps the pool distribution, cut-off, draw time and link of each round', async () => {
    const row = await db().selectFrom('draws_draws').selectAll().where('round_number', '=', '388').executeTakeFirstOrThrow();
    const pool = readJson<PoolDistribution>(row.pool_distribution);
    assert.equal(pool.asOn, '2025-12-14');
    assert.equal(pool.total, 237302);
    assert.equal(pool.bands.length, 18);
    assert.equal(pool.bands.find((b) => b.label === '451-500')!.candidates, 68700);
    assert.equal(row.tie_break_at, '2025-08-24T23:43:05Z');
    assert.equal(row.drawn_at, '2025-12-17T12:26:48Z');
    assert.match(row.url ?? '', /^https:\/\/www\.canada\.ca\/.*invitations\.html\?q=388$/);
    assert.equal(row.programs, 'Federal Skilled Worker Program, Canadian Experience Class and Federal Skilled Trades Program');
    const early = await db().selectFrom('draws_draws').select('tie_break_at').where('round_number', '=', '1').executeTakeFirstOrThrow();
    assert.equal(early.tie_break_at, null);
  });

  it("stores statistics and forecasts with the import's data version", async () => {
    const forecasts = await readForecasts(db());
    assert.ok(forecasts);
    assert.equal(forecasts.data_version, first.data_version);
    assert.equal(forecasts.value.rounds_version, first.data_version);
    assert.equal(forecasts.value.as_of, SNAPSHOT_AS_OF);
    assert.equal((await getAggregate(db(), 'draws', 'statistics'))?.data_version, first.data_version);
    const status = Object.fromEntries(forecasts.value.categories.map((c) => [c.slug, c.status]));
    assert.deepEqual(status, {
      general: 'dormant',
      cec: 'predicted',
      pnp: 'predicted',
      fsw: 'dormant',
      fst: 'dormant',
      french: 'predicted',
      healthcare: 'predicted',
      stem: 'dormant',
      trade: 'predicted',
      transport: 'dormant',
      agriculture: 'dormant',
      education: 'young',
    });
    const predictions = await db().selectFrom('draws_predictions').select(['category_id', 'rank', 'as_of', 'predicted_date']).execute();
    const predicted = new Set(predictions.map((p) => Number(p.category_id)));
    assert.deepEqual(
      [...predicted].sort((a, b) => a - b),
      [2, 3, 6, 7, 9, 12],
    );
    assert.ok(predictions.every((p) => p.as_of === SNAPSHOT_AS_OF && p.predicted_date > SNAPSHOT_AS_OF));
  });

  it('re-importing the same feed changes nothing: every round unchanged, same ids, same forecasts', async () => {
    const before = await storedState(db());
    const forecastsBefore = await readForecasts(db());
    const again = await importSnapshot(ctx);
    assert.deepEqual(
      [again.rows_read, again.inserted, again.updated, again.unchanged, again.deleted, again.skipped],
      [389, 0, 0, 389, 0, 0],
    );
    const after = await storedState(db());
    assert.deepEqual(after.draws, before.draws);
    assert.deepEqual(after.categories, before.categories);
    assert.deepEqual(after.predictions, before.predictions);
    const forecastsAfter = await readForecasts(db());
    assert.deepEqual({ ...forecastsAfter!.value, rounds_version: null }, { ...forecastsBefore!.value, rounds_version: null });
    assert.notEqual(after.versions[0].version, before.versions[0].version, 'a new data version is recorded');
  });

  it('a broken file fails with a clear error and leaves the old data', async () => {
    const before = await storedState(db());
    const text = fs.readFileSync(SNAPSHOT_FILE, 'utf8');
    await assert.rejects(
      importRounds(ctx, tempFile('truncated.json', text.slice(0, 5000))),
      (e: unknown) =>
        e instanceof TruncatedSourceError &&
        /truncated\.json is truncated: line \d+: the JSON document ends before it closes/.test(e.message),
    );
    await assert.rejects(importRounds(ctx, tempFile('other.json', '{"items": []}')), /other\.json is not the rounds feed/);
    await assert.rejects(importRounds(ctx, path.join(os.tmpdir(), 'no-such-feed.json')), /no such file/);
    assert.deepEqual(await storedState(db()), before);
  });

  it('reads the feed from a URL, and says so clearly when the address cannot be reached', async () => {
    const body = fs.readFileSync(SNAPSHOT_FILE);
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ee_rounds_123_en.json`;
      const report = await importRounds(ctx, url);
      assert.equal(report.source, url);
      assert.deepEqual([report.rows_read, report.unchanged], [389, 389]);
    } finally {
      server.close();
    }
    const before = await storedState(db());
    await assert.rejects(
      importRounds(ctx, 'http://127.0.0.1:1/ee_rounds_123_en.json', { timeoutMs: 2000 }),
      /Could not reach the rounds feed/,
    );
    assert.deepEqual(await storedState(db()), before);
  });

  it('fit recomputes exactly the same forecasts for the same as-of date, and moves them on for a later one', async () => {
    const stored = await readForecasts(db());
    const predictions = (await storedState(db())).predictions;
    const same = await fitForecasts(ctx, { asOf: SNAPSHOT_AS_OF });
    assert.equal(same.as_of, SNAPSHOT_AS_OF);
    assert.deepEqual((await storedState(db())).predictions, predictions);
    const refit = await readForecasts(db());
    assert.deepEqual(refit!.value, stored!.value, 'same data and as-of date: same stored forecasts, backtests and model scores');
    assert.notEqual(refit!.data_version, stored!.data_version, 'the refit is a new version of the forecasts');
    assert.ok((await listDataVersions(db(), 'draws')).some((v) => v.dataset === 'forecasts'));

    const later = await fitForecasts(ctx, { asOf: '2026-01-20' });
    assert.equal(later.as_of, '2026-01-20');
    assert.ok(later.recorded > 0, 'the fit keeps the forecasts it will serve in the track record');
    const kept = await db().selectFrom('draws_track_record').select(['origin', 'recorded_by']).where('origin', '=', '2026-01-20').execute();
    assert.equal(kept.length, later.recorded);
    assert.ok(kept.every((r) => r.recorded_by === 'fit'));
    const moved = (await storedState(db())).predictions;
    assert.ok(moved.length > 0 && moved.every((p) => p.as_of === '2026-01-20' && String(p.predicted_date) > '2026-01-20'));
    await fitForecasts(ctx, { asOf: SNAPSHOT_AS_OF });
    assert.deepEqual((await storedState(db())).predictions, predictions);
  });

  it('a changed feed: one round updated, one removed, one added under a new name that gets its own category', async () => {
    const before = await storedState(db());
    const changed = readFeed();
    const r388 = changed.rounds.find((r) => r.drawNumber === '388')!;
    r388.drawCRS = '401';
    changed.rounds = changed.rounds.filter((r) => r.drawNumber !== '387');
    changed.rounds.unshift({
      ...r388,
      drawNumber: '389',
      drawDate: '2025-12-17',
      drawName: 'Physicians with Canadian work experience (Version 1)',
      drawCRS: '455',
      drawSize: '1,000',
      drawNumberURL: '',
    });
    const report = await importRounds(ctx, tempFile('changed.json', JSON.stringify(changed)));
    assert.deepEqual([report.rows_read, report.inserted, report.updated, report.unchanged, report.deleted], [389, 1, 1, 387, 1]);
    const added = await db()
      .selectFrom('draws_draws as d')
      .innerJoin('draws_categories as c', 'c.id', 'd.category_id')
      .select(['c.id', 'c.slug', 'c.name', 'c.is_known', 'd.draw_name', 'd.url'])
      .where('d.round_number', '=', '389')
      .executeTakeFirstOrThrow();
    assert.ok(Number(added.id) >= 101, 'a new category gets an id after the known families');
    assert.equal(added.slug, 'physicians-with-canadian-work-experience');
    assert.equal(added.name, 'Physicians with Canadian work experience');
    assert.equal(Boolean(added.is_known), false);
    assert.equal(added.draw_name, 'Physicians with Canadian work experience (Version 1)');
    assert.equal(added.url, null);
    const kept = await db().selectFrom('draws_draws').select(['id', 'crs']).where('round_number', '=', '388').executeTakeFirstOrThrow();
    assert.equal(Number(kept.crs), 401);
    assert.equal(Number(kept.id), before.draws.find((d) => d.round_number === '388')!.id, 'an updated round keeps its id');

    // Back to the snapshot: the new category stays (inactive, same id), every other id is unchanged.
    const restored = await importSnapshot(ctx);
    assert.deepEqual([restored.inserted, restored.updated, restored.deleted], [1, 1, 1]);
    const categories = await db().selectFrom('draws_categories').select(['id', 'slug', 'is_active']).orderBy('id').execute();
    assert.deepEqual(
      categories.map((c) => [Number(c.id), c.slug, Boolean(c.is_active)]),
      [...EXPECTED_CATEGORIES.map(([id, slug]) => [id, slug, true]), [Number(added.id), 'physicians-with-canadian-work-experience', false]],
    );
    const ids = new Map(
      (await db().selectFrom('draws_draws').select(['id', 'round_number']).execute()).map((r) => [r.round_number, Number(r.id)]),
    );
    for (const d of before.draws) if (d.round_number !== '387') assert.equal(ids.get(d.round_number as string), d.id);
  });

  it('stores a NUL of the feed (the JSON escape \\u0000) as U+FFFD on both databases', async () => {
    const damaged = readFeed();
    damaged.rounds[0].drawName = `${damaged.rounds[0].drawName}\u0000`;
    await importRounds(ctx, tempFile('nul.json', JSON.stringify(damaged)));
    const row = await db()
      .selectFrom('draws_draws')
      .select('draw_name')
      .where('round_number', '=', damaged.rounds[0].drawNumber)
      .executeTakeFirstOrThrow();
    assert.equal(row.draw_name, damaged.rounds[0].drawName.replace('\u0000', '\uFFFD'));
    await importSnapshot(ctx);
  });
});
