// Examples in the OpenAPI documents, recorded from the running service on its demo data: one file per service,
// src/services/<name>/openapi-examples.json, written by `npm run openapi-examples` (scripts/openapi-examples.ts),
// which sends each operation the request its schemas' examples make (exampleRequest, below) and real bad requests,
// and keeps what the service answered. The documents carry the answers as response examples, beside the examples of
// the parameters and bodies that made the request, so that Swagger UI at /docs shows and fills in both.
import fs from 'node:fs';
import path from 'node:path';

/** The command that rewrites the examples files (all services, or the ones named after `--`). */
export const EXAMPLES_COMMAND = 'npm run openapi-examples';

/** One answer of the service: the request that produced it (its first line) and the body. */
export interface RecordedAnswer {
  request: string;
  contentType: string;
  value: unknown;
}

/** An operation's examples: the representative request and, by status, what the service answered. */
interface OperationExamples {
  request: ExampleRequest;
  responses: Record<string, RecordedAnswer>;
}

/** Keys: "METHOD /path" as the document writes the path. */
export type ExamplesFile = Record<string, OperationExamples>;

export interface ExampleRequest {
  method: string;
  url: string;
  body?: unknown;
}

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: { examples?: unknown[]; default?: unknown };
}

/** The start of the name of the temporary folder a recording runs in (its demo files are read from there). */
export const RECORDING_DIR_PREFIX = 'pdi-openapi-examples-';

/** Where a service's examples file is, by the services' folder convention (no service module is imported). */
export function examplesPath(service: string): string {
  return path.resolve(import.meta.dirname, '../../services', service, 'openapi-examples.json');
}

/** The service's examples file; an empty record when it has none yet. */
export function readExamples(service: string): ExamplesFile {
  const file = examplesPath(service);
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ExamplesFile;
}

export const operationKey = (method: string, route: string): string => `${method.toUpperCase()} ${route}`;

/** A path value in a URL: each segment encoded, so that a DOI keeps its slashes. */
const encodePathValue = (value: string) => value.split('/').map(encodeURIComponent).join('/');

/** The value the schemas give a parameter: its example, else its schema's first example, else its default. */
function parameterExample(p: Parameter): unknown {
  return p.example ?? p.schema?.examples?.[0] ?? p.schema?.default;
}

/**
 * The representative request of an operation, from what its schemas say alone (never from the examples the
 * documents merge in, so that a changed schema example shows as a stale file): path parameters and required query
 * parameters from their examples, the body from its schema's first example. Throws naming what has no example.
 */
export function exampleRequest(method: string, route: string, operation: Json): ExampleRequest {
  const parameters = (operation.parameters ?? []) as Parameter[];
  const missing: string[] = [];
  const url = route.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = parameterExample(parameters.find((p) => p.in === 'path' && p.name === name) ?? { name, in: 'path' });
    if (value === undefined) missing.push(`path parameter ${name}`);
    return encodePathValue(String(value ?? ''));
  });
  const query = new URLSearchParams();
  for (const p of parameters.filter((p) => p.in === 'query' && p.required)) {
    const value = parameterExample(p);
    if (value === undefined) missing.push(`query parameter ${p.name}`);
    else query.append(p.name, String(value));
  }
  const media = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json'];
  const body = media ? (media.example ?? (media.schema as { examples?: unknown[] } | undefined)?.examples?.[0]) : undefined;
  if (media && body === undefined) missing.push('request body');
  if (missing.length > 0) throw new Error(`${operationKey(method, route)}: no example in the schema for its ${missing.join(', ')}`);
  const search = query.toString();
  return { method: method.toUpperCase(), url: search ? `${url}?${search}` : url, ...(media ? { body } : {}) };
}

/**
 * Adds the recorded answers to a finished document, each as an example of its status and content type (when the
 * document declares both). The request's parameters and body already carry their schemas' examples, which made the
 * request. Operations without a record are left as they are (the examples test names them).
 */
