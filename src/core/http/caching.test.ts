// The response cache and compression: encoded Buffers bounded by bytes, brotli/gzip variants with Vary, the same
// bytes after decompression, a 304 per representation, and nothing but validated 200s stored (both databases).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { Type } from 'typebox';
import type { ServiceApp, ServiceContext, ServiceModule } from '../service.ts';
import { HttpError } from './errors.ts';
import { rateLimitedGroup } from './rate-limit.ts';
import fc from 'fast-check';
import { ResponseCache, etagMatches, preferredEncoding, strongEtag, utf8Bytes, variantEtag } from './caching.ts';
import type { CachedResponse } from './caching.ts';
import http from 'node:http';
import { DataVersionWatcher } from '../service.ts';
import { buildServiceApp, directHitsOf } from './service-app.ts';
import { describeEachDatabase } from '../../../test/support/databases.ts';
import { recordNewVersion } from '../../../test/support/data-version.ts';
import { testService } from '../../../test/support/probe-service.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';

function entry(bytes: number, version = 'v1'): CachedResponse {
  const identity = Buffer.alloc(bytes, 'x');
  return { version, etag: strongEtag(identity), contentType: 'application/json', cacheControl: 'no-cache', compressible: true, identity };
}

describe('ResponseCache', () => {
  it('holds Buffers within its byte bound, evicting the least recently used first', () => {
    const cache = new ResponseCache(64 * 1024);
    for (let i = 0; i < 10; i++) cache.set(`/k${i}`, entry(7 * 1024));
    assert.ok(cache.bytes <= cache.maxBytes, `${cache.bytes} bytes held, bound ${cache.maxBytes}`);
    assert.ok(cache.size < 10 && cache.size >= 8, `${cache.size} entries`);
    assert.equal(cache.get('/k0', 'v1'), undefined, 'the oldest entry went first');
    assert.ok(cache.get('/k9', 'v1'));
    // Touching an entry keeps it: the next one out is the least recently used.
    const survivor = `/k${10 - cache.size}`;
    assert.ok(cache.get(survivor, 'v1'));
    cache.set('/new', entry(7 * 1024));
    assert.ok(cache.get(survivor, 'v1'), 'a recently read entry survives');
    assert.equal(cache.get(`/k${11 - cache.size}`, 'v1'), undefined);
  });

  it('counts compressed variants in its bytes and refuses one answer larger than an eighth of the bound', () => {
    const cache = new ResponseCache(64 * 1024);
    const e = entry(4 * 1024);
    cache.set('/a', e);
    const before = cache.bytes;
    cache.addVariant('/a', e, 'gzip', Buffer.alloc(100));
    assert.equal(cache.bytes, before + 100);
    cache.set('/huge', entry(9 * 1024));
    assert.equal(cache.get('/huge', 'v1'), undefined);
    cache.set('/a', entry(1024));
    assert.ok(cache.bytes < before, 'replacing an entry releases its bytes');
  });

  it('drops an entry of an older data version', () => {
    const cache = new ResponseCache(64 * 1024);
    cache.set('/a', entry(2048, 'v1'));
    assert.equal(cache.get('/a', 'v2'), undefined);
    assert.equal(cache.size, 0);
    assert.equal(cache.bytes, 0);
  });

  it('stops serving an entry after its expiry (pages), and keeps one without', () => {
    const cache = new ResponseCache(64 * 1024);
    cache.set('/page', { ...entry(2048), expiresAt: Date.now() - 1 });
    cache.set('/fresh-page', { ...entry(2048), expiresAt: Date.now() + 60_000 });
    cache.set('/api', entry(2048));
    assert.equal(cache.get('/page', 'v1'), undefined);
    assert.ok(cache.get('/fresh-page', 'v1'));
    assert.ok(cache.get('/api', 'v1'));
  });
});

describe('content negotiation', () => {
  it('prefers brotli, then gzip, honouring q=0', () => {
    assert.equal(preferredEncoding('gzip, deflate, br'), 'br');
    assert.equal(preferredEncoding('gzip'), 'gzip');
    assert.equal(preferredEncoding('br;q=0, gzip;q=0.5'), 'gzip');
    assert.equal(preferredEncoding('identity'), null);
    assert.equal(preferredEncoding('*'), 'br');
    assert.equal(preferredEncoding('*, br;q=0'), 'gzip');
    assert.equal(preferredEncoding(undefined), null);
  });

  it('gives each encoding its own strong tag', () => {
    const tag = strongEtag('body');
    assert.notEqual(variantEtag(tag, 'br'), tag);
    assert.notEqual(variantEtag(tag, 'br'), variantEtag(tag, 'gzip'));
    assert.equal(etagMatches(`${tag}, ${variantEtag(tag, 'gzip')}`, variantEtag(tag, 'gzip')), true);
    assert.equal(etagMatches(tag, variantEtag(tag, 'br')), false);
  });
});

