// `/`: the grant search with every filter and sort of GET /api/search/, paging, and the total. The page asks
// the API route itself (in-process, `inject`): the route holds the search's parameter rules and its
// in-memory index (memory-search.ts, ~90 MB at 1.3 million agreements), and a second copy of either for the
// pages would be a second query path. A parameter the API refuses comes back as its message, shown above
// the form with status 400.
import type { Static } from 'typebox';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { readAggregate } from '../repository.ts';
import type { GrantRecord } from '../schemas/grant.ts';
import type { SearchBody } from '../schemas/search.ts';
import { SORT_FIELDS } from '../search.ts';
import { PROVINCE_CODES, PROVINCE_NAMES_EN, RECIPIENT_TYPES } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import type { Kysely } from 'kysely';
import { HttpError } from '../../../core/http/errors.ts';
import { count, dollars, errorNote, option, pager, param, parsePageNumber, recipientHref, sendPage } from './shared.ts';

export const PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;

/** The form's fields that go to the API unchanged. */
const PASSED = ['search', 'province', 'fiscal_year', 'recipient_type', 'min_value', 'max_value', 'is_major', 'is_notable', 'sort'] as const;

const SORT_LABELS: Record<string, string> = {
  agreement_value: 'Value',
  agreement_start_date: 'Start date',
  agreement_end_date: 'End date',
  recipient_legal_name: 'Recipient',
  fiscal_year: 'Fiscal year (then value)',
  recipient_province: 'Province (then value)',
  program_name_en: 'Program',
  id: 'Record number',
};

type Grant = Static<typeof GrantRecord>;
type SearchAnswer = Static<typeof SearchBody>;

/** GET /api/api/search/ answered by the API route in this process. */
export async function searchThroughApi(app: ServiceApp, query: URLSearchParams): Promise<SearchAnswer> {
  const res = await app.inject({ method: 'GET', url: `/api/api/search/?${query}` });
  if (res.statusCode !== 200) {
    const message = (res.json() as { error?: string }).error ?? `search failed (${res.statusCode})`;
    throw new HttpError(res.statusCode, message);
  }
  return res.json() as SearchAnswer;
}

export function searchPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  app.get('/', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const form = Object.fromEntries(PASSED.map((name) => [name, param(request.query, name) ?? ''])) as Record<
        (typeof PASSED)[number],
        string
      >;
      const perPageText = param(request.query, 'per_page') ?? '';
      const stats = await readAggregate(db, 'stats');
      const years = stats?.value.by_year.map((y) => y.fiscal_year).reverse() ?? [];
      let status: number | undefined;
      let results: SafeHtml;
      try {
        const perPage = perPageText === '' ? DEFAULT_PAGE_SIZE : Number(perPageText);
        if (!(PAGE_SIZES as readonly number[]).includes(perPage))
          throw new HttpError(400, `per_page must be one of ${PAGE_SIZES.join(', ')}, got "${perPageText}"`);
        const page = parsePageNumber(param(request.query, 'page'));
        const query = new URLSearchParams();
        for (const name of PASSED) if (form[name].trim() !== '') query.set(name, form[name]);
        query.set('limit', String(perPage));
        query.set('offset', String((page - 1) * perPage));
        const answer = await searchThroughApi(app, query);
        const totalPages = Math.max(1, Math.ceil(answer.count / perPage));
        results = html`<h2 id="results">Agreements</h2>
          <p class="count" role="status">
            ${
              answer.count === 0
                ? 'No agreement matches these filters.'
                : answer.results.length === 0
                  ? html`${count(answer.count)} agreements match, but page ${page} is past the last page (${count(totalPages)}).`
                  : html`${count(answer.count)} agreement${answer.count === 1 ? '' : 's'} match${answer.count === 1 ? 'es' : ''}; showing
                    ${count(answer.offset + 1)}–${count(answer.offset + answer.results.length)}.`
            }
          </p>
          ${answer.results.length > 0 ? resultsTable(answer.results) : ''}
          ${pager('/', { ...form, per_page: perPageText }, page, totalPages)}`;
      } catch (error) {
        if (!(error instanceof HttpError) || (error.statusCode >= 500 && error.statusCode !== 503)) throw error;
        status = error.statusCode;
        results = errorNote(error.message);
      }
      return {
        title: form.search ? `“${form.search}” in federal grants` : 'Search federal grants',
        description:
          'Search Canadian federal grant and contribution agreements by words, province, fiscal year, value, recipient type and more.',
        section: '/',
        status,
        body: html`<h1>Search federal grants and contributions</h1>
          <p class="lead">
            Agreements published by federal departments (Proactive Publication – Grants and Contributions), each at its latest amendment.
            Money is in Canadian dollars.
          </p>
          ${searchForm(form, perPageText, years)} ${results}`,
      };
    }),
  );
}

