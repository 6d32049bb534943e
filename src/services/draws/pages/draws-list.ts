// `/draws?category=&start_date=&end_date=&page=`: every draw up to the as-of date, newest first, with the API's
// filters (start_date and end_date exclusive, as GET /api/draws/ takes them) as a GET form, 50 a page.
import { Type } from 'typebox';
import { badRequest } from '../../../core/http/errors.ts';
import { MAX_PAGE, pageParam, parseDate } from '../../../core/http/params.ts';
import { externalLink, html, queryString, untranslated } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listCategories, listDraws } from '../repository.ts';
import type { CategoryRecord, DrawRecord } from '../repository.ts';
import { DrawsQuery } from '../schemas/draws.ts';
import type { DrawsState } from '../state.ts';
import {
  CATEGORY_WORDS,
  DATE_WORDS,
  categoryIn,
  categoryNames,
  count,
  errorNote,
  parameterMessage,
  score,
  tieBreakTime,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';

export const DRAWS_PER_PAGE = 50;

interface DrawsQuery {
  category?: string;
  start_date?: string;
  end_date?: string;
}

/** GET /api/draws/'s filters (its language is the page's own) and the page of the list. */
const DrawsPageQuery = Type.Object({
  category: DrawsQuery.properties.category,
  start_date: DrawsQuery.properties.start_date,
  end_date: DrawsQuery.properties.end_date,
  page: pageParam(),
});

function filterForm(categories: readonly CategoryRecord[], values: DrawsQuery, w: Words): SafeHtml {
  const { t } = w;
  return html`<form class="filters" method="get" action="/draws" role="search" aria-label="${t('draws.filter')}">
    <label
      >${t('common.category')}
      <select name="category">
        <option value="">${t('draws.every')}</option>
        ${categories.map((c) => html`<option value="${c.id}" ${String(c.id) === values.category ? html`selected` : ''}>${c.name}</option>`)}
      </select>
    </label>
    <label>${t('draws.after')} <input type="date" name="start_date" value="${values.start_date ?? ''}" /></label>
    <label>${t('draws.before')} <input type="date" name="end_date" value="${values.end_date ?? ''}" /></label>
    <button type="submit">${t('draws.show')}</button>
  </form>`;
}

/**
 * A name in the page's language: on a French page the French feed's (`french`), else the English one marked as English,
 * so that a round or a category the French feed does not name is not read out as French.
 */
function named(english: string, french: string | null | undefined, w: Words): HtmlValue {
  if (w.loc.language === 'en') return english;
  return french ?? html`<span${untranslated(w.loc)}>${english}</span>`;
}

function drawsTable(draws: readonly DrawRecord[], caption: string, w: Words): SafeHtml {
  const { t, loc } = w;
  return html`<div class="table-scroll">
    <table class="data" id="draws">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('common.date')}</th>
          <th scope="col">${t('common.round')}</th>
          <th scope="col">${t('common.category')}</th>
          <th scope="col">${t('draws.ircc')}</th>
          <th scope="col" class="num">${t('common.lowestCrs')}</th>
          <th scope="col" class="num">${t('common.invitations')}</th>
          <th scope="col">${t('draws.tieBreak')}</th>
          <th scope="col" class="num">${t('draws.daysSince')}</th>
        </tr>
      </thead>
      <tbody>
        ${draws.map(
          (d) =>
            html`<tr>
              <td class="date">${loc.date(d.date, 'short')}</td>
              <td>${externalLink(d.url, d.round_number)}</td>
              <td><a href="/categories/${d.category_id}">${named(d.category_name, d.category_name_fr, w)}</a></td>
              <td>${named(d.draw_name, d.draw_name_fr, w)}</td>
              <td class="num">${score(d.lowest_crs_score, w)}</td>
              <td class="num">${count(d.invitations_issued, w)}</td>
              <td>${d.tie_break_at ? tieBreakTime(d.tie_break_at, w) : '—'}</td>
              <td class="num">${d.days_since_last_draw ?? '—'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function pager(values: DrawsQuery, page: number, pages: number, w: Words): SafeHtml {
  if (pages <= 1) return html``;
  const { t } = w;
  const link = (p: number) => `/draws${queryString({ ...values, page: p === 1 ? undefined : p })}`;
  return html`<nav class="pager" aria-label="${t('draws.pages')}">
    ${page > 1 ? html`<a rel="prev" href="${link(Math.min(page - 1, pages))}">${t('draws.newer')}</a>` : ''}
    <span>${w.loc.layout('pager.position', { page, pages })}</span>
    ${page < pages ? html`<a rel="next" href="${link(page + 1)}">${t('draws.older')}</a>` : ''}
  </nav>`;
}

/** A date of the filters that the schema let through (YYYY-MM-DD) but no calendar has (2024-02-31): 400. */
function realDate(value: string | undefined, name: string, w: Words): string | undefined {
  try {
    return parseDate(value, name);
  } catch {
    throw badRequest(w.t('error.realDate', { name, value: value ?? '' }));
  }
}

/** The page around its list (or the message of a bad filter): the form keeps what the client wrote. */
function frame(categories: readonly CategoryRecord[], asOf: string, form: Readonly<Record<string, string>>, content: HtmlValue, w: Words) {
  const values: DrawsQuery = { category: form.category, start_date: form.start_date, end_date: form.end_date };
  return {
    title: w.t('draws.title'),
    description: w.t('draws.description'),
    section: '/draws',
    body: html`<h1>${w.t('draws.title')}</h1>
      <p class="lead">${w.t('draws.lead', { date: w.loc.date(asOf) })}</p>
      ${filterForm(categories, values, w)} ${content}`,
  };
}

/** Every category, named in the page's language (the form's choices). */
async function formCategories(state: DrawsState, locale: PageLocale): Promise<CategoryRecord[]> {
  const names = await categoryNames(state, locale.language);
  return (await listCategories(state.db, { activeOnly: false })).map((c) => categoryIn(c, names));
}

export function drawsListPage(app: ServiceApp, state: DrawsState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/draws',
    query: DrawsPageQuery,
    async read({ query, locale }) {
      const w = wordsOf(locale);
      const after = realDate(query.start_date, 'start_date', w);
      const before = realDate(query.end_date, 'end_date', w);
      if (after !== undefined && before !== undefined && before <= after) throw badRequest(w.t('error.dateOrder', { after, before }));
      const categories = await formCategories(state, locale);
      const category = query.category === undefined ? undefined : categories.find((c) => c.id === Number(query.category));
      if (query.category !== undefined && !category) throw badRequest(w.t('error.noCategory', { id: Number(query.category) }));
      const asOf = state.asOf();
      // Both languages' names on a French page, so that a name the French feed lacks is shown as English (`named`).
      const language = locale.language === 'en' ? 'en' : 'both';
      const draws = await listDraws(state.db, { categoryId: category?.id, after, before, through: asOf }, language);
      const pages = Math.max(1, Math.ceil(draws.length / DRAWS_PER_PAGE));
      if (query.page > pages) throw badRequest(w.t('error.pastLastPage', { page: query.page, pages }));
      return { categories, asOf, draws, pages, category, after, before };
    },
    render({ categories, asOf, draws, pages, category, after, before }, { query, form, locale }) {
      const w = wordsOf(locale);
      const { t, loc } = w;
      const page = query.page;
      const shown = draws.slice((page - 1) * DRAWS_PER_PAGE, page * DRAWS_PER_PAGE);
      const first = (page - 1) * DRAWS_PER_PAGE + 1;
      const what = `${category ? t('draws.captionOf', { name: category.name }) : t('draws.captionAll')}${
        after ? t('draws.captionAfter', { date: loc.date(after) }) : ''
      }${before ? t('draws.captionBefore', { date: loc.date(before) }) : ''}`;
      const values: DrawsQuery = { category: query.category, start_date: query.start_date, end_date: query.end_date };
      return frame(
        categories,
        asOf,
        form,
        draws.length === 0
          ? html`<p class="count" role="status">${t('draws.none')}</p>`
          : html`<p class="count" role="status">${t('draws.match', { count: draws.length, from: first, to: first + shown.length - 1 })}</p>
              ${drawsTable(shown, t('draws.captionNewest', { what }), w)} ${pager(values, page, pages, w)}`,
        w,
      );
    },
    refused: async (problem, { form, locale }) =>
      frame(await formCategories(state, locale), state.asOf(), form, errorNote(problem.message, locale), wordsOf(locale)),
    explain: parameterMessage({
      ...DATE_WORDS,
      ...CATEGORY_WORDS,
      page: (value, w) => w.t('error.page', { max: MAX_PAGE, value }),
    }),
  });
}