describe('utf8Bytes', () => {
  const ownsItsBytes = (buffer: Buffer) => buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length;

  it("gives Buffer.from's bytes for any text, short or long, one-byte or UTF-16, in a Buffer of its own", () => {
    const padding = 'é, ’ – x'.repeat(150);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary-ascii', maxLength: 2000 }), (wide, ascii) => {
        for (const text of [wide, ascii, `${wide}${padding}`, `${padding}${wide}`, `\ufeff${ascii}${wide}${padding}`]) {
          const bytes = utf8Bytes(text);
          assert.ok(bytes.equals(Buffer.from(text)), JSON.stringify(text.slice(0, 40)));
          assert.ok(ownsItsBytes(bytes));
        }
      }),
      { seed: 1, numRuns: 200 },
    );
  });

  it('writes a lone surrogate as U+FFFD, as Buffer.from does', () => {
    for (const text of [`${'’'.repeat(2000)}\ud800`, `\udfff${'é’'.repeat(1000)}`, `a\ud83d${'’'.repeat(1500)}\ude00b`]) {
      const bytes = utf8Bytes(text);
      assert.ok(bytes.equals(Buffer.from(text)));
      assert.ok(bytes.includes(Buffer.from([0xef, 0xbf, 0xbd])));
      assert.ok(ownsItsBytes(bytes));
    }
  });
});

