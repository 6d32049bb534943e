// GET /api/search-autocomplete/ on SQLite and PostgreSQL: the ranking of suggestions and the bad inputs.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { EXPECTED_ORDER, TOKEN, errorCases, retractionHttpFixture } from '../../../../test/support/retraction/http.ts';
import { retractionService } from '../service.ts';

describeEachDatabase(
  'retraction routes: search',
  (t) => {
    const fx = retractionHttpFixture(t);

    it('suggests papers best match first: DOI, title, title prefix, title word, title, author prefix, author, DOI part', async () => {
      const { status, body, headers } = await fx.get(`/api/search-autocomplete/?q=${TOKEN}`);
      assert.equal(status, 200);
      assert.equal(headers['cache-control'], 'public, max-age=300');
      assert.equal(headers['x-ratelimit-limit'], '100');
      assert.deepEqual(
        body.suggestions.map((s: { record_id: string }) => s.record_id),
        EXPECTED_ORDER,
      );
      for (const s of body.suggestions)
        assert.deepEqual(Object.keys(s).sort(), [
          'author',
          'journal',
          'post_retraction_citations',
          'record_id',
          'retraction_date',
          'title',
        ]);
      // Within one rule, more post-retraction citations first (900004 has two, 900003 none).
      assert.equal(body.suggestions.find((s: { record_id: string }) => s.record_id === '900004').post_retraction_citations, 2);
      const doi = await fx.get('/api/search-autocomplete/?q=https://doi.org/10.5555/ZQXVORN.8');
      assert.equal(doi.body.suggestions[0].record_id, '900008', 'a DOI URL finds its paper first');
      // A DOI's beginning lists the DOIs that start with it, in alphabetical order, then DOIs containing it.
      const prefix = await fx.get('/api/search-autocomplete/?q=doi:10.5555/SPECIAL.1');
      assert.deepEqual(
        prefix.body.suggestions.map((s: { record_id: string }) => s.record_id),
        ['900001', '900015'],
      );
      const contains = await fx.get('/api/search-autocomplete/?q=10.5555/zqxvorn');
      assert.deepEqual(
        contains.body.suggestions.map((s: { record_id: string }) => s.record_id),
        ['900008'],
      );
      const upper = await fx.get(`/api/search-autocomplete/?q=%20%20${TOKEN.toUpperCase()}%20`);
      assert.deepEqual(upper.body, body, 'trimmed and case-insensitive');
      const unicode = await fx.get('/api/search-autocomplete/?q=%C3%A9tude%20des%20%C3%B6l');
      assert.deepEqual(
        unicode.body.suggestions.map((s: { record_id: string }) => s.record_id),
        ['900015'],
      );
    });

    it('returns at most 10 suggestions, each containing the text somewhere', async () => {
      const { body } = await fx.get('/api/search-autocomplete/?q=sepsis');
      assert.equal(body.suggestions.length, 10);
      for (const s of body.suggestions) assert.match(`${s.title} ${s.author}`, /sepsis/i);
      assert.deepEqual((await fx.get('/api/search-autocomplete/?q=nothing-like-this-anywhere')).body, { suggestions: [] });
    });

    errorCases(fx, [
      ['GET', '/api/search-autocomplete/', 400, 'MISSING_PARAMETER', /^q is required$/],
      [
        'GET',
        '/api/search-autocomplete/?q=%20ab%20%20',
        400,
        'INVALID_PARAMETER',
        /^q must be at least 3 characters long after trimming spaces \(got 2\)$/,
      ],
      ['GET', `/api/search-autocomplete/?q=${'a'.repeat(201)}`, 400, 'INVALID_PARAMETER', /^q must be at most 200 characters long$/],
    ]);
  },
  { migrations: retractionService.migrations },
);
