// GET /api/search/: the query and the page of grant records.
import { Type } from 'typebox';
import { booleanParam, choiceParam, limitParam, offsetParam, textParam } from '../../../core/http/params.ts';
import { PROVINCE_CODES } from '../source/index.ts';
import { DEFAULT_SORT, SORT_FIELDS } from '../search/query.ts';
import { langParam } from '../language.ts';
import { RECIPIENT_TYPE_LIST } from './common.ts';
import { GrantRecord } from './grant.ts';

const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export const SEARCH_DOCS = {
  summary: 'Search grant agreements',
  description:
    '`search` (alias `q`) is a substring match, case and accents aside ("montreal" finds "Montréal"), over agreement title, recipient legal name, description and program name in English and French; ' +
    'a result holding the string with its accents as written comes before one that holds it folded only. ' +
    'served by an index of the words of the distinct texts. All filters combine with AND. `count` is the number of all matches; `limit` (default 100) above 1000 is reduced to 1000. ' +
    `Sort fields: ${SORT_FIELDS.join(', ')} (prefix \`-\` for descending; default \`${DEFAULT_SORT}\`; fiscal_year and recipient_province then by value); ties are broken by id, so pages never overlap.`,
};

export const SearchQuery = Type.Object({
  search: Type.Optional(
    textParam(
      'Substring searched in agreement title, recipient legal name, description and program name (English and French; case and accents aside).',
      200,
      'health',
    ),
  ),
  q: Type.Optional(textParam('Alias of `search` (old clients); `search` wins when both are given.')),
  province: Type.Optional(
    Type.String({
      maxLength: 60,
      description: `Province or territory: ${PROVINCE_CODES.join(', ')} (any case; names such as "Ontario" are accepted too).`,
    }),
  ),
  fiscal_year: Type.Optional(
    Type.String({ maxLength: 20, description: 'Federal fiscal year (April 1 to March 31), e.g. `2018-19` (also `2018-2019` or `2018`).' }),
  ),
  year: Type.Optional(
    Type.String({ maxLength: 20, description: 'Alias of `fiscal_year` (old clients); `fiscal_year` wins when both are given.' }),
  ),
  min_value: Type.Optional(Type.Number({ description: 'Smallest agreement value in dollars (inclusive).' })),
  max_value: Type.Optional(Type.Number({ description: 'Largest agreement value in dollars (inclusive).' })),
  recipient_type: Type.Optional(
    Type.String({ maxLength: 40, description: `Recipient type code as published: ${RECIPIENT_TYPE_LIST}. Any case.` }),
  ),
  is_major: Type.Optional(booleanParam('Only agreements over $1,000,000 (true) or up to it (false).')),
  is_notable: Type.Optional(booleanParam('Only agreements flagged (true) or not flagged (false) by the notable keyword rules.')),
  sort: Type.Optional(
    choiceParam(
      SORT_FIELDS,
      `Order: one of ${SORT_FIELDS.join(', ')}; a leading \`-\` means descending. Default \`-agreement_value\`. Ties are broken by id in the same direction; a missing end date sorts as the lowest value.`,
      {
        blank: true,
        descending: true,
        exactCase: true,
        error: `must be one of ${SORT_FIELDS.join(', ')}, each optionally prefixed with - for descending`,
      },
    ),
  ),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
  offset: offsetParam(),
  lang: Type.Optional(langParam()),
});

export const SearchBody = Type.Object({
  count: Type.Integer({ description: 'Number of all matches.' }),
  limit: Type.Integer({ description: 'Effective limit (after clamping to 1000).' }),
  offset: Type.Integer(),
  results: Type.Array(GrantRecord),
});