export function addExamples(doc: Json, examples: ExamplesFile): void {
  for (const [route, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const recorded = examples[operationKey(method, route)];
      if (!recorded) continue;
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      for (const [status, answer] of Object.entries(recorded.responses)) {
        const media = (responses[status]?.content as Record<string, Json> | undefined)?.[answer.contentType];
        if (!media) continue;
        media.examples = { [exampleName(status)]: { summary: answer.request, value: answer.value } };
      }
    }
  }
}

function exampleName(status: string): string {
  if (status.startsWith('2')) return 'demo';
  if (status === '400') return 'bad_request';
  if (status === '404') return 'not_found';
  return `status_${status}`;
}

/**
 * A shorter copy of an answer: arrays cut to their first `items` elements, at every depth. The caller checks that
 * the copy still fits the response schema (a minimum number of items would refuse it).
 */
export function trimExample(value: unknown, items = 3): unknown {
  if (Array.isArray(value)) return value.slice(0, items).map((item) => trimExample(item, items));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimExample(item, items)]));
  return value;
}

/** A text answer (CSV) cut to its header and first rows. */
export function trimText(text: string, lines = 4): string {
  const all = text.split(/\r?\n/);
  return all.length <= lines ? text : `${all.slice(0, lines).join('\n')}\n`;
}

/**
 * What differs between two recordings of the same tree, wherever it stands in a string: times, data versions (a
 * compact time and a hash, alone or after a kind such as "demo:"), fresh UUIDs, and the temporary folder of the
 * recording in the paths of demo files.
 */
const VOLATILE = new RegExp(
  [
    String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})`,
    String.raw`\b\d{8}T\d{6}Z(?:-[0-9a-f]+)?`,
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
    String.raw`[^\s"']*${RECORDING_DIR_PREFIX}[A-Za-z0-9]+`,
  ].join('|'),
  'g',
);
/** Keys of figures that time the answer itself. */
const TIMING_KEY = /(?:^|_)(?:time|ms|seconds|elapsed)$/;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A value with what differs between recordings replaced by marks: what it says apart from when it was made. */
function masked(value: unknown, key: string): unknown {
  if (typeof value === 'string') return value.replace(VOLATILE, '~');
  if (typeof value === 'number') return TIMING_KEY.test(key) ? '~' : value;
  if (Array.isArray(value)) return value.map((item) => masked(item, ''));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, masked(item, name)]));
  return value;
}

/**
 * The fresh value with the recorded one kept wherever the two differ only in what differs between recordings: the
 * whole value when that is all, else, in a changed object or array, each such part (matched by key or position).
 */
function steady(fresh: unknown, recorded: unknown, key: string): unknown {
  if (JSON.stringify(masked(fresh, key)) === JSON.stringify(masked(recorded, key))) return recorded;
  if (Array.isArray(fresh) && Array.isArray(recorded))
    return fresh.map((item, i) => (i < recorded.length ? steady(item, recorded[i], '') : item));
  if (isRecord(fresh) && isRecord(recorded))
    return Object.fromEntries(
      Object.entries(fresh).map(([name, item]) => [name, Object.hasOwn(recorded, name) ? steady(item, recorded[name], name) : item]),
    );
  return fresh;
}

/**
 * A new recording with the old one's values kept where they differ only in times, data versions, fresh ids and
 * temporary paths, so that recording again on an unchanged tree changes no file, and an answer that changed changes
 * the file only where it did. An answer to another request or of another content type is the new one as it is.
 */
export function keepRecorded(fresh: ExamplesFile, old: ExamplesFile): ExamplesFile {
  for (const [key, recorded] of Object.entries(fresh))
    for (const [status, answer] of Object.entries(recorded.responses)) {
      const before = old[key]?.responses[status];
      if (before && before.request === answer.request && before.contentType === answer.contentType)
        recorded.responses[status] = { ...answer, value: steady(answer.value, before.value, '') };
    }
  return fresh;
}
