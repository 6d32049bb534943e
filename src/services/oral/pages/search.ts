// `/`: the evidence search. The API's filters (words, country, topic, strength, evidence quality) as a GET form,
// validated by the schema of GET /api/recommendations/ and read by the same function, and the results as cards with
// their strength and evidence badges. A bad filter redraws the form with the API's message (400).
import { html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { searchRecommendations } from '../routes/recommendations.ts';
import { RecommendationQuery } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { filterSelects, pager, recommendationCard, wordsField, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

export const RESULTS_PER_PAGE = 20;

const FORM_FIELDS = ['q', 'country', 'topic', 'strength', 'evidence_quality'] as const;
type Form = Record<(typeof FORM_FIELDS)[number], string>;

function formOf(raw: Readonly<Record<string, string>>): Form {
  return Object.fromEntries(FORM_FIELDS.map((f) => [f, raw[f] ?? ''])) as Form;
}

/** The page around its results (or the message of a bad filter): the form keeps what the client wrote. */
function frame(form: Form, results: HtmlValue, w: Words) {
  const { t } = w;
  return {
    title: form.q ? t('home.titleFor', { q: form.q }) : t('home.title'),
    description: t('home.description'),
    section: '/',
    body: html`<h1>${t('home.heading')}</h1>
      <p class="lead">${t('home.lead')} <a href="/reviews">${t('home.leadLink')}</a>.</p>
      <form class="filters" method="get" action="/" role="search" aria-label="${t('home.formLabel')}">
        ${wordsField(form.q, w)} ${filterSelects.country(form.country, w)} ${filterSelects.topic(form.topic, w)}
        ${filterSelects.strength(form.strength, w)} ${filterSelects.evidenceQuality(form.evidence_quality, w)}
        <button type="submit">${t('common.search')}</button>
      </form>
      ${results}`,
  };
}

export function searchPage(app: ServiceApp, state: OralState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/',
    query: RecommendationQuery,
    read: async ({ query }) => (await searchRecommendations(state, { ...query, limit: RESULTS_PER_PAGE })).result,
    render(found, { query, form: raw, locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const form = formOf(raw);
      const page = query.page;
      const totalPages = Math.max(1, Math.ceil(found.total / RESULTS_PER_PAGE));
      const first = (page - 1) * RESULTS_PER_PAGE + 1;
      const count =
        found.total === 0
          ? t('home.none')
          : found.rows.length === 0
            ? t('home.pastLast', { total: found.total, page, pages: totalPages })
            : t('home.count', { total: found.total, first, last: first + found.rows.length - 1 });
      return frame(
        form,
        html`<h2 id="results">${t('common.results')}</h2>
          <p class="count" role="status">${count}</p>
          <ol class="results">
            ${found.rows.map((rec) => recommendationCard(rec, true, w))}
          </ol>
          ${pager('/', form, page, totalPages, w)}`,
        w,
      );
    },
    refused: (problem, { form, locale }) => frame(formOf(form), errorNote(problem.message, locale), wordsOf(locale)),
  });
}
