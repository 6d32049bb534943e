// `/guidelines`: the guidelines (words and country, validated by the schema of GET /api/guidelines/ and read as it
// reads them), and `/guidelines/:id`: one guideline with its recommendations, and how strong they are against how
// good their evidence is.
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { notFound } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { externalLink, html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { getGuideline, guidelineRecommendations, listGuidelines } from '../repository.ts';
import { parseCountry } from '../routes/common.ts';
import { listGuidelinesSchema } from '../schemas/index.ts';
import type { Guideline, Recommendation } from '../schemas/index.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS } from '../sources/index.ts';
import type { OralState } from '../state.ts';
import { option, pager, recommendationCard, wordsField, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

const GUIDELINES_PER_PAGE = 20;

/** A guideline's id: a positive whole number (ids are integers in both databases). */
const GuidelineParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

type GuidelineItem = Static<typeof Guideline>;

function guidelineCard(g: GuidelineItem, { t }: Words): SafeHtml {
  return html`<li class="card">
    <h3><a href="/guidelines/${g.id}">${g.title}</a></h3>
    <p>
      ${g.organization.name} · ${g.organization.country.flag_emoji}
      ${g.region ?? g.organization.country.name}${g.publication_year ? html` · ${g.publication_year}` : ''} ·
      ${t('guidelines.recommendations', { n: g.recommendation_count })}
    </p>
    <ul class="badges">
      ${g.is_demo ? html`<li><span class="badge warn">${t('guidelines.demo')}</span></li>` : ''}
      ${g.is_active ? '' : html`<li><span class="badge bad">${t('guidelines.withdrawn')}</span></li>`}
    </ul>
    <p class="muted">${g.description}</p>
  </li>`;
}

function listFrame(form: { q: string; country: string }, results: HtmlValue, w: Words) {
  const { t } = w;
  return {
    title: t('guidelines.title'),
    description: t('guidelines.description'),
    section: '/guidelines',
    body: html`<h1>${t('guidelines.heading')}</h1>
      <form class="filters" method="get" action="/guidelines" role="search" aria-label="${t('guidelines.formLabel')}">
        ${wordsField(form.q, w, false)}
        <label
          >${t('common.country')}
          <select name="country">
            ${option('', t('common.anyCountry'), form.country)} ${COUNTRIES.map((c) => option(c.code, c.name, form.country.toUpperCase()))}
          </select>
        </label>
        <button type="submit">${t('common.search')}</button>
      </form>
      ${results}`,
  };
}

const formOf = (raw: Readonly<Record<string, string>>) => ({ q: raw.q ?? '', country: raw.country ?? '' });

export function guidelinePages(app: ServiceApp, state: OralState, kit: PageKit): void {
  const { db } = state;
  definePage(app, kit, {
    url: '/guidelines',
    query: listGuidelinesSchema.querystring,
    read: async ({ query }) =>
      listGuidelines(
        db,
        { q: cleanText(query.q), country: parseCountry(query.country)?.code },
        { page: query.page, limit: GUIDELINES_PER_PAGE },
      ),
    render(found, { query, form: raw, locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const form = formOf(raw);
      const totalPages = Math.max(1, Math.ceil(found.total / GUIDELINES_PER_PAGE));
      const past = found.rows.length === 0 ? 'yes' : 'no';
      return listFrame(
        form,
        html`<h2>${t('guidelines.title')}</h2>
          <p class="count" role="status">
            ${found.total === 0 ? t('guidelines.none') : t('guidelines.count', { total: found.total, past, page: query.page, pages: totalPages })}
          </p>
          <ol class="results">
            ${found.rows.map((g) => guidelineCard(g, w))}
          </ol>
          ${pager('/guidelines', form, query.page, totalPages, w)}`,
        w,
      );
    },
    refused: (problem, { form, locale }) => listFrame(formOf(form), errorNote(problem.message, locale), wordsOf(locale)),
  });

  definePage(app, kit, {
    url: '/guidelines/:id',
    params: GuidelineParams,
    async read({ params }) {
      const guideline = await getGuideline(db, params.id);
      if (!guideline) throw notFound(`guideline ${params.id} not found`);
      return { guideline, recommendations: await guidelineRecommendations(state, guideline.id) };
    },
    render: ({ guideline, recommendations }, { locale }) => guidelinePage(guideline, recommendations, wordsOf(locale)),
  });
}

function guidelinePage(g: NonNullable<Awaited<ReturnType<typeof getGuideline>>>, recommendations: RecommendationItem[], w: Words) {
  const { t } = w;
  return {
    title: g.title,
    description: t('guideline.description', { title: g.title, organization: g.organization.name, n: g.recommendation_count }),
    section: '/guidelines',
    body: html`<p class="breadcrumbs"><a href="/guidelines">${t('guidelines.title')}</a> ›</p>
      <h1>${g.title}</h1>
      ${g.is_demo ? html`<p class="note warn" role="note"><strong>${t('guideline.demoTitle')}</strong> ${t('guideline.demoText')}</p>` : ''}
      <dl class="facts">
        <dt>${t('guideline.organization')}</dt>
        <dd>${externalLink(g.organization.website, g.organization.name)}</dd>
        <dt>${t('guideline.country')}</dt>
        <dd>${g.organization.country.flag_emoji} ${g.organization.country.name}${g.region ? html` (${g.region})` : ''}</dd>
        <dt>${t('guideline.published')}</dt>
        <dd>${g.publication_year ?? t('guideline.yearNotStated')}</dd>
        <dt>${t('guideline.status')}</dt>
        <dd>${g.is_active ? t('guideline.current') : t('guidelines.withdrawn')}</dd>
        ${
          g.url
            ? html`<dt>${t('guideline.source')}</dt>
                <dd>${externalLink(g.url)}</dd>`
            : ''
        }
      </dl>
      <p>${g.description}</p>
      <h2>${t('guideline.matrix')}</h2>
      ${strengthByQuality(recommendations, w)}
      <h2>${t('guideline.recommendations', { n: recommendations.length })}</h2>
      <ol class="results">
        ${recommendations.map((r) => recommendationCard(r, false, w))}
      </ol>`,
  };
}

type RecommendationItem = Static<typeof Recommendation>;

/** A count table: rows are strengths, columns evidence qualities ("not stated" where the source gives none). */
function strengthByQuality(recommendations: RecommendationItem[], { t }: Words): SafeHtml {
  const notStated = t('guideline.notStated');
  const notGraded = t('guideline.notGraded');
  const strengths = [...STRENGTHS.entries.map((s) => s.name), notStated];
  const qualities = [...EVIDENCE_QUALITIES.entries.map((q) => q.name), notGraded];
  const count = (s: string, q: string) =>
    recommendations.filter((r) => (r.strength?.name ?? notStated) === s && (r.evidence_quality?.name ?? notGraded) === q).length;
  const usedStrengths = strengths.filter((s) => qualities.some((q) => count(s, q) > 0));
  const usedQualities = qualities.filter((q) => strengths.some((s) => count(s, q) > 0));
  if (usedStrengths.length === 0) return html`<p>${t('guideline.noRecommendations')}</p>`;
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('guideline.matrixCaption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('common.strength')}</th>
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
