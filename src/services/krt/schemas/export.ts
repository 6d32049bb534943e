// Downloads of a key resources table (json, csv, excel): request, response and route schemas.
import { Type } from 'typebox';
import { choiceParam } from '../../../core/http/params.ts';
import { Nullable, producesFormats } from '../../../core/http/schema.ts';
import { KrtRow } from './common.ts';
import { DEMO_SESSION_ID } from './tables.ts';

export const EXPORT_FORMATS = ['json', 'csv', 'excel'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const ExportParams = Type.Object({
  session_id: Type.String({ maxLength: 200, description: 'Extraction session id (or a chat session id).', examples: [DEMO_SESSION_ID] }),
  format: choiceParam(EXPORT_FORMATS, 'json, csv or excel (any case).', { maxLength: 20, example: 'csv' }),
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
    is_demo: Type.Boolean({ description: 'True when the article is generated demo data, not a real preprint.' }),
  },
  {
    description:
      'json: this document (pretty-printed); csv: the six KRT columns with a header row; excel: an .xlsx with title rows, then the header row and the rows.',
  },
);

export const exportSchema = {
  summary: 'Download a key resources table',
  description:
    'format json: {title, session_id, doi, processing_date, provider, model, resources_found, krt_data, is_demo}, pretty-printed; csv: UTF-8, header row, ' +
    "the six KRT columns in order, RFC 4180 quoting, formula-like cells prefixed with '; excel: .xlsx with title rows (title, DOI, session, extractor, date), " +
    'then the header row and the rows. `Content-Disposition: attachment; filename="krt_<id>.<json|csv|xlsx>"`. A chat session id exports its table too. ' +
    'Unknown session: 404; other formats: 400; a failed session: 409.',
  params: ExportParams,
  produces: producesFormats('json', 'csv', 'xlsx'),
  response: { 200: ExportJson },
};
