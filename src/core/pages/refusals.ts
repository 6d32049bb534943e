// A parameter a page's request was refused for, as structure (the parameter, the check it failed and that check's
// values), and the kernel's words for it in the page's language. The API's messages are English by contract and stay
// so (core/http/errors.ts builds them); a page in another language says the same refusal from its structure through
// the layout's catalogue, never by translating the English text. A service's own words (a page's `explain`) come
// first; an English page keeps the API's message.
import type { FastifyRequest } from 'fastify';
import { ParameterError } from '../http/errors.ts';
import type { AjvError } from '../http/errors.ts';
import { expectedOf } from '../http/params.ts';
import type { MessageValues } from '../i18n/catalogue.ts';
import { layoutMessages } from '../i18n/messages/index.ts';
import type { LayoutKey } from '../i18n/messages/index.ts';
import type { PageLocale } from './locale.ts';

/** A parameter the schemas or the kernel's checks refused: its name, the check it failed and the value as written. */
export interface ParameterRefusal {
  name: string;
  /** The schema keyword it failed (Ajv's: `type`, `minimum`, `pattern`, …) or the kernel's own check (`text`, `realDate`). */
  keyword: string;
  /** The value as written (absent: missing). */
  value: string | undefined;
  /** The name was written more than once (its first value is then not what the schema refused). */
  repeated: boolean;
  /** The failed check's values: Ajv's params (`type`, `limit`, `allowedValues`, …) or the kernel's. */
  params: Readonly<Record<string, unknown>>;
  /** The parameter's schema, where the route declares one (what its custom error text means: params.ts `expected`). */
  schema?: unknown;
}

type ValidationFailure = Error & { validation?: AjvError[]; validationContext?: string };

function propertyOf(schema: unknown, name: string): unknown {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
}

function valueOf(values: unknown, name: string): { value: string | undefined; repeated: boolean } {
  const value = values !== null && typeof values === 'object' ? (values as Record<string, unknown>)[name] : undefined;
  if (Array.isArray(value)) return { value: String(value[0]), repeated: true };
  return { value: value === undefined ? undefined : String(value), repeated: false };
}

/**
 * The refused parameter of a failed validation (the first Ajv error) or of a kernel check (a ParameterError), with the
 * value the client wrote and the parameter's schema; null for any other error.
 */
export function refusalOf(request: FastifyRequest, error: unknown): ParameterRefusal | null {
  const schemas = request.routeOptions.schema as { querystring?: unknown; params?: unknown; body?: unknown } | undefined;
  if (error instanceof ParameterError) {
    const { name, keyword, params } = { name: error.parameter, keyword: error.keyword, params: error.params };
    const inPath = propertyOf(schemas?.params, name) !== undefined;
    const schema = inPath ? propertyOf(schemas?.params, name) : (propertyOf(schemas?.querystring, name) ?? propertyOf(schemas?.body, name));
    return { name, keyword, params, schema, ...valueOf(inPath ? request.params : request.query, name) };
  }
  const failure = error as ValidationFailure | null;
  const first = failure?.validation?.[0];
  if (!first) return null;
  const context = failure!.validationContext;
  const name = String(first.keyword === 'required' ? (first.params.missingProperty ?? '') : (first.instancePath ?? ''))
    .replace(/^\//, '')
    .replace(/\//g, '.');
  const [values, schema] =
    context === 'params'
      ? [request.params, schemas?.params]
      : context === 'body'
        ? [request.body, schemas?.body]
        : [request.query, schemas?.querystring];
  // (Ajv's parentSchema, with `verbose`, is the property's schema as compiled; the route's own keeps what a symbol holds)
  const property = propertyOf(schema, name) ?? first.parentSchema;
  return { name, keyword: first.keyword, params: first.params, schema: property, ...valueOf(values, name) };
}

const LIMITS: Readonly<Record<string, LayoutKey>> = {
  minimum: 'refusal.minimum',
  maximum: 'refusal.maximum',
  exclusiveMinimum: 'refusal.exclusiveMinimum',
  exclusiveMaximum: 'refusal.exclusiveMaximum',
  minLength: 'refusal.minLength',
  maxLength: 'refusal.maxLength',
  multipleOf: 'refusal.multipleOf',
};

const list = (values: readonly unknown[]): string => values.map(String).join(', ');

/** What the custom error text of a parameter means, when its schema says (params.ts `expected`). */
function expectedWording(refusal: ParameterRefusal): [LayoutKey, MessageValues] | null {
  const expected = expectedOf(refusal.schema);
  if (!expected || refusal.keyword === 'required' || refusal.keyword === 'text' || refusal.keyword === 'realDate') return null;
  const name = refusal.name;
  switch (expected.kind) {
    case 'choice':
      return ['refusal.oneOf', { name, values: list(expected.values), descending: expected.descending ? 'yes' : 'no' }];
    case 'boolean':
      return ['refusal.boolean', { name }];
    case 'date':
      return ['refusal.date', { name }];
    case 'wholeNumber':
      return ['refusal.wholeNumber', { name, positive: expected.positive ? 'yes' : 'no' }];
  }
}

/**
 * The catalogue's message for a refusal and its values: from the meaning of the parameter's custom error text where
 * the schema gives one, else from the keyword and its values; `refusal.invalid` (the parameter's value is not
 * accepted) for a keyword the kernel does not word, or a custom text whose meaning the schema does not give.
 */
export function refusalWording(refusal: ParameterRefusal): [LayoutKey, MessageValues] {
  const expected = expectedWording(refusal);
  if (expected) return expected;
  const { name, keyword, params: p } = refusal;
  const custom = typeof (refusal.schema as Record<string, unknown> | undefined)?.['x-error'] === 'string';
  if (keyword in LIMITS && !custom) return [LIMITS[keyword], { name, limit: Number(p.limit) }];
  switch (keyword) {
    case 'required':
      return ['refusal.required', { name: String(p.missingProperty ?? name) }];
    case 'type':
      return ['refusal.type', { name, type: String(p.type) }];
    case 'text':
      return [p.name ? 'refusal.textName' : 'refusal.text', { name, problem: String(p.problem) }];
    case 'realDate':
      return ['refusal.realDate', { name, value: String(p.value) }];
  }
  if (custom) return ['refusal.invalid', { name }];
  switch (keyword) {
    case 'enum':
      return ['refusal.oneOf', { name, values: list((p.allowedValues as unknown[]) ?? []), descending: 'no' }];
    case 'const':
      return ['refusal.const', { name, value: String(p.allowedValue) }];
    case 'anyOf': {
      const options = ((refusal.schema as { anyOf?: Array<{ const?: unknown }> } | undefined)?.anyOf ?? [])
        .map((s) => s.const)
        .filter((c) => c !== undefined);
      return options.length > 0 ? ['refusal.oneOf', { name, values: list(options), descending: 'no' }] : ['refusal.invalid', { name }];
    }
    case 'pattern':
      return ['refusal.pattern', { name }];
    case 'format':
      return ['refusal.format', { name, format: String(p.format) }];
    case 'additionalProperties':
      return ['refusal.unknownField', { name, field: String(p.additionalProperty) }];
  }
  return ['refusal.invalid', { name }];
}

/**
 * The kernel's words for a refusal in the page's language; undefined on an English page, which says the API's message
 * (the same its JSON error carries).
 */
export function kernelWords(refusal: ParameterRefusal, locale: PageLocale): string | undefined {
  if (locale.language === 'en') return undefined;
  const [key, values] = refusalWording(refusal);
  return layoutMessages.format(locale.language, key, values);
}
