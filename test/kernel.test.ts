// The HTTP kernel's promises, checked on a small service defined here, on SQLite and PostgreSQL.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { sql } from 'kysely';
import type { ServiceApp, ServiceContext, ServiceModule } from '../src/core/service.ts';
import { HttpError } from '../src/core/http/errors.ts';
import { booleanParam, clampLimit, dateParam, limitParam, pageParam, parseBoolean, parseDate } from '../src/core/http/params.ts';
import { withAliases } from '../src/core/http/service-app.ts';
import { rateLimitedGroup } from '../src/core/http/rate-limit.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { describeEachDatabase } from './support/databases.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { testService } from './support/probe-service.ts';

let handlerCalls = 0;

const kernelService: ServiceModule = testService({
  title: 'Kernel test service',
  cacheSeconds: 900,
  async routes(app: ServiceApp, ctx: ServiceContext) {
    app.get(
      '/api/items/',
      {
        schema: {
          querystring: Type.Object({
            page: pageParam(),
            limit: limitParam(20, 100),
            flag: Type.Optional(booleanParam('A flag.')),
            since: Type.Optional(dateParam('A date.')),
            q: Type.Optional(Type.String({ maxLength: 10 })),
          }),
        },
        config: { responseCache: true },
      },
      async (request) => {
        handlerCalls++;
        const q = request.query;
        parseDate(q.since, 'since');
        const row = await sql<{ one: number }>`select 1 as one`.execute(ctx.db.kysely);
        return {
          success: true,
          page: q.page,
          limit: clampLimit(q.limit, 100),
          flag: parseBoolean(q.flag) ?? null,
          one: Number(row.rows[0].one),
        };
      },
    );
    app.get('/api/items/:id/', { schema: { params: Type.Object({ id: Type.Integer({ minimum: 1 }) }) } }, async (request) => {
      if (request.params.id > 10) throw new HttpError(404, 'item not found');
      return { id: request.params.id };
    });
    app.post('/api/echo/', { schema: { body: Type.Object({ text: Type.String() }) } }, async (request) => ({ echoed: request.body.text }));
    app.get('/api/boom/', { config: { operation: 'boom' } }, async () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    });
    await withAliases(app, { spec: '/api', aliases: [''] }, (scope) => {
      scope.get('/api/aliased/', async () => ({ ok: true }));
    });
    await rateLimitedGroup(app, ctx, { name: 'limited', max: 3 }, (scope) => {
      scope.get('/api/limited/', async () => ({ ok: true }));
    });
  },
});

