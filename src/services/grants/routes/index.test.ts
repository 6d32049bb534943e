// Service C's app as a whole on SQLite and PostgreSQL: every endpoint at both addresses, cached with an ETag;
// the OpenAPI document; and, on a database without data, 503s and then the demo data's labels.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { tempDir } from '../../../../test/support/grants/files.ts';
import { listDataVersions } from '../../../core/db/datasets.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { loadGrantsDemo } from '../demo.ts';
import { OLD, SPEC, grantsHttp } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';

describeEachDatabase(
  'grants HTTP app',
  (t) => {
    const h = grantsHttp(t);
    const { get } = h;

    describe('answers', () => {
      it('serves every endpoint at the spec address and the old address, cached for 5 minutes with an ETag', async () => {
        for (const name of ['stats', 'search', 'recipients', 'comprehensive-stats', `grants/${h.rows[0].id}`]) {
          const spec = await get(`${SPEC}/${name}/`);
          const old = await get(`${OLD}/${name}/`);
          const noSlash = await get(`${SPEC}/${name}`);
          assert.equal(spec.status, 200, name);
          assert.deepEqual(old.body, spec.body, `${name} at the old address`);
          assert.deepEqual(noSlash.body, spec.body, `${name} without the trailing slash`);
          assert.equal(spec.headers['cache-control'], 'public, max-age=300');
          assert.ok(spec.headers.etag);
          const again = await h.app.inject({ url: `${SPEC}/${name}/`, headers: { 'if-none-match': String(spec.headers.etag) } });
          assert.equal(again.statusCode, 304);
        }
      });
      it('documents the formulas in OpenAPI and hides the old addresses there', async () => {
        const { body } = await get('/openapi.json');
        assert.ok(body.paths['/api/api/search/']);
        assert.ok(!body.paths['/api/search/']);
        assert.match(body.paths['/api/api/calculate/'].post.description, /federal_income_tax = max\(0/);
        assert.match(body.paths['/api/api/calculate/'].post.description, /grants_portion_of_taxes/);
      });
    });
  },
  { migrations: grantsService.migrations },
);

describeEachDatabase(
  'grants HTTP app without data, then with demo data',
  (t) => {
    let app: ServiceApp;
    let dir: string;
    before(async () => {
      dir = tempDir();
      app = await buildTestApp(grantsService, t.db);
    });
    after(async () => {
      await app?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const get = async (url: string) => {
      const res = await app.inject({ url });
      return { status: res.statusCode, body: res.json() };
    };
    const post = async (url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url, payload });
      return { status: res.statusCode, body: res.json() };
    };

    describe('refuses', () => {
      it('answers 503 {error} saying how to load data while none is imported', async () => {
        const cases = [
          () => get(`${SPEC}/stats/`),
          () => get(`${OLD}/recipients/`),
          () => get(`${SPEC}/comprehensive-stats/`),
          () => post(`${SPEC}/calculate/`, { annual_income: 1 }),
        ];
        for (const request of cases) {
          const { status, body } = await request();
          assert.equal(status, 503);
          assert.deepEqual(Object.keys(body), ['error']);
          assert.match(body.error, /^no grants data has been imported yet; run `pdi import grants <csv>`/);
        }
      });
    });

    describe('answers', () => {
      it('labels generated demo data as such', async () => {
        const ctx = testContext(grantsService, t.db, { dataDir: dir });
        const [report] = await loadGrantsDemo(ctx, { size: 1500, seed: 3 });
        assert.equal(report.is_demo, true);
        const stats = (await get(`${SPEC}/stats/`)).body;
        assert.equal(stats.data_source.kind, 'demo');
        assert.equal(stats.data_source.is_demo, true);
        assert.match(stats.data_source.description, /generated/i);
        assert.equal((await get(`${SPEC}/recipients/`)).body.data_source.is_demo, true);
        assert.equal((await get(`${SPEC}/comprehensive-stats/`)).body.data_source.kind, 'demo');
        assert.equal((await post(`${SPEC}/calculate/`, { annual_income: 1 })).body.data_source.is_demo, true);
        assert.deepEqual(
          (await listDataVersions(t.db.kysely, 'grants')).map((v) => [v.dataset, v.is_demo]),
          [
            ['agreements', true],
            ['international', true],
          ],
        );
      });
    });
  },
  { migrations: grantsService.migrations },
);
