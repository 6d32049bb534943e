// Keeping the data current, end to end, without the internet: a source server on 127.0.0.1 serves IRCC's real rounds feed (from
// ../shared/data/draws) and misbehaves on demand; `runSync` downloads it and imports it through D's own importer.
// Asserted on SQLite and PostgreSQL: the data is imported once and left alone on a 304; a changed ETag brings the
// new file; a 500 is retried and the file then imported; a body cut short, an HTML page and a file that would delete
// most rounds are refused with nothing lost; two instances run the schedule once; /api/sync-status/ and /metrics
// show when the data was last confirmed and whether it is stale. The French feed (ee_rounds_123_fr.json) is fetched
// beside the English one: missing or failing, it is a warning and the English import stands; served, it is imported
// once, left alone on a 304 and resumed with If-Range when cut.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/core/db/database.ts';
import type { Db } from '../src/core/db/database.ts';
import { serviceDataVersion } from '../src/core/db/datasets.ts';
import { Random } from '../src/core/random.ts';
import type { ServiceContext } from '../src/core/service.ts';
import { runSync } from '../src/core/sync/run.ts';
import type { SyncRunOptions } from '../src/core/sync/run.ts';
import { SyncScheduler } from '../src/core/sync/scheduler.ts';
import { resolveSyncFiles } from '../src/core/sync/source.ts';
import { readSyncState } from '../src/core/sync/state.ts';
import type { SyncStatus } from '../src/core/sync/status.ts';
import { drawsService } from '../src/services/draws/service.ts';
import { drawsSync } from '../src/services/draws/sync.ts';
import type { DrawsTables } from '../src/services/draws/tables.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase, needsSharedData, sharedData } from './support/databases.ts';
import { startSourceServer } from './support/sync/source-server.ts';
import type { SourceServer } from './support/sync/source-server.ts';

const SNAPSHOT = 'ee_rounds_123_en.2025-12-17.json';
const FEED_PATH = '/content/dam/ircc/documents/json/ee_rounds_123_en.json';
const FRENCH_PATH = '/content/dam/ircc/documents/json/ee_rounds_123_fr.json';
const gate = needsSharedData('draws', SNAPSHOT);
const feed = gate.skip || gate.problem ? Buffer.alloc(0) : fs.readFileSync(sharedData('draws', SNAPSHOT));

/** The real feed with its rounds changed by `edit` (a new file, so a new ETag). */
function feedWith(edit: (rounds: unknown[]) => unknown[]): Buffer {
  const document = JSON.parse(feed.toString('utf8')) as { rounds: unknown[] };
  return Buffer.from(JSON.stringify({ ...document, rounds: edit(document.rounds) }));
}

