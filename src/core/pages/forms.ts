// Pages' forms that post: their bodies read (acceptFormBodies); and forms that change something (a chat message, a new
// chat) refused when another site sent them: a page elsewhere could otherwise make a visitor's browser post them with
// the visitor's cookies. Browsers say where a request comes from (Sec-Fetch-Site, else Origin); a client that says
// neither is not a browser acting for someone else.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
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

/** Why the request was sent by another site, or null when it came from this service's own pages (or no browser). */
function crossOriginProblem(request: FastifyRequest, publicUrl: string | null): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none' ? null : `Sec-Fetch-Site: ${site}`;
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return null;
  // The browser writes both Origin and Host; a forged Host here can only harm the client that forged it.
  const own = [`${request.protocol}://${request.host}`];
  if (publicUrl) own.push(new URL(publicUrl).origin);
  return own.some((o) => o.toLowerCase() === origin.toLowerCase()) ? null : `Origin: ${origin}`;
}

/** An onRequest hook for a state-changing form route: 403 with a clear message when another site sent it. */
export function sameOriginForm(publicUrl: string | null): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const problem = crossOriginProblem(request, publicUrl);
    if (problem)
      throw new HttpError(
        403,
        `this form can only be sent from this service's own pages; the request came from another site (${problem})`,
        'CROSS_ORIGIN_FORM',
      );
  };
}
