// `/`: look up a paper. A GET form (a DOI in any usual form, or words of a title) with suggestions as you type from
// /api/doi-suggestions/ (pdi.js); a DOI the store holds goes straight to its page, words list the matching papers
// (the same ranking as the API), and without a query the newest papers of the store are listed.
import { Type } from 'typebox';
import { cleanText } from '../../../core/http/params.ts';
import { html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { PageResult } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { KrtAnswers } from '../answers.ts';
import { normalizeDoi } from '../jats/index.ts';
import type { SuggestionItem } from '../repository.ts';
import { SuggestionsQuery } from '../schemas/doi.ts';
import { errorNote, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';
import { richMessage } from '../messages/index.ts';

export const LOOKUP_RESULTS = 20;

export function paperHref(doi: string): string {
  return `/paper?doi=${encodeURIComponent(doi)}`;
}

function lookupForm(q: string, w: Words): SafeHtml {
  const { t } = w;
  return html`<form class="filters lookup" method="get" action="/" role="search">
    <label for="q"
      >${t('lookup.field')}
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
    <button type="submit">${t('lookup.submit')}</button>
    <p id="q-help" class="muted">
      ${richMessage(
        t,
        'lookup.help',
        {},
        {
          doi: html`<code>10.1101/2021.09.08.459408</code>`,
          prefixed: html`<code>doi:10.1101/…</code>`,
          words: html`<em>${t('lookup.helpWords')}</em>`,
        },
      )}
    </p>
  </form>`;
}

function resultList(items: readonly SuggestionItem[], w: Words): SafeHtml {
  return html`<ol class="results">
    ${items.map(
      (a) =>
        html`<li class="card">
          <h3><a href="${paperHref(a.doi)}">${a.title}</a></h3>
          <p class="muted">
            <code>${a.doi}</code>${a.publication_date ? html` · ${a.publication_date}` : ''}${a.authors ? html` · ${a.authors}` : ''}
            ${a.is_demo ? html` <span class="badge warn">${w.t('badge.demoArticle')}</span>` : ''}
          </p>
        </li>`,
    )}
  </ol>`;
}

/** `?q=`: the look-up's text, as GET /api/doi-suggestions/ reads it. */
const LookupQuery = Type.Object({ q: SuggestionsQuery.properties.q });

type Found = Awaited<ReturnType<KrtAnswers['doiSuggestions']>>;

/** What the look-up found: the DOI it names and whether the store holds it, else the matching papers. */
interface Lookup {
  q: string | undefined;
  doi: string | null;
  stored: boolean;
  found: Found | null;
}

function results({ q, doi, found }: Lookup & { found: Found }, w: Words): SafeHtml {
  const { t } = w;
  const counts = { count: found.total_available, more: found.total_available > LOOKUP_RESULTS ? 'yes' : 'no', listed: LOOKUP_RESULTS };
  if (doi)
    return html`<p class="note" role="status">${richMessage(t, 'lookup.notStored', {}, { doi: html`<strong>${doi}</strong>` })}</p>
      ${
        found.suggestions.length > 0
          ? html`<h2>${t('lookup.similar')}</h2>
              ${resultList(found.suggestions, w)}`
          : ''
      }`;
  if (q)
    return html`<h2 id="results">${t('lookup.matching', { q })}</h2>
      <p role="status">${found.total_available === 0 ? t('lookup.noMatch') : t('lookup.matches', counts)}</p>
      ${resultList(found.suggestions, w)}`;
  return html`<h2 id="results">${t('lookup.newest')}</h2>
    <p>${t('lookup.holds', counts)}</p>
    ${resultList(found.suggestions, w)}`;
}

function lookupFrame(q: string, below: HtmlValue, w: Words): PageResult {
  const { t } = w;
  return {
    title: q ? t('lookup.matching', { q }) : t('lookup.title'),
    description: t('lookup.description'),
    section: '/',
    body: html`<h1>${t('lookup.title')}</h1>
      <p>${richMessage(t, 'lookup.lead', {}, { chat: html`<a href="/chat">${t('lookup.leadChat')}</a>` })}</p>
      ${lookupForm(q, w)} ${below}`,
  };
}

export function lookupPage(app: ServiceApp, answers: KrtAnswers, kit: PageKit): void {
  definePage(app, kit, {
    url: '/',
    query: LookupQuery,
    async read({ query }): Promise<Lookup> {
      const q = cleanText(query.q);
      const doi = q ? normalizeDoi(q) : null;
      if (doi && (await answers.checkDoi(doi)).available) return { q, doi, stored: true, found: null };
      return { q, doi, stored: false, found: await answers.doiSuggestions(q, LOOKUP_RESULTS) };
    },
    render(lookup, { locale }) {
      if (lookup.stored && lookup.doi) return { redirect: paperHref(lookup.doi) };
      const w = wordsOf(locale);
      const page = lookupFrame(lookup.q ?? '', lookup.found ? results({ ...lookup, found: lookup.found }, w) : '', w);
      // A DOI the store does not hold: 404, with the papers whose DOI or title come closest.
      return lookup.doi ? { ...page, status: 404 } : page;
    },
    refused(problem, { form, locale }) {
      const w = wordsOf(locale);
      return { ...lookupFrame((form.q ?? '').slice(0, 200), errorNote(problem.message, locale), w), title: w.t('lookup.title') };
    },
  });
}
