// `/search`: one search over recommendations, guidelines and reviews, read by the function GET /api/search/
// uses. A GET form with the API's filters, the facets as links with their counts (a link adds that filter), the
// ranked results as cards, and the matches by year as a chart with its table. A bad filter redraws the form with
// the message (400).
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { EvidenceSearchResult, Facet, FacetValue } from '../evidence-search.ts';
import { runEvidenceSearch } from '../routes/search.ts';
import { CERTAINTIES, DOCUMENT_KINDS, FACETS } from '../schemas/index.ts';
import type { EvidenceHit } from '../schemas/index.ts';
import type { OralState } from '../state.ts';
import type { Static } from 'typebox';
import { badRequest } from '../../../core/http/errors.ts';
import {
  CERTAINTY,
  certaintyBadge,
  checkText,
  clientError,
  errorNote,
  formatCount,
  option,
  pager,
  param,
  parsePageNumber,
  recommendationBadges,
  sendPage,
  filterSelects,
} from './shared.ts';

export const EVIDENCE_PER_PAGE = 20;

const FACET_TITLES: Record<Facet, string> = {
  kind: 'Kind of document',
  country: 'Country',
  topic: 'Topic',
  year: 'Year',
  strength: 'Strength',
  evidence_quality: 'Evidence quality',
  certainty: 'Review certainty',
};

const KIND_LABELS = { recommendation: 'Recommendation', guideline: 'Guideline', review: 'Systematic review' } as const;

const FORM_FIELDS = ['q', ...FACETS] as const;
type Form = Record<(typeof FORM_FIELDS)[number], string>;

/** `year` as the API takes it: a whole number from 1900 to 2100 (blank: none). */
function parseYear(value: string): number | undefined {
  if (value.trim() === '') return undefined;
  const year = /^\s*\d{4}\s*$/.test(value) ? Number(value) : NaN;
  if (!(year >= 1900 && year <= 2100)) throw badRequest(`year must be a whole number from 1900 to 2100, got "${value}"`);
  return year;
}

function parseChoice<T extends string>(name: string, values: readonly T[], value: string): T | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  if (!(values as readonly string[]).includes(v)) throw badRequest(`${name} must be one of: ${values.join(', ')}`);
  return v as T;
}

function facetList(facet: Facet, values: FacetValue[], form: Form): SafeHtml {
  const chosen = form[facet].trim().toLowerCase();
  const link = (value: string | undefined) => `/search${queryString({ ...form, [facet]: value, page: undefined })}#results`;
  return html`<details class="facet" open>
    <summary>${FACET_TITLES[facet]}</summary>
    ${
      values.length === 0
        ? html`<p class="muted">None among the matches.</p>`
        : html`<ul>
            ${values.map((v) =>
              v.value.toLowerCase() === chosen
                ? html`<li>
                    <strong aria-current="true">${v.label} (${formatCount(v.count)})</strong> · <a href="${link(undefined)}">any</a>
                  </li>`
                : html`<li><a href="${link(v.value)}">${v.label}</a> (${formatCount(v.count)})</li>`,
            )}
          </ul>`
    }
  </details>`;
}

function hitCard(hit: Static<typeof EvidenceHit>): SafeHtml {
  return html`<li class="card evidence-hit">
    <p class="muted">
      ${KIND_LABELS[hit.kind]}${hit.year === null ? '' : html` · ${hit.year}`}${hit.country ? html` · ${hit.country}` : ''}${
        hit.is_demo ? html` <span class="badge warn">generated demo</span>` : ''
      }
    </p>
    <h3><a href="${hit.path}">${hit.review_id ? html`<span class="muted">${hit.review_id}</span> ` : ''}${hit.title}</a></h3>
    ${hit.kind === 'recommendation' ? recommendationBadges({ strength: hit.strength, evidence_quality: hit.evidence_quality, grade: null }) : ''}
    ${
      hit.certainty_summary
        ? html`<ul class="badges">
            ${CERTAINTIES.filter((c) => (hit.certainty_summary?.[c] ?? 0) > 0).map(
              (c) =>
                html`<li>${certaintyBadge(c, `${hit.certainty_summary?.[c]} outcome${hit.certainty_summary?.[c] === 1 ? '' : 's'}`)}</li>`,
            )}
          </ul>`
        : ''
    }
    ${hit.excerpt ? html`<p>${hit.excerpt}</p>` : ''}
    ${hit.guideline ? html`<p class="source">From <a href="/guidelines/${hit.guideline.id}">${hit.guideline.title}</a></p>` : ''}
    ${hit.topics.length > 0 ? html`<p class="muted">Topics: ${hit.topics.map((t) => t.name).join(', ')}</p>` : ''}
  </li>`;
}

