// What Service D's pages share: reading a page's query, sending a page (a client error becomes a page of its
// status with the message, never JSON or a 500), number formats, and the words of a category's forecast status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { parseDate } from '../../../core/http/params.ts';
import { formatNumber, html } from '../../../core/pages/index.ts';
import type { PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import type { StoredCategoryForecast } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { findCategory } from '../repository.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote } from '../../../core/pages/replies.ts';
export { errorNote };

/** A page's query as Fastify parses it without a schema (a repeated name gives a list). */
export type PageQuery = Record<string, string | string[] | undefined>;

/** The first value of a query parameter; an empty value counts as absent. */
export function param(query: unknown, name: string): string | undefined {
  const raw = (query as PageQuery | undefined)?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A YYYY-MM-DD date of a form (400 otherwise). */
export function dateParam(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw badRequest(`${name} must be a date in the form YYYY-MM-DD, got "${value}"`);
  return parseDate(value, name);
}

/** A category chosen in a form: 400 for a value that is not a whole number or names no category. */
export async function categoryParam(
  routes: DrawsRouteContext,
  value: string | undefined,
  name = 'category',
): Promise<CategoryRecord | undefined> {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw badRequest(`${name} must be a category id (a whole number), got "${value}"`);
  const category = await findCategory(routes.db, Number(value));
  if (!category) throw badRequest(`no category has id ${Number(value)}; choose one from the list`);
  return category;
}

/**
 * Sends a page; an HttpError of status 4xx thrown while building it becomes a page of that status with the
 * message (never cached). `fallback` draws the page around the message (e.g. the form, to correct the input).
 */
export async function sendPage(
  kit: PageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<PageRequest>,
  fallback?: (message: string) => Promise<PageRequest>,
): Promise<string> {
  try {
    return await kit.send(request, reply, await build());
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    reply.code(error.statusCode).header('cache-control', 'no-store');
    if (fallback && error.statusCode === 400) return kit.send(request, reply, await fallback(error.message));
    const title = error.statusCode === 404 ? 'Not found' : 'Cannot show this page';
    return kit.send(request, reply, {
      title,
      body: html`<h1>${title}</h1>
        ${errorNote(error.message)}
        <p><a href="/">The next draws</a> · <a href="/draws">Every draw</a> · <a href="/my-score">My score</a></p>`,
    });
  }
}

export function count(n: number): string {
  return n.toLocaleString('en-CA');
}

/** A CRS score as served (one decimal where it has one). */
export function score(x: number): string {
  return formatNumber(x, 1);
}

/** "484.1 – 569" */
export function range(lower: number, upper: number, format: (x: number) => string = score): string {
  return `${format(lower)} – ${format(upper)}`;
}

export function dateRange(earliest: string, latest: string): string {
  return earliest === latest ? earliest : `${earliest} – ${latest}`;
}

/** A probability in words people read: whole percent, "under 1%" and "over 99%" at the ends. */
export function percent(p: number): string {
  if (p < 0.005) return 'under 1%';
  if (p > 0.995) return 'over 99%';
  return `${Math.round(p * 100)}%`;
}

export type ForecastStatus = StoredCategoryForecast['status'];

/** A badge that says in words what its colour says. */
export function statusBadge(status: ForecastStatus | 'inactive', dormantSince: string | null = null): SafeHtml {
  switch (status) {
    case 'predicted':
      return html`<span class="badge good">Forecast</span>`;
    case 'young':
      return html`<span class="badge warn">Young: pooled forecast, wider interval</span>`;
    case 'dormant':
      return html`<span class="badge neutral">Dormant${dormantSince ? html` since ${dormantSince}` : ''}</span>`;
    case 'inactive':
      return html`<span class="badge neutral">Not in the current feed</span>`;
    default:
      return html`<span class="badge neutral">No draws yet</span>`;
  }
}

/** What a category's status means for its forecast, in a sentence or two (`asOf`: the date the forecasts were made for). */
export function statusNote(forecast: StoredCategoryForecast | undefined, category: CategoryRecord, asOf: string): SafeHtml {
  if (!category.is_active) {
    return html`<p class="note">This category has no draws in the current feed, so it is not forecast.</p>`;
  }
  if (!forecast) return html`<p class="note">No forecast is stored for this category.</p>`;
  switch (forecast.status) {
    case 'young':
      return html`<p class="note warn">
        <strong>Young category.</strong> With ${forecast.draws} draw${forecast.draws === 1 ? '' : 's'} in its current run, its forecast is
        pooled: the pooled reversion model on its own draws with the coefficient shared by every category, and intervals sized from the
        errors of every young category's past forecasts, so they are wider. (${forecast.status_reason}.)
      </p>`;
    case 'dormant':
      return html`<p class="note warn">
        <strong>Dormant since ${forecast.dormant_since}.</strong> Its last draw was on
        ${forecast.last_draw_date}${
          forecast.days_since_last_draw !== null ? html`, ${forecast.days_since_last_draw} days before ${asOf}` : ''
        };
        a category counts as dormant after
        ${forecast.dormant_after_days !== null ? html`${Math.round(forecast.dormant_after_days)} days` : 'a long time'} without a draw, so
        it is not forecast until it draws again.
      </p>`;
    case 'insufficient_history':
      return html`<p class="note">No draws on or before ${asOf}: nothing to forecast from.</p>`;
    default:
      return html`<p class="note">${forecast.status_reason}.</p>`;
  }
}

/** The next draw of a category (rank 1), or undefined without a forecast. */
export function nextDraw(predictions: readonly Prediction[] | undefined): Prediction | undefined {
  return predictions?.find((p) => p.rank === 1) ?? predictions?.[0];
}

/** The "my score" form: a CRS score and a category (GET, so a result has an address). */
export function scoreForm(
  categories: readonly { id: number; name: string; predicted: boolean }[],
  values: { crs?: string; category?: number },
  headingId?: string,
): SafeHtml {
  return html`<form class="filters" method="get" action="/my-score" ${headingId ? html`aria-labelledby="${headingId}"` : ''}>
    <label
      >Your CRS score
      <input type="number" name="crs" min="0" max="1200" step="1" inputmode="numeric" required value="${values.crs ?? ''}" />
    </label>
    <label
      >Category
      <select name="category" required>
        ${categories.map(
          (c) =>
            html`<option value="${c.id}" ${c.id === values.category ? html`selected` : ''}>
              ${c.name}${c.predicted ? '' : ' (not forecast)'}
            </option>`,
        )}
      </select>
    </label>
    <button type="submit">Show my chance</button>
  </form>`;
}
