// GET /api/stats/ on SQLite and PostgreSQL, over the real files plus the demo data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';

const ERRORS: ErrorCase[] = [['DELETE', '/api/stats/', 405, /^GET method required$/]];

describeEachDatabase(
  'oral /api/stats/',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);

    describe('success', () => {
      it('reports statistics that agree with the lists', async () => {
        const { body, headers } = await get('/api/stats/');
        assert.equal(headers['cache-control'], 'public, max-age=1800');
        const s = body.data;
        assert.equal(s.recommendations.total, (await get('/api/recommendations/?limit=1')).body.pagination.total_results);
        assert.equal(s.guidelines.total, (await get('/api/guidelines/?limit=1')).body.pagination.total_results);
        assert.equal(s.reviews.total, 141); // the demo reviews were replaced by the real import
        assert.deepEqual(
          s.recommendations.by_country.map((c: { code: string }) => c.code),
          ['UK', 'US', 'CA', 'AU', 'NZ'],
        );
        const uk = s.recommendations.by_country.find((c: { code: string }) => c.code === 'UK');
        assert.equal(uk.count, (await get('/api/recommendations/?country=UK&limit=1')).body.pagination.total_results);
        const topics = s.recommendations.by_topic;
        assert.equal(topics.length, 15, 'every topic, not an arbitrary ten');
        for (let i = 1; i < topics.length; i++)
          assert.ok(
            topics[i - 1].count > topics[i].count || (topics[i - 1].count === topics[i].count && topics[i - 1].name <= topics[i].name),
          );
        const fluoride = topics.find((x: { slug: string }) => x.slug === 'fluoride');
        assert.equal(fluoride.count, (await get('/api/recommendations/?topic=fluoride&limit=1')).body.pagination.total_results);
        assert.equal(
          s.reviews.by_certainty.reduce((a: number, c: { count: number }) => a + c.count, 0),
          s.reviews.total_outcomes,
        );
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