describeEachDatabase(
  'sync of D from a local IRCC feed',
  (t) => {
    let server: SourceServer;
    let dir: string;
    let ctx: ServiceContext;
    const env = () => ({ ...process.env, PDI_SYNC_URL_DRAWS: server.url(FEED_PATH), PDI_DRAWS_AS_OF: '2025-12-17' });
    const runOptions: SyncRunOptions = {
      download: { retries: 3, baseDelayMs: 5, maxDelayMs: 20, headersMs: 3000, idleMs: 3000, random: new Random(7) },
    };
    const sync = (extra: SyncRunOptions = {}) => runSync(ctx, drawsService, drawsSync, { ...runOptions, ...extra });
    const feedRequests = () => server.requests.filter((r) => r.path === FEED_PATH);
    const stored = async () => {
      const draws = t.db.kysely.withTables<DrawsTables>();
      const rounds = Number(
        (
          await draws
            .selectFrom('draws_draws')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const runs = await t.db.kysely.selectFrom('import_runs').select(['status', 'error']).orderBy('id').execute();
      return { rounds, version: await serviceDataVersion(t.db.kysely, 'draws'), runs };
    };

    before(async () => {
      if (gate.problem && !gate.skip) throw new Error(gate.problem);
      server = await startSourceServer();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-sync-'));
      ctx = testContext(drawsService, t.db, { dataDir: dir, env: env() });
    });
    after(async () => {
      await server?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('imports the feed once (through a stalled first answer and a slow body), then a 304 changes nothing', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      server.put(FEED_PATH, { body: feed, contentType: 'application/json', lastModified: 'Wed, 17 Dec 2025 16:00:00 GMT' });
      server.fault(FEED_PATH, { stallMs: 3500 }, { chunkDelayMs: 20, chunkBytes: 100_000 });
      const first = await sync();
      assert.equal(first.result, 'imported', first.files[0].error ?? '');
      assert.equal(first.files[0].http?.attempts, 2, 'the stalled answer was given up and asked for again');
      assert.equal(first.files[0].reports[0].inserted, 389);
      // this server has no French feed: a warning, and the English import stands
      assert.deepEqual([first.files[1].name, first.files[1].url, first.files[1].result], ['rounds_fr', server.url(FRENCH_PATH), 'failed']);
      assert.equal(first.warnings.length, 1);
      assert.match(first.warnings[0], /^rounds_fr: GET .*ee_rounds_123_fr\.json: .*404/);
      const after1 = await stored();
      assert.equal(after1.rounds, 389);
      assert.deepEqual(
        after1.runs.map((r) => r.status),
        ['succeeded'],
      );
      const copies = fs.readdirSync(path.join(dir, 'sync', 'draws', 'versions'));
      assert.equal(copies.length, 1);
      assert.ok(fs.existsSync(path.join(dir, 'sync', 'draws', 'versions', copies[0], 'ee_rounds_123_en.json')));

      const second = await sync();
      assert.equal(second.result, 'not-modified');
      const conditional = feedRequests().at(-1)!;
      assert.equal(conditional.status, 304);
      assert.equal(conditional.headers['if-none-match'], first.files[0].http?.etag);
      assert.equal(conditional.headers['if-modified-since'], 'Wed, 17 Dec 2025 16:00:00 GMT');
      const after2 = await stored();
      assert.deepEqual(after2, after1, 'a 304 imports nothing: same rounds, same data version, no import run');
    });

    it('a changed ETag brings the new file, asked for with the old one', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const before = await stored();
      const oldEtag = (await t.db.kysely.selectFrom('sync_files').select('etag').executeTakeFirstOrThrow()).etag;
      server.put(FEED_PATH, { body: feedWith((rounds) => rounds.slice(1)), contentType: 'application/json' });
      const report = await sync();
      assert.equal(report.result, 'imported', report.files[0].error ?? '');
      assert.equal(feedRequests().at(-1)!.headers['if-none-match'], oldEtag);
      assert.equal(report.files[0].reports[0].deleted, 1);
      const after = await stored();
      assert.equal(after.rounds, 388);
      assert.notEqual(after.version, before.version);
      const etag = (await t.db.kysely.selectFrom('sync_files').select('etag').executeTakeFirstOrThrow()).etag;
      assert.notEqual(etag, oldEtag);
    });

    it('a 500 is retried, then the file is imported', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      server.put(FEED_PATH, { body: feed, contentType: 'application/json' });
      server.fault(FEED_PATH, { status: 500 });
      const count = feedRequests().length;
      const report = await sync();
      assert.equal(report.result, 'imported', report.files[0].error ?? '');
      assert.equal(report.files[0].http?.attempts, 2);
      assert.deepEqual(
        feedRequests()
          .slice(count)
          .map((r) => r.status),
        [500, 200],
      );
      assert.equal((await stored()).rounds, 389);
    });

    it('a body cut short is refused with nothing lost: a broken connection after the retries, a cut without length by the importer', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const before = await stored();
      // The publisher offers no ranges here: each attempt starts again and is cut again.
      server.put(FEED_PATH, { body: feed, contentType: 'application/json', ranges: false });
      server.fault(FEED_PATH, ...Array.from({ length: 4 }, () => ({ cutAfter: 200_000 })));
      const broken = await sync({ force: true });
      assert.equal(broken.result, 'failed');
      assert.match(broken.files[0].error ?? '', /the connection broke after 200000 bytes .*\(after 4 attempts\); nothing was imported/);
      assert.deepEqual(await stored(), before);
      assert.ok(!fs.existsSync(path.join(dir, 'sync', 'draws', 'ee_rounds_123_en.json.part')));

      // Cut without a Content-Length, the download cannot tell: the importer does (the JSON document does not close).
      server.fault(FEED_PATH, { cutAfter: 300_000, chunked: true });
      const cut = await sync({ force: true });
      assert.equal(cut.result, 'refused');
      assert.match(cut.files[0].error ?? '', /is truncated: line \d+/);
      const after = await stored();
      assert.deepEqual([after.rounds, after.version], [before.rounds, before.version]);
      assert.deepEqual(after.runs, before.runs, 'refused before its import began');
      assert.equal(fs.statSync(path.join(dir, 'sync', 'draws', 'refused', 'ee_rounds_123_en.json')).size, 300_000, 'kept for inspection');
      const state = await readSyncState(t.db.kysely, 'draws');
      assert.deepEqual([state?.last_result, state?.consecutive_failures], ['refused', 2]);
    });

    it('an HTML page served instead of the feed is refused at once', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const before = await stored();
      const count = feedRequests().length;
      server.fault(FEED_PATH, { contentType: 'text/html; charset=utf-8' });
      const report = await sync({ force: true });
      assert.equal(report.result, 'failed');
      assert.match(
        report.files[0].error ?? '',
        /^GET http:\/\/127\.0\.0\.1:\d+\/content\/dam\/ircc\/documents\/json\/ee_rounds_123_en\.json: the answer is text\/html/,
      );
      assert.equal(feedRequests().length - count, 1, 'not retried');
      assert.deepEqual(await stored(), before);
    });

    it('a feed that would delete most rounds is refused by the import guard, with nothing lost', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const before = await stored();
      server.put(FEED_PATH, { body: feedWith((rounds) => rounds.slice(0, 10)), contentType: 'application/json' });
      const report = await sync();
      assert.equal(report.result, 'refused');
      assert.match(report.files[0].error ?? '', /would delete 379 of the 389 stored draws\/rounds records/);
      const after = await stored();
      assert.deepEqual([after.rounds, after.version], [before.rounds, before.version]);
      // The refused file's ETag is not kept: once the publisher fixes the file, the next sync asks for it again.
      server.put(FEED_PATH, { body: feed, contentType: 'application/json', ranges: false });
      const fixed = await sync();
      assert.equal(fixed.result, 'not-modified', 'the fixed file is the one stored');
    });

    it('the schedule runs once across two instances on the same database', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      let second: Db | null = null;
      try {
        second = openDatabase(t.url);
        const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-sync-b-'));
        const ctxB = testContext(drawsService, second, { dataDir: otherDir, env: env() });
        server.put(FEED_PATH, { body: feedWith((rounds) => rounds.slice(2)), contentType: 'application/json' });
        const before = await stored();
        const count = feedRequests().length;
        const every = 3_600_000;
        const a = new SyncScheduler(ctx, drawsService, drawsSync, { everyMs: every, random: new Random(1), run: runOptions });
        const b = new SyncScheduler(ctxB, drawsService, drawsSync, { everyMs: every, random: new Random(2), run: runOptions });
        const now = new Date();
        const results = await Promise.all([a.tick(now), b.tick(now)]);
        assert.equal(results.filter((r) => r === 'ran').length, 1, `one instance ran: ${results.join(', ')}`);
        assert.equal(feedRequests().length - count, 1, 'one download');
        const after = await stored();
        assert.equal(
          after.runs.filter((r) => r.status === 'succeeded').length - before.runs.filter((r) => r.status === 'succeeded').length,
          1,
        );
        assert.equal(after.rounds, 387);
        const state = await readSyncState(t.db.kysely, 'draws');
        const next = Date.parse(state!.next_run_at!) - now.getTime();
        assert.ok(next >= every && next <= every * 1.1, `next run in ${next} ms: the period plus at most 10% jitter`);
        assert.equal(state!.lease_holder, null, 'the lease is let go');
        assert.deepEqual(await Promise.all([a.tick(), b.tick()]), ['not-due', 'not-due']);
        assert.equal(feedRequests().length - count, 1);
        await Promise.all([a.stop(), b.stop()]);
        fs.rmSync(otherDir, { recursive: true, force: true });
      } finally {
        await second?.close();
      }
    });

    it('/api/sync-status/ and /metrics show the last sync, the source and whether the data is stale', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const fresh = await buildTestApp(
        drawsService,
        testContext(drawsService, t.db, { dataDir: dir, env: { ...env(), PDI_SYNC_STALE_AFTER: '1d' } }),
      );
      const status = (await fresh.inject('/api/sync-status/')).json<SyncStatus>();
      assert.equal(status.data.stale, false);
      assert.equal(status.data.is_demo, false);
      assert.equal(status.data.stale_after_seconds, 86_400);
      assert.equal(status.sync.last_result, 'imported');
      assert.equal(status.sync.last_error, null, 'the missing French feed is a warning, not an error');
      assert.equal(status.sync.last_warnings.length, 1);
      assert.match(status.sync.last_warnings[0], /^rounds_fr: .*404/);
      assert.equal(status.sync.state, 'idle');
      assert.equal(status.sync.consecutive_failures, 0);
      assert.equal(status.sync.sources[0].url, server.url(FEED_PATH));
      assert.match(status.sync.sources[0].etag ?? '', /^"[0-9a-f]{40}"$/);
      assert.equal(status.data.confirmed_at, status.sync.last_success_at);
      assert.ok(status.sync.next_run_at, 'the schedule set the next run');
      await fresh.close();

      await new Promise((resolve) => setTimeout(resolve, 20));
      const stale = await buildTestApp(
        drawsService,
        testContext(drawsService, t.db, { dataDir: dir, env: { ...env(), PDI_SYNC_STALE_AFTER_DRAWS: '10ms' } }),
      );
      const old = (await stale.inject('/api/sync-status/')).json<SyncStatus>();
      assert.equal(old.data.stale, true);
      assert.ok(old.data.age_seconds !== null && old.data.age_seconds >= 0);
      const metrics = (await stale.inject('/metrics')).body;
      assert.match(metrics, /pdi_data_stale\{service="draws"\} 1/);
      const success = /pdi_sync_last_success_timestamp_seconds\{service="draws"\} ([\d.e+]+)/.exec(metrics);
      assert.ok(success, 'the last success is exported');
      assert.equal(Number(success[1]), Date.parse(old.sync.last_success_at!) / 1000);
      assert.match(metrics, /pdi_sync_last_attempt_success\{service="draws"\} 1/);
      assert.match(metrics, /pdi_sync_last_warnings\{service="draws"\} 1/, 'the missing French feed');
      assert.match(metrics, /pdi_sync_next_run_timestamp_seconds\{service="draws"\} /);
      await stale.close();
    });

    it(
      'a body that trickles in is given up at the deadline (PDI_SYNC_DEADLINE, or the option), with nothing lost',
      { timeout: 30_000 },
      async (c) => {
        if (gate.skip) return c.skip(gate.skip);
        const before = await stored();
        for (const [extraEnv, extra, shown] of [
          [{ PDI_SYNC_DEADLINE: '700ms' }, {}, '700ms'],
          [{ PDI_SYNC_DEADLINE: '1h' }, { deadlineMs: 600 }, '600ms'],
        ] as const) {
          const slowCtx = testContext(drawsService, t.db, { dataDir: dir, env: { ...env(), ...extraEnv } });
          server.fault(FEED_PATH, { chunkDelayMs: 100, chunkBytes: 1 });
          const started = Date.now();
          const report = await runSync(slowCtx, drawsService, drawsSync, { ...runOptions, force: true, ...extra });
          assert.ok(Date.now() - started < 5000, `gave up after ${Date.now() - started} ms`);
          assert.equal(report.result, 'failed');
          assert.match(report.files[0].error ?? '', new RegExp(`not finished within the deadline of ${shown}; nothing was imported`));
        }
        const after = await stored();
        assert.equal(after.rounds, before.rounds);
        assert.equal(after.version, before.version);
        assert.equal((await readSyncState(t.db.kysely, 'draws'))!.lease_holder, null, 'the lease is let go');
      },
    );

    it('a lease held by a dead process of this host is taken over at once; a live or remote holder is not', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const child = spawnSync(process.execPath, ['-e', '0']);
      assert.equal(child.status, 0);
      const hold = async (holder: string) =>
        t.db.kysely
          .updateTable('sync_state')
          .set({ lease_holder: holder, lease_since: new Date().toISOString(), lease_until: new Date(Date.now() + 600_000).toISOString() })
          .where('service', '=', 'draws')
          .execute();
      for (const holder of [`${os.hostname()}:${process.pid}:0a0a0a`, `another-host.example:${child.pid}:0b0b0b`]) {
        await hold(holder);
        await assert.rejects(sync(), /a sync of draws is already running/, holder);
        assert.equal((await readSyncState(t.db.kysely, 'draws'))!.lease_holder, holder);
      }
      const dead = `${os.hostname()}:${child.pid}:0c0c0c`;
      await hold(dead);
      const report = await sync();
      assert.ok(['not-modified', 'unchanged', 'imported'].includes(report.result), report.result);
      assert.equal((await readSyncState(t.db.kysely, 'draws'))!.lease_holder, null, 'the lease is let go');
    });
  },
  { migrations: drawsService.migrations },
);

