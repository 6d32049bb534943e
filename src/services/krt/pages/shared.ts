// What Service B's pages share: the words a page writes with, the form bodies the page routes accept, and the query
// of a page that shows a session's table. Parameters are read by the API's schemas and refusals drawn by the pages
// kernel (core/pages: definePage, defineForm, the shared error page).
import { Type } from 'typebox';
import { errorNote } from '../../../core/pages/replies.ts';
import type { PageLocale } from '../../../core/pages/index.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import { krtText } from '../messages/index.ts';
import type { KrtKey } from '../messages/index.ts';
import { sessionId } from '../schemas/common.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
export { errorNote };

/** What a page writes with: the service's messages and the formatters of the request's language. */
export interface Words {
  t: Translate<KrtKey>;
  loc: PageLocale;
}

export function wordsOf(loc: PageLocale): Words {
  return { t: krtText(loc.language), loc };
}

/** `?session=`: the chat session (or extraction session) a page shows, as the chat API accepts its id. */
export const SessionQuery = Type.Object({ session: Type.Optional(sessionId('The session whose table the page shows.')) });
