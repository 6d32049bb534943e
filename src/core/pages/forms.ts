// Pages' forms that post (their bodies are read by form-bodies.ts). defineForm, definePage's counterpart for a form whose
// values stay out of URLs or that changes something: the body validated by the API's schema, `act` then `render`,
// every refusal drawn as a page. Forms that change something (a chat message, a new chat) are refused when another
// site sent them: a page elsewhere could otherwise make a visitor's browser post them with the visitor's cookies.
// Browsers say where a request comes from (Sec-Fetch-Site, else Origin); a client that says neither is not a browser
// acting for someone else.
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { HttpError } from '../http/errors.ts';
import type { ServiceApp } from '../service.ts';

import type { PageKit } from './index.ts';
import { validationProblem } from './page.ts';
import type { Parsed, RawPageInput } from './page.ts';
import { errorPage, pageProblem, sendPage } from './replies.ts';
import type { PageProblem, PageReply, PageResult } from './replies.ts';

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

/** What a form's `act` and `render` get: the validated body (as the API's schema reads it) and the request's language. */
interface FormInput<B> extends RawPageInput {
  body: B;
}

export interface FormDefinition<BS extends TSchema | undefined, D> {
  url: string;
  /** The body's schema: the API route's own (or built from its fields), so both accept the same values. */
  body?: BS;
  /** Runs before the body is read: a form that changes something refuses another site's post (sameOriginForm). */
  onRequest?: (request: FastifyRequest) => Promise<void>;
  /** What the form does (through the functions the API calls); what it throws as a client error is refused. */
  act(input: FormInput<Parsed<BS>>): Promise<D>;
  /** The result: a page, or a redirect to the page that shows it (POST, then 303, then GET). */
  render(data: D, input: FormInput<Parsed<BS>>): PageReply;
  /**
   * The page drawn around any refusal of what was sent (4xx: the form redrawn with what was typed beside the message);
   * absent, and for a 503: the shared error page.
   */
  refused?(problem: PageProblem, input: RawPageInput): PageResult | Promise<PageResult>;
}

/** The body as the browser sent it: the text fields of a form (a multipart body is read by `act` itself). */
function fieldsOf(request: FastifyRequest): Record<string, string> {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return {};
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * Registers a POST form: validation of the body by the API's schema, then act, then render (a page or a 303), each
 * refusal drawn as a page in the layout with its status, never JSON and never a 500. Forms are never cached.
 */
export function defineForm<BS extends TSchema | undefined = undefined, D = unknown>(
  app: ServiceApp,
  kit: PageKit,
  form: FormDefinition<BS, D>,
): void {
  const schema = form.body ? { body: form.body } : {};
  app.post(form.url, { schema, attachValidation: true, ...(form.onRequest ? { onRequest: form.onRequest } : {}) }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const raw: RawPageInput = { request, form: fieldsOf(request), locale: kit.locale(request) };
      const refuse = async (problem: PageProblem): Promise<PageResult> => {
        const drawn = form.refused && problem.status < 500 ? await form.refused(problem, raw) : errorPage(kit, raw.locale, problem);
        return { ...drawn, status: drawn.status ?? problem.status, headers: { ...problem.headers, ...drawn.headers } };
      };
      const invalid = validationProblem(request);
      if (invalid) return refuse(invalid);
      const input: FormInput<Parsed<BS>> = { ...raw, body: request.body as Parsed<BS> };
      let data: D;
      try {
        data = await form.act(input);
      } catch (error) {
        const problem = pageProblem(error);
        if (!problem) throw error;
        return refuse(problem);
      }
      return form.render(data, input);
    }),
  );
}
