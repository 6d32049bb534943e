// What Service A's pages share: reading a page's query, the error page, the pager, badges that say in words
// what their colour says, and the recommendation card (search results and a guideline's list).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from '../../../core/http/errors.ts';
import { MAX_PAGE } from '../../../core/http/params.ts';
import { externalLink, html, queryString } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import type { Static } from 'typebox';
import type { Recommendation } from '../schemas/index.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../sources/index.ts';
// One place for every service's pages (core/pages/replies.ts); named here so the pages import from one module.
import { errorNote, clientError } from '../../../core/pages/replies.ts';
export { errorNote, clientError };

/** A page's query as Fastify parses it without a schema (a repeated name gives a list). */
type PageQuery = Record<string, string | string[] | undefined>;

/** The first value of a query parameter. */
export function param(query: unknown, name: string): string | undefined {
  const value = (query as PageQuery | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `page`: a whole number from 1 (absent: 1). */
export function parsePageNumber(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  if (!/^\s*\d{1,7}\s*$/.test(value)) throw badRequest(`page must be a whole number from 1, got "${value}"`);
  const page = Number(value);
  if (page < 1 || page > MAX_PAGE) throw badRequest(`page must be between 1 and ${MAX_PAGE}, got ${page}`);
  return page;
}

/** Text as the API takes it: at most 200 characters (the API's `q` rule). */
export function checkText(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.length > 200) throw badRequest(`${name} must be at most 200 characters long`);
  return value;
}

/**
 * Sends a page; a client error (an HttpError of status 4xx thrown while building it) becomes a page of that
 * status with the message, never a JSON body or a 500.
 */
export async function sendPage(
  kit: PageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  build: () => Promise<PageRequest & { status?: number }>,
): Promise<string> {
  try {
    const page = await build();
    if (page.status) reply.code(page.status);
    return await kit.send(request, reply, page);
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
    reply.code(error.statusCode).header('cache-control', 'no-store');
    const title = error.statusCode === 404 ? 'Not found' : 'Cannot show this page';
    return kit.send(request, reply, { title, body: errorBody(title, error.message) });
  }
}

function errorBody(title: string, message: string): SafeHtml {
  return html`<h1>${title}</h1>
    ${errorNote(message)}
    <p><a href="/">Search the evidence</a> · <a href="/reviews">Systematic reviews</a> · <a href="/guidelines">Guidelines</a></p>`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-CA');
}

/** Previous / next links and "page x of y", keeping the other parameters. */
export function pager(path: string, params: Record<string, string | number | undefined>, page: number, totalPages: number): HtmlValue {
  if (totalPages <= 1 && page <= 1) return '';
  const link = (p: number) => `${path}${queryString({ ...params, page: p === 1 ? undefined : p })}`;
  return html`<nav class="pager" aria-label="Pages of results">
    ${page > 1 ? html`<a rel="prev" href="${link(Math.min(page - 1, totalPages))}">← Previous</a>` : ''}
    <span>Page ${formatCount(page)} of ${formatCount(totalPages)}</span>
    ${page < totalPages ? html`<a rel="next" href="${link(page + 1)}">Next →</a>` : ''}
  </nav>`;
}

const STRENGTH_TONE: Record<string, string> = {
  Strong: 'good',
  Moderate: 'neutral',
  Conditional: 'warn',
  Weak: 'warn',
  'Good practice point': 'neutral',
};
const QUALITY_TONE: Record<string, string> = {
  High: 'good',
  Moderate: 'neutral',
  Low: 'warn',
  'Very low': 'bad',
  'Expert opinion': 'neutral',
};

/** GRADE certainty (normalised: high, moderate, low, very_low; null: not rated) as words, symbols and a tone. */
export const CERTAINTY: Record<string, { label: string; symbols: string; tone: string; colour: string }> = {
  high: { label: 'High', symbols: '⊕⊕⊕⊕', tone: 'good', colour: '#007A5A' },
  moderate: { label: 'Moderate', symbols: '⊕⊕⊕◯', tone: 'neutral', colour: '#0072B2' },
  low: { label: 'Low', symbols: '⊕⊕◯◯', tone: 'warn', colour: '#B05A00' },
  very_low: { label: 'Very low', symbols: '⊕◯◯◯', tone: 'bad', colour: '#A1122B' },
};
export const NOT_RATED = { label: 'Not rated', symbols: '', tone: 'neutral', colour: '#555555' };

export function certaintyOf(value: string | null) {
  return (value !== null && CERTAINTY[value]) || NOT_RATED;
}

export function certaintyBadge(value: string | null, prefix = 'Certainty', separator = ':'): SafeHtml {
  const c = certaintyOf(value);
  return html`<span class="badge ${c.tone}"
    >${prefix}${separator} ${c.label}${c.symbols ? html` <span aria-hidden="true">${c.symbols}</span>` : ''}</span
  >`;
}

type RecommendationItem = Static<typeof Recommendation>;

export function recommendationBadges(rec: Pick<RecommendationItem, 'strength' | 'evidence_quality' | 'grade'>): SafeHtml {
  return html`<ul class="badges">
    <li>
      ${
        rec.strength
          ? html`<span class="badge ${STRENGTH_TONE[rec.strength.name] ?? 'neutral'}" title="${rec.strength.description}"
              >Strength: ${rec.strength.name}</span
            >`
          : html`<span class="badge neutral">Strength: not stated</span>`
      }
    </li>
    <li>
      ${
        rec.evidence_quality
          ? html`<span class="badge ${QUALITY_TONE[rec.evidence_quality.name] ?? 'neutral'}" title="${rec.evidence_quality.description}"
              >Evidence: ${rec.evidence_quality.name}</span
            >`
          : html`<span class="badge neutral">Evidence: not graded</span>`
      }
    </li>
    ${rec.grade ? html`<li><span class="badge neutral">Grade ${rec.grade}</span></li>` : ''}
  </ul>`;
}

/** One recommendation as a card; `withGuideline` adds the line naming its guideline (search results). */
export function recommendationCard(rec: RecommendationItem, withGuideline: boolean): SafeHtml {
  const g = rec.guideline;
  return html`<li class="card" id="recommendation-${rec.id}">
    <h3>${rec.recommendation_number ? html`<span class="muted">${rec.recommendation_number}</span> ` : ''}${rec.title}</h3>
    ${recommendationBadges(rec)}
    <p>${rec.text}</p>
    ${rec.clinical_context ? html`<p class="muted">Context: ${rec.clinical_context}</p>` : ''}
    ${rec.topics.length > 0 ? html`<p class="muted">Topics: ${rec.topics.map((t) => t.name).join(', ')}</p>` : ''}
    ${
      withGuideline
        ? html`<p class="source">
            From <a href="/guidelines/${g.id}">${g.title}</a> — ${g.organization}, ${g.country.flag_emoji}
            ${g.region ?? g.country.name}${g.publication_year ? html`, ${g.publication_year}` : ''}${
              g.is_demo ? html` <span class="badge warn">generated demo</span>` : ''
            }
          </p>`
        : ''
    }
    ${
      rec.source_url || rec.page_number
        ? html`<p class="muted">${externalLink(rec.source_url, 'Source')}${rec.page_number ? html`, page ${rec.page_number}` : ''}</p>`
        : ''
    }
    ${
      rec.references.length > 0
        ? html`<details>
            <summary>${rec.references.length} reference${rec.references.length === 1 ? '' : 's'}</summary>
            <ol>
              ${rec.references.map(
                (r) =>
                  html`<li>
                    ${r.text}${r.doi ? html` <a href="https://doi.org/${r.doi}">doi:${r.doi}</a>` : ''}${
                      r.pmid ? html` <a href="https://pubmed.ncbi.nlm.nih.gov/${r.pmid}/">PMID ${r.pmid}</a>` : ''
                    }
                  </li>`,
              )}
            </ol>
          </details>`
        : ''
    }
  </li>`;
}

/** An option of a select, selected when it is the current value. */
export function option(value: string, label: string, current: string | undefined): SafeHtml {
  return html`<option value="${value}" ${value === (current ?? '') ? html`selected` : ''}>${label}</option>`;
}

/** The select of one of the imported vocabularies (topics, strengths, evidence qualities), or the countries. */
function vocabularySelect(
  label: string,
  name: string,
  any: string,
  choices: ReadonlyArray<{ value: string; label: string }>,
  current: string,
): SafeHtml {
  return html`<label
    >${label}
    <select name="${name}">
      ${option('', any, current)} ${choices.map((c) => option(c.value, c.label, current))}
    </select>
  </label>`;
}

/** The filters the recommendation search and the search of all evidence share, in the same words. */
export const filterSelects = {
  country: (current: string) =>
    vocabularySelect(
      'Country',
      'country',
      'Any country',
      COUNTRIES.map((c) => ({ value: c.code, label: c.name })),
      current.toUpperCase(),
    ),
  topic: (current: string) =>
    vocabularySelect(
      'Topic',
      'topic',
      'Any topic',
      TOPICS.entries.map((t) => ({ value: t.slug, label: t.name })),
      current,
    ),
  strength: (current: string) =>
    vocabularySelect(
      'Strength',
      'strength',
      'Any strength',
      STRENGTHS.entries.map((t) => ({ value: t.slug, label: t.name })),
      current,
    ),
  evidenceQuality: (current: string) =>
    vocabularySelect(
      'Evidence quality',
      'evidence_quality',
      'Any quality',
      EVIDENCE_QUALITIES.entries.map((t) => ({ value: t.slug, label: t.name })),
      current,
    ),
};
