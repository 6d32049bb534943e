// `/search`: one search over recommendations, guidelines and reviews, validated by the schema of GET /api/search/ and
// read by the function it uses. A GET form with the API's filters, the facets as links with their counts (a link adds
// that filter), the ranked results as cards, and the matches by year as a chart with its table. A bad filter redraws
// the form with the API's message (400).
import type { Static } from 'typebox';
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { EvidenceSearchResult, Facet, FacetValue } from '../evidence-search.ts';
import { runEvidenceSearch } from '../routes/search.ts';
import { CERTAINTIES, DOCUMENT_KINDS, EvidenceSearchQuery, FACETS } from '../schemas/index.ts';
import type { EvidenceHit } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import { certaintyBadge, certaintyOf, filterSelects, option, pager, recommendationBadges, wordsField, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

export const EVIDENCE_PER_PAGE = 20;

const FORM_FIELDS = ['q', ...FACETS] as const;
type Form = Record<(typeof FORM_FIELDS)[number], string>;

function formOf(raw: Readonly<Record<string, string>>): Form {
  return Object.fromEntries(FORM_FIELDS.map((f) => [f, raw[f] ?? ''])) as Form;
}

function facetList(facet: Facet, values: FacetValue[], form: Form, w: Words): SafeHtml {
  const { t } = w;
  const chosen = form[facet].trim().toLowerCase();
  const link = (value: string | undefined) => `/search${queryString({ ...form, [facet]: value, page: undefined })}#results`;
  // The kinds and certainties in the page's words; the other facets' labels are data (names of countries, topics, years).
  const labelOf = (v: FacetValue) =>
    facet === 'kind' ? t(`facetKind.${v.value as 'review'}`) : facet === 'certainty' ? certaintyOf(v.value, w).label : v.label;
  return html`<details class="facet" open>
    <summary>${t(`facet.${facet}`)}</summary>
    ${
      values.length === 0
        ? html`<p class="muted">${t('evidence.facetNone')}</p>`
        : html`<ul>
            ${values.map((v) =>
              v.value.toLowerCase() === chosen
                ? html`<li>
                    <strong aria-current="true">${t('evidence.facetCount', { label: labelOf(v), count: v.count })}</strong> ·
                    <a href="${link(undefined)}">${t('evidence.facetAny')}</a>
                  </li>`
                : html`<li><a href="${link(v.value)}">${labelOf(v)}</a> ${t('evidence.facetCountAfter', { count: v.count })}</li>`,
            )}
          </ul>`
    }
  </details>`;
}

function hitCard(hit: Static<typeof EvidenceHit>, w: Words): SafeHtml {
  const { t } = w;
  const summary = hit.certainty_summary;
  return html`<li class="card evidence-hit">
    <p class="muted">
      ${t(`kind.${hit.kind}`)}${hit.year === null ? '' : html` · ${hit.year}`}${hit.country ? html` · ${hit.country}` : ''}${
        hit.is_demo ? html` <span class="badge warn">${t('common.generatedDemo')}</span>` : ''
      }
    </p>
    <h3><a href="${hit.path}">${hit.review_id ? html`<span class="muted">${hit.review_id}</span> ` : ''}${hit.title}</a></h3>
    ${
      hit.kind === 'recommendation'
        ? recommendationBadges({ strength: hit.strength, evidence_quality: hit.evidence_quality, grade: null }, w)
        : ''
    }
    ${
      summary
        ? html`<ul class="badges">
            ${CERTAINTIES.filter((c) => summary[c] > 0).map(
              (c) => html`<li>${certaintyBadge(c, w, (label) => t('evidence.outcomes', { n: summary[c], label }))}</li>`,
            )}
          </ul>`
        : ''
    }
    ${hit.excerpt ? html`<p>${hit.excerpt}</p>` : ''}
    ${hit.guideline ? html`<p class="source">${t('card.from')} <a href="/guidelines/${hit.guideline.id}">${hit.guideline.title}</a></p>` : ''}
    ${hit.topics.length > 0 ? html`<p class="muted">${t('card.topics', { topics: hit.topics.map((x) => x.name).join(', ') })}</p>` : ''}
  </li>`;
}

/** The matches by year, oldest first (the year facet's counts: every filter but the year applies). */
function yearChart(result: EvidenceSearchResult, { t }: Words) {
  const years = [...result.facets.year].sort((a, b) => Number(a.value) - Number(b.value));
  return barChart({
    id: 'evidence-by-year',
    title: t('chart.byYear.title'),
    description: t('chart.byYear.description'),
    categories: years.map((y) => y.label),
    series: [{ name: t('chart.byYear.series'), values: years.map((y) => y.count) }],
    valueName: t('chart.byYear.value'),
  });
}

function frame(form: Form, results: HtmlValue, w: Words) {
  const { t } = w;
  return {
    title: form.q ? t('evidence.titleFor', { q: form.q }) : t('evidence.title'),
    description: t('evidence.description'),
    section: '/search',
    body: html`<h1>${t('evidence.title')}</h1>
      <p class="lead">${t('evidence.lead')}</p>
      <form class="filters" method="get" action="/search" role="search" aria-label="${t('evidence.title')}">
        ${wordsField(form.q, w)}
        <label
          >${t('evidence.kind')}
          <select name="kind">
            ${option('', t('evidence.anyKind'), form.kind)} ${DOCUMENT_KINDS.map((k) => option(k, t(`kind.${k}`), form.kind.toLowerCase()))}
          </select>
        </label>
        ${filterSelects.country(form.country, w)} ${filterSelects.topic(form.topic, w)}
        <label
          >${t('evidence.year')} <input type="number" name="year" value="${form.year}" min="1900" max="2100" inputmode="numeric"
        /></label>
        ${filterSelects.strength(form.strength, w)} ${filterSelects.evidenceQuality(form.evidence_quality, w)}
        <label
          >${t('evidence.certainty')}
          <select name="certainty">
            ${option('', t('evidence.anyCertainty'), form.certainty)}
            ${CERTAINTIES.map((c) => option(c, certaintyOf(c, w).label, form.certainty.toLowerCase()))}
          </select>
        </label>
        <button type="submit">${t('common.search')}</button>
      </form>
      ${results}`,
  };
}

export function evidencePage(app: ServiceApp, state: OralState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/search',
    query: EvidenceSearchQuery,
    read: async ({ query }) => (await runEvidenceSearch(state, query, { page: query.page, limit: EVIDENCE_PER_PAGE })).result,
    render(result, input) {
      const w = wordsOf(input.locale);
      const { t } = w;
      const form = formOf(input.form);
      const page = input.query.page;
      const totalPages = Math.max(1, Math.ceil(result.total / EVIDENCE_PER_PAGE));
      const first = (page - 1) * EVIDENCE_PER_PAGE + 1;
      const count =
        result.total === 0
          ? t('evidence.none')
          : result.rows.length === 0
            ? t('evidence.pastLast', { total: result.total, page, pages: totalPages })
            : t('evidence.count', {
                total: result.total,
                first,
                last: first + result.rows.length - 1,
                order: input.query.q?.trim() ? 'relevance' : 'newest',
              });
      const chart = result.facets.year.length > 0 ? input.chart('evidence-by-year', () => yearChart(result, w)) : '';
      return frame(
        form,
        html`<h2 id="results">${t('common.results')}</h2>
          <p class="count" role="status">${count}</p>
          <div class="grid-2">
            <section aria-label="${t('evidence.refineLabel')}">
              <h3>${t('evidence.refine')}</h3>
              ${FACETS.map((f) => facetList(f, result.facets[f], form, w))}
            </section>
            <section aria-label="${t('evidence.matchingLabel')}">
              <ol class="results">
                ${result.rows.map((hit) => hitCard(hit, w))}
              </ol>
              ${pager('/search', form, page, totalPages, w)}
            </section>
          </div>
          ${chart}`,
        w,
      );
    },
    refused: (problem, { form, locale }) => frame(formOf(form), errorNote(problem.message, locale), wordsOf(locale)),
  });
}
