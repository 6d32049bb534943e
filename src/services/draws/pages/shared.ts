// What Service D's pages share: the page's language and messages, the names of categories in it, the category a
// parameter names, D's words for a parameter the page's schema refuses, number formats, and the words of a category's
// forecast status.
import { badRequest, notFound } from '../../../core/http/errors.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { html, pageLocale } from '../../../core/pages/index.ts';
import type { PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import type { ParameterRefusal } from '../../../core/pages/page.ts';
import { drawsMessages } from '../messages/index.ts';
import type { Words } from '../messages/index.ts';
import type { StoredCategoryForecast } from '../aggregates.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import { findCategory, frenchCategoryNames } from '../repository.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsState } from '../state.ts';
import { statusReasonIn, statusReasonText } from './status-reason.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote } from '../../../core/pages/replies.ts';
export { errorNote };

/**
 * What a page writes with: its language's formatters (`loc`) and D's messages (`t`). Category names are the stored
 * English ones; `categoryIn` gives them their French names on a French page.
 */
export type { Words };

export function wordsOf(loc: PageLocale): Words {
  return { loc, t: drawsMessages.in(loc.language) };
}

/** Words of a language outside a request (tests). */
export function wordsIn(language: Language): Words {
  return wordsOf(pageLocale(language, false));
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

/** The names categories go by on a page in `language` (by id): the French ones on a French page; none in English. */
export async function categoryNames(state: DrawsState, language: Language): Promise<ReadonlyMap<number, string>> {
  return language === 'fr' ? frenchCategoryNames(state.db) : new Map();
}

/** A category under its name in the page's language (`names`: categoryNames), the stored name where it has none. */
export function categoryIn<C extends { id: number; name: string }>(category: C, names: ReadonlyMap<number, string>): C {
  const name = names.get(category.id);
  return name === undefined ? category : { ...category, name };
}

/** The category a page's `category` parameter names (checked by the schema as a whole number): 400 for no category. */
export async function chosenCategory(
  state: DrawsState,
  id: string | undefined,
  names: ReadonlyMap<number, string>,
  w: Words,
): Promise<CategoryRecord | undefined> {
  if (id === undefined) return undefined;
  const category = await findCategory(state.db, Number(id));
  if (!category) throw badRequest(w.t('error.noCategory', { id: Number(id) }));
  return categoryIn(category, names);
}

/** The category a page's path names: 404 for no category. */
export async function pathCategory(state: DrawsState, id: string, w: Words): Promise<CategoryRecord> {
  const category = await findCategory(state.db, Number(id));
  if (!category) throw notFound(w.t('error.categoryNotFound', { id: Number(id) }));
  return category;
}

/** How a page words a parameter its schema refused, in its language: by the parameter's name, from its value as written. */
export type ParameterWords = Readonly<Record<string, (value: string, w: Words, keyword: string) => string>>;

/** The dates of GET /api/draws/ as D's pages word them. */
export const DATE_WORDS: ParameterWords = {
  start_date: (value, w) => w.t('error.date', { name: 'start_date', value }),
  end_date: (value, w) => w.t('error.date', { name: 'end_date', value }),
};

/** The `category` query parameter as D's pages word it. */
export const CATEGORY_WORDS: ParameterWords = {
  category: (value, w) => w.t('error.categoryId', { name: 'category', value }),
};

/**
 * A page's `explain` (core/pages/page.ts): the refused parameter said by D's catalogue in the page's language, with
 * the value the client wrote; the API's message for what `words` does not name (read's own errors are worded already).
 */
export function parameterMessage(words: ParameterWords) {
  return (refusal: ParameterRefusal, locale: PageLocale): string | undefined => {
    const say = Object.hasOwn(words, refusal.name) ? words[refusal.name] : undefined;
    if (!say) return undefined;
    const w = wordsOf(locale);
    if (refusal.repeated) return w.t('error.repeated', { name: refusal.name });
    return say((refusal.value ?? '').trim(), w, refusal.keyword);
  };
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

/** A likely window and its probability, as a table cell says it ("29 Dec – 18 Jan (56%)"); a dash without one. */
export function likelyWindowText(window: Prediction['likely_window'], w: Words): string {
  return window === null
    ? '—'
    : w.t('common.likelyWindowValue', { range: dateRange(window.earliest, window.latest, w), probability: percent(window.probability, w) });
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
          forecast.silence_days === null || forecast.silence_counted_to === null
            ? ''
            : forecast.silence_counted_to === asOf
              ? t('status.dormantDays', { days: forecast.silence_days, asOf: loc.date(asOf) })
              : t('status.dormantDaysStale', { days: forecast.silence_days, newest: loc.date(forecast.silence_counted_to) })
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
