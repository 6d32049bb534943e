// GET /api/reviews/, its old address /api/cochrane/ and GET /api/reviews/:review_id/ on SQLite and PostgreSQL,
// over the real files plus the demo data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';

const ERRORS: ErrorCase[] = [
  ['GET', '/api/reviews/?page=1e3', 400, /^page must be an integer$/],
  ['GET', '/api/reviews/?page=0x10', 400, /^page must be an integer$/],
  ['GET', '/api/reviews/?page=99999999999999999999', 400, /^page must be at most 1000000$/],
  ['GET', '/api/reviews/CD000000/', 404, /^review CD000000 not found$/],
];

describeEachDatabase(
  'oral /api/reviews/',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);

    describe('success', () => {
      it('lists reviews, at /api/reviews/ and the old /api/cochrane/, and one review with its outcomes', async () => {
        const list = await get('/api/reviews/?q=CD0078&limit=100');
        assert.ok(list.body.data.some((r: { review_id: string }) => r.review_id === 'CD007859'));
        assert.deepEqual((await get('/api/cochrane/?q=CD0078&limit=100')).body, list.body);
        const all = await get('/api/reviews/?limit=100&page=2');
        assert.equal(all.body.pagination.total_results, 141); // the 20 demo reviews were replaced by the real import
        const one = await get('/api/reviews/cd007859/');
        assert.equal(one.status, 200);
        assert.equal(one.body.data.review_id, 'CD007859');
        assert.equal(one.body.data.outcomes.length, one.body.data.outcome_count);
        const s = one.body.data.certainty_summary;
        assert.ok(s.high + s.moderate + s.low + s.very_low <= one.body.data.outcome_count);
        assert.equal((await get('/api/reviews/CD999999/')).status, 404);
      });

      it('describes each review from its own rows and keeps an unconfirmed listed title apart; search matches the description', async () => {
        const one = (await get('/api/reviews/CD000979/')).body.data;
        assert.equal(one.title_verified, false);
        assert.equal(one.listed_title, 'Pit and fissure sealants for preventing dental decay in permanent teeth');
        assert.equal(one.title, one.description);
        assert.match(one.description, /posterior crossbite: /);
        const ids = async (q: string) =>
          (await get(`/api/reviews/?q=${encodeURIComponent(q)}&limit=100`)).body.data.map((r: { review_id: string }) => r.review_id);
        assert.ok((await ids('crossbite')).includes('CD000979'), 'found by what it holds');
        assert.ok(!(await ids('fissure sealants for preventing dental decay')).includes('CD000979'), 'not by the title it does not hold');
        const verified = (await get('/api/reviews/CD012432/')).body.data;
        assert.equal(verified.title_verified, true);
        assert.equal(verified.title, verified.listed_title);
        const listed = (await get('/api/reviews/?q=CD0124&limit=100')).body.data.find(
          (r: { review_id: string }) => r.review_id === 'CD012432',
        );
        assert.deepEqual([listed.title, listed.title_verified, listed.description], [verified.title, true, verified.description]);
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
