// `/`: search retracted papers by title, author or DOI (suggestions as you type from /api/search-autocomplete/, pdi.js)
// and by journal, subject, country, reason, kind of notice and dates: a GET form that keeps its values, results
// ranked as /api/search/ ranks them, a page at a time, with the facets of the matches and links to download them
// (`/export-search`). Without a query or filter: the totals and the papers most cited after their retraction.
import { badRequest } from '../../../core/http/errors.ts';
import { html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { postRetractionReport } from '../reports.ts';
import { NATURE_FILTERS, NATURE_NAMES } from '../nature.ts';
import { DATE_FILTERS, SEARCH_MIN_QUERY, TEXT_FILTERS, checkFilters, countMatches, filterParams, searchPapers } from '../paper-search.ts';
import type { RawFilters, SearchFilters, SearchResult } from '../paper-search.ts';
import type { Facets, FacetValue } from '../paper-search.ts';
import { EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT } from '../schemas/export.ts';
import type { RetractionDb } from '../tables.ts';
import type { RetractionState } from '../state.ts';
import { filterChoices } from './reads.ts';
import {
  clientError,
  errorNote,
  formatCount,
  formatPercent,
  natureBadge,
  oneOfParam,
  pageNumber,
  param,
  sendPage,
  sourceNote,
} from './shared.ts';

/** Results per page of the search page. */
export const SEARCH_RESULTS = 50;

export const paperHref = (recordId: string) => `/papers/${encodeURIComponent(recordId)}`;

const NATURE_OPTIONS: Record<(typeof NATURE_FILTERS)[number], string> = {
  all: 'Every kind of notice',
  retraction: 'Retractions',
  expression_of_concern: 'Expressions of concern',
  correction: 'Corrections',
  reinstatement: 'Reinstatements',
  other: 'Other or not stated',
};

const DATE_LABELS: Record<(typeof DATE_FILTERS)[number], string> = {
  retracted_from: 'Notice from',
  retracted_to: 'Notice until',
  published_from: 'Published from',
  published_to: 'Published until',
};

/** The query's filters as typed (each cut to 200 characters, the most a filter may have), for the form to show again. */
function rawFilters(query: unknown): RawFilters {
  const raw: RawFilters = {};
  for (const name of ['q', ...TEXT_FILTERS, ...DATE_FILTERS] as const) {
    const value = param(query, name);
    if (value !== undefined) raw[name] = value;
  }
  return raw;
}

/** The filters of a page request, checked as the API checks them (400 with the same messages). */
function pageFilters(query: unknown): SearchFilters {
  const raw = rawFilters(query);
  for (const [name, value] of Object.entries(raw)) if (value.length > 200) throw badRequest(`${name} must be at most 200 characters long`);
  return checkFilters({ ...raw, nature: oneOfParam('nature', param(query, 'nature'), NATURE_FILTERS, 'all') });
}

/** What the form shows again: the query's values as typed. */
type FormValues = Omit<RawFilters, 'nature'> & { nature?: string };

function select(name: string, label: string, value: string, options: Array<[string, string]>): SafeHtml {
  return html`<label for="${name}"
    >${label}
    <select id="${name}" name="${name}">
      ${options.map(([v, text]) => html`<option value="${v}" ${v === value ? 'selected' : ''}>${text}</option>`)}
    </select></label
  >`;
}

function searchForm(
  action: string,
  raw: FormValues,
  choices: { subjects: string[]; countries: string[] },
  extra: SafeHtml = html``,
): SafeHtml {
  const text = (name: Exclude<keyof RawFilters, 'nature'>) => (raw[name] ?? '').slice(0, 200);
  const listed = (values: string[], current: string) => (current && !values.includes(current) ? [current, ...values] : values);
  const filtered = [...TEXT_FILTERS, ...DATE_FILTERS].some((n) => text(n) !== '') || (raw.nature ?? 'all') !== 'all';
  return html`<form class="filters" method="get" action="${action}" role="search">
    <label for="q"
      >Title, author or DOI
      <input
        type="search"
        id="q"
        name="q"
        value="${text('q')}"
        size="50"
        maxlength="200"
        minlength="${SEARCH_MIN_QUERY}"
        list="paper-suggestions"
        autocomplete="off"
        aria-describedby="q-help"
        data-autocomplete="/api/search-autocomplete/?q="
        data-autocomplete-items="suggestions"
        data-autocomplete-label="title"
    /></label>
    <datalist id="paper-suggestions"></datalist>
    <label for="journal"
      >Journal <input type="text" id="journal" name="journal" value="${text('journal')}" size="24" maxlength="200"
    /></label>
    ${select('subject', 'Subject', text('subject'), [
      ['', 'Any subject'],
      ...listed(choices.subjects, text('subject')).map((s): [string, string] => [s, s]),
    ])}
    ${select('country', 'Country', text('country'), [
      ['', 'Any country'],
      ...listed(choices.countries, text('country')).map((c): [string, string] => [c, c]),
    ])}
    <label for="reason">Reason <input type="text" id="reason" name="reason" value="${text('reason')}" size="24" maxlength="200" /></label>
    ${select(
      'nature',
      'Kind of notice',
      raw.nature ?? 'all',
      NATURE_FILTERS.map((n): [string, string] => [n === 'all' ? '' : n, NATURE_OPTIONS[n]]),
    )}
    ${DATE_FILTERS.map(
      (name) =>
        html`<label for="${name}">${DATE_LABELS[name]} <input type="date" id="${name}" name="${name}" value="${text(name)}" /></label>`,
    )}
    ${extra}
    <button type="submit">Search</button>
    ${filtered || text('q') ? html`<a href="${action}">Clear</a>` : ''}
    <p id="q-help" class="muted">
      Title, author or DOI: at least ${SEARCH_MIN_QUERY} characters. Journal, subject, country and reason match a part of the field; case
      and accents do not matter (“montreal” finds “Montréal”). A DOI may be written as a doi.org address. Dates include both ends.
    </p>
  </form>`;
}

function resultCard(s: SearchResult): SafeHtml {
  const authors = s.authors.split('; ');
  return html`<li class="card">
    <h3><a href="${paperHref(s.record_id)}">${s.title}</a></h3>
    <ul class="badges">
      <li>${natureBadge(s.nature)}</li>
      <li><span class="badge neutral">${formatCount(s.post_retraction_citations)} citations after the notice</span></li>
    </ul>
    <p class="muted">
      ${authors.slice(0, 4).join(', ')}${authors.length > 4 ? ' et al.' : ''}${s.journal ? html` · ${s.journal}` : ''}${
        s.retraction_date ? html` · notice ${s.retraction_date}` : ''
      }${s.country ? html` · ${s.country}` : ''}
    </p>
  </li>`;
}

function facetList(
  name: 'journal' | 'subject' | 'country' | 'nature',
  title: string,
  values: FacetValue[],
  filters: SearchFilters,
): SafeHtml {
  const shown = values.filter((v) => v.count > 0);
  if (shown.length === 0) return html``;
  const label = (v: string) => (name === 'nature' ? NATURE_NAMES[v as keyof typeof NATURE_NAMES] : v);
  return html`<section class="facet" aria-labelledby="facet-${name}">
    <h3 id="facet-${name}">${title}</h3>
    <ul>
      ${shown.map(
        (v) =>
          html`<li>
            <a href="/${queryString({ ...filterParams(filters), [name]: v.value })}">${label(v.value)}</a>
            <span class="muted">(${formatCount(v.count)})</span>
          </li>`,
      )}
    </ul>
  </section>`;
}

function facetsBlock(facets: Facets, filters: SearchFilters): SafeHtml {
  return html`<h2 id="facets">Narrow the results</h2>
    <div class="facets">
      ${facetList('nature', 'Kind of notice', facets.nature, filters)} ${facetList('journal', 'Journals', facets.journal, filters)}
      ${facetList('subject', 'Subjects', facets.subject, filters)} ${facetList('country', 'Countries', facets.country, filters)}
    </div>`;
}

const hasFilters = (f: SearchFilters) => Object.keys(filterParams(f)).length > 0;

export function searchPage(app: ServiceApp, state: RetractionState, kit: PageKit): void {
  const { db } = state;
  app.get('/', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const title = 'Search retracted papers';
      const intro = html`<h1>${title}</h1>
        <p>
          Retraction Watch records with the citations they received before and after their notice. Expressions of concern, corrections and
          reinstatements are notices too, and are labelled as such: only a retraction is a retracted paper.
        </p>`;
      const raw = { ...rawFilters(request.query), nature: param(request.query, 'nature') };
      const choices = await filterChoices(db);
      let filters: SearchFilters;
      let page: number;
      try {
        filters = pageFilters(request.query);
        page = pageNumber(param(request.query, 'page'));
      } catch (error) {
        const { status, message } = clientError(error);
        return { status, title, section: '/', body: html`${intro}${searchForm('/', raw, choices)}${errorNote(message)}` };
      }
      if (hasFilters(filters)) {
        const found = await searchPapers(db, filters, page, SEARCH_RESULTS);
        const params = filterParams(filters);
        const pageHref = (p: number) => `/${queryString({ ...params, page: p > 1 ? p : undefined })}#results`;
        const first = (page - 1) * SEARCH_RESULTS + 1;
        return {
          title: `${filters.q ? `“${filters.q}” · ` : ''}${title}`,
          section: '/',
          body: html`${intro}${searchForm('/', raw, choices)}
            <h2 id="results">Results</h2>
            <p role="status">
              ${
                found.total === 0
                  ? 'No record matches every filter.'
                  : found.results.length === 0
                    ? html`${formatCount(found.total)} records match; this page is past the last.`
                    : html`${formatCount(found.total)} record${found.total === 1 ? '' : 's'}
                      match${found.total === 1 ? 'es' : ''}${
                        found.total_pages > 1 ? html`; ${formatCount(first)}–${formatCount(first + found.results.length - 1)} shown` : ''
                      }${filters.q ? ', best match first' : ', newest notice first'}.`
              }
            </p>
            ${
              found.total > 0
                ? html`<p>
                    Download these ${formatCount(Math.min(found.total, EXPORT_MAX_LIMIT))} records:
                    <a href="/export-search${queryString(params)}">CSV, JSON or Excel</a>
                  </p>`
                : ''
            }
            <ol class="results" start="${first}">
              ${found.results.map(resultCard)}
            </ol>
            ${
              found.total_pages > 1
                ? html`<nav class="pager" aria-label="Pages of results">
                    ${page > 1 ? html`<a rel="prev" href="${pageHref(page - 1)}">← Previous</a>` : ''}
                    <span>Page ${page} of ${formatCount(found.total_pages)}</span>
                    ${page < found.total_pages ? html`<a rel="next" href="${pageHref(page + 1)}">Next →</a>` : ''}
                  </nav>`
                : ''
            }
            ${found.total > 0 ? facetsBlock(found.facets, filters) : ''}
            <p class="muted">As JSON: <a href="/api/search/${queryString(params)}">/api/search/ with these filters</a></p>`,
        };
      }
      let landing: SafeHtml;
      try {
        const report = await postRetractionReport(state, { timeFilter: 'all', nature: 'retraction' });
        landing = html`${sourceNote(report.data_source)}
          <div class="stats-row">
            <p><span class="stat">${formatCount(report.totals.papers)}</span>retracted papers</p>
            <p>
              <span class="stat">${formatPercent(report.totals.post_retraction_rate)}</span>of their ${formatCount(report.totals.citations)}
              citations came after the retraction
            </p>
          </div>
          <h2>Most cited after their retraction</h2>
          <ol class="results">
            ${report.top_papers.map(
              (p) =>
                html`<li class="card">
                  <h3><a href="${paperHref(p.record_id)}">${p.title}</a></h3>
                  <p class="muted">
                    ${formatCount(p.post_retraction_citations)} of ${formatCount(p.total_citations)} citations after the
                    retraction${p.journal ? html` · ${p.journal}` : ''}${p.retraction_date ? html` · retracted ${p.retraction_date}` : ''}
                  </p>
                </li>`,
            )}
          </ol>
          <p><a href="/analytics">All analytics →</a></p>`;
      } catch (error) {
        const { message } = clientError(error);
        landing = html`<p class="note" role="status">${message}.</p>`;
      }
      return {
        title,
        description: 'Search retracted papers and see how they go on being cited after their retraction.',
        section: '/',
        body: html`${intro}${searchForm('/', raw, choices)}${landing}`,
      };
    }),
  );
}

