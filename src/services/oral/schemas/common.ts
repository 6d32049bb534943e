// Parts shared by Service A's request and response schemas (they validate, serialise and document the API).
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { choiceParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { COUNTRY_CODES } from '../sources/index.ts';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

export const countryParam = choiceParam(
  COUNTRY_CODES,
  'Country code: UK, US, CA, AU or NZ (any case). UK includes its nations (England, Scotland, …).',
  { blank: true, error: `must be one of ${COUNTRY_CODES.join(', ')} (any case)` },
);

export const vocabularyFilter = (what: string) =>
  Type.String({ maxLength: 100, description: `${what} id or slug, as listed by /api/metadata/.` });

const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total_pages: Type.Integer({ description: 'At least 1.' }),
  total_results: Type.Integer(),
  has_next: Type.Boolean(),
  has_previous: Type.Boolean(),
});

export const CountryRef = Type.Object({ code: Type.String(), name: Type.String(), flag_emoji: Type.String(), display_name: Type.String() });
export const VocabularyRef = Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String() });
export const Reference = Type.Object({
  text: Type.String(),
  url: Nullable(Type.String()),
  doi: Nullable(Type.String()),
  pmid: Nullable(Type.String()),
});

/** The contract's list envelope: `data`, `pagination` and the echoed `filters_applied` (one string per filter). */
export function envelope<T extends TSchema>(item: T, filters: string[]) {
  return Type.Object({
    success: Type.Literal(true),
    data: Type.Array(item),
    pagination: Pagination,
    filters_applied: Type.Object(Object.fromEntries(filters.map((f) => [f, Type.String()]))),
  });
}

/** The body of every error response (service.ts errorBody). */
export const ErrorBody = Type.Object({ success: Type.Literal(false), error: Type.String() });
