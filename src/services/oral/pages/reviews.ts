// `/reviews`: the systematic reviews (as GET /api/reviews/), and `/reviews/:reviewId`: one review with its
// summary-of-findings table and forest plots of its effects with 95% confidence intervals, coloured by GRADE
// certainty (ratios on a log axis; each difference measure on its own axis). Rows whose effect cannot be
// read are listed with the reason, not plotted. A listed title the review's own rows do not confirm is said
// to be unconfirmed, in words.
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { cleanText } from '../../../core/http/params.ts';
import { externalLink, forestPlot, html } from '../../../core/pages/index.ts';
import type { ChartSpec, ForestRow, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { getReview, listReviews } from '../repository.ts';
import type { Review, ReviewDetail } from '../schemas/index.ts';
import type { OralDatabase } from '../tables.ts';
import { readEffect } from './effects.ts';
import type { MeasureKind } from './effects.ts';
import {
  CERTAINTY,
  NOT_RATED,
  certaintyBadge,
  certaintyOf,
  checkText,
  clientError,
  errorNote,
  formatCount,
  pager,
  param,
  parsePageNumber,
  sendPage,
} from './shared.ts';

const REVIEWS_PER_PAGE = 20;

type ReviewItem = Static<typeof Review>;
type ReviewDetailItem = Static<typeof ReviewDetail>;
type Outcome = ReviewDetailItem['outcomes'][number];

/** What a reader must know about a review's title, in words (null when the listed title is confirmed). */
function titleNotice(review: Pick<ReviewItem, 'review_id' | 'title_verified' | 'listed_title'>): SafeHtml | null {
  if (review.title_verified) return null;
  return review.listed_title
    ? html`<p class="note warn" role="note">
        <strong>Title not confirmed.</strong> The source’s list of titles names ${review.review_id} “${review.listed_title}”, but this
        review’s own outcomes do not match that title, so it is not used: the title shown is built from the review’s populations,
        interventions and comparisons.
      </p>`
    : html`<p class="note warn" role="note">
        <strong>No listed title.</strong> The source lists no title for ${review.review_id}; the title shown is built from the review’s own
        outcomes.
      </p>`;
}

function certaintySummary(review: ReviewItem): SafeHtml {
  const s = review.certainty_summary;
  const rated = s.high + s.moderate + s.low + s.very_low;
  return html`<ul class="badges" aria-label="Outcomes by GRADE certainty">
    ${(['high', 'moderate', 'low', 'very_low'] as const).map((c) => (s[c] > 0 ? html`<li>${certaintyBadge(c, `${s[c]} ×`, '')}</li>` : ''))}
    ${review.outcome_count > rated ? html`<li><span class="badge neutral">${review.outcome_count - rated} × not rated</span></li>` : ''}
  </ul>`;
}

function reviewCard(review: ReviewItem): SafeHtml {
  return html`<li class="card">
    <h3><a href="/reviews/${review.review_id}">${review.review_id}</a>: ${review.title}</h3>
    ${
      review.title_verified
        ? ''
        : html`<p class="muted">
            <span class="badge warn">Title not confirmed</span>
            ${review.listed_title ? html`Listed as “${review.listed_title}”, which this review’s outcomes do not match.` : 'No title listed.'}
          </p>`
    }
    <p>
      ${formatCount(review.outcome_count)}
      outcome${review.outcome_count === 1 ? '' : 's'}${
        review.publication_date ? html` · published ${review.publication_date}` : ''
      }${review.is_demo ? html` · <span class="badge warn">generated demo</span>` : ''}
    </p>
    ${certaintySummary(review)}
  </li>`;
}

export function reviewPages(app: ServiceApp, db: Kysely<OralDatabase>, kit: PageKit): void {
  app.get('/reviews', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const q = param(request.query, 'q') ?? '';
      let status: number | undefined;
      let results: SafeHtml;
      try {
        const page = parsePageNumber(param(request.query, 'page'));
        const found = await listReviews(db, { q: cleanText(checkText('q', q)) }, { page, limit: REVIEWS_PER_PAGE });
        const totalPages = Math.max(1, Math.ceil(found.total / REVIEWS_PER_PAGE));
        results = html`<h2>Reviews</h2>
          <p class="count" role="status">
            ${
              found.total === 0
                ? 'No review matches.'
                : html`${formatCount(found.total)} review${found.total === 1 ? '' : 's'}, by review
                  number${found.rows.length === 0 ? html`; page ${page} is past the last page (${totalPages})` : ''}.`
            }
          </p>
          <ol class="results">
            ${found.rows.map(reviewCard)}
          </ol>
          ${pager('/reviews', { q }, page, totalPages)}`;
      } catch (error) {
        const problem = clientError(error);
        status = problem.status;
        results = errorNote(problem.message);
      }
      return {
        title: 'Systematic reviews',
        description: 'Cochrane systematic reviews on oral health with their summary-of-findings outcomes and GRADE certainty.',
        section: '/reviews',
        status,
        body: html`<h1>Systematic reviews</h1>
          <p class="lead">
            Summary-of-findings tables of systematic reviews: each outcome’s effect with its 95% confidence interval and the GRADE certainty
            of the evidence.
          </p>
          <form class="filters" method="get" action="/reviews" role="search" aria-label="Search reviews">
            <label
              >Review number or words
              <input
                type="search"
                name="q"
                value="${q}"
                maxlength="200"
                placeholder="e.g. CD007859 or sealants"
                list="review-suggestions"
                autocomplete="off"
                data-autocomplete="/api/reviews/?limit=10&amp;q="
                data-autocomplete-items="data"
                data-autocomplete-label="review_id"
              />
            </label>
            <datalist id="review-suggestions"></datalist>
            <button type="submit">Search</button>
          </form>
          ${results}`,
      };
    }),
  );

  app.get('/reviews/:reviewId', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const reviewId = (request.params as { reviewId: string }).reviewId;
      if (!/^[A-Za-z0-9-]{1,40}$/.test(reviewId)) throw badRequest(`a review number looks like CD000979, got "${reviewId}"`);
      const review = await getReview(db, reviewId);
      if (!review) throw notFound(`review ${reviewId} not found`);
      const version = await kit.dataVersion();
      return {
        title: `${review.review_id}: ${review.title}`,
        description: `Summary of findings of ${review.review_id} with a forest plot of its effects and GRADE certainty.`,
        section: '/reviews',
        body: reviewBody(review, kit, version),
      };
    }),
  );
}

