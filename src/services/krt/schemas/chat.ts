// The table-building chat: request, response and route schemas.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { KrtRow, MAX_MESSAGE, sessionId, text } from './common.ts';

export const ChatBody = Type.Object(
  {
    message: text('What to do, e.g. "Add rabbit anti-GFP antibody from Abcam, catalog ab290".', MAX_MESSAGE),
    session_id: Type.Optional(sessionId("A previous reply's session_id; omitted: a new session.")),
  },
  { examples: [{ message: 'Add rabbit anti-GFP antibody from Example Immunoreagents (demo), catalog DEMO-AB-0101' }] },
);

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

export const chatSchema = {
  summary: 'Build a key resources table in conversation',
  description:
    'Intents: add_resource, remove_resource, modify_resource, list_resources, export, help, clarification_answer. Missing essentials are asked for ' +
    '(needs_clarification, clarifications). krt_entries is the whole table of the session. Sessions are kept on the server and expire after 24 hours ' +
    'without a message; a new id is generated when session_id is omitted (an unknown or expired id starts an empty table under that id). ' +
    "RRIDs come only from the message or from papers of the store that link that vendor's catalog number to one.",
  body: ChatBody,
  response: { 200: ChatResponse },
};
