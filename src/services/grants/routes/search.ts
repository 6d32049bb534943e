// GET /api/search/: the query read into filters, an order and a page (400 naming the parameter otherwise),
// answered by the in-memory search and the page's rows read by id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../../core/http/errors.ts';
import { clampLimit, cleanText, parseBoolean } from '../../../core/http/params.ts';
import { GRANTS_LANGUAGES, requestLanguage } from '../language.ts';
import { searchGrants } from '../repository.ts';
import { MAX_LIMIT, SEARCH_DOCS, SearchBody, SearchQuery } from '../schemas/search.ts';
import { DEFAULT_SORT, SORT_FIELDS, parseSort } from '../search.ts';
import type { SearchFilters } from '../search.ts';
import {
  PROVINCE_CODES,
  RECIPIENT_TYPES,
  dollarsToCents,
  fiscalYearLabel,
  normaliseProvince,
  parseFiscalYearLabel,
} from '../source/index.ts';
import type { GrantsRoutes } from './context.ts';

function parseProvince(value: string | undefined): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const code = normaliseProvince(text);
  if (!code) throw badRequest(`province must be a province or territory code (${PROVINCE_CODES.join(', ')}), got "${text}"`);
  return code;
}

function parseFiscalYear(value: string | undefined, name: string): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const start = /^\d{4}$/.test(text) ? Number(text) : parseFiscalYearLabel(text);
  if (start === null) throw badRequest(`${name} must be a fiscal year in the form YYYY-YY (e.g. 2018-19), got "${text}"`);
  return fiscalYearLabel(start);
}

function parseRecipientType(value: string | undefined): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const code = text.toUpperCase();
  if (!(code in RECIPIENT_TYPES))
    throw badRequest(`recipient_type must be one of ${Object.keys(RECIPIENT_TYPES).join(', ')}, got "${text}"`);
  return code;
}

/** Dollars → the smallest (bound "min") or largest (bound "max") whole number of cents inside the bound. */
function boundCents(value: number | undefined, name: string, bound: 'min' | 'max'): number | undefined {
  if (value === undefined) return undefined;
  let cents: number;
  try {
    cents = dollarsToCents(value);
  } catch {
    throw badRequest(`${name} is out of range`);
  }
  if (bound === 'min' && cents / 100 < value) cents++;
  if (bound === 'max' && cents / 100 > value) cents--;
  return cents;
}

export const searchRoutes: FastifyPluginAsyncTypebox<GrantsRoutes> = async (app, { db, memory }) => {
  app.get(
    '/search/',
    {
      schema: { ...SEARCH_DOCS, querystring: SearchQuery, response: { 200: SearchBody } },
      config: { operation: 'search', responseCache: true, languages: GRANTS_LANGUAGES },
    },
    async (request) => {
      const q = request.query;
      const sortText = cleanText(q.sort) ?? DEFAULT_SORT;
      const order = parseSort(sortText);
      if (!order)
        throw badRequest(
          `sort must be one of ${SORT_FIELDS.join(', ')}, each optionally prefixed with - for descending; got "${sortText}"`,
        );
      const filters: SearchFilters = {
        text: cleanText(q.search !== undefined ? q.search : q.q),
        province: parseProvince(q.province),
        fiscalYear: q.fiscal_year !== undefined ? parseFiscalYear(q.fiscal_year, 'fiscal_year') : parseFiscalYear(q.year, 'year'),
        recipientType: parseRecipientType(q.recipient_type),
        minCents: boundCents(q.min_value, 'min_value', 'min'),
        maxCents: boundCents(q.max_value, 'max_value', 'max'),
        isMajor: parseBoolean(q.is_major),
        isNotable: parseBoolean(q.is_notable),
      };
      if (q.min_value !== undefined && q.max_value !== undefined && q.min_value > q.max_value) {
        throw badRequest('min_value must not be greater than max_value');
      }
      const limit = clampLimit(q.limit, MAX_LIMIT);
      const result = await searchGrants(db, memory, filters, order, { limit, offset: q.offset }, requestLanguage(request, q.lang));
      return { count: result.count, limit, offset: q.offset, results: result.rows };
    },
  );
};
