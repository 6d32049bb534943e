// What Service E's pages share: reading a query, the error page (a client error drawn as a page of its status, never
// JSON and never a 500), the kind-of-notice words, and number formats.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { formatNumber as numberText, html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { NATURE_NAMES } from '../nature.ts';
import type { Nature } from '../nature.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote, clientError, sendPageWithStatus } from '../../../core/pages/replies.ts';
export { errorNote, clientError, sendPageWithStatus as sendPage };

/** The first value of a query parameter; undefined when absent. */
export function param(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, string | string[] | undefined> | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A value from a fixed list (absent or empty: the default), else 400 naming the allowed values as the API does. */
export function oneOfParam<const T extends readonly string[]>(
  name: string,
  value: string | undefined,
  allowed: T,
  fallback: T[number],
): T[number] {
  if (value === undefined || value === '') return fallback;
  const found = allowed.find((a) => a === value);
  if (!found) throw badRequest(`${name} must be one of: ${allowed.join(', ')}`);
  return found;
}

/** A page number from the query (absent or empty: 1), else 400. */
export function pageNumber(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1) throw badRequest('page must be a whole number from 1');
  return Number(value);
}

export const formatCount = (n: number) => n.toLocaleString('en-CA');
export const formatPercent = (p: number, digits = 1) => `${(p * 100).toFixed(digits)}%`;

export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return numberText(value, digits);
}

/** The kind of notice in words, as a badge: a retraction is a retraction; the other kinds say what they are. */
export function natureBadge(nature: Nature): SafeHtml {
  const tone = nature === 'retraction' ? 'bad' : nature === 'reinstatement' ? 'good' : 'warn';
  return html`<span class="badge ${tone}">${nature === 'other' ? 'Other notice' : NATURE_NAMES[nature]}</span>`;
}

/** What "after" means for a kind of notice. */
export function afterWords(nature: Nature): string {
  return nature === 'retraction' ? 'after the retraction' : 'after the notice';
}

/** Client errors of the page routes become a page of that status with the message; others go on to the kernel (JSON 500, logged). */
export function pageErrors(app: ServiceApp, kit: PageKit): void {
  app.setErrorHandler(async (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500 || status < 400) throw error;
    if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    const title = status === 404 ? 'Not found' : status === 429 ? 'Too many requests' : 'Cannot show this page';
    reply.code(status).header('cache-control', 'no-store');
    return kit.send(request, reply, {
      title,
      body: html`<h1>${title}</h1>
        ${errorNote(error.message)}
        <p><a href="/">Search retracted papers</a> · <a href="/analytics">Analytics</a> · <a href="/democracy">Democracy analysis</a></p>`,
    });
  });
}

/** A label for the data's origin, from the API's data_source description. */
export function sourceNote(source: { kind: string; description: string }): SafeHtml {
  if (source.kind === 'imported') return html``;
  return html`<p class="note"><strong>Data:</strong> ${source.description}.</p>`;
}
