// GET /api/recommendations/ on SQLite and PostgreSQL, over the real files plus the demo data.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import fc from 'fast-check';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { recordNewVersion } from '../../../../test/support/data-version.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import { DataVersionWatcher } from '../../../core/service.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { oralService } from '../service.ts';
import { listRecommendations } from '../repository.ts';
import { listRecommendationsSchema } from '../schemas/index.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../sources/index.ts';
import { oralState } from '../state.ts';
import { oralDatabase } from '../tables.ts';
import { listEnvelope } from './common.ts';
import { searchRecommendations } from './recommendations.ts';

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

    describe('bytes', () => {
      // The route sends each held item's JSON, serialised once, spliced into the envelope (heldListBytes). The oracle
      // is what the route sent before: the envelope object serialised by Fastify with the route's response schema.
      let uncached: ServiceApp;
      const oracle = Fastify({ logger: false });
      let envelope: unknown;
      oracle.get('/', { schema: { response: listRecommendationsSchema.response } }, async () => envelope);
      let words: string[] = [];
      before(async () => {
        uncached = await buildTestApp(
          oralService,
          testContext(oralService, t.db, { responseCacheBytes: { ...testContext(oralService, t.db).config.responseCacheBytes, oral: 0 } }),
        );
        await oracle.ready();
        // Words and fragments of the held texts (so that most searches match something), in any case.
        const all = await listRecommendations(oralState(t.db, new DataVersionWatcher(t.db, 'oral', 0)), {}, { page: 1, limit: 10_000 });
        words = [...new Set(all.rows.flatMap((r) => `${r.title} ${r.text} ${r.keywords.join(' ')}`.split(/\s+/)))].filter(
          (w) => w.length > 0,
        );
        assert.ok(words.length > 100, `words of the held recommendations: ${words.length}`);
      });
      after(async () => {
        await uncached?.close();
        await oracle.close();
      });

      it('answers every query with the bytes the route schema serialises for the same result (property)', async () => {
        // Each filter is absent most of the time, so that most pages have items; values are ids or slugs, in any case.
        const sometimes = <T>(value: fc.Arbitrary<T>) =>
          fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: value, weight: 1 });
        const vocabularyValue = (entries: readonly { id: number; slug: string }[]) =>
          sometimes(
            fc.oneof(
              fc.constantFrom(...entries.flatMap((e) => [e.slug, e.slug.toUpperCase()])),
              fc.constantFrom(...entries.map((e) => String(e.id))),
            ),
          );
        const text = fc.oneof(
          fc.constantFrom('fluoride', 'FLUORIDE', ' caries ', 'zzzz-no-match', 'é', '🦷', '"quoted" \\ back', 'children'),
          fc.nat().map((i) => words[i % words.length]),
          fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.nat({ max: 6 })).map(([i, from, cut]) => {
            const word = words[i % words.length];
            return word.slice(Math.min(from, word.length - 1), Math.max(from + 1, word.length - cut)).toUpperCase();
          }),
          fc.string({ unit: 'grapheme', maxLength: 12 }),
        );
        const query = fc.record({
          q: fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: text, weight: 3 }),
          country: sometimes(fc.constantFrom('uk', 'US', 'ca', 'AU', 'nz', 'Uk')),
          topic: vocabularyValue(TOPICS.entries),
          strength: vocabularyValue(STRENGTHS.entries),
          evidence_quality: vocabularyValue(EVIDENCE_QUALITIES.entries),
          page: fc.oneof(
            { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 4 },
            { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 1 },
          ),
          limit: fc.oneof(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 1, max: 150 })),
        });
        let matched = 0;
        let empty = 0;
        await fc.assert(
          fc.asyncProperty(query, async (q) => {
            const params = new URLSearchParams();
            for (const [key, value] of Object.entries(q)) if (value !== undefined) params.set(key, String(value));
            const res = await uncached.inject(`/api/recommendations/?${params}`);
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
            const { result, page, filters } = await searchRecommendations(oralState(t.db, new DataVersionWatcher(t.db, 'oral', 0)), q);
            envelope = listEnvelope(result, page, filters);
            const expected = (await oracle.inject('/')).rawPayload;
            assert.ok(res.rawPayload.equals(expected), `${params}: ${res.body.slice(0, 300)} ≠ ${expected.toString().slice(0, 300)}`);
            assert.equal(res.headers['content-length'], String(expected.length));
            if (result.rows.length > 0) matched++;
            else empty++;
          }),
          { numRuns: 300, seed: 20261126 },
        );
        // Both kinds were compared: pages with items and empty ones (no match, or past the last page).
        assert.ok(matched > 30 && empty > 30, `pages with items ${matched}, empty ${empty}`);
      });

      it('serialises the items again when the data version changes (held bytes belong to one version)', async () => {
        const url = '/api/recommendations/?limit=3';
        const first = await uncached.inject(url);
        const id: number = first.json().data[1].id;
        const title = 'Title changed by the test: “quoted” \\ "escaped" é 🦷';
        await oralDatabase(t.db).updateTable('oral_recommendations').set({ title }).where('id', '=', id).execute();
        assert.ok((await uncached.inject(url)).rawPayload.equals(first.rawPayload), 'the same data version: the same bytes');
        await recordNewVersion(t.db.kysely, 'oral');
        const fresh = await uncached.inject(url);
        assert.equal(fresh.json().data[1].title, title);
        const { result, page, filters } = await searchRecommendations(oralState(t.db, new DataVersionWatcher(t.db, 'oral', 0)), {
          page: 1,
          limit: 3,
        });
        envelope = listEnvelope(result, page, filters);
        assert.ok(fresh.rawPayload.equals((await oracle.inject('/')).rawPayload));
      });

      it('answers a cache hit with the same bytes as the route', async () => {
        const url = '/api/recommendations/?q=fluoride&limit=20';
        const fresh = await uncached.inject(url);
        const first = await app.inject(url);
        const hit = await app.inject(url);
        assert.ok(fresh.rawPayload.length > 10_000);
        assert.ok(first.rawPayload.equals(fresh.rawPayload));
        assert.ok(hit.rawPayload.equals(fresh.rawPayload));
        assert.equal(hit.headers.etag, fresh.headers.etag);
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
