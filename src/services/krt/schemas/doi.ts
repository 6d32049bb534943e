// DOI checks (is a DOI in the local store?) and DOI suggestions: request, response and route schemas.
import { Type } from 'typebox';
import { limitParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { MAX_TEXT, text } from './common.ts';

const SUGGESTIONS_DEFAULT_LIMIT = 10;
export const SUGGESTIONS_MAX_LIMIT = 50;

export const DoiQuery = Type.Object({
  doi: Type.String({
    maxLength: MAX_TEXT,
    description:
      'DOI in any usual form: 10.1101/…, doi:10.1101/…, https://doi.org/…, a bioRxiv URL, with or without a version suffix (vN); case-insensitive.',
    examples: ['10.1101/demo.2024.0004'],
  }),
});
export const DoiBodyIn = Type.Object({ doi: text('DOI, as for the GET form.') }, { examples: [{ doi: '10.1101/demo.2024.0004' }] });

const ArticleMetadata = Type.Object({
  title: Type.String(),
  authors: Type.String({ description: 'Authors as "Surname Initials", comma-separated.' }),
  date: Nullable(Type.String({ description: 'Publication date, YYYY-MM-DD.' })),
  journal: Type.String(),
  is_preprint: Type.Boolean(),
  is_demo: Type.Boolean({ description: 'True for a generated demo article.' }),
});

export const CheckDoiResponse = Type.Object({
  success: Type.Literal(true),
  available: Type.Boolean({ description: 'Whether the store holds the article.' }),
  doi: Type.String({ description: 'The normalised DOI.' }),
  title: Nullable(Type.String()),
  file_size: Nullable(Type.Integer({ description: 'Bytes of the stored JATS file.' })),
  downloaded_at: Nullable(Type.String({ description: 'When the stored file was written (its modification time), ISO 8601 UTC.' })),
  local_file_available: Type.Boolean({ description: 'The file is present on disk now.' }),
  can_extract_krt: Type.Boolean({ description: 'The article can be (re-)extracted: its file is present.' }),
  total_sessions: Type.Integer({ description: 'Extraction sessions stored for the DOI.' }),
  metadata: Nullable(ArticleMetadata),
});

export const SuggestionsQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "Text matched in DOIs and titles (case- and accent-insensitive). A DOI in any form is matched as the store's DOI.",
      examples: ['neurite'],
    }),
  ),
  limit: limitParam(SUGGESTIONS_DEFAULT_LIMIT, SUGGESTIONS_MAX_LIMIT, 'suggestions'),
});

export const SuggestionsResponse = Type.Object({
  success: Type.Literal(true),
  suggestions: Type.Array(
    Type.Object({
      doi: Type.String(),
      title: Type.String(),
      authors: Type.String(),
      publication_date: Nullable(Type.String()),
      file_size: Type.Integer(),
      is_demo: Type.Boolean(),
    }),
  ),
  total_available: Type.Integer({ description: 'Articles matching q (all articles when q is absent).' }),
  query: Type.String({ description: 'q as received (trimmed), or "".' }),
  limit: Type.Integer({ description: 'The limit applied (after clamping to 50).' }),
});

const checkDoiDescription =
  'Whether the local store holds the article. The DOI is normalised first: a `doi:` prefix, https://doi.org/…, a bioRxiv or medRxiv URL, ' +
  'a version suffix (…v2) and letter case do not matter. A well-formed DOI that is not stored gives 200 with `available: false`; ' +
  'a missing or malformed one, 400.';

export const checkDoiGetSchema = {
  summary: 'Is a DOI in the local store?',
  description: checkDoiDescription,
  querystring: DoiQuery,
  response: { 200: CheckDoiResponse },
};

export const checkDoiPostSchema = {
  summary: 'Is a DOI in the local store? (JSON body)',
  description: checkDoiDescription,
  body: DoiBodyIn,
  response: { 200: CheckDoiResponse },
};

export const doiSuggestionsSchema = {
  summary: 'DOIs of stored articles matching a text',
  description:
    '`q` is matched against DOIs and titles, case- and accent-insensitively; best match first (exact DOI, DOI prefix, DOI substring, ' +
    'title phrase, all words in the title), then the newest, then by DOI. Without `q`: all articles, newest first. ' +
    `limit: default ${SUGGESTIONS_DEFAULT_LIMIT}, values above ${SUGGESTIONS_MAX_LIMIT} are reduced to ${SUGGESTIONS_MAX_LIMIT}.`,
  querystring: SuggestionsQuery,
  response: { 200: SuggestionsResponse },
};
