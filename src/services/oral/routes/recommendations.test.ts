// GET /api/recommendations/ on SQLite and PostgreSQL, over the real files plus the demo data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';

const ERRORS: ErrorCase[] = [
  ['GET', '/api/recommendations/?page=0', 400, /^page must be at least 1$/],
  ['GET', '/api/recommendations/?page=x', 400, /^page must be an integer$/],
  ['GET', '/api/recommendations/?limit=0', 400, /^limit must be at least 1$/],
  ['GET', '/api/recommendations/?limit=2.5', 400, /^limit must be an integer$/],
  ['GET', '/api/recommendations/?country=FR', 400, /^country must be one of UK, US, CA, AU, NZ/],
  ['GET', '/api/recommendations/?topic=unicorns', 400, /^topic must be an id or slug listed by \/api\/metadata\//],
  ['GET', '/api/recommendations/?topic=999', 400, /^topic must be an id or slug/],
  ['GET', '/api/recommendations/?strength=mighty', 400, /^strength must be/],
  ['GET', '/api/recommendations/?evidence_quality=excellent', 400, /^evidence_quality must be/],
  ['GET', `/api/recommendations/?q=${'a'.repeat(201)}`, 400, /^q must be at most 200 characters long$/],
  ['POST', '/api/recommendations/', 405, /^GET method required$/],
];

describeEachDatabase(
  'oral /api/recommendations/',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);

    describe('success', () => {
      it('searches recommendations by text and country with the contract envelope', async () => {
        const { status, body, headers } = await get('/api/recommendations/?q=fluoride&country=uk&limit=5');
        assert.equal(status, 200);
        assert.equal(headers['cache-control'], 'public, max-age=900');
        assert.ok(headers.etag);
        assert.equal(body.success, true);
        assert.equal(body.data.length, 5);
        assert.deepEqual(body.filters_applied, { query: 'fluoride', country: '🇬🇧 UK', topic: '', strength: '', evidence_quality: '' });
        assert.equal(body.pagination.limit, 5);
        assert.equal(body.pagination.page, 1);
        assert.ok(body.pagination.total_results > 5);
        for (const rec of body.data) {
          assert.equal(rec.guideline.country.code, 'UK');
          assert.match(`${rec.title} ${rec.text} ${rec.keywords.join(' ')}`, /fluoride/i);
          for (const key of [
            'id',
            'title',
            'text',
            'keywords',
            'target_population',
            'clinical_context',
            'source_url',
            'page_number',
            'guideline',
            'topics',
            'strength',
            'evidence_quality',
            'references',
            'created_at',
          ])
            assert.ok(key in rec, key);
        }
      });

      it('orders recommendations by guideline publication year descending, then id', async () => {
        const { body } = await get('/api/recommendations/?limit=100');
        const keys = body.data.map((r: { guideline: { publication_year: number | null }; id: number }) => [
          r.guideline.publication_year ?? -Infinity,
          r.id,
        ]);
        for (let i = 1; i < keys.length; i++)
          assert.ok(keys[i - 1][0] > keys[i][0] || (keys[i - 1][0] === keys[i][0] && keys[i - 1][1] < keys[i][1]), `order at ${i}`);
      });

      it('filters by topic, strength and evidence quality given as id or slug, and echoes them', async () => {
        const bySlug = await get('/api/recommendations/?topic=fluoride&strength=strong&evidence_quality=high&limit=100');
        const byId = await get('/api/recommendations/?topic=1&strength=1&evidence_quality=1&limit=100');
        assert.deepEqual(bySlug.body.data, byId.body.data);
        assert.deepEqual(bySlug.body.filters_applied, {
          query: '',
          country: '',
          topic: 'fluoride',
          strength: 'strong',
          evidence_quality: 'high',
        });
        assert.ok(bySlug.body.data.length > 0);
        for (const rec of bySlug.body.data) {
          assert.ok(rec.topics.some((x: { slug: string }) => x.slug === 'fluoride'));
          assert.equal(rec.strength.name, 'Strong');
          assert.equal(rec.evidence_quality.name, 'High');
        }
      });

      it('clamps limit to 100 and echoes the effective value', async () => {
        const { body } = await get('/api/recommendations/?limit=5000');
        assert.equal(body.pagination.limit, 100);
        assert.equal(body.data.length, 100);
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
