// Auto-escaping HTML templates: every interpolated value is escaped unless it is already HTML made by
// `html` itself (or `trustedHtml`, for markup this program produced, such as a chart's SVG). A page can
// therefore not carry a client's text as markup by accident.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Markup that is safe to insert as it is. Only `html`, `trustedHtml` and `joinHtml` make one. */
export class SafeHtml {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** A value a template can take: text (escaped), numbers, markup, lists of them; null, undefined and false print nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return escapeHtml(String(value));
}

/** The template tag: html`<p>${text}</p>` escapes `text`; nested html`` fragments are kept as markup. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Markup produced by this program (never from a client or a data file), inserted without escaping. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue = ''): SafeHtml {
  const sep = render(separator);
  return new SafeHtml(parts.map((p) => render(p)).join(sep));
}

/** An attribute's value for a URL query built from parameters (undefined and '' are left out). */
export function queryString(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** True for an absolute http(s) address: the only stored addresses a page may put in an href. */
export function isWebAddress(url: string | null | undefined): url is string {
  // Browsers drop leading spaces and tabs inside a scheme ("java\tscript:"): the text itself must start with the scheme.
  if (!url || !/^https?:\/\//i.test(url)) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A link to an address read from data (a file, a source's record): a link only when it is http(s); anything else
 * (`javascript:`, `data:`, a relative path) is shown as text, so stored data can never run or load in the page.
 */
export function externalLink(url: string | null | undefined, label: HtmlValue = url): SafeHtml {
  return isWebAddress(url) ? html`<a href="${url}">${label}</a>` : html`${label}`;
}