/** A French feed made from the English snapshot: IRCC's French feed has the English one's keys, its texts in French. */
const FRENCH_NAMES: Record<string, string> = {
  'Canadian Experience Class': 'Catégorie de l’expérience canadienne',
  'Provincial Nominee Program': 'Programme des candidats des provinces',
  'French language proficiency (Version 1)': 'Compétence linguistique en français (version 1)',
};
function frenchFeed(): Buffer {
  return feedWith((rounds) =>
    (rounds as Array<Record<string, string>>).map((r) => ({ ...r, drawName: FRENCH_NAMES[r.drawName] ?? r.drawName })),
  );
}

it('the French feed is found beside the English file PDI_SYNC_URL_DRAWS names, or in the folder it names', () => {
  const urls = (address?: string) => resolveSyncFiles(drawsSync, {}, address).map((f) => [f.name, f.url]);
  assert.deepEqual(urls(), [
    ['rounds', 'https://www.canada.ca/content/dam/ircc/documents/json/ee_rounds_123_en.json'],
    ['rounds_fr', 'https://www.canada.ca/content/dam/ircc/documents/json/ee_rounds_123_fr.json'],
  ]);
  assert.deepEqual(urls('http://mirror.example/ircc/feed_en.json?k=1'), [
    ['rounds', 'http://mirror.example/ircc/feed_en.json?k=1'],
    ['rounds_fr', 'http://mirror.example/ircc/feed_fr.json?k=1'],
  ]);
  assert.deepEqual(urls('http://mirror.example/ircc/rounds.json'), [
    ['rounds', 'http://mirror.example/ircc/rounds.json'],
    ['rounds_fr', 'http://mirror.example/ircc/ee_rounds_123_fr.json'],
  ]);
  assert.deepEqual(urls('http://mirror.example/ircc/'), [
    ['rounds', 'http://mirror.example/ircc/ee_rounds_123_en.json'],
    ['rounds_fr', 'http://mirror.example/ircc/ee_rounds_123_fr.json'],
  ]);
});

