// Request and response schemas of Service B (they validate, serialise and document the API).
import { Type } from 'typebox';
import { limitParam } from '../../core/http/params.ts';
import { Nullable } from '../../core/http/schema.ts';
import { KRT_COLUMNS, RESOURCE_TYPES } from './extract/index.ts';
export { Type };

export const SUGGESTIONS_DEFAULT_LIMIT = 10;
export const SUGGESTIONS_MAX_LIMIT = 50;
export const RRID_SUGGESTIONS_DEFAULT = 5;
export const RRID_SUGGESTIONS_MAX = 20;
export const MAX_TEXT = 500;
export const MAX_MESSAGE = 2000;

const text = (description: string, maxLength = MAX_TEXT) => Type.String({ maxLength, description });

// ---- KRT rows -----------------------------------------------------------------------------------------------------

export const KrtRow = Type.Object(
  {
    'RESOURCE TYPE': Type.String({ description: `One of: ${RESOURCE_TYPES.join('; ')}.` }),
    'RESOURCE NAME': Type.String(),
    SOURCE: Type.String({ description: 'Vendor or origin ("This paper" / "This study" for new resources).' }),
    IDENTIFIER: Type.String({ description: 'Catalog numbers first, then other identifiers, RRIDs last: "Cat# ab290; RRID:AB_303395".' }),
    'NEW/REUSE': Type.String({ description: 'new or reuse.' }),
    'ADDITIONAL INFORMATION': Type.String(),
  },
  { description: `A key resources table row; keys exactly ${KRT_COLUMNS.map((c) => `"${c}"`).join(', ')}.` },
);

// ---- DOI check and suggestions ------------------------------------------------------------------------------------

export const DoiQuery = Type.Object({
  doi: Type.String({
    maxLength: MAX_TEXT,
    description:
      'DOI in any usual form: 10.1101/…, doi:10.1101/…, https://doi.org/…, a bioRxiv URL, with or without a version suffix (vN); case-insensitive.',
  }),
});
export const DoiBodyIn = Type.Object({ doi: text('DOI, as for the GET form.') });

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
    text("Text matched in DOIs and titles (case- and accent-insensitive). A DOI in any form is matched as the store's DOI.", 200),
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

// ---- sessions -----------------------------------------------------------------------------------------------------

export const SessionParams = Type.Object({ session_id: Type.String({ maxLength: 200, description: 'Extraction session id.' }) });

export const SessionResponse = Type.Object({
  success: Type.Literal(true),
  session_id: Type.String(),
  doi: Type.String(),
  title: Type.String(),
  status: Type.String({ description: 'completed, or failed (then `error` says why and krt_data is empty).' }),
  error: Nullable(Type.String()),
  created_at: Type.String(),
  krt_data: Type.Array(KrtRow),
  summary: Type.Object({
    total_resources: Type.Integer(),
    new_resources: Type.Integer(),
    reused_resources: Type.Integer(),
    processing_time: Type.Number({ description: 'Seconds the extraction took.' }),
    provider: Type.String({ description: 'jats-table (author table), text-pattern (text extractor) or llm.' }),
    model: Type.String({ description: 'Extractor name and version (krt-table-1, krt-text-1) or the language model.' }),
    is_demo: Type.Boolean(),
  }),
});

export const DoiPathParams = Type.Object({
  '*': Type.String({
    maxLength: MAX_TEXT,
    description: 'The DOI (e.g. 10.1101/2021.09.08.459408), its slash raw or written %2F; any form check-doi-local accepts.',
  }),
});

export const DoiTableResponse = Type.Object({
  success: Type.Literal(true),
  doi: Type.String(),
  session_id: Type.String(),
  krt_data: Type.Array(KrtRow),
  summary: Type.Object({
    total_resources: Type.Integer(),
    new_resources: Type.Integer(),
    reused_resources: Type.Integer(),
    total_sessions: Type.Integer(),
    provider: Type.String(),
    model: Type.String(),
  }),
  article_info: Type.Object({
    title: Type.String(),
    authors: Type.String(),
    publication_date: Nullable(Type.String()),
    journal: Type.String(),
    is_preprint_paper: Type.Boolean(),
    is_biorxiv_paper: Type.Boolean({ description: 'Old name of is_preprint_paper (same value).' }),
    is_demo: Type.Boolean(),
  }),
});

export const ExportParams = Type.Object({
  session_id: Type.String({ maxLength: 200, description: 'Extraction session id (or a chat session id).' }),
  format: Type.String({ maxLength: 20, description: 'json, csv or excel.' }),
});

export const ExportJson = Type.Object(
  {
    title: Type.String(),
    session_id: Type.String(),
    doi: Nullable(Type.String()),
    processing_date: Type.String(),
    provider: Type.String(),
    model: Type.String(),
    resources_found: Type.Integer(),
    krt_data: Type.Array(KrtRow),
  },
  {
    description:
      'json: this document (pretty-printed); csv: the six KRT columns with a header row; excel: an .xlsx with title rows, then the header row and the rows.',
  },
);

export const ExtractBody = Type.Object({
  doi: text('DOI of a stored article.'),
  provider: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('builtin'), Type.Literal('llm')], {
      description:
        'builtin: the JATS/text extractor; llm: the configured language model; all (default): both (the model only when configured).',
    }),
  ),
});

const ExtractedSession = Type.Object({
  session_id: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  status: Type.String(),
  error: Nullable(Type.String()),
  total_resources: Type.Integer(),
  processing_time: Type.Number(),
  change: Type.String({ description: 'inserted, updated or unchanged (the same file through the same extractor gives the same session).' }),
});

