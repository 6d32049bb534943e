// A search request read from its parameters, for the API route and the search page alike: the filters, the order
// and the page, or a 400 naming the parameter. The page's form is first read with the API's own schema
// (schemas/search.ts) and the kernel's messages, so that a bad value gets the same message on the page as from
// the API.
import type { Static } from 'typebox';
import { ParameterError } from '../../../core/http/errors.ts';
import { clampLimit, cleanText, parseBoolean } from '../../../core/http/params.ts';
import { MAX_LIMIT } from '../schemas/search.ts';
import type { SearchQuery } from '../schemas/search.ts';
import {
  PROVINCE_CODES,
  RECIPIENT_TYPES,
  dollarsToCents,
  fiscalYearLabel,
  normaliseProvince,
  parseFiscalYearLabel,
} from '../source/index.ts';
import { DEFAULT_SORT, SORT_FIELDS, parseSort } from './query.ts';
import type { SearchFilters, SearchOrder, SearchPage } from './query.ts';

/** The query of GET /api/search/ as its schema validates it. */
export type SearchParameters = Static<typeof SearchQuery>;

export interface SearchRequest {
  filters: SearchFilters;
  order: SearchOrder;
  /** The limit as served (above MAX_LIMIT reduced to it). */
  page: SearchPage;
}

function parseProvince(value: string | undefined): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const code = normaliseProvince(text);
  if (!code)
    throw new ParameterError(
      `province must be a province or territory code (${PROVINCE_CODES.join(', ')}), got "${text}"`,
      'province',
      'province',
      {
        value: text,
      },
    );
  return code;
}

function parseFiscalYear(value: string | undefined, name: string): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const start = /^\d{4}$/.test(text) ? Number(text) : parseFiscalYearLabel(text);
  if (start === null)
    throw new ParameterError(`${name} must be a fiscal year in the form YYYY-YY (e.g. 2018-19), got "${text}"`, name, 'fiscalYear', {
      value: text,
    });
  return fiscalYearLabel(start);
}

function parseRecipientType(value: string | undefined): string | undefined {
  const text = cleanText(value);
  if (text === undefined) return undefined;
  const code = text.toUpperCase();
  if (!(code in RECIPIENT_TYPES))
    throw new ParameterError(
      `recipient_type must be one of ${Object.keys(RECIPIENT_TYPES).join(', ')}, got "${text}"`,
      'recipient_type',
      'recipientType',
      {
        value: text,
      },
    );
  return code;
}

/** Dollars → the smallest (bound "min") or largest (bound "max") whole number of cents inside the bound. */
function boundCents(value: number | undefined, name: string, bound: 'min' | 'max'): number | undefined {
  if (value === undefined) return undefined;
  let cents: number;
  try {
    cents = dollarsToCents(value);
  } catch {
    throw new ParameterError(`${name} is out of range`, name, 'dollars');
  }
  if (bound === 'min' && cents / 100 < value) cents++;
  if (bound === 'max' && cents / 100 > value) cents--;
  return cents;
}

/** The filters, order and page of validated parameters; a 400 naming the parameter for a value the schema cannot judge. */
export function searchRequest(q: SearchParameters, language: SearchFilters['language']): SearchRequest {
  const sortText = cleanText(q.sort) ?? DEFAULT_SORT;
  const order = parseSort(sortText);
  if (!order)
    throw new ParameterError(
      `sort must be one of ${SORT_FIELDS.join(', ')}, each optionally prefixed with - for descending; got "${sortText}"`,
      'sort',
      'sort',
      { value: sortText },
    );
  const filters: SearchFilters = {
    text: cleanText(q.search !== undefined ? q.search : q.q),
    language,
    province: parseProvince(q.province),
    fiscalYear: q.fiscal_year !== undefined ? parseFiscalYear(q.fiscal_year, 'fiscal_year') : parseFiscalYear(q.year, 'year'),
    recipientType: parseRecipientType(q.recipient_type),
    minCents: boundCents(q.min_value, 'min_value', 'min'),
    maxCents: boundCents(q.max_value, 'max_value', 'max'),
    isMajor: parseBoolean(q.is_major),
    isNotable: parseBoolean(q.is_notable),
  };
  if (q.min_value !== undefined && q.max_value !== undefined && q.min_value > q.max_value) {
    throw new ParameterError('min_value must not be greater than max_value', 'min_value', 'minAboveMax');
  }
  return { filters, order, page: { limit: clampLimit(q.limit, MAX_LIMIT), offset: q.offset } };
}
