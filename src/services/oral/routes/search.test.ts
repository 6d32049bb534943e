// GET /api/search/ on SQLite and PostgreSQL, over the demo data and the real files: what it finds is what the
// three list endpoints find, the ranking is the documented one, and each facet count is the total its filter gives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { answersErrors, getJson, oralAppWithData } from '../../../../test/support/oral/app.ts';
import type { ErrorCase } from '../../../../test/support/oral/app.ts';
import { foldAccents } from '../../../core/db/dialect.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { FACETS, MATCH_KINDS } from '../schemas/index.ts';
import { oralService } from '../service.ts';

interface Hit {
  kind: 'recommendation' | 'guideline' | 'review';
  id: number;
  title: string;
  match: (typeof MATCH_KINDS)[number];
  year: number | null;
  strength: unknown;
  certainty_summary: Record<string, number> | null;
}
interface FacetValue {
  value: string;
  label: string;
  count: number;
}

const ERRORS: ErrorCase[] = [
  ['GET', '/api/search/?kind=article', 400, /^kind must be one of: recommendation, guideline, review$/],
  ['GET', '/api/search/?year=19x', 400, /year/],
  ['GET', '/api/search/?year=1850', 400, /year/],
  ['GET', '/api/search/?topic=no-such-topic', 400, /^topic must be an id or slug listed by \/api\/metadata\//],
  ['GET', '/api/search/?country=FR', 400, /^country must be one of UK, US, CA, AU, NZ/],
  ['GET', '/api/search/?certainty=certain', 400, /^certainty must be one of: high, moderate, low, very_low$/],
  ['GET', `/api/search/?q=${'a'.repeat(201)}`, 400, /^q must/],
  ['GET', '/api/search/?page=0', 400, /^page must be/],
  ['POST', '/api/search/', 405, /./],
];

/** The words of a text as the search reads them: folded, joined by single spaces. */
const words = (text: string) => foldAccents((text.match(/[\p{L}\p{N}]+/gu) ?? []).join(' '));

describeEachDatabase(
  'oral /api/search/',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      app = await oralAppWithData(t);
    });
    after(async () => app?.close());
    const get = (url: string) => getJson(app, url);
    const search = async (query: string) => {
      const res = await get(`/api/search/?${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as {
        data: Hit[];
        pagination: { total_results: number; total_pages: number; has_next: boolean };
        facets: Record<string, FacetValue[]>;
        filters_applied: Record<string, string>;
      };
    };

    describe('success', () => {
      it('finds, for one word, exactly what each kind’s own list endpoint finds', async () => {
        for (const q of ['fluor', 'caries', 'varnish', 'CD0078', 'orthodontic']) {
          const all = await search(`q=${q}&limit=1`);
          const byKind = Object.fromEntries(all.facets.kind.map((f) => [f.value, f.count]));
          for (const [kind, list] of [
            ['recommendation', 'recommendations'],
            ['guideline', 'guidelines'],
            ['review', 'reviews'],
          ]) {
            const expected = (await get(`/api/${list}/?q=${q}&limit=1`)).body.pagination.total_results as number;
            assert.equal(byKind[kind] ?? 0, expected, `${kind}s for "${q}"`);
            assert.equal((await search(`q=${q}&kind=${kind}&limit=1`)).pagination.total_results, expected);
          }
          assert.equal(
            all.pagination.total_results,
            Object.values(byKind).reduce((a, b) => a + b, 0),
          );
        }
      });

      it('ranks the phrase in a title, then in the text, then every word in a title, then every word anywhere', async () => {
        const found = await search('q=fluoride%20varnish&limit=100');
        assert.ok(found.pagination.total_results > 0);
        const ranks = found.data.map((h) => MATCH_KINDS.indexOf(h.match));
        assert.deepEqual(
          ranks,
          [...ranks].sort((a, b) => a - b),
          'match kinds in order',
        );
        assert.equal(found.data[0].match, 'phrase_in_title');
        for (const hit of found.data) {
          const title = words(hit.title);
          assert.equal(title.includes('fluoride varnish'), hit.match === 'phrase_in_title', `${hit.kind} ${hit.id}: ${hit.title}`);
          if (hit.match === 'words_in_title') assert.ok(title.includes('fluoride') && title.includes('varnish'));
        }
        // Punctuation between the words does not break the phrase; the order of the words does.
        assert.deepEqual((await search('q=fluoride-varnish&limit=100')).data, found.data);
        const reversed = await search('q=varnish%20fluoride&limit=100');
        assert.equal(reversed.pagination.total_results, found.pagination.total_results);
        assert.ok(!reversed.data.some((h) => h.match === 'phrase_in_title' && !words(h.title).includes('varnish fluoride')));
      });

      it('folds accents and case in the query, and finds nothing for a query without a word', async () => {
        const plain = await search('q=fluoride&limit=100');
        assert.deepEqual((await search(`q=${encodeURIComponent('FLUORÍDE')}&limit=100`)).pagination, plain.pagination);
        // The real files write "Sjögren" and "Behçet" only with their accents: found without them, in the same order.
        for (const [folded, written] of [
          ['sjogren', 'Sjögren'],
          ['behcet', 'Behçet'],
        ]) {
          const plainHits = await search(`q=${folded}&limit=100`);
          assert.ok(plainHits.pagination.total_results > 0, folded);
          assert.deepEqual(plainHits.data, (await search(`q=${encodeURIComponent(written)}&limit=100`)).data, written);
        }
        const none = await search(`q=${encodeURIComponent('--- ...')}`);
        assert.equal(none.pagination.total_results, 0);
        assert.deepEqual(none.facets.kind, []);
      });

      it('counts each facet value as the total its filter gives, with every other filter kept', async () => {
        const base = 'q=caries';
        const all = await search(`${base}&limit=1`);
        for (const facet of FACETS) {
          for (const value of all.facets[facet].slice(0, 3)) {
            const filtered = await search(`${base}&${facet}=${encodeURIComponent(value.value)}&limit=1`);
            assert.equal(filtered.pagination.total_results, value.count, `${facet}=${value.value}`);
            // The chosen facet still lists its alternatives (counted without its own filter).
            assert.deepEqual(filtered.facets[facet], all.facets[facet]);
          }
        }
        // Two filters: a facet's counts keep the other filter.
        const year = all.facets.year[0];
        const both = await search(`${base}&year=${year.value}&kind=recommendation&limit=1`);
        const yearsOfRecommendations = (await search(`${base}&kind=recommendation&limit=1`)).facets.year;
        assert.equal(both.pagination.total_results, yearsOfRecommendations.find((y) => y.value === year.value)?.count ?? 0);
      });

      it('leaves out a kind a filter does not apply to; echoes the filters; pages as the other lists', async () => {
        const strong = await search('strength=strong&limit=100');
        assert.ok(strong.data.length > 0 && strong.data.every((h) => h.kind === 'recommendation' && h.strength !== null));
        const high = await search('certainty=high&limit=100');
        assert.ok(high.data.length > 0 && high.data.every((h) => h.kind === 'review' && (h.certainty_summary?.high ?? 0) > 0));
        assert.deepEqual(high.facets.certainty.find((c) => c.value === 'high')?.count, high.pagination.total_results);
        const echoed = await search('q=%20caries%20&kind=REVIEW&country=uk&certainty=Low');
        assert.deepEqual(echoed.filters_applied, {
          query: 'caries',
          kind: 'review',
          country: '🇬🇧 UK',
          topic: '',
          year: '',
          strength: '',
          evidence_quality: '',
          certainty: 'low',
        });
        assert.equal(echoed.pagination.total_results, 0, 'reviews have no country');
        const everything = await search('limit=1');
        const past = await search(`page=${everything.pagination.total_pages + 1}&limit=1`);
        assert.deepEqual(
          [past.data.length, past.pagination.total_results, past.pagination.has_next],
          [0, everything.pagination.total_results, false],
        );
        const years = everything.facets.year.map((y) => Number(y.value));
        assert.deepEqual(
          years,
          [...years].sort((a, b) => b - a),
          'years newest first',
        );
        assert.equal((await search('limit=500')).data.length, 100, 'limit clamped to 100');
      });
    });

    describe('errors', () => answersErrors(() => app, ERRORS));
  },
  { migrations: oralService.migrations },
);
