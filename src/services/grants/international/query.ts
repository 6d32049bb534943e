// The query of GET /api/international/projects/ (validated by its schema) read into the repository's terms, for the
// API and the search page alike, so both filter the same way: a date that is not a real one is a 400 naming it.
import type { Static } from 'typebox';
import { cleanText, parseDate } from '../../../core/http/params.ts';
import { dollarsToCents } from '../source/money.ts';
import { DEFAULT_SORT } from './repository.ts';
import type { ProjectQuery } from './repository.ts';
import type { ProjectsQuery } from './schemas.ts';

export function projectQuery(q: Static<typeof ProjectsQuery>, page: { limit: number; offset: number }): ProjectQuery {
  return {
    q: cleanText(q.q),
    // a code or a name: repository.ts, countryCode
    country: cleanText(q.country),
    sector: q.sector,
    status: q.status?.trim() || undefined,
    start_from: parseDate(q.start_from, 'start_from'),
    start_to: parseDate(q.start_to, 'start_to'),
    min_value_cents: q.min_value === undefined ? undefined : dollarsToCents(q.min_value),
    max_value_cents: q.max_value === undefined ? undefined : dollarsToCents(q.max_value),
    sort: q.sort?.trim() || DEFAULT_SORT,
    ...page,
  };
}
