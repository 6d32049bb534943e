// Extraction of a stored article over HTTP (admin): request, response and route schemas.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { text } from './common.ts';

const ExtractBody = Type.Object(
  {
    doi: text('DOI of a stored article.'),
    provider: Type.Optional(
      Type.Union([Type.Literal('all'), Type.Literal('builtin'), Type.Literal('llm')], {
        description:
          'builtin: the JATS/text extractor; llm: the configured language model; all (default): both (the model only when configured).',
      }),
    ),
  },
  { examples: [{ doi: '10.1101/demo.2024.0004', provider: 'builtin' }] },
);

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

export const extractSchema = {
  summary: 'Extract the key resources table of a stored article (admin)',
  description:
    'Enabled only when the server has an admin token (PDI_KRT_ADMIN_TOKEN): send it as `Authorization: Bearer <token>`. Without a configured token ' +
    'this route answers 404; without a token in the request 401; with a wrong one 403. Runs the built-in extractor and, when configured, the ' +
    'language-model provider; a provider failure is stored as a failed session (502 when every requested extractor failed).',
  body: ExtractBody,
  response: { 200: ExtractResponse },
};
