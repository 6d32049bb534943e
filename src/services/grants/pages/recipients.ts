// `/recipients`: the largest recipients and the totals by recipient type and province (the aggregate of GET
// /api/recipients/), with a look-up by name. `/recipient?name=…`: one recipient (its legal name as published, in any
// case and with either apostrophe, ' or ’: memory-search.ts, recipient; named in French as GET /api/recipients/?lang=fr
// names it: repository.ts, recipientFrenchName): totals, value by fiscal year as a chart, and its agreements, largest
// first, read by id through the repository like the search's. A name no agreement gives its recipient is a 404 that
// suggests the recipients the search finds for it.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { cleanText, pageParam } from '../../../core/http/params.ts';
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { PageResult } from '../../../core/pages/replies.ts';
import { numericColumn, recordTable } from '../../../core/pages/table.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { recipientsIn } from '../aggregate-labels.ts';
import type { GrantsRecipients } from '../aggregates.ts';
import { grantsByIds, readAggregate, recipientFrenchName } from '../repository.ts';
import type { Grant } from '../schemas/grant.ts';
import type { GrantsDatabase } from '../tables.ts';
import type { GrantsSearch } from '../search/grants-search.ts';
import type { RecipientAgreements } from '../search/memory-search.ts';
import { sameRecipientName } from '../search/query.ts';
import {
  bigDollars,
  codeLabel,
  count,
  dollars,
  fiscalYearIn,
  millions,
  pageRefusal,
  pager,
  provinceName,
  recipientHref,
  proseOf,
  textOf,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';

/** The longest name the look-up takes (far above any published legal name). */
const NAME_MAX = 300;

/** The query of `/recipient`: the legal name as published, and the page of its agreements. */
const RecipientPageQuery = Type.Object({
  name: Type.String({ maxLength: NAME_MAX, description: 'The recipient’s legal name, as published.' }),
  page: pageParam(),
});

export const AGREEMENTS_PER_PAGE = 25;
function lookupForm(name: string, w: Words): SafeHtml {
  const { t } = w;
  return html`<form class="filters" method="get" action="/recipient" role="search" aria-label="${t('recipients.find')}">
    <label
      >${t('recipients.nameField')}
      <input
        type="search"
        name="name"
        value="${name}"
        required
        maxlength="300"
        size="40"
        list="recipient-suggestions"
        autocomplete="off"
        data-autocomplete="/api/api/search/?limit=10&amp;sort=recipient_legal_name&amp;search="
        data-autocomplete-items="results"
        data-autocomplete-label="recipient_legal_name"
      />
    </label>
    <datalist id="recipient-suggestions"></datalist>
    <button type="submit">${t('recipients.show')}</button>
  </form>`;
}

/**
 * The largest recipients, named in the page's language as GET /api/recipients/ names them (recipientsIn), each
 * linked to its page by its English legal name: the name its agreements are looked up by.
 */
function largestTable(r: GrantsRecipients, w: Words): SafeHtml {
  const { t } = w;
  const shown = recipientsIn(r, w.loc.language).top_recipients;
  return recordTable({
    caption: t('recipients.largestCaption'),
    hiddenCaption: true,
    columns: [
      numericColumn(t('recipients.rank')),
      t('recipients.legalName'),
      numericColumn(t('common.totalValue')),
      numericColumn(t('common.agreements')),
      numericColumn(t('common.average')),
    ],
    rows: r.top_recipients,
    rowHeader: 1,
    cells: (x, i) => [
      i + 1,
      html`<a href="${recipientHref(x.recipient_legal_name)}">${shown[i].recipient_legal_name}</a>`,
      dollars(x.total_value, w),
      count(x.grant_count, w),
      dollars(x.avg_value, w),
    ],
  });
}

/** The totals by recipient type (each linked to its search) and by province. */
function totalsTables(r: GrantsRecipients, w: Words): SafeHtml {
  const { t } = w;
  const byType = recordTable({
    caption: t('recipients.byTypeCaption'),
    hiddenCaption: true,
    noScroll: true,
    columns: [t('recipients.type'), numericColumn(t('common.agreements')), numericColumn(t('common.totalValue'))],
    rows: r.by_type,
    cells: (type) => [
      html`<a href="/${queryString({ recipient_type: type.recipient_type || undefined })}"
        >${codeLabel('recipientType', type.recipient_type, w) ?? type.label}</a
      >`,
      count(type.count, w),
      bigDollars(type.total_value, w),
    ],
  });
  const byProvince = recordTable({
    caption: t('recipients.byProvinceCaption'),
    hiddenCaption: true,
    noScroll: true,
    columns: [t('recipients.provinceColumn'), numericColumn(t('recipients.recipientsColumn')), numericColumn(t('common.totalValue'))],
    rows: r.by_province,
    cells: (p) => [provinceName(p.recipient_province, w), count(p.unique_recipients, w), bigDollars(p.total_value, w)],
  });
  return html`<div class="grid-2">
    <div>
      <h2>${t('recipients.byType')}</h2>
      ${byType}
    </div>
    <div>
      <h2>${t('recipients.byProvince')}</h2>
      ${byProvince}
    </div>
  </div>`;
}

/** A recipient's agreements on this page, largest first. */
function agreementsTable(shown: string, rows: Grant[], w: Words): SafeHtml {
  const { t } = w;
  return recordTable({
    caption: t('recipient.caption', { name: shown }),
    hiddenCaption: true,
    columns: [t('common.agreement'), t('common.department'), t('common.fiscalYear'), numericColumn(t('common.value'))],
    rows,
    cells: (g) => [
      html`<a href="/grants/${g.id}">${textOf(g, 'agreement_title_en', w) ? proseOf(g, 'agreement_title_en', w) : g.reference_number}</a>`,
      textOf(g, 'owner_org_title', w),
      fiscalYearIn(g.fiscal_year, w),
      dollars(g.agreement_value, w),
    ],
  });
}

/** The recipient as `/recipient` shows it: its legal name (the look-up's), its name in the page's language, its agreements. */
interface ShownRecipient {
  name: string;
  shown: string;
  found: RecipientAgreements;
  rows: Grant[];
}

/** One recipient: its totals, where it is, its value by fiscal year (the chart) and a page of its agreements. */
function recipientBody({ name, shown, found, rows }: ShownRecipient, page: number, chart: SafeHtml, w: Words): SafeHtml {
  const { t } = w;
  const totalPages = Math.max(1, Math.ceil(found.count / AGREEMENTS_PER_PAGE));
  const places = [
    ...new Set(rows.map((g) => [textOf(g, 'recipient_city_en', w), g.recipient_province].filter(Boolean).join(', ')).filter(Boolean)),
  ];
  return html`<p class="breadcrumbs"><a href="/recipients">${t('recipients.title')}</a> ›</p>
    <h1>${shown}</h1>
    <div class="stats-row">
      <p><span class="stat">${bigDollars(found.totalValueCents / 100, w)}</span> ${t('stats.inAll')}</p>
      <p><span class="stat">${count(found.count, w)}</span> ${t('recipient.agreements', { count: found.count })}</p>
      <p><span class="stat">${dollars(Math.round(found.totalValueCents / found.count) / 100, w)}</span> ${t('recipient.average')}</p>
    </div>
    ${places.length > 0 ? html`<p class="muted">${t('recipient.located', { places: places.join('; ') })}</p>` : ''} ${chart}
    <h2>${t('recipient.largestFirst')}</h2>
    ${agreementsTable(shown, rows, w)} ${pager('/recipient', { name }, page, totalPages, w)}
    <p><a href="/${queryString({ search: name })}">${t('recipient.searchAll', { name: shown })}</a></p>`;
}

/** How many close names a look-up that found none suggests. */
const SUGGESTIONS = 10;

/** A name no agreement gives its recipient: the 404, with the form and the close names the search finds. */
interface MissingRecipient {
  missing: string;
  suggestions: string[];
}

function notFoundPage({ missing, suggestions }: MissingRecipient, w: Words): PageResult {
  const { t } = w;
  // published names that differ from the one looked up only in case or apostrophe: distinct recipients, none chosen
  const alike = suggestions.filter((n) => sameRecipientName(n, missing)).length;
  return {
    title: w.loc.layout('error.notFound'),
    status: 404,
    section: '/recipients',
    body: html`<p class="breadcrumbs"><a href="/recipients">${t('recipients.title')}</a> ›</p>
      <h1>${w.loc.layout('error.notFound')}</h1>
      ${errorNote(t(alike >= 2 ? 'recipient.several' : 'recipient.notFound', { name: missing }), w.loc)} ${lookupForm(missing, w)}
      ${
        suggestions.length > 0
          ? html`<h2>${t('recipient.suggestions')}</h2>
              <ul>
                ${suggestions.map((n) => html`<li><a href="${recipientHref(n)}">${n}</a></li>`)}
              </ul>`
          : html`<p>${t('recipient.noSuggestions')}</p>`
      }`,
  };
}

export function recipientPages(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit, search: GrantsSearch): void {
  definePage(app, kit, {
    url: '/recipients',
    async read({ locale }) {
      const stored = await readAggregate(db, 'recipients');
      if (!stored) throw new HttpError(503, wordsOf(locale).t('error.noData'));
      return stored.value;
    },
    render(r, { locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      return {
        title: t('recipients.title'),
        description: t('recipients.description'),
        section: '/recipients',
        body: html`<h1>${t('recipients.title')}</h1>
          ${lookupForm('', w)}
          <h2>${t('recipients.largest', { count: r.top_recipients.length })}</h2>
          ${largestTable(r, w)} ${totalsTables(r, w)}`,
      };
    },
  });

  definePage(app, kit, {
    url: '/recipient',
    query: RecipientPageQuery,
    async read({ query, locale }): Promise<ShownRecipient | MissingRecipient> {
      const { t } = wordsOf(locale);
      const name = cleanText(query.name);
      if (name === undefined) throw badRequest(t('recipient.nameRequired'));
      // every agreement's id: in French, the name is that of the first by id whose source names the recipient in French
      const found = await search.recipient(name, { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      if (found.name === null) return { missing: name, suggestions: await search.recipientsLike(name, SUGGESTIONS) };
      const start = (query.page - 1) * AGREEMENTS_PER_PAGE;
      const rows = await grantsByIds(db, found.pageIds.slice(start, start + AGREEMENTS_PER_PAGE), 'both');
      const french = locale.language === 'fr' ? await recipientFrenchName(db, found.pageIds) : '';
      return { name: found.name, shown: french || found.name, found, rows };
    },
    render(recipient, { query, locale, chart }) {
      const w = wordsOf(locale);
      const { t } = w;
      if ('missing' in recipient) return notFoundPage(recipient, w);
      const { shown, found } = recipient;
      // cached under the validated query (the name and the page), the language and the data version
      const figure = chart('recipient-by-year', () =>
        barChart({
          id: 'recipient-by-year',
          title: t('recipient.chart'),
          description: t('recipient.chartText', { name: shown }),
          categories: found.byYear.map((y) => fiscalYearIn(y.fiscal_year, w)),
          series: [{ name: t('money.totalMillions'), values: found.byYear.map((y) => millions(y.total_value_cents / 100)) }],
          valueName: t('money.millionsAxis'),
          language: locale.language,
        }),
      );
      return {
        title: shown,
        description: t('recipient.description', { name: shown, count: found.count, value: bigDollars(found.totalValueCents / 100, w) }),
        section: '/recipients',
        body: recipientBody(recipient, query.page, figure, w),
      };
    },
    explain(refusal, locale) {
      const w = wordsOf(locale);
      if (refusal.name === 'name' && refusal.keyword === 'required') return w.t('recipient.nameRequired');
      if (refusal.name === 'name' && refusal.keyword === 'maxLength') return w.t('recipient.nameTooLong');
      return pageRefusal(refusal, w);
    },
  });
}
