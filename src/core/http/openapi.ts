// The OpenAPI documents, generated from the route schemas: 3.1 at /openapi.json, and the same document as
// OpenAPI 3.0.3 at /openapi-3.0.json for tools that read only 3.0 (dredd, older generators). On top of what a route
// declares, the kernel documents what it adds to every route: the error statuses with the service's error body
// (components/schemas/ErrorBody), 304 for GETs, 429 and the rate-limit headers of limited routes, the file types of
// downloads (a route schema's `produces`), and query parameters with a default as optional. The examples of answers
// come from the service's recorded examples file (openapi-examples.ts).
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import type { ServiceModule } from '../service.ts';
import { addExamples, readExamples } from './openapi-examples.ts';

export const OPENAPI_30_PATH = '/openapi-3.0.json';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI 3.0.3 document (a second @fastify/swagger registration under this decorator). */
    swagger30: FastifyInstance['swagger'];
  }
}

/** What each status the kernel may answer means, as the documents say it. */
const ERROR_STATUSES: Readonly<Record<number, string>> = {
  400: 'A parameter or the body is malformed, out of range or of an unknown value; the message names it and what is allowed.',
  401: 'Credentials are required.',
  403: 'The credentials are not valid.',
  404: 'Not found: an unknown id in the path, or a record the request names that does not exist.',
  405: 'This path does not answer this method; the Allow header lists the methods it answers.',
  409: 'The request conflicts with the state of the data.',
  413: 'The request body is larger than 1 MiB.',
  415: 'The request body is not application/json.',
  429: 'Too many requests from this client in the current one-minute window; Retry-After says when to try again.',
  431: 'The request line and headers together are larger than the listener reads (16 KiB by default): a URL that long is refused before routing.',
  500: 'Unexpected failure; the message names the operation, never internal detail.',
  503: 'The database (or another dependency) is unreachable; retry shortly.',
};

const ERROR_MARK = 'x-pdi-error-body';
const ERROR_REF = '#/components/schemas/ErrorBody';

const FILE_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
  'text/csv': { type: 'string', description: 'CSV: UTF-8, a header row, RFC 4180 quoting.' },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    type: 'string',
    format: 'binary',
    description: 'An .xlsx workbook.',
  },
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'Requests allowed per window in this endpoint group.' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current window.' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets.' },
};

type Json = Record<string, unknown>;
type Schema = FastifySchema & { hide?: boolean; produces?: string[]; response?: Record<string, unknown> };

export function openApiOptions(service: ServiceModule, version: '3.1.0' | '3.0.3', decorator: string): FastifyDynamicSwaggerOptions {
  return {
    decorator,
    openapi: {
      openapi: version,
      info: { title: service.title, description: service.description, version: service.version },
    },
    transform: ({ schema, url, route }) =>
      namedWildcard(documentedSchema(service, schema as Schema, route) ?? (schema as Schema), url, route),
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      // @fastify/swagger types the document per OpenAPI version; this keeps the shape it is given.
      const doc = finishDocument(document.openapiObject as unknown as Json, version);
      // After the 3.0 rewrite of schema keywords, which must not reach into the recorded answers.
      addExamples(doc, readExamples(service.name));
      return doc as typeof document.openapiObject;
    },
  };
}