/**
 * `/export-search`: the filters of a search (the same form), how many records they match, and links to download them
 * from /api/export-search/ as CSV, JSON or xlsx (the export's rate limit and row cap).
 */
export function exportSearchPage(app: ServiceApp, db: RetractionDb, kit: PageKit): void {
  app.get('/export-search', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const title = 'Download search results';
      const raw = { ...rawFilters(request.query), nature: param(request.query, 'nature') };
      const choices = await filterChoices(db);
      const intro = html`<p class="muted"><a href="/${queryString(filterParams(safeFilters(request.query)))}">← Back to the search</a></p>
        <h1>${title}</h1>
        <p>
          The records matching the filters, in the search's order, with their citation counts: up to ${formatCount(EXPORT_MAX_LIMIT)}
          records per download (${formatCount(EXPORT_DEFAULT_LIMIT)} unless you ask for more), streamed. Downloads share the export's limit
          of 10 a minute.
        </p>`;
      let filters: SearchFilters;
      try {
        filters = pageFilters(request.query);
      } catch (error) {
        const { status, message } = clientError(error);
        return { status, title, section: '/', body: html`${intro}${searchForm('/export-search', raw, choices)}${errorNote(message)}` };
      }
      const matching = await countMatches(db, filters);
      const count = Math.min(matching, EXPORT_MAX_LIMIT);
      const params = { ...filterParams(filters), limit: String(count) };
      return {
        title,
        section: '/',
        body: html`${intro}${searchForm('/export-search', raw, choices)}
          <h2 id="download">Download</h2>
          <p role="status">
            ${
              matching === 0
                ? 'No record matches these filters.'
                : html`${formatCount(matching)} record${matching === 1 ? '' : 's'}
                  match${matching === 1 ? 'es' : ''}${
                    matching > EXPORT_MAX_LIMIT ? html`; a download holds the first ${formatCount(EXPORT_MAX_LIMIT)}` : ''
                  }.`
            }
          </p>
          ${
            matching > 0
              ? html`<ul class="downloads">
                  <li><a href="/api/export-search/${queryString({ ...params, format: 'csv' })}" download>CSV</a></li>
                  <li><a href="/api/export-search/${queryString({ ...params, format: 'json' })}" download>JSON</a></li>
                  <li><a href="/api/export-search/${queryString({ ...params, format: 'excel' })}" download>Excel (.xlsx)</a></li>
                </ul>`
              : ''
          }`,
      };
    }),
  );
}

/** The valid filters of a query, or none (for the link back to the search from a page with a bad filter). */
function safeFilters(query: unknown): SearchFilters {
  try {
    return pageFilters(query);
  } catch {
    return { nature: 'all' };
  }
}
