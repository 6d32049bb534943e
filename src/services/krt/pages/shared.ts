// What Service B's pages share: reading a query or a form, the error page (a client error drawn as a page of its
// status, never JSON and never a 500), and small formatting helpers.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import { krtText } from '../messages/index.ts';
import type { KrtKey } from '../messages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote, clientError, sendPageWithStatus } from '../../../core/pages/replies.ts';
export { errorNote, clientError, sendPageWithStatus as sendPage };

/** A query or form as Fastify hands it over without a schema (a repeated name gives a list). */
export type FormFields = Record<string, string | string[] | undefined>;

/** The first value of a query or form field, untrimmed; undefined when absent. */
export function field(fields: unknown, name: string): string | undefined {
  const value = (fields as FormFields | undefined | null)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Text a page accepts: at most `max` characters (the API's limits), else 400 naming the field. */
export function limitedText(name: string, value: string | undefined, max: number, t: Translate<KrtKey>): string | undefined {
  if (value !== undefined && value.length > max) throw badRequest(t('error.tooLong', { name, max: String(max) }));
  return value;
}

/** A chat or extraction session id as the API accepts one (letters, digits and . _ : -, at most 100). */
export function parseSessionId(name: string, value: string | undefined, t: Translate<KrtKey>): string | undefined {
  const id = value?.trim();
  if (!id) return undefined;
  if (!/^[A-Za-z0-9._:-]{1,100}$/.test(id)) throw badRequest(t('error.sessionId', { name }));
  return id;
}

/** What a page writes with: the service's messages and the formatters of the request's language. */
export interface Words {
  t: Translate<KrtKey>;
  loc: PageLocale;
}

export function wordsOf(kit: PageKit, request: FastifyRequest): Words {
  const loc = kit.locale(request);
  return { t: krtText(loc.language), loc };
}

function errorPage(title: string, message: string, t: Translate<KrtKey>): SafeHtml {
  return html`<h1>${title}</h1>
    ${errorNote(message)}
    <p><a href="/">${t('nav.lookup')}</a> · <a href="/chat">${t('error.chatLink')}</a></p>`;
}

/** Form bodies (application/x-www-form-urlencoded) for the page routes of this scope only; the API stays JSON-only. */
export function acceptForms(app: ServiceApp): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

/**
 * Client errors of the page routes (a bad parameter, an unknown paper, a rate limit, a body too large) become a page
 * of that status with the message; anything else goes on to the kernel's handler (a JSON 500 that logs the failure).
 */
export function pageErrors(app: ServiceApp, kit: PageKit): void {
  app.setErrorHandler(async (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500 || status < 400) throw error;
    if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    const { t } = wordsOf(kit, request);
    const message =
      error instanceof HttpError
        ? error.message
        : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? t('error.formTooLarge')
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? t('error.formMediaType')
            : error.message;
    const title = t(status === 404 ? 'error.notFound' : status === 429 ? 'error.tooMany' : 'error.cannotShow');
    reply.code(status).header('cache-control', 'no-store');
    return kit.send(request, reply, { title, body: errorPage(title, message, t) });
  });
}
