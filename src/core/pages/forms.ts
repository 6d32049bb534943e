// Forms that change something (a chat message, a new chat) are refused when another site sent them: a page elsewhere
// could otherwise make a visitor's browser post them with the visitor's cookies. Browsers say where a request comes
// from (Sec-Fetch-Site, else Origin); a client that says neither is not a browser acting for someone else.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';

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
