// POST /api/krt/fetch/ and `pdi fetch krt` (fetchArticles), on SQLite and PostgreSQL, against a local server that
// plays bioRxiv's API and Europe PMC's REST API and serves real JATS files of ../shared/data/krt: the paper is
// stored and its author table extracted; an unknown DOI is a clear 404; a 503 of bioRxiv is retried; a paper only
// Europe PMC has comes from there; the admin token rules of the extraction route apply. An upstream that names a
// JATS file elsewhere (another port of this host), or redirects off the allowed hosts, gets nothing fetched.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import { Random } from '../../../core/random.ts';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../../test/support/databases.ts';
import { startSourceServer } from '../../../../test/support/sync/source-server.ts';
import type { SourceServer } from '../../../../test/support/sync/source-server.ts';
import { krtService } from '../service.ts';
import { fetchArticles } from '../sync.ts';

const TABLE_PAPER = '2020.08.31.275719'; // carries an author key resources table
const TEXT_PAPER = '2020.08.27.269738';
const UNKNOWN = '10.1101/2099.01.01.000001';
const gate = needsSharedData('krt', 'xml', '2020', `${TABLE_PAPER}.xml`);
const jats = (suffix: string) =>
  gate.problem ? Buffer.alloc(0) : fs.readFileSync(sharedData('krt', 'xml', suffix.slice(0, 4), `${suffix}.xml`));
const admin = { authorization: 'Bearer fetch-secret' };

