// How every service's pages answer: one sendPage (a page with its own status is never cached), and one error page
// for a request that cannot be used (4xx), a missing import (503) or a page that is not there (404), in the page
// layout with the message the API gives for the same mistake, never JSON and never a 500.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, validationMessage } from '../http/errors.ts';
import type { AjvError } from '../http/errors.ts';
import type { ServiceApp } from '../service.ts';
import { html, joinHtml } from './html.ts';
import type { SafeHtml } from './html.ts';
import type { PageKit, PageRequest } from './index.ts';
import type { PageLocale } from './locale.ts';
import { pageLocale } from './locale.ts';
import { kernelWords, refusalOf } from './refusals.ts';
import type { ParameterRefusal } from './refusals.ts';

/**
 * A page and, when the request was bad, its status (the page then is not cached); `headers` for what the page
 * carries besides (a cookie it sets or clears, `cache-control: no-store` for a page that is one visitor's).
 */
export type PageResult = PageRequest & { status?: number; headers?: Record<string, string> };

/** A 303 See Other to `redirect` (never cached), instead of a page: a form's result, a look-up that found its page. */
interface PageRedirect {
  redirect: string;
  headers?: Record<string, string>;
}

/** What a page handler answers: a page, or a redirect. */
export type PageReply = PageResult | PageRedirect;

/** Why a request cannot be answered with the page it asked for: a status and the message the client reads. */
export interface PageProblem {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** The error's code (an HttpError's or Fastify's), for a page that words a kernel's refusal in its own terms. */
  code?: string;
}

/** A message about the request, announced to screen readers. */
export function errorNote(message: string, locale: PageLocale = pageLocale('en', false)): SafeHtml {
  return html`<p class="note error" role="alert"><strong>${locale.layout('error.cannotUse')}</strong> ${message}</p>`;
}

/**
 * The problem an error stands for when a page should say it: a client error (an HttpError 4xx, a failed validation
 * with the API's message) or the 503 of missing data; null for anything else (a fault: the kernel's 500, logged).
 */
export function pageProblem(error: unknown): PageProblem | null {
  if (error instanceof HttpError) {
    return error.statusCode < 500 || error.statusCode === 503
      ? { status: error.statusCode, message: error.message, headers: error.headers, code: error.code }
      : null;
  }
  const fe = error as (FastifyError & { validation?: AjvError[]; validationContext?: string }) | null;
  if (fe?.validation) return { status: 400, message: validationMessage(fe.validation, fe.validationContext).message, headers: {} };
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return { status: fe.statusCode, message: fe.message, headers: {}, code: fe.code };
  return null;
}

/**
 * pageProblem, with a refused parameter said in the page's language: by `explain` (a page's own words) when it says
 * it, else by the kernel (core/pages/refusals.ts; none on an English page, which keeps the API's message).
 */
export function wordedProblem(
  error: unknown,
  request: FastifyRequest,
  locale: PageLocale,
  explain: (refusal: ParameterRefusal) => string | undefined = () => undefined,
): PageProblem | null {
  const problem = pageProblem(error);
  if (!problem || problem.status !== 400) return problem;
  const refusal = refusalOf(request, error);
  const own = refusal ? (explain(refusal) ?? kernelWords(refusal, locale)) : undefined;
  return own === undefined ? problem : { ...problem, message: own };
}

/** The shared error page: the problem in the layout, with the service's sections to go on from. */
export function errorPage(kit: PageKit, locale: PageLocale, problem: PageProblem): PageResult {
  const key =
    problem.status === 404
      ? 'error.notFound'
      : problem.status === 429
        ? 'error.tooMany'
        : problem.status === 503
          ? 'error.noData'
          : 'error.cannotShow';
  const title = locale.layout(key);
  const sections = kit.sections(locale.language);
  return {
    title,
    status: problem.status,
    body: html`<h1>${title}</h1>
      ${errorNote(problem.message, locale)}
      <p>
        ${joinHtml(
          sections.map((s) => html`<a href="${s.href}">${s.label}</a>`),
          ' · ',
        )}
      </p>`,
  };
}

/**
 * Sends a page; one with a status of its own (a 400 with its form redrawn, a 404) is not cached. A redirect is a
 * 303 that no cache keeps.
 */
export function sendResult(kit: PageKit, request: FastifyRequest, reply: FastifyReply, page: PageReply): Promise<string> | FastifyReply {
  for (const [name, value] of Object.entries(page.headers ?? {})) reply.header(name, value);
  if ('redirect' in page) return reply.header('cache-control', 'no-store').redirect(page.redirect, 303);
  if (page.status) reply.code(page.status).header('cache-control', 'no-store');
  return kit.send(request, reply, page);
}

/** Sends a page built by `build`; a problem it throws (see pageProblem) is answered with the shared error page. */
export async function sendPage(
  kit: PageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<PageReply>,
): Promise<string | FastifyReply> {
  let page: PageReply;
  try {
    page = await build();
  } catch (error) {
    const locale = kit.locale(request);
    const problem = wordedProblem(error, request, locale);
    if (!problem) throw error;
    for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
    page = errorPage(kit, locale, problem);
  }
  return sendResult(kit, request, reply, page);
}

/** How a scope draws what it refuses, when not with the shared error page (a form redrawn beside the message). */
export type DrawProblem = (problem: PageProblem, request: FastifyRequest) => PageResult | Promise<PageResult>;

/**
 * The error handler of a service's page routes: what is refused before a handler runs (a failed validation, a rate
 * limit's 429, a text the kernel refuses) is answered with the shared error page too, or drawn by `draw` (a scope
 * whose every refusal belongs beside its form); faults go on to the kernel.
 */
export function pageErrors(app: ServiceApp, kit: PageKit, draw?: DrawProblem): void {
  app.setErrorHandler(async (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    const problem = wordedProblem(error, request, kit.locale(request));
    if (!problem) throw error;
    for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
    const drawn = draw ? await draw(problem, request) : errorPage(kit, kit.locale(request), problem);
    return sendResult(kit, request, reply, { ...drawn, status: drawn.status ?? problem.status });
  });
}
