// A property-based contract test of every service against its own OpenAPI 3.1 document, with every check: requests
// generated from the document's schemas (fast-check) never get a server error, get only documented statuses and
// content types, and bodies valid against the documented schemas; a request every value of which the document allows
// is not refused as invalid (else the document lacks a limit the server enforces); every value the document forbids
// (out of its enum, under its minimum, over its maxLength, not an integer …) is refused with a 4xx; and a method a
// path does not answer gets 405 with Allow. Any finding not listed in docs/accepted-deviations.md, with its reason,
// fails the test. Runs on each service's demo data, on SQLite and PostgreSQL, with a fixed seed.
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
import { Conformance } from './support/openapi-check.ts';
import type { Document, Operation, Schema } from './support/openapi-check.ts';

const DEMO_SIZES: Record<string, number> = { oral: 40, krt: 3, grants: 1500, draws: 120, retraction: 150 };
// Longer hunts: PDI_CONTRACT_RUNS=2000 PDI_CONTRACT_SEED=<n> npm test -- test/openapi-contract
const RUNS = Number(process.env.PDI_CONTRACT_RUNS ?? 250);
const SEED = Number(process.env.PDI_CONTRACT_SEED ?? 20261206);
const DEVIATIONS_FILE = path.join(import.meta.dirname, '..', 'docs', 'accepted-deviations.md');
/** Methods no operation uses, sent to every path (the unsupported-method check). */
const ODD_METHODS = ['TRACE', 'PROPFIND', 'PUT', 'PATCH', 'DELETE'] as const;

/** The kinds of finding, as docs/accepted-deviations.md names them. */
type Check =
  | 'server-error'
  | 'undocumented-status'
  | 'undocumented-content-type'
  | 'schema-mismatch'
  | 'positive-data-refused'
  | 'negative-data-accepted'
  | 'method-not-405';

