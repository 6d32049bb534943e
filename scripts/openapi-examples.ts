// `npm run openapi-examples [-- <service>…]`: records the examples of every operation of each service's OpenAPI
// document into src/services/<service>/openapi-examples.json. Each service runs as `npm start` runs it on an empty
// database (its generated demo data, default configuration, D as of a fixed day), here on a temporary SQLite file;
// each operation gets the request its schemas' examples make, a request with one bad value (the 400), and, for an
// operation with path parameters, one naming nothing that exists (the 404). Answers are kept when their status is
// documented, cut to a few items per array once the shorter copy is checked to still fit the response schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import * as prettier from 'prettier';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import type { ServiceApp, ServiceModule } from '../src/core/service.ts';
import {
  RECORDING_DIR_PREFIX,
  examplesPath,
  exampleRequest,
  keepRecorded,
  operationKey,
  readExamples,
  trimExample,
  trimText,
} from '../src/core/http/openapi-examples.ts';
import type { ExampleRequest, ExamplesFile, RecordedAnswer } from '../src/core/http/openapi-examples.ts';
import { SERVICES, findService } from '../src/services/registry.ts';
import { AS_OF_VARIABLE } from '../src/services/draws/as-of.ts';
import { buildTestApp, testContext } from '../test/support/app.ts';

// ajv-formats is CommonJS with `export default`; under Node's ESM loader the function is the module itself.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  schema?: Json;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: Json;
}

/** A value no constrained parameter accepts: not a number, a boolean, a date, a member of an enum or a pattern. */
const BAD_VALUE = 'not-valid!';

async function recordService(service: ServiceModule, dir: string): Promise<ExamplesFile> {
  const db = openDatabase(`sqlite:${path.join(dir, `${service.name}.sqlite`)}`);
  let app: ServiceApp | undefined;
  try {
    await migrateToLatest(db.kysely, service.migrations);
    const ctx = testContext(service, db, { dataDir: path.join(dir, service.name) });
    await service.loadDemo(ctx, {});
    app = await buildTestApp(service, ctx);
    const doc = (await app.inject('/openapi.json')).json() as Document;
    const ajv = new Ajv2020({ strict: false, logger: false });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...doc, $id: 'doc' } as object, undefined, undefined, false);

    const file: ExamplesFile = {};
    for (const [route, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const key = operationKey(method, route);
        const request = exampleRequest(method, route, operation as unknown as Json);
        const responses: Record<string, RecordedAnswer> = {};
        const keep = async (call: ExampleRequest, wanted?: number) => {
          const answer = await send(app!, call);
          if (wanted !== undefined && answer.status !== wanted) return false;
          const status = String(answer.status);
          if (responses[status] || !operation.responses[status]) return false;
          const pointer = `/paths/${escapePointer(route)}/${method}/responses/${status}/content/${escapePointer(answer.contentType)}/schema`;
          if (!operation.responses[status].content?.[answer.contentType]) {
            console.warn(`${service.name} ${key}: ${status} answered ${answer.contentType}, which the document does not declare`);
            return false;
          }
          responses[status] = {
            request: requestLine(call),
            contentType: answer.contentType,
            value: fitting(ajv, pointer, answer.value, key),
          };
          return true;
        };

        await keep(request);
        for (const bad of badRequests(method, route, request, operation)) if (await keep(bad, 400)) break;
        if (route.includes('{')) for (const unknown of unknownPathValues(route, request)) if (await keep(unknown, 404)) break;
        if (!Object.keys(responses).some((s) => s.startsWith('2')))
          console.warn(`${service.name} ${key}: no success on the demo data (${Object.keys(responses).join(', ') || 'nothing kept'})`);
        file[key] = { request, responses };
      }
    }
    return file;
  } finally {
    await app?.close();
    await db.close();
  }
}

