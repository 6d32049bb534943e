// Request parameter schemas shared by the services, and the rules of common.md that go with them:
// a limit above its maximum is clamped, a page or limit below 1 or not an integer is a 400,
// booleans accept true/false/1/0 in any case, dates are YYYY-MM-DD, text is trimmed.
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { ParameterError } from './errors.ts';

/**
 * What a pattern's custom error text means, as structure: a page in another language than English words the refusal
 * from it (core/pages/refusals.ts) rather than from the English text. Kept under a symbol, so it is in no document.
 */
export type Expected =
  | { kind: 'choice'; values: readonly string[]; descending?: boolean }
  | { kind: 'boolean' }
  | { kind: 'date' }
  | { kind: 'wholeNumber'; positive?: boolean };

const EXPECTED = Symbol('pdi.expected');

/** The meaning a schema's custom error text was given (withError's `expected`), if any. */
export function expectedOf(schema: unknown): Expected | undefined {
  return schema !== null && typeof schema === 'object' ? (schema as { [EXPECTED]?: Expected })[EXPECTED] : undefined;
}

/**
 * A schema with a custom error text appended to the parameter name ("start_date must be a date …"), and what the text
 * means (`expected`) for the pages that say it in another language.
 */
function withError<T extends TSchema>(schema: T, error: string, expected?: Expected): T {
  (schema as Record<string, unknown>)['x-error'] = error;
  if (expected) (schema as { [EXPECTED]?: Expected })[EXPECTED] = expected;
  return schema;
}

/** `examples` for a schema: what Swagger UI's "try it" fills in (a value the demo data answers). */
function examples(example: unknown): { examples?: unknown[] } {
  return example === undefined ? {} : { examples: [example] };
}

/** Bounds that keep page × limit and offsets far inside what both databases accept. */
export const MAX_PAGE = 1_000_000;
const MAX_OFFSET = 1_000_000_000;

export function pageParam(description = 'Page number, from 1.') {
  return Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description });
}

/** `limit`: a whole number ≥ 1; values above `max` are clamped by `clampLimit`, not refused. */
export function limitParam(defaultValue: number, max: number, what = 'results per page') {
  return Type.Integer({
    minimum: 1,
    default: defaultValue,
    description: `Number of ${what} (default ${defaultValue}; values above ${max} are reduced to ${max}).`,
  });
}

export function offsetParam() {
  return Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Number of results to skip.' });
}

export function clampLimit(limit: number, max: number): number {
  return Math.min(limit, max);
}

const BOOLEAN_PATTERN = '^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$';

/**
 * A text parameter that takes one of `values` in any case (unless `exactCase`), spaces around it ignored (and, with `blank`, nothing at
 * all, meaning the default): a pattern, so the documents state exactly what the server accepts.
 */
export function choiceParam(
  values: readonly string[],
  description: string,
  options: { blank?: boolean; descending?: boolean; exactCase?: boolean; maxLength?: number; error?: string; example?: string } = {},
) {
  const spell = (value: string) =>
    [...value]
      .map(
        (c) =>
          !options.exactCase && c.toLowerCase() !== c.toUpperCase()
            ? `[${c.toUpperCase()}${c.toLowerCase()}]`
            : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), // outside a class `-` is literal; `\-` is an error under the u flag
      )
      .join('');
  const choice = `${options.descending ? '-?' : ''}(?:${values.map(spell).join('|')})`;
  const message = options.error ?? `must be one of: ${values.join(', ')}${options.descending ? ' (a leading - means descending)' : ''}`;
  return withError(
    Type.String({
      pattern: `^\\s*${options.blank ? `(?:${choice})?` : choice}\\s*$`,
      maxLength: options.maxLength ?? 40,
      description,
      ...examples(options.example),
    }),
    message,
    { kind: 'choice', values, ...(options.descending ? { descending: true } : {}) },
  );
}

export function booleanParam(description: string) {
  return withError(
    Type.String({ pattern: BOOLEAN_PATTERN, description: `${description} One of true, false, 1, 0 (any case).` }),
    'must be true, false, 1 or 0',
    { kind: 'boolean' },
  );
}

export function parseBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  return v === 'true' || v === '1';
}

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

export function dateParam(description: string, example?: string) {
  return withError(
    Type.String({ pattern: DATE_PATTERN, description: `${description} Format YYYY-MM-DD.`, ...examples(example) }),
    'must be a date in the form YYYY-MM-DD',
    { kind: 'date' },
  );
}

/** Checks that a YYYY-MM-DD string is a real calendar date (the pattern alone accepts 2024-02-31). */
export function parseDate(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    throw new ParameterError(`${name} must be a real date in the form YYYY-MM-DD, got "${value}"`, name, 'realDate', { value });
  }
  return value;
}

export function textParam(description: string, maxLength = 200, example?: string) {
  return Type.String({ maxLength, description: `${description} Case-insensitive; at most ${maxLength} characters.`, ...examples(example) });
}

/** Trimmed text, or undefined when empty (an empty q means no text filter). */
export function cleanText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.normalize('NFC').trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Integer path id; "abc" or "1.5" is a 400 that names the parameter. */
export function integerPathParam(description: string, example?: string) {
  return withError(Type.String({ pattern: '^[0-9]{1,15}$', description, ...examples(example) }), 'must be a positive whole number', {
    kind: 'wholeNumber',
    positive: true,
  });
}

export { withError };