/** `service METHOD /path check` → reason, from the list of accepted deviations (a Markdown list of `code` — reason). */
function acceptedDeviations(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^- `([^`]+)`\s*[—:-]+\s*(.*\S)\s*$/.exec(line);
    if (m) found.set(m[1].trim(), m[2]);
  }
  return found;
}

type Parameter = NonNullable<Operation['parameters']>[number];

interface Op {
  route: string;
  method: string;
  op: Operation;
  params: Parameter[];
  body: Schema | undefined;
}

interface Sent {
  method: string;
  url: string;
  payload?: string;
}

class Schemas {
  private readonly doc: Document;
  constructor(doc: Document) {
    this.doc = doc;
  }

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    while (s.$ref) s = this.doc.components?.schemas?.[s.$ref.split('/').pop()!] ?? {};
    return s;
  }

  /** Values the schema allows. */
  valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema) as Schema & Limits;
    if (s.enum) return fc.constantFrom(...s.enum);
    if (s.const !== undefined) return fc.constant(s.const);
    const alternatives = s.anyOf ?? s.oneOf;
    if (alternatives) return fc.oneof(...alternatives.map((a) => this.valid(a, depth)));
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ['string'];
    return fc.oneof(...types.map((type) => this.validOfType(s, type, depth)));
  }

  private validOfType(s: Schema & Limits, type: string, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : -1000);
        const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? Math.ceil(s.exclusiveMaximum) - 1 : Math.max(min, 0) + 100_000);
        return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      }
      case 'number': {
        const min = s.minimum ?? s.exclusiveMinimum ?? -1e6;
        const max = s.maximum ?? s.exclusiveMaximum ?? 1e7;
        return fc
          .double({
            min,
            max,
            noNaN: true,
            noDefaultInfinity: true,
            minExcluded: s.exclusiveMinimum !== undefined,
            maxExcluded: s.exclusiveMaximum !== undefined,
          })
          .map((x) => Math.round(x * 100) / 100)
          .filter(
            (x) => x >= min && x <= max && (s.exclusiveMinimum === undefined || x > min) && (s.exclusiveMaximum === undefined || x < max),
          );
      }
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(this.valid(s.items, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
      case 'object': {
        if (depth > 3 || !s.properties) return fc.constant({});
        const model = Object.fromEntries(Object.entries(s.properties).map(([name, p]) => [name, this.valid(p, depth + 1)]));
        return fc.record(model, { requiredKeys: (s.required ?? []).filter((r) => r in model) });
      }
      default:
        return this.validString(s);
    }
  }

  private validString(s: Schema & Limits): fc.Arbitrary<string> {
    if (s.format === 'date')
      return fc
        .date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    if (s.format === 'date-time')
      return fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    if (s.pattern)
      return fc
        .stringMatching(new RegExp(s.pattern))
        .filter((t) => t.length >= (s.minLength ?? 0) && t.length <= (s.maxLength ?? Infinity));
    const minLength = s.minLength ?? 0;
    return fc.string({
      unit: fc.constantFrom(...'abcdexyzAB019 -_.é'),
      minLength,
      maxLength: Math.max(minLength, Math.min(s.maxLength ?? 20, 20)),
    });
  }

  /** Values the schema forbids, each with what it breaks (only for the limits a query or path value can break). */
  invalid(schema: Schema | undefined): Array<[string, string]> {
    const s = this.resolve(schema) as Schema & Limits;
    const out: Array<[string, string]> = [];
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    if (s.enum) out.push(['not in enum', 'not-one-of-them']);
    if (types.length === 1 && types[0] === 'integer') out.push(['not an integer', '1.5'], ['not a number', 'abc']);
    if (types.length === 1 && types[0] === 'number') out.push(['not a number', 'abc']);
    if (types.length === 1 && types[0] === 'boolean') out.push(['not a boolean', 'maybe']);
    if (s.minimum !== undefined) out.push(['under minimum', String(types[0] === 'integer' ? s.minimum - 1 : s.minimum - 0.5)]);
    if (s.exclusiveMinimum !== undefined) out.push(['at exclusiveMinimum', String(s.exclusiveMinimum)]);
    if (s.maximum !== undefined) out.push(['over maximum', String(types[0] === 'integer' ? s.maximum + 1 : s.maximum + 0.5)]);
    if (s.exclusiveMaximum !== undefined) out.push(['at exclusiveMaximum', String(s.exclusiveMaximum)]);
    if (s.minLength !== undefined && s.minLength > 0) out.push(['under minLength', 'x'.repeat(s.minLength - 1)]);
    if (s.maxLength !== undefined) out.push(['over maxLength', 'x'.repeat(s.maxLength + 1)]);
    if (s.format === 'date') out.push(['not a date', '2024-02-30']);
    return out;
  }
}

/** The limits of JSON Schema this test reads beyond openapi-check's Schema. */
interface Limits {
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
}

function operationsOf(doc: Document): Op[] {
  return Object.entries(doc.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, op]) => ({
      route,
      method,
      op,
      params: (op.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path'),
      body: op.requestBody?.content?.['application/json']?.schema,
    })),
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The URL for these parameter values (arrays repeat their name, as OpenAPI's default form style says). */
function urlOf(o: Op, values: Record<string, unknown>): string {
  const route = o.route.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(text(values[name])) || 'x');
  const search = new URLSearchParams();
  for (const p of o.params)
    if (p.in === 'query' && values[p.name] !== undefined)
      for (const v of Array.isArray(values[p.name]) ? (values[p.name] as unknown[]) : [values[p.name]]) search.append(p.name, text(v));
  const query = search.toString();
  return query ? `${route}?${query}` : route;
}

function suite(service: ServiceModule): void {
  const gate = service.name === 'retraction' ? needsSharedData('retraction') : { problem: null };
  describeEachDatabase(
    `the ${service.name} contract: generated requests against its OpenAPI document`,
    (t) => {
      let dir: string;
      let app: ServiceApp;
      let doc: Document;
      before(async () => {
        if (gate.problem) throw new Error(gate.problem);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), `pdi-contract-${service.name}-`));
        const ctx = testContext(service, t.db, { dataDir: dir, env: { ...process.env, [AS_OF_VARIABLE]: '2025-12-17' } });
        await service.loadDemo(ctx, { size: DEMO_SIZES[service.name], seed: 7 });
        app = await buildTestApp(service, ctx);
        doc = (await app.inject('/openapi.json')).json() as Document;
      });
      after(async () => {
        await app?.close();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      it('finds nothing that is not an accepted deviation', { timeout: 600_000 }, async () => {
        const accepted = acceptedDeviations(fs.readFileSync(DEVIATIONS_FILE, 'utf8'));
        const schemas = new Schemas(doc);
        const conformance = new Conformance(doc);
        const operations = operationsOf(doc);
        assert.ok(operations.length >= 5, `${operations.length} operations`);
        const findings = new Map<string, string>();
        const find = (o: { route: string; method: string }, check: Check, detail: string) => {
          const key = `${service.name} ${o.method.toUpperCase()} ${o.route} ${check}`;
          if (!findings.has(key)) findings.set(key, detail.slice(0, 400));
        };
        let client = 0;
        const send = async (o: Op, call: Sent) => {
          client++;
          const res = await app.inject({
            method: call.method as 'GET',
            url: call.url,
            payload: call.payload,
            headers: call.payload === undefined ? {} : { 'content-type': 'application/json' },
            // a client address of its own per request: the rate limits are checked by the conformance test
            remoteAddress: `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
          });
          const what = `${call.method} ${call.url.slice(0, 200)} ${call.payload?.slice(0, 200) ?? ''} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (res.statusCode >= 500) find(o, 'server-error', what);
          const before = conformance.problems.length;
          conformance.check(o.route, o.method, { what: 'generated', ...call }, res);
          for (const problem of conformance.problems.splice(before)) {
            const check: Check = /status not documented/.test(problem)
              ? 'undocumented-status'
              : /content type/.test(problem)
                ? 'undocumented-content-type'
                : 'schema-mismatch';
            find(o, check, problem);
          }
          return { res, what };
        };

        // 1. Positive data: every value as the document allows it.
        const positive = fc.constantFrom(...operations).chain((o) =>
          fc.record({
            o: fc.constant(o),
            values: fc.record(Object.fromEntries(o.params.map((p) => [p.name, schemas.valid(p.schema)])), {
              requiredKeys: o.params.filter((p) => p.required).map((p) => p.name),
            }),
            body: o.body === undefined ? fc.constant(undefined) : schemas.valid(o.body),
          }),
        );
        let accepted2xx = 0;
        await fc.assert(
          fc.asyncProperty(positive, async ({ o, values, body }) => {
            const { res, what } = await send(o, {
              method: o.method.toUpperCase(),
              url: urlOf(o, values),
              payload: body === undefined ? undefined : JSON.stringify(body),
            });
            if (res.statusCode === 400 || res.statusCode === 422) find(o, 'positive-data-refused', what);
            if (res.statusCode < 300) accepted2xx++;
          }),
          { numRuns: RUNS, seed: SEED },
        );
        assert.ok(accepted2xx > 0, 'no generated request succeeded');

        // 2. Negative data: each limit of each parameter broken, the other values valid.
        for (const o of operations) {
          const base = fc.sample(
            fc.record(Object.fromEntries(o.params.filter((p) => p.required).map((p) => [p.name, schemas.valid(p.schema)]))),
            { numRuns: 1, seed: SEED },
          )[0];
          const body = o.body === undefined ? undefined : JSON.stringify(fc.sample(schemas.valid(o.body), { numRuns: 1, seed: SEED })[0]);
          for (const p of o.params)
            for (const [broken, value] of schemas.invalid(p.schema)) {
              const { res, what } = await send(o, {
                method: o.method.toUpperCase(),
                url: urlOf(o, { ...base, [p.name]: value }),
                payload: body,
              });
              if (res.statusCode < 400) find(o, 'negative-data-accepted', `${p.name} ${broken}: ${what}`);
            }
          const bodySchema = schemas.resolve(o.body);
          for (const [name, property] of Object.entries(bodySchema.properties ?? {}))
            for (const [broken, value] of schemas.invalid(property)) {
              const typed = /not an? /.test(broken) ? value : schemas.resolve(property).type === 'string' ? value : Number(value);
              const payload = JSON.stringify({ ...(JSON.parse(body ?? '{}') as object), [name]: typed });
              const { res, what } = await send(o, { method: o.method.toUpperCase(), url: urlOf(o, base), payload });
              if (res.statusCode < 400) find(o, 'negative-data-accepted', `body ${name} ${broken}: ${what}`);
            }
        }

        // 3. Unsupported methods: 405 with Allow naming the documented ones.
        for (const [route, item] of Object.entries(doc.paths)) {
          const documented = Object.keys(item).map((m) => m.toUpperCase());
          const o = operationsOf({ ...doc, paths: { [route]: item } })[0];
          for (const method of ODD_METHODS.filter((m) => !documented.includes(m))) {
            const url = urlOf(o, {});
            const res = await app.inject({ method, url });
            const allow = String(res.headers.allow ?? '').split(/,\s*/);
            if (res.statusCode !== 405 || documented.some((m) => !allow.includes(m)))
              find(
                { route, method: documented[0] },
                'method-not-405',
                `${method} ${url} → ${res.statusCode} Allow: ${String(res.headers.allow)}`,
              );
          }
        }

        const unaccepted = [...findings].filter(([key]) => !accepted.has(key)).map(([key, detail]) => `${key}\n    ${detail}`);
        console.log(
          `# ${service.name} [${t.kind}]: ${client} requests, ${findings.size} findings, ${findings.size - unaccepted.length} accepted`,
        );
        assert.deepEqual(unaccepted, [], `findings not in ${path.relative(process.cwd(), DEVIATIONS_FILE)}`);
      });
    },
    { migrations: service.migrations },
  );
}

// While working on one service: PDI_CONTRACT_SERVICES=krt,grants npm test -- test/openapi-contract
const only = process.env.PDI_CONTRACT_SERVICES?.split(',');
for (const service of SERVICES) if (!only || only.includes(service.name)) suite(service);
