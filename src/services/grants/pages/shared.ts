// What Service C's pages share: the page's language and messages, its words for the paging parameters, money in words, pagers, and bar
// charts whose long category names are cut before the chart cuts them (its server-side text metrics are
// narrower than a browser's font, so its own cut overflowed the left edge).
import { minusSignIn } from '../../../core/i18n/format.ts';
import { MAX_PAGE } from '../../../core/http/params.ts';
import type { Translate } from '../../../core/i18n/catalogue.ts';
import type { Language } from '../../../core/i18n/language.ts';
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { ChartSpec, HtmlValue, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import type { ParameterRefusal } from '../../../core/pages/page.ts';
import { grantsMessages } from '../messages/index.ts';
import type { GrantsKey } from '../messages/index.ts';
import { PROVINCE_NAMES_EN, fiscalYearInFull, fiscalYearLabel, parseFiscalYearLabel } from '../source/index.ts';
import { BILINGUAL_FIELDS, notableInLanguage } from '../language.ts';
import type { EnglishField } from '../language.ts';
import type { Grant } from '../schemas/grant.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote } from '../../../core/pages/replies.ts';
export { errorNote };

/**
 * What a page writes with: its language's formatters (`loc`) and C's messages (`t`). Agreements are read with both
 * languages' texts (`both`) and shown with `textOf`, so links keep the English names the look-ups are keyed on.
 */
export interface Words {
  loc: PageLocale;
  t: Translate<GrantsKey>;
}

/** A text of an agreement read with `both`, in the page's language: French where the source gives it, else English. */
export function textOf(g: Grant, field: EnglishField, w: Words): string {
  const french = g[BILINGUAL_FIELDS[field]];
  return w.loc.language === 'fr' && french ? french : g[field];
}

/**
 * A text in words (a title, a program's purpose, a description, expected results) as `textOf` gives it, marked
 * `lang="en"` where a French page shows the English one because the source gives none in French, so that a screen
 * reader reads it in English. Names (of recipients, cities, departments, programs) are not marked.
 */
export function proseOf(g: Grant, field: EnglishField, w: Words): SafeHtml {
  const text = textOf(g, field, w);
  return w.loc.language !== 'en' && text !== '' && !g[BILINGUAL_FIELDS[field]] ? html`<span lang="en">${text}</span>` : html`${text}`;
}

/** Why an agreement is notable, in the page's language: as the API's lang= says it (notableInLanguage). */
export function notableReasonOf(g: Grant, w: Words): string {
  return notableInLanguage(g, w.loc.language).notable_reason;
}

export function wordsOf(loc: PageLocale): Words {
  return { loc, t: grantsMessages.in(loc.language) };
}

/** The header (title and sections) in a language. */
export function grantsHeader(language: Language): { serviceTitle: string; sections: Array<{ label: string; href: string }> } {
  const t = grantsMessages.in(language);
  return {
    serviceTitle: t('service.title'),
    sections: [
      { label: t('nav.search'), href: '/' },
      { label: t('nav.statistics'), href: '/statistics' },
      { label: t('nav.recipients'), href: '/recipients' },
      { label: t('nav.calculator'), href: '/calculator' },
      { label: t('nav.international'), href: '/international' },
    ],
  };
}

/**
 * C's words, in the page's language, for a `page` out of its range (pageParam: a whole number from 1 to `max`);
 * undefined for another refusal (one that is not a whole number at all is the kernel's: core/pages/refusals.ts).
 */
export function pageRefusal(refusal: ParameterRefusal, w: Words, max = MAX_PAGE): string | undefined {
  if (refusal.name !== 'page' || (refusal.keyword !== 'minimum' && refusal.keyword !== 'maximum')) return undefined;
  return w.t('error.pageRange', { max, page: Number(refusal.value) });
}

/** A province or territory by its code, in the page's language ('' is not given or outside Canada). */
export function provinceName(code: string, w: Words): string {
  if (code === '') return w.t('common.outsideCanada');
  return code in PROVINCE_NAMES_EN ? w.t(`province.${code as keyof typeof PROVINCE_NAMES_EN}`) : code;
}

/** A coded value (recipient or agreement type) in the page's language, or the code when the catalogue lacks it. */
export function codeLabel(kind: 'recipientType' | 'agreementType', code: string, w: Words): string | null {
  const key = `${kind}.${code}`;
  return key in grantsMessages.tables.en ? w.t(key as GrantsKey) : null;
}

export const count = (n: number, w: Words): string => w.loc.number(n);

/**
 * A fiscal year, by its start year or its label as stored ("2018-19"), as the page's language writes it: "2018-19" in
 * English, "2018-2019" in French (the Government of Canada's French usage). A label that is not a fiscal year is kept.
 */
export function fiscalYearIn(year: number | string, w: Words): string {
  const start = typeof year === 'number' ? year : parseFiscalYearLabel(year);
  if (start === null) return String(year);
  return w.loc.language === 'fr' ? fiscalYearInFull(start) : fiscalYearLabel(start);
}

/** Dollars to the cent ($1,234.56 / 1 234,56 $). */
export const dollars = (amount: number, w: Words): string => w.loc.money(amount, true);

/** Large amounts in words: $23.7 billion, $512.3 million, $84,120 (23,7 milliards de dollars…). */
export function bigDollars(amount: number, w: Words): string {
  const abs = Math.abs(amount);
  const sign = amount < 0 ? minusSignIn(w.loc.language) : '';
  // n, the amount as written (one decimal), chooses the word's number: « 1,8 milliard », « 2,3 milliards »
  const scaled = (unit: number) => ({ amount: w.loc.number(abs / unit, 1), n: Math.round((abs / unit) * 10) / 10 });
  if (abs >= 1e9) return `${sign}${w.t('money.billions', scaled(1e9))}`;
  if (abs >= 1e6) return `${sign}${w.t('money.millions', scaled(1e6))}`;
  // (a negative amount that rounds to no dollar is written 0: core/i18n/format.ts signs no zero)
  return w.loc.money(Math.round(amount));
}

/** Dollars as millions with one decimal, for chart values ("$ millions" axes). */
export const millions = (amount: number): number => Math.round(amount / 1e5) / 10;

/** Previous / next links and "page x of y", keeping the other parameters. */
export function pager(
  path: string,
  params: Record<string, string | number | undefined>,
  page: number,
  totalPages: number,
  w: Words,
): HtmlValue {
  if (totalPages <= 1 && page <= 1) return '';
  const t = w.loc.layout;
  const link = (p: number) => `${path}${queryString({ ...params, page: p === 1 ? undefined : p })}`;
  return html`<nav class="pager" aria-label="${t('pager.label')}">
    ${page > 1 ? html`<a rel="prev" href="${link(Math.min(page - 1, totalPages))}">${t('pager.previous')}</a>` : ''}
    <span>${t('pager.position', { page, pages: totalPages })}</span>
    ${page < totalPages ? html`<a rel="next" href="${link(page + 1)}">${t('pager.next')}</a>` : ''}
  </nav>`;
}

const LABEL_CHARACTERS = 24;

function shortLabel(text: string, max = LABEL_CHARACTERS): string {
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
  language: Language;
}): ChartSpec {
  const build = (categories: string[]) =>
    barChart({
      id: options.id,
      title: options.title,
      description: options.description,
      categories,
      series: [{ name: options.series, values: options.values }],
      horizontal: true,
      language: options.language,
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
