// `/reviews`: the systematic reviews (validated and read as GET /api/reviews/), and `/reviews/:review_id`: one review
// with its summary-of-findings table and forest plots of its effects with 95% confidence intervals, coloured by GRADE
// certainty (ratios on a log axis; each difference measure on its own axis). Rows whose effect cannot be read are
// listed with the reason, not plotted. A listed title the review's own rows do not confirm is said to be unconfirmed,
// in words.
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { notFound } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { externalLink, html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import { errorNote } from '../../../core/pages/replies.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { getReview, listReviews } from '../repository.ts';
import { getReviewSchema, listReviewsSchema } from '../schemas/index.ts';
import type { Review, ReviewDetail } from '../schemas/index.ts';
import type { OralDatabase } from '../tables.ts';
import { CERTAINTIES, certaintyBadge, pager, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';
import { forestPlots, summaryOfFindings } from './review-effects.ts';

const REVIEWS_PER_PAGE = 20;

type ReviewItem = Static<typeof Review>;
type ReviewDetailItem = Static<typeof ReviewDetail>;

/** What a reader must know about a review's title, in words (null when the listed title is confirmed). */
function titleNotice(review: Pick<ReviewItem, 'review_id' | 'title_verified' | 'listed_title'>, { t }: Words): SafeHtml | null {
  if (review.title_verified) return null;
  return review.listed_title
    ? html`<p class="note warn" role="note">
        <strong>${t('review.unconfirmedTitle')}</strong>
        ${t('review.unconfirmedText', { id: review.review_id, title: review.listed_title })}
      </p>`
    : html`<p class="note warn" role="note">
        <strong>${t('review.unlistedTitle')}</strong> ${t('review.unlistedText', { id: review.review_id })}
      </p>`;
}

function certaintySummary(review: ReviewItem, w: Words): SafeHtml {
  const { t } = w;
  const s = review.certainty_summary;
  const rated = s.high + s.moderate + s.low + s.very_low;
  return html`<ul class="badges" aria-label="${t('reviews.byCertainty')}">
    ${CERTAINTIES.map((c) => (s[c] > 0 ? html`<li>${certaintyBadge(c, w, (label) => t('reviews.times', { n: s[c], label }))}</li>` : ''))}
    ${
      review.outcome_count > rated
        ? html`<li><span class="badge neutral">${t('reviews.notRatedTimes', { n: review.outcome_count - rated })}</span></li>`
        : ''
    }
  </ul>`;
}

function reviewCard(review: ReviewItem, w: Words): SafeHtml {
  const { t } = w;
  return html`<li class="card">
    <h3><a href="/reviews/${review.review_id}">${review.review_id}</a>: ${review.title}</h3>
    ${
      review.title_verified
        ? ''
        : html`<p class="muted">
            <span class="badge warn">${t('reviews.titleNotConfirmed')}</span>
            ${review.listed_title ? t('reviews.listedAs', { title: review.listed_title }) : t('reviews.noTitleListed')}
          </p>`
    }
    <p>
      ${t('reviews.outcomes', { n: review.outcome_count })}${
        review.publication_date ? t('reviews.published', { date: review.publication_date }) : ''
      }${review.is_demo ? html` · <span class="badge warn">${t('common.generatedDemo')}</span>` : ''}
    </p>
    ${certaintySummary(review, w)}
  </li>`;
}

function listFrame(q: string, results: HtmlValue, { t }: Words) {
  return {
    title: t('reviews.title'),
    description: t('reviews.description'),
    section: '/reviews',
    body: html`<h1>${t('reviews.title')}</h1>
      <p class="lead">${t('reviews.lead')}</p>
      <form class="filters" method="get" action="/reviews" role="search" aria-label="${t('reviews.formLabel')}">
        <label
          >${t('reviews.field')}
          <input
            type="search"
            name="q"
            value="${q}"
            maxlength="200"
            placeholder="${t('reviews.placeholder')}"
            list="review-suggestions"
            autocomplete="off"
            data-autocomplete="/api/reviews/?limit=10&amp;q="
            data-autocomplete-items="data"
            data-autocomplete-label="review_id"
          />
        </label>
        <datalist id="review-suggestions"></datalist>
        <button type="submit">${t('common.search')}</button>
      </form>
      ${results}`,
  };
}

export function reviewPages(app: ServiceApp, db: Kysely<OralDatabase>, kit: PageKit): void {
  definePage(app, kit, {
    url: '/reviews',
    query: listReviewsSchema.querystring,
    read: ({ query }) => listReviews(db, { q: cleanText(query.q) }, { page: query.page, limit: REVIEWS_PER_PAGE }),
    render(found, { query, form, locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const q = form.q ?? '';
      const totalPages = Math.max(1, Math.ceil(found.total / REVIEWS_PER_PAGE));
      const past = found.rows.length === 0 ? 'yes' : 'no';
      return listFrame(
        q,
        html`<h2>${t('reviews.results')}</h2>
          <p class="count" role="status">
            ${found.total === 0 ? t('reviews.none') : t('reviews.count', { total: found.total, past, page: query.page, pages: totalPages })}
          </p>
          <ol class="results">
            ${found.rows.map((r) => reviewCard(r, w))}
          </ol>
          ${pager('/reviews', { q }, query.page, totalPages, w)}`,
        w,
      );
    },
    refused: (problem, { form, locale }) => listFrame(form.q ?? '', errorNote(problem.message, locale), wordsOf(locale)),
  });

  definePage(app, kit, {
    url: '/reviews/:review_id',
    params: getReviewSchema.params,
    async read({ params }) {
      const review = await getReview(db, params.review_id);
      if (!review) throw notFound(`review ${params.review_id} not found`);
      return review;
    },
    render(review, input) {
      const w = wordsOf(input.locale);
      return {
        title: w.t('review.title', { id: review.review_id, title: review.title }),
        description: w.t('review.description', { id: review.review_id }),
        section: '/reviews',
        body: reviewBody(review, w, input.chart),
      };
    },
  });
}

function reviewFacts(review: ReviewDetailItem, { t }: Words): SafeHtml {
  return html`<dl class="facts">
    <dt>${t('review.version')}</dt>
    <dd>${t('review.versionValue', { version: review.version })}${review.publication_date ? html`, ${review.publication_date}` : ''}</dd>
    ${
      review.authors
        ? html`<dt>${t('review.authors')}</dt>
            <dd>${review.authors}</dd>`
        : ''
    }
    ${
      review.doi
        ? html`<dt>${t('review.doi')}</dt>
            <dd><a href="https://doi.org/${review.doi}">${review.doi}</a></dd>`
        : ''
    }
    ${
      review.url
        ? html`<dt>${t('review.cochrane')}</dt>
            <dd>${externalLink(review.url)}</dd>`
        : ''
    }
    <dt>${t('review.compares')}</dt>
    <dd>${review.description}</dd>
  </dl>`;
}

function reviewBody(
  review: ReviewDetailItem,
  w: Words,
  chart: (id: string, build: () => ReturnType<typeof forestPlots>['plots'][number]) => SafeHtml,
): SafeHtml {
  const { t } = w;
  const { plots, plotted, notPlotted } = forestPlots(review, w);
  const figures = plots.map((spec) => chart(spec.id, () => spec));
  const plottedCount = review.outcomes.length - notPlotted.length;
  return html`<p class="breadcrumbs"><a href="/reviews">${t('reviews.title')}</a> ›</p>
    <h1>${t('review.title', { id: review.review_id, title: review.title })}</h1>
    ${titleNotice(review, w)}
    ${review.is_demo ? html`<p class="note warn" role="note"><strong>${t('review.demoTitle')}</strong> ${t('review.demoText')}</p>` : ''}
    ${reviewFacts(review, w)} ${certaintySummary(review, w)}
    ${
      review.abstract
        ? html`<details>
            <summary>${t('review.abstract')}</summary>
            <p>${review.abstract}</p>
          </details>`
        : ''
    }
    <h2>${t('review.effects')}</h2>
    <p>
      ${
        review.outcomes.length === 0
          ? t('review.noRows')
          : html`${t('review.plotted', { plotted: plottedCount, total: review.outcomes.length })}${
              notPlotted.length > 0
                ? html` ${t('review.notPlotted', { n: notPlotted.length })}
                    <a href="#not-plotted">${t('review.listedBelow')}</a> ${t('review.withReason')}`
                : ''
            }
            ${t('review.labelKey')}`
      }
    </p>
    ${figures}
    ${
      notPlotted.length > 0
        ? html`<h3 id="not-plotted">${t('review.notPlottedHeading')}</h3>
            <ul>
              ${notPlotted.map(
                (r) =>
                  html`<li>
                    ${t('review.notPlottedRow', { n: r.n, outcome: r.outcome.outcome ?? t('review.outcomeNotNamed'), reason: r.reason })}
                  </li>`,
              )}
            </ul>`
        : ''
    }
    <h2>${t('review.sof')}</h2>
    ${summaryOfFindings(review, plotted, w)}`;
}
