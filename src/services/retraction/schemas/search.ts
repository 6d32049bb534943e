// The search-autocomplete endpoint: its query, body and documentation.
import { Type } from 'typebox';
import { withError } from '../../../core/http/params.ts';
import { NullableString } from './common.ts';

export const MIN_QUERY_LENGTH = 3;

export const AutocompleteQuery = Type.Object({
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
export const AutocompleteBody = Type.Object({ suggestions: Type.Array(Suggestion, { maxItems: 10 }) });

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