describeEachDatabase(
  'krt fetch by DOI',
  (t) => {
    let server: SourceServer;
    // Not an upstream: what a hostile upstream would point the fetch at (a metrics page on another port).
    let victim: SourceServer;
    // An allowed host whose answers are redirects to the victim.
    let redirector: http.Server;
    let redirectorPort: number;
    let dir: string;
    let ctx: ServiceContext;
    let app: ServiceApp;
    const json = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)), contentType: 'application/json' });
    const noPosts = json({ messages: [{ status: 'no posts found' }], collection: [] });

    before(async () => {
      if (gate.problem && !gate.skip) throw new Error(gate.problem);
      server = await startSourceServer();
      victim = await startSourceServer();
      victim.put('/metrics', { body: Buffer.from('<article>secret</article>'), contentType: 'application/xml' });
      redirector = http.createServer((req, res) => {
        res.writeHead(302, { location: victim.url(req.url ?? '/') });
        res.end();
      });
      await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
      redirectorPort = (redirector.address() as AddressInfo).port;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-fetch-'));
      const env = {
        ...process.env,
        PDI_KRT_ADMIN_TOKEN: 'fetch-secret',
        PDI_SYNC_URL_KRT: server.url('/biorxiv'),
        PDI_SYNC_URL_KRT_EUROPEPMC: server.url('/epmc/'),
        PDI_SYNC_RETRIES: '2',
        // The fake upstreams listen on loopback; the redirector is an allowed host besides the endpoints' own.
        PDI_KRT_FETCH_ALLOW_PRIVATE: 'true',
        PDI_KRT_FETCH_HOSTS: `127.0.0.1:${redirectorPort}`,
      };
      ctx = testContext(krtService, t.db, { dataDir: dir, env });
      app = await buildTestApp(krtService, ctx);
      // bioRxiv: two versions of the table paper (the newest is fetched); nothing else, on either server.
      server.put(
        `/biorxiv/details/biorxiv/10.1101/${TABLE_PAPER}/na/json`,
        json({
          messages: [{ status: 'ok' }],
          collection: [
            { doi: `10.1101/${TABLE_PAPER}`, version: '1', jatsxml: server.url(`/content/${TABLE_PAPER}v1.source.xml`) },
            { doi: `10.1101/${TABLE_PAPER}`, version: '2', jatsxml: server.url(`/content/${TABLE_PAPER}v2.source.xml`) },
          ],
        }),
      );
      server.put(`/content/${TABLE_PAPER}v2.source.xml`, { body: jats(TABLE_PAPER), contentType: 'application/xml' });
      for (const doi of [UNKNOWN, `10.1101/${TEXT_PAPER}`]) {
        server.put(`/biorxiv/details/biorxiv/${doi}/na/json`, noPosts);
        server.put(`/biorxiv/details/medrxiv/${doi}/na/json`, noPosts);
      }
      // Europe PMC: the text paper as a preprint record with a full text; nothing for the unknown DOI.
      server.put(`/epmc/search`, json({ hitCount: 0, resultList: { result: [] } }));
      server.put(`/epmc/PPR123456/fullTextXML`, { body: jats(TEXT_PAPER), contentType: 'application/xml;charset=UTF-8' });
    });
    after(async () => {
      await app?.close();
      await server?.close();
      await victim?.close();
      await new Promise((resolve) => redirector?.close(resolve));
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('fetches a bioRxiv paper by DOI (a 503 retried), stores it and extracts its author table', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      server.fault(`/biorxiv/details/biorxiv/10.1101/${TABLE_PAPER}/na/json`, { status: 503 });
      const res = await app.inject({
        method: 'POST',
        url: '/api/api/krt/fetch/',
        payload: { doi: `https://doi.org/10.1101/${TABLE_PAPER}v2` },
        headers: admin,
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.doi, `10.1101/${TABLE_PAPER}`);
      assert.equal(body.source, 'biorxiv');
      assert.equal(body.jats_url, server.url(`/content/${TABLE_PAPER}v2.source.xml`));
      assert.equal(body.file_size, jats(TABLE_PAPER).length);
      assert.equal(body.import.inserted, 1);
      assert.ok(body.total_resources > 0, 'the author table was extracted');
      assert.ok(fs.existsSync(path.join(dir, 'krt', 'fetched', '2020', `${TABLE_PAPER}.xml`)));
      const table = await app.inject(`/api/krt/doi/10.1101/${TABLE_PAPER}/`);
      assert.equal(table.statusCode, 200);
      assert.equal(table.json().session_id, body.session_id);
      assert.equal(table.json().krt_data.length, body.total_resources);
      // Fetched again: the same file, nothing changes (the old address answers too).
      const again = await app.inject({
        method: 'POST',
        url: '/api/krt/fetch/',
        payload: { doi: `10.1101/${TABLE_PAPER}` },
        headers: admin,
      });
      assert.equal(again.statusCode, 200);
      assert.deepEqual([again.json().import.inserted, again.json().import.unchanged, again.json().session_id], [0, 1, body.session_id]);
    });

    it('an unknown DOI is a clear 404 naming where it was looked for; nothing is stored', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const res = await app.inject({ method: 'POST', url: '/api/api/krt/fetch/', payload: { doi: UNKNOWN }, headers: admin });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().success, false);
      assert.match(
        res.json().error,
        /^10\.1101\/2099\.01\.01\.000001 was not found with a full text: biorxiv .*no such DOI.*medrxiv .*Europe PMC \(no record with this DOI\)/,
      );
      assert.ok(!fs.existsSync(path.join(dir, 'krt', 'fetched', '2099')));
    });

    it('a paper bioRxiv does not have comes from Europe PMC; the command line fetches several DOIs and reports each', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      server.put(
        `/epmc/search`,
        json({ hitCount: 1, resultList: { result: [{ id: 'PPR123456', source: 'PPR', doi: `10.1101/${TEXT_PAPER}` }] } }),
      );
      const run = await fetchArticles(ctx, krtService.importers.store.run, [TEXT_PAPER, UNKNOWN], {
        download: { baseDelayMs: 5, maxDelayMs: 10, random: new Random(3) },
      });
      assert.deepEqual(
        run.papers.map((p) => [p.doi, p.source, p.url]),
        [[`10.1101/${TEXT_PAPER}`, 'europepmc', server.url('/epmc/PPR123456/fullTextXML')]],
      );
      assert.deepEqual(
        run.errors.map((e) => [e.doi, e.status]),
        [[UNKNOWN, 404]],
      );
      assert.equal(run.report?.inserted, 1);
      assert.equal(run.report?.unchanged, 1, 'the paper fetched before stays');
      const search = server.requests.filter((r) => r.path === '/epmc/search').at(-1)!;
      assert.ok(search.headers['user-agent']?.startsWith('pdi-fetch/'));
    });

    it('refuses: no token (401), a wrong one (403), a DOI outside 10.1101 (400), a source that keeps failing (502)', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const post = (payload: unknown, headers: Record<string, string> = admin) =>
        app.inject({ method: 'POST', url: '/api/api/krt/fetch/', payload: payload as object, headers });
      assert.equal((await post({ doi: UNKNOWN }, {})).statusCode, 401);
      assert.equal((await post({ doi: UNKNOWN }, { authorization: 'Bearer nope' })).statusCode, 403);
      const other = await post({ doi: '10.1038/nature12373' });
      assert.equal(other.statusCode, 400);
      assert.match(other.json().error, /DOIs 10\.1101\//);
      const broken = '10.1101/2099.02.02.000002';
      server.fault(`/biorxiv/details/biorxiv/${broken}/na/json`, { status: 500 }, { status: 500 }, { status: 500 });
      const failing = await post({ doi: broken });
      assert.equal(failing.statusCode, 502);
      assert.match(
        failing.json().error,
        /^GET http:\/\/127\.0\.0\.1:\d+\/biorxiv\/details\/biorxiv\/10\.1101\/2099\.02\.02\.000002\/na\/json: HTTP 500 Internal Server Error \(after 3 attempts\)$/,
      );
    });

    it('refuses a JATS file the upstream names on another host or port, and a redirect off the allowed hosts: nothing fetched', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const named = '10.1101/2099.03.03.000003';
      const redirected = '10.1101/2099.03.03.000004';
      const details = (doi: string, jatsxml: string) =>
        server.put(
          `/biorxiv/details/biorxiv/${doi}/na/json`,
          json({ messages: [{ status: 'ok' }], collection: [{ doi, version: '1', jatsxml }] }),
        );
      details(named, victim.url('/metrics'));
      details(redirected, `http://127.0.0.1:${redirectorPort}/metrics`);
      const before = fs.readdirSync(path.join(dir, 'krt', 'fetched'), { recursive: true }).sort();

      const post = (doi: string) => app.inject({ method: 'POST', url: '/api/krt/fetch/', payload: { doi }, headers: admin });
      const victimPort = new URL(victim.base).port;
      const direct = await post(named);
      assert.equal(direct.statusCode, 502, direct.body);
      assert.equal(
        direct.json().error,
        `${named}: bioRxiv's JATS file ${victim.url('/metrics')}: 127.0.0.1:${victimPort} is not an allowed host (PDI_KRT_FETCH_HOSTS); not fetched`,
      );
      const hop = await post(redirected);
      assert.equal(hop.statusCode, 502, hop.body);
      assert.equal(
        hop.json().error,
        `${redirected}: a redirect from 127.0.0.1:${redirectorPort}/metrics to ${victim.url('/metrics')}: ` +
          `127.0.0.1:${victimPort} is not an allowed host (PDI_KRT_FETCH_HOSTS); not fetched`,
      );
      assert.deepEqual(victim.requests, [], 'nothing was asked of the address the upstream named');
      assert.deepEqual(fs.readdirSync(path.join(dir, 'krt', 'fetched'), { recursive: true }).sort(), before, 'nothing was stored');
    });

    it('refuses a loopback upstream unless non-public addresses are allowed', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const strict = testContext(krtService, t.db, { dataDir: dir, env: { ...ctx.config.env, PDI_KRT_FETCH_ALLOW_PRIVATE: '' } });
      const seen = server.requests.length;
      const run = await fetchArticles(strict, krtService.importers.store.run, [TABLE_PAPER]);
      assert.deepEqual(run.errors, [
        {
          doi: `10.1101/${TABLE_PAPER}`,
          status: 502,
          error: `10.1101/${TABLE_PAPER}: ${new URL(server.base).host} resolves to 127.0.0.1, which is not a public address (PDI_KRT_FETCH_ALLOW_PRIVATE); not fetched`,
        },
      ]);
      assert.equal(server.requests.length, seen, 'no request was made');
    });

    it('answers 404 where the server has no admin token', async (c) => {
      if (gate.skip) return c.skip(gate.skip);
      const closed = await buildTestApp(
        krtService,
        testContext(krtService, t.db, { dataDir: dir, env: { ...process.env, PDI_KRT_ADMIN_TOKEN: '' } }),
      );
      const res = await closed.inject({ method: 'POST', url: '/api/api/krt/fetch/', payload: { doi: UNKNOWN }, headers: admin });
      assert.equal(res.statusCode, 404);
      assert.match(res.json().error, /not enabled/);
      await closed.close();
    });
  },
  { migrations: krtService.migrations },
);
