// GET /api/search-autocomplete/ and GET /api/search/ (rate-limit group "general").
import type { ServiceApp, ServingContext } from '../../../core/service.ts';
import type { RetractionState } from '../state.ts';
import { badRequest } from '../../../core/http/errors.ts';
import { clampLimit, cleanText } from '../../../core/http/params.ts';
import { autocomplete } from '../repository.ts';
import { SEARCH_MAX_LIMIT, checkFilters, searchPapers } from '../paper-search.ts';
import { MIN_QUERY_LENGTH, autocompleteSchema, searchSchema } from '../schemas/search.ts';

export function searchRoutes(scope: ServiceApp, ctx: ServingContext<RetractionState>): void {
  const { db } = ctx.state;
  scope.get(
    '/api/search-autocomplete/',
    { schema: autocompleteSchema, config: { operation: 'search autocomplete', responseCache: true } },
    async (request) => {
      const q = cleanText(request.query.q) ?? '';
      const length = [...q].length;
      if (length < MIN_QUERY_LENGTH)
        throw badRequest(`q must be at least ${MIN_QUERY_LENGTH} characters long after trimming spaces (got ${length})`);
      return { suggestions: await autocomplete(db, q) };
    },
  );
  scope.get('/api/search/', { schema: searchSchema, config: { operation: 'search', responseCache: true } }, async (request) => {
    const { page, limit, ...raw } = request.query;
    return searchPapers(db, checkFilters(raw), page, clampLimit(limit, SEARCH_MAX_LIMIT));
  });
}