interface NumberedOutcome {
  n: number;
  outcome: Outcome;
}

// Axis labels longer than this are cut here: the chart's own cut measures text with the server's font metrics,
// and a browser's wider font then overflowed the left edge.
const LABEL_CHARACTERS = 26;

/** "3 ⊕⊕◯◯ RR: Caries increment": the table row, the GRADE symbols (so colour is not alone), the measure of a ratio. */
function axisLabel(n: number, symbols: string, measure: string | null, outcome: string | null): string {
  const text = `${n} ${symbols || '—'} ${measure ? `${measure}: ` : ''}${outcome ?? 'outcome not named'}`;
  const chars = [...text];
  return chars.length <= LABEL_CHARACTERS
    ? text
    : `${chars
        .slice(0, LABEL_CHARACTERS - 1)
        .join('')
        .trimEnd()}…`;
}

/** The review's forest plots: one for every ratio (log axis), one per difference measure; and the rows not plotted. */
function forestPlots(review: ReviewDetailItem): {
  plots: ChartSpec[];
  plotted: Map<number, string>;
  notPlotted: Array<NumberedOutcome & { reason: string }>;
} {
  const groups = new Map<string, { kind: MeasureKind; rows: ForestRow[] }>();
  const plotted = new Map<number, string>();
  const notPlotted: Array<NumberedOutcome & { reason: string }> = [];
  review.outcomes.forEach((outcome, i) => {
    const n = i + 1;
    const effect = readEffect(outcome);
    if (!effect.plotted) {
      notPlotted.push({ n, outcome, reason: effect.reason });
      return;
    }
    const key = effect.kind.scale === 'ratio' ? 'ratio' : effect.kind.label;
    const group = groups.get(key) ?? { kind: effect.kind, rows: [] };
    groups.set(key, group);
    const certainty = certaintyOf(outcome.certainty);
    group.rows.push({
      label: axisLabel(n, certainty.symbols, key === 'ratio' ? effect.kind.label : null, outcome.outcome),
      estimate: effect.estimate,
      lower: effect.lower,
      upper: effect.upper,
      group: certainty.label,
    });
    plotted.set(n, key === 'ratio' ? 'ratios' : effect.kind.label);
  });
  const groupColours = Object.fromEntries([...Object.values(CERTAINTY), NOT_RATED].map((c) => [c.label, c.colour]));
  const plots = [...groups].map(([key, { kind, rows }]) =>
    key === 'ratio'
      ? forestPlot({
          id: 'forest-ratios',
          title: `Ratios (${rows.length} outcome${rows.length === 1 ? '' : 's'})`,
          description:
            'Each ratio (risk, odds, hazard or rate ratio) with its 95% confidence interval on a log scale; 1 means no difference between ' +
            'the groups. Colour and the symbols ⊕ (one to four) give the GRADE certainty; the label starts with the table row.',
          rows,
          logScale: true,
          valueName: 'ratio (log scale; 1 = no difference)',
          groupColours,
        })
      : forestPlot({
          id: `forest-${key.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
          title: `${kind.label}: ${kind.name} (${rows.length} outcome${rows.length === 1 ? '' : 's'})`,
          description:
            `Each ${kind.name} with its 95% confidence interval; 0 means no difference. ` +
            (kind.label === 'MD'
              ? 'Mean differences are in each outcome’s own units: compare each row with 0, not rows with each other. '
              : '') +
            'Colour and the symbols ⊕ (one to four) give the GRADE certainty; the label starts with the table row.',
          rows,
          valueName: kind.name,
          groupColours,
        }),
  );
  return { plots, plotted, notPlotted };
}

function effectText(o: Outcome): string {
  if (o.effect === null) return '—';
  const ci = o.ci_lower !== null && o.ci_upper !== null ? ` (${o.ci_lower} to ${o.ci_upper})` : ' (no interval)';
  return `${o.measure ? `${o.measure.trim()} ` : ''}${o.effect}${ci}`;
}

const DOWNGRADE_LABELS: Array<[keyof Outcome['downgrades'], string]> = [
  ['risk_of_bias', 'risk of bias'],
  ['imprecision', 'imprecision'],
  ['inconsistency', 'inconsistency'],
  ['indirectness', 'indirectness'],
  ['publication_bias', 'publication bias'],
  ['incoherence', 'incoherence'],
];

function reviewBody(review: ReviewDetailItem, kit: PageKit, version: string): SafeHtml {
  const { plots, plotted, notPlotted } = forestPlots(review);
  const figures = plots.map((spec) => kit.charts.figure(`oral:review:${version}:${review.review_id}:${spec.id}`, () => spec));
  const plottedCount = review.outcomes.length - notPlotted.length;
  return html`<p class="breadcrumbs"><a href="/reviews">Systematic reviews</a> ›</p>
    <h1>${review.review_id}: ${review.title}</h1>
    ${titleNotice(review)}
    ${
      review.is_demo
        ? html`<p class="note warn" role="note">
            <strong>Generated demo review.</strong> Not a real systematic review; every effect is made up.
          </p>`
        : ''
    }
    <dl class="facts">
      <dt>Version</dt>
      <dd>PUB${review.version}${review.publication_date ? html`, ${review.publication_date}` : ''}</dd>
      ${
        review.authors
          ? html`<dt>Authors</dt>
              <dd>${review.authors}</dd>`
          : ''
      }
      ${
        review.doi
          ? html`<dt>DOI</dt>
              <dd><a href="https://doi.org/${review.doi}">${review.doi}</a></dd>`
          : ''
      }
      ${
        review.url
          ? html`<dt>Cochrane Library</dt>
              <dd>${externalLink(review.url)}</dd>`
          : ''
      }
      <dt>What it compares</dt>
      <dd>${review.description}</dd>
    </dl>
    ${certaintySummary(review)}
    ${
      review.abstract
        ? html`<details>
            <summary>Abstract</summary>
            <p>${review.abstract}</p>
          </details>`
        : ''
    }
    <h2>Effects with 95% confidence intervals</h2>
    <p>
      ${
        review.outcomes.length === 0
          ? 'This review has no summary-of-findings rows.'
          : html`${formatCount(plottedCount)} of ${formatCount(review.outcomes.length)}
            outcome${review.outcomes.length === 1 ? ' is' : 's are'}
            plotted.${
              notPlotted.length > 0
                ? html` ${formatCount(notPlotted.length)} ${notPlotted.length === 1 ? 'is' : 'are'} not: their effect cannot be read as an
                    estimate with an interval, and they are <a href="#not-plotted">listed below</a> with the reason.`
                : ''
            }
            A label starts with the row of the summary-of-findings table and the GRADE certainty (⊕⊕⊕⊕ high, ⊕⊕⊕◯ moderate, ⊕⊕◯◯ low, ⊕◯◯◯
            very low, — not rated).`
      }
    </p>
    ${figures}
    ${
      notPlotted.length > 0
        ? html`<h3 id="not-plotted">Outcomes not plotted</h3>
            <ul>
              ${notPlotted.map((r) => html`<li>Row ${r.n}, ${r.outcome.outcome ?? 'outcome not named'}: ${r.reason}.</li>`)}
            </ul>`
        : ''
    }
    <h2>Summary of findings</h2>
    <div class="table-scroll">
      <table class="data sof">
        <caption>
          Summary of findings of ${review.review_id}, as the review reports it (version PUB${review.version})
        </caption>
        <thead>
          <tr>
            <th scope="col" class="num">#</th>
            <th scope="col">Outcome</th>
            <th scope="col">Population; intervention vs comparison</th>
            <th scope="col">Effect (95% CI)</th>
            <th scope="col" class="num">Participants (studies)</th>
            <th scope="col">Certainty (GRADE)</th>
            <th scope="col">Downgraded for</th>
            <th scope="col">Plot</th>
          </tr>
        </thead>
        <tbody>
          ${review.outcomes.map((o, i) => {
            const downgrades = DOWNGRADE_LABELS.filter(([k]) => o.downgrades[k] === true).map(([, label]) => label);
            return html`<tr>
              <td class="num">${i + 1}</td>
              <th scope="row">${o.outcome ?? '—'}</th>
              <td>${o.population ?? '—'}; ${o.intervention ?? '—'} vs ${o.comparison ?? '—'}</td>
              <td>${effectText(o)}${o.significant === true ? html` <span class="muted">(significant)</span>` : ''}</td>
              <td class="num">
                ${o.participants === null ? '—' : formatCount(o.participants)}${o.studies === null ? '' : html` (${o.studies})`}
              </td>
              <td>
                ${certaintyBadge(o.certainty, 'GRADE')}${
                  o.reasons
                    ? html`<details>
                        <summary>Why</summary>
                        ${o.reasons}
                      </details>`
                    : ''
                }
              </td>
              <td>${downgrades.length > 0 ? downgrades.join(', ') : '—'}</td>
              <td>${plotted.get(i + 1) ?? 'not plotted'}</td>
            </tr>`;
          })}
        </tbody>
      </table>
    </div>`;
}