function searchForm(form: Record<(typeof PASSED)[number], string>, perPage: string, years: string[]): SafeHtml {
  return html`<form class="filters" method="get" action="/" role="search" aria-label="Search agreements">
    <label
      >Words
      <input type="search" name="search" value="${form.search}" maxlength="200" placeholder="title, recipient, description or program" />
    </label>
    <label
      >Province or territory
      <select name="province">
        ${option('', 'Any', form.province)} ${PROVINCE_CODES.map((p) => option(p, PROVINCE_NAMES_EN[p], form.province.toUpperCase()))}
      </select>
    </label>
    <label
      >Fiscal year
      <select name="fiscal_year">
        ${option('', 'Any', form.fiscal_year)} ${years.map((y) => option(y, y, form.fiscal_year))}
      </select>
    </label>
    <label
      >Recipient type
      <select name="recipient_type">
        ${option('', 'Any', form.recipient_type)}
        ${Object.entries(RECIPIENT_TYPES).map(([code, label]) => option(code, label, form.recipient_type.toUpperCase()))}
      </select>
    </label>
    <label>Value from ($) <input type="number" name="min_value" value="${form.min_value}" min="0" step="any" inputmode="decimal" /></label>
    <label>Value up to ($) <input type="number" name="max_value" value="${form.max_value}" min="0" step="any" inputmode="decimal" /></label>
    <label
      >Over $1 million
      <select name="is_major">
        ${option('', 'Either', form.is_major)} ${option('true', 'Yes', form.is_major.toLowerCase())}
        ${option('false', 'No', form.is_major.toLowerCase())}
      </select>
    </label>
    <label
      >Flagged as notable
      <select name="is_notable">
        ${option('', 'Either', form.is_notable)} ${option('true', 'Yes', form.is_notable.toLowerCase())}
        ${option('false', 'No', form.is_notable.toLowerCase())}
      </select>
    </label>
    <label
      >Sort by
      <select name="sort">
        ${option('', 'Value, largest first', form.sort)}
        ${SORT_FIELDS.flatMap((f) => [
          option(f, `${SORT_LABELS[f] ?? f}, ascending`, form.sort),
          f === 'agreement_value' ? '' : option(`-${f}`, `${SORT_LABELS[f] ?? f}, descending`, form.sort),
        ])}
      </select>
    </label>
    <label
      >Per page
      <select name="per_page">
        ${PAGE_SIZES.map((n) => option(n === DEFAULT_PAGE_SIZE ? '' : String(n), String(n), perPage))}
      </select>
    </label>
    <button type="submit">Search</button>
  </form>`;
}

function resultsTable(rows: Grant[]): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data results-table">
      <caption class="visually-hidden">
        Matching agreements
      </caption>
      <thead>
        <tr>
          <th scope="col">Agreement</th>
          <th scope="col">Recipient</th>
          <th scope="col">Province</th>
          <th scope="col">Fiscal year</th>
          <th scope="col">Period</th>
          <th scope="col" class="num">Value</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (g) =>
            html`<tr>
              <th scope="row">
                <a href="/grants/${g.id}">${g.agreement_title_en || g.reference_number}</a>
                <span class="muted small">${g.owner_org_title}</span>
                ${g.is_major_funding ? html`<span class="badge neutral">over $1M</span>` : ''}
                ${g.is_notable ? html`<span class="badge warn" title="${g.notable_reason}">notable</span>` : ''}
              </th>
              <td>
                ${g.recipient_legal_name ? html`<a href="${recipientHref(g.recipient_legal_name)}">${g.recipient_legal_name}</a>` : '—'}
              </td>
              <td>${g.recipient_province || '—'}</td>
              <td>${g.fiscal_year}</td>
              <td class="nowrap">${g.agreement_start_date} to ${g.agreement_end_date ?? 'no end date'}</td>
              <td class="num">${dollars(g.agreement_value)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
