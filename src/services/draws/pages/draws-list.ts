// `/draws?category=&start_date=&end_date=&page=`: every draw up to the as-of date, newest first, with the API's
// filters (start_date and end_date exclusive, as GET /api/draws/ takes them) as a GET form, 50 a page.
import { badRequest } from '../../../core/http/errors.ts';
import { MAX_PAGE } from '../../../core/http/params.ts';
import { externalLink, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listCategories, listDraws } from '../repository.ts';
import type { CategoryRecord, DrawRecord } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
import { categoryParam, count, dateParam, errorNote, param, sendPage } from './shared.ts';

export const DRAWS_PER_PAGE = 50;

interface DrawsQuery {
  category?: string;
  start_date?: string;
  end_date?: string;
}

export function parsePage(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^\d{1,7}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PAGE) {
    throw badRequest(`page must be a whole number from 1 to ${MAX_PAGE}, got "${value}"`);
  }
  return Number(value);
}

function filterForm(categories: readonly CategoryRecord[], values: DrawsQuery): SafeHtml {
  return html`<form class="filters" method="get" action="/draws" role="search" aria-label="Filter the draws">
    <label
      >Category
      <select name="category">
        <option value="">Every category</option>
        ${categories.map((c) => html`<option value="${c.id}" ${String(c.id) === values.category ? html`selected` : ''}>${c.name}</option>`)}
      </select>
    </label>
    <label>After <input type="date" name="start_date" value="${values.start_date ?? ''}" /></label>
    <label>Before <input type="date" name="end_date" value="${values.end_date ?? ''}" /></label>
    <button type="submit">Show draws</button>
  </form>`;
}

function drawsTable(draws: readonly DrawRecord[], caption: string): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data" id="draws">
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Round</th>
          <th scope="col">Category</th>
          <th scope="col">As IRCC names it</th>
          <th scope="col" class="num">Lowest CRS</th>
          <th scope="col" class="num">Invitations</th>
          <th scope="col">Tie-break (UTC)</th>
          <th scope="col" class="num">Days since the category’s previous</th>
        </tr>
      </thead>
      <tbody>
        ${draws.map(
          (d) =>
            html`<tr>
              <td class="date">${d.date}</td>
              <td>${externalLink(d.url, d.round_number)}</td>
              <td><a href="/categories/${d.category_id}">${d.category_name}</a></td>
              <td>${d.draw_name}</td>
              <td class="num">${d.lowest_crs_score}</td>
              <td class="num">${count(d.invitations_issued)}</td>
              <td>${d.tie_break_at ? d.tie_break_at.replace('T', ' ').replace(/:\d{2}(\.\d+)?Z$/, '') : '—'}</td>
              <td class="num">${d.days_since_last_draw ?? '—'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function pager(values: DrawsQuery, page: number, pages: number): SafeHtml {
  if (pages <= 1) return html``;
  const link = (p: number) => `/draws${queryString({ ...values, page: p === 1 ? undefined : p })}`;
  return html`<nav class="pager" aria-label="Pages of draws">
    ${page > 1 ? html`<a rel="prev" href="${link(Math.min(page - 1, pages))}">← Newer</a>` : ''}
    <span>Page ${page} of ${pages}</span>
    ${page < pages ? html`<a rel="next" href="${link(page + 1)}">Older →</a>` : ''}
  </nav>`;
}

export function drawsListPage(app: ServiceApp, routes: DrawsRouteContext, kit: PageKit): void {
  const frame = (categories: CategoryRecord[], values: DrawsQuery, content: SafeHtml): PageRequest => ({
    title: 'Every draw',
    description: 'Every Express Entry round of invitations: date, category, lowest CRS score and invitations.',
    section: '/draws',
    body: html`<h1>Every draw</h1>
      <p class="lead">
        Rounds of invitations up to ${routes.asOf()}, newest first. “After” and “Before” leave the dates themselves out, as the API’s
        <code>start_date</code> and <code>end_date</code> do.
      </p>
      ${filterForm(categories, values)} ${content}`,
  });

  app.get('/draws', { config: { responseCache: true } }, async (request, reply) => {
    const categories = await listCategories(routes.db, { activeOnly: false });
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
        const page = parsePage(param(request.query, 'page'));
        const after = dateParam(values.start_date, 'start_date');
        const before = dateParam(values.end_date, 'end_date');
        if (after !== undefined && before !== undefined && before <= after) {
          throw badRequest(`end_date must be after start_date (both are exclusive), got start_date ${after} and end_date ${before}`);
        }
        const category = await categoryParam(routes, values.category);
        const draws = await listDraws(routes.db, { categoryId: category?.id, after, before, through: routes.asOf() });
        const pages = Math.max(1, Math.ceil(draws.length / DRAWS_PER_PAGE));
        if (page > pages) throw badRequest(`page ${page} is past the last page (${pages})`);
        const shown = draws.slice((page - 1) * DRAWS_PER_PAGE, page * DRAWS_PER_PAGE);
        const first = (page - 1) * DRAWS_PER_PAGE + 1;
        const what = `${category ? `Draws of ${category.name}` : 'Draws'}${after ? ` after ${after}` : ''}${before ? ` before ${before}` : ''}`;
        return frame(
          categories,
          values,
          draws.length === 0
            ? html`<p class="count" role="status">No draw matches.</p>`
            : html`<p class="count" role="status">
                  ${count(draws.length)} draw${draws.length === 1 ? '' : 's'} match; showing
                  ${count(first)}–${count(first + shown.length - 1)}.
                </p>
                ${drawsTable(shown, `${what}, newest first`)} ${pager(values, page, pages)}`,
        );
      },
      async (message) => frame(categories, values, errorNote(message)),
    );
  });
}