describeEachDatabase('HTTP kernel', (t) => {
  let app: ServiceApp;
  before(async () => {
    app = await buildTestApp(kernelService, t.db);
  });
  after(async () => app.close());

  it('answers JSON with ETag and Cache-Control, and 304 on If-None-Match', async () => {
    const first = await app.inject('/api/items/?page=2&limit=500&flag=TRUE');
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json(), { success: true, page: 2, limit: 100, flag: true, one: 1 });
    assert.equal(first.headers['cache-control'], 'public, max-age=900');
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    const second = await app.inject({ url: '/api/items/?page=2&limit=500&flag=TRUE', headers: { 'if-none-match': etag } });
    assert.equal(second.statusCode, 304);
    assert.equal(second.body, '');
  });

  it('serves repeated identical requests from the response cache', async () => {
    const before = handlerCalls;
    const a = await app.inject('/api/items/?page=7');
    const b = await app.inject('/api/items/?page=7');
    assert.equal(a.body, b.body);
    assert.equal(handlerCalls, before + 1);
  });

  it('accepts a missing trailing slash and HEAD', async () => {
    assert.equal((await app.inject('/api/items')).statusCode, 200);
    const head = await app.inject({ method: 'HEAD', url: '/api/items/' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
  });

  it('serves alias addresses, hidden from OpenAPI', async () => {
    assert.equal((await app.inject('/api/api/aliased/')).statusCode, 200);
    assert.equal((await app.inject('/api/aliased/')).statusCode, 200);
    const doc = (await app.inject('/openapi.json')).json();
    assert.ok(doc.paths['/api/api/aliased/']);
    assert.equal(doc.paths['/api/aliased/'], undefined);
  });

  const badInputs: [string, number, RegExp][] = [
    ['/api/items/?page=0', 400, /^page must be at least 1$/],
    ['/api/items/?page=abc', 400, /^page must be an integer$/],
    ['/api/items/?limit=1.5', 400, /^limit must be an integer$/],
    ['/api/items/?limit=0', 400, /^limit must be at least 1$/],
    ['/api/items/?flag=yes', 400, /^flag must be true, false, 1 or 0$/],
    ['/api/items/?since=2024-13-01', 400, /since must be a real date/],
    ['/api/items/?since=yesterday', 400, /^since must be a date in the form YYYY-MM-DD$/],
    ['/api/items/?q=01234567890', 400, /^q must be at most 10 characters long$/],
    ['/api/items/abc/', 400, /^id must be an integer$/],
    ['/api/items/11/', 404, /^item not found$/],
    ['/api/nothing/', 404, /^no such endpoint: GET \/api\/nothing\/$/],
    ['/api/items/%E0%A4%A/', 400, /^invalid URL: it is not a valid url component$/],
  ];
  for (const [url, status, message] of badInputs) {
    it(`answers ${url} with ${status} and the service's JSON error body`, async () => {
      const res = await app.inject(url);
      assert.equal(res.statusCode, status);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const body = res.json();
      assert.equal(body.success, false);
      assert.match(body.error, message);
    });
  }

  it('answers other methods with 405 and Allow', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/items/' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
    assert.equal(res.json().error, 'GET method required');
    const get = await app.inject({ method: 'GET', url: '/api/echo' });
    assert.equal(get.statusCode, 405);
    assert.equal(get.headers.allow, 'POST');
    assert.equal(get.json().error, 'POST method required');
  });

  it('answers POST bodies: valid, missing field, not JSON, wrong type, too large', async () => {
    const ok = await app.inject({ method: 'POST', url: '/api/echo/', payload: { text: 'hi' } });
    assert.deepEqual(ok.json(), { echoed: 'hi' });
    const missing = await app.inject({ method: 'POST', url: '/api/echo/', payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error, 'text is required');
    const broken = await app.inject({
      method: 'POST',
      url: '/api/echo/',
      headers: { 'content-type': 'application/json' },
      payload: '{"text":',
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().error, 'request body is not valid JSON');
    const plain = await app.inject({ method: 'POST', url: '/api/echo/', headers: { 'content-type': 'text/plain' }, payload: 'hi' });
    assert.equal(plain.statusCode, 415);
    const big = await app.inject({ method: 'POST', url: '/api/echo/', payload: { text: 'x'.repeat(1024 * 1024 + 10) } });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().success, false);
  });

  it('refuses text no database column holds alike (a lone surrogate, NUL) with a 400 naming where it is', async () => {
    const json = (payload: string) =>
      app.inject({ method: 'POST', url: '/api/echo/', headers: { 'content-type': 'application/json' }, payload });
    const lone = await json('{"text":"RRID:AB_\\ud800"}');
    assert.equal(lone.statusCode, 400);
    assert.equal(lone.json().error, 'body.text: text is not valid Unicode (it holds a lone UTF-16 surrogate)');
    const nested = await json('{"text":"ok","more":[{"deep":"\\udc00x"}]}');
    assert.equal(nested.statusCode, 400);
    assert.equal(nested.json().error, 'body.more[0].deep: text is not valid Unicode (it holds a lone UTF-16 surrogate)');
    const key = await json('{"text":"ok","\\ud800":1}');
    assert.equal(key.statusCode, 400);
    assert.match(key.json().error, /^body: a name is not valid Unicode/);
    // a surrogate pair is one valid character
    const pair = await json('{"text":"\\ud83c\\udf32"}');
    assert.deepEqual(pair.json(), { echoed: '🌲' });
    const nul = await json('{"text":"a\\u0000b"}');
    assert.equal(nul.statusCode, 400);
    assert.equal(nul.json().error, 'body.text: text holds a NUL character (U+0000)');
    const query = await app.inject('/api/items/?q=a%00');
    assert.equal(query.statusCode, 400);
    assert.equal(query.json().error, 'query parameter q: text holds a NUL character (U+0000)');
    const path = await app.inject('/api/items/%00/');
    assert.equal(path.statusCode, 400);
  });

  it('hides internals of unexpected failures behind a generic 500 naming the operation', async () => {
    const res = await app.inject('/api/boom/');
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { success: false, error: 'boom error: unexpected failure', code: 'INTERNAL_ERROR' });
  });

  it('limits a rate-limited group per client with headers and Retry-After', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await app.inject({ url: '/api/limited/', remoteAddress: '10.9.9.9' });
      statuses.push(last.statusCode);
      if (i === 0) {
        assert.equal(last.headers['x-ratelimit-limit'], '3');
        assert.equal(last.headers['x-ratelimit-remaining'], '2');
        assert.ok(Number(last.headers['x-ratelimit-reset']) > 0);
      }
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.ok(Number(last!.headers['retry-after']) > 0);
    assert.equal(last!.json().code, 'RATE_LIMITED');
    const other = await app.inject({ url: '/api/limited/', remoteAddress: '10.9.9.8' });
    assert.equal(other.statusCode, 200);
    const unlimited = await app.inject({ url: '/api/items/', remoteAddress: '10.9.9.9' });
    assert.equal(unlimited.headers['x-ratelimit-limit'], undefined);
  });

  it('publishes OpenAPI, a docs page and metrics', async () => {
    const doc = (await app.inject('/openapi.json')).json();
    assert.equal(doc.info.title, 'Kernel test service');
    assert.ok(doc.paths['/api/items/'].get.parameters.some((p: { name: string }) => p.name === 'limit'));
    const docs = await app.inject('/docs');
    assert.match(String(docs.headers['content-type']), /text\/html/);
    assert.match(docs.body, /\/api\/items\//);
    const metrics = await app.inject('/metrics');
    assert.match(metrics.body, /http_request_duration_seconds_count\{[^}]*service="oral"/);
  });
});

// SQLite is a file in the process and cannot become unreachable; a PostgreSQL server can.
describe('HTTP kernel without its database [postgres]', () => {
  it('answers 503 while the database is unreachable', async () => {
    const down = openDatabase('postgres://postgres@127.0.0.1:1/none');
    const app = await buildTestApp(kernelService, testContext(kernelService, down));
    try {
      const res = await app.inject('/api/items/?page=99');
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 'SERVICE_UNAVAILABLE');
      assert.equal(res.json().success, false);
    } finally {
      await app.close();
      await down.close().catch(() => {});
    }
  });
});
