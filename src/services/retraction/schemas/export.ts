// The export endpoint: query, body and documentation.
import { Type } from 'typebox';
import { limitParam } from '../../../core/http/params.ts';
import { producesFormats } from '../../../core/http/schema.ts';
import { EXPORT_COLUMNS, EXPORT_ORDER, ExportPaperSchema } from '../paper-fields.ts';
import { natureParam, oneOf } from './common.ts';

export const EXPORT_DEFAULT_LIMIT = 1000;
export const EXPORT_MAX_LIMIT = 10000;

const ExportQuery = Type.Object({
  format: Type.Optional(oneOf(['json', 'csv', 'excel'] as const, 'json (default), csv or excel (.xlsx).')),
  limit: limitParam(EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT, 'papers'),
  nature: natureParam('all', 'to export'),
});

const ExportBody = Type.Object(
  {
    papers: Type.Array(ExportPaperSchema),
    analytics: Type.Any(),
  },
  { description: 'json format; csv and excel carry the same columns as the papers here.' },
);

export const exportSchema = {
  summary: 'Download retracted papers with their citation counts',
  description:
    `Streamed download of up to \`limit\` papers (default ${EXPORT_DEFAULT_LIMIT}; values above ${EXPORT_MAX_LIMIT} are reduced to ${EXPORT_MAX_LIMIT}), ${EXPORT_ORDER}. ` +
    `json: {papers:[…], analytics:{…}}; csv and excel (.xlsx): one row per paper. Columns: ${EXPORT_COLUMNS.join(', ')}. ` +
    'post_retraction_percentage is 100 × post / total (empty when a paper has no citations). CSV cells that begin with =, +, -, @, tab or CR get a leading apostrophe. ' +
    '`nature` keeps one kind of notice (default all, each row with its retraction_nature); for a notice that is not a retraction, post_retraction means after the notice. ' +
    'The json analytics count the exported rows and give them by kind of notice (by_nature).',
  querystring: ExportQuery,
  produces: producesFormats('json', 'csv', 'xlsx'),
  response: { 200: ExportBody },
};
