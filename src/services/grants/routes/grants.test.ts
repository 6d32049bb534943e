// GET /api/grants/{id}/ on SQLite and PostgreSQL: the record as in search results; 404 and 400.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { OLD, SPEC, grantsHttp } from '../../../../test/support/grants/http.ts';
import { grantsService } from '../service.ts';

describeEachDatabase(
  'grants lookup route',
  (t) => {
    const h = grantsHttp(t);
    const { get } = h;

    describe('refuses', () => {
      it('GET /api/grants/{id}/: the record, 404 "grant not found", 400 for a non-numeric id', async () => {
        const first = (await get(`${SPEC}/search/?limit=1`)).body.results[0];
        assert.deepEqual((await get(`${SPEC}/grants/${first.id}/`)).body, first);
        for (const prefix of [SPEC, OLD]) {
          const missing = await get(`${prefix}/grants/987654321/`);
          assert.equal(missing.status, 404);
          assert.deepEqual(missing.body, { error: 'grant not found' });
          const bad = await get(`${prefix}/grants/abc/`);
          assert.equal(bad.status, 400);
          assert.match(bad.body.error, /^id /);
        }
        const unknownRoute = await get(`${SPEC}/nothing-here/`);
        assert.equal(unknownRoute.status, 404);
        assert.ok(typeof unknownRoute.body.error === 'string');
      });
    });
  },
  { migrations: grantsService.migrations },
);
