// A's sync, on SQLite and PostgreSQL: two files from a folder the deployment names (there is no official address of
// these JSON files), each conditional on its own validators and imported by its own importer (toolkit, sign); the
// real files of ../shared/data/oral served by a local server.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listDataVersions } from '../../core/db/datasets.ts';
import { Random } from '../../core/random.ts';
import type { ServiceContext } from '../../core/service.ts';
import { runSync } from '../../core/sync/run.ts';
import { readSyncStatus } from '../../core/sync/status.ts';
import { testContext } from '../../../test/support/app.ts';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { startSourceServer } from '../../../test/support/sync/source-server.ts';
import type { SourceServer } from '../../../test/support/sync/source-server.ts';
import { oralService } from './service.ts';
import { oralSync } from './sync.ts';

const gate = needsSharedData('oral', 'uk_guidelines.json');
const read = (name: string) => (gate.problem ? Buffer.alloc(0) : fs.readFileSync(sharedData('oral', name)));

describeEachDatabase(
  'sync of A from a folder of its files',
  (t) => {
    let server: SourceServer;
    let dir: string;
    let ctx: ServiceContext;
    const download = { retries: 2, baseDelayMs: 5, maxDelayMs: 10, random: new Random(5) };

    before(async () => {
      if (gate.problem && !gate.skip) throw new Error(gate.problem);
      server = await startSourceServer();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-sync-oral-'));
      ctx = testContext(oralService, t.db, { dataDir: dir, env: { ...process.env, PDI_SYNC_URL_ORAL: server.url('/mirror/oral') } });
      server.put('/mirror/oral/uk_guidelines.json', { body: read('uk_guidelines.json'), contentType: 'application/json' });
      server.put('/mirror/oral/sign138_recommendations.json', {
        body: read('sign138_recommendations.json'),
        contentType: 'application/json',
      });
    });
    after(async () => {
      await server?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('without an address it says there is no official one and what to set', async () => {
      const bare = testContext(oralService, t.db, { dataDir: dir, env: { ...process.env, PDI_SYNC_URL_ORAL: '' } });
      await assert.rejects(
        runSync(bare, oralService, oralSync),
        /oral has no default source address\. GOV\.UK and SIGN .* Set PDI_SYNC_URL_ORAL or pass --source URL/,
      );
    });

    it('fetches both files, imports each with its importer, then answers 304 for both', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const first = await runSync(ctx, oralService, oralSync, { download });
      assert.deepEqual(
        first.files.map((f) => [f.name, f.result, f.reports.map((r) => r.dataset)]),
        [
          ['toolkit', 'imported', ['toolkit']],
          ['sign', 'imported', ['sign138']],
        ],
      );
      assert.ok(first.files.every((f) => f.reports[0].inserted > 0));
      const versions = await listDataVersions(t.db.kysely, 'oral');
      const second = await runSync(ctx, oralService, oralSync, { download });
      assert.deepEqual(
        second.files.map((f) => f.result),
        ['not-modified', 'not-modified'],
      );
      assert.deepEqual(await listDataVersions(t.db.kysely, 'oral'), versions);
    });

    it('a changed file is imported alone, after a 500; the other stays as it was', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const before = new Map((await listDataVersions(t.db.kysely, 'oral')).map((v) => [v.dataset, v.version]));
      const sign = JSON.parse(read('sign138_recommendations.json').toString('utf8')) as { recommendations: unknown[] };
      server.put('/mirror/oral/sign138_recommendations.json', {
        body: Buffer.from(JSON.stringify({ ...sign, recommendations: [...sign.recommendations].reverse() })),
        contentType: 'application/json',
      });
      server.fault('/mirror/oral/sign138_recommendations.json', { status: 500 });
      const report = await runSync(ctx, oralService, oralSync, { download });
      assert.deepEqual(
        report.files.map((f) => [f.name, f.result, f.http?.attempts]),
        [
          ['toolkit', 'not-modified', 1],
          ['sign', 'imported', 2],
        ],
      );
      const after = new Map((await listDataVersions(t.db.kysely, 'oral')).map((v) => [v.dataset, v.version]));
      assert.equal(after.get('toolkit'), before.get('toolkit'));
      assert.ok(after.get('sign138') && before.get('sign138'));
      assert.notEqual(after.get('sign138'), before.get('sign138'));
      const status = await readSyncStatus(t.db.kysely, 'oral', ctx.config.env);
      assert.deepEqual(
        status.sync.sources.map((s) => [s.name, s.url]),
        [
          ['sign', server.url('/mirror/oral/sign138_recommendations.json')],
          ['toolkit', server.url('/mirror/oral/uk_guidelines.json')],
        ],
      );
      assert.equal(status.data.stale, false);
    });
  },
  { migrations: oralService.migrations },
);
