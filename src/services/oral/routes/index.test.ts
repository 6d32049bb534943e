// Service A as a whole on SQLite and PostgreSQL, over the real files plus the demo data: pagination invariants of
// every list endpoint as a property, the OpenAPI document and docs page, and addresses that do not exist.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';

const ERRORS: ErrorCase[] = [['GET', '/api/unknown/', 404, /^no such endpoint/]];

describeEachDatabase(
  'oral service',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);

    describe('success', () => {
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

      it('publishes its OpenAPI document and docs page', async () => {
        const doc = (await get('/openapi.json')).body;
        for (const p of ['/api/recommendations/', '/api/guidelines/', '/api/reviews/', '/api/stats/', '/api/metadata/'])
          assert.ok(doc.paths[p]?.get, p);
        assert.equal(doc.paths['/api/cochrane/'], undefined, 'the old address is not advertised');
        const docs = await app.inject('/docs');
        assert.equal(docs.statusCode, 200);
        assert.match(docs.body, /Oral health evidence service/);
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
