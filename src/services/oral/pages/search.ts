// `/`: the evidence search. The API's filters (words, country, topic, strength, evidence quality) as a GET
// form, read by the same functions as GET /api/recommendations/, and the results as cards with their
// strength and evidence badges. A bad filter redraws the form with the message (400).
import { cleanText } from '../../../core/http/params.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { listRecommendations } from '../repository.ts';
import { parseCountry, parseVocabulary } from '../routes/common.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../sources/index.ts';
import type { OralState } from '../state.ts';
import {
  checkText,
  clientError,
  errorNote,
  formatCount,
  pager,
  param,
  parsePageNumber,
  recommendationCard,
  sendPage,
  filterSelects,
} from './shared.ts';

export const RESULTS_PER_PAGE = 20;

export function searchPage(app: ServiceApp, state: OralState, kit: PageKit): void {
  app.get('/', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const form = {
        q: param(request.query, 'q') ?? '',
        country: param(request.query, 'country') ?? '',
        topic: param(request.query, 'topic') ?? '',
        strength: param(request.query, 'strength') ?? '',
        evidence_quality: param(request.query, 'evidence_quality') ?? '',
      };
      let results: { body: ReturnType<typeof html>; status?: number };
      try {
        const country = parseCountry(form.country);
        const topic = parseVocabulary(TOPICS, 'topic', form.topic);
        const strength = parseVocabulary(STRENGTHS, 'strength', form.strength);
        const quality = parseVocabulary(EVIDENCE_QUALITIES, 'evidence_quality', form.evidence_quality);
        const text = cleanText(checkText('q', form.q));
        const page = parsePageNumber(param(request.query, 'page'));
        const found = await listRecommendations(
          state,
          { q: text, country: country?.code, topicId: topic?.id, strengthId: strength?.id, evidenceQualityId: quality?.id },
          { page, limit: RESULTS_PER_PAGE },
        );
        const totalPages = Math.max(1, Math.ceil(found.total / RESULTS_PER_PAGE));
        const first = (page - 1) * RESULTS_PER_PAGE + 1;
        results = {
          body: html`<h2 id="results">Results</h2>
            <p class="count" role="status">
              ${
                found.total === 0
                  ? 'No recommendation matches these filters.'
                  : found.rows.length === 0
                    ? html`${formatCount(found.total)} recommendations match, but page ${page} is past the last page (${totalPages}).`
                    : html`${formatCount(found.total)} recommendation${found.total === 1 ? '' : 's'} match${found.total === 1 ? 'es' : ''};
                      showing ${formatCount(first)}–${formatCount(first + found.rows.length - 1)}, newest guideline first.`
              }
            </p>
            <ol class="results">
              ${found.rows.map((rec) => recommendationCard(rec, true))}
            </ol>
            ${pager('/', form, page, totalPages)}`,
        };
      } catch (error) {
        const { status, message } = clientError(error);
        results = { status, body: errorNote(message) };
      }
      return {
        title: form.q ? `“${form.q}” in the evidence` : 'Search the evidence',
        description:
          'Search oral health recommendations from clinical guidelines by words, country, topic, strength and quality of evidence.',
        section: '/',
        status: results.status,
        body: html`<h1>Search oral health evidence</h1>
          <p class="lead">
            Recommendations of clinical practice guidelines, each with the strength the guideline gives it and the quality of the evidence
            behind it. Systematic reviews and their effects are under <a href="/reviews">Reviews</a>.
          </p>
          <form class="filters" method="get" action="/" role="search" aria-label="Search recommendations">
            <label
              >Words
              <input type="search" name="q" value="${form.q}" maxlength="200" placeholder="e.g. fluoride varnish" />
            </label>
            ${filterSelects.country(form.country)} ${filterSelects.topic(form.topic)} ${filterSelects.strength(form.strength)}
            ${filterSelects.evidenceQuality(form.evidence_quality)}
            <button type="submit">Search</button>
          </form>
          ${results.body}`,
      };
    }),
  );
}
