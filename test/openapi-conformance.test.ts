// OpenAPI: the live answers of every operation of every service, on demo data and both databases, are
// what the published OpenAPI 3.1 document says: the status is documented, the content type is documented for it,
// and a JSON body validates against the documented schema (ajv, JSON Schema 2020-12, ajv-formats). A success body
// may not carry a property its schema does not declare (the serialiser drops those, so only streamed answers could).
// Each operation is called to succeed (its path values are found in the answers of the other operations), and to
// fail: NUL in the query (400), another method (405), unknown path values (4xx), bodies that are not JSON (415),
// too large (413) or broken (400), a client over its rate limit (429), If-None-Match (304), and, on PostgreSQL, a
// database that is down (503).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/core/db/database.ts';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { AS_OF_VARIABLE } from '../src/services/draws/as-of.ts';
import { demoArticles } from '../src/services/krt/demo.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { Conformance } from './support/openapi-check.ts';
import type { Call, Document } from './support/openapi-check.ts';
import { describeEachDatabase, needsSharedData } from './support/databases.ts';
import { startSourceServer } from './support/sync/source-server.ts';
import type { SourceServer } from './support/sync/source-server.ts';

const DEMO_SIZES: Record<string, number> = { oral: 40, krt: 3, grants: 1500, draws: 120, retraction: 150 };
const ADMIN_TOKEN = 'conformance-test-token';

/**
 * Values the operations need that the demo data answers cannot give by name: bodies of POSTs, required query
 * parameters, and path values found under another name. Keys: "METHOD /path"; values: (found) => parts of the call.
 */
/** A value found under `name` in the answers so far (only in the answer of operation `from`, when given). */
type Found = (name: string, from?: string) => string | undefined;
type Example = {
  path?: Record<string, string | undefined>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The status the success call gives on demo data when it cannot be 2xx (with the reason beside it). */
  expect?: number;
};
const EXAMPLES: Record<string, Record<string, (found: Found) => Example>> = {
  oral: {},
  krt: {
    'GET /api/check-doi-local/': (f) => ({ query: doiQuery(f('doi', 'GET /api/doi-suggestions/')) }),
    'POST /api/check-doi-local/': (f) => ({ body: doiBody(f('doi', 'GET /api/doi-suggestions/')) }),
    'GET /api/doi-suggestions/': () => ({ query: 'q=10.' }),
    'GET /api/api/krt/doi/{doi}': (f) => ({ path: { doi: f('doi', 'GET /api/doi-suggestions/') } }),
    'GET /api/api/krt/{session_id}/': (f) => ({ path: { session_id: f('session_id', 'GET /api/api/krt/doi/{doi}') } }),
    'GET /api/export/{session_id}/{format}/': (f) => ({
      path: { session_id: f('session_id', 'GET /api/api/krt/doi/{doi}'), format: 'csv' },
    }),
    'POST /api/api/ai/suggest-rrid/': () => ({ body: { resource_name: 'anti-GFP antibody', resource_type: 'antibody' } }),
    'POST /api/api/ai/validate-rrid/': () => ({ body: { rrid: 'RRID:AB_0000101' } }),
    'POST /api/api/ai/recommend/': () => ({ body: { resource_name: 'anti-GFP antibody', resource_type: 'antibody' } }),
    'POST /api/api/ai/chat/': () => ({ body: { message: 'add anti-GFP antibody' } }),
    'POST /api/api/browser/suggest-rrid/': () => ({ body: { resource_name: 'anti-GFP antibody', resource_type: 'antibody' } }),
    'POST /api/api/browser/validate-rrid/': () => ({ body: { rrid: 'RRID:AB_0000101' } }),
    'GET /api/api/suggest-rrid/': () => ({ query: 'resource_name=anti-GFP%20antibody' }),
    'POST /api/api/krt/extract/': (f) => ({
      body: doiBody(f('doi', 'GET /api/doi-suggestions/')),
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    }),
    // Against the local bioRxiv of krtUpstream (below): a paper the demo store does not hold yet.
    'POST /api/api/krt/fetch/': () => ({ body: { doi: KRT_FETCHED.doi }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
  },
  grants: {
    'POST /api/api/calculate/': () => ({ body: { annual_income: 65000 } }),
    'GET /api/api/grants/{id}/taxpayer-share/': (f) => ({ path: { id: f('id') }, query: 'annual_income=65000' }),
  },
  draws: {},
  retraction: {
    'GET /api/search-autocomplete/': (f) => {
      const word = f('title')
        ?.split(/[^\p{L}]+/u)
        .find((w) => w.length >= 4);
      return { query: word ? `q=${encodeURIComponent(word)}` : undefined };
    },
    'GET /api/paper/{record_id}/citations/': (f) => ({ path: { record_id: f('record_id') ?? f('id') } }),
    'GET /api/papers/{record_id}/citing-works/': (f) => ({ path: { record_id: f('record_id') ?? f('id') } }),
    // The demo data has no fitted model (fitting is `pdi fit retraction`): the documented 404 NO_DRAWS.
    'GET /api/democracy/draws/': () => ({ expect: 404 }),
    // Nor any kept fit: the documented 404 NO_FIT.
    'GET /api/democracy/log-lik/': () => ({ query: 'model=negbinomial2-centred', expect: 404 }),
  },
};

// B's fetch route asks bioRxiv (then Europe PMC) over HTTP: here a local server plays both (as in the sync tests),
// with bioRxiv's details record and JATS file of one more generated article; every other DOI is unknown there.
const KRT_FETCHED = demoArticles(DEMO_SIZES.krt + 1, 7).at(-1)!;

async function krtUpstream(): Promise<{ server: SourceServer; env: Record<string, string> }> {
  const server = await startSourceServer();
  const json = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)), contentType: 'application/json' });
  const jatsPath = `/content/${KRT_FETCHED.doi.slice('10.1101/'.length)}v1.source.xml`;
  server.put(
    `/biorxiv/details/biorxiv/${KRT_FETCHED.doi}/na/json`,
    json({ messages: [{ status: 'ok' }], collection: [{ doi: KRT_FETCHED.doi, version: '1', jatsxml: server.url(jatsPath) }] }),
  );
  server.put(jatsPath, { body: Buffer.from(KRT_FETCHED.xml), contentType: 'application/xml' });
  server.put('/epmc/search', json({ hitCount: 0, resultList: { result: [] } }));
  return {
    server,
    // The fake upstream listens on loopback, which B's fetch refuses unless told.
    env: {
      PDI_SYNC_URL_KRT: server.url('/biorxiv'),
      PDI_SYNC_URL_KRT_EUROPEPMC: server.url('/epmc/'),
      PDI_SYNC_RETRIES: '1',
      PDI_KRT_FETCH_ALLOW_PRIVATE: 'true',
    },
  };
}

