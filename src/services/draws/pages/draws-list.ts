// `/draws?category=&start_date=&end_date=&page=`: every draw up to the as-of date, newest first, with the API's
// filters (start_date and end_date exclusive, as GET /api/draws/ takes them) as a GET form, 50 a page.
import { badRequest } from '../../../core/http/errors.ts';
import { MAX_PAGE } from '../../../core/http/params.ts';
import { externalLink, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listCategories, listDraws } from '../repository.ts';
import type { CategoryRecord, DrawRecord } from '../repository.ts';
import type { DrawsState } from '../state.ts';
import { categoryIn, categoryParam, count, dateParam, errorNote, param, score, sendPage, tieBreakTime, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

export const DRAWS_PER_PAGE = 50;

interface DrawsQuery {
  category?: string;
  start_date?: string;
  end_date?: string;
}

export function parsePage(value: string | undefined, w: Words): number {
  if (value === undefined) return 1;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGE) {
    throw badRequest(w.t('error.page', { max: MAX_PAGE, value }));
  }
  return Number(value);
}

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
              <td><a href="/categories/${d.category_id}">${d.category_name}</a></td>
              <td>${d.draw_name}</td>
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

export function drawsListPage(app: ServiceApp, routes: DrawsState, kit: PageKit): void {
  const frame = (categories: CategoryRecord[], values: DrawsQuery, content: SafeHtml, w: Words): PageRequest => ({
    title: w.t('draws.title'),
    description: w.t('draws.description'),
    section: '/draws',
    body: html`<h1>${w.t('draws.title')}</h1>
      <p class="lead">${w.t('draws.lead', { date: w.loc.date(routes.asOf()) })}</p>
      ${filterForm(categories, values, w)} ${content}`,
  });

  app.get('/draws', { config: { responseCache: true } }, async (request, reply) => {
    const w = wordsOf(kit, request);
    const { t, loc } = w;
    const categories = (await listCategories(routes.db, { activeOnly: false })).map((c) => categoryIn(c, loc.language));
    const values: DrawsQuery = {
      category: param(request.query, 'category'),
      start_date: param(request.query, 'start_date'),
      end_date: param(request.query, 'end_date'),
    };
    return sendPage(
      kit,
      request,
      reply,
      async () => {
        const page = parsePage(param(request.query, 'page'), w);
        const after = dateParam(values.start_date, 'start_date', w);
        const before = dateParam(values.end_date, 'end_date', w);
        if (after !== undefined && before !== undefined && before <= after) {
          throw badRequest(t('error.dateOrder', { after, before }));
        }
        const category = await categoryParam(routes, values.category, w);
        const draws = await listDraws(routes.db, { categoryId: category?.id, after, before, through: routes.asOf() }, loc.language);
        const pages = Math.max(1, Math.ceil(draws.length / DRAWS_PER_PAGE));
        if (page > pages) throw badRequest(t('error.pastLastPage', { page, pages }));
        const shown = draws.slice((page - 1) * DRAWS_PER_PAGE, page * DRAWS_PER_PAGE);
        const first = (page - 1) * DRAWS_PER_PAGE + 1;
        const what = `${category ? t('draws.captionOf', { name: category.name }) : t('draws.captionAll')}${
          after ? t('draws.captionAfter', { date: loc.date(after) }) : ''
        }${before ? t('draws.captionBefore', { date: loc.date(before) }) : ''}`;
        return frame(
          categories,
          values,
          draws.length === 0
            ? html`<p class="count" role="status">${t('draws.none')}</p>`
            : html`<p class="count" role="status">
                  ${t('draws.match', { count: draws.length, from: first, to: first + shown.length - 1 })}
                </p>
                ${drawsTable(shown, t('draws.captionNewest', { what }), w)} ${pager(values, page, pages, w)}`,
          w,
        );
      },
      async (message) => frame(categories, values, errorNote(message, loc), w),
    );
  });
}
