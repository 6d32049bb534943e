// `/`: the grant search with every filter and sort of GET /api/search/, paging, and the total. The form is read
// with the API's schema (its filters, with the page's paging in place of limit and offset) and answered by the
// function that answers the API (search/grants-search.ts, on the index of C's state): a parameter the API refuses
// gets the API's message, shown above the form with status 400 (a French page says it in French: C's words for the
// filters the request refuses, the kernel's for what the schema refuses).
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { Kysely } from 'kysely';
import { choiceParam, pageParam } from '../../../core/http/params.ts';
import { html, queryString } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ParameterRefusal } from '../../../core/pages/page.ts';
import { numericColumn, recordTable } from '../../../core/pages/table.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { readAggregate } from '../repository.ts';
import type { GrantRecord } from '../schemas/grant.ts';
import { SearchQuery } from '../schemas/search.ts';
import type { GrantsSearch, SearchAnswer } from '../search/grants-search.ts';
import { SORT_FIELDS } from '../search/query.ts';
import { PROVINCE_CODES, RECIPIENT_TYPES } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import { grantsMessages } from '../messages/index.ts';
import type { GrantsKey } from '../messages/index.ts';
import {
  codeLabel,
  dollars,
  errorNote,
  fiscalYearIn,
  notableReasonOf,
  option,
  pageRefusal,
  pager,
  provinceName,
  recipientHref,
  proseOf,
  textOf,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';

const PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;

/** The form's fields that go to the API unchanged. */
const PASSED = ['search', 'province', 'fiscal_year', 'recipient_type', 'min_value', 'max_value', 'is_major', 'is_notable', 'sort'] as const;
type Form = Record<(typeof PASSED)[number] | 'per_page', string>;

// The API's query without its aliases (`q`, `year`: the form writes `search` and `fiscal_year`), its language (the
// page's is negotiated) and its limit and offset, which the page writes as a page number and a page size.
const { search, province, fiscal_year, recipient_type, min_value, max_value, is_major, is_notable, sort } = SearchQuery.properties;

/** The query of the search page: the API's filters and order, then the page and its size. */
const SearchPageQuery = Type.Object({
  search,
  province,
  fiscal_year,
  recipient_type,
  min_value,
  max_value,
  is_major,
  is_notable,
  sort,
  page: pageParam(),
  per_page: Type.Optional(
    choiceParam(PAGE_SIZES.map(String), `Agreements per page (default ${DEFAULT_PAGE_SIZE}).`, {
      error: `must be one of ${PAGE_SIZES.join(', ')}`,
    }),
  ),
});

/** A sort field's label ('sort.<field>' in the catalogue), or the field itself. */
function sortLabel(field: string, w: Words): string {
  const key = `sort.${field}`;
  return key in grantsMessages.tables.en ? w.t(key as GrantsKey) : field;
}

type Grant = Static<typeof GrantRecord>;

/** The form as the client wrote it, to fill it again and to keep in the pager's links. */
function formOf(raw: Readonly<Record<string, string>>): Form {
  return Object.fromEntries([...PASSED, 'per_page'].map((name) => [name, raw[name] ?? ''])) as Form;
}

/** The fiscal years the form offers, newest first (none before an import). */
async function fiscalYears(db: Kysely<GrantsDatabase>): Promise<string[]> {
  const stats = await readAggregate(db, 'stats');
  return stats?.value.by_year.map((y) => y.fiscal_year).reverse() ?? [];
}

/** The page around its results, or around the message of a parameter that cannot be used. */
function frame(form: Form, years: string[], results: HtmlValue, w: Words) {
  const { t } = w;
  return {
    title: form.search ? t('search.titleWords', { words: form.search }) : t('search.title'),
    description: t('search.description'),
    section: '/',
    body: html`<h1>${t('search.heading')}</h1>
      <p class="lead">${t('search.lead')}</p>
      ${searchForm(form, years, w)} ${results}`,
  };
}

function resultsBody(answer: SearchAnswer, form: Form, page: number, perPage: number, w: Words): SafeHtml {
  const { t } = w;
  const totalPages = Math.max(1, Math.ceil(answer.count / perPage));
  return html`<h2 id="results">${t('search.results')}</h2>
    <p class="count" role="status">
      ${
        answer.count === 0
          ? t('search.none')
          : answer.results.length === 0
            ? t('search.pastEnd', { count: answer.count, page, pages: totalPages })
            : t('search.showing', { count: answer.count, from: answer.offset + 1, to: answer.offset + answer.results.length })
      }
    </p>
    ${answer.count === 0 && form.search.trim() !== '' && w.loc.language === 'en' ? frenchTextsNote(form, w) : ''}
    ${answer.results.length > 0 ? resultsTable(answer.results, w) : ''} ${pager('/', form, page, totalPages, w)}`;
}

/**
 * Where an English page's words match nothing: the English page searches the English texts only (a process serving
 * English never reads the French ones), so it says so and links the same search on the French page, which searches
 * both languages' texts.
 */
function frenchTextsNote(form: Form, w: Words): SafeHtml {
  return html`<p>${w.t('search.englishOnly')} <a href="/${queryString({ ...form, lang: 'fr' })}">${w.t('search.inFrench')}</a>.</p>`;
}

export function searchPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit, grants: GrantsSearch): void {
  definePage(app, kit, {
    url: '/',
    query: SearchPageQuery,
    async read({ query, locale }) {
      const { page, per_page: size, ...filters } = query;
      const perPage = size === undefined ? DEFAULT_PAGE_SIZE : Number(size.trim());
      const parameters = { ...filters, limit: perPage, offset: (page - 1) * perPage };
      // the page's language says which texts are searched; rows come in both (shown with textOf; links keep the English names)
      const [answer, years] = await Promise.all([grants.answer(parameters, locale.language === 'fr' ? 'both' : 'en'), fiscalYears(db)]);
      return { answer, years, page, perPage };
    },
    render({ answer, years, page, perPage }, { form, locale }) {
      const w = wordsOf(locale);
      return frame(formOf(form), years, resultsBody(answer, formOf(form), page, perPage, w), w);
    },
    explain(refusal, locale) {
      const w = wordsOf(locale);
      if (refusal.name === 'per_page') return w.t('error.perPage', { sizes: PAGE_SIZES.join(', '), value: refusal.value ?? '' });
      return pageRefusal(refusal, w) ?? searchRefusal(refusal, w);
    },
    refused: async (problem, { form, locale }) =>
      frame(formOf(form), await fiscalYears(db), errorNote(problem.message, locale), wordsOf(locale)),
  });
}

