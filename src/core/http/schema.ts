// Schema helpers shared by the services' TypeBox schemas.
import { Type } from 'typebox';
import type { Static, TSchema } from 'typebox';
import { EXPORT_CONTENT_TYPES } from '../export/index.ts';
import type { ExportFormat } from '../export/index.ts';

/**
 * `T | null` written as a JSON-schema type list (`"type": ["string", "null"]`) rather than `anyOf`:
 * fast-json-stringify resolves `anyOf` by validating each value at serialisation time, which made a
 * 20-record page several times slower to serialise. OpenAPI 3.1 reads type lists natively.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Union([schema, Type.Null()]);
  return Type.Unsafe<Static<T> | null>({ ...(schema as object), type: [type, 'null'] });
}

/**
 * A route schema's `produces` for a route that answers in these formats (a download): the OpenAPI documents list
 * each media type for its 200 answer, JSON with the route's response schema (core/http/openapi.ts).
 */
export function producesFormats(...formats: ExportFormat[]): string[] {
  return formats.map((format) => EXPORT_CONTENT_TYPES[format].split(';')[0]);
}
