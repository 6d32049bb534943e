// What Service E's pages share: their words (E's catalogue and the page's formatters), the header, the kind-of-notice
// badge, the pager, and number formats.
import { formatNumber as numberText, html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { retractionMessages } from '../messages/index.ts';
import type { RetractionTranslate } from '../messages/index.ts';
import type { Nature } from '../nature.ts';

/** What a page writes with: its language's formatters (`loc`) and E's messages (`t`). */
export interface Words {
  loc: PageLocale;
  t: RetractionTranslate;
}

export function wordsOf(loc: PageLocale): Words {
  return { loc, t: retractionMessages.in(loc.language) };
}

/** The header (title and sections) in a language. */
export function retractionHeader(language: PageLocale['language']): {
  serviceTitle: string;
  sections: Array<{ label: string; href: string }>;
} {
  const t = retractionMessages.in(language);
  return {
    serviceTitle: t('service.title'),
    sections: [
      { label: t('nav.search'), href: '/' },
      { label: t('nav.analytics'), href: '/analytics' },
      { label: t('nav.democracy'), href: '/democracy' },
    ],
  };
}

export const formatCount = (n: number) => n.toLocaleString('en-CA');
export const formatPercent = (p: number, digits = 1) => `${(p * 100).toFixed(digits)}%`;

export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return numberText(value, digits);
}

/** The kind of notice in words, as a badge: a retraction is a retraction; the other kinds say what they are. */
export function natureBadge(nature: Nature, { t }: Words): SafeHtml {
  const tone = nature === 'retraction' ? 'bad' : nature === 'reinstatement' ? 'good' : 'warn';
  return html`<span class="badge ${tone}">${t(`nature.${nature}`)}</span>`;
}

/** A label for the data's origin, from the API's data_source description. */
export function sourceNote(source: { kind: string; description: string }, { t }: Words): SafeHtml {
  if (source.kind === 'imported') return html``;
  return html`<p class="note"><strong>${t('common.data')}</strong> ${t('common.dataText', { description: source.description })}</p>`;
}

/** Previous / next links and "Page x of y"; `href` makes a page's address. */
export function pager(page: number, totalPages: number, href: (page: number) => string, label: string, { t }: Words): HtmlValue {
  if (totalPages <= 1) return '';
  return html`<nav class="pager" aria-label="${label}">
    ${page > 1 ? html`<a rel="prev" href="${href(page - 1)}">${t('common.previous')}</a>` : ''}
    <span>${t('common.pagePosition', { page, pages: totalPages })}</span>
    ${page < totalPages ? html`<a rel="next" href="${href(page + 1)}">${t('common.next')}</a>` : ''}
  </nav>`;
}
