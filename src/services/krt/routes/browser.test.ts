// The browser extension's routes over HTTP, on SQLite and PostgreSQL (over the generated demo articles): the AI
// bodies plus the extension's names, CORS for any origin with preflights answered 204, the AI routes not
// cross-origin; then the table of error cases.
// (browser.test.ts beside the service runs the same route in a real browser.)
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeKrtHttp, itAnswersErrors } from '../../../../test/support/krt/http.ts';
import type { BrowserSuggestResponse, BrowserValidateResponse } from '../schemas/browser.ts';

type BrowserSuggest = Static<typeof BrowserSuggestResponse>;
type BrowserValidate = Static<typeof BrowserValidateResponse>;

const origin = { origin: 'https://www.overleaf.com' };

describeKrtHttp(
  'krt browser routes',
  (h) => {
    const { request } = h;

    it("browser routes: the AI bodies plus the extension's aliases, with CORS for any origin and preflights answered 204", async () => {
      for (const url of ['/api/api/browser/suggest-rrid/', '/api/browser/suggest-rrid/']) {
        const res = await request<BrowserSuggest>({
          method: 'POST',
          url,
          payload: {
            resource_name: 'rabbit anti-GFP (generated demo)',
            vendor: 'Example Immunoreagents (demo)',
            catalog_number: 'DEMO-AB-0101',
          },
          headers: origin,
        });
        assert.equal(res.status, 200);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.body.status, 'success');
        assert.ok(res.body.suggestions.length > 0);
        for (const s of res.body.suggestions) {
          assert.equal(s.rrid, s.suggested_rrid);
          assert.equal(s.confidence, s.confidence_score);
          assert.equal(s.catalog, s.catalog_number);
          assert.deepEqual(s.additional_info, {});
        }
        const preflight = await request({
          method: 'OPTIONS',
          url,
          headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers['access-control-allow-origin'], '*');
        assert.equal(preflight.headers['access-control-allow-methods'], 'GET, POST, OPTIONS');
        assert.equal(preflight.headers['access-control-allow-headers'], 'Content-Type');
        assert.equal(preflight.headers['access-control-max-age'], '86400');
      }
      for (const url of ['/api/api/browser/validate-rrid/', '/api/browser/validate-rrid']) {
        const res = await request<BrowserValidate>({ method: 'POST', url, payload: { rrid: 'AB-123' }, headers: origin });
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.deepEqual([res.body.success, res.body.status, res.body.validation.status], [true, 'success', 'invalid']);
        assert.equal(
          (await request({ method: 'OPTIONS', url, headers: { ...origin, 'access-control-request-method': 'POST' } })).status,
          204,
        );
      }
      for (const url of ['/api/api/suggest-rrid/', '/api/suggest-rrid/']) {
        const q = new URLSearchParams({
          resource_name: 'rabbit anti-GFP (generated demo)',
          resource_type: 'antibody',
          vendor: 'Example Immunoreagents (demo)',
          catalog_number: 'DEMO-AB-0101',
        });
        const res = await request<BrowserSuggest>({ url: `${url}?${q}`, headers: origin });
        assert.equal(res.status, 200);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(res.body.suggestions[0].rrid, 'RRID:AB_0000101');
        assert.equal(
          (await request({ method: 'OPTIONS', url, headers: { ...origin, 'access-control-request-method': 'GET' } })).status,
          204,
        );
      }
      // The AI routes are not cross-origin.
      const ai = await request({ method: 'POST', url: '/api/api/ai/suggest-rrid/', payload: { resource_name: 'x' }, headers: origin });
      assert.equal(ai.headers['access-control-allow-origin'], undefined);
    });

    itAnswersErrors(h, [
      {
        name: 'suggest-rrid without a resource name (the page can read the error too)',
        method: 'POST',
        url: '/api/api/browser/suggest-rrid/',
        payload: {},
        headers: origin,
        status: 400,
        error: /^resource_name is required$/,
        also: (res) => assert.equal(res.headers['access-control-allow-origin'], '*'),
      },
      {
        name: 'a preflight of an AI route (not cross-origin)',
        method: 'OPTIONS',
        url: '/api/api/ai/suggest-rrid/',
        headers: { ...origin, 'access-control-request-method': 'POST' },
        status: 405,
      },
      {
        name: 'a preflight of an unknown browser path',
        method: 'OPTIONS',
        url: '/api/api/browser/nothing/',
        headers: { ...origin, 'access-control-request-method': 'POST' },
        status: 404,
      },
      { name: 'GET of the POST route', method: 'GET', url: '/api/api/browser/suggest-rrid/', status: 405 },
    ]);
  },
  { data: 'demo' },
);
