// DOI checks and DOI suggestions over HTTP, on SQLite and PostgreSQL: every usual DOI form normalised at both
// addresses, absent DOIs, ranking, limits, totals and the table of error cases (real papers); demo labels, prefix
// ranking and the response cache (the generated demo articles).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Static } from 'typebox';
import { TABLE_DOI, bothAddresses, describeKrtHttp, itAnswersErrors, real, realFile } from '../../../../test/support/krt/http.ts';
import { domainExtraction } from '../../../../test/support/krt/corpus.ts';
import type { CheckDoiResponse, SuggestionsResponse } from '../schemas/doi.ts';

type CheckDoi = Static<typeof CheckDoiResponse>;
type Suggestions = Static<typeof SuggestionsResponse>;

describeKrtHttp('krt DOI checks and suggestions', (h) => {
  const { get, post } = h;

  it('check-doi-local: GET and POST at both addresses, every usual DOI form normalised, absent DOIs available:false', async () => {
    const forms = [
      TABLE_DOI,
      `doi:${TABLE_DOI}`,
      `https://doi.org/${TABLE_DOI.toUpperCase()}`,
      `https://www.biorxiv.org/content/${TABLE_DOI}v2.full.pdf`,
      `${TABLE_DOI}v3`,
      '2021.09.08.459408',
      encodeURIComponent(TABLE_DOI),
    ];
    const article = domainExtraction(realFile('459408')).extraction.metadata;
    for (const url of bothAddresses('/check-doi-local/')) {
      for (const form of forms) {
        const res = await get<CheckDoi>(`${url}?doi=${encodeURIComponent(form)}`);
        assert.equal(res.status, 200, form);
        assert.deepEqual(Object.keys(res.body), [
          'success',
          'available',
          'doi',
          'title',
          'file_size',
          'downloaded_at',
          'local_file_available',
          'can_extract_krt',
          'total_sessions',
          'metadata',
        ]);
        assert.equal(res.body.doi, TABLE_DOI, form);
        assert.equal(res.body.available, true);
        assert.equal(res.body.local_file_available, true);
        assert.equal(res.body.can_extract_krt, true);
        assert.equal(res.body.total_sessions, 1);
        assert.equal(res.body.title, article.title);
        assert.deepEqual(res.body.metadata, {
          title: article.title,
          authors: article.authors,
          date: article.publicationDate,
          journal: article.journal,
          is_preprint: true,
          is_demo: false,
        });
        assert.match(res.body.downloaded_at!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.equal(res.body.file_size, fs.statSync(realFile('459408')).size);
      }
      const posted = await post<CheckDoi>(url, { doi: `https://doi.org/${TABLE_DOI}` });
      assert.equal(posted.status, 200);
      assert.equal(posted.body.doi, TABLE_DOI);
      const absent = await get<CheckDoi>(`${url}?doi=10.1101/2099.01.01.000001`);
      assert.equal(absent.status, 200);
      assert.deepEqual(absent.body, {
        success: true,
        available: false,
        doi: '10.1101/2099.01.01.000001',
        title: null,
        file_size: null,
        downloaded_at: null,
        local_file_available: false,
        can_extract_krt: false,
        total_sessions: 0,
        metadata: null,
      });
    }
  });

  it('doi-suggestions: q matches DOI and title, best match then newest, limit default 10 and clamped to 50, totals', async () => {
    for (const url of bothAddresses('/doi-suggestions/')) {
      const all = await get<Suggestions>(url);
      assert.equal(all.status, 200);
      assert.equal(all.body.total_available, real.length);
      assert.equal(all.body.suggestions.length, 10);
      assert.deepEqual([all.body.query, all.body.limit], ['', 10]);
      const dates = all.body.suggestions.map((s) => s.publication_date);
      assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first');
      for (const s of all.body.suggestions)
        assert.deepEqual(Object.keys(s), ['doi', 'title', 'authors', 'publication_date', 'file_size', 'is_demo']);
      const clamped = await get<Suggestions>(`${url}?limit=500`);
      assert.equal(clamped.body.limit, 50);
      assert.equal(clamped.body.suggestions.length, real.length);
      const byDoi = await get<Suggestions>(`${url}?q=${encodeURIComponent(`https://doi.org/${TABLE_DOI}v1`)}`);
      assert.equal(byDoi.body.suggestions[0].doi, TABLE_DOI, 'a DOI in any form is looked up as the DOI');
      assert.equal(byDoi.body.total_available, 1);
      const title = domainExtraction(realFile('459408')).extraction.metadata.title;
      const words = title
        .split(/\s+/)
        .filter((w) => w.length > 4)
        .slice(0, 2)
        .map((w) => w.toUpperCase())
        .join(' ');
      const byWords = await get<Suggestions>(`${url}?q=${encodeURIComponent(` ${words} `)}`);
      assert.equal(byWords.body.query, words, 'q is echoed trimmed');
      assert.ok(
        byWords.body.suggestions.some((s) => s.doi === TABLE_DOI),
        words,
      );
    }
  });

  itAnswersErrors(h, [
    { name: 'check-doi-local without a DOI', url: '/api/check-doi-local/', status: 400, error: /^doi is required$/ },
    { name: 'check-doi-local with an empty DOI (old address)', url: '/check-doi-local/?doi=', status: 400, error: /^doi is required$/ },
    { name: 'check-doi-local with text that is no DOI', url: '/check-doi-local/?doi=not-a-doi', status: 400, error: /^doi must be a DOI/ },
    {
      name: 'check-doi-local with a URL that holds no DOI',
      url: '/check-doi-local/?doi=https://example.org/page',
      status: 400,
      error: /^doi must be a DOI/,
    },
    { name: 'POST check-doi-local without a DOI', url: '/api/check-doi-local/', payload: {}, status: 400, error: /^doi is required$/ },
    {
      name: 'POST check-doi-local with text that is no DOI',
      url: '/api/check-doi-local/',
      payload: { doi: 'nope' },
      status: 400,
      error: /^doi must be a DOI/,
    },
    {
      name: 'POST check-doi-local with a body that is not JSON',
      method: 'POST',
      url: '/api/check-doi-local/',
      payload: 'doi=10.1101/x',
      headers: { 'content-type': 'text/plain' },
      status: 415,
    },
    {
      name: 'POST check-doi-local with a body over 1 MiB',
      method: 'POST',
      url: '/check-doi-local/',
      payload: `{"doi":"${'x'.repeat(1_100_000)}"}`,
      headers: { 'content-type': 'application/json' },
      status: 413,
    },
    {
      name: 'POST check-doi-local with malformed JSON',
      method: 'POST',
      url: '/check-doi-local/',
      payload: '{"doi":',
      headers: { 'content-type': 'application/json' },
      status: 400,
      error: /not valid JSON/,
    },
    {
      name: 'DELETE check-doi-local (Allow lists the methods)',
      method: 'DELETE',
      url: '/api/check-doi-local/',
      status: 405,
      also: (res) => assert.equal(res.headers.allow, 'GET, HEAD, POST'),
    },
    { name: 'an unknown route', url: '/api/no-such-route/', status: 404 },
    { name: 'doi-suggestions with limit 0', url: '/api/doi-suggestions/?limit=0', status: 400, error: /^limit must be at least 1$/ },
    {
      name: 'doi-suggestions with a limit that is no integer',
      url: '/api/doi-suggestions/?limit=abc',
      status: 400,
      error: /^limit must be an integer$/,
    },
  ]);
});

describeKrtHttp(
  'krt DOI checks and suggestions on the generated demo articles',
  (h) => {
    const { get, request } = h;

    it('check-doi-local: a generated article is labelled demo', async () => {
      for (const url of bothAddresses('/check-doi-local/')) {
        const demo = await get<CheckDoi>(`${url}?doi=10.1101/demo.2021.0001`);
        assert.equal(demo.body.metadata!.is_demo, true);
        assert.match(demo.body.title!, /Generated demo/);
      }
    });

    it('doi-suggestions: title words, DOI prefixes (newest first among equals), the exact DOI first, deterministic, cached', async () => {
      for (const url of bothAddresses('/doi-suggestions/')) {
        const all = await get<Suggestions>(url);
        assert.equal(all.body.total_available, 6);
        assert.ok(all.body.suggestions.every((s) => s.is_demo));
        const demo = await get<Suggestions>(`${url}?q=fictional%20study&limit=3`);
        assert.equal(demo.body.total_available, 6);
        assert.equal(demo.body.suggestions.length, 3);
        assert.ok(demo.body.suggestions.every((s) => s.is_demo));
        const prefix = await get<Suggestions>(`${url}?q=10.1101/demo.2022`);
        assert.deepEqual(prefix.body.suggestions.map((s) => s.doi).sort(), ['10.1101/demo.2022.0002', '10.1101/demo.2022.0006']);
        const prefixDates = prefix.body.suggestions.map((s) => s.publication_date!);
        assert.ok(prefixDates[0] > prefixDates[1], 'both match the prefix equally: newest first');
        const exact = await get<Suggestions>(`${url}?q=10.1101/demo.2022.0006`);
        assert.equal(exact.body.suggestions[0].doi, '10.1101/demo.2022.0006', 'the exact DOI first');
        const none = await get<Suggestions>(`${url}?q=zzzqqqxxx`);
        assert.deepEqual([none.body.suggestions, none.body.total_available], [[], 0]);
        assert.deepEqual((await get(`${url}?q=fictional&limit=4`)).body, (await get(`${url}?q=fictional&limit=4`)).body, 'deterministic');
      }
      const first = await get('/api/doi-suggestions/?q=fictional');
      assert.equal(first.headers['cache-control'], 'public, max-age=60');
      const cached = await request({ url: '/api/doi-suggestions/?q=fictional', headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(cached.status, 304);
    });
  },
  { data: 'demo' },
);
