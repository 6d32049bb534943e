// What the route groups of Service A share: parsing the country and vocabulary filters, the page, and the
// contract's list envelope.
import { badRequest } from '../../../core/http/errors.ts';
import { clampLimit } from '../../../core/http/params.ts';
import { COUNTRY_CODES, findCountry } from '../sources/index.ts';
import type { Country, Vocabulary, VocabularyEntry } from '../sources/index.ts';
import type { Page, PageOf } from '../repository.ts';
import { MAX_LIMIT } from '../schemas/index.ts';

/** Statistics and metadata change only with an import: cached longer than the lists (the contract's 30 minutes). */
export const STATS_CACHE_SECONDS = 1800;

/** A list route's config: named in 500 messages, answers cached until the data version changes. */
export const listConfig = (operation: string) => ({ operation, responseCache: true });

export function parseCountry(value: string | undefined): Country | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const country = findCountry(value);
  if (!country || country.code.toLowerCase() !== value.trim().toLowerCase()) {
    throw badRequest(`country must be one of ${COUNTRY_CODES.join(', ')} (any case), got "${value}"`);
  }
  return country;
}

export function parseVocabulary(vocabulary: Vocabulary, name: string, value: string | undefined): VocabularyEntry | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const entry = vocabulary.resolve(value);
  if (!entry)
    throw badRequest(
      `${name} must be an id or slug listed by /api/metadata/ (${vocabulary.entries.map((e) => e.slug).join(', ')}), got "${value}"`,
    );
  return entry;
}

/** The page a list query asks for, with the limit clamped to the maximum. */
export const pageOf = (query: { page: number; limit: number }): Page => ({ page: query.page, limit: clampLimit(query.limit, MAX_LIMIT) });

export function listEnvelope<T>(result: PageOf<T>, page: Page, filters: Record<string, string>) {
  const totalPages = Math.max(1, Math.ceil(result.total / page.limit));
  return {
    success: true as const,
    data: result.rows,
    pagination: {
      page: page.page,
      limit: page.limit,
      total_pages: totalPages,
      total_results: result.total,
      has_next: page.page < totalPages,
      has_previous: page.page > 1,
    },
    filters_applied: filters,
  };
}