/** The route's schema as the documents show it (a copy: the schema that validates and serialises is untouched). */
function documentedSchema(service: ServiceModule, schema: Schema | undefined, route: RouteOptions): Schema | undefined {
  if (!schema || schema.hide) return schema;
  const methods = [route.method].flat().map((m) => String(m).toUpperCase());
  const limited = route.config?.limitGroup !== undefined;
  const { produces, ...rest } = schema;
  const response: Record<string, unknown> = { ...(schema.response ?? {}) };

  if (!Object.keys(response).some((status) => status.startsWith('2'))) response[200] = { description: 'Success' };
  if (produces?.some((type) => type !== 'application/json')) {
    const json = (response[200] ?? {}) as Json;
    const content: Record<string, { schema: unknown }> = {};
    for (const type of produces)
      content[type] = { schema: type === 'application/json' ? json : (FILE_SCHEMAS[type] ?? { type: 'string' }) };
    response[200] = { description: json.description ?? 'Success', content };
  }
  if (limited) {
    for (const [status, entry] of Object.entries(response))
      if (status.startsWith('2'))
        response[status] = { ...(entry as Json), headers: { ...((entry as Json).headers as Json), ...RATE_HEADERS } };
  }
  if (methods.includes('GET') && response[304] === undefined)
    response[304] = { type: 'null', description: 'Not Modified: the ETag sent in If-None-Match is still the current one.' };

  const statuses = new Set([400, 404, 405, 431, 500, 503, ...(route.config?.errors ?? [])]);
  if (schema.body !== undefined) for (const status of [413, 415]) statuses.add(status);
  if (limited) statuses.add(429);
  for (const status of [...statuses].sort((a, b) => a - b)) {
    if (response[status] !== undefined) continue;
    const headers =
      status === 429
        ? { ...RATE_HEADERS, 'Retry-After': { type: 'integer', description: 'Seconds until a request is allowed again.' } }
        : status === 405
          ? { Allow: { type: 'string', description: 'The methods this path answers.' } }
          : undefined;
    response[status] = {
      ...(JSON.parse(JSON.stringify(service.errorSchema)) as Json),
      description: ERROR_STATUSES[status] ?? `Error ${status}.`,
      [ERROR_MARK]: true,
      ...(headers ? { headers } : {}),
    };
  }

  return { ...rest, ...(optionalDefaults(schema.querystring) ?? {}), response };
}

/**
 * A route ending in a wildcard (a value that holds slashes, such as a DOI) names its parameter `*`; the documents
 * call it by the name its route gives in `config.wildcard`, so that clients and generators get a usable name.
 */
// (`schema` is undefined at run time for a route declared without one, whatever @fastify/swagger's types say)
function namedWildcard(schema: Schema, url: string, route: RouteOptions): { schema: Schema; url: string } {
  const name = route.config?.wildcard;
  if (!schema || !name) return { schema, url };
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  if (!name || !url.endsWith('*') || !params?.properties?.['*']) return { schema, url };
  const { '*': wildcard, ...others } = params.properties;
  const renamed = {
    ...params,
    properties: { ...others, [name]: wildcard },
    required: [...(params.required ?? []).filter((p) => p !== '*'), name],
  };
  return { schema: { ...schema, params: renamed }, url: `${url.slice(0, -1)}:${name}` };
}

/** A query parameter with a default may be left out: the document must not call it required. */
function optionalDefaults(querystring: unknown): { querystring: Json } | null {
  const qs = querystring as { properties?: Record<string, Json>; required?: string[] } | undefined;
  if (!qs?.properties || !Array.isArray(qs.required)) return null;
  const required = qs.required.filter((name) => qs.properties![name]?.default === undefined);
  if (required.length === qs.required.length) return null;
  const copy: Json = { ...qs, required };
  if (required.length === 0) delete copy.required;
  return { querystring: copy };
}

/** One ErrorBody component referenced by every error response; for 3.0, the JSON Schema keywords 3.0 spells otherwise. */
function finishDocument(doc: Json, version: string): Json {
  const components = ((doc.components as Json | undefined) ?? {}) as Json;
  const schemas = ((components.schemas as Json | undefined) ?? {}) as Json;
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item) as Json[]) {
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) {
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        const schema = media?.schema as Json | undefined;
        if (!schema?.[ERROR_MARK]) continue;
        if (!schemas.ErrorBody) {
          const { [ERROR_MARK]: _mark, description: _description, ...body } = schema;
          schemas.ErrorBody = { ...body, description: 'The body of every error response of this service.' };
        }
        media!.schema = { $ref: ERROR_REF };
      }
    }
  }
  doc.components = { ...components, schemas };
  if (version.startsWith('3.0')) toOpenApi30Keywords(doc);
  return doc;
}

/**
 * JSON Schema 2020-12 keywords that OpenAPI 3.0's schema dialect writes differently (@fastify/swagger already
 * turns type lists into `nullable` and `const` into `enum`): numeric exclusive bounds, `examples`.
 */
function toOpenApi30Keywords(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) toOpenApi30Keywords(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  for (const [bound, limit] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[bound] === 'number') {
      schema[limit] = schema[bound];
      schema[bound] = true;
    }
  }
  if (Array.isArray(schema.examples)) {
    if (schema.example === undefined && schema.examples.length > 0) schema.example = schema.examples[0];
    delete schema.examples;
  }
  for (const value of Object.values(schema)) toOpenApi30Keywords(value);
}