export const ExtractResponse = Type.Object({
  success: Type.Literal(true),
  doi: Type.String(),
  sessions: Type.Array(ExtractedSession),
});

// ---- AI ---------------------------------------------------------------------------------------------------------

export const SuggestBody = Type.Object({
  resource_name: text('Name of the resource, e.g. "rabbit anti-GFP".'),
  resource_type: Type.Optional(text('Resource type, loosely written ("antibody", "cell line", "software") or one of the 14.')),
  vendor: Type.Optional(text('Vendor or supplier.')),
  catalog_number: Type.Optional(text('Catalog number ("ab290", "Cat# ab290").')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `Suggestions to return (default ${RRID_SUGGESTIONS_DEFAULT}; above ${RRID_SUGGESTIONS_MAX} reduced to ${RRID_SUGGESTIONS_MAX}).`,
    }),
  ),
});

export const SuggestQuery = Type.Object({
  resource_name: text('Name of the resource.'),
  resource_type: Type.Optional(text('Resource type.')),
  vendor: Type.Optional(text('Vendor or supplier.')),
  catalog_number: Type.Optional(text('Catalog number.')),
});

const suggestionFields = {
  id: Type.Integer({ description: 'Knowledge-base entry id (stable across imports).' }),
  suggested_rrid: Type.String(),
  confidence_score: Type.Number({ description: 'Calibrated probability that the RRID is the right one (see the service description).' }),
  reasoning: Type.String(),
  vendor: Type.String(),
  catalog_number: Type.String(),
  resource_name: Type.String(),
  resource_type: Type.String(),
  papers: Type.Integer({ description: 'Papers of the store that write this RRID.' }),
};

const suggestionList = {
  success: Type.Literal(true),
  total_found: Type.Integer({ description: 'Suggestions returned.' }),
  response_time: Type.Number({ description: 'Seconds spent.' }),
};

export const SuggestResponse = Type.Object({ ...suggestionList, suggestions: Type.Array(Type.Object(suggestionFields)) });

export const BrowserSuggestResponse = Type.Object({
  ...suggestionList,
  status: Type.Literal('success'),
  suggestions: Type.Array(
    Type.Object({
      ...suggestionFields,
      rrid: Type.String({ description: 'Same as suggested_rrid (the browser extension reads this name).' }),
      confidence: Type.Number({ description: 'Same as confidence_score.' }),
      catalog: Type.String({ description: 'Same as catalog_number.' }),
      additional_info: Type.Object({}, { description: 'Always {} (kept for the extension).' }),
    }),
  ),
});

export const ValidateBody = Type.Object({ rrid: text('RRID, with or without the "RRID:" label.', 200) });

const Validation = Type.Object({
  rrid: Type.String({ description: 'Normalised ("RRID:AB_303395") when well-formed; else as received, without the label.' }),
  is_valid: Type.Boolean(),
  status: Type.String({
    description:
      'valid (well-formed and written by a paper of the store), unverified (well-formed, not attested), invalid (malformed or unknown registry).',
  }),
  confidence_score: Type.Number(),
  recommendations: Type.Array(Type.String()),
  last_checked: Type.String(),
  source: Type.String({ description: 'fresh, or cache (served from the 24-hour validation cache).' }),
  registry: Nullable(Type.String()),
  papers: Type.Integer(),
});

export const ValidateResponse = Type.Object({ success: Type.Literal(true), validation: Validation });
export const BrowserValidateResponse = Type.Object({
  success: Type.Literal(true),
  status: Type.Literal('success'),
  validation: Validation,
});

export const RecommendBody = Type.Object({
  resource_name: text('Name of the resource to find alternatives for.'),
  resource_type: Type.Optional(text('Resource type.')),
  context: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form context; vendor and catalog_number are used when present.' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Alternatives to return (default 10, at most 50).' })),
});

export const RecommendResponse = Type.Object({
  success: Type.Literal(true),
  recommendations: Type.Array(
    Type.Object({
      id: Type.Integer(),
      recommended_resource: Type.String(),
      recommended_vendor: Type.String(),
      recommended_catalog: Type.String(),
      recommended_rrid: Nullable(Type.String()),
      recommendation_type: Type.String({ description: 'functional_equivalent, alternative_vendor, alternative_clone or updated_version.' }),
      confidence_score: Type.Number(),
      reasoning: Type.String(),
      availability_status: Type.String({ description: 'unknown: no source of stock levels is consulted.' }),
      resource_type: Type.String(),
      papers: Type.Integer(),
    }),
  ),
  total_found: Type.Integer(),
  response_time: Type.Number(),
});

export const ChatBody = Type.Object({
  message: text('What to do, e.g. "Add rabbit anti-GFP antibody from Abcam, catalog ab290".', MAX_MESSAGE),
  session_id: Type.Optional(
    Type.String({ maxLength: 100, pattern: '^[A-Za-z0-9._:-]*$', description: "A previous reply's session_id; omitted: a new session." }),
  ),
});

export const ChatResponse = Type.Object({
  success: Type.Literal(true),
  session_id: Type.String(),
  response: Type.String(),
  intent: Type.String({
    description: 'add_resource, remove_resource, modify_resource, list_resources, export, help or clarification_answer.',
  }),
  krt_entries: Type.Array(KrtRow, { description: 'The whole table of the session.' }),
  needs_clarification: Type.Boolean(),
  clarifications: Type.Array(Type.String()),
  response_time: Type.Number(),
  export: Nullable(
    Type.Object({ format: Type.String(), url: Type.String() }, { description: 'For the export intent: where to download the table.' }),
  ),
});