/** Other formats of downloads, each called too. */
const FORMATS: Record<string, string[]> = {
  'krt GET /api/export/{session_id}/{format}/': ['json', 'excel'],
  'retraction GET /api/export/': ['format=csv', 'format=excel', 'format=json'],
  'retraction GET /api/export-search/': ['format=csv', 'format=excel', 'format=json'],
  'retraction GET /api/analytics-data/': ['format=csv'],
};

const encode = (value: string) => value.split('/').map(encodeURIComponent).join('/');
/** undefined (wait for a later pass) until the value is known. */
const doiQuery = (doi: string | undefined) => (doi ? `doi=${encodeURIComponent(doi)}` : undefined);
const doiBody = (doi: string | undefined) => (doi ? { doi } : undefined);

function fillPath(route: string, values: Record<string, string | undefined>): string | null {
  let missing = false;
  const url = route.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return name === 'doi' ? encode(value ?? '') : encodeURIComponent(value ?? '');
  });
  return missing ? null : url;
}

/** The first value found under `name` in the answers collected so far (depth-first), as text. */
function finder(bodies: Array<[string, unknown]>): Found {
  return (name, from) => {
    const pending: unknown[] = bodies.filter(([op]) => from === undefined || op === from).map(([, body]) => body);
    while (pending.length > 0) {
      const value = pending.shift();
      if (Array.isArray(value)) pending.unshift(...value);
      else if (value !== null && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        const hit = record[name];
        if ((typeof hit === 'string' && hit !== '') || typeof hit === 'number') return String(hit);
        pending.unshift(...Object.values(record));
      }
    }
    return undefined;
  };
}