/**
 * A filter the search request refused (search/request.ts: what the schema cannot judge), in the words of a French page;
 * an English page keeps the API's message, the same its JSON error carries.
 */
function searchRefusal(refusal: ParameterRefusal, w: Words): string | undefined {
  if (w.loc.language === 'en') return undefined;
  const value = String(refusal.params.value ?? '');
  switch (refusal.keyword) {
    case 'province':
      return w.t('error.province', { codes: PROVINCE_CODES.join(', '), value });
    case 'fiscalYear':
      return w.t('error.fiscalYear', { name: refusal.name, value });
    case 'recipientType':
      return w.t('error.recipientType', { codes: Object.keys(RECIPIENT_TYPES).join(', '), value });
    case 'dollars':
      return w.t('error.dollars', { name: refusal.name });
    case 'sort':
      return w.t('error.sort', { fields: SORT_FIELDS.join(', '), value });
    case 'minAboveMax':
      return w.t('error.minAboveMax');
  }
  return undefined;
}

function searchForm(form: Form, years: string[], w: Words): SafeHtml {
  const { t } = w;
  return html`<form class="filters" method="get" action="/" role="search" aria-label="${t('search.formLabel')}">
    <label
      >${t('search.words')}
      <input type="search" name="search" value="${form.search}" maxlength="200" placeholder="${t('search.wordsPlaceholder')}" />
    </label>
    <label
      >${t('search.provinceField')}
      <select name="province">
        ${option('', t('common.any'), form.province)}
        ${PROVINCE_CODES.map((p) => option(p, provinceName(p, w), form.province.toUpperCase()))}
      </select>
    </label>
    <label
      >${t('common.fiscalYear')}
      <select name="fiscal_year">
        ${option('', t('common.any'), form.fiscal_year)} ${years.map((y) => option(y, fiscalYearIn(y, w), form.fiscal_year))}
      </select>
    </label>
    <label
      >${t('search.recipientType')}
      <select name="recipient_type">
        ${option('', t('common.any'), form.recipient_type)}
        ${Object.entries(RECIPIENT_TYPES).map(([code, label]) =>
          option(code, codeLabel('recipientType', code, w) ?? label, form.recipient_type.toUpperCase()),
        )}
      </select>
    </label>
    <label
      >${t('search.minValue')} <input type="number" name="min_value" value="${form.min_value}" min="0" step="any" inputmode="decimal"
    /></label>
    <label
      >${t('search.maxValue')} <input type="number" name="max_value" value="${form.max_value}" min="0" step="any" inputmode="decimal"
    /></label>
    <label
      >${t('search.major')}
      <select name="is_major">
        ${option('', t('common.either'), form.is_major)} ${option('true', t('common.yes'), form.is_major.toLowerCase())}
        ${option('false', t('common.no'), form.is_major.toLowerCase())}
      </select>
    </label>
    <label
      >${t('search.notable')}
      <select name="is_notable">
        ${option('', t('common.either'), form.is_notable)} ${option('true', t('common.yes'), form.is_notable.toLowerCase())}
        ${option('false', t('common.no'), form.is_notable.toLowerCase())}
      </select>
    </label>
    <label
      >${t('search.sortBy')}
      <select name="sort">
        ${option('', t('search.sortDefault'), form.sort)}
        ${SORT_FIELDS.flatMap((f) => [
          option(f, t('search.ascending', { field: sortLabel(f, w) }), form.sort),
          f === 'agreement_value' ? '' : option(`-${f}`, t('search.descending', { field: sortLabel(f, w) }), form.sort),
        ])}
      </select>
    </label>
    <label
      >${t('search.perPage')}
      <select name="per_page">
        ${PAGE_SIZES.map((n) => option(n === DEFAULT_PAGE_SIZE ? '' : String(n), String(n), form.per_page))}
      </select>
    </label>
    <button type="submit">${t('search.submit')}</button>
  </form>`;
}

