// The check of one live answer against an OpenAPI 3.1 document: the status is documented, its content type is
// documented for it, a JSON body validates against the documented schema (ajv, JSON Schema 2020-12, ajv-formats), and
// a success body carries no property its schema does not declare. Shared by the conformance and contract tests.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `export default`; under Node's ESM loader the function is the module itself.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export interface Response {
  description?: string;
  content?: Record<string, { schema?: Schema }>;
}
export interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, Response>;
}
export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  patternProperties?: unknown;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

/** One request to send, with what it is for. */
export interface Call {
  what: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress?: string;
}

export class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, logger: false });
  private readonly validators = new Map<string, ValidateFunction>();
  readonly problems: string[] = [];
  readonly seen = new Map<string, Set<string>>();
  private readonly doc: Document;

  constructor(doc: Document) {
    this.doc = doc;
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ ...doc, $id: 'doc' } as object, undefined, undefined, false);
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `doc#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private resolve(schema: Schema | undefined): Schema | undefined {
    if (!schema?.$ref) return schema;
    return this.doc.components?.schemas?.[schema.$ref.split('/').pop()!];
  }

  /** Properties of `data` that `schema` does not declare (only where the schema is a plain object schema). */
  private undeclared(schema: Schema | undefined, data: unknown, where: string, out: string[]): void {
    schema = this.resolve(schema);
    if (!schema || data === null || typeof data !== 'object') return;
    if (Array.isArray(data)) {
      if (schema.items) data.slice(0, 20).forEach((item, i) => this.undeclared(schema.items, item, `${where}[${i}]`, out));
      return;
    }
    if (
      !schema.properties ||
      schema.additionalProperties !== undefined ||
      schema.patternProperties ||
      schema.anyOf ||
      schema.oneOf ||
      schema.allOf
    )
      return;
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      if (!(key in schema.properties)) out.push(`${where}.${key}`);
      else this.undeclared(schema.properties[key], value, `${where}.${key}`, out);
    }
  }

  checked = 0;

  check(
    route: string,
    method: string,
    call: Call,
    res: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer },
  ): void {
    this.checked++;
    const op = this.doc.paths[route]?.[method];
    const label = `${method.toUpperCase()} ${route} [${call.what}: ${call.method} ${call.url.slice(0, 120)}] → ${res.statusCode}`;
    if (!op) return void this.problems.push(`${label}: no such operation`);
    const status = String(res.statusCode);
    (this.seen.get(`${method} ${route}`) ?? this.seen.set(`${method} ${route}`, new Set()).get(`${method} ${route}`)!).add(status);
    const response = op.responses[status] ?? op.responses.default;
    if (!response) return void this.problems.push(`${label}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`);
    if (res.rawPayload.length === 0 || call.method === 'HEAD') return;
    const mediaType = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const media = response.content?.[mediaType];
    if (!media)
      return void this.problems.push(
        `${label}: content type ${mediaType} not documented (documented: ${Object.keys(response.content ?? {}).join(', ') || 'none'})`,
      );
    if (mediaType !== 'application/json') return;
    let body: unknown;
    try {
      body = JSON.parse(res.rawPayload.toString('utf8'));
    } catch {
      return void this.problems.push(`${label}: the body is not JSON`);
    }
    const pointer = `/paths/${route.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${op.responses[status] ? status : 'default'}/content/application~1json/schema`;
    const validate = this.validator(pointer);
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
      this.problems.push(`${label}: body does not match the schema: ${errors.join('; ')}`);
    }
    if (res.statusCode < 300) {
      const extra: string[] = [];
      this.undeclared(media.schema, body, 'body', extra);
      if (extra.length > 0) this.problems.push(`${label}: properties not in the schema: ${[...new Set(extra)].slice(0, 8).join(', ')}`);
    }
  }
}
