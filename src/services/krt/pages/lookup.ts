// `/`: look up a paper. A GET form (a DOI in any usual form, or words of a title) with suggestions as you type from
// /api/doi-suggestions/ (pdi.js); a DOI the store holds goes straight to its page, words list the matching papers
// (the same ranking as the API), and without a query the newest papers of the store are listed.
import { cleanText } from '../../../core/http/params.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { KrtAnswers } from '../answers.ts';
import { normalizeDoi } from '../jats/index.ts';
import type { SuggestionItem } from '../repository.ts';
import { clientError, errorNote, field, limitedText, plural, sendPage } from './shared.ts';

export const LOOKUP_RESULTS = 20;

export function paperHref(doi: string): string {
  return `/paper?doi=${encodeURIComponent(doi)}`;
}

function lookupForm(q: string): SafeHtml {
  return html`<form class="filters lookup" method="get" action="/" role="search">
    <label for="q"
      >DOI or words of a title
      <input
        type="search"
        id="q"
        name="q"
        value="${q}"
        size="48"
        maxlength="200"
        list="doi-suggestions"
        autocomplete="off"
        spellcheck="false"
        aria-describedby="q-help"
        data-autocomplete="/api/doi-suggestions/?limit=10&amp;q="
        data-autocomplete-items="suggestions"
        data-autocomplete-label="doi"
        data-autocomplete-min="2"
    /></label>
    <datalist id="doi-suggestions"></datalist>
    <button type="submit">Look up</button>
    <p id="q-help" class="muted">
      For example <code>10.1101/2021.09.08.459408</code>, <code>doi:10.1101/…</code>, a bioRxiv address, or words such as
      <em>neurite outgrowth</em>.
    </p>
  </form>`;
}

function resultList(items: readonly SuggestionItem[]): SafeHtml {
  return html`<ol class="results">
    ${items.map(
      (a) =>
        html`<li class="card">
          <h3><a href="${paperHref(a.doi)}">${a.title}</a></h3>
          <p class="muted">
            <code>${a.doi}</code>${a.publication_date ? html` · ${a.publication_date}` : ''}${a.authors ? html` · ${a.authors}` : ''}
            ${a.is_demo ? html` <span class="badge warn">generated demo article</span>` : ''}
          </p>
        </li>`,
    )}
  </ol>`;
}

export function lookupPage(app: ServiceApp, answers: KrtAnswers, kit: PageKit): void {
  app.get('/', { config: { responseCache: true } }, async (request, reply) => {
    const raw = field(request.query, 'q') ?? '';
    let q: string | undefined;
    try {
      q = cleanText(limitedText('q', raw, 200));
    } catch (error) {
      const { status, message } = clientError(error);
      return sendPage(kit, request, reply, async () => ({
        status,
        title: 'Look up a paper',
        section: '/',
        body: html`<h1>Look up a paper</h1>
          ${lookupForm(raw.slice(0, 200))} ${errorNote(message)}`,
      }));
    }
    const doi = q ? normalizeDoi(q) : null;
    if (doi) {
      const check = await answers.checkDoi(doi);
      if (check.available) return reply.code(303).header('cache-control', 'no-store').redirect(paperHref(doi), 303);
    }
    return sendPage(kit, request, reply, async () => {
      const found = await answers.doiSuggestions(q, LOOKUP_RESULTS);
      let results: SafeHtml;
      let status: number | undefined;
      if (doi) {
        status = 404;
        results = html`<p class="note" role="status">
            <strong>${doi}</strong> is not in the local store: the service answers only for the preprints it holds.
          </p>
          ${
            found.suggestions.length > 0
              ? html`<h2>Similar DOIs in the store</h2>
                  ${resultList(found.suggestions)}`
              : ''
          }`;
      } else if (q) {
        results = html`<h2 id="results">Papers matching “${q}”</h2>
          <p role="status">
            ${
              found.total_available === 0
                ? 'No paper of the store has these words in its title or DOI.'
                : html`${plural(found.total_available, 'paper')}
                  match${found.total_available === 1 ? 'es' : ''}${
                    found.total_available > LOOKUP_RESULTS ? html`; the best ${LOOKUP_RESULTS} are listed` : ''
                  }.`
            }
          </p>
          ${resultList(found.suggestions)}`;
      } else {
        results = html`<h2 id="results">Newest papers in the store</h2>
          <p>
            The store holds
            ${plural(found.total_available, 'paper')}${
              found.total_available > LOOKUP_RESULTS ? html`; the ${LOOKUP_RESULTS} newest are listed` : ''
            }.
          </p>
          ${resultList(found.suggestions)}`;
      }
      return {
        status,
        title: q ? `Papers matching “${q}”` : 'Look up a paper',
        description: 'Find a preprint of the local store by DOI or title and see its key resources table.',
        section: '/',
        body: html`<h1>Look up a paper</h1>
          <p>
            Find a preprint by its DOI to see its key resources table, check its RRIDs and download it — or
            <a href="/chat">build a table in the chat</a>.
          </p>
          ${lookupForm(q ?? '')} ${results}`,
      };
    });
  });
}