describeEachDatabase(
  'sync of D from a local IRCC feed in English and French',
  (t) => {
    let server: SourceServer;
    let dir: string;
    let ctx: ServiceContext;
    const runOptions: SyncRunOptions = {
      download: { retries: 3, baseDelayMs: 5, maxDelayMs: 20, headersMs: 3000, idleMs: 3000, random: new Random(11) },
    };
    const sync = (extra: SyncRunOptions = {}) => runSync(ctx, drawsService, drawsSync, { ...runOptions, ...extra });
    const frenchRequests = () => server.requests.filter((r) => r.path === FRENCH_PATH);
    const frenchNames = async () =>
      new Map(
        (await t.db.kysely.withTables<DrawsTables>().selectFrom('draws_draws').select(['round_number', 'draw_name_fr']).execute()).map(
          (r) => [r.round_number, r.draw_name_fr],
        ),
      );
    const status = async () => {
      const app = await buildTestApp(drawsService, ctx);
      try {
        return (await app.inject('/api/sync-status/')).json<SyncStatus>();
      } finally {
        await app.close();
      }
    };

    before(async () => {
      if (gate.problem && !gate.skip) throw new Error(gate.problem);
      server = await startSourceServer();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-sync-fr-'));
      ctx = testContext(drawsService, t.db, {
        dataDir: dir,
        env: { ...process.env, PDI_SYNC_URL_DRAWS: server.url(FEED_PATH), PDI_DRAWS_AS_OF: '2025-12-17' },
      });
    });
    after(async () => {
      await server?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('imports the English feed, then the French one beside it; a second sync is two 304s', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      server.put(FEED_PATH, { body: feed, contentType: 'application/json' });
      server.put(FRENCH_PATH, { body: frenchFeed(), contentType: 'application/json; charset=utf-8' });
      const first = await sync();
      assert.deepEqual(
        first.files.map((f) => [f.name, f.result, f.error]),
        [
          ['rounds', 'imported', null],
          ['rounds_fr', 'imported', null],
        ],
      );
      assert.deepEqual(first.warnings, []);
      assert.equal(first.files[1].url, server.url(FRENCH_PATH));
      const english = JSON.parse(feed.toString('utf8')) as { rounds: Array<Record<string, string>> };
      const translated = english.rounds.filter((r) => r.drawName in FRENCH_NAMES);
      assert.ok(translated.length > 0);
      assert.equal(first.files[1].reports[0].updated, english.rounds.length);
      const names = await frenchNames();
      for (const r of translated) assert.equal(names.get(r.drawNumber), FRENCH_NAMES[r.drawName], `round ${r.drawNumber}`);
      const versions = path.join(dir, 'sync', 'draws', 'versions');
      const copies = fs.readdirSync(versions).flatMap((stamp) => fs.readdirSync(path.join(versions, stamp)));
      assert.deepEqual(copies.sort(), ['ee_rounds_123_en.json', 'ee_rounds_123_fr.json'], 'one copy of each file is kept');

      const second = await sync();
      assert.deepEqual(
        second.files.map((f) => f.result),
        ['not-modified', 'not-modified'],
      );
      const conditional = frenchRequests().at(-1)!;
      assert.equal(conditional.status, 304);
      assert.equal(conditional.headers['if-none-match'], first.files[1].http?.etag);
      const state = await status();
      assert.deepEqual(state.sync.sources.map((s) => s.name).sort(), ['rounds', 'rounds_fr']);
      assert.deepEqual([state.sync.last_error, state.sync.last_warnings], [null, []]);
    });

    it('a French feed cut short is resumed with If-Range', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      server.fault(FRENCH_PATH, { cutAfter: 200_000 });
      const report = await sync({ force: true });
      assert.equal(report.files[1].result, 'imported', report.files[1].error ?? '');
      assert.equal(report.files[1].http?.attempts, 2);
      assert.equal(report.files[1].http?.resumed_bytes, report.files[1].http!.bytes! - 200_000, 'the rest only');
      const resumed = frenchRequests().at(-1)!;
      assert.equal(resumed.headers.range, 'bytes=200000-');
      assert.equal(resumed.headers['if-range'], report.files[1].http?.etag);
      assert.equal(resumed.status, 206);
    });

    it('a French feed that keeps failing is a warning: the new English feed is imported and the sync succeeds', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const before = await readSyncState(t.db.kysely, 'draws');
      const namesBefore = await frenchNames();
      server.put(FEED_PATH, { body: feedWith((rounds) => rounds.slice(1)), contentType: 'application/json' });
      server.put(FRENCH_PATH, { body: frenchFeed(), contentType: 'application/json' });
      server.fault(FRENCH_PATH, ...Array.from({ length: 4 }, () => ({ status: 503 })));
      const report = await sync();
      assert.equal(report.result, 'imported');
      assert.equal(report.files[0].reports[0].deleted, 1);
      assert.equal(report.files[1].result, 'failed');
      assert.equal(report.warnings.length, 1);
      assert.match(report.warnings[0], /^rounds_fr: GET .*ee_rounds_123_fr\.json: .*503.*\(after 4 attempts\)/);
      const names = await frenchNames();
      assert.equal(names.size, namesBefore.size - 1);
      for (const [round, name] of names) assert.equal(name, namesBefore.get(round), 'the French texts are kept');

      const state = await status();
      assert.equal(state.sync.last_result, 'imported');
      assert.equal(state.sync.last_error, null);
      assert.equal(state.sync.last_warnings.length, 1);
      assert.match(state.sync.last_warnings[0], /^rounds_fr: .*503/);
      assert.equal(state.sync.consecutive_failures, 0);
      assert.ok(state.sync.last_success_at! > before!.last_success_at!, 'a success');

      // once the French feed is served again, the next sync asks for it (the stored copy is still current) and the warning is gone
      const count = frenchRequests().length;
      const next = await sync();
      assert.deepEqual(
        next.files.map((f) => f.result),
        ['not-modified', 'not-modified'],
      );
      assert.equal(frenchRequests().length - count, 1);
      assert.deepEqual((await status()).sync.last_warnings, []);
    });
  },
  { migrations: drawsService.migrations },
);
