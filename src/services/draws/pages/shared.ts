// What Service D's pages share: the page's language and messages, reading a page's query, sending a page (a client error becomes a page of its
// status with the message, never JSON or a 500), number formats, and the words of a category's forecast status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { parseDate } from '../../../core/http/params.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { html, pageLocale } from '../../../core/pages/index.ts';
import type { PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import { drawsMessages } from '../messages/index.ts';
import type { Words } from '../messages/index.ts';
import type { StoredCategoryForecast } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { findCategory } from '../repository.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsState } from '../state.ts';
import { CATEGORY_NAMES_FR } from '../feed/categories.ts';
import { statusReasonIn, statusReasonText } from './status-reason.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote } from '../../../core/pages/replies.ts';
export { errorNote };

/**
 * What a page writes with: its language's formatters (`loc`) and D's messages (`t`). Category names are the stored
 * English ones; `categoryIn` gives a known family its French name on a French page.
 */
export type { Words };

export function wordsOf(kit: PageKit, request: FastifyRequest): Words {
  const loc = kit.locale(request);
  return { loc, t: drawsMessages.in(loc.language) };
}

/** A category named in `language`: a known family's French name in French, the stored name otherwise. */
export function categoryIn<C extends { slug: string; name: string }>(category: C, language: Language): C {
  const name = language === 'fr' ? CATEGORY_NAMES_FR[category.slug] : undefined;
  return name === undefined ? category : { ...category, name };
}

/** Words of a language outside a request (tests). */
export function wordsIn(language: Language): Words {
  return { loc: pageLocale(language, false), t: drawsMessages.in(language) };
}

/** The header (title and sections) in a language. */
export function drawsHeader(language: Language): { serviceTitle: string; sections: Array<{ label: string; href: string }> } {
  const t = drawsMessages.in(language);
  return {
    serviceTitle: t('service.title'),
    sections: [
      { label: t('nav.next'), href: '/' },
      { label: t('nav.draws'), href: '/draws' },
      { label: t('nav.models'), href: '/models' },
      { label: t('nav.myScore'), href: '/my-score' },
      { label: t('nav.trackRecord'), href: '/track-record' },
    ],
  };
}

/** A page's query as Fastify parses it without a schema (a repeated name gives a list). */
export type PageQuery = Record<string, string | string[] | undefined>;

/** The first value of a query parameter; an empty value counts as absent. */
export function param(query: unknown, name: string): string | undefined {
  const raw = (query as PageQuery | undefined)?.[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A YYYY-MM-DD date of a form (400 otherwise). */
export function dateParam(value: string | undefined, name: string, w: Words): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw badRequest(w.t('error.date', { name, value }));
  return parseDate(value, name);
}

/** A category chosen in a form: 400 for a value that is not a whole number or names no category. */
export async function categoryParam(
  routes: DrawsState,
  value: string | undefined,
  w: Words,
  name = 'category',
): Promise<CategoryRecord | undefined> {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw badRequest(w.t('error.categoryId', { name, value }));
  const category = await findCategory(routes.db, Number(value));
  if (!category) throw badRequest(w.t('error.noCategory', { id: Number(value) }));
  return categoryIn(category, w.loc.language);
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
    const { loc, t } = wordsOf(kit, request);
    const title = loc.layout(error.statusCode === 404 ? 'error.notFound' : 'error.cannotShow');
    return kit.send(request, reply, {
      title,
      body: html`<h1>${title}</h1>
        ${errorNote(error.message, loc)}
        <p>
          <a href="/">${t('error.links.next')}</a> · <a href="/draws">${t('nav.draws')}</a> ·
          <a href="/my-score">${t('nav.myScore')}</a>
        </p>`,
    });
  }
}

export function count(n: number, w: Words): string {
  return w.loc.number(n);
}

/** A CRS score as served (one decimal where it has one). */
export function score(x: number, w: Words): string {
  return w.loc.number(x, 1);
}

/** "484.1 – 569" */
export function range(lower: number, upper: number, w: Words, format: (x: number, w: Words) => string = score): string {
  return `${format(lower, w)} – ${format(upper, w)}`;
}

/** Two dates (YYYY-MM-DD), written short in the page's language. */
export function dateRange(earliest: string, latest: string, w: Words): string {
  return earliest === latest ? w.loc.date(earliest, 'short') : `${w.loc.date(earliest, 'short')} – ${w.loc.date(latest, 'short')}`;
}

const tieBreakFormats = new Map<Language, Intl.DateTimeFormat>();

/** A tie-break time (UTC, as IRCC states it) with its date, as the page's language writes them; other text as it is. */
export function tieBreakTime(iso: string, w: Words): string {
  const time = new Date(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(time.getTime())) return iso;
  let format = tieBreakFormats.get(w.loc.language);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(w.loc.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    tieBreakFormats.set(w.loc.language, format);
  }
  return format.format(time);
}

/** A probability in words people read: whole percent, "under 1%" and "over 99%" at the ends. */
export function percent(p: number, w: Words): string {
  if (p < 0.005) return w.t('common.under1');
  if (p > 0.995) return w.t('common.over99');
  return w.loc.percent(Math.round(p * 100) / 100, 0);
}

export type ForecastStatus = StoredCategoryForecast['status'];

/** A badge that says in words what its colour says. */
export function statusBadge(status: ForecastStatus | 'inactive', w: Words, dormantSince: string | null = null): SafeHtml {
  const { t } = w;
  switch (status) {
    case 'predicted':
      return html`<span class="badge good">${t('badge.predicted')}</span>`;
    case 'young':
      return html`<span class="badge warn">${t('badge.young')}</span>`;
    case 'dormant':
      return html`<span class="badge neutral"
        >${dormantSince ? t('badge.dormantSince', { date: w.loc.date(dormantSince) }) : t('badge.dormant')}</span
      >`;
    case 'inactive':
      return html`<span class="badge neutral">${t('badge.inactive')}</span>`;
    default:
      return html`<span class="badge neutral">${t('badge.none')}</span>`;
  }
}

/** What a category's status means for its forecast, in a sentence or two (`asOf`: the date the forecasts were made for). */
export function statusNote(forecast: StoredCategoryForecast | undefined, category: CategoryRecord, asOf: string, w: Words): SafeHtml {
  const { t, loc } = w;
  if (!category.is_active) {
    return html`<p class="note">${t('status.inactive')}</p>`;
  }
  if (!forecast) return html`<p class="note">${t('status.noForecast')}</p>`;
  switch (forecast.status) {
    case 'young':
      return html`<p class="note warn">
        <strong>${t('status.youngTitle')}</strong> ${t('status.young', {
          draws: forecast.draws,
          reason: statusReasonIn(forecast.status_reason, w) ?? forecast.status_reason,
        })}
      </p>`;
    case 'dormant':
      return html`<p class="note warn">
        <strong>${t('status.dormantTitle', { date: loc.date(forecast.dormant_since ?? '') })}</strong>
        ${t('status.dormantLast', { date: loc.date(forecast.last_draw_date ?? '') })}${
          forecast.days_since_last_draw !== null
            ? t('status.dormantDays', { days: forecast.days_since_last_draw, asOf: loc.date(asOf) })
            : ''
        }${t('status.dormantAfter', {
          after:
            forecast.dormant_after_days !== null
              ? t('status.dormantDaysCount', { days: Math.round(forecast.dormant_after_days) })
              : t('status.longTime'),
        })}
      </p>`;
    case 'insufficient_history':
      return html`<p class="note">${t('status.insufficient', { date: loc.date(asOf) })}</p>`;
    default:
      return html`<p class="note">${statusReasonText(forecast.status_reason, w)}.</p>`;
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
  w: Words,
  headingId?: string,
): SafeHtml {
  const { t } = w;
  return html`<form class="filters" method="get" action="/my-score" ${headingId ? html`aria-labelledby="${headingId}"` : ''}>
    <label
      >${t('form.crs')}
      <input type="number" name="crs" min="0" max="1200" step="1" inputmode="numeric" required value="${values.crs ?? ''}" />
    </label>
    <label
      >${t('common.category')}
      <select name="category" required>
        ${categories.map(
          (c) =>
            html`<option value="${c.id}" ${c.id === values.category ? html`selected` : ''}>
              ${c.name}${c.predicted ? '' : t('form.notForecast')}
            </option>`,
        )}
      </select>
    </label>
    <button type="submit">${t('form.submit')}</button>
  </form>`;
}