/** The matches by year, oldest first (the year facet's counts: every filter but the year applies). */
function yearChart(result: EvidenceSearchResult) {
  const years = [...result.facets.year].sort((a, b) => Number(a.value) - Number(b.value));
  return barChart({
    id: 'evidence-by-year',
    title: 'Matches by year',
    description:
      'Documents matching the words and every filter but the year, by publication year (documents without a year are not counted).',
    categories: years.map((y) => y.label),
    series: [{ name: 'Documents', values: years.map((y) => y.count) }],
    valueName: 'documents',
  });
}

export function evidencePage(app: ServiceApp, state: OralState, kit: PageKit): void {
  app.get('/search', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const form = Object.fromEntries(FORM_FIELDS.map((f) => [f, param(request.query, f) ?? ''])) as Form;
      let results: { body: SafeHtml; status?: number };
      try {
        const text = checkText('q', form.q);
        const page = parsePageNumber(param(request.query, 'page'));
        const query = {
          q: text,
          kind: parseChoice('kind', DOCUMENT_KINDS, form.kind),
          country: form.country,
          topic: form.topic,
          year: parseYear(form.year),
          strength: form.strength,
          evidence_quality: form.evidence_quality,
          certainty: parseChoice('certainty', CERTAINTIES, form.certainty),
        };
        const { result, filters } = await runEvidenceSearch(state, query, { page, limit: EVIDENCE_PER_PAGE });
        const totalPages = Math.max(1, Math.ceil(result.total / EVIDENCE_PER_PAGE));
        const first = (page - 1) * EVIDENCE_PER_PAGE + 1;
        // Keyed by the data version and the validated filters (their canonical echo), never the raw query.
        const chart =
          result.facets.year.length > 0
            ? kit.charts.figure(`oral:search:${result.dataVersion}:${JSON.stringify(filters)}`, () => yearChart(result))
            : '';
        results = {
          body: html`<h2 id="results">Results</h2>
            <p class="count" role="status">
              ${
                result.total === 0
                  ? 'No document matches.'
                  : result.rows.length === 0
                    ? html`${formatCount(result.total)} documents match, but page ${page} is past the last page (${totalPages}).`
                    : html`${formatCount(result.total)} document${result.total === 1 ? '' : 's'} match${result.total === 1 ? 'es' : ''};
                      showing ${formatCount(first)}–${formatCount(first + result.rows.length - 1)},
                      ${text ? 'best match first' : 'newest first'}.`
              }
            </p>
            <div class="grid-2">
              <section aria-label="Refine the results">
                <h3>Refine</h3>
                ${FACETS.map((f) => facetList(f, result.facets[f], form))}
              </section>
              <section aria-label="Matching documents">
                <ol class="results">
                  ${result.rows.map(hitCard)}
                </ol>
                ${pager('/search', form, page, totalPages)}
              </section>
            </div>
            ${chart}`,
        };
      } catch (error) {
        const { status, message } = clientError(error);
        results = { status, body: errorNote(message) };
      }
      return {
        title: form.q ? `“${form.q}” in all the evidence` : 'Search all the evidence',
        description:
          'One search over oral health recommendations, clinical guidelines and systematic reviews, ranked, with counts by kind, topic and year.',
        section: '/search',
        status: results.status,
        body: html`<h1>Search all the evidence</h1>
          <p class="lead">
            Recommendations, the guidelines that make them and systematic reviews, in one list: the words as a phrase in a title first, then
            as a phrase in the text, then every word in a title, then every word anywhere. Accents and case are ignored.
          </p>
          <form class="filters" method="get" action="/search" role="search" aria-label="Search all the evidence">
            <label>Words <input type="search" name="q" value="${form.q}" maxlength="200" placeholder="e.g. fluoride varnish" /></label>
            <label
              >Kind
              <select name="kind">
                ${option('', 'Any kind', form.kind)} ${DOCUMENT_KINDS.map((k) => option(k, KIND_LABELS[k], form.kind.toLowerCase()))}
              </select>
            </label>
            ${filterSelects.country(form.country)} ${filterSelects.topic(form.topic)}
            <label>Year <input type="number" name="year" value="${form.year}" min="1900" max="2100" inputmode="numeric" /></label>
            ${filterSelects.strength(form.strength)} ${filterSelects.evidenceQuality(form.evidence_quality)}
            <label
              >Review certainty
              <select name="certainty">
                ${option('', 'Any certainty', form.certainty)}
                ${CERTAINTIES.map((c) => option(c, CERTAINTY[c].label, form.certainty.toLowerCase()))}
              </select>
            </label>
            <button type="submit">Search</button>
          </form>
          ${results.body}`,
      };
    }),
  );
}