let calls = 0;
// 200 records with text above U+00FF: about 16 KB of JSON, worth compressing.
const records = Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Fluorure — étude ${i} (Ελληνικά, 日本語)` }));

const cachingService: ServiceModule = testService({
  title: 'Caching test service',
  cacheSeconds: 60,
  async routes(app: ServiceApp, ctx: ServiceContext) {
    app.get(
      '/big/',
      { schema: { querystring: Type.Object({ n: Type.Optional(Type.Integer({ minimum: 0 })) }) }, config: { responseCache: true } },
      async (request) => {
        calls++;
        return { n: request.query.n ?? null, records };
      },
    );
    // A route that tags its answer itself (strong), or weakly when asked.
    app.get(
      '/tagged/',
      { schema: { querystring: Type.Object({ weak: Type.Optional(Type.Boolean()) }) }, config: { responseCache: true } },
      async (request, reply) => {
        calls++;
        reply.header('etag', request.query.weak ? 'W/"route-tag-1"' : '"route-tag-1"');
        return { records };
      },
    );
    app.get('/small/', { config: { responseCache: true } }, async () => {
      calls++;
      return { ok: true };
    });
    app.get('/missing/', { config: { responseCache: true } }, async () => {
      calls++;
      throw new HttpError(404, `not found ${'padding '.repeat(200)}`);
    });
    await rateLimitedGroup(app, ctx, { name: 'limited', max: 3 }, (scope) => {
      scope.get('/limited/', { config: { responseCache: true } }, async () => {
        calls++;
        return { ok: true };
      });
    });
  },
});

describeEachDatabase('response cache and compression over HTTP', (t) => {
  let app: ServiceApp;
  before(async () => {
    app = await buildTestApp(cachingService, t.db);
  });
  after(async () => app.close());

  it('answers a hit from the cache with the same bytes and tag, without the handler', async () => {
    const first = await app.inject('/big/?n=1');
    const before = calls;
    const second = await app.inject('/big/?n=1');
    assert.equal(calls, before, 'the handler did not run again');
    assert.equal(second.statusCode, 200);
    assert.ok(first.rawPayload.equals(second.rawPayload));
    assert.equal(second.headers.etag, first.headers.etag);
    assert.equal(second.headers['content-type'], first.headers['content-type']);
    assert.equal(second.headers['cache-control'], 'public, max-age=60');
    assert.equal(second.headers.vary, 'accept-encoding');
    assert.equal(second.headers['content-encoding'], undefined);
    assert.deepEqual(second.json(), { n: 1, records });
  });

  for (const [encoding, inflate] of [
    ['br', zlib.brotliDecompressSync],
    ['gzip', zlib.gunzipSync],
  ] as const) {
    it(`sends a ${encoding} variant with Vary: Accept-Encoding, identical after decompression, on a miss and on a hit`, async () => {
      const url = `/big/?n=${encoding.length + 10}`;
      const identity = await app.inject(url);
      const miss = await app.inject({ url: `${url}&x=${encoding}`, headers: { 'accept-encoding': encoding } });
      const hit = await app.inject({ url, headers: { 'accept-encoding': encoding } });
      const again = await app.inject({ url, headers: { 'accept-encoding': encoding } });
      for (const res of [miss, hit, again]) {
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-encoding'], encoding);
        assert.match(String(res.headers.vary), /accept-encoding/);
        assert.ok(res.rawPayload.length < identity.rawPayload.length / 2, `${res.rawPayload.length} compressed bytes`);
      }
      assert.ok(inflate(hit.rawPayload).equals(identity.rawPayload), 'the same bytes after decompression');
      assert.ok(again.rawPayload.equals(hit.rawPayload), 'the stored variant is sent again');
      assert.equal(hit.headers.etag, variantEtag(identity.headers.etag as string, encoding));
      assert.notEqual(hit.headers.etag, identity.headers.etag);
    });
  }

  it('answers 304 only to the tag of the representation asked for', async () => {
    const url = '/big/?n=30';
    const identity = await app.inject(url);
    const br = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    const identityTag = identity.headers.etag as string;
    const brTag = br.headers.etag as string;
    const cases: [Record<string, string>, number, string][] = [
      [{ 'if-none-match': identityTag }, 304, identityTag],
      [{ 'if-none-match': brTag, 'accept-encoding': 'br' }, 304, brTag],
      // The client holds the identity bytes but now accepts brotli: it must get the brotli body, not a 304.
      [{ 'if-none-match': identityTag, 'accept-encoding': 'br' }, 200, brTag],
      [{ 'if-none-match': brTag }, 200, identityTag],
      [{ 'if-none-match': `"other", W/${brTag}`, 'accept-encoding': 'gzip, br' }, 304, brTag],
    ];
    for (const [headers, status, tag] of cases) {
      const res = await app.inject({ url, headers });
      assert.equal(res.statusCode, status, JSON.stringify(headers));
      assert.equal(res.headers.etag, tag, JSON.stringify(headers));
      if (status === 304) assert.equal(res.rawPayload.length, 0);
    }
    // The same on a miss (the first request of a URL): the tag compared is the representation's.
    const fresh = await app.inject({ url: '/big/?n=31', headers: { 'if-none-match': identityTag, 'accept-encoding': 'br' } });
    assert.equal(fresh.statusCode, 200);
    const freshBr = await app.inject({ url: '/big/?n=32', headers: { 'accept-encoding': 'br' } });
    const revalidated = await app.inject({
      url: '/big/?n=32',
      headers: { 'accept-encoding': 'br', 'if-none-match': freshBr.headers.etag as string },
    });
    assert.equal(revalidated.statusCode, 304);
  });

  it('leaves small answers uncompressed and without Vary', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ url: '/small/', headers: { 'accept-encoding': 'br' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(res.headers.vary, undefined);
      assert.deepEqual(res.json(), { ok: true });
    }
  });

  it('never stores an answer other than 200: errors and invalid requests reach the handler or validation each time', async () => {
    const before = calls;
    for (let i = 0; i < 3; i++) {
      const res = await app.inject('/missing/');
      assert.equal(res.statusCode, 404);
      assert.equal(res.headers.etag, undefined);
    }
    assert.equal(calls, before + 3);
    for (let i = 0; i < 2; i++) assert.equal((await app.inject('/big/?n=-1')).statusCode, 400);
    assert.equal(calls, before + 3);
    // An error body over 1 KB is still compressed when asked, and still not stored.
    const compressed = await app.inject({ url: '/missing/', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(compressed.statusCode, 404);
    assert.equal(compressed.headers['content-encoding'], 'gzip');
    assert.match(JSON.parse(zlib.gunzipSync(compressed.rawPayload).toString()).error, /^not found/);
    assert.equal(calls, before + 4);
  });

  it('forgets cached answers when the data version changes', async () => {
    await app.inject('/big/?n=40');
    const before = calls;
    await app.inject('/big/?n=40');
    assert.equal(calls, before);
    await recordNewVersion(t.db.kysely, 'oral');
    await app.inject('/big/?n=40');
    assert.equal(calls, before + 1);
  });

  it('counts a hit against the rate limit of its group', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await app.inject('/limited/')).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
  });

  it("caches an answer under the route's own strong tag, and derives the compressed variants' tags from it", async () => {
    const first = await app.inject('/tagged/');
    assert.equal(first.headers.etag, '"route-tag-1"');
    const before = calls;
    const hit = await app.inject('/tagged/');
    assert.equal(calls, before, 'a hit: the handler did not run');
    assert.equal(hit.headers.etag, '"route-tag-1"');
    assert.ok(hit.rawPayload.equals(first.rawPayload));
    const br = await app.inject({ url: '/tagged/', headers: { 'accept-encoding': 'br' } });
    assert.equal(br.headers.etag, '"route-tag-1-br"');
    assert.equal((await app.inject({ url: '/tagged/', headers: { 'if-none-match': '"route-tag-1"' } })).statusCode, 304);
    const weak = [await app.inject('/tagged/?weak=true'), await app.inject('/tagged/?weak=true')];
    assert.equal(weak[1].headers.etag, 'W/"route-tag-1"');
    assert.equal(calls, before + 2, 'a weak tag is not cached: the handler ran each time');
  });

  it('answers HEAD from the cache without a body', async () => {
    await app.inject('/big/?n=50');
    const head = await app.inject({ method: 'HEAD', url: '/big/?n=50' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.rawPayload.length, 0);
    assert.ok(head.headers.etag);
  });
});

/** One request over a real socket (fastify.inject does not pass through the HTTP server's listener). */
function request(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers that say what an answer is (the connection's and the clock's left out). */
function answerHeaders(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
  return rest;
}

describeEachDatabase('direct cache hits (before Fastify) over a listening socket', (t) => {
  // Two apps on the same data: one answers hits in its listener, the other through Fastify's hooks.
  let direct: ServiceApp;
  let hooked: ServiceApp;
  let ports: { direct: number; hooked: number };
  let directWatcher: DataVersionWatcher;
  before(async () => {
    directWatcher = new DataVersionWatcher(t.db, 'oral', 60_000);
    direct = await buildServiceApp(cachingService, { ...testContext(cachingService, t.db), dataVersion: directWatcher }, { logger: false });
    hooked = await buildServiceApp(
      cachingService,
      { ...testContext(cachingService, t.db), dataVersion: new DataVersionWatcher(t.db, 'oral', 60_000) },
      { logger: false, directHits: false },
    );
    await direct.listen({ port: 0, host: '127.0.0.1' });
    await hooked.listen({ port: 0, host: '127.0.0.1' });
    const portOf = (app: ServiceApp) => (app.server.address() as { port: number }).port;
    ports = { direct: portOf(direct), hooked: portOf(hooked) };
  });
  after(async () => {
    await direct.close();
    await hooked.close();
  });

  it('answers exactly what the Fastify path answers (status, headers, bytes) for every representation, 304 and HEAD', async () => {
    const url = '/big/?n=70';
    const tags: Record<string, string> = {};
    // Each app stores the answer and its two compressed variants (the first request of each encoding goes to Fastify).
    for (const port of [ports.direct, ports.hooked])
      for (const encoding of ['identity', 'br', 'gzip']) {
        const res = await request(port, 'GET', url, { 'accept-encoding': encoding });
        tags[encoding] = String(res.headers.etag);
      }
    const counter = directHitsOf(direct)!;
    const cases: Array<[string, Record<string, string>]> = [
      ['GET', {}],
      ['GET', { 'accept-encoding': 'br' }],
      ['GET', { 'accept-encoding': 'gzip, deflate' }],
      ['GET', { 'accept-encoding': 'br', 'x-no-compression': '1' }],
      ['GET', { 'if-none-match': tags.identity }],
      ['GET', { 'if-none-match': tags.br, 'accept-encoding': 'br' }],
      ['GET', { 'if-none-match': tags.identity, 'accept-encoding': 'br' }],
      ['HEAD', {}],
      ['HEAD', { 'accept-encoding': 'gzip' }],
    ];
    const handlerCalls = calls;
    for (const [method, headers] of cases) {
      const answered = counter.answered;
      const mine = await request(ports.direct, method, url, headers);
      const theirs = await request(ports.hooked, method, url, headers);
      const what = `${method} ${JSON.stringify(headers)}`;
      assert.equal(counter.answered, answered + 1, `${what}: answered directly`);
      assert.equal(mine.status, theirs.status, what);
      assert.deepEqual(answerHeaders(mine.headers), answerHeaders(theirs.headers), what);
      assert.ok(mine.body.equals(theirs.body), `${what}: the same bytes`);
    }
    assert.equal(calls, handlerCalls, 'no handler ran');
    // the small, uncompressed answer too
    await request(ports.direct, 'GET', '/small/');
    await request(ports.hooked, 'GET', '/small/');
    const small = [await request(ports.direct, 'GET', '/small/'), await request(ports.hooked, 'GET', '/small/')];
    assert.deepEqual(answerHeaders(small[0].headers), answerHeaders(small[1].headers));
    assert.ok(small[0].body.equals(small[1].body));
  });

  it("counts a hit of a rate-limited route in the limit's own counters, with its headers, and leaves the 429 to Fastify", async () => {
    const counter = directHitsOf(direct)!;
    const byPath: Array<'direct' | 'fastify'> = [];
    for (let i = 0; i < 5; i++) {
      const answered = counter.answered;
      const mine = await request(ports.direct, 'GET', '/limited/');
      const theirs = await request(ports.hooked, 'GET', '/limited/');
      byPath.push(counter.answered > answered ? 'direct' : 'fastify');
      assert.equal(mine.status, theirs.status, `request ${i + 1}`);
      assert.deepEqual(answerHeaders(mine.headers), answerHeaders(theirs.headers), `request ${i + 1}`);
      assert.ok(mine.body.equals(theirs.body), `request ${i + 1}: the same bytes`);
      assert.equal(mine.status, i < 3 ? 200 : 429, `request ${i + 1}: every hit counted against the limit of 3`);
      assert.equal(mine.headers['x-ratelimit-remaining'], String(Math.max(0, 2 - i)), `request ${i + 1}`);
    }
    // The first is a miss; the next two are hits answered by the listener; past the limit the plugin answers.
    assert.deepEqual(byPath, ['fastify', 'direct', 'direct', 'fastify', 'fastify']);
  });

  for (const trustProxy of [true, ['127.0.0.1'], 1] as Array<boolean | number | string[]>)
    it(`behind a trusted proxy (${JSON.stringify(trustProxy)}), counts each forwarded client as Fastify's request.ip does`, async () => {
      const behind = async (directHits: boolean) => {
        const ctx = { ...testContext(cachingService, t.db, { trustProxy }), dataVersion: new DataVersionWatcher(t.db, 'oral', 60_000) };
        const app = await buildServiceApp(cachingService, ctx, { logger: false, directHits });
        await app.listen({ port: 0, host: '127.0.0.1' });
        return { app, port: (app.server.address() as { port: number }).port };
      };
      const mine = await behind(true);
      const theirs = await behind(false);
      try {
        const counter = directHitsOf(mine.app)!;
        // Forwarded chains: the client is the nearest address the rule does not trust (the peer is 127.0.0.1).
        const chains = ['192.0.2.1', '192.0.2.1', '192.0.2.2', '198.51.100.7, 192.0.2.1', '192.0.2.1', '192.0.2.1', '192.0.2.2'];
        const statuses: number[] = [];
        for (const [i, chain] of chains.entries()) {
          const a = await request(mine.port, 'GET', '/limited/', { 'x-forwarded-for': chain });
          const b = await request(theirs.port, 'GET', '/limited/', { 'x-forwarded-for': chain });
          assert.equal(a.status, b.status, `request ${i + 1}`);
          assert.deepEqual(answerHeaders(a.headers), answerHeaders(b.headers), `request ${i + 1}`);
          assert.ok(a.body.equals(b.body), `request ${i + 1}: the same bytes`);
          statuses.push(a.status);
        }
        // true trusts every hop, so 198.51.100.7 is the client of the fourth; the others stop at 192.0.2.1.
        const expected = trustProxy === true ? [200, 200, 200, 200, 200, 429, 200] : [200, 200, 200, 200, 429, 429, 200];
        assert.deepEqual(statuses, expected, 'counted per forwarded client');
        assert.ok(counter.answered >= 3, `hits answered by the listener: ${counter.answered}`);
      } finally {
        await mine.app.close();
        await theirs.app.close();
      }
    });

  it('leaves new encodings, new data versions and a closing server to Fastify', async () => {
    const counter = directHitsOf(direct)!;
    const answered = counter.answered;

    await request(ports.direct, 'GET', '/big/?n=71');
    const before = calls;
    const br = await request(ports.direct, 'GET', '/big/?n=71', { 'accept-encoding': 'br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(counter.answered, answered, 'the first brotli request was compressed by the Fastify path');
    assert.equal(calls, before, 'from the cache all the same');

    await recordNewVersion(t.db.kysely, 'oral');
    directWatcher.invalidate(); // as an import does
    await request(ports.direct, 'GET', '/big/?n=71');
    assert.equal(calls, before + 1, 'a new data version: the handler ran');

    counter.closing = true;
    const closing = await request(ports.direct, 'GET', '/big/?n=71');
    assert.equal(closing.status, 200);
    assert.equal(counter.answered, answered, 'while closing, Fastify answers');
    counter.closing = false;
  });
});