function resultsTable(rows: Grant[], w: Words): SafeHtml {
  const { t } = w;
  return recordTable({
    caption: t('search.tableCaption'),
    hiddenCaption: true,
    class: 'results-table',
    columns: [
      t('common.agreement'),
      t('common.recipient'),
      t('common.province'),
      t('common.fiscalYear'),
      { label: t('common.period'), class: 'nowrap' },
      numericColumn(t('common.value')),
    ],
    rows,
    cells: (g) => [
      html`<a href="/grants/${g.id}">${textOf(g, 'agreement_title_en', w) ? proseOf(g, 'agreement_title_en', w) : g.reference_number}</a>
        <span class="muted small">${textOf(g, 'owner_org_title', w)}</span>
        ${g.is_major_funding ? html`<span class="badge neutral">${t('badge.overMillion')}</span>` : ''}
        ${g.is_notable ? html`<span class="badge warn" title="${notableReasonOf(g, w)}">${t('badge.notable')}</span>` : ''}`,
      g.recipient_legal_name ? html`<a href="${recipientHref(g.recipient_legal_name)}">${textOf(g, 'recipient_legal_name', w)}</a>` : '—',
      g.recipient_province || '—',
      fiscalYearIn(g.fiscal_year, w),
      // (an agreement without an end date is said in words of its own: « du … au aucune date de fin » is no French)
      g.agreement_end_date
        ? t('common.range', { start: w.loc.date(g.agreement_start_date, 'short'), end: w.loc.date(g.agreement_end_date, 'short') })
        : t('common.rangeOpen', { start: w.loc.date(g.agreement_start_date, 'short') }),
      dollars(g.agreement_value, w),
    ],
  });
}
