// Key resources tables by extraction session and by DOI: request, response and route schemas.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { KrtRow, MAX_TEXT } from './common.ts';

/** The extraction session of demo article 10.1101/demo.2024.0004 (a name-based UUID: the same on every demo load). */
export const DEMO_SESSION_ID = '78e78587-cfb8-508c-a5ea-ec885e71a4ff';

const SessionParams = Type.Object({
  session_id: Type.String({ maxLength: 200, description: 'Extraction session id.', examples: [DEMO_SESSION_ID] }),
});

/** An identifier the knowledge base proposes for a row's empty identifier cell (rrid/fill-model.ts). */
const IdentifierCandidate = Type.Object({
  kind: Type.Union([Type.Literal('rrid'), Type.Literal('catalog')], { description: 'An RRID or a catalog number.' }),
  identifier: Type.String({
    description:
      'As papers of the store wrote it, never altered: an RRID with its "RRID:" label (RRID:SCR_002285), a catalog number as written (11668019).',
  }),
  vendor: Type.String({ description: 'The supplier the papers name with a catalog number; empty for an RRID or when they name none.' }),
  probability: Type.Number({
    minimum: 0,
    maximum: 1,
    description:
      "The fill model's probability that this is the resource's identifier where its authors give one of this kind (fitted on rows of papers " +
      "the knowledge base was built without, labelled by the authors' own tables; calibration checked out of fold, docs/krt.md). Not the chance " +
      'that the authors list the row.',
  }),
  papers: Type.Array(Type.String(), {
    description: 'DOIs of papers of the store that write it for this resource (at most 10, in DOI order).',
  }),
  paper_count: Type.Integer({ minimum: 1, description: 'How many papers of the store write it for this resource.' }),
  agreeing: Type.Integer({ minimum: 1, description: "Mentions of the row's name with this identifier in those papers." }),
  total: Type.Integer({ minimum: 1, description: "Mentions of the row's name with any identifier of this kind (agreeing of total)." }),
});

const identifierCandidates = Type.Array(IdentifierCandidate, {
  description:
    'Candidates for the identifier cell, most probable first: for each kind of identifier (RRID, catalog number) the row does not carry, up to two ' +
    'that other papers of the store wrote for a resource of the same name (and supplier, when the row names one); those below 0.1 are left out. The cell itself is not filled (docs/krt.md).',
});

/**
 * Where each row of a text-extracted table came from (not a KRT column: the row keeps exactly the six). The
 * confidence is the extractor's probability, calibrated by cross-validation by paper (docs/krt.md).
 */
const RowEvidence = Type.Object({
  sentence: Type.String({ description: 'The sentence of the methods text the row was found in.' }),
  confidence: Type.Number({
    minimum: 0,
    maximum: 1,
    description: 'Calibrated probability that the authors would list this row (cross-validated by paper).',
  }),
  inclusion_probability: Nullable(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "The row-inclusion model's probability that the authors would put this row in their key resources table (fitted on rows of papers the extractor was not trained on; docs/krt.md); null for rows stored before it was kept.",
    }),
  ),
  identifier_candidates: identifierCandidates,
});

const rowEvidence = Nullable(
  Type.Array(RowEvidence, {
    description:
      'For a table found in the methods text (provider text-pattern): per row of krt_data, in the same order, the sentence it came from, its confidence ' +
      'and the candidates for its empty identifier cell. ' +
      "null for an author's table, a language model's table, and sessions stored before this was kept.",
  }),
);

const FurtherMention = Type.Object({
  position: Type.Integer({
    minimum: 0,
    description: 'Its place among every row the extractor found (what the paper page promotes into a chat copy of the table).',
  }),
  row: KrtRow,
  sentence: Type.String({ description: 'The sentence of the methods text the row was found in.' }),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: "The extractor's calibrated confidence (as in row_evidence)." }),
  inclusion_probability: Nullable(
    Type.Number({ minimum: 0, maximum: 1, description: "The row-inclusion model's probability, below the table's threshold." }),
  ),
  identifier_candidates: identifierCandidates,
});

const furtherMentions = Type.Array(FurtherMention, {
  description:
    'For a table found in the methods text: the resources the text names that the row-inclusion model leaves out of the key resources table ' +
    '(krt_data), in the order the extractor ranked them, each with its evidence; not counted in summary and not exported. Empty for author tables, ' +
    "language models' tables and tables stored before the model was kept.",
});

export const SessionResponse = Type.Object({
  success: Type.Literal(true),
  session_id: Type.String(),
  doi: Type.String(),
  title: Type.String(),
  status: Type.String({ description: 'completed, or failed (then `error` says why and krt_data is empty).' }),
  error: Nullable(Type.String()),
  created_at: Type.String(),
  krt_data: Type.Array(KrtRow),
  row_evidence: rowEvidence,
  further_mentions: furtherMentions,
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

const DoiPathParams = Type.Object({
  '*': Type.String({
    maxLength: MAX_TEXT,
    description: 'The DOI (e.g. 10.1101/2021.09.08.459408), its slash raw or written %2F; any form check-doi-local accepts.',
    examples: ['10.1101/demo.2024.0004'],
  }),
});

export const DoiTableResponse = Type.Object({
  success: Type.Literal(true),
  doi: Type.String(),
  session_id: Type.String(),
  krt_data: Type.Array(KrtRow),
  row_evidence: rowEvidence,
  further_mentions: furtherMentions,
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

export const sessionTableSchema = {
  summary: 'The key resources table of an extraction session',
  description:
    'Rows in table order. A failed session (e.g. the language-model provider answered with an error) has status `failed`, its `error`, and no rows. Unknown id: 404.',
  params: SessionParams,
  response: { 200: SessionResponse },
};

export const doiTableSchema = {
  summary: 'The best key resources table of a paper',
  description:
    "The DOI follows `doi/` with its slash written as is or as %2F (any form /check-doi-local/ accepts). The best table is the author's own " +
    'key resources table when the paper has one, else the completed session with the most rows (ties: the newest). ' +
    '`total_sessions` counts every session of the paper. No completed session: 404.',
  params: DoiPathParams,
  response: { 200: DoiTableResponse },
};
