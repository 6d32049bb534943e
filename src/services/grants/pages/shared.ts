// What Service C's pages share: reading a page's query, the error page, money in words, pagers, and bar
// charts whose long category names are cut before the chart cuts them (its server-side text metrics are
// narrower than a browser's font, so its own cut overflowed the left edge).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { barChart, formatNumber, html, queryString } from '../../../core/pages/index.ts';
import type { ChartSpec, HtmlValue, PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import { formatDollars } from '../source/index.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote } from '../../../core/pages/replies.ts';
export { errorNote };

/** The first value of a query (or form) parameter. */
export function param(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, string | string[] | undefined> | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `page`: a whole number from 1 (absent: 1), at most `max`. */
export function parsePageNumber(value: string | undefined, max = 1_000_000): number {
  if (value === undefined || value.trim() === '') return 1;
  if (!/^\s*\d{1,7}\s*$/.test(value)) throw badRequest(`page must be a whole number from 1, got "${value}"`);
  const page = Number(value);
  if (page < 1 || page > max) throw badRequest(`page must be between 1 and ${max.toLocaleString('en-CA')}, got ${page}`);
  return page;
}

/** A page's outcome: a page (with a status other than 200 when the request was bad), or its error. */
export type BuiltPage = PageRequest & { status?: number };

/** Sends a page; a client error (HttpError 4xx) or a missing import (503) becomes a page with that status. */
export async function sendPage(
  kit: PageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<BuiltPage>,
): Promise<string> {
  try {
    const page = await build();
    if (page.status) reply.code(page.status).header('cache-control', 'no-store');
    return await kit.send(request, reply, page);
  } catch (error) {
    if (!(error instanceof HttpError) || (error.statusCode >= 500 && error.statusCode !== 503)) throw error;
    reply.code(error.statusCode).header('cache-control', 'no-store');
    const title = error.statusCode === 404 ? 'Not found' : error.statusCode === 503 ? 'No data yet' : 'Cannot show this page';
    return kit.send(request, reply, {
      title,
      body: html`<h1>${title}</h1>
        ${errorNote(error.message)}
        <p><a href="/">Search grants</a> · <a href="/statistics">Statistics</a> · <a href="/recipients">Recipients</a></p>`,
    });
  }
}

export const count = (n: number): string => n.toLocaleString('en-CA');

/** Dollars to the cent ($1,234.56). */
export const dollars = (amount: number): string => formatDollars(amount);

/** Large amounts in words: $23.7 billion, $512.3 million, $84,120. */
export function bigDollars(amount: number): string {
  const abs = Math.abs(amount);
  const sign = amount < 0 ? '-' : '';
  if (abs >= 1e9) return `${sign}$${formatNumber(abs / 1e9, 1)} billion`;
  if (abs >= 1e6) return `${sign}$${formatNumber(abs / 1e6, 1)} million`;
  return `${sign}$${Math.round(abs).toLocaleString('en-CA')}`;
}

/** Dollars as millions with one decimal, for chart values ("$ millions" axes). */
export const millions = (amount: number): number => Math.round(amount / 1e5) / 10;

/** Previous / next links and "page x of y", keeping the other parameters. */
export function pager(path: string, params: Record<string, string | number | undefined>, page: number, totalPages: number): HtmlValue {
  if (totalPages <= 1 && page <= 1) return '';
  const link = (p: number) => `${path}${queryString({ ...params, page: p === 1 ? undefined : p })}`;
  return html`<nav class="pager" aria-label="Pages of results">
    ${page > 1 ? html`<a rel="prev" href="${link(Math.min(page - 1, totalPages))}">← Previous</a>` : ''}
    <span>Page ${count(page)} of ${count(totalPages)}</span>
    ${page < totalPages ? html`<a rel="next" href="${link(page + 1)}">Next →</a>` : ''}
  </nav>`;
}

const LABEL_CHARACTERS = 24;

export function shortLabel(text: string, max = LABEL_CHARACTERS): string {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** Horizontal bars of one series: names cut on the axis, whole in the data table. */
export function horizontalBars(options: {
  id: string;
  title: string;
  description: string;
  categories: string[];
  series: string;
  values: number[];
}): ChartSpec {
  const build = (categories: string[]) =>
    barChart({
      id: options.id,
      title: options.title,
      description: options.description,
      categories,
      series: [{ name: options.series, values: options.values }],
      horizontal: true,
    });
  return { ...build(options.categories.map((c) => shortLabel(c))), table: build(options.categories).table };
}

/** An option of a select, selected when it is the current value. */
export function option(value: string, label: string, current: string | undefined): SafeHtml {
  return html`<option value="${value}" ${value === (current ?? '') ? html`selected` : ''}>${label}</option>`;
}

/** The link to a recipient's page. */
export function recipientHref(name: string): string {
  return `/recipient${queryString({ name })}`;
}
