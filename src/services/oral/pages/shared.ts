// What Service A's pages share: their words (A's catalogue and the page's formatters), the pager, badges that say in
// words what their colour says, the recommendation card (search results and a guideline's list) and the filters.
import type { Static } from 'typebox';
import { externalLink, html, queryString } from '../../../core/pages/index.ts';
import type { HtmlValue, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { oralMessages } from '../messages/index.ts';
import type { OralTranslate } from '../messages/index.ts';
import type { Recommendation } from '../schemas/index.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from '../sources/index.ts';

/** What a page writes with: its language's formatters (`loc`) and A's messages (`t`). */
export interface Words {
  loc: PageLocale;
  t: OralTranslate;
}

export function wordsOf(loc: PageLocale): Words {
  return { loc, t: oralMessages.in(loc.language) };
}

/** The header (title and sections) in a language. */
export function oralHeader(language: PageLocale['language']): { serviceTitle: string; sections: Array<{ label: string; href: string }> } {
  const t = oralMessages.in(language);
  return {
    serviceTitle: t('service.title'),
    sections: [
      { label: t('nav.search'), href: '/' },
      { label: t('nav.allEvidence'), href: '/search' },
      { label: t('nav.guidelines'), href: '/guidelines' },
      { label: t('nav.reviews'), href: '/reviews' },
      { label: t('nav.statistics'), href: '/statistics' },
    ],
  };
}

/** Previous / next links and "page x of y", keeping the other parameters. */
export function pager(
  path: string,
  params: Record<string, string | number | undefined>,
  page: number,
  totalPages: number,
  w: Words,
): HtmlValue {
  if (totalPages <= 1 && page <= 1) return '';
  const t = w.loc.layout;
  const link = (p: number) => `${path}${queryString({ ...params, page: p === 1 ? undefined : p })}`;
  return html`<nav class="pager" aria-label="${t('pager.label')}">
    ${page > 1 ? html`<a rel="prev" href="${link(Math.min(page - 1, totalPages))}">${t('pager.previous')}</a>` : ''}
    <span>${t('pager.position', { page, pages: totalPages })}</span>
    ${page < totalPages ? html`<a rel="next" href="${link(page + 1)}">${t('pager.next')}</a>` : ''}
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

export const CERTAINTIES = ['high', 'moderate', 'low', 'very_low'] as const;
type Certainty = (typeof CERTAINTIES)[number];

/** GRADE certainty (normalised: high, moderate, low, very_low; null: not rated): symbols, a tone and a colour. */
const CERTAINTY_LOOK: Record<Certainty, { symbols: string; tone: string; colour: string }> = {
  high: { symbols: '⊕⊕⊕⊕', tone: 'good', colour: '#007A5A' },
  moderate: { symbols: '⊕⊕⊕◯', tone: 'neutral', colour: '#0072B2' },
  low: { symbols: '⊕⊕◯◯', tone: 'warn', colour: '#B05A00' },
  very_low: { symbols: '⊕◯◯◯', tone: 'bad', colour: '#A1122B' },
};
const NOT_RATED_LOOK = { symbols: '', tone: 'neutral', colour: '#555555' };

export interface CertaintyLook {
  label: string;
  symbols: string;
  tone: string;
  colour: string;
}

function isCertainty(value: string | null): value is Certainty {
  return value !== null && value in CERTAINTY_LOOK;
}

/** A certainty in words, with its symbols, tone and colour. */
export function certaintyOf(value: string | null, w: Words): CertaintyLook {
  return isCertainty(value)
    ? { label: w.t(`certainty.${value}`), ...CERTAINTY_LOOK[value] }
    : { label: w.t('certainty.notRated'), ...NOT_RATED_LOOK };
}

/** Every certainty and "not rated", in words: the colours of a forest plot's groups. */
export function certaintyColours(w: Words): Record<string, string> {
  return Object.fromEntries([...CERTAINTIES, null].map((c) => certaintyOf(c, w)).map((c) => [c.label, c.colour]));
}

/** A certainty as a badge: "Certainty: High", or the words `say` makes of its label ("3 outcomes: High"). */
export function certaintyBadge(value: string | null, w: Words, say?: (label: string) => string): SafeHtml {
  const c = certaintyOf(value, w);
  const text = say ? say(c.label) : w.t('badge.certainty', { label: c.label });
  return html`<span class="badge ${c.tone}">${text}${c.symbols ? html` <span aria-hidden="true">${c.symbols}</span>` : ''}</span>`;
}

type RecommendationItem = Static<typeof Recommendation>;

export function recommendationBadges(rec: Pick<RecommendationItem, 'strength' | 'evidence_quality' | 'grade'>, w: Words): SafeHtml {
  const { t } = w;
  return html`<ul class="badges">
    <li>
      ${
        rec.strength
          ? html`<span class="badge ${STRENGTH_TONE[rec.strength.name] ?? 'neutral'}" title="${rec.strength.description}"
              >${t('badge.strength', { name: rec.strength.name })}</span
            >`
          : html`<span class="badge neutral">${t('badge.strengthNone')}</span>`
      }
    </li>
    <li>
      ${
        rec.evidence_quality
          ? html`<span class="badge ${QUALITY_TONE[rec.evidence_quality.name] ?? 'neutral'}" title="${rec.evidence_quality.description}"
              >${t('badge.evidence', { name: rec.evidence_quality.name })}</span
            >`
          : html`<span class="badge neutral">${t('badge.evidenceNone')}</span>`
      }
    </li>
    ${rec.grade ? html`<li><span class="badge neutral">${t('badge.grade', { grade: rec.grade })}</span></li>` : ''}
  </ul>`;
}

function references(rec: RecommendationItem, w: Words): HtmlValue {
  if (rec.references.length === 0) return '';
  return html`<details>
    <summary>${w.t('card.references', { n: rec.references.length })}</summary>
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
  </details>`;
}

/** One recommendation as a card; `withGuideline` adds the line naming its guideline (search results). */
export function recommendationCard(rec: RecommendationItem, withGuideline: boolean, w: Words): SafeHtml {
  const { t } = w;
  const g = rec.guideline;
  return html`<li class="card" id="recommendation-${rec.id}">
    <h3>${rec.recommendation_number ? html`<span class="muted">${rec.recommendation_number}</span> ` : ''}${rec.title}</h3>
    ${recommendationBadges(rec, w)}
    <p>${rec.text}</p>
    ${rec.clinical_context ? html`<p class="muted">${t('card.context', { text: rec.clinical_context })}</p>` : ''}
    ${rec.topics.length > 0 ? html`<p class="muted">${t('card.topics', { topics: rec.topics.map((x) => x.name).join(', ') })}</p>` : ''}
    ${
      withGuideline
        ? html`<p class="source">
            ${t('card.from')} <a href="/guidelines/${g.id}">${g.title}</a> — ${g.organization}, ${g.country.flag_emoji}
            ${g.region ?? g.country.name}${g.publication_year ? html`, ${g.publication_year}` : ''}${
              g.is_demo ? html` <span class="badge warn">${t('common.generatedDemo')}</span>` : ''
            }
          </p>`
        : ''
    }
    ${
      rec.source_url || rec.page_number
        ? html`<p class="muted">
            ${externalLink(rec.source_url, t('card.source'))}${rec.page_number ? t('card.page', { page: rec.page_number }) : ''}
          </p>`
        : ''
    }
    ${references(rec, w)}
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
  country: (current: string, { t }: Words) =>
    vocabularySelect(
      t('common.country'),
      'country',
      t('common.anyCountry'),
      COUNTRIES.map((c) => ({ value: c.code, label: c.name })),
      current.toUpperCase(),
    ),
  topic: (current: string, { t }: Words) =>
    vocabularySelect(
      t('common.topic'),
      'topic',
      t('common.anyTopic'),
      TOPICS.entries.map((x) => ({ value: x.slug, label: x.name })),
      current,
    ),
  strength: (current: string, { t }: Words) =>
    vocabularySelect(
      t('common.strength'),
      'strength',
      t('common.anyStrength'),
      STRENGTHS.entries.map((x) => ({ value: x.slug, label: x.name })),
      current,
    ),
  evidenceQuality: (current: string, { t }: Words) =>
    vocabularySelect(
      t('common.evidenceQuality'),
      'evidence_quality',
      t('common.anyQuality'),
      EVIDENCE_QUALITIES.entries.map((x) => ({ value: x.slug, label: x.name })),
      current,
    ),
};

/** The words input of a search form, with what the client wrote. */
export function wordsField(value: string, w: Words, placeholder = true): SafeHtml {
  return html`<label
    >${w.t('common.words')}
    <input
      type="search"
      name="q"
      value="${value}"
      maxlength="200"
      ${placeholder ? html`placeholder="${w.t('common.wordsPlaceholder')}"` : ''}
    />
  </label>`;
}
