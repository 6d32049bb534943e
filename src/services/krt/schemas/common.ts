// What every endpoint group of Service B shares: text limits and the key resources table row.
import { Type } from 'typebox';
import { withError } from '../../../core/http/params.ts';
import { KRT_COLUMNS, RESOURCE_TYPES } from '../extract/index.ts';

export const MAX_TEXT = 500;
export const MAX_MESSAGE = 2000;

export const text = (description: string, maxLength = MAX_TEXT) => Type.String({ maxLength, description });

/** A chat or extraction session id as the service writes them (a UUID, or a name-based id); the chat's and the pages'. */
export const sessionId = (description: string) =>
  withError(
    Type.String({ maxLength: 100, pattern: '^[A-Za-z0-9._:-]*$', description }),
    'must be a session id (letters, digits, ".", "_", ":" or "-", at most 100)',
  );

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
