// A browser's form bodies (application/x-www-form-urlencoded) for page scopes: the API itself takes JSON only.
import type { ServiceApp } from '../service.ts';

/** What a page's form may post: a few fields of text, far below this. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * A browser's form body (application/x-www-form-urlencoded) read into its fields, in this scope (the API takes JSON):
 * a name given once is a string, a name given again a list of its values. Added once per scope, whichever page asks.
 */
export function acceptFormBodies(app: ServiceApp): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(String(body))) {
        const had = fields[name];
        fields[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
      }
      done(null, fields);
    },
  );
}
