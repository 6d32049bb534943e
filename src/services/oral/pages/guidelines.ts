// `/guidelines`: the guidelines (words and country, as GET /api/guidelines/), and `/guidelines/:id`: one
// guideline with its recommendations, and how strong they are against how good their evidence is.
import type { Static } from 'typebox';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { externalLink, html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { getGuideline, guidelineRecommendations, listGuidelines } from '../repository.ts';
import { parseCountry } from '../routes/common.ts';
import type { Guideline, Recommendation } from '../schemas/index.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS } from '../sources/index.ts';
import type { OralState } from '../state.ts';
import {
  checkText,
  clientError,
  errorNote,
  formatCount,
  option,
  pager,
  param,
  parsePageNumber,
  recommendationCard,
  sendPage,
} from './shared.ts';

const GUIDELINES_PER_PAGE = 20;

type GuidelineItem = Static<typeof Guideline>;

function guidelineCard(g: GuidelineItem): SafeHtml {
  return html`<li class="card">
    <h3><a href="/guidelines/${g.id}">${g.title}</a></h3>
    <p>
      ${g.organization.name} · ${g.organization.country.flag_emoji}
      ${g.region ?? g.organization.country.name}${g.publication_year ? html` · ${g.publication_year}` : ''} ·
      ${formatCount(g.recommendation_count)} recommendation${g.recommendation_count === 1 ? '' : 's'}
    </p>
    <ul class="badges">
      ${g.is_demo ? html`<li><span class="badge warn">Generated demo data</span></li>` : ''}
      ${g.is_active ? '' : html`<li><span class="badge bad">Withdrawn or superseded</span></li>`}
    </ul>
    <p class="muted">${g.description}</p>
  </li>`;
}

export function guidelinePages(app: ServiceApp, state: OralState, kit: PageKit): void {
  const { db } = state;
  app.get('/guidelines', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const form = { q: param(request.query, 'q') ?? '', country: param(request.query, 'country') ?? '' };
      let status: number | undefined;
      let results: SafeHtml;
      try {
        const country = parseCountry(form.country);
        const page = parsePageNumber(param(request.query, 'page'));
        const found = await listGuidelines(
          db,
          { q: cleanText(checkText('q', form.q)), country: country?.code },
          { page, limit: GUIDELINES_PER_PAGE },
        );
        const totalPages = Math.max(1, Math.ceil(found.total / GUIDELINES_PER_PAGE));
        results = html`<h2>Guidelines</h2>
          <p class="count" role="status">
            ${
              found.total === 0
                ? 'No guideline matches.'
                : html`${formatCount(found.total)} guideline${found.total === 1 ? '' : 's'}, newest
                  first${found.rows.length === 0 ? html`; page ${page} is past the last page (${totalPages})` : ''}.`
            }
          </p>
          <ol class="results">
            ${found.rows.map(guidelineCard)}
          </ol>
          ${pager('/guidelines', form, page, totalPages)}`;
      } catch (error) {
        const problem = clientError(error);
        status = problem.status;
        results = errorNote(problem.message);
      }
      return {
        title: 'Guidelines',
        description: 'Clinical practice guidelines on oral health, by country and organization.',
        section: '/guidelines',
        status,
        body: html`<h1>Clinical practice guidelines</h1>
          <form class="filters" method="get" action="/guidelines" role="search" aria-label="Search guidelines">
            <label>Words <input type="search" name="q" value="${form.q}" maxlength="200" /></label>
            <label
              >Country
              <select name="country">
                ${option('', 'Any country', form.country)} ${COUNTRIES.map((c) => option(c.code, c.name, form.country.toUpperCase()))}
              </select>
            </label>
            <button type="submit">Search</button>
          </form>
          ${results}`,
      };
    }),
  );

  app.get('/guidelines/:id', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const raw = (request.params as { id: string }).id;
      if (!/^\d{1,15}$/.test(raw)) throw badRequest(`a guideline id is a positive whole number, got "${raw}"`);
      const guideline = await getGuideline(db, Number(raw));
      if (!guideline) throw notFound(`guideline ${raw} not found`);
      const recommendations = await guidelineRecommendations(state, guideline.id);
      const g = guideline;
      return {
        title: g.title,
        description: `${g.title} (${g.organization.name}): ${g.recommendation_count} recommendations with their strength and evidence.`,
        section: '/guidelines',
        body: html`<p class="breadcrumbs"><a href="/guidelines">Guidelines</a> ›</p>
          <h1>${g.title}</h1>
          ${
            g.is_demo
              ? html`<p class="note warn" role="note">
                  <strong>Generated demo guideline.</strong> Not a real publication; no advice here is real.
                </p>`
              : ''
          }
          <dl class="facts">
            <dt>Organization</dt>
            <dd>${externalLink(g.organization.website, g.organization.name)}</dd>
            <dt>Country</dt>
            <dd>${g.organization.country.flag_emoji} ${g.organization.country.name}${g.region ? html` (${g.region})` : ''}</dd>
            <dt>Published</dt>
            <dd>${g.publication_year ?? 'year not stated'}</dd>
            <dt>Status</dt>
            <dd>${g.is_active ? 'Current' : 'Withdrawn or superseded'}</dd>
            ${
              g.url
                ? html`<dt>Source</dt>
                    <dd>${externalLink(g.url)}</dd>`
                : ''
            }
          </dl>
          <p>${g.description}</p>
          <h2>Strength against quality of evidence</h2>
          ${strengthByQuality(recommendations)}
          <h2>${formatCount(recommendations.length)} recommendation${recommendations.length === 1 ? '' : 's'}</h2>
          <ol class="results">
            ${recommendations.map((r) => recommendationCard(r, false))}
          </ol>`,
      };
    }),
  );
}

/** A count table: rows are strengths, columns evidence qualities ("not stated" where the source gives none). */
function strengthByQuality(recommendations: Array<Static<typeof Recommendation>>): SafeHtml {
  const strengths = [...STRENGTHS.entries.map((s) => s.name), 'Not stated'];
  const qualities = [...EVIDENCE_QUALITIES.entries.map((q) => q.name), 'Not graded'];
  const count = (s: string, q: string) =>
    recommendations.filter((r) => (r.strength?.name ?? 'Not stated') === s && (r.evidence_quality?.name ?? 'Not graded') === q).length;
  const usedStrengths = strengths.filter((s) => qualities.some((q) => count(s, q) > 0));
  const usedQualities = qualities.filter((q) => strengths.some((s) => count(s, q) > 0));
  if (usedStrengths.length === 0) return html`<p>This guideline has no recommendations stored.</p>`;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        Recommendations of this guideline by strength (rows) and quality of evidence (columns)
      </caption>
      <thead>
        <tr>
          <th scope="col">Strength</th>
          ${usedQualities.map((q) => html`<th scope="col" class="num">${q}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${usedStrengths.map(
          (s) =>
            html`<tr>
              <th scope="row">${s}</th>
              ${usedQualities.map((q) => html`<td class="num">${count(s, q)}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