async function send(app: ServiceApp, call: ExampleRequest): Promise<{ status: number; contentType: string; value: unknown }> {
  const hasBody = call.body !== undefined;
  const res = await app.inject({
    method: call.method as 'GET',
    url: call.url,
    ...(hasBody ? { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(call.body) } : {}),
  });
  const contentType = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  const value = contentType === 'application/json' ? (res.json() as unknown) : contentType.startsWith('text/') ? trimText(res.body) : null;
  return { status: res.statusCode, contentType, value };
}

/** The shortest copy of an answer that still fits its schema: arrays cut to 2 items, else 3, else 10, else whole. */
function fitting(ajv: Ajv2020, pointer: string, value: unknown, key: string): unknown {
  const validate = ajv.compile({ $ref: `doc#${pointer}` });
  if (!validate(value))
    throw new Error(`${key}: the service's answer does not fit its schema (${pointer}): ${ajv.errorsText(validate.errors)}`);
  for (const items of [2, 3, 10]) {
    const trimmed = trimExample(value, items);
    if (validate(trimmed)) return trimmed;
  }
  return value;
}

/** Requests that differ from the representative one by one bad value, most telling first. */
function badRequests(method: string, route: string, request: ExampleRequest, operation: Operation): ExampleRequest[] {
  const [pathPart, search = ''] = request.url.split('?');
  const out: ExampleRequest[] = [];
  for (const p of (operation.parameters ?? []).filter((p) => p.in === 'query' && constrained(p.schema))) {
    const query = new URLSearchParams(search);
    query.set(p.name, BAD_VALUE);
    out.push({ ...request, url: `${pathPart}?${query.toString()}` });
  }
  for (const p of (operation.parameters ?? []).filter((p) => p.in === 'path' && constrained(p.schema))) {
    const parameters = (operation.parameters ?? []).map((q) => (q === p ? { ...q, example: BAD_VALUE } : q));
    out.push(exampleRequest(method, route, { ...operation, parameters } as unknown as Json));
  }
  if (request.body !== undefined) out.push({ ...request, body: {} }, { ...request, body: [] });
  // Every operation refuses a NUL in its query string.
  out.push({ ...request, url: `${request.url}${request.url.includes('?') ? '&' : '?'}x=%00` });
  return out;
}

function constrained(schema: Json | undefined): boolean {
  if (!schema) return false;
  const types = [schema.type].flat();
  return (
    types.some((t) => t === 'integer' || t === 'number' || t === 'boolean') ||
    Array.isArray(schema.enum) ||
    typeof schema.pattern === 'string' ||
    typeof schema.format === 'string' ||
    (Array.isArray(schema.anyOf) && (schema.anyOf as Json[]).every((member) => constrained(member)))
  );
}

/** The request with path values that name nothing: words first, then a large number (for numeric ids). */
function unknownPathValues(route: string, request: ExampleRequest): ExampleRequest[] {
  const search = request.url.split('?')[1];
  return [(name: string) => (name === 'doi' ? '10.9999/no-such-doi' : `no-such-${name.replace(/_/g, '-')}`), () => '999999999'].map(
    (value) => {
      const url = route.replace(/\{([^}]+)\}/g, (_whole, name: string) => value(name));
      return { ...request, url: search ? `${url}?${search}` : url };
    },
  );
}

function requestLine(call: ExampleRequest): string {
  return call.body === undefined ? `${call.method} ${call.url}` : `${call.method} ${call.url} ${JSON.stringify(call.body)}`;
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The day D's answers are recorded as of (its demo data ends then, and its forecasts, ages and dormancy count from
 * it), so that a recording on another day answers the same; move it to bring the examples up to a later day.
 */
const RECORDING_AS_OF = '2026-12-07';

process.env[AS_OF_VARIABLE] = RECORDING_AS_OF;
const names = process.argv.slice(2);
const services = names.length === 0 ? [...SERVICES] : names.map(findService);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), RECORDING_DIR_PREFIX));
try {
  for (const service of services) {
    const file = examplesPath(service.name);
    const examples = keepRecorded(await recordService(service, dir), readExamples(service.name));
    const text = await prettier.format(JSON.stringify(examples), { ...(await prettier.resolveConfig(file)), filepath: file });
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)} (${Object.keys(examples).length} operations)`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
