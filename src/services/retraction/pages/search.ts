// `/`: search retracted papers by title, author or DOI (suggestions as you type from /api/search-autocomplete/, pdi.js)
// and by journal, subject, country, reason, kind of notice and dates: a GET form that keeps its values, validated by
// the schema of /api/search/ and its filter checks, results ranked as it ranks them, a page at a time, with the facets
// of the matches and links to download them (`/export-search`). Without a query or filter: the totals and the papers
// most cited after their retraction.
import { html, queryString } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { RawPageInput } from '../../../core/pages/page.ts';
import { errorNote, pageProblem } from '../../../core/pages/replies.ts';
import type { PageProblem, PageResult } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { postRetractionReport } from '../answers.ts';
import { NATURE_FILTERS } from '../nature.ts';
import { DATE_FILTERS, SEARCH_MIN_QUERY, TEXT_FILTERS, checkFilters, countMatches, filterParams, searchPapers } from '../paper-search.ts';
import type { Facets, FacetValue, SearchFilters, SearchResult } from '../paper-search.ts';
import { EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT } from '../schemas/export.ts';
import { ExportSearchQuery, SearchQuery } from '../schemas/search.ts';
import type { RetractionDb } from '../tables.ts';
import type { RetractionState } from '../state.ts';
import { filterChoices } from './reads.ts';
import { natureBadge, pager, sourceNote, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

/** Results per page of the search page. */
export const SEARCH_RESULTS = 50;

export const paperHref = (recordId: string) => `/papers/${encodeURIComponent(recordId)}`;

type Choices = { subjects: string[]; countries: string[] };
/** What the form shows again: the query's values as typed. */
type FormValues = Readonly<Record<string, string>>;

function select(name: string, label: string, value: string, options: Array<[string, string]>): SafeHtml {
  return html`<label for="${name}"
    >${label}
    <select id="${name}" name="${name}">
      ${options.map(([v, text]) => html`<option value="${v}" ${v === value ? 'selected' : ''}>${text}</option>`)}
    </select></label
  >`;
}

function searchForm(action: string, raw: FormValues, choices: Choices, w: Words): SafeHtml {
  const { t } = w;
  const text = (name: string) => (raw[name] ?? '').slice(0, 200);
  const listed = (values: string[], current: string) => (current && !values.includes(current) ? [current, ...values] : values);
  const filtered = [...TEXT_FILTERS, ...DATE_FILTERS].some((n) => text(n) !== '') || (raw.nature ?? 'all') !== 'all';
  return html`<form class="filters" method="get" action="${action}" role="search">
    <label for="q"
      >${t('search.q')}
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
      >${t('search.journal')} <input type="text" id="journal" name="journal" value="${text('journal')}" size="24" maxlength="200"
    /></label>
    ${select('subject', t('search.subject'), text('subject'), [
      ['', t('search.anySubject')],
      ...listed(choices.subjects, text('subject')).map((s): [string, string] => [s, s]),
    ])}
    ${select('country', t('search.country'), text('country'), [
      ['', t('search.anyCountry')],
      ...listed(choices.countries, text('country')).map((c): [string, string] => [c, c]),
    ])}
    <label for="reason"
      >${t('search.reason')} <input type="text" id="reason" name="reason" value="${text('reason')}" size="24" maxlength="200"
    /></label>
    ${select(
      'nature',
      t('search.nature'),
      raw.nature ?? 'all',
      NATURE_FILTERS.map((n): [string, string] => [n === 'all' ? '' : n, t(`search.natureOption.${n}`)]),
    )}
    ${DATE_FILTERS.map(
      (name) =>
        html`<label for="${name}"
          >${t(`search.date.${name}`)} <input type="date" id="${name}" name="${name}" value="${text(name)}"
        /></label>`,
    )}
    <button type="submit">${t('common.search')}</button>
    ${filtered || text('q') ? html`<a href="${action}">${t('search.clear')}</a>` : ''}
    <p id="q-help" class="muted">${t('search.help', { min: SEARCH_MIN_QUERY })}</p>
  </form>`;
}

function resultCard(s: SearchResult, w: Words): SafeHtml {
  const { t } = w;
  const authors = s.authors.split('; ');
  return html`<li class="card">
    <h3><a href="${paperHref(s.record_id)}">${s.title}</a></h3>
    <ul class="badges">
      <li>${natureBadge(s.nature, w)}</li>
      <li><span class="badge neutral">${t('search.citationsAfter', { n: s.post_retraction_citations })}</span></li>
    </ul>
    <p class="muted">
      ${authors.slice(0, 4).join(', ')}${authors.length > 4 ? t('search.etAl') : ''}${s.journal ? html` · ${s.journal}` : ''}${
        s.retraction_date ? t('search.notice', { date: s.retraction_date }) : ''
      }${s.country ? html` · ${s.country}` : ''}
    </p>
  </li>`;
}

function facetList(name: 'journal' | 'subject' | 'country' | 'nature', values: FacetValue[], filters: SearchFilters, w: Words): SafeHtml {
  const { t } = w;
  const shown = values.filter((v) => v.count > 0);
  if (shown.length === 0) return html``;
  const label = (v: string) => (name !== 'nature' ? v : v === 'other' ? t('nature.otherFacet') : t(`nature.${v as 'retraction'}`));
  return html`<section class="facet" aria-labelledby="facet-${name}">
    <h3 id="facet-${name}">${t(`search.facet.${name}`)}</h3>
    <ul>
      ${shown.map(
        (v) =>
          html`<li>
            <a href="/${queryString({ ...filterParams(filters), [name]: v.value })}">${label(v.value)}</a>
            <span class="muted">${t('search.facetCount', { n: v.count })}</span>
          </li>`,
      )}
    </ul>
  </section>`;
}

function facetsBlock(facets: Facets, filters: SearchFilters, w: Words): SafeHtml {
  return html`<h2 id="facets">${w.t('search.narrow')}</h2>
    <div class="facets">
      ${facetList('nature', facets.nature, filters, w)} ${facetList('journal', facets.journal, filters, w)}
      ${facetList('subject', facets.subject, filters, w)} ${facetList('country', facets.country, filters, w)}
    </div>`;
}

const hasFilters = (f: SearchFilters) => Object.keys(filterParams(f)).length > 0;

function searchFrame(raw: FormValues, choices: Choices, body: HtmlValue, w: Words, q?: string) {
  const { t } = w;
  return {
    title: q ? t('search.titleFor', { q }) : t('search.title'),
    description: t('search.description'),
    section: '/',
    body: html`<h1>${t('search.title')}</h1>
      <p>${t('search.intro')}</p>
      ${searchForm('/', raw, choices, w)}${body}`,
  };
}

type Found = Awaited<ReturnType<typeof searchPapers>>;

function resultsBody(found: Found, filters: SearchFilters, page: number, w: Words): SafeHtml {
  const { t } = w;
  const params = filterParams(filters);
  const pageHref = (p: number) => `/${queryString({ ...params, page: p > 1 ? p : undefined })}#results`;
  const first = (page - 1) * SEARCH_RESULTS + 1;
  const count =
    found.total === 0
      ? t('search.none')
      : found.results.length === 0
        ? t('search.pastLast', { total: found.total })
        : t('search.count', {
            total: found.total,
            shown: found.total_pages > 1 ? 'yes' : 'no',
            first,
            last: first + found.results.length - 1,
            order: filters.q ? 'relevance' : 'newest',
          });
  return html`<h2 id="results">${t('search.results')}</h2>
    <p role="status">${count}</p>
    ${
      found.total > 0
        ? html`<p>
            ${t('search.download', { n: Math.min(found.total, EXPORT_MAX_LIMIT) })}
            <a href="/export-search${queryString(params)}">${t('search.downloadLink')}</a>
          </p>`
        : ''
    }
    <ol class="results" start="${first}">
      ${found.results.map((r) => resultCard(r, w))}
    </ol>
    ${pager(page, found.total_pages, pageHref, t('common.pagesOfResults'), w)}
    ${found.total > 0 ? facetsBlock(found.facets, filters, w) : ''}
    <p class="muted">${t('common.asJson')} <a href="/api/search/${queryString(params)}">${t('search.json')}</a></p>`;
}

type Report = Awaited<ReturnType<typeof postRetractionReport>>;

function landingBody(report: Report, w: Words): SafeHtml {
  const { t, loc } = w;
  return html`${sourceNote(report.data_source, w)}
    <div class="stats-row">
      <p><span class="stat">${loc.number(report.totals.papers)}</span>${t('search.retractedPapers')}</p>
      <p>
        <span class="stat">${loc.percent(report.totals.post_retraction_rate)}</span
        >${t('search.citedAfter', { n: report.totals.citations })}
      </p>
    </div>
    <h2>${t('search.mostCited')}</h2>
    <ol class="results">
      ${report.top_papers.map(
        (p) =>
          html`<li class="card">
            <h3><a href="${paperHref(p.record_id)}">${p.title}</a></h3>
            <p class="muted">
              ${t('search.topCitations', { after: p.post_retraction_citations, n: p.total_citations })}${p.journal ? html` · ${p.journal}` : ''}${
                p.retraction_date ? t('search.retracted', { date: p.retraction_date }) : ''
              }
            </p>
          </li>`,
      )}
    </ol>
    <p><a href="/analytics">${t('search.allAnalytics')}</a></p>`;
}

/** Without a filter, the landing's report; a report that cannot be made (no data) is said in its place. */
async function landing(state: RetractionState): Promise<Report | PageProblem> {
  try {
    return await postRetractionReport(state, { timeFilter: 'all', nature: 'retraction' });
  } catch (error) {
    const problem = pageProblem(error);
    if (!problem || problem.status >= 500) throw error;
    return problem;
  }
}

const refusedWith =
  (db: RetractionDb, action: (raw: FormValues, choices: Choices, note: SafeHtml, w: Words) => PageResult) =>
  async (problem: PageProblem, { form, locale }: RawPageInput) =>
    action(form, await filterChoices(db), errorNote(problem.message, locale), wordsOf(locale));

export function searchPage(app: ServiceApp, state: RetractionState, kit: PageKit): void {
  const { db } = state;
  definePage(app, kit, {
    url: '/',
    query: SearchQuery,
    async read({ query }) {
      const { page, limit: _limit, ...raw } = query;
      const filters = checkFilters(raw);
      const choices = await filterChoices(db);
      if (!hasFilters(filters)) return { choices, filters, page, landing: await landing(state) };
      return { choices, filters, page, found: await searchPapers(db, filters, page, SEARCH_RESULTS) };
    },
    render(data, { form, locale }) {
      const w = wordsOf(locale);
      if (data.found) return searchFrame(form, data.choices, resultsBody(data.found, data.filters, data.page, w), w, data.filters.q);
      const report = data.landing;
      const body =
        report && 'totals' in report
          ? landingBody(report, w)
          : html`<p class="note" role="status">${w.t('search.noReport', { message: report?.message ?? '' })}</p>`;
      return searchFrame(form, data.choices, body, w);
    },
    refused: refusedWith(db, (raw, choices, note, w) => searchFrame(raw, choices, note, w)),
  });
}

function exportFrame(raw: FormValues, choices: Choices, body: HtmlValue, w: Words, back: SearchFilters) {
  const { t } = w;
  return {
    title: t('export.title'),
    section: '/',
    body: html`<p class="muted"><a href="/${queryString(filterParams(back))}">${t('export.back')}</a></p>
      <h1>${t('export.title')}</h1>
      <p>${t('export.intro', { max: EXPORT_MAX_LIMIT, default: EXPORT_DEFAULT_LIMIT })}</p>
      ${searchForm('/export-search', raw, choices, w)}${body}`,
  };
}

/**
 * `/export-search`: the filters of a search (the same form, validated as /api/export-search/ validates them), how many
 * records they match, and links to download them as CSV, JSON or xlsx (the export's rate limit and row cap).
 */
export function exportSearchPage(app: ServiceApp, db: RetractionDb, kit: PageKit): void {
  definePage(app, kit, {
    url: '/export-search',
    query: ExportSearchQuery,
    async read({ query }) {
      const { format: _format, limit: _limit, ...raw } = query;
      const filters = checkFilters(raw);
      return { filters, choices: await filterChoices(db), matching: await countMatches(db, filters) };
    },
    render({ filters, choices, matching }, { form, locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const params = { ...filterParams(filters), limit: String(Math.min(matching, EXPORT_MAX_LIMIT)) };
      const link = (format: string, label: string) =>
        html`<li><a href="/api/export-search/${queryString({ ...params, format })}" download>${label}</a></li>`;
      return exportFrame(
        form,
        choices,
        html`<h2 id="download">${t('export.heading')}</h2>
          <p role="status">
            ${matching === 0 ? t('export.none') : t('export.count', { n: matching, capped: matching > EXPORT_MAX_LIMIT ? 'yes' : 'no', max: EXPORT_MAX_LIMIT })}
          </p>
          ${
            matching > 0
              ? html`<ul class="downloads">
                  ${link('csv', t('export.csv'))} ${link('json', t('export.json'))} ${link('excel', t('export.excel'))}
                </ul>`
              : ''
          }`,
        w,
        filters,
      );
    },
    refused: refusedWith(db, (raw, choices, note, w) => exportFrame(raw, choices, note, w, { nature: 'all' })),
  });
}
