// A page opened with `?lang=` keeps its language as the visitor moves on: every link to another page of this service
// and every GET form gets `lang`. Done once on the finished markup, not in each page's links, so that no link can
// forget it. Only markup this program wrote reaches here (the html`` templates escape every value), and only
// same-service page addresses are touched: not the API, the documents, the assets, nor the hops to other services
// (which may not speak the language).
import type { Language } from '../i18n/language.ts';

const SKIPPED = /^\/(?:api\/|docs|openapi|services\/|assets\/|favicon)/;

function withLang(href: string, language: Language): string {
  if (href.startsWith('//') || SKIPPED.test(href)) return href;
  const hash = href.indexOf('#');
  const path = hash < 0 ? href : href.slice(0, hash);
  const fragment = hash < 0 ? '' : href.slice(hash);
  if (/[?&](?:amp;)?lang=/.test(path)) return href;
  return `${path}${path.includes('?') ? '&amp;' : '?'}lang=${language}${fragment}`;
}

export function keepLanguage(markup: string, language: Language): string {
  return markup
    .replace(/(<a\b[^>]*?\shref=")(\/[^"]*)"/g, (_m, start: string, href: string) => `${start}${withLang(href, language)}"`)
    .replace(/<form\b[^>]*>/g, (tag) => {
      const method = /\smethod="([^"]*)"/i.exec(tag)?.[1]?.toLowerCase() ?? 'get';
      if (method !== 'get') {
        return tag.replace(/(\saction=")(\/[^"]*)"/, (_m, start: string, href: string) => `${start}${withLang(href, language)}"`);
      }
      return `${tag}<input type="hidden" name="lang" value="${language}" />`;
    });
}

/** The address of the same page in another language: the current query kept, `lang` set. */
export function languageHref(url: string, language: Language): string {
  const parsed = new URL(url, 'http://page.invalid');
  parsed.searchParams.set('lang', language);
  return `${parsed.pathname}${parsed.search}`;
}
