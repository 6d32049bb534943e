// What every service's pages say when a request cannot be used, and how a page with its own status is sent.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import { html } from './html.ts';
import type { SafeHtml } from './html.ts';
import type { PageKit, PageRequest } from './index.ts';
import type { PageLocale } from './locale.ts';
import { pageLocale } from './locale.ts';

/** A message about the request, announced to screen readers. */
export function errorNote(message: string, locale: PageLocale = pageLocale('en', false)): SafeHtml {
  return html`<p class="note error" role="alert"><strong>${locale.layout('error.cannotUse')}</strong> ${message}</p>`;
}

/** The 4xx of a query that cannot be used, as a status and message, so the page can draw its form beside it. */
export function clientError(error: unknown): { status: number; message: string } {
  if (error instanceof HttpError && error.statusCode < 500) return { status: error.statusCode, message: error.message };
  throw error;
}

/** Sends a page built by `build`, which may set a status (e.g. 400 with its form redrawn, 404); such pages are not cached. */
export async function sendPageWithStatus(
  kit: PageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<PageRequest & { status?: number }>,
): Promise<string> {
  const page = await build();
  if (page.status) reply.code(page.status).header('cache-control', 'no-store');
  return kit.send(request, reply, page);
}
