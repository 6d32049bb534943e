// Every operation of every service, as its own OpenAPI document lists it, called with hostile input (odd
// numbers, broken dates, quotes, NUL, lone surrogates, 5,000-character strings, repeated parameters, JSON
// bodies shaped by the operation's schema with odd values, broken or mistyped JSON): the answer is never a 5xx,
// every error is a JSON body, and some requests succeed and some are refused as invalid. Runs on each service's
// demo data (small sizes), on SQLite and PostgreSQL, with a fixed fast-check seed (a failure prints the
// request that caused it).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import { SERVICES } from '../src/services/registry.ts';
import { AS_OF_VARIABLE } from '../src/services/draws/as-of.ts';
import { buildTestApp, testContext } from './support/app.ts';
import { describeEachDatabase, needsSharedData } from './support/databases.ts';

// Small demo data: enough rows for every endpoint to have something to find.
const DEMO_SIZES: Record<string, number> = { oral: 40, krt: 3, grants: 1500, draws: 120, retraction: 150 };
// Longer hunts: PDI_FUZZ_RUNS=5000 PDI_FUZZ_SEED=<n> npm test -- test/bad-input
const RUNS_PER_SERVICE = Number(process.env.PDI_FUZZ_RUNS ?? 300);
const SEED = Number(process.env.PDI_FUZZ_SEED ?? 20261121);

const HOSTILE_VALUES = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '7',
  '101',
  '-0',
  '0.5',
  '1e309',
  '999999999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  '1,2',
  'abc',
  'true',
  'false',
  'yes',
  'null',
  'undefined',
  '[]',
  '{}',
  "'",
  '"',
  '\\',
  '%',
  '_',
  '*',
  '%%',
  "' OR 1=1 --",
  '\u0000',
  'line\nbreak',
  '\ud800',
  '🌲',
  'é',
  ' a ',
  'x'.repeat(5000),
  '2024-13-45',
  '2024-02-30',
  '2019-20',
  '2019',
  '1900-01-01',
  '../../etc/passwd',
  'QC',
  'qc',
  'F',
  'all',
  '-agreement_value',
  'id',
  '10.1101/2020.01.01.000001',
  'csv',
  'json',
  'xlsx',
  'xml',
  'pdf',
  'RRID:AB_2138153',
  'antibody',
];

const JSON_KEYS = [
  'doi',
  'dois',
  'q',
  'text',
  'resource_name',
  'resource_type',
  'vendor',
  'catalog_number',
  'rrid',
  'message',
  'messages',
  'session_id',
  'annual_income',
  'monthly_income',
  'income_mode',
  'gst_eligible_spending',
  'rows',
  'table',
  'history',
  'content',
  'role',
  'title',
  'abstract',
  'format',
  'context',
];

const hostile = fc.constantFrom(...HOSTILE_VALUES);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(hostile, fc.constantFrom<unknown>(0, -5, 1.5, 1e308, -1e308, true, false, null, 'x'.repeat(20_000))),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...JSON_KEYS), hostile), tie('node'), { maxKeys: 5 }),
  ),
})).node;

/** The part of a JSON schema this test reads. */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
}

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  query: string[];
  body: Schema | null;
}

/** Values of the schema's type (its enum, numbers near edges, hostile strings), or anything at all. */
function valueFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  const typed: fc.Arbitrary<unknown> =
    schema?.enum !== undefined
      ? fc.constantFrom(...schema.enum)
      : type === 'number' || type === 'integer'
        ? fc.constantFrom(0, 1, -1, 0.005, 2.5, 75_000, 1e9, 1e308, Number.MAX_SAFE_INTEGER)
        : type === 'boolean'
          ? fc.boolean()
          : type === 'array' && depth < 3
            ? fc.array(valueFor(schema?.items, depth + 1), { maxLength: 4 })
            : type === 'object' && depth < 3
              ? bodyFor(schema!, depth + 1)
              : hostile;
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: jsonValue });
}

/** Objects with the schema's own keys (its required ones half of the time), values mostly of their type. */
function bodyFor(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) return jsonValue;
  const model = Object.fromEntries(names.map((name) => [name, valueFor(properties[name], depth)]));
  return fc.oneof(
    fc.record(model, { requiredKeys: [] }),
    fc.record(model, { requiredKeys: (schema.required ?? []).filter((r) => r in model) }),
  );
}

