// What the route plugins make together, on SQLite and PostgreSQL: each group its own rate limit (the two addresses
// of a route share it; the 31st AI suggestion of a minute is a 429), and an OpenAPI document with the
// specification's addresses only.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError, describeKrtHttp } from '../../../../test/support/krt/http.ts';
import { RATE_LIMITS } from './index.ts';

describeKrtHttp('krt route groups', (h) => {
  const { get, post } = h;

  it('rate limits: the 31st AI suggestion of a minute is a 429 with Retry-After, both addresses share a group, browser routes count only in theirs', async () => {
    const client = '198.51.100.31';
    for (let i = 0; i < RATE_LIMITS['ai-suggestions']; i++) {
      const res = await post(i % 2 ? '/api/api/ai/suggest-rrid/' : '/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' }, client);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '30');
      assert.equal(res.headers['x-ratelimit-remaining'], String(29 - i));
      assert.ok(Number(res.headers['x-ratelimit-reset']) > 0);
    }
    const limited = await post('/api/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' }, client);
    assertError(limited, 429, /rate limit exceeded for ai-suggestions: 30 requests per 60 seconds/);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    // Other groups of the same client are not affected; browser requests count in the browser group only.
    const browser = await post('/api/api/browser/suggest-rrid/', { resource_name: 'anti-GFP' }, client);
    assert.equal(browser.status, 200);
    assert.equal(browser.headers['x-ratelimit-limit'], '100');
    const other = '198.51.100.32';
    for (let i = 0; i < 5; i++) await post('/api/browser/suggest-rrid/', { resource_name: 'anti-GFP' }, other);
    await get('/api/suggest-rrid/?resource_name=anti-GFP', other);
    const ai = await post('/api/ai/suggest-rrid/', { resource_name: 'anti-GFP' }, other);
    assert.equal(ai.headers['x-ratelimit-remaining'], '29');
    const lastBrowser = await post('/api/browser/validate-rrid/', { rrid: 'AB_1' }, other);
    assert.equal(lastBrowser.headers['x-ratelimit-remaining'], String(100 - 7));
    // Every group carries the headers, errors included.
    for (const [url, limit] of [
      ['/api/check-doi-local/?doi=x', 100],
      ['/doi-suggestions/', 50],
      ['/api/export/x/csv/', 20],
      ['/api/krt/x/', 100],
    ] as const) {
      const res = await get(url);
      assert.equal(res.headers['x-ratelimit-limit'], String(limit), url);
    }
    assert.equal((await post('/api/ai/validate-rrid/', { rrid: 'AB_1' })).headers['x-ratelimit-limit'], '60');
    assert.equal((await post('/api/ai/recommend/', { resource_name: 'x' })).headers['x-ratelimit-limit'], '20');
    assert.equal((await post('/api/ai/chat/', { message: 'help' })).headers['x-ratelimit-limit'], '10');
  });

  it("publishes OpenAPI with the specification's addresses only", async () => {
    const doc = (await get<{ paths: Record<string, unknown> }>('/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/check-doi-local/',
      '/api/doi-suggestions/',
      '/api/api/krt/{session_id}/',
      '/api/export/{session_id}/{format}/',
      '/api/api/ai/suggest-rrid/',
      '/api/api/ai/validate-rrid/',
      '/api/api/ai/recommend/',
      '/api/api/ai/chat/',
      '/api/api/browser/suggest-rrid/',
      '/api/api/browser/validate-rrid/',
      '/api/api/suggest-rrid/',
    ]) {
      assert.ok(paths.includes(p), `${p} in ${paths.join(' ')}`);
    }
    assert.ok(!paths.includes('/check-doi-local/'));
    assert.ok(!paths.includes('/api/krt/{session_id}/'));
  });
});
