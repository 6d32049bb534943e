// The language a page is drawn in, and what pages format with it: the layout's messages, numbers, money and dates.
// A request that names its language (`?lang=`) keeps it in every internal link and GET form of the page (links.ts);
// one that does not gets the Accept-Language negotiation on each page it opens.
import type { FastifyRequest } from 'fastify';
import type { Translate } from '../i18n/catalogue.ts';
import { formatDate, formatFixed, formatMoney, formatNumberIn, formatPercent, localeOf } from '../i18n/format.ts';
import { isLanguage, negotiateLanguage } from '../i18n/language.ts';
import type { Language } from '../i18n/language.ts';
import { layoutMessages } from '../i18n/messages/index.ts';
import type { LayoutKey } from '../i18n/messages/index.ts';
import { html } from './html.ts';
import type { SafeHtml } from './html.ts';

/**
 * ` lang="en"` on a page in another language: text a service has no translation of yet (it comes from outside its
 * catalogue) says so to screen readers and browsers; nothing on an English page.
 */
export function untranslated(locale: PageLocale): SafeHtml {
  return locale.language === 'en' ? html`` : html` lang="en"`;
}

export interface PageLocale {
  language: Language;
  /** The BCP 47 tag Intl formats with (en-CA, fr-CA). */
  locale: string;
  /** The request's `?lang=` named a language this service speaks. */
  explicit: boolean;
  /** The shared layout's messages. */
  layout: Translate<LayoutKey>;
  number(value: number, maxDecimals?: number): string;
  /** Exactly `digits` decimals (1.000, 1,000): figures whose precision is part of what they say. */
  fixed(value: number, digits: number): string;
  money(amount: number, cents?: boolean): string;
  percent(share: number, maxDecimals?: number): string;
  date(date: string, style?: 'long' | 'short'): string;
}

const locales = new Map<string, PageLocale>();

export function pageLocale(language: Language, explicit: boolean): PageLocale {
  const id = `${language}|${explicit}`;
  let locale = locales.get(id);
  if (locale === undefined) {
    locale = {
      language,
      locale: localeOf(language),
      explicit,
      layout: layoutMessages.in(language),
      number: (value, maxDecimals) => formatNumberIn(language, value, maxDecimals),
      fixed: (value, digits) => formatFixed(language, value, digits),
      money: (amount, cents) => formatMoney(language, amount, cents),
      percent: (share, maxDecimals) => formatPercent(language, share, maxDecimals),
      date: (date, style) => formatDate(language, date, style),
    };
    locales.set(id, locale);
  }
  return locale;
}

/** The first `lang` of the query, when it is a string. */
function queryLanguage(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.lang;
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' ? first : undefined;
}

/** The language of a request's page: `?lang=`, then Accept-Language, then the service's first language. */
export function requestLocale(request: FastifyRequest, languages: readonly Language[]): PageLocale {
  const asked = queryLanguage(request);
  const header = request.headers['accept-language'];
  const language = negotiateLanguage(asked, typeof header === 'string' ? header : undefined, languages);
  const explicit =
    asked !== undefined && isLanguage(asked.trim().toLowerCase()) && languages.includes(asked.trim().toLowerCase() as Language);
  return pageLocale(language, explicit);
}