type OpenApiOperation = {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const verb = method.toUpperCase();
      if (verb !== 'GET' && verb !== 'POST') continue;
      const body = op.requestBody === undefined ? null : (op.requestBody.content?.['application/json']?.schema ?? {});
      operations.push({ method: verb, path: route, query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name), body });
    }
  }
  return operations;
}

function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as raw bytes
  }
}

interface Request {
  operation: Operation;
  pathValues: string[];
  query: Array<[string, string]>;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string } | null;
}

function requestArbitrary(operations: Operation[]): fc.Arbitrary<Request> {
  return fc.constantFrom(...operations).chain((operation) =>
    fc.record({
      operation: fc.constant(operation),
      pathValues: fc.array(hostile, { minLength: 4, maxLength: 4 }),
      query:
        operation.query.length === 0 ? fc.constant([]) : fc.array(fc.tuple(fc.constantFrom(...operation.query), hostile), { maxLength: 5 }),
      body:
        operation.method !== 'POST'
          ? fc.constant(null)
          : fc.oneof(
              { weight: 6, arbitrary: bodyFor(operation.body ?? {}).map((value) => ({ kind: 'json' as const, value })) },
              { weight: 2, arbitrary: jsonValue.map((value) => ({ kind: 'json' as const, value })) },
              {
                weight: 1,
                arbitrary: fc
                  .constantFrom('{not json', '', '[', '{"a":1}{"b":2}', '\u0000')
                  .map((text) => ({ kind: 'raw' as const, text, contentType: 'application/json' })),
              },
              { weight: 1, arbitrary: fc.constant({ kind: 'raw' as const, text: 'doi=10.1/x', contentType: 'text/plain' }) },
            ),
    }),
  );
}

function describeRequest(r: Request, url: string): string {
  const body = r.body === null ? '' : r.body.kind === 'json' ? JSON.stringify(r.body.value) : JSON.stringify(r.body.text);
  return `${r.operation.method} ${url.slice(0, 400)} ${body.slice(0, 400)}`;
}

function suite(service: ServiceModule): void {
  const gate = service.name === 'retraction' ? needsSharedData('retraction') : { problem: null };
  describeEachDatabase(
    `hostile input to every ${service.name} operation`,
    (t) => {
      let dir: string;
      let app: ServiceApp;
      before(async () => {
        if (gate.problem) throw new Error(gate.problem);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-bad-input-${service.name}-`));
        const ctx = testContext(service, t.db, { dataDir: dir, env: { ...process.env, [AS_OF_VARIABLE]: '2025-12-17' } });
        await service.loadDemo(ctx, { size: DEMO_SIZES[service.name], seed: 7 });
        app = await buildTestApp(service, ctx);
      });
      after(async () => {
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      it('never answers 5xx, and every error is JSON', async () => {
        const operations = operationsOf((await app.inject('/openapi.json')).json());
        assert.ok(operations.length >= 5, `${operations.length} operations in the OpenAPI document`);
        let client = 0;
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(requestArbitrary(operations), async (r) => {
            let k = 0;
            const route = r.operation.path.replace(/\{[^}]+\}/g, () => encode(r.pathValues[k++ % 4]) || 'x');
            const search = r.query.map(([name, value]) => `${name}=${encode(value)}`).join('&');
            const url = search ? `${route}?${search}` : route;
            // a client address of its own per request: the rate limits are not what is tested here
            client++;
            const remoteAddress = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
            const res = await app.inject({
              method: r.operation.method,
              url,
              remoteAddress,
              ...(r.body === null
                ? {}
                : r.body.kind === 'json'
                  ? { payload: JSON.stringify(r.body.value), headers: { 'content-type': 'application/json' } }
                  : { payload: r.body.text, headers: { 'content-type': r.body.contentType } }),
            });
            const what = `${describeRequest(r, url)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            assert.ok(res.statusCode < 500, what);
            if (res.statusCode >= 400) {
              assert.match(String(res.headers['content-type']), /^application\/json/, what);
              assert.doesNotThrow(() => res.json(), what);
            }
          }),
          { numRuns: RUNS_PER_SERVICE, seed: SEED, endOnFailure: true },
        );
        // not vacuous: the requests reached the handlers, and some hostile input was accepted and answered
        const tally = [...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ');
        assert.ok(
          [...statuses.keys()].some((s) => s < 300),
          `no request succeeded: ${tally}`,
        );
        assert.ok(
          [...statuses.keys()].some((s) => s === 400 || s === 422),
          `no request was refused as invalid: ${tally}`,
        );
      });
    },
    { migrations: service.migrations },
  );
}

for (const service of SERVICES) suite(service);
