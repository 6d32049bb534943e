// Service A's HTTP contract on SQLite and PostgreSQL: the real files plus the demo data, every endpoint,
// pagination invariants as properties, and the table of bad inputs.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import { describeEachDatabase, needsSharedData, sharedData } from '../../../test/support/databases.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import type { ServiceApp } from '../../core/service.ts';
import { oralService } from './service.ts';
import { importPath } from './import.ts';
import { loadOralDemo } from './demo.ts';
import os from 'node:os';
import fs from 'node:fs';

const gate = needsSharedData('oral');

describeEachDatabase(
  'oral HTTP contract',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      if (gate.problem) throw new Error(gate.problem);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-oral-demo-'));
      const ctx = testContext(oralService, t.db, { dataDir });
      await loadOralDemo(ctx, {});
      await importPath(ctx, sharedData('oral'));
      app = await buildTestApp(oralService, ctx);
    });
    after(async () => app?.close());

    const get = async (url: string) => {
      const res = await app.inject(url);
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    };

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

    it('keeps pagination invariants for any filter and page size (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/api/recommendations/', '/api/guidelines/', '/api/reviews/'),
          fc.constantFrom('', 'fluoride', 'caries', 'children', 'zzzz-no-match', 'sealant'),
          fc.constantFrom('', 'uk', 'US', 'ca', 'AU', 'nz'),
          fc.integer({ min: 1, max: 40 }),
          async (endpoint, q, country, limit) => {
            const params = new URLSearchParams({ limit: String(limit) });
            if (q) params.set('q', q);
            if (country && endpoint !== '/api/reviews/') params.set('country', country);
            const first = (await get(`${endpoint}?${params}`)).body;
            const total = first.pagination.total_results;
            assert.equal(first.pagination.total_pages, Math.max(1, Math.ceil(total / limit)));
            const seen: number[] = [];
            for (let page = 1; page <= first.pagination.total_pages; page++) {
              params.set('page', String(page));
              const body = (await get(`${endpoint}?${params}`)).body;
              assert.equal(body.pagination.total_results, total);
              assert.equal(body.pagination.has_previous, page > 1);
              assert.equal(body.pagination.has_next, page < first.pagination.total_pages);
              assert.ok(body.data.length <= limit);
              if (page < first.pagination.total_pages) assert.equal(body.data.length, limit);
              seen.push(...body.data.map((r: { id: number }) => r.id));
            }
            assert.equal(seen.length, total, 'pages cover every result');
            assert.equal(new Set(seen).size, total, 'pages never overlap');
            params.set('page', String(first.pagination.total_pages + 1));
            const past = (await get(`${endpoint}?${params}`)).body;
            assert.deepEqual(past.data, []);
            assert.equal(past.pagination.total_results, total);
            assert.equal(past.pagination.has_next, false);
          },
        ),
        { numRuns: 25, seed: 20261121 },
      );
    });

    it('clamps limit to 100 and echoes the effective value', async () => {
      const { body } = await get('/api/recommendations/?limit=5000');
      assert.equal(body.pagination.limit, 100);
      assert.equal(body.data.length, 100);
    });

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

    it('lists reviews, at /api/reviews/ and the old /api/cochrane/, and one review with its outcomes', async () => {
      const list = await get('/api/reviews/?q=CD0078&limit=100');
      assert.ok(list.body.data.some((r: { review_id: string }) => r.review_id === 'CD007859'));
      assert.deepEqual((await get('/api/cochrane/?q=CD0078&limit=100')).body, list.body);
      const all = await get('/api/reviews/?limit=100&page=2');
      assert.equal(all.body.pagination.total_results, 161); // 141 Cochrane + 20 demo
      const one = await get('/api/reviews/cd007859/');
      assert.equal(one.status, 200);
      assert.equal(one.body.data.review_id, 'CD007859');
      assert.equal(one.body.data.outcomes.length, one.body.data.outcome_count);
      const s = one.body.data.certainty_summary;
      assert.ok(s.high + s.moderate + s.low + s.very_low <= one.body.data.outcome_count);
      assert.equal((await get('/api/reviews/CD999999/')).status, 404);
    });

    it('reports statistics that agree with the lists', async () => {
      const { body, headers } = await get('/api/stats/');
      assert.equal(headers['cache-control'], 'public, max-age=1800');
      const s = body.data;
      assert.equal(s.recommendations.total, (await get('/api/recommendations/?limit=1')).body.pagination.total_results);
      assert.equal(s.guidelines.total, (await get('/api/guidelines/?limit=1')).body.pagination.total_results);
      assert.equal(s.reviews.total, 161);
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

    it('lists vocabularies and data sources, marking the demo data', async () => {
      const { body } = await get('/api/metadata/');
      assert.ok(body.data.topics.some((x: { slug: string; id: number }) => x.slug === 'fluoride' && x.id === 1));
      const sources = body.data.data_sources;
      assert.deepEqual(sources.map((d: { dataset: string }) => d.dataset).sort(), ['cochrane', 'demo', 'sign138', 'toolkit']);
      assert.equal(sources.find((d: { dataset: string }) => d.dataset === 'demo').is_demo, true);
      assert.equal(sources.find((d: { dataset: string }) => d.dataset === 'toolkit').is_demo, false);
    });

    const badInputs: [string, string, number, RegExp][] = [
      ['GET', '/api/recommendations/?page=0', 400, /^page must be at least 1$/],
      ['GET', '/api/recommendations/?page=x', 400, /^page must be an integer$/],
      ['GET', '/api/recommendations/?limit=0', 400, /^limit must be at least 1$/],
      ['GET', '/api/recommendations/?limit=2.5', 400, /^limit must be an integer$/],
      ['GET', '/api/guidelines/?limit=-3', 400, /^limit must be at least 1$/],
      ['GET', '/api/reviews/?page=1e3', 400, /^page must be an integer$/],
      ['GET', '/api/reviews/?page=0x10', 400, /^page must be an integer$/],
      ['GET', '/api/reviews/?page=99999999999999999999', 400, /^page must be at most 1000000$/],
      ['GET', '/api/guidelines/?limit=', 400, /^limit must be an integer$/],
      ['GET', '/api/recommendations/?country=FR', 400, /^country must be one of UK, US, CA, AU, NZ/],
      ['GET', '/api/guidelines/?country=united%20kingdom', 400, /^country must be one of UK, US, CA, AU, NZ/],
      ['GET', '/api/recommendations/?topic=unicorns', 400, /^topic must be an id or slug listed by \/api\/metadata\//],
      ['GET', '/api/recommendations/?topic=999', 400, /^topic must be an id or slug/],
      ['GET', '/api/recommendations/?strength=mighty', 400, /^strength must be/],
      ['GET', '/api/recommendations/?evidence_quality=excellent', 400, /^evidence_quality must be/],
      ['GET', `/api/recommendations/?q=${'a'.repeat(201)}`, 400, /^q must be at most 200 characters long$/],
      ['POST', '/api/recommendations/', 405, /^GET method required$/],
      ['DELETE', '/api/stats/', 405, /^GET method required$/],
      ['GET', '/api/unknown/', 404, /^no such endpoint/],
      ['GET', '/api/reviews/CD000000/', 404, /^review CD000000 not found$/],
    ];
    for (const [method, url, status, message] of badInputs) {
      it(`answers ${method} ${url.slice(0, 60)} with ${status} and the JSON error body`, async () => {
        const res = await app.inject({ method: method as 'GET', url });
        assert.equal(res.statusCode, status);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const body = res.json();
        assert.equal(body.success, false);
        assert.match(body.error, message);
        if (status === 405) assert.equal(res.headers.allow, 'GET, HEAD');
      });
    }

    it('publishes its OpenAPI document and docs page', async () => {
      const doc = (await get('/openapi.json')).body;
      for (const p of ['/api/recommendations/', '/api/guidelines/', '/api/reviews/', '/api/stats/', '/api/metadata/'])
        assert.ok(doc.paths[p]?.get, p);
      assert.equal(doc.paths['/api/cochrane/'], undefined, 'the old address is not advertised');
      const docs = await app.inject('/docs');
      assert.equal(docs.statusCode, 200);
      assert.match(docs.body, /Oral health evidence service/);
    });
  },
  { migrations: oralService.migrations },
);
