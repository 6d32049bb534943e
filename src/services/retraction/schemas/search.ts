// The search endpoints: the autocomplete, the search with filters and the export of a search; query, body and documentation.
import { Type } from 'typebox';
import { dateParam, limitParam, pageParam, textParam, withError } from '../../../core/http/params.ts';
import { producesFormats } from '../../../core/http/schema.ts';
import { NATURES } from '../nature.ts';
import { EXPORT_COLUMNS, ExportPaperSchema } from '../paper-fields.ts';
import { FACET_SIZE, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_MIN_QUERY, SEARCH_ORDER } from '../search-limits.ts';
import { EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT } from './export.ts';
import { NullableString, natureParam, oneOf } from './common.ts';

export const MIN_QUERY_LENGTH = 3;

const AutocompleteQuery = Type.Object({
  q: withError(
    Type.String({
      maxLength: 200,
      description: 'Text to look for in titles, author names and DOIs (case-insensitive); at least 3 characters after trimming.',
      examples: ['zebrafish'],
    }),
    'must be at most 200 characters long',
  ),
});

export const Suggestion = Type.Object({
  record_id: Type.String(),
  title: Type.String(),
  journal: NullableString,
  author: Type.String({ description: 'Authors, separated by "; ".' }),
  retraction_date: NullableString,
  post_retraction_citations: Type.Integer(),
});
const AutocompleteBody = Type.Object({ suggestions: Type.Array(Suggestion, { maxItems: 10 }) });

export const autocompleteSchema = {
  summary: 'Search suggestions for retracted papers',
  description:
    `\`q\` (trimmed, at least ${MIN_QUERY_LENGTH} characters) is looked for in titles, author names and DOIs, case-insensitively, through a substring index. ` +
    'At most 10 suggestions, best match first: exact DOI, exact title, title starting with q, a title word starting with q, title containing q, ' +
    'an author name starting with q, authors containing q, DOI containing q; ties by more post-retraction citations, then the more recent retraction. ' +
    'A DOI URL (https://doi.org/…) is searched as the bare DOI.',
  querystring: AutocompleteQuery,
  response: { 200: AutocompleteBody },
};

const FilterQuery = {
  q: Type.Optional(
    textParam(
      `Text in titles, author names and DOIs, accents ignored; at least ${SEARCH_MIN_QUERY} characters after trimming.`,
      200,
      'zebrafish',
    ),
  ),
  journal: Type.Optional(textParam('Part of the journal name, accents ignored.', 200)),
  subject: Type.Optional(textParam('Part of a subject (Retraction Watch subjects without their code), accents ignored.', 200)),
  country: Type.Optional(textParam("Part of a country of the authors' institutions, accents ignored.", 200)),
  reason: Type.Optional(textParam('Part of a reason for the notice, accents ignored.', 200)),
  nature: natureParam('all', 'to find'),
  retracted_from: Type.Optional(dateParam('Notice on or after this day.')),
  retracted_to: Type.Optional(dateParam('Notice on or before this day.')),
  published_from: Type.Optional(dateParam('Original paper published on or after this day.')),
  published_to: Type.Optional(dateParam('Original paper published on or before this day.')),
};

export const SearchQuery = Type.Object({
  ...FilterQuery,
  page: pageParam(),
  limit: limitParam(SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, 'records per page'),
});

const natureField = oneOf(NATURES, 'The kind of notice: only retraction is a retracted paper.');

const SearchResultSchema = Type.Object({ ...ExportPaperSchema.properties, nature: natureField });

const Facet = Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }));

const SearchBody = Type.Object({
  filters: Type.Record(Type.String(), Type.String(), { description: 'The filters applied, trimmed (nature always).' }),
  order: Type.String(),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer({ description: 'Records matching every filter.' }),
  total_pages: Type.Integer({ description: 'At least 1.' }),
  results: Type.Array(SearchResultSchema),
  facets: Type.Object(
    {
      nature: Facet,
      journal: Facet,
      subject: Facet,
      country: Facet,
    },
    {
      description: `Among the matching records: every kind of notice, and the ${FACET_SIZE} most frequent journals, subjects and countries.`,
    },
  ),
});

const FILTER_NOTE =
  'Text filters match a part of the field with accents and case ignored (as the autocomplete does: "montreal" finds "Montréal"); ' +
  'date ranges include both ends, and a record without that date is outside any range; a range that ends before it starts is a 400. ' +
  'Filters combine with AND.';

export const searchSchema = {
  summary: 'Search retracted papers with filters',
  description: `One page of the records matching every filter, ${SEARCH_ORDER}. ${FILTER_NOTE} Facets count the matching records. A page past the last is empty.`,
  querystring: SearchQuery,
  response: { 200: SearchBody },
};

export const ExportSearchQuery = Type.Object({
  ...FilterQuery,
  format: Type.Optional(oneOf(['json', 'csv', 'excel'] as const, 'json (default), csv or excel (.xlsx).')),
  limit: limitParam(EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT, 'records'),
});

export const exportSearchSchema = {
  summary: 'Download the records of a search',
  description:
    `Streamed download of up to \`limit\` records matching the filters of /api/search/ (default ${EXPORT_DEFAULT_LIMIT}; values above ${EXPORT_MAX_LIMIT} are reduced to ${EXPORT_MAX_LIMIT}), in the search's order. ` +
    `${FILTER_NOTE} Columns: ${[...EXPORT_COLUMNS, 'nature'].join(', ')}. json: {filters, papers:[…], search:{exported_papers, matching_papers, …}}; csv and excel: one row per record. ` +
    'CSV cells that begin with =, +, -, @, tab or CR get a leading apostrophe. Same rate limit as /api/export/.',
  querystring: ExportSearchQuery,
  produces: producesFormats('json', 'csv', 'xlsx'),
  response: { 200: Type.Object({ filters: Type.Any(), papers: Type.Array(Type.Any()), search: Type.Any() }) },
};
