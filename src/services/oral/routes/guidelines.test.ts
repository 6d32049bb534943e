// GET /api/guidelines/ on SQLite and PostgreSQL, over the real files plus the demo data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';

const ERRORS: ErrorCase[] = [
  ['GET', '/api/guidelines/?limit=-3', 400, /^limit must be at least 1$/],
  ['GET', '/api/guidelines/?limit=', 400, /^limit must be an integer$/],
  ['GET', '/api/guidelines/?country=united%20kingdom', 400, /^country must be one of UK, US, CA, AU, NZ/],
];

describeEachDatabase(
  'oral /api/guidelines/',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);

    describe('success', () => {
      it('lists guidelines with organization and country, UK nations included', async () => {
        const { body } = await get('/api/guidelines/?country=UK&limit=100');
        assert.deepEqual(body.filters_applied, { query: '', country: '🇬🇧 UK' });
        const regions = body.data.map((g: { region: string | null }) => g.region);
        assert.ok(regions.includes('England') && regions.includes('Scotland'));
        const sign = body.data.find((g: { region: string; title: string }) => g.region === 'Scotland' && !g.title.startsWith('Demo'));
        assert.equal(sign.organization.country.code, 'UK');
        assert.equal(sign.recommendation_count, 15);
        assert.equal(typeof sign.is_active, 'boolean');
        const q = await get('/api/guidelines/?q=scottish intercollegiate');
        assert.equal(q.body.data.length, 1, 'q matches the organization name');
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