function suite(service: ServiceModule): void {
  const gate = service.name === 'retraction' ? needsSharedData('retraction') : { problem: null };
  describeEachDatabase(
    `live answers of every ${service.name} operation against its OpenAPI document`,
    (t) => {
      let dir: string;
      let app: ServiceApp;
      let doc: Document;
      let upstream: SourceServer | undefined;
      let client = 0;
      const nextAddress = () => {
        client++;
        return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
      };
      const env = { ...process.env, [AS_OF_VARIABLE]: '2025-12-17', PDI_KRT_ADMIN_TOKEN: ADMIN_TOKEN };

      before(async () => {
        if (gate.problem) throw new Error(gate.problem);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-conformance-${service.name}-`));
        if (service.name === 'krt') {
          const local = await krtUpstream();
          upstream = local.server;
          Object.assign(env, local.env);
        }
        const ctx = testContext(service, t.db, { dataDir: dir, env });
        await service.loadDemo(ctx, { size: DEMO_SIZES[service.name], seed: 7 });
        app = await buildTestApp(service, ctx);
        doc = (await app.inject('/openapi.json')).json() as Document;
      });
      after(async () => {
        await app?.close();
        await upstream?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      it('answers every operation as its document says: successes, errors, 304, 429, 503', { timeout: 600_000 }, async () => {
        const conformance = new Conformance(doc);
        const operations = Object.entries(doc.paths).flatMap(([route, item]) =>
          Object.entries(item).map(([method, op]) => ({ route, method, op })),
        );
        assert.ok(operations.length >= 5, `${operations.length} operations`);
        const send = async (app: ServiceApp, route: string, method: string, call: Call) => {
          const res = await app.inject({
            method: call.method as 'GET',
            url: call.url,
            headers: call.headers,
            payload: call.payload,
            remoteAddress: call.remoteAddress ?? nextAddress(),
          });
          conformance.check(route, method, call, res);
          return res;
        };

        // 1. Successes, in passes: an operation waits until the answers of others give the values it needs.
        const bodies: Array<[string, unknown]> = [];
        const found = finder(bodies);
        const successes = new Map<string, Call>();
        const waiting = new Map<string, string>();
        let pending = [...operations];
        for (let progress = true; progress && pending.length > 0;) {
          progress = false;
          const next: typeof pending = [];
          for (const entry of pending) {
            const { route, method, op } = entry;
            const key = `${method.toUpperCase()} ${route}`;
            const example = EXAMPLES[service.name]?.[key]?.(found) ?? {};
            const pathValues: Record<string, string | undefined> = { ...example.path };
            for (const name of route.match(/\{([^}]+)\}/g)?.map((m) => m.slice(1, -1)) ?? []) pathValues[name] ??= found(name);
            const url = fillPath(route, pathValues);
            const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name);
            const missing = required.filter((name) => !new URLSearchParams(example.query ?? '').has(name));
            const needsBody = op.requestBody !== undefined && example.body === undefined && EXAMPLES[service.name]?.[key] !== undefined;
            if (url === null || missing.length > 0 || needsBody) {
              waiting.set(
                key,
                url === null ? 'no value for its path parameters' : missing.length ? `no value for ${missing.join(', ')}` : 'no body yet',
              );
              next.push(entry);
              continue;
            }
            waiting.delete(key);
            progress = true;
            const call: Call = {
              what: 'success',
              method: method.toUpperCase(),
              url: example.query ? `${url}?${example.query}` : url,
              headers: { ...(op.requestBody ? { 'content-type': 'application/json' } : {}), ...example.headers },
              payload: op.requestBody ? JSON.stringify(example.body ?? {}) : undefined,
            };
            const res = await send(app, route, method, call);
            const expected = example.expect;
            if (expected !== undefined ? res.statusCode !== expected : res.statusCode >= 300)
              waiting.set(key, `the success call answered ${res.statusCode} ${res.body.slice(0, 200)}`);
            else {
              successes.set(key, call);
              if (String(res.headers['content-type']).startsWith('application/json')) bodies.push([key, res.json()]);
            }
            for (const extra of FORMATS[`${service.name} ${key}`] ?? []) {
              const formatUrl = extra.includes('=')
                ? `${call.url}${call.url.includes('?') ? '&' : '?'}${extra}`
                : call.url.replace(/\/csv\/$/, `/${extra}/`);
              const formatted = await send(app, route, method, { ...call, what: `format ${extra}`, url: formatUrl });
              if (formatted.statusCode >= 300) waiting.set(`${key} (${extra})`, `answered ${formatted.statusCode}`);
            }
          }
          pending = next;
        }
        const unreachable = [...waiting].map(([key, why]) => `${key}: ${why}`);

        // 2. Errors every operation can meet, and 304.
        for (const { route, method, op } of operations) {
          const key = `${method.toUpperCase()} ${route}`;
          const success = successes.get(key);
          const base = success?.url ?? route.replace(/\{[^}]+\}/g, 'x');
          const withQuery = (extra: string) => `${base}${base.includes('?') ? '&' : '?'}${extra}`;
          await send(app, route, method, {
            ...(success ?? { method: method.toUpperCase(), url: base }),
            what: 'NUL in the query',
            url: withQuery('x=%00'),
          });
          const other = method === 'get' ? 'DELETE' : 'GET';
          await send(app, route, method, { what: 'another method', method: other, url: base });
          if (route.includes('{')) {
            const bogus = route.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === 'doi' ? '10.9999/no-such-doi' : '999999999'));
            await send(app, route, method, { ...(success ?? { method: method.toUpperCase() }), what: 'unknown path values', url: bogus });
          }
          if (op.requestBody) {
            const post = { method: method.toUpperCase(), url: base, headers: success?.headers };
            await send(app, route, method, {
              ...post,
              what: 'text/plain body',
              headers: { ...post.headers, 'content-type': 'text/plain' },
              payload: 'x',
            });
            await send(app, route, method, {
              ...post,
              what: 'body over 1 MiB',
              headers: { ...post.headers, 'content-type': 'application/json' },
              payload: JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) }),
            });
            await send(app, route, method, {
              ...post,
              what: 'broken JSON',
              headers: { ...post.headers, 'content-type': 'application/json' },
              payload: '{"a":',
            });
          }
          if (success?.headers?.authorization) {
            const { authorization: _token, ...anonymous } = success.headers;
            await send(app, route, method, { ...success, what: 'no credentials', headers: anonymous });
            await send(app, route, method, {
              ...success,
              what: 'wrong credentials',
              headers: { ...anonymous, authorization: 'Bearer wrong' },
            });
          }
          if (success && method === 'get') {
            const first = await app.inject({ url: success.url, remoteAddress: nextAddress() });
            const etag = first.headers.etag;
            if (typeof etag === 'string')
              await send(app, route, method, { ...success, what: 'If-None-Match', headers: { ...success.headers, 'if-none-match': etag } });
          }
          if (op.responses[429]) {
            // One client over the limit: the counter counts cheap refused requests (it runs before validation).
            const address = nextAddress();
            const probe = await app.inject({ method: method.toUpperCase() as 'GET', url: withQuery('x=%00'), remoteAddress: address });
            const limit = Number(probe.headers['x-ratelimit-limit']);
            assert.ok(limit > 0, `${key}: X-RateLimit-Limit ${String(probe.headers['x-ratelimit-limit'])}`);
            for (let i = 1; i < limit; i++)
              await app.inject({ method: method.toUpperCase() as 'GET', url: withQuery('x=%00'), remoteAddress: address });
            const over = await send(app, route, method, {
              ...(success ?? { method: method.toUpperCase(), url: base }),
              what: 'over the rate limit',
              remoteAddress: address,
            });
            if (over.statusCode !== 429) conformance.problems.push(`${key}: over the limit answered ${over.statusCode}`);
          }
        }

        // 3. The database down (PostgreSQL only: a SQLite file cannot become unreachable).
        if (t.kind === 'postgres') {
          const down = openDatabase('postgres://postgres@127.0.0.1:1/none');
          const downApp = await buildTestApp(service, testContext(service, down, { dataDir: dir, env }));
          try {
            for (const { route, method } of operations) {
              const success = successes.get(`${method.toUpperCase()} ${route}`);
              if (success) await send(downApp, route, method, { ...success, what: 'database down' });
            }
          } finally {
            await downApp.close();
            await down.close().catch(() => {});
          }
        }

        // Not vacuous: the statuses each kind of call should produce were met and checked.
        const statuses = new Set([...conformance.seen.values()].flatMap((set) => [...set]));
        const expected = ['200', '304', '400', '405'];
        if (operations.some(({ op }) => op.requestBody)) expected.push('413', '415');
        if (operations.some(({ op }) => op.responses[429])) expected.push('429');
        if (t.kind === 'postgres') expected.push('503');
        assert.deepEqual(
          expected.filter((status) => !statuses.has(status)),
          [],
          `statuses met: ${[...statuses].sort().join(', ')}`,
        );
        console.log(`# ${service.name} [${t.kind}]: ${conformance.checked} answers checked; statuses ${[...statuses].sort().join(', ')}`);
        assert.deepEqual(
          { unreachable, problems: conformance.problems },
          { unreachable: [], problems: [] },
          'every operation answered its success call, and every answer is what the document says',
        );
      });
    },
    { migrations: service.migrations },
  );
}

for (const service of SERVICES) suite(service);
