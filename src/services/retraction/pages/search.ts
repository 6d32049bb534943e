// `/`: search retracted papers by title, author or DOI: a GET form with suggestions as you type from
// /api/search-autocomplete/ (pdi.js), results ranked by the same function as that endpoint (more of them), each with
// its kind of notice in words. Without a query: the totals and the papers most cited after their retraction.
import { cleanText } from '../../../core/http/params.ts';
import { badRequest } from '../../../core/http/errors.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { autocomplete } from '../repository.ts';
import type { Suggestion } from '../repository.ts';
import { postRetractionReport } from '../reports.ts';
import { MIN_QUERY_LENGTH } from '../schemas/search.ts';
import type { Nature } from '../nature.ts';
import type { RetractionDb } from '../tables.ts';
import { naturesOf } from './reads.ts';
import { clientError, errorNote, formatCount, formatPercent, natureBadge, param, sendPage, sourceNote } from './shared.ts';

/** Results shown for a query (the API's autocomplete shows 10 of the same ranking). */
export const SEARCH_RESULTS = 50;

export const paperHref = (recordId: string) => `/papers/${encodeURIComponent(recordId)}`;

function searchForm(q: string): SafeHtml {
  return html`<form class="filters" method="get" action="/" role="search">
    <label for="q"
      >Title, author or DOI
      <input
        type="search"
        id="q"
        name="q"
        value="${q}"
        size="50"
        maxlength="200"
        minlength="${MIN_QUERY_LENGTH}"
        list="paper-suggestions"
        autocomplete="off"
        aria-describedby="q-help"
        data-autocomplete="/api/search-autocomplete/?q="
        data-autocomplete-items="suggestions"
        data-autocomplete-label="title"
    /></label>
    <datalist id="paper-suggestions"></datalist>
    <button type="submit">Search</button>
    <p id="q-help" class="muted">
      At least ${MIN_QUERY_LENGTH} characters; case does not matter. A DOI may be written as a doi.org address.
    </p>
  </form>`;
}

function resultCard(s: Suggestion, nature: Nature | undefined): SafeHtml {
  return html`<li class="card">
    <h3><a href="${paperHref(s.record_id)}">${s.title}</a></h3>
    <ul class="badges">
      ${nature ? html`<li>${natureBadge(nature)}</li>` : ''}
      <li><span class="badge neutral">${formatCount(s.post_retraction_citations)} citations after the notice</span></li>
    </ul>
    <p class="muted">
      ${s.author.split('; ').slice(0, 4).join(', ')}${s.author.split('; ').length > 4 ? ' et al.' : ''}${s.journal ? html` · ${s.journal}` : ''}${
        s.retraction_date ? html` · notice ${s.retraction_date}` : ''
      }
    </p>
  </li>`;
}

export function searchPage(app: ServiceApp, db: RetractionDb, kit: PageKit): void {
  app.get('/', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const raw = param(request.query, 'q') ?? '';
      const title = 'Search retracted papers';
      const intro = html`<h1>${title}</h1>
        <p>
          Retraction Watch records with the citations they received before and after their notice. Expressions of concern, corrections and
          reinstatements are notices too, and are labelled as such: only a retraction is a retracted paper.
        </p>`;
      let q: string | undefined;
      try {
        if (raw.length > 200) throw badRequest('q must be at most 200 characters long');
        q = cleanText(raw);
        if (q !== undefined && [...q].length < MIN_QUERY_LENGTH)
          throw badRequest(`q must be at least ${MIN_QUERY_LENGTH} characters long after trimming spaces (got ${[...q].length})`);
      } catch (error) {
        const { status, message } = clientError(error);
        return { status, title, section: '/', body: html`${intro}${searchForm(raw.slice(0, 200))}${errorNote(message)}` };
      }
      if (q) {
        const found = await autocomplete(db, q, SEARCH_RESULTS);
        const natures = await naturesOf(
          db,
          found.map((s) => s.record_id),
        );
        return {
          title: `“${q}” · ${title}`,
          section: '/',
          body: html`${intro}${searchForm(q)}
            <h2 id="results">Results</h2>
            <p role="status">
              ${
                found.length === 0
                  ? 'No record has these words in its title, authors or DOI.'
                  : found.length === SEARCH_RESULTS
                    ? html`The best ${SEARCH_RESULTS} matches, best first (exact DOI, exact title, title starting with the words, …). Add
                      words to narrow the search.`
                    : html`${formatCount(found.length)} record${found.length === 1 ? '' : 's'} match, best first.`
              }
            </p>
            <ol class="results">
              ${found.map((s) => resultCard(s, natures.get(s.record_id)))}
            </ol>`,
        };
      }
      let landing: SafeHtml;
      try {
        const report = await postRetractionReport(db, { timeFilter: 'all', nature: 'retraction' });
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
        body: html`${intro}${searchForm('')}${landing}`,
      };
    }),
  );
}
